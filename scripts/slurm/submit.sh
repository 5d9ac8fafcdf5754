#!/usr/bin/env bash
# Queues a sharded `solve` experiment on a Slurm cluster: an array of N tasks
# (solve-array.sbatch) and, after all of them succeed, the merge (merge.sbatch). Builds nothing:
# run `cargo build --release` and `gen-tables` once, on a shared file system, first.
#
# Usage: CUBELAB_DATA=DIR CUBELAB_OUT=DIR scripts/slurm/submit.sh N [sbatch options --] SOLVE-ARGS...
#   e.g. CUBELAB_DATA=/shared/data CUBELAB_OUT=/shared/runs/exp1 \
#          scripts/slurm/submit.sh 16 --cpus-per-task=8 --time=12:00:00 -- --random 10000 --seed 1
# Prints the two job IDs. The results: $CUBELAB_OUT/merged.csv and summary.md.
# CUBELAB_ARRAY names another array script whose rows the merge reads too (submit-puzzles.sh
# sets it to puzzle-array.sbatch).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
array_script=${CUBELAB_ARRAY:-$here/solve-array.sbatch}
# The program the array runs, and stats for the merge.
case $(basename "$array_script") in
  puzzle-array.sbatch) programs=(cubelab stats) ;;
  *) programs=(solve stats) ;;
esac
root=$(cd "$here/../.." && pwd)
tasks=${1:?usage: scripts/slurm/submit.sh N [sbatch options --] SOLVE-ARGS...}
shift
if ! [[ $tasks =~ ^[1-9][0-9]*$ ]]; then
  echo "submit.sh: '$tasks' is not a task count (1 or more)" >&2
  exit 2
fi
sbatch_options=()
if [[ " $* " == *" -- "* ]]; then
  while [ "$1" != "--" ]; do sbatch_options+=("$1"); shift; done
  shift
fi
: "${CUBELAB_DATA:?set CUBELAB_DATA to the shared tables directory (built by gen-tables)}"
: "${CUBELAB_OUT:?set CUBELAB_OUT to a shared directory for the results}"
export CUBELAB_BIN=${CUBELAB_BIN:-$root/target/release}
for program in "${programs[@]}"; do
  if [ ! -x "$CUBELAB_BIN/$program" ]; then
    echo "submit.sh: $CUBELAB_BIN/$program is missing; build it with \`cargo build --release\` (or set CUBELAB_BIN)" >&2
    exit 2
  fi
done
mkdir -p "$CUBELAB_OUT/logs"
export CUBELAB_DATA CUBELAB_OUT
# Tasks run in this directory, so relative paths in SOLVE-ARGS (--file) mean what they mean here.
array=$(sbatch --parsable --export=ALL --array="0-$((tasks - 1))" \
  --output="$CUBELAB_OUT/logs/$(basename "$array_script" .sbatch)-%A_%a.log" \
  "${sbatch_options[@]}" "$array_script" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" \
  --output="$CUBELAB_OUT/logs/merge-%j.log" "$here/merge.sbatch")
merge=${merge%%;*}
echo "array job $array ($tasks tasks), merge job $merge; results in $CUBELAB_OUT"
