#!/usr/bin/env bash
# Times the optimal 3x3 solver as whole runs on fixed positions of optimal lengths 12 to 16
# (HTM), in five configurations: the default heuristic (corners and the phase-1 table along
# three axes) with and without the dual lookup, Korf's tables (corners and two 6-edge sets) with
# and without it, and corners with two 7-edge sets with it. Prints a markdown table per run
# (length, tables, lookup, nodes, seconds of search from --json, nodes per second) and then the
# node rate of each configuration over all its positions (total nodes / total seconds), in all
# and per core (the solver runs one thread per core).
# Usage: scripts/bench-solver.sh          (tables from $CUBELAB_DATA, default data/)
#        CUBELAB_SOLVE=path/to/solve scripts/bench-solver.sh   (another build, e.g. the previous
#        commit's, to compare; nothing is built then)
#        CUBELAB_BENCH_CONFIGS="phase1 dual;edges6 dual" ...    (a subset of the configurations)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${CUBELAB_DATA:-data}
solve=${CUBELAB_SOLVE:-target/release/solve}
[ -n "${CUBELAB_SOLVE:-}" ] || cargo build --release --quiet --bin solve
positions=(
  "R2 U' F L2 D B' R U2 F' D2 L U"
  "F L' D2 R U' B2 L F' U2 R' D B2 L'"
  "U F' R2 D' L B U2 R' F D2 L' B' U R2"
  "B2 R' U F2 L' D R2 B' U' L2 F D' R U2 B"
  "R U' F2 D L' B R2 U F' L D2 B' R U2 F D'"
)
configs=("phase1 dual" "phase1 direct" "edges6 dual" "edges6 direct" "edges7 dual")
if [ -n "${CUBELAB_BENCH_CONFIGS:-}" ]; then
  IFS=';' read -r -a configs <<<"$CUBELAB_BENCH_CONFIGS"
fi
# Start from tables read afresh: pages the page cache holds in 4 KiB folios stay mapped in
# 4 KiB pages, which slows the search by up to 2x (docs/decisions.md, session 3).
python3 - "$data" <<'PY'
import glob, os, sys
for path in glob.glob(os.path.join(sys.argv[1], "*.tbl")):
    fd = os.open(path, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
PY
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
echo "| position | length | tables | lookup | nodes | seconds | nodes/s |"
echo "|---|---|---|---|---|---|---|"
for position in "${positions[@]}"; do
  for config in "${configs[@]}"; do
    read -r tables lookup <<<"$config"
    flag=()
    [ "$lookup" = direct ] && flag=(--no-dual)
    "$solve" --data-dir "$data" --tables "$tables" --json "${flag[@]}" "$position" |
      python3 -c "$(cat <<'PY'
import json, sys
t = json.loads(sys.stdin.read())
tables, lookup, runs = sys.argv[1:]
print(f"| `{t['input']}` | {t['length']} | {tables} | {lookup} | {t['nodes']:,} | {t['seconds']:.2f} | {t['nodes'] / t['seconds'] / 1e6:.1f} M |")
with open(runs, "a") as f:
    f.write(f"{tables} {lookup} {t['nodes']} {t['seconds']}\n")
PY
)" "$tables" "$lookup" "$runs"
  done
done
echo
echo "| tables | lookup | nodes, all positions | seconds | nodes/s | per core |"
echo "|---|---|---|---|---|---|"
python3 - "$runs" "$(nproc)" <<'PY'
import sys
cores = int(sys.argv[2])
totals = {}
for line in open(sys.argv[1]):
    tables, lookup, nodes, seconds = line.split()
    n, s = totals.get((tables, lookup), (0, 0.0))
    totals[(tables, lookup)] = (n + int(nodes), s + float(seconds))
for (tables, lookup), (n, s) in totals.items():
    rate = n / s / 1e6
    print(f"| {tables} | {lookup} | {n:,} | {s:.2f} | {rate:.1f} M | {rate / cores:.1f} M |")
PY
