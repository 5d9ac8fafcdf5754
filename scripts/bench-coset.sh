#!/usr/bin/env bash
# Times `cubelab coset` against Tomas Rokicki's hcoset (rokicki/cube20src) on the same cosets
# with the same thread count, alternating (cubelab, hcoset per coset and run) so that the
# machine's drift affects both alike. Prints a markdown table: per coset and run, each
# program's seconds and cubelab's ratio, whether their exact counts agree, then the totals.
#
#   scripts/bench-coset.sh HCOSET_DIR MODE [COSETS]
#   HCOSET_DIR  a folder holding hcoset built from rokicki/cube20src outside this repository
#               (ctangle from Debian's texlive-binaries: `ctangle hcoset.w - hcoset.cpp`, the
#               same for cubepos, kocsymm, phase1prune; `make hcoset`) and its phase-1 table
#               p1p1h.dat (built by its first run, `./hcoset -d 0 R1`: about ten minutes);
#               for METRIC=qtm, hcoset built with -DQUARTER in place of -DHALF (`make hcoset
#               CXXFLAGS="-DQUARTER -std=c++11 -O3 -Wall -DLEVELCOUNTS -DTHREADS"`), whose
#               table is p1p1q.dat
#   MODE        exact:D (counts to depth D, phase 1 at every depth: cubelab --exact
#               --max-depth D, hcoset -d D) or bound:N (cubelab --bound N, phase 1 to
#               SEARCH_DEPTH; hcoset -S SEARCH_DEPTH -d N)
#   COSETS      one move sequence per line, # comments (default: three random positions of
#               benches/peers.txt)
# Environment: CUBELAB_DATA (tables, default data/; needs phase1-sym, and for bound:N the
# two-phase tables, which finish a bound run's last positions), THREADS (default 2),
# RUNS (default 2), METRIC (htm or qtm, default htm), SEARCH_DEPTH (a bound run's phase-1
# depth, default cubelab's: 16 in htm, 18 in qtm).
set -euo pipefail
cd "$(dirname "$0")/.."
hdir=${1:?usage: scripts/bench-coset.sh HCOSET_DIR MODE [COSETS]}
mode=${2:?usage: scripts/bench-coset.sh HCOSET_DIR MODE [COSETS]}
cosets=${3:-}
data=${CUBELAB_DATA:-data}
threads=${THREADS:-2}
runs=${RUNS:-2}
metric=${METRIC:-htm}
case $metric in
  htm) table=p1p1h.dat; search=${SEARCH_DEPTH:-16} ;;
  qtm) table=p1p1q.dat; search=${SEARCH_DEPTH:-18} ;;
  *) echo "METRIC is htm or qtm, not $metric" >&2; exit 2 ;;
esac
[[ -x $hdir/hcoset && -f $hdir/$table ]] || {
  echo "no hcoset with its table $table in $hdir (see the top of this script)" >&2
  exit 2
}
case $mode in
  exact:*) depth=${mode#exact:}; ours=(--exact --max-depth "$depth"); theirs=(-d "$depth") ;;
  bound:*)
    depth=${mode#bound:}
    ours=(--bound "$depth" --search-depth "$search")
    theirs=(-S "$search" -d "$depth")
    ;;
  *) echo "MODE is exact:D or bound:N, not $mode" >&2; exit 2 ;;
esac
cargo build --release --bin cubelab >&2
list=$(mktemp)
trap 'rm -f "$list"' EXIT
if [[ -n $cosets ]]; then
  grep -v '^\s*\(#\|$\)' "$cosets" >"$list"
else
  grep -v '^\s*\(#\|$\)' benches/peers.txt | sed -n '3p;4p;6p' >"$list"
fi

# hcoset spells moves as a face and a digit (R1 R2 R3), with nothing between them.
hcoset_moves() { sed -E "s/([URFDLB])'/\13/g; s/([URFDLB])2/\12/g; s/([URFDLB])($| )/\11\2/g; s/ //g" <<<"$1"; }

echo "| coset | run | cubelab s | hcoset s | ratio | counts agree |"
echo "|---|---|---|---|---|---|"
total_ours=0 total_theirs=0
n=0
while IFS= read -r moves; do
  n=$((n + 1))
  for run in $(seq 1 "$runs"); do
    start=$(date +%s.%N)
    target/release/cubelab coset "${ours[@]}" --metric "$metric" --threads "$threads" --csv \
      --data-dir "$data" "$moves" >"$list.ours" || true
    ours_s=$(echo "$(date +%s.%N) - $start" | bc)
    start=$(date +%s.%N)
    (cd "$hdir" && ./hcoset -t "$threads" "${theirs[@]}" "$(hcoset_moves "$moves")") >"$list.theirs"
    theirs_s=$(echo "$(date +%s.%N) - $start" | bc)
    # Exact counts: ours where the CSV says exact, theirs from its "lev" column.
    ours_counts=$(awk -F, 'NR > 1 && $4 == "true" && $2 > 0 { print $1, $2 }' "$list.ours")
    theirs_counts=$(awk '/^Tests at/ { for (i = 1; i < NF; i++) if ($i == "lev") print $3, $(i + 1) }' "$list.theirs" |
      grep -v ' ?$' || true)
    agree=no
    common=$(comm -12 <(sort <<<"$ours_counts") <(sort <<<"$theirs_counts") | wc -l)
    # Every exact count of ours in hcoset's (which also counts the depths only its prepass
    # reached, in a bound run).
    [[ $common -gt 0 && $common -eq $(wc -l <<<"$ours_counts") ]] && agree="yes ($common depths)"
    printf '| %d | %d | %.1f | %.1f | %.2f | %s |\n' "$n" "$run" "$ours_s" "$theirs_s" \
      "$(echo "$ours_s / $theirs_s" | bc -l)" "$agree"
    total_ours=$(echo "$total_ours + $ours_s" | bc)
    total_theirs=$(echo "$total_theirs + $theirs_s" | bc)
  done
done <"$list"
rm -f "$list.ours" "$list.theirs"
printf '\nTotals: cubelab %.1f s, hcoset %.1f s, ratio %.2f (%s threads each, %s, %s)\n' \
  "$total_ours" "$total_theirs" "$(echo "$total_ours / $total_theirs" | bc -l)" "$threads" "$mode" \
  "$metric"
