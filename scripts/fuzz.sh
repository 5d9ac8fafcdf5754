#!/usr/bin/env bash
# Fuzzes every reader of outside input (fuzz/fuzz_targets: moves, sticker strings and position
# lines, Reid's notation, experiment CSV files, coset runs, goal samples, scramble lists and the
# WCA export, table files, KPuzzle definitions, the API's JSON bodies) with
# cargo-fuzz and libFuzzer, SECONDS a target (default 10; the test command's short run). A long
# run: `scripts/fuzz.sh 600`. A crash or a failed check stops with the input that caused it in
# fuzz/artifacts/TARGET/ (replay: `cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/FILE`).
# Needs the nightly toolchain (libFuzzer's instrumentation); installs cargo-fuzz from crates.io
# if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: '$seconds' is not a number of seconds (1 or more)" >&2
  exit 2
fi
# libFuzzer's instrumentation needs nightly; a machine without it cannot fuzz, which is said
# rather than failed, as the test command's other parts skip what a machine cannot run.
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "fuzz: skipped: no nightly toolchain here (install it with \`rustup toolchain install nightly\`)"
  exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  cargo install --locked cargo-fuzz
fi
# Built once: every target in one build. A short run (the test command's) builds without
# optimisation, in about half the time of an optimised build, and without AddressSanitizer: it
# checks that every reader answers any input without a panic or a failed check, in a fifth
# less build (measured: 108 to 85 s on two cores) and more inputs a second. A run of a minute
# or more is worth the optimised build, and keeps AddressSanitizer for the unsafe code the
# readers reach (the table files' mapping).
if ((seconds < 60)); then
  build=(--dev --sanitizer none)
else
  build=(--release)
fi
cargo +nightly fuzz build "${build[@]}" >/dev/null
# Targets run side by side, one per core (libFuzzer runs on one thread), each with its own
# log; the first failure is reported with its log after the running ones end.
fuzz_one() {
  local target=$1 log=$2
  mkdir -p "fuzz/corpus/$target"
  # New inputs go to the first directory (ignored by git); the seeds are only read.
  cargo +nightly fuzz run "${build[@]}" "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" -- \
    -max_total_time="$seconds" -max_len=8192 -rss_limit_mb=2048 -print_final_stats=1 \
    >"$log" 2>&1
}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
cores=$(nproc)
targets=($(cargo +nightly fuzz list))
declare -A running=()
failed=
finish() {
  local pid=$1 status=$2 target=${running[$1]}
  unset "running[$pid]"
  if ((status != 0)); then
    tail -n 40 "$logs/$target"
    echo "fuzz: $target FAILED (the input is in fuzz/artifacts/$target/)" >&2
    failed=1
    return
  fi
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$target" | tail -n 1)
  echo "fuzz: $target: ${runs:-?} inputs in ${seconds} s, no failure"
}
for target in "${targets[@]}"; do
  while ((${#running[@]} >= cores)); do
    status=0
    wait -n -p done_pid "${!running[@]}" || status=$?
    finish "$done_pid" "$status"
  done
  [[ -z $failed ]] || break
  fuzz_one "$target" "$logs/$target" &
  running[$!]=$target
done
while ((${#running[@]} > 0)); do
  status=0
  wait -n -p done_pid "${!running[@]}" || status=$?
  finish "$done_pid" "$status"
done
[[ -z $failed ]] || exit 1
