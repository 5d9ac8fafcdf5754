#!/usr/bin/env bash
# Proves the Slurm scripts on a real Slurm: starts a one-node cluster on this machine
# (slurmctld and slurmd on 127.0.0.1, with munge), submits a sharded 2x2 and 3x3 experiment
# through submit.sh as 4-task arrays, waits for the merges, and checks that each merged result
# equals the same experiment solved by one process (same positions, statuses, lengths and
# solutions); then a goal sample (the cross) through submit-goals.sh as a 3-task array, checked
# against one process; then runs three cosets of H through submit-cosets.sh as a 2-task array and checks
# that the merged counts equal the same cosets run by one process. Installs Debian's slurm-wlm and munge first if they are missing (needs root or
# sudo, and the Debian registry). Everything it starts is stopped when it ends.
# Usage: scripts/slurm/test-local-cluster.sh   (from anywhere; builds the binaries if needed)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
say() { echo "slurm test: $*"; }
sudo=()
if [ "$(id -u)" != 0 ]; then sudo=(sudo); fi
as_root() { "${sudo[@]}" "$@"; }

scripts/install-test-packages.sh slurm | sed "s/^/slurm test: /"

work=$(mktemp -d /tmp/cubelab-slurm.XXXXXX)
pids=()
cleanup() {
  scontrol shutdown >/dev/null 2>&1 || true
  for pid in "${pids[@]}"; do as_root kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -n "${CUBELAB_SLURM_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

# munge: the credentials Slurm's daemons and clients exchange. One is started unless running.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  as_root mkdir -p /run/munge /var/log/munge /var/lib/munge
  as_root chown munge:munge /run/munge /var/log/munge /var/lib/munge
  if [ ! -s /etc/munge/munge.key ]; then as_root mungekey --create; fi
  as_root runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
fi

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work"/{state,spool,log}
export SLURM_CONF=$work/slurm.conf
# The least a working cluster needs: no accounting, no cgroups, this host as the one node.
cat >"$SLURM_CONF" <<CONF
ClusterName=cubelab-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$(id -un)
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldPort=${CUBELAB_SLURM_PORT:-16817}
SlurmdPort=$((${CUBELAB_SLURM_PORT:-16817} + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# Started directly (not through a function), so that $! is the daemon (or sudo, which passes
# the signal on) and the cleanup stops it.
"${sudo[@]}" slurmctld -D -f "$SLURM_CONF" >"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
"${sudo[@]}" slurmd -D -f "$SLURM_CONF" >"$work/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break
  sleep 0.2
done
if [ "$(sinfo -h -o %t 2>/dev/null)" != idle ]; then
  say "the cluster did not come up"; tail -n 20 "$work"/log/*; exit 1
fi
say "one-node cluster up ($host, $cpus CPUs)"

# The binaries as the Rust tests built them: a plain `cargo build` resolves the dependencies'
# features without the test-only ones and would compile everything again (a minute or more).
cargo test --release --quiet --no-run
bin=$root/target/release
# The tables (target/test-data, or the part's own directory that scripts/test.sh gives it in
# CUBELAB_TEST_DATA_DIR): a valid table there is reused, so a second run builds none again.
data=${CUBELAB_TEST_DATA_DIR:-target/test-data}
[[ $data == /* ]] || data=$root/$data
"$root/scripts/seed-test-data.sh" "$data"
"$bin/gen-tables" --data-dir "$data" 2x2 ud-f4 phase1-sym >"$work/log/gen-tables.log" 2>&1 ||
  { cat "$work/log/gen-tables.log"; exit 1; }

# Short 3x3 scrambles, the same on every run: 8 moves each, drawn by a seeded generator.
moves=(U U2 "U'" D D2 "D'" R R2 "R'" L L2 "L'" F F2 "F'" B B2 "B'")
RANDOM=7
for _ in $(seq 24); do
  line=()
  for _ in $(seq 8); do line+=("${moves[RANDOM % 18]}"); done
  echo "${line[*]}"
done >"$work/scrambles.txt"

# Waits (up to ten minutes) for job $1 to end. squeue -j lists a finished job too (as
# COMPLETED, FAILED...) for a few minutes.
wait_for() {
  for _ in $(seq 1200); do
    case $(squeue -h -j "$1" -o %T 2>/dev/null) in
      PENDING | RUNNING | COMPLETING | CONFIGURING) sleep 0.5 ;;
      *) break ;;
    esac
  done
}

experiments=(
  "pocket|--puzzle 2x2 --random 200 --seed 11"
  "cube|--file $work/scrambles.txt --tables ud-f4 --deterministic"
)
for experiment in "${experiments[@]}"; do
  name=${experiment%%|*}
  read -r -a solve_args <<<"${experiment#*|}"
  out=$work/$name
  jobs=$(CUBELAB_BIN=$bin CUBELAB_DATA=$data CUBELAB_OUT=$out \
    scripts/slurm/submit.sh 4 --cpus-per-task=1 -- "${solve_args[@]}")
  say "$name: $jobs"
  wait_for "$(echo "$jobs" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')"
  if [ ! -s "$out/merged.csv" ]; then
    say "$name: no merged result"; tail -n 20 "$out"/logs/* "$work"/log/*.log; exit 1
  fi
  "$bin/solve" --data-dir "$data" --csv "$out/single.csv" "${solve_args[@]}" >/dev/null || true
  shards=$(ls "$out"/shards/*.csv | wc -l)
  python3 - "$out/merged.csv" "$out/single.csv" "$shards" <<'PY'
import csv, sys
merged, single, shards = sys.argv[1], sys.argv[2], int(sys.argv[3])
# Times and node counts vary between runs; what was solved, and how, must not.
kept = ["index", "total", "source", "input", "puzzle", "metric", "method", "status", "length", "solution"]
read = lambda path: [[row[k] for k in kept] for row in csv.DictReader(open(path))]
a, b = read(merged), read(single)
assert shards == 4, f"{shards} shard files, expected 4"
assert len(a) == len(b) and len(a) > 0, f"{len(a)} merged rows, {len(b)} from one process"
for x, y in zip(a, b):
    assert x == y, f"merged {x} differs from one process's {y}"
print(f"slurm test: {len(a)} positions from 4 shards equal one process's")
PY
done
# Any puzzle from its definition: the suite's 2x2x2 written by hand (tests/data: its corners
# alone, the DBL corner moved too), 30 random positions in three shards, merged by the same step; the merged rows
# must equal one process's.
puzzle_args=("$root/tests/data/hand_2x2x2.kpuzzle.json" --moves U,R,F --random 30 --seed 3 --no-save)
out=$work/puzzle
jobs=$(CUBELAB_BIN=$bin CUBELAB_DATA=$data CUBELAB_OUT=$out \
  scripts/slurm/submit-puzzles.sh 3 --cpus-per-task=1 -- "${puzzle_args[@]}")
say "puzzle: $jobs"
wait_for "$(echo "$jobs" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')"
if [ ! -s "$out/merged.csv" ]; then
  say "puzzle: no merged result"; tail -n 20 "$out"/logs/* "$work"/log/*.log; exit 1
fi
"$bin/cubelab" puzzle solve --data-dir "$data" --csv "$out/single.csv" "${puzzle_args[@]}" \
  >/dev/null 2>"$work/log/puzzle-single.log"
python3 - "$out/merged.csv" "$out/single.csv" "$out/summary.md" <<'PY'
import csv, sys
merged, single, summary = sys.argv[1:]
kept = ["index", "total", "source", "input", "puzzle", "metric", "method", "status", "length", "solution"]
read = lambda path: [[row[k] for k in kept] for row in csv.DictReader(open(path))]
a, b = read(merged), read(single)
assert len(a) == len(b) == 30, f"{len(a)} merged rows, {len(b)} from one process"
assert a == b, "the merged rows differ from one process's"
assert all(row[7] == "optimal" and row[4] == "hand_2x2x2" for row in a), a[:2]
text = open(summary).read()
assert "hand_2x2x2" in text and "30" in text, text
print(f"slurm test: 30 positions of a puzzle from its definition, from 3 shards, equal one process's")
PY
# A goal sample: the cross over 3,000 random states, three neutralities, in three shards; the
# merged histograms must equal one process's.
goal_args=(--random 3000 --seed 5 --orientations fixed,dual,6)
out=$work/goal
jobs=$(CUBELAB_BIN=$bin CUBELAB_DATA=$data CUBELAB_OUT=$out \
  scripts/slurm/submit-goals.sh 3 cross --cpus-per-task=1 -- "${goal_args[@]}")
say "goal: $jobs"
wait_for "$(echo "$jobs" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')"
if [ ! -s "$out/merged.json" ]; then
  say "goal: no merged result"; tail -n 20 "$out"/logs/* "$work"/log/*.log; exit 1
fi
"$bin/stats" --data-dir "$data" goal cross "${goal_args[@]}" --json >"$out/single.json"
python3 - "$out/merged.json" "$out/single.json" "$(ls "$out"/shards/*.csv | wc -l)" <<'PY'
import json, sys
merged, single = (json.loads(open(p).readline()) for p in sys.argv[1:3])
assert int(sys.argv[3]) == 3, f"{sys.argv[3]} shard files, expected 3"
assert merged["positions"] == single["positions"] == 3000, (merged["positions"], single["positions"])
for a, b in zip(merged["columns"], single["columns"], strict=True):
    assert a["histogram"] == b["histogram"], f"merged {a} differs from one process's {b}"
print(f"slurm test: the cross over 3,000 states from 3 shards equals one process's")
PY
# Whole cosets: three symmetry classes from the list, exact to depth 12, over two tasks that
# run one after the other (each holds about 4.5 GB, so one at a time: a task takes every CPU).
"$bin/cubelab" cosets --data-dir "$data" --from 1000000 --count 3 >"$work/cosets.txt"
coset_args=(--exact --max-depth 12)
out=$work/cosets
jobs=$(CUBELAB_BIN=$bin CUBELAB_DATA=$data CUBELAB_OUT=$out \
  scripts/slurm/submit-cosets.sh 2 "$work/cosets.txt" --cpus-per-task="$cpus" -- "${coset_args[@]}")
say "cosets: $jobs"
wait_for "$(echo "$jobs" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')"
if [ ! -s "$out/merged.json" ]; then
  say "cosets: no merged result"; tail -n 20 "$out"/logs/* "$work"/log/*.log; exit 1
fi
"$bin/cubelab" coset --data-dir "$data" --json "${coset_args[@]}" --file "$work/cosets.txt" \
  >"$work/single-cosets.jsonl"
"$bin/stats" cosets --json "$work/single-cosets.jsonl" >"$work/single-merged.json"
python3 - "$out/merged.json" "$work/single-merged.json" <<'PY'
import json, sys
merged, single = (json.load(open(path)) for path in sys.argv[1:])
assert merged["runs"] == 3 and merged["repeated"] == [], merged
assert merged["counts"] == single["counts"] and len(merged["counts"]) == 13, (merged, single)
assert merged["weighted"] == single["weighted"] and merged["cosets"] == single["cosets"]
assert sum(merged["counts"]) > 0
print(f"slurm test: 3 cosets from 2 tasks equal one process's: {merged['counts'][-4:]}")
PY
say "passed"
