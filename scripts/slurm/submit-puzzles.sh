#!/usr/bin/env bash
# Queues a sharded `cubelab puzzle solve` experiment on a Slurm cluster: an array of N tasks
# (puzzle-array.sbatch) and, after all of them succeed, the merge (merge.sbatch), as
# submit.sh does for `solve`.
#
# Usage: CUBELAB_DATA=DIR CUBELAB_OUT=DIR scripts/slurm/submit-puzzles.sh N [sbatch options --] PUZZLE-SOLVE-ARGS...
#   e.g. CUBELAB_DATA=/shared/data CUBELAB_OUT=/shared/runs/pyraminx \
#          scripts/slurm/submit-puzzles.sh 16 --time=2:00:00 -- \
#          pyraminx --moves r,l,b,u,2r,2l,2b,2u --random 10000 --seed 1
# Prints the two job IDs. The results: $CUBELAB_OUT/merged.csv and summary.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CUBELAB_ARRAY=$here/puzzle-array.sbatch exec "$here/submit.sh" "$@"
