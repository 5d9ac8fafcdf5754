#!/usr/bin/env bash
# Side by side with the `kociemba` package from PyPI (Kociemba's two-phase solver in C, behind a
# Python wrapper): the same random states, mean length and time per cube, in one run.
#
#   scripts/compare-kociemba.sh [COUNT] [SEED]     (default 1000 states, seed 1)
#
# The package is installed into a virtual environment under $SCRATCH (default
# /tmp/cubelab-kociemba), never into the repository. Its tables load on its first call, which is
# made before timing. Each of its solutions is checked by our solver (the state its inverse
# makes must be the state given). Our solver reads the tables in $CUBELAB_DATA (default data/).
#
# Rows: kociemba at its default (max_depth 24) one cube at a time; ours on one thread with
# --max-length 20 and 21; ours on one thread with --budget equal to kociemba's mean time per
# cube (equal time); ours on every core at --max-length 21 (throughput, whole run timed,
# start-up included).
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-1000}
SEED=${2:-1}
SCRATCH=${SCRATCH:-/tmp/cubelab-kociemba}
mkdir -p "$SCRATCH"
VENV=$SCRATCH/venv
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import kociemba" 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet kociemba==1.2.1
fi
cargo build --release --quiet --bin solve
SOLVE=target/release/solve
STATES=$SCRATCH/states.txt
"$SOLVE" --print-state --json --random "$COUNT" --seed "$SEED" |
    python3 -c 'import json, sys; [print(json.loads(l)["stickers"]) for l in sys.stdin]' >"$STATES"

# kociemba: one line per state, "length seconds solution".
"$VENV/bin/python" - "$STATES" >"$SCRATCH/kociemba.txt" <<'EOF'
import sys, time, kociemba
states = [line.strip() for line in open(sys.argv[1]) if line.strip()]
kociemba.solve(states[0])  # loads its tables
for state in states:
    start = time.perf_counter()
    solution = kociemba.solve(state)
    seconds = time.perf_counter() - start
    print(len(solution.split()), f"{seconds:.6f}", solution)
EOF

# Check kociemba's answers: each solution, inverted, must make the state from solved.
python3 - "$SCRATCH/kociemba.txt" >"$SCRATCH/kociemba-inverses.txt" <<'EOF'
import sys
def inverse(move):
    return move[0] + {"": "'", "'": "", "2": "2"}[move[1:]]
for line in open(sys.argv[1]):
    moves = line.split()[2:]
    print(" ".join(inverse(m) for m in reversed(moves)))
EOF
"$SOLVE" --print-state --json --moves --file "$SCRATCH/kociemba-inverses.txt" |
    python3 -c 'import json, sys; [print(json.loads(l)["stickers"]) for l in sys.stdin]' >"$SCRATCH/kociemba-made.txt"
if ! cmp -s "$STATES" "$SCRATCH/kociemba-made.txt"; then
    echo "compare-kociemba: a kociemba solution does not solve its state" >&2
    exit 1
fi

KOCIEMBA_SECONDS=$(awk '{ s += $2 } END { printf "%.6f", s / NR }' "$SCRATCH/kociemba.txt")

# Ours: JSON lines, checked and summed below.
ours() {
    local name=$1
    shift
    local start end
    start=$(date +%s.%N)
    "$SOLVE" --method two-phase --json --file "$STATES" "$@" >"$SCRATCH/$name.jsonl"
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" "BEGIN { print b - a }" >"$SCRATCH/$name.wall"
}
ours ours-20 --threads 1 --max-length 20
ours ours-21 --threads 1 --max-length 21
ours ours-equal-time --threads 1 --budget "$KOCIEMBA_SECONDS"
ours ours-21-all-cores --max-length 21

python3 - "$SCRATCH" "$COUNT" "$KOCIEMBA_SECONDS" "$(nproc)" <<'EOF'
import json, sys
scratch, count, kociemba_seconds, cores = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]

def row(name, lengths, seconds, wall=None):
    mean = sum(lengths) / len(lengths)
    per_cube = sum(seconds) / len(seconds)
    rate = f"{len(lengths) / wall:,.0f}" if wall else "-"
    print(f"| {name} | {mean:.3f} | {max(lengths)} | {per_cube * 1000:.3f} | {rate} |")

print(f"{count} random states (seed as given), {cores} cores\n")
print("| solver | mean length | longest | ms per cube (one thread) | cubes/s (whole run) |")
print("|---|---:|---:|---:|---:|")
k = [line.split() for line in open(f"{scratch}/kociemba.txt")]
row("kociemba 1.2.1 (max_depth 24)", [int(x[0]) for x in k], [float(x[1]) for x in k])
labels = {
    "ours-20": "cubelab two-phase, --max-length 20, 1 thread",
    "ours-21": "cubelab two-phase, --max-length 21, 1 thread",
    "ours-equal-time": f"cubelab two-phase, --budget {kociemba_seconds:.4f} s (kociemba's mean), 1 thread",
    "ours-21-all-cores": f"cubelab two-phase, --max-length 21, {cores} threads",
}
for name, label in labels.items():
    rows = [json.loads(l) for l in open(f"{scratch}/{name}.jsonl")]
    assert len(rows) == count and all(r["status"] in ("found", "optimal") for r in rows), name
    wall = float(open(f"{scratch}/{name}.wall").read())
    row(label, [r["length"] for r in rows], [r["seconds"] for r in rows], wall)
EOF
