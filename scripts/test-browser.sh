#!/usr/bin/env bash
# The web editor and the HTTP API end to end: starts `cubelab serve` on a free loopback port over
# the small test tables, drives the editor in headless Chromium (tests/browser/editor.mjs, by
# playwright-core from npm: paint a scrambled cube, solve it, step to solved), then its 3D view
# (tests/browser/view3d.mjs: cubing.js's <twisty-player>, installed by `npm ci --prefix web`,
# renders in our colours, turns with the mouse, follows the net, plays a solution to solved),
# then the page without that install (a second server with --web-modules /nonexistent: a note
# in place of the 3D view, the net still solves); screenshots in target/browser/. Last a short
# load test (`cubelab load-test`: 2x2 and short 3x3 solves, bad requests that must get 4xx, the
# server answering afterwards). Installs Debian's chromium if missing (root or sudo). The
# servers are stopped when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "browser test: $*"; }
chromium=${CHROMIUM:-/usr/bin/chromium}
CHROMIUM=$chromium scripts/install-test-packages.sh browser | sed "s/^/browser test: /"
# playwright-core, and the 3D view's packages (cubing and three) that `cubelab serve` serves
# from web/node_modules.
scripts/npm-install.sh tests/browser web

data=${CUBELAB_TEST_DATA_DIR:-target/test-data}  # as in scripts/test-python.sh
out=target/browser
mkdir -p "$out"
# The binaries as the Rust tests built them: a plain `cargo build` resolves the dependencies'
# features without the test-only ones and would compile everything again (a minute or more).
cargo test --release --quiet --no-run
scripts/seed-test-data.sh "$data"
target/release/gen-tables --data-dir "$data" 2x2 ud-f4 >/dev/null
servers=()
trap 'for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done' EXIT
# Starts `cubelab serve` (extra arguments passed on) logging to $1 and sets $url to its address.
serve() {
  local log=$1
  shift
  target/release/cubelab serve --port 0 --data-dir "$data" --tables ud-f4 "$@" >"$log" 2>&1 &
  servers+=($!)
  url=
  for _ in $(seq 100); do
    url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$log")
    [ -n "$url" ] && return
    sleep 0.1
  done
  say "the server did not start"
  cat "$log"
  exit 1
}
serve "$out/serve.log"
say "server at $url"
CHROMIUM=$chromium node tests/browser/editor.mjs "$url" "$out/editor.png"
CHROMIUM=$chromium node tests/browser/view3d.mjs "$url" "$out"
full=$url
serve "$out/serve-no-modules.log" --web-modules /nonexistent
say "server without the 3D view's packages at $url"
CHROMIUM=$chromium node tests/browser/view3d.mjs "$url" "$out" --fallback
target/release/cubelab load-test --url "$full" --duration "${CUBELAB_LOAD_SECONDS:-2}" --connections 4
say "passed"
