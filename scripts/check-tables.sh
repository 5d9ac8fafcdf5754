#!/usr/bin/env bash
# The table checks too big for the test suite. Builds every table in both metrics (reusing valid
# ones) into $CUBELAB_DATA (default data/), then runs the ignored tests of
# tests/suite/pattern_databases.rs over them:
#   - each 7-edge table equals, entry by entry, a plain single-threaded reference BFS over the
#     same coordinate (about 2 GB of memory and a few minutes per metric);
#   - corners and both 7-edge sets never exceed the true distance of 3,000 random positions up to
#     8 turns from solved (true distances by a meet-in-the-middle search);
#   - the checks of tests/suite/phase1_solver.rs (the raw phase-1 tables against their published
#     distributions and as exact distances, and the phase-1 solver in both metrics), which need
#     an 80-s table build per metric that the suite skips.
# The outcome is written to reports/table-checks.md.
#
# With the argument `ud`, instead: the symmetry-reduced `ud-f4` coset table (HTM) against an
# unreduced breadth-first search of the same 1.2 billion cosets, entry by entry (the ignored
# unit test in src/space/ud/tests.rs; about 3 minutes and 0.7 GB); written to reports/ud-table-checks.md.
# With the argument `h48`: the `h48-flips` ladder (h48-flips and the coarser tables read off it,
# built into $CUBELAB_DATA by one search: 15 GB of memory, about 16 minutes here) as bounds and
# in the solver (the ignored test in tests/suite/h48_solver.rs); written to
# reports/h48-table-checks.md.
# With the argument `h48-eo` (and optionally the tables, default h48-eo6): each `h48-eo` table
# (filled from near solved: about 11 minutes each here, in the table's own size and a few hundred
# MB) as bounds of 500 positions and in the solver, and each against its finer neighbour where
# both are built (the ignored tests in tests/suite/h48_eo.rs); written to
# reports/h48-eo-table-checks.md.
# With the argument `puzzles`: the whole spaces from cubing.js's definitions too large for the
# suite (the ignored tests puzzles::large_ in tests/suite/puzzles.rs: the 3x3x3's phase-1
# space of 2.2 billion states, about 80 s and 0.6 GB); written to reports/puzzle-table-checks.md.
# Usage: scripts/check-tables.sh [ud|h48|h48-eo [TABLE...]|puzzles]
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == puzzles ]]; then
  scripts/puzzle-definitions.sh target/kpuzzle >/dev/null
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  start=$(date +%s)
  status=0
  CUBELAB_KPUZZLE=$PWD/target/kpuzzle cargo test --release --test suite puzzles::large_ -- \
    --ignored 2>&1 | tee "$log" || status=$?
  {
    echo "# Puzzle table checks"
    echo
    echo "\`scripts/check-tables.sh puzzles\` on $(date -u +%Y-%m-%d): $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs),"
    echo "$(( $(date +%s) - start )) s, exit status $status: whole spaces from cubing.js's definitions"
    echo "by \`cubelab puzzle gods\`, count by count against published distributions (the 3x3x3's"
    echo "phase-1 space as a sub-goal: 2,217,093,120 states against Winter's and Reid's counts)."
    echo
    echo '```'
    grep -E '^test .* (ok|FAILED)$|^test result' "$log"
    echo '```'
  } >reports/puzzle-table-checks.md
  exit "$status"
