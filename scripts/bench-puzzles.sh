#!/usr/bin/env bash
# God's algorithm side by side with twips (cubing/twips, the Rust successor of twsearch):
# the same cubing.js definitions and generators, alternating (cubelab, then twips, per puzzle
# and round) so that the machine's drift affects both alike, one thread each by default. Prints
# a markdown table: positions, God's number, seconds and peak memory of each (GNU time's
# elapsed and maximum resident size), the ratios, and whether the two agree on the number of
# positions and God's number (twips prints no count per distance).
#
#   scripts/bench-puzzles.sh [ROUNDS]
#
# twips is installed from crates.io outside this repository, never vendored:
#   cargo install --locked --no-default-features twips-cli --version 0.12.3
# Environment: TWIPS (its binary, default `twips` on the PATH), THREADS (cubelab's --threads,
# default 1), PUZZLES (the definitions, default target/kpuzzle, written by
# scripts/puzzle-definitions.sh), TIMEOUT (seconds a run, default 1200), CASES (lines
# `NAME|MOVES|CUBELAB OPTIONS`, default the list below).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-2}
twips=${TWIPS:-twips}
threads=${THREADS:-1}
defs=${PUZZLES:-target/kpuzzle}
timeout=${TIMEOUT:-1200}
command -v "$twips" >/dev/null || {
  echo "bench-puzzles.sh: no twips ($twips); install it with \`cargo install --locked --no-default-features twips-cli --version 0.12.3\`" >&2
  exit 2
}
[ -f "$defs/2x2x2.kpuzzle.json" ] || scripts/puzzle-definitions.sh "$defs" >/dev/null
cargo build --release --quiet --bin cubelab
# The races of reports/puzzles.md. twips takes about ten minutes on the Pyraminx with tips.
cases=${CASES:-"2x2x2|U,F,R|
pyraminx|2r,2l,2b,2u|
pyraminx|r,l,b,u,2r,2l,2b,2u|"}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

source scripts/bench-lib.sh

# twips's count and depth, as "TOTAL DEPTH": its lines "Found 3_674_160 (...) patterns." and
# "Maximum depth: 11 moves" (it prints no count per depth).
twips_total() {
  local total depth
  total=$(sed -n 's/^Found \([0-9_]*\).*/\1/p' "$1" | tr -d _)
  depth=$(sed -n 's/^Maximum depth: \([0-9]*\).*/\1/p' "$1")
  echo "${total:-?} ${depth:-?}"
}

echo "| puzzle | moves | positions | God's number | round | cubelab s | cubelab MiB | twips s | twips MiB | time ratio | memory ratio | total and depth agree |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
while IFS='|' read -r name moves options; do
  [ -n "$name" ] || continue
  def=$defs/$name.kpuzzle.json
  for round in $(seq "$rounds"); do
    # shellcheck disable=SC2086
    ours=$(timed "$out/ours" target/release/cubelab puzzle gods "$def" --moves "$moves" \
      --threads "$threads" --json $options)
    theirs=$(timed "$out/twips" "$twips" gods-algorithm --num-threads "$threads" \
      --generator-moves "$moves" "$def")
    read -r our_s our_kib <<<"$ours" || true
    read -r their_s their_kib <<<"$theirs" || true
    total=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["total"], d["diameter"], ",".join(map(str, d["counts"])))' "$out/ours" 2>/dev/null || echo "- - -")
    read -r positions diameter _ <<<"$total"
    agree=$([ "$(twips_total "$out/twips")" == "$positions $diameter" ] && echo yes || echo "no: twips $(twips_total "$out/twips")")
    echo "| $name | $moves | $positions | $diameter | $round | ${our_s:-failed} | $(mib "${our_kib:-}") | ${their_s:-failed} | $(mib "${their_kib:-}") | $(ratio "${our_s:-x}" "${their_s:-x}") | $(ratio "${our_kib:-x}" "${their_kib:-x}") | $agree |"
  done
done <<<"$cases"
