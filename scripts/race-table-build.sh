#!/usr/bin/env bash
# Races the build of one of cubelab's 48-symmetry tables against the build of cube48opt's table
# of about the same size (Chen Shuang's public WebAssembly build under Node, run by
# ../shared/peers/cube48opt.mjs), at the same thread count, alternating which goes first, each
# from nothing into a scratch folder that is removed afterwards. Prints a markdown table: for
# each round, each program's whole-process wall time and peak memory (GNU time), cube48opt's own
# "ready in" time, and ours over theirs.
#
#   scripts/race-table-build.sh CUBE48OPT_DIR [ROUNDS [TABLE [VARIANT [THREADS]]]]
#
# CUBE48OPT_DIR  a checkout of github.com/cs0x7f/cubeopt-wasm (cube48optN.mjs and .wasm)
# ROUNDS         default 2; TABLE cubelab's table (default h48-eo6); VARIANT cube48opt's
#                (default 6, 1.95 GB); THREADS default nproc
# Environment: FIRST_ROUND (default 1: odd rounds build ours first, even ones theirs; 2 to go on
# from a second round), SCRATCH (default ${TMPDIR:-/tmp}), CUBE48OPT_RUNNER (default
# ../shared/peers/cube48opt.mjs beside this repository). Needs twice the tables' size of disk.
set -euo pipefail
cd "$(dirname "$0")/.."
c48_dir=${1:?usage: scripts/race-table-build.sh CUBE48OPT_DIR [ROUNDS [TABLE [VARIANT [THREADS]]]]}
rounds=${2:-2}
table=${3:-h48-eo6}
variant=${4:-6}
threads=${5:-$(nproc)}
runner=${CUBE48OPT_RUNNER:-$(cd .. && pwd)/shared/peers/cube48opt.mjs}
c48=cube48opt$variant
[[ -f $c48_dir/$c48.wasm ]] || { echo "no $c48.wasm in $c48_dir" >&2; exit 2; }
[[ -f $runner ]] || { echo "no cube48opt runner at $runner (set CUBE48OPT_RUNNER)" >&2; exit 2; }
cargo build --release --quiet --bin gen-tables
scratch=$(mktemp -d "${SCRATCH:-${TMPDIR:-/tmp}}/race-table-build.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# Builds cubelab's table from nothing; prints "WALL KIB".
ours() {
  rm -rf "$scratch/data"
  RAYON_NUM_THREADS=$threads /usr/bin/time -f '%e %M' -o "$scratch/time" \
    target/release/gen-tables --json --data-dir "$scratch/data" "$table" >"$scratch/ours.json" 2>/dev/null
  cat "$scratch/time"
}

# Builds cube48opt's table from nothing (and writes it, as ours is written); prints
# "WALL KIB READY".
theirs() {
  rm -f "$scratch/$c48.tbl"
  /usr/bin/time -f '%e %M' -o "$scratch/time" node "$runner" "$c48_dir" "$c48" "$threads" \
    "$scratch/$c48.tbl" </dev/null >"$scratch/theirs.log" 2>&1
  local ready
  ready=$(sed -n 's/.*ready in \([0-9.]*\) s.*/\1/p' "$scratch/theirs.log")
  echo "$(cat "$scratch/time") ${ready:--}"
  rm -f "$scratch/$c48.tbl"
}

echo "cubelab \`$table\` against $c48 (WebAssembly, Node $(node --version)), $threads threads each;"
echo "$(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
echo "| round | first | cubelab wall | cubelab peak | $c48 wall | $c48 ready in | $c48 peak | ratio (wall) |"
echo "|---|---|---|---|---|---|---|---|"
for ((round = ${FIRST_ROUND:-1}; round < ${FIRST_ROUND:-1} + rounds; round++)); do
  if ((round % 2)); then
    read -r our_wall our_kib <<<"$(ours)"
    read -r their_wall their_kib their_ready <<<"$(theirs)"
    first=cubelab
  else
    read -r their_wall their_kib their_ready <<<"$(theirs)"
    read -r our_wall our_kib <<<"$(ours)"
    first=$c48
  fi
  python3 - "$round" "$first" "$our_wall" "$our_kib" "$their_wall" "$their_ready" "$their_kib" <<'PY'
import sys
r, first, ow, ok, tw, tr, tk = sys.argv[1:]
gib = lambda kib: f"{int(kib) / 2**20:.2f} GiB"
print(f"| {r} | {first} | {float(ow):.1f} s | {gib(ok)} | {float(tw):.1f} s | {tr} s | {gib(tk)} | "
      f"**{float(ow) / float(tw):.3f}** |")
PY
done
