#!/usr/bin/env bash
# Counts the instructions the optimal search executes on fixed positions, with callgrind: its
# walks alone (`Walk::search`: the enumeration of subtrees and their search; table loading and
# set-up are left out), one thread. The count does not drift with the machine's load or
# clock, as timings on a shared 2-core VM do by 10%, so two builds compare to a fraction of a
# percent in one run each. It counts work, not waits: a change that saves memory reads shows
# in a timing, not here (reports/performance.md, "Fewer instructions a node").
#
# Usage: scripts/count-instructions.sh TABLES [POSITION...]
#   TABLES     a --tables set, e.g. h48-eo6 (from $CUBELAB_DATA, default data/)
#   POSITION   move sequences; default: position 10 of benches/peers.txt (1 s natively,
#              about 40 s under callgrind)
#   CUBELAB_SOLVE=path/to/solve  another build (nothing is built then)
# Prints one line a position: instructions, nodes, instructions a node, the position.
set -euo pipefail
usage() { sed -n '2,14p' "$script"; }
script=$(realpath "$0")
# Paths given relative to the caller's directory, before moving to the repository's.
data=$(realpath "${CUBELAB_DATA:-$(dirname "$script")/../data}")
solve=${CUBELAB_SOLVE:+$(realpath "$CUBELAB_SOLVE")}
cd "$(dirname "$script")/.."
[ $# -ge 1 ] || { usage; exit 2; }
for tool in valgrind python3; do
  command -v "$tool" >/dev/null || { echo "$tool is needed (apt install $tool)" >&2; exit 2; }
done
tables=$1
shift
if [ -z "$solve" ]; then
  cargo build --release --quiet --bin solve
  solve=target/release/solve
fi
positions=("$@")
if [ ${#positions[@]} -eq 0 ]; then
  positions=("$(grep -v '^\s*\(#\|$\)' benches/peers.txt | sed -n 10p)")
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for position in "${positions[@]}"; do
  # Collecting is switched on and off at each entry to and exit from `Walk::search`, which
  # never calls itself, so the count is the walks' and nothing else's.
  if ! valgrind --tool=callgrind --log-file="$out/valgrind.log" --collect-atstart=no \
    --toggle-collect='cubelab::search::walk::Walk<*>::search' \
    --callgrind-out-file="$out/cg.out" "$solve" --data-dir "$data" --tables "$tables" \
    --threads 1 --json "$position" >"$out/result.json"; then
    # solve reports a bad position in its JSON answer, valgrind its own trouble in its log.
    cat "$out/result.json" "$out/valgrind.log" >&2
    exit 1
  fi
  instructions=$(sed -n 's/.*Collected : *//p' "$out/valgrind.log")
  python3 - "$out/result.json" "${instructions:-0}" "$position" <<'PY'
import json, os, sys
result = json.load(open(sys.argv[1]))
nodes = sum(i["nodes"] for i in result["iterations"])
instructions = int(sys.argv[2])
if instructions == 0 or nodes == 0:
    sys.exit(f"nothing counted for {sys.argv[3]!r} ({instructions} instructions, {nodes} nodes): "
             "is Walk::search still a function of its own in this build?")
try:
    print(f"{instructions:,} instructions, {nodes:,} nodes, {instructions / nodes:.0f} a node: "
          f"{sys.argv[3]}", flush=True)
except BrokenPipeError:
    # The reader has gone (`| head`): end quietly, as other tools do, and stop the loop.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(141)
except OSError as error:
    sys.exit(f"count-instructions: cannot write the count: {error.strerror}")
PY
done
