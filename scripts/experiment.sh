#!/usr/bin/env bash
# Optimal solutions of N uniformly random 3x3 positions (seeded), or of the positions listed in a
# file, with the default tables. Writes reports/experiments/random-<metric>-<N>-seed<S>.csv (or
# <file name>.csv) with one row per position, from `solve --csv`, and a summary beside it (.md):
# `stats experiment --markdown`: per optimal length, the spread of nodes and time. Positions that hit
# --timeout are counted as such. `scripts/report.sh` then charts every experiment there.
# Usage: scripts/experiment.sh N [SEED] [extra solve options, e.g. --metric qtm --timeout 3600]
#        scripts/experiment.sh FILE [extra solve options]
set -euo pipefail
cd "$(dirname "$0")/.."
first=${1:?usage: scripts/experiment.sh N [SEED] [solve options] | FILE [solve options]}
if [ -f "$first" ]; then
  source_args=(--file "$first")
  name=$(basename "${first%.*}")
  count=$(grep -cv '^\s*\(#\|$\)' "$first")
  seed=-
  shift
else
  count=$first
  seed=${2:-1}
  shift $(( $# < 2 ? $# : 2 ))
  source_args=(--random "$count" --seed "$seed")
  name=
fi
metric=htm
for ((i = 1; i <= $#; i++)); do
  [ "${!i}" = "--metric" ] && { j=$((i + 1)); metric=${!j}; }
done
data=${CUBELAB_DATA:-data}
out=reports/experiments/${name:-random-$metric-$count-seed$seed}
mkdir -p reports/experiments
rm -f "$out.csv"
cargo build --release --quiet --bin solve
start=$(date +%s)
target/release/solve --data-dir "$data" "${source_args[@]}" --csv "$out.csv" "$@" || true
elapsed=$(( $(date +%s) - start ))
cargo build --release --quiet --bin stats
what="$count random positions (seed $seed)"
command="$count $seed"
if [ "$seed" = - ]; then what="$count listed positions"; command=$first; fi
{
  echo "# Optimal solutions of $what"
  echo
  echo "\`scripts/experiment.sh $command $*\`: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $elapsed s in all."
  echo "CSV: \`$(basename "$out.csv")\` (one row per position)."
  echo
  target/release/stats experiment --markdown "$out.csv"
} >"$out.md"
cat "$out.md"
