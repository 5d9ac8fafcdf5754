#!/usr/bin/env bash
# Times cubelab's optimal solver against Voltara's vcube and, on request, Chen Shuang's
# cube48opt on the same positions, one thread each, alternating (cubelab, vcube, cube48opt per
# position) so that the machine's drift affects all alike. Prints a markdown table: optimal
# length, seconds for each, cubelab's ratio to each, then the totals.
#
# vcube is built from its source in a scratch folder outside this repository (never vendored):
#   scripts/bench-peers.sh VCUBE_SRC [TABLES [COORD [POSITIONS]]]
#   VCUBE_SRC  a checkout of github.com/Voltara/vcube (needs clang, cmake; x86-64 with AVX2),
#              or - to leave vcube out
#   TABLES     cubelab's --tables (default ud-layers-f4, 1.39 GB; vcube 304 is 1.42 GB)
#   COORD      vcube's --coord (default 304)
#   POSITIONS  one move sequence per line, # comments (default benches/peers.txt)
# Environment: CUBELAB_DATA (tables, default data/), TIMEOUT (seconds per position and solver,
# default 600), SCRATCH (vcube build folder, default ${TMPDIR:-/tmp}/cubelab-vcube), BATCH=1
# (each solver solves every position in one process, cubelab first: for tables that do not
# both fit in memory, where alternating processes would reread each table from disk for every
# position; vcube 208 and ud-order-f8 together are 15 GB; vcube only).
# CUBE48OPT=DIR:N also times cube48opt variant N (1 to 9) from DIR, a checkout of
# github.com/cs0x7f/cubeopt-wasm (its public WebAssembly builds, about half the native speed by
# its README), under Node with the runner CUBE48OPT_RUNNER (default ../shared/peers/cube48opt.mjs
# beside this repository). Its table is built once into $SCRATCH/cube48optN.tbl (variant 6, 1.95
# GB: about 20 minutes on one core); each position's time is the solve call's alone.
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

runner=${CUBE48OPT_RUNNER:-$(cd .. && pwd)/shared/peers/cube48opt.mjs}
c48_dir= c48=
if [[ -n ${CUBE48OPT:-} ]]; then
  c48_dir=${CUBE48OPT%:*} c48=cube48opt${CUBE48OPT##*:}
  [[ -f $c48_dir/$c48.wasm ]] || { echo "no $c48.wasm in $c48_dir" >&2; exit 2; }
  [[ -f $runner ]] || { echo "no cube48opt runner at $runner (set CUBE48OPT_RUNNER)" >&2; exit 2; }
fi
c48_table=$scratch/$c48.tbl

cargo build --release --quiet --bin solve
if [[ $src == - ]]; then
  :
elif [[ ! -x $scratch/vc-optimal ]]; then
  mkdir -p "$scratch"
  cp -r "$src"/. "$scratch"/
  # vcube's own unit tests need CppUTest; the solver does not.
  sed -i 's/^add_subdirectory(tests)/#add_subdirectory(tests)/' "$scratch/CMakeLists.txt"
  (cd "$scratch" && cmake . >/dev/null && make -j"$(nproc)" vc-optimal >/dev/null)
fi
if [[ $src != - ]]; then
  mkdir -p "$scratch/tables"
  (cd "$scratch" && ./vc-optimal --coord="$coord" --no-input >/dev/null)
fi
if [[ -n $c48 && ! -f $c48_table ]]; then
  mkdir -p "$scratch"
  node "$runner" "$c48_dir" "$c48" "$(nproc)" "$c48_table" </dev/null >&2
fi

peers=()
[[ $src != - ]] && peers+=("vcube --coord $coord")
[[ -n $c48 ]] && peers+=("$c48 (WebAssembly, Node $(node --version))")
echo "cubelab --tables $tables (data: $data) against $(IFS=';'; echo "${peers[*]}" | sed 's/;/ and /'); one thread each;"
echo "timeout ${timeout} s; $(date -u +%Y-%m-%dT%H:%MZ); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo
if [[ ${BATCH:-} == 1 ]]; then
  echo "| # | length | cubelab s | vcube s | ratio | position |"
  echo "|---|---|---|---|---|---|"
else
  echo "| # | length | cubelab s | vcube s | cube48opt s | vs vcube | vs cube48opt | position |"
  echo "|---|---|---|---|---|---|---|---|"
fi
if [[ ${BATCH:-} == 1 ]]; then
  [[ $src != - && -z $c48 ]] || { echo "BATCH=1 times vcube alone" >&2; exit 2; }
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
# One solver's seconds for one position, or "timeout", or "-" where it is left out.
time_vcube() {
  [[ $src == - ]] && { echo -; return; }
  local t
  t=$(cd "$scratch" && echo "$1" | timeout "$timeout" ./vc-optimal --coord="$coord" \
    --workers=1 2>/dev/null | awk '{print $2; exit}') || t=
  echo "${t:-timeout}"
}
time_cube48opt() {
  [[ -z $c48 ]] && { echo -; return; }
  local t
  t=$(echo "$1" | timeout "$timeout" node "$runner" "$c48_dir" "$c48" 1 "$c48_table" 2>/dev/null |
    awk '/^TIME /{print $2; exit}') || t=
  echo "${t:-timeout}"
}
results=$(mktemp)
trap 'rm -f "$results"' EXIT
n=0
while IFS= read -r line; do
  [[ -z $line || $line == \#* ]] && continue
  n=$((n + 1))
  ours=$(timeout "$((timeout + 30))" target/release/solve --data-dir "$data" --tables "$tables" \
    --threads 1 --timeout "$timeout" --json "$line" | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())
print(r.get("length", "-"), r["seconds"] if r["status"] == "optimal" else "timeout")')
  read -r length ours_s <<<"$ours"
  vcube_s=$(time_vcube "$line")
  c48_s=$(time_cube48opt "$line")
  echo "$n|$length|$ours_s|$vcube_s|$c48_s|$line" | tee -a "$results" | python3 -c '
import sys
n, length, ours, vcube, c48, line = sys.stdin.read().rstrip("\n").split("|")
def ratio(a, b):
    return f"{float(a) / float(b):.2f}" if "timeout" not in (a, b) and "-" not in (a, b) else "-"
print(f"| {n} | {length} | {ours} | {vcube} | {c48} | {ratio(ours, vcube)} | {ratio(ours, c48)} | {line} |")'
done <"$positions"
echo
python3 - "$results" <<'PY'
import sys
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1])]
for column, name in ((3, "vcube"), (4, "cube48opt")):
    both = [(float(r[2]), float(r[column])) for r in rows
            if "timeout" not in (r[2], r[column]) and "-" not in (r[2], r[column])]
    if both:
        a, b = sum(x for x, _ in both), sum(y for _, y in both)
        print(f"Total over the {len(both)} positions both solved: cubelab {a:.1f} s, "
              f"{name} {b:.1f} s, ratio {a / b:.2f}")
PY
