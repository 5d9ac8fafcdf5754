#!/usr/bin/env bash
# The whole test suite, as README.md gives it and CI (.ci/run) runs it: the Rust tests, the
# puzzle-definition checks over cubing.js's definitions, the Slurm scripts on a real one-node
# Slurm cluster started on this machine, the Python module's pytest suite, the web editor in
# headless Chromium with a short load test of the server, and a short fuzzing run of every
# reader (cargo-fuzz, nightly toolchain). Each part says where it starts and how long it took;
# a failed part stops the run (the parts that run side by side end first). CUBELAB_SKIP="puzzles slurm python browser fuzz" (part names,
# space-separated) leaves parts out on a machine that cannot run them; CI leaves out nothing.
#
# `scripts/test.sh quick`: the tier to run while developing (reports/tests.md): the unit tests
# and the integration suite without its slowest tests, no other part.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == quick ]]; then
  # The integration suite's slowest tests (each a minute or more of two cores; measured in
  # reports/tests.md): they build or search large tables, and the whole run checks them.
  slow=(
    coset::
    h48_solver::
    h48_eo::
    pattern_databases::
    groups::pocket_groups_match_their_published_counts
    cube_solver::htm_lengths_equal_an_independent_search
    cube_solver::every_optimal_solution_once
    ud_solver::
    layers::
    goals::solve_goal_prints_checked_solutions_and_the_face_it_used
    goals::goal_samples_split_into_shards_merge_into_the_whole
    groups::the_committed_2x2_circuit_is_one_and_is_rebuilt_identically
    table_format::a_flipped_histogram_bit_is_found_on_load
    pocket_solver::all_optimal_solutions_are_distinct_and_optimal
    readme_examples::readme_examples_run_as_written
    cli::two_phase_solves_within_the_maximum_and_improves_with_a_budget
    goals::larger_goals_agree_with_a_plain_ida_star_over_cubies
    goals::the_xxcross_search_agrees_with_a_plain_ida_star_over_cubies
    space::goal::tests::small_goals_agree_with_a_plain_search_over_cubies
    search::goal::tests::solutions_reach_the_goal_in_the_view_they_name
    search::cosets::tests::the_classes_stand_for_every_coset_once
  )
  args=()
  for name in "${slow[@]}"; do args+=(--skip "$name"); done
  start=$SECONDS
  cargo test --release -- "${args[@]}"
  echo "== quick: passed in $((SECONDS - start)) s (the slowest tests left out: scripts/test.sh runs them)"
  exit 0
fi
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
# So do the npm packages of the puzzle definitions and the browser part.
npm_dirs=()
[[ $skip == *" puzzles "* && $skip == *" browser "* ]] || npm_dirs+=(web)
[[ $skip == *" browser "* ]] || npm_dirs+=(tests/browser)
npm_log=target/test-npm.log
npm_prepared=
if ((${#npm_dirs[@]} > 0)); then
  scripts/npm-install.sh "${npm_dirs[@]}" >"$npm_log" 2>&1 &
  npm_prepared=$!
fi
# So do the Python part's packages from PyPI.
python_log=target/test-python-prepare.log
python_prepared=
if [[ $skip != *" python "* ]]; then
  scripts/test-python.sh prepare >"$python_log" 2>&1 &
  python_prepared=$!
fi
part rust cargo test --release
# The four parts after it need nothing more compiled, and each spends much of its time waiting
# (on Slurm's jobs, a browser, a server, interpreters starting), so they run side by side, each
# with its own log and its own tables' directory (one directory takes one gen-tables at a time).
# Their packages were fetched in the background above.
if [[ -n $npm_prepared ]]; then
  wait "$npm_prepared" || echo "== npm: the background install failed ($npm_log); the parts try again"
fi
wait "$packages" || echo "== packages: the background install failed (target/test-packages.log); the parts try again"
if [[ -n $python_prepared ]]; then
  wait "$python_prepared" || echo "== python: the background install failed ($python_log); the part tries again"
fi
logs=target/test-logs
mkdir -p "$logs"
declare -A side=()
side_part() {
  local name=$1
  shift
  if [[ $skip == *" $name "* ]]; then
    echo "== $name: skipped (CUBELAB_SKIP)"
    return
  fi
  echo "== $name: started beside the others (log: $logs/$name.log)"
  (
    start=$SECONDS
    CUBELAB_TEST_DATA_DIR=target/test-data/$name "$@" >"$logs/$name.log" 2>&1
    echo "$((SECONDS - start))" >"$logs/$name.seconds"
  ) &
  side[$!]=$name
}
side_part puzzles scripts/test-puzzles.sh
side_part slurm scripts/slurm/test-local-cluster.sh
side_part python scripts/test-python.sh
side_part browser scripts/test-browser.sh
failed=()
while ((${#side[@]} > 0)); do
  # Each part is reported as it ends.
  if wait -n -p ended "${!side[@]}"; then
    echo "== ${side[$ended]}: passed in $(cat "$logs/${side[$ended]}.seconds") s"
  else
    tail -n 60 "$logs/${side[$ended]}.log"
    echo "== ${side[$ended]}: FAILED (its whole log: $logs/${side[$ended]}.log)"
    failed+=("${side[$ended]}")
  fi
  unset "side[$ended]"
done
if ((${#failed[@]} > 0)); then
  echo "== failed: ${failed[*]}"
  exit 1
fi
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
