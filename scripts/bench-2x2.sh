#!/usr/bin/env bash
# Times the 2x2 path as a user runs it, whole processes included (start-up, output):
#   1. gen-tables building both 2x2 tables from nothing (--force) into a scratch directory;
#   2. solve mapping a table and solving one position;
#   3. solve on a batch of 10,000 uniformly random positions (seed 1), JSON to /dev/null.
# Each is run RUNS times (default 5); the script prints the best and median wall time (clock
# read around the process, so including /usr/bin/time's own start) and the peak resident memory, as a markdown table for reports/performance.md.
# Usage: scripts/bench-2x2.sh [RUNS]     (builds the release binaries first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --quiet --bin gen-tables --bin solve
bin=target/release
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$bin/gen-tables" --data-dir "$scratch" 2x2 >/dev/null

# time_runs LABEL CMD...: runs CMD $runs times under /usr/bin/time, prints one table row.
time_runs() {
  local label=$1; shift
  local walls=() rss=0
  for _ in $(seq "$runs"); do
    local t0 t1 kb
    t0=$(date +%s%N)
    /usr/bin/time -f '%M' -o "$scratch/time" "$@" >/dev/null
    t1=$(date +%s%N)
    kb=$(tail -1 "$scratch/time")
    walls+=("$(awk -v n=$(( t1 - t0 )) 'BEGIN {printf "%.4f", n / 1e9}')")
    (( kb > rss )) && rss=$kb
  done
  local sorted best median
  sorted=$(printf '%s\n' "${walls[@]}" | sort -g)
  best=$(echo "$sorted" | head -1)
  median=$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")
  printf '| %s | %s s | %s s | %s MiB |\n' "$label" "$best" "$median" "$(( rss / 1024 ))"
}

echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "Runs: $runs each"
echo
echo "| run | best | median | peak memory |"
echo "|---|---|---|---|"
time_runs "gen-tables --force 2x2 (both metrics)" "$bin/gen-tables" --force --data-dir "$scratch" 2x2
time_runs "solve one position (start, map, solve)" "$bin/solve" --data-dir "$scratch" --puzzle 2x2 "R U R' U' F2"
time_runs "solve 10,000 random positions --json" "$bin/solve" --data-dir "$scratch" --puzzle 2x2 --random 10000 --seed 1 --json
