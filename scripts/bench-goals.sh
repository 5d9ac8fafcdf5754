#!/usr/bin/env bash
# Times cubelab's partial-goal solver against Torjus Iveland's cube-solver (npm, its step
# solvers: cross, eoline, fb, xcross) on the same random-move scrambles, one thread each,
# alternating (peer, cubelab, peer, cubelab per goal), and checks the lengths: cubelab's are
# optimal (exact tables, checked against published and independent counts), so none may be
# longer than the peer's; equal and shorter are counted. Prints a markdown table.
#   scripts/bench-goals.sh [N [SEED]]      N scrambles (default 1000), SEED (default 1)
# cube-solver is installed into $SCRATCH (default ${TMPDIR:-/tmp}/cubelab-goal-peer) by npm,
# never into this repository. cubelab's goal tables are built first into $CUBELAB_DATA
# (default data/), outside the timing. Exit 1 if cubelab is ever longer than the peer.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
seed=${2:-1}
scratch=${SCRATCH:-${TMPDIR:-/tmp}/cubelab-goal-peer}
data=${CUBELAB_DATA:-data}
mkdir -p "$scratch" "$data"
if [[ ! -d $scratch/node_modules/cube-solver ]]; then
  npm install --prefix "$scratch" --no-save --silent cube-solver@2.4.1 >&2
fi
modules=$scratch/node_modules
peer=scripts/bench-goals-peer.mjs
cargo build --release --quiet --bin stats
stats=target/release/stats
scrambles=$scratch/scrambles-$n-$seed.txt
node "$peer" "$modules" scramble "$n" "$seed" > "$scrambles"

echo "| goal (peer's name) | scrambles | run | equal | cubelab shorter | cubelab longer | peer s (init) | cubelab s | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
status=0
for pair in cross:cross eoline:eoline roux-fb:fb xcross:xcross; do
  ours=${pair%%:*} theirs=${pair##*:}
  "$stats" --data-dir "$data" goal "$ours" --metric htm > /dev/null
  for run in 1 2; do
    node "$peer" "$modules" solve "$theirs" "$scrambles" > "$scratch/peer.len" 2> "$scratch/peer.time"
    read -r _ peer_init _ peer_solve < "$scratch/peer.time"
    start=$(date +%s.%N)
    RAYON_NUM_THREADS=1 "$stats" --data-dir "$data" goal "$ours" --metric htm --orientations fixed \
      --scrambles "$scrambles" --csv "$scratch/ours.csv" > /dev/null
    end=$(date +%s.%N)
    tail -n +2 "$scratch/ours.csv" | awk -F, '{print $NF}' > "$scratch/ours.len"
    read -r equal shorter longer < <(paste "$scratch/ours.len" "$scratch/peer.len" |
      awk '{ if ($1 == $2) e++; else if ($1 < $2) s++; else l++ } END { print e+0, s+0, l+0 }')
    [[ $longer -eq 0 ]] || status=1
    awk -v g="$ours ($theirs)" -v n="$n" -v r="$run" -v e="$equal" -v s="$shorter" -v l="$longer" \
      -v pi="$peer_init" -v ps="$peer_solve" -v a="$start" -v b="$end" 'BEGIN {
        ours = b - a
        printf "| %s | %d | %d | %d | %d | %d | %.3f (%.2f) | %.3f | %.1fx |\n", g, n, r, e, s, l, ps, pi, ours, ps / ours
      }'
  done
done
exit $status
