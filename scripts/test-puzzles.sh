#!/usr/bin/env bash
# The puzzle-definition checks that need cubing.js's own definitions: writes them into
# target/kpuzzle (scripts/puzzle-definitions.sh: the `cubing` npm package, Node.js and npm),
# then runs the suite's tests that read them (marked ignored for a plain `cargo test`):
# Pyraminx and Skewb against their published counts, cubing.js's 2x2x2 against the cube's own
# table and the 3x3x3's corners (a sub-goal) against the corner table's, the Pyraminx solved
# (its pattern databases written once, read again), the 2x2x2 and 3x3x3 solved as the cube's
# own solvers solve them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/puzzle-definitions.sh target/kpuzzle >/dev/null
# The large ones (puzzles::large_) run in scripts/check-tables.sh puzzles.
CUBELAB_KPUZZLE=$PWD/target/kpuzzle cargo test --release --test suite puzzles:: -- --ignored \
  --skip puzzles::large_
