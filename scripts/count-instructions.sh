#!/usr/bin/env bash
# Counts the instructions the optimal search executes on fixed positions, with callgrind: the
# search alone (IDA*'s iterations; table loading and set-up are left out), one thread. The
# count does not drift with the machine's load or clock, as timings on a shared 2-core VM do by
# 10%, so two builds compare to a fraction of a percent in one run each. It counts work, not
# waits: a change that saves memory reads shows in a timing, not here (reports/performance.md,
# "Fewer instructions a node").
#
# Usage: scripts/count-instructions.sh TABLES [POSITION...]
#   TABLES     a --tables set, e.g. h48-eo6 (from $CUBELAB_DATA, default data/)
#   POSITION   move sequences; default: position 10 of benches/peers.txt (1 s natively,
#              about 40 s under callgrind)
#   CUBELAB_SOLVE=path/to/solve  another build (nothing is built then)
# Prints one line a position: instructions, nodes, instructions a node, the position.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,15p' "$0"; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed (apt install valgrind)" >&2; exit 2; }
tables=$1
shift
data=${CUBELAB_DATA:-data}
solve=${CUBELAB_SOLVE:-target/release/solve}
[ -n "${CUBELAB_SOLVE:-}" ] || cargo build --release --quiet --bin solve
positions=("$@")
if [ ${#positions[@]} -eq 0 ]; then
  positions=("$(grep -v '^\s*\(#\|$\)' benches/peers.txt | sed -n 10p)")
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for position in "${positions[@]}"; do
  valgrind --tool=callgrind --toggle-collect='*Ida*iteration*' \
    --callgrind-out-file="$out/cg.out" "$solve" --data-dir "$data" --tables "$tables" \
    --threads 1 --json "$position" >"$out/result.json" 2>"$out/valgrind.log"
  instructions=$(sed -n 's/.*Collected : *//p' "$out/valgrind.log")
  python3 - "$out/result.json" "$instructions" "$position" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
nodes = sum(i["nodes"] for i in result["iterations"])
instructions = int(sys.argv[2])
print(f"{instructions:,} instructions, {nodes:,} nodes, {instructions / nodes:.0f} a node: {sys.argv[3]}")
PY
done
