"""Shared fixtures: the tables the tests read, built by gen-tables into one directory.

scripts/test-python.sh builds them and names the directory in CUBELAB_TEST_DATA; run by hand,
`CUBELAB_TEST_DATA=<dir> pytest python/tests` with that directory holding 2x2 (both metrics),
corners, ud-f4 and the three two-phase tables.
"""

import os
import pathlib

import pytest

import cubelab

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def data_dir():
    path = os.environ.get("CUBELAB_TEST_DATA")
    if not path:
        pytest.fail("set CUBELAB_TEST_DATA to the tables' directory (see scripts/test-python.sh)")
    return pathlib.Path(path)


@pytest.fixture(scope="session")
def solver(data_dir):
    return cubelab.Solver(data_dir)


def published(name):
    """A published distance distribution from tests/data, as a list of counts by depth."""
    counts = []
    for line in (REPOSITORY / "tests" / "data" / name).read_text().splitlines():
        if line.startswith("#") or line.startswith("depth"):
            continue
        depth, count = line.split(",")
        assert int(depth) == len(counts)
        counts.append(int(count))
    return counts
