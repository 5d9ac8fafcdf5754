#!/usr/bin/env bash
# Races two builds of cubelab against each other (this working tree's and another commit's), so
# that a change can be shown to be no slower: the optimal solver on the same positions, one
# thread each, alternating per position (which goes first alternates too), and table builds
# from nothing, alternating. Prints markdown tables: each position's seconds for both builds
# (their own search time, from --json) and the totals; each build's wall time and peak memory.
#
#   scripts/race-builds.sh OTHER_TARGET [ROUNDS]
#
# OTHER_TARGET  the other build's target/release folder (holding solve and gen-tables), e.g.
#               from `git worktree add /tmp/prev COMMIT && cargo build --release` there
# ROUNDS        default 2
# Environment: CUBELAB_DATA (the tables both solvers read, default data/), TABLES (default
# ud-layers-f4), POSITIONS (default benches/peers.txt), BUILDS (the tables built, default
# "h48-parity corners"), FIRST_ROUND (default 1; 2 goes on from a first round, with the order
# reversed), SCRATCH (default ${TMPDIR:-/tmp}).
set -euo pipefail
cd "$(dirname "$0")/.."
other=${1:?usage: scripts/race-builds.sh OTHER_TARGET [ROUNDS]}
rounds=${2:-2}
data=${CUBELAB_DATA:-data}
tables=${TABLES:-ud-layers-f4}
positions=${POSITIONS:-benches/peers.txt}
read -r -a builds <<<"${BUILDS:-h48-parity corners}"
[[ -x $other/solve && -x $other/gen-tables ]] || { echo "no solve and gen-tables in $other" >&2; exit 2; }
cargo build --release --quiet --bin solve --bin gen-tables
ours=target/release
scratch=$(mktemp -d "${SCRATCH:-${TMPDIR:-/tmp}}/race-builds.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
grep -v '^\s*\(#\|$\)' "$positions" >"$scratch/positions"

# One position's search seconds by the solve in folder $1.
search_seconds() {
  "$1/solve" --data-dir "$data" --tables "$tables" --threads 1 --json "$2" |
    python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["seconds"])'
}

echo "this tree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', with changes')) against $other;"
echo "$(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
echo "Optimal solver, \`--tables $tables --threads 1\`, $(wc -l <"$scratch/positions") positions of $positions:"
echo
echo "| round | # | this tree s | other s | ratio |"
echo "|---|---|---|---|---|"
for ((round = ${FIRST_ROUND:-1}; round < ${FIRST_ROUND:-1} + rounds; round++)); do
  n=0 this_total=0 other_total=0
  while IFS= read -r position; do
    n=$((n + 1))
    if (((round + n) % 2)); then
      a=$(search_seconds "$ours" "$position") b=$(search_seconds "$other" "$position")
    else
      b=$(search_seconds "$other" "$position") a=$(search_seconds "$ours" "$position")
    fi
    this_total=$(python3 -c "print($this_total + $a)") other_total=$(python3 -c "print($other_total + $b)")
    python3 -c "print(f'| $round | $n | {$a:.3f} | {$b:.3f} | {$a / $b:.3f} |')"
  done <"$scratch/positions"
  python3 -c "print(f'| $round | all | **{$this_total:.2f}** | **{$other_total:.2f}** | **{$this_total / $other_total:.3f}** |')"
done
echo
echo "Table builds from nothing (\`gen-tables TABLE\` into an empty folder, all cores):"
echo
echo "| round | table | this tree wall | other wall | ratio | this tree peak | other peak |"
echo "|---|---|---|---|---|---|---|"
build() { # folder table -> "WALL KIB"
  rm -rf "$scratch/data"
  /usr/bin/time -f '%e %M' -o "$scratch/time" "$1/gen-tables" --data-dir "$scratch/data" "$2" >/dev/null 2>&1
  cat "$scratch/time"
}
for ((round = ${FIRST_ROUND:-1}; round < ${FIRST_ROUND:-1} + rounds; round++)); do
  for table in "${builds[@]}"; do
    if ((round % 2)); then
      read -r aw ak <<<"$(build "$ours" "$table")"
      read -r bw bk <<<"$(build "$other" "$table")"
    else
      read -r bw bk <<<"$(build "$other" "$table")"
      read -r aw ak <<<"$(build "$ours" "$table")"
    fi
    python3 -c "print(f'| $round | $table | {$aw:.1f} s | {$bw:.1f} s | {$aw / $bw:.3f} | {$ak / 1024:.0f} MiB | {$bk / 1024:.0f} MiB |')"
  done
done
