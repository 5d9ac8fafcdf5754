#!/usr/bin/env bash
# Optimal solving side by side with twips (cubing/twips): the same cubing.js definitions,
# generators and positions, one thread each (RAYON_NUM_THREADS=1 for cubelab's table builds,
# --num-threads 1 for twips), twips given as much table memory as cubelab's pattern databases
# take, alternating per position and round. Each position is one process of each (twips stops
# at its first solution). cubelab builds its tables in every process (`--no-save`, as twips
# does), or with TABLES=kept maps the files one run wrote beforehand (as `puzzle solve` does
# by default); twips keeps none. Prints a
# markdown table per case and round: the total seconds and the largest peak memory (GNU time),
# the ratios, and whether the two agree on every optimal length.
#
#   scripts/bench-puzzle-solve.sh [ROUNDS]
#
# The positions are random walks drawn from a recorded seed: of 1,000 moves by `cubelab puzzle
# solve --random N --seed S` where a case's walk length is 0, else of that many generator moves
# or their inverses (Python's random with the seed). Environment: TWIPS (its binary, default
# `twips`), PUZZLES (the definitions, default target/kpuzzle), TIMEOUT (seconds a run, default
# 1800), CASES (lines `NAME|MOVES|POSITIONS|SEED|TABLE STATES|WALK LENGTH`), TABLES (built or
# kept, default built).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-2}
twips=${TWIPS:-twips}
defs=${PUZZLES:-target/kpuzzle}
timeout=${TIMEOUT:-1800}
command -v "$twips" >/dev/null || {
  echo "bench-puzzle-solve.sh: no twips ($twips); install it with \`cargo install --locked --no-default-features twips-cli --version 0.12.3\`" >&2
  exit 2
}
[ -f "$defs/2x2x2.kpuzzle.json" ] || scripts/puzzle-definitions.sh "$defs" >/dev/null
cargo build --release --quiet --bin cubelab
cases=${CASES:-"master_tetraminx|R,L,B,U,2R,2L,2B,2U|3|1|800000000|14"}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
case ${TABLES:-built} in
  built) tables=(--no-save) ;;
  kept) tables=(--data-dir "$out/data") ;;
  *) echo "bench-puzzle-solve.sh: TABLES is built or kept, not '$TABLES'" >&2; exit 2 ;;
esac

source scripts/bench-lib.sh

echo "| puzzle | moves | positions (seed) | lengths | round | cubelab s | cubelab MiB | twips s | twips MiB | time ratio | memory ratio | lengths agree |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
while IFS='|' read -r name moves count seed states walk; do
  [ -n "$name" ] || continue
  def=$defs/$name.kpuzzle.json
  # The positions, and the table memory cubelab's databases take (four states a byte).
  target/release/cubelab puzzle solve "$def" "${tables[@]}" --moves "$moves" --random "$count" \
    --seed "$seed" --table-states "$states" --max-length 0 --json >"$out/positions" 2>"$out/setup.err" || true
  if [ "${walk:-0}" -gt 0 ]; then
    python3 -c 'import random,sys
moves, count, seed, walk = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
random.seed(seed)
for _ in range(count):
    print(" ".join(random.choice(moves) + random.choice(["", "\x27"]) for _ in range(walk)))' \
      "$moves" "$count" "$seed" "$walk" >"$out/scrambles"
  else
    python3 -c 'import json,sys
for line in open(sys.argv[1]): print(json.loads(line)["scramble"])' "$out/positions" >"$out/scrambles"
  fi
  table_mib=$(RAYON_NUM_THREADS=1 target/release/cubelab puzzle solve "$def" "${tables[@]}" \
    --moves "$moves" --scramble "" --table-states "$states" 2>&1 >/dev/null |
    sed -n 's/^  .*: \([0-9,]*\) states.*/\1/p' | tr -d , | awk '{s += $1} END {printf "%d", s / 4 / 1048576 + 1}')
  for round in $(seq "$rounds"); do
    our_s=0 our_kib=0 their_s=0 their_kib=0 lengths="" theirs_lengths=""
    while read -r scramble; do
      ours=$(RAYON_NUM_THREADS=1 timed "$out/ours" target/release/cubelab puzzle solve "$def" \
        "${tables[@]}" --moves "$moves" --table-states "$states" --json --scramble "$scramble")
      theirs=$(timed "$out/twips" "$twips" search --num-threads 1 --memory-MiB "$table_mib" \
        --min-num-solutions 1 --generator-moves "$moves" --scramble-alg "$scramble" "$def")
      read -r s kib <<<"$ours"
      our_s=$(python3 -c "print(round($our_s + $s, 2))") our_kib=$((kib > our_kib ? kib : our_kib))
      read -r s kib <<<"$theirs"
      their_s=$(python3 -c "print(round($their_s + $s, 2))") their_kib=$((kib > their_kib ? kib : their_kib))
      lengths+="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["length"])' "$out/ours"),"
      # twips prints `MOVES // solution #1 (N nodes)`; in this metric a solution's length is
      # its number of moves.
      theirs_lengths+="$(sed -n 's|^\(.*\) // solution #1 .*|\1|p' "$out/twips" | awk '{print NF}'),"
    done <"$out/scrambles"
    agree=$([ "$lengths" == "$theirs_lengths" ] && echo yes || echo "no: twips ${theirs_lengths%,}")
    echo "| $name | $moves | $count ($seed) | ${lengths%,} | $round | $our_s | $(mib "$our_kib") | $their_s | $(mib "$their_kib") | $(ratio "$our_s" "$their_s") | $(ratio "$our_kib" "$their_kib") | $agree |"
  done
done <<<"$cases"
