#!/usr/bin/env bash
# Times the optimal 3x3 solver as whole runs on fixed positions of optimal lengths 12 to 16
# (HTM, default tables: corners and two 7-edge sets), with and without the dual lookup, and
# prints a markdown table: length, nodes, seconds, nodes per second.
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
echo "| position | length | lookup | nodes | seconds | nodes/s |"
echo "|---|---|---|---|---|---|"
for position in "${positions[@]}"; do
  for lookup in dual direct; do
    flag=()
    [ "$lookup" = direct ] && flag=(--no-dual)
    target/release/solve --data-dir "$data" --json "${flag[@]}" "$position" | python3 -c "$(cat <<'PY'
import json, sys
t = json.loads(sys.stdin.read())
lookup = sys.argv[1]
print(f"| `{t['input']}` | {t['length']} | {lookup} | {t['nodes']:,} | {t['seconds']:.2f} | {t['nodes'] / t['seconds'] / 1e6:.1f} M |")
PY
)" "$lookup"
  done
done
