#!/usr/bin/env bash
# Queues a sharded coset run on a Slurm cluster: an array of N tasks (coset-array.sbatch), each
# running its share of the cosets in LIST, and, after all of them succeed, the merge
# (coset-merge.sbatch). Builds nothing: run `cargo build --release` and `gen-tables` once, on
# a shared file system, first.
#
# Usage: CUBELAB_DATA=DIR CUBELAB_OUT=DIR scripts/slurm/submit-cosets.sh N LIST [sbatch options --] COSET-ARGS...
#   e.g. cubelab cosets --count 1000 > first1000.txt
#        CUBELAB_DATA=/shared/data CUBELAB_OUT=/shared/runs/c1 \
#          scripts/slurm/submit-cosets.sh 100 first1000.txt --cpus-per-task=8 --mem=8G -- --bound 20
# Prints the two job IDs. The results: $CUBELAB_OUT/merged.json and summary.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage="usage: scripts/slurm/submit-cosets.sh N LIST [sbatch options --] COSET-ARGS..."
tasks=${1:?$usage}
list=${2:?$usage}
shift 2
if ! [[ $tasks =~ ^[1-9][0-9]*$ ]]; then
  echo "submit-cosets.sh: '$tasks' is not a task count (1 or more)" >&2
  exit 2
fi
if [ ! -s "$list" ]; then
  echo "submit-cosets.sh: the list '$list' is missing or empty; write one with \`cubelab cosets --count N\`" >&2
  exit 2
fi
list=$(cd "$(dirname "$list")" && pwd)/$(basename "$list")
sbatch_options=()
if [[ " $* " == *" -- "* ]]; then
  while [ "$1" != "--" ]; do sbatch_options+=("$1"); shift; done
  shift
fi
: "${CUBELAB_DATA:?set CUBELAB_DATA to the shared tables directory (built by gen-tables)}"
: "${CUBELAB_OUT:?set CUBELAB_OUT to a shared directory for the results}"
export CUBELAB_BIN=${CUBELAB_BIN:-$root/target/release}
for program in cubelab stats; do
  if [ ! -x "$CUBELAB_BIN/$program" ]; then
    echo "submit-cosets.sh: $CUBELAB_BIN/$program is missing; build it with \`cargo build --release\` (or set CUBELAB_BIN)" >&2
    exit 2
  fi
done
mkdir -p "$CUBELAB_OUT/logs"
export CUBELAB_DATA CUBELAB_OUT
array=$(sbatch --parsable --export=ALL --array="0-$((tasks - 1))" \
  --output="$CUBELAB_OUT/logs/coset-%A_%a.log" "${sbatch_options[@]}" \
  "$here/coset-array.sbatch" "$list" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" \
  --output="$CUBELAB_OUT/logs/merge-%j.log" "$here/coset-merge.sbatch")
merge=${merge%%;*}
echo "array job $array ($tasks tasks), merge job $merge; results in $CUBELAB_OUT"
