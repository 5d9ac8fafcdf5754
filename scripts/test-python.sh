#!/usr/bin/env bash
# The Python package's tests: installs it with `pip install ./python` (built by maturin from the
# same library) into a virtual environment under target/, with numpy, pandas, matplotlib, mypy,
# pandas-stubs, nbclient and ipykernel; builds the small tables the tests read into
# target/test-data (reused while valid); runs pytest on python/tests (one test imports the
# package where numpy and pandas cannot be imported), checks the type stubs (mypy --strict on
# the package and on a typed usage file, mypy.stubtest against the installed module) and runs
# notebooks/tour.ipynb, failing on any cell's error. Needs Python 3.9+ with venv and pip, and
# the PyPI registry.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
venv=target/python-venv
# The tables' directory: scripts/test.sh gives each part its own, as the parts run side by side
# and one directory takes one gen-tables at a time.
data=${CUBELAB_TEST_DATA_DIR:-target/test-data}
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install --quiet --disable-pip-version-check pytest numpy pandas pandas-stubs \
    matplotlib mypy nbclient ipykernel
# `test-python.sh prepare`: only the environment and its packages (downloads, which
# scripts/test.sh runs while the Rust part compiles).
if [[ ${1:-} == prepare ]]; then exit 0; fi
# maturin builds the module alone, with the core `cargo test` compiled (python/Cargo.toml
# pins the features that makes one set).
"$venv/bin/pip" install --quiet --disable-pip-version-check ./python
# The binaries as the Rust tests built them: a plain `cargo build` resolves the dependencies'
# features without the test-only ones and would compile everything again (a minute or more).
cargo test --release --quiet --no-run
scripts/seed-test-data.sh "$data"
target/release/gen-tables --data-dir "$data" --metric both 2x2 >/dev/null
target/release/gen-tables --data-dir "$data" corners ud-f4 phase1-sym phase2 phase2-slice >/dev/null
target/release/gen-tables --data-dir "$data" --metric qtm phase1-sym >/dev/null
CUBELAB_TEST_DATA=$data "$venv/bin/python" -m pytest -q python/tests

echo "type stubs: mypy --strict, stubtest"
"$venv/bin/python" -m mypy --strict --cache-dir target/mypy-cache python/cubelab python/tests/typed_usage.py
# Run from target/, where it leaves its .mypy_cache.
(cd target && python-venv/bin/python -m mypy.stubtest --allowlist ../python/stubtest-allowlist.txt cubelab)

echo "notebook: notebooks/tour.ipynb"
"$venv/bin/python" python/tests/run_notebook.py notebooks/tour.ipynb
echo "python: passed in $((SECONDS - start)) s"
