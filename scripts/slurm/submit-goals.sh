#!/usr/bin/env bash
# Queues a sharded goal sample on a Slurm cluster: an array of N tasks (goal-array.sbatch), each
# answering its share of the positions, and, after all of them succeed, the merge
# (`stats goal G --merge`). Builds nothing: run `cargo build --release` and
# `gen-tables --goal G` once, on a shared file system, first.
#
# Usage: CUBELAB_DATA=DIR CUBELAB_OUT=DIR scripts/slurm/submit-goals.sh N GOAL [sbatch options --] STATS-GOAL-ARGS...
#   e.g. CUBELAB_DATA=/shared/data CUBELAB_OUT=/shared/runs/xcross \
#          scripts/slurm/submit-goals.sh 16 xcross --cpus-per-task=8 -- --random 100000000 --orientations fixed,6
# Prints the two job IDs. The results: $CUBELAB_OUT/merged.json and summary.txt (the table of
# `stats goal`); the shards' rows in $CUBELAB_OUT/shards/. The tasks' environment: see
# goal-array.sbatch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage="usage: scripts/slurm/submit-goals.sh N GOAL [sbatch options --] STATS-GOAL-ARGS..."
tasks=${1:?$usage}
goal=${2:?$usage}
shift 2
if ! [[ $tasks =~ ^[1-9][0-9]*$ ]]; then
  echo "submit-goals.sh: '$tasks' is not a task count (1 or more)" >&2
  exit 2
fi
sbatch_options=()
if [[ " $* " == *" -- "* ]]; then
  while [ "$1" != "--" ]; do sbatch_options+=("$1"); shift; done
  shift
fi
: "${CUBELAB_DATA:?set CUBELAB_DATA to the shared tables directory}"
: "${CUBELAB_OUT:?set CUBELAB_OUT to a shared directory for the results}"
export CUBELAB_BIN=${CUBELAB_BIN:-$root/target/release}
if [ ! -x "$CUBELAB_BIN/stats" ]; then
  echo "submit-goals.sh: $CUBELAB_BIN/stats is missing; build it with \`cargo build --release\` (or set CUBELAB_BIN)" >&2
  exit 2
fi
mkdir -p "$CUBELAB_OUT/logs"
export CUBELAB_DATA CUBELAB_OUT
array=$(sbatch --parsable --export=ALL --array="0-$((tasks - 1))" \
  --output="$CUBELAB_OUT/logs/goal-%A_%a.log" "${sbatch_options[@]}" \
  "$here/goal-array.sbatch" "$goal" "$@")
array=${array%%;*}
# The merge reads the shards' files; it exits 1 (and the job fails) if a position is missing.
printf -v stats_cmd '%q ' "$CUBELAB_BIN/stats" --data-dir "$CUBELAB_DATA" goal "$goal" --merge "$CUBELAB_OUT/shards"
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" \
  --output="$CUBELAB_OUT/logs/merge-%j.log" --job-name=cubelab-goal-merge \
  --wrap "${stats_cmd} --json > $(printf %q "$CUBELAB_OUT/merged.json") && ${stats_cmd} > $(printf %q "$CUBELAB_OUT/summary.txt")")
merge=${merge%%;*}
echo "array job $array ($tasks tasks), merge job $merge; results in $CUBELAB_OUT"