fi
if [[ ${1:-} == h48-eo ]]; then
  shift
  export CUBELAB_DATA=${CUBELAB_DATA:-data}
  tables=("${@:-h48-eo6}")
  cargo run --release --quiet --bin gen-tables -- --data-dir "$CUBELAB_DATA" "${tables[@]}" >/dev/null
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  start=$(date +%s)
  status=0
  # The neighbour check compares two tables one flip apart; with fewer it has nothing to do.
  checks=(h48_eo::built_eo_tables_bound_and_solve)
  for t in "${tables[@]}"; do
    n=${t#h48-eo}
    [[ " ${tables[*]} " == *" h48-eo$((n + 1)) "* ]] && checks=(h48_eo::built_eo_tables) && break
  done
  cargo test --release --test suite "${checks[0]}" -- --ignored --nocapture 2>&1 |
    tee "$log" || status=$?
  {
    echo "# h48-eo table checks"
    echo
    echo "\`scripts/check-tables.sh h48-eo ${tables[*]}\` on $(date -u +%Y-%m-%d): $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs),"
    echo "$(( $(date +%s) - start )) s (tables already built), exit status $status: each table bounds 500"
    echo "positions within 9 turns by at most their true distance, and solves scrambles to the"
    echo "lengths of an independent search; each table whose finer neighbour (one flip more) is"
    echo "built is that neighbour collapsed, code by code over every entry (by the distances"
    echo "the codes stand for where the two bases differ: 8 up to h48-eo6, 9 above)."
    echo
    echo '```'
    grep -E '^test .* (ok|FAILED)$|^test result|checked$' "$log"
    echo '```'
  } >reports/h48-eo-table-checks.md
  exit "$status"
fi
if [[ ${1:-} == h48 ]]; then
  export CUBELAB_DATA=${CUBELAB_DATA:-data}
  cargo run --release --quiet --bin gen-tables -- --data-dir "$CUBELAB_DATA" h48-flips \
    h48-flips7 h48-flips6 h48-flips5 h48-flips4 h48-flips3 >/dev/null
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  start=$(date +%s)
  status=0
  cargo test --release --test suite h48_solver:: -- --ignored 2>&1 | tee "$log" || status=$?
  {
    echo "# h48 ladder checks"
    echo
    echo "\`scripts/check-tables.sh h48\` on $(date -u +%Y-%m-%d): $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs),"
    echo "$(( $(date +%s) - start )) s (tables already built), exit status $status: every rung of the h48-flips"
    echo "ladder bounds 500 positions within 9 turns by at most their true distance, and solves"
    echo "scrambles to the lengths of an independent search."
    echo
    echo '```'
    grep -E '^test .* (ok|FAILED)$|^test result' "$log"
    echo '```'
  } >reports/h48-table-checks.md
  exit "$status"
fi
if [[ ${1:-} == ud ]]; then
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  start=$(date +%s)
  status=0
  cargo test --release --lib -- --ignored the_reduced_table_equals_an_unreduced_search 2>&1 |
    tee "$log" || status=$?
  {
    echo "# ud coset table checks"
    echo
    echo "\`scripts/check-tables.sh ud\` on $(date -u +%Y-%m-%d): $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs),"
    echo "$(( $(date +%s) - start )) s, exit status $status: the symmetry-reduced ud-f4 table (HTM) equals an"
    echo "unreduced breadth-first search of the same cosets, entry by entry."
    echo
    echo '```'
    grep -E '^test .* (ok|FAILED)$|^test result' "$log"
    echo '```'
    echo
    echo "ud-layers-f4 (HTM), built by gen-tables, has the same number of cosets at each depth from 1 to 10"
    echo "as vcube's generator prints for its coordinate 304 (reports/performance.md, issue #12)."
  } >reports/ud-table-checks.md
  exit "$status"
fi
export CUBELAB_DATA=${CUBELAB_DATA:-data}
cargo run --release --quiet --bin gen-tables -- --data-dir "$CUBELAB_DATA" --metric both >/dev/null
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
status=0
cargo test --release --test suite pattern_databases:: -- --ignored 2>&1 | tee "$log" || status=$?
cargo test --release --test suite phase1_solver:: -- --ignored 2>&1 | tee -a "$log" || status=$?
{
  echo "# 7-edge and phase-1 table checks"
  echo
  echo "\`scripts/check-tables.sh\` on $(date -u +%Y-%m-%d): $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs),"
  echo "$(( $(date +%s) - start )) s, exit status $status. The ignored tests of tests/suite/pattern_databases.rs and tests/suite/phase1_solver.rs:"
  echo
  echo '```'
  grep -E '^test .* (ok|FAILED)$|^test result' "$log"
  echo '```'
} >reports/table-checks.md
exit "$status"
