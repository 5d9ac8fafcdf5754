#!/usr/bin/env bash
# Times the optimal 3x3 solver as whole runs on fixed positions of optimal lengths 12 to 16
# (HTM): the default heuristic (corners and the phase-1 table along three axes) with and without
# the dual lookup, and Korf's (corners and two 7-edge sets) with it. Prints a markdown table:
# length, heuristic, lookup, nodes, seconds (search only, from --json) and nodes per second.
# Usage: scripts/bench-solver.sh          (tables from $CUBELAB_DATA, default data/)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${CUBELAB_DATA:-data}
cargo build --release --quiet --bin solve
positions=(
  "R2 U' F L2 D B' R U2 F' D2 L U"
  "F L' D2 R U' B2 L F' U2 R' D B2 L'"
  "U F' R2 D' L B U2 R' F D2 L' B' U R2"
  "B2 R' U F2 L' D R2 B' U' L2 F D' R U2 B"
  "R U' F2 D L' B R2 U F' L D2 B' R U2 F D'"
)
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
echo "| position | length | tables | lookup | nodes | seconds | nodes/s |"
echo "|---|---|---|---|---|---|---|"
for position in "${positions[@]}"; do
  for config in "phase1 dual" "phase1 direct" "edges7 dual"; do
    read -r tables lookup <<<"$config"
    flag=()
    [ "$lookup" = direct ] && flag=(--no-dual)
    target/release/solve --data-dir "$data" --tables "$tables" --json "${flag[@]}" "$position" |
      python3 -c "$(cat <<'PY'
import json, sys
t = json.loads(sys.stdin.read())
tables, lookup = sys.argv[1:]
print(f"| `{t['input']}` | {t['length']} | {tables} | {lookup} | {t['nodes']:,} | {t['seconds']:.2f} | {t['nodes'] / t['seconds'] / 1e6:.1f} M |")
PY
)" "$tables" "$lookup"
  done
done
