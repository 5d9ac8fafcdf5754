#!/usr/bin/env bash
# The whole test suite, as README.md gives it and CI (.ci/run) runs it: the Rust tests, the Slurm
# scripts on a real one-node Slurm cluster started on this machine, the Python module's pytest
# suite, the web editor in headless Chromium with a short load test of the server, and a short
# fuzzing run of every reader (cargo-fuzz, nightly toolchain). Each part says where it starts;
# the first failure stops the run. CUBELAB_SKIP="slurm python browser fuzz" (part names,
# space-separated) leaves parts out on a machine that cannot run them; CI leaves out nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
skip=" ${CUBELAB_SKIP:-} "
part() {
  local name=$1
  shift
  if [[ $skip == *" $name "* ]]; then
    echo "== $name: skipped (CUBELAB_SKIP)"
    return
  fi
  echo "== $name"
  local start=$SECONDS
  "$@"
  echo "== $name: passed in $((SECONDS - start)) s"
}
# The Slurm and browser parts' Debian packages download while the Rust part compiles and runs.
wanted=()
for name in slurm browser; do [[ $skip == *" $name "* ]] || wanted+=("$name"); done
mkdir -p target
packages_log=target/test-packages.log
scripts/install-test-packages.sh "${wanted[@]}" >"$packages_log" 2>&1 &
packages=$!
part rust cargo test --release
wait "$packages" || echo "== packages: the background install failed (target/test-packages.log); the parts try again"
part slurm scripts/slurm/test-local-cluster.sh
part python scripts/test-python.sh
part browser scripts/test-browser.sh
# CI's checkout is thrown away after the run, and its machine's disk can be small (a run once
# stopped with no space left while building the fuzz targets): there, the build outputs and
# test data the parts above made, which the fuzz part never reads (it builds in fuzz/target,
# its own workspace), are removed first, about 2 GB. Anywhere else they stay, so that a second
# run rebuilds nothing.
if [[ ${CI:-} == true ]]; then
  rm -rf target/release target/python-venv target/test-data target/mypy-cache
fi
# Coverage-guided fuzzing of every reader, five seconds a target (scripts/fuzz.sh; the first
# run builds the targets with the nightly toolchain, about seven minutes on two cores).
part fuzz scripts/fuzz.sh 5
echo "== all tests passed"
