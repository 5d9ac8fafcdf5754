#!/usr/bin/env bash
# Seeds the test parts' table directory (default target/test-data: the Slurm, Python and browser
# parts read it) with copies of the tables the integration suite has just built and checked
# (target/tmp/suite-*/tables, the newest), so that a clean clone's run builds each of them
# once. Only tables missing there are copied; `gen-tables`, which each part runs next, checks
# every copy's checksum before it is used, and builds whatever is still missing.
# Usage: scripts/seed-test-data.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-target/test-data}
suite=$(ls -dt target/tmp/suite-*/tables 2>/dev/null | head -n 1 || true)
[[ -n $suite ]] || exit 0
mkdir -p "$data"
for name in 2x2-htm 2x2-qtm corners-htm ud-f4-htm phase1-sym-htm phase1-sym-qtm phase2-htm \
  phase2-slice-htm; do
  if [[ -f $suite/$name.tbl && ! -e $data/$name.tbl ]]; then
    cp "$suite/$name.tbl" "$data/$name.tbl.partial"
    mv "$data/$name.tbl.partial" "$data/$name.tbl"
  fi
done
