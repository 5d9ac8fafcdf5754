#!/usr/bin/env bash
# Times cubelab's optimal solver against Voltara's vcube on the same positions, one thread
# each, alternating (cubelab, then vcube, per position) so that the machine's drift affects
# both alike. Prints a markdown table: optimal length, seconds for each, and their ratio, then
# the totals.
#
# vcube is built from its source in a scratch folder outside this repository (never vendored):
#   scripts/bench-peers.sh VCUBE_SRC [TABLES [COORD [POSITIONS]]]
#   VCUBE_SRC  a checkout of github.com/Voltara/vcube (needs clang, cmake; x86-64 with AVX2)
#   TABLES     cubelab's --tables (default ud-layers-f4, 1.39 GB; vcube 304 is 1.42 GB)
#   COORD      vcube's --coord (default 304)
#   POSITIONS  one move sequence per line, # comments (default benches/peers.txt)
# Environment: CUBELAB_DATA (tables, default data/), TIMEOUT (seconds per position and solver,
# default 600), SCRATCH (vcube build folder, default ${TMPDIR:-/tmp}/cubelab-vcube), BATCH=1
# (each solver solves every position in one process, cubelab first: for tables that do not
# both fit in memory, where alternating processes would reread each table from disk for every
# position; vcube 208 and ud-order-f8 together are 15 GB).
# vcube builds its table on first use (304: about 2 minutes here) and keeps it in its folder.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: scripts/bench-peers.sh VCUBE_SRC [TABLES [COORD [POSITIONS]]]}
tables=${2:-ud-layers-f4}
coord=${3:-304}
positions=${4:-benches/peers.txt}
data=${CUBELAB_DATA:-data}
timeout=${TIMEOUT:-600}
scratch=${SCRATCH:-${TMPDIR:-/tmp}/cubelab-vcube}

cargo build --release --quiet --bin solve
if [[ ! -x $scratch/vc-optimal ]]; then
  mkdir -p "$scratch"
  cp -r "$src"/. "$scratch"/
  # vcube's own unit tests need CppUTest; the solver does not.
  sed -i 's/^add_subdirectory(tests)/#add_subdirectory(tests)/' "$scratch/CMakeLists.txt"
  (cd "$scratch" && cmake . >/dev/null && make -j"$(nproc)" vc-optimal >/dev/null)
fi
mkdir -p "$scratch/tables"
(cd "$scratch" && ./vc-optimal --coord="$coord" --no-input >/dev/null)

echo "cubelab --tables $tables (data: $data) against vcube --coord $coord; one thread each;"
echo "timeout ${timeout} s; $(date -u +%Y-%m-%dT%H:%MZ); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo
echo "| # | length | cubelab s | vcube s | ratio | position |"
echo "|---|---|---|---|---|---|"
if [[ ${BATCH:-} == 1 ]]; then
  list=$(mktemp) ours=$(mktemp) theirs=$(mktemp)
  grep -v '^\s*\(#\|$\)' "$positions" >"$list"
  target/release/solve --data-dir "$data" --tables "$tables" --threads 1 \
    --timeout "$timeout" --json --file "$list" >"$ours" || true
  (cd "$scratch" && timeout "$((timeout * 20))" ./vc-optimal --coord="$coord" \
    --workers=1 <"$list" >"$theirs" 2>/dev/null) || true
  python3 - "$list" "$ours" "$theirs" <<'PY'
import json, sys
positions = [l.strip() for l in open(sys.argv[1])]
ours = [json.loads(l) for l in open(sys.argv[2])]
# vcube prints "index seconds length moves..." per position.
theirs = {int(f[0]): float(f[1]) for f in map(str.split, open(sys.argv[3]))
          if len(f) > 1 and f[0].isdigit()}
a = b = 0.0
for i, (pos, r) in enumerate(zip(positions, ours)):
    o = r["seconds"] if r["status"] == "optimal" else None
    t = theirs.get(i)
    ratio = f"{o / t:.2f}" if o is not None and t else "-"
    print(f"| {i + 1} | {r.get('length', '-')} | {o if o is not None else 'timeout'} | "
          f"{t if t is not None else 'timeout'} | {ratio} | {pos} |")
    if o is not None and t:
        a, b = a + o, b + t
print()
ratio = f"{a / b:.2f}" if b else "-"
print(f"Total over positions both solved: cubelab {a:.1f} s, vcube {b:.1f} s, ratio {ratio}")
PY
  rm -f "$list" "$ours" "$theirs"
  exit 0
fi
total_ours=0
total_theirs=0
n=0
while IFS= read -r line; do
  [[ -z $line || $line == \#* ]] && continue
  n=$((n + 1))
  ours=$(timeout "$((timeout + 30))" target/release/solve --data-dir "$data" --tables "$tables" \
    --threads 1 --timeout "$timeout" --json "$line" | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())
print(r.get("length", "-"), r["seconds"] if r["status"] == "optimal" else "timeout")')
  theirs=$(cd "$scratch" && echo "$line" | timeout "$timeout" ./vc-optimal --coord="$coord" \
    --workers=1 2>/dev/null | awk '{print $2; exit}') || theirs=timeout
  [[ -z $theirs ]] && theirs=timeout
  read -r length ours_s <<<"$ours"
  ratio=$(python3 -c "
a, b = '$ours_s', '$theirs'
print('-' if 'timeout' in (a, b) else f'{float(a) / float(b):.2f}')")
  printf '| %d | %s | %s | %s | %s | %s |\n' "$n" "$length" "$ours_s" "$theirs" "$ratio" "$line"
  if [[ $ours_s != timeout && $theirs != timeout ]]; then
    total_ours=$(python3 -c "print($total_ours + $ours_s)")
    total_theirs=$(python3 -c "print($total_theirs + $theirs)")
  fi
done <"$positions"
echo
python3 -c "
a, b = $total_ours, $total_theirs
print(f'Total over positions both solved: cubelab {a:.1f} s, vcube {b:.1f} s, ratio {a / b:.2f}')"
