#!/usr/bin/env bash
# Optimal solutions of N uniformly random 3x3 positions (seeded), or of the positions listed in a
# file, with the default tables. Writes reports/experiments/random-<metric>-<N>-seed<S>.csv (or
# <file name>.csv) with one row per position, from `solve --csv`, and a summary beside it (.md):
# the distribution of optimal lengths, and nodes and time per length. Positions that hit
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
python3 - "$out.csv" "$count" "$seed" "$elapsed" "$*" "$first" >"$out.md" <<'PY'
import csv, statistics, sys, os
path, count, seed, elapsed, options, first = sys.argv[1:]
rows = list(csv.DictReader(open(path)))
solved = [r for r in rows if r["status"] == "optimal"]
what = f"{count} random positions (seed {seed})" if seed != "-" else f"{count} listed positions"
command = f"{count} {seed}" if seed != "-" else first
print(f"# Optimal solutions of {what}")
print()
print(f"`scripts/experiment.sh {command} {options}`: {os.cpu_count()} cores, {elapsed} s in all.")
print(f"CSV: `{os.path.basename(path)}` (one row per position).")
print()
print("| optimal length | positions | mean nodes | median nodes | mean seconds | median seconds |")
print("|---|---|---|---|---|---|")
for length in sorted({int(r["length"]) for r in solved}):
    group = [r for r in solved if int(r["length"]) == length]
    nodes = [int(r["nodes"]) for r in group]
    secs = [float(r["seconds"]) for r in group]
    print(f"| {length} | {len(group)} | {statistics.mean(nodes):,.0f} | {statistics.median(nodes):,.0f} "
          f"| {statistics.mean(secs):.2f} | {statistics.median(secs):.2f} |")
others = [r for r in rows if r["status"] != "optimal"]
if others:
    print()
    for status in sorted({r["status"] for r in others}):
        group = [r for r in others if r["status"] == status]
        bounds = sorted(int(r["lower_bound"]) for r in group if r["lower_bound"])
        shown = f"; proven lower bounds {bounds}" if bounds else ""
        print(f"- {len(group)} position(s) ended with status `{status}`{shown}.")
PY
cat "$out.md"
