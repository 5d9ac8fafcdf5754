#!/usr/bin/env bash
# The whole test suite, as README.md gives it and CI (.ci/run) runs it: the Rust tests, the Slurm
# scripts on a real one-node Slurm cluster started on this machine, the Python module's pytest
# suite, and the web editor in headless Chromium with a short load test of the server. Each part says where it
# starts; the first failure stops the run. CUBELAB_SKIP="slurm python browser" (space-separated part names)
# leaves parts out on a machine that cannot run them; CI leaves out nothing.
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
part rust cargo test --release
part slurm scripts/slurm/test-local-cluster.sh
part python scripts/test-python.sh
part browser scripts/test-browser.sh
echo "== all tests passed"
