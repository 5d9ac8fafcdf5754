#!/usr/bin/env bash
# The web editor and the HTTP API end to end: starts `cubelab serve` on a free loopback port over
# the small test tables, drives the editor in headless Chromium (tests/browser/editor.mjs, by
# playwright-core from npm: paint a scrambled cube, solve it, step to solved; a screenshot in
# target/browser/), then runs a short load test (`cubelab load-test`: 2x2 and short 3x3 solves,
# bad requests that must get 4xx, the server answering afterwards). Installs Debian's chromium
# if missing (root or sudo). The server is stopped when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "browser test: $*"; }
chromium=${CHROMIUM:-/usr/bin/chromium}
CHROMIUM=$chromium scripts/install-test-packages.sh browser | sed "s/^/browser test: /"
(cd tests/browser && npm ci --silent --no-audit --no-fund >/dev/null)

data=target/test-data
out=target/browser
mkdir -p "$out"
# The binaries as the Rust tests built them: a plain `cargo build` resolves the dependencies'
# features without the test-only ones and would compile everything again (a minute or more).
cargo test --release --quiet --no-run
target/release/gen-tables --data-dir "$data" 2x2 ud-f4 >/dev/null
log=$out/serve.log
target/release/cubelab serve --port 0 --data-dir "$data" --tables ud-f4 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
url=
for _ in $(seq 100); do
  url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$log")
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -z "$url" ]; then say "the server did not start"; cat "$log"; exit 1; fi
say "server at $url"
CHROMIUM=$chromium node tests/browser/editor.mjs "$url" "$out/editor.png"
target/release/cubelab load-test --url "$url" --duration "${CUBELAB_LOAD_SECONDS:-2}" --connections 4
say "passed"
