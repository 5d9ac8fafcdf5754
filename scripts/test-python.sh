#!/usr/bin/env bash
# The Python module's tests: installs it with `pip install ./python` (built by maturin from the
# same library) into a virtual environment under target/, builds the small tables the tests read
# into target/test-data (reused while valid), and runs pytest on python/tests. Needs Python 3.9+
# with venv and pip, and the PyPI registry (maturin, pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-venv
data=target/test-data
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install --quiet --disable-pip-version-check pytest ./python
# The binaries as the Rust tests built them: a plain `cargo build` resolves the dependencies'
# features without the test-only ones and would compile everything again (a minute or more).
cargo test --release --quiet --no-run
target/release/gen-tables --data-dir "$data" --metric both 2x2 >/dev/null
target/release/gen-tables --data-dir "$data" corners ud-f4 phase1-sym phase2 phase2-slice >/dev/null
CUBELAB_TEST_DATA=$data "$venv/bin/python" -m pytest -q python/tests
