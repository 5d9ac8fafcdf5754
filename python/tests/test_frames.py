"""numpy and pandas: histograms as arrays, a table's mapped bytes without a copy, experiment
files and solve_many as DataFrames, tables built from Python, and the package without them."""

import gc
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import cubelab
from conftest import REPOSITORY, published

EXPERIMENT = REPOSITORY / "reports" / "experiments" / "random-htm-10-seed1.csv"


@pytest.fixture(scope="module")
def pocket(data_dir):
    return cubelab.Table.open("2x2", data_dir=data_dir)


# numpy


def test_histogram_as_array_equals_the_published_counts(pocket):
    counts = pocket.histogram(as_array=True)
    assert isinstance(counts, np.ndarray) and counts.dtype == np.int64
    assert counts.tolist() == published("pocket_htm.csv") == pocket.histogram()
    assert counts.sum() == len(pocket)


def test_the_buffer_is_the_mapping_itself(pocket):
    view = pocket.buffer()
    assert isinstance(view, memoryview)
    assert view.readonly and view.format == "B" and view.ndim == 1
    # Two entries a byte (nibble encoding); the rest of the file is its header.
    assert view.nbytes == (len(pocket) + 1) // 2
    first, second = pocket.packed(), pocket.packed()
    assert first.dtype == np.uint8 and len(first) == view.nbytes
    # The same memory each time: the mapping, not a copy of it.
    assert np.shares_memory(first, second)
    address = first.__array_interface__["data"][0]
    assert second.__array_interface__["data"][0] == address
    assert np.frombuffer(view, np.uint8).__array_interface__["data"][0] == address
    assert not first.flags.writeable and not first.flags.owndata
    with pytest.raises(ValueError):
        first[0] = 1
    with pytest.raises(TypeError):
        view[0] = 1


def test_the_packed_bytes_decode_to_the_entries(pocket):
    packed = pocket.packed()[:500]
    decoded = np.empty(1000, np.uint8)
    decoded[0::2], decoded[1::2] = packed & 0xF, packed >> 4
    assert decoded.tolist() == list(pocket.read(0, 1000)) == pocket.array(0, 1000).tolist()


def test_a_view_keeps_its_table_mapped(data_dir):
    table = cubelab.Table.open("2x2", data_dir=data_dir)
    expected = bytes(table.buffer()[10:])
    view = table.packed()[10:]
    del table
    gc.collect()
    # The table object is gone; its mapping is not, while the view (through its base) holds it.
    assert view.tobytes() == expected


def test_the_exporter_gives_no_writable_or_empty_buffer(pocket):
    import ctypes

    exporter = pocket.buffer().obj
    assert type(exporter).__name__ == "TableBytes"
    with pytest.raises((BufferError, TypeError)):
        ctypes.c_char.from_buffer(exporter)  # asks for a writable buffer
    try:
        empty = type(exporter)()
    except TypeError:
        return
    with pytest.raises(BufferError, match="Table.buffer"):
        memoryview(empty)


def test_every_encoding_exports_its_payload(data_dir, pocket):
    coset = cubelab.Table.open("ud-f4", data_dir=data_dir)
    assert coset.encoding == "based"
    header = os.path.getsize(pocket.path) - pocket.buffer().nbytes
    assert os.path.getsize(coset.path) - coset.buffer().nbytes == header
    assert coset.array(0, 16).tolist() == list(coset.read(0, 16))


def test_decoded_arrays_count_as_the_histogram(pocket):
    entries = pocket.array()
    assert len(entries) == len(pocket) and entries.dtype == np.uint8
    assert entries.flags.writeable
    assert np.bincount(entries).tolist() == pocket.histogram()
    assert pocket.array(5, 5).size == 0
    with pytest.raises(IndexError):
        pocket.array(0, len(pocket) + 1)
    with pytest.raises(IndexError):
        pocket.array(7, 3)


# pandas


def test_an_experiment_file_reads_as_a_typed_frame():
    frame = cubelab.read_experiment(EXPERIMENT)
    assert len(frame) == 10
    assert list(frame.columns) == [
        "input", "puzzle", "metric", "status", "length", "lower_bound", "nodes", "seconds",
        "solution", "iterations", "index", "total", "source", "method",
    ]  # fmt: skip
    assert str(frame["length"].dtype) == "Int64" and str(frame["nodes"].dtype) == "UInt64"
    assert frame["seconds"].dtype == np.float64
    assert isinstance(frame["status"].dtype, pd.StringDtype)
    assert (frame["status"] == "optimal").all() and frame["length"].between(15, 20).all()
    # Empty cells are missing values: no lower bound where a solution was found, and this
    # file predates the last four columns.
    assert frame["lower_bound"].isna().all() and frame["method"].isna().all()
    assert frame["length"].sum() == sum(len(s.split()) for s in frame["solution"])


def test_solve_csv_and_solve_many_give_the_same_frame(tmp_path, data_dir, solver):
    solve = REPOSITORY / "target" / "release" / "solve"
    moves = ["R U F", "R2 U' F R", "U R2 F' R U2", "F R U' R' F2 U"]
    (tmp_path / "positions.txt").write_text("\n".join(moves) + "\n")
    csv = tmp_path / "experiment.csv"
    subprocess.run(
        [solve, "--puzzle", "2x2", "--data-dir", data_dir, "--csv", csv, "--file",
         tmp_path / "positions.txt"],
        check=True, capture_output=True,
    )  # fmt: skip
    written = cubelab.read_experiment(csv)
    frame = solver.solve_many(moves, puzzle="2x2", as_frame=True)
    assert isinstance(frame, pd.DataFrame) and len(frame) == len(moves)
    shared = [c for c in frame.columns if c in written.columns and c != "seconds"]
    assert shared == [
        "input", "puzzle", "metric", "status", "length", "lower_bound", "nodes", "solution",
        "iterations", "method",
    ]  # fmt: skip
    for column in shared:
        assert frame[column].dtype == written[column].dtype, column
    pd.testing.assert_frame_equal(frame[["input", "length", "status", "method"]],
                                  written[["input", "length", "status", "method"]])  # fmt: skip
    assert written["index"].tolist() == [0, 1, 2, 3]


def test_solve_many_frames_keep_bad_positions_and_extra_keys(data_dir):
    frame = cubelab.solve_many(["R U", "R X"], puzzle="2x2", data_dir=data_dir, as_frame=True)
    assert frame["status"].tolist() == ["optimal", "invalid"]
    assert pd.isna(frame.loc[1, "length"]) and "unknown move" in frame.loc[1, "error"]
    assert frame["method"].tolist() == ["optimal", "optimal"]
    layers = cubelab.solve_many(
        [cubelab.Position.random(seed=1)], method="layers", tables="ud-f4", data_dir=data_dir,
        as_frame=True,
    )  # fmt: skip
    assert layers.loc[0, "method"] == "layers" and layers.loc[0, "stages"][0]["stage"] == "cross"
    assert cubelab.solve_many(["R"], puzzle="2x2", data_dir=data_dir)[0]["length"] == 1


def test_malformed_or_missing_experiment_files_are_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing.csv"):
        cubelab.read_experiment(tmp_path / "nothing.csv")
    bad = tmp_path / "bad.csv"
    lines = EXPERIMENT.read_text().splitlines()
    bad.write_text("\n".join([lines[0], lines[1], lines[2].replace(",optimal,", ",unheard,")]))
    with pytest.raises(ValueError, match="line 3"):
        cubelab.read_experiment(str(bad))


# Building


def test_tables_build_from_python(tmp_path):
    built = cubelab.Table.build("2x2", data_dir=tmp_path)
    assert built.histogram() == published("pocket_htm.csv")
    again = cubelab.Table.build("2x2", data_dir=tmp_path)
    assert again.path == built.path and again.build_histogram == built.build_histogram
    qtm = cubelab.Table.build("2x2", metric="qtm", data_dir=tmp_path)
    assert qtm.histogram() == published("pocket_qtm.csv")
    assert cubelab.solve("R U F", puzzle="2x2", data_dir=tmp_path)["length"] == 3
    with pytest.raises(ValueError, match="table"):
        cubelab.Table.build("no-such-table", data_dir=tmp_path)


# Without numpy and pandas


def test_the_package_works_without_numpy_and_pandas(data_dir):
    script = f"""
import sys
sys.modules["numpy"] = None  # what a missing package looks like to import
sys.modules["pandas"] = None
import cubelab
table = cubelab.Table.open("2x2", data_dir={str(data_dir)!r})
assert table.histogram()[0] == 1 and len(table.buffer()) > 0
calls = [
    lambda: table.histogram(as_array=True),
    lambda: table.packed(),
    lambda: table.array(0, 10),
    lambda: cubelab.read_experiment({str(EXPERIMENT)!r}),
    lambda: cubelab.solve_many(["R"], puzzle="2x2", data_dir={str(data_dir)!r}, as_frame=True),
]
for call in calls:
    try:
        call()
    except ImportError as e:
        assert "pip install 'cubelab[frames]'" in str(e), e
    else:
        raise AssertionError("no ImportError")
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout == "ok\n", out.stderr


# partial goals


def test_solve_goal_answers_and_frames_the_cross(tmp_path):
    answers = cubelab.solve_goal(
        ["R U F D2 L B'", "D", "R Q"], "cross", orientations="6", data_dir=tmp_path
    )
    assert answers[0]["length"] == 3 and answers[0]["solutions"] == ["L' D2 F'"]
    assert answers[1]["length"] == 0 and answers[1]["bottom"] == "U"
    assert "'Q'" in answers[2]["error"]
    frame = cubelab.solve_goal(
        ["R U F D2 L B'", "R Q"], "cross", data_dir=tmp_path, as_frame=True
    )
    assert list(frame["length"].astype("object")) == [3, pd.NA]
    assert frame["solution"][0] == "L' D2 F'"
    assert str(frame["length"].dtype) == "Int64"


def test_goal_distribution_is_the_published_cross_and_bad_goals_raise(tmp_path):
    assert cubelab.goal_distribution("DF DB DL DR", data_dir=tmp_path) == [
        1, 15, 158, 1394, 9809, 46381, 97254, 34966, 102,
    ]
    with pytest.raises(ValueError, match="is not a goal"):
        cubelab.goal_distribution("xcros", data_dir=tmp_path)
    with pytest.raises(ValueError, match="orientations"):
        cubelab.solve_goal(["R"], "cross", orientations="5", data_dir=tmp_path)  # type: ignore[arg-type]


def test_the_last_layer_needs_the_optimal_solvers_table_and_says_which(tmp_path):
    # ll is answered by the optimal solver: without its table, the error names the command.
    with pytest.raises(cubelab.TableError, match="gen-tables"):
        cubelab.solve_goal(["R U R' U R U2 R'"], "ll", data_dir=tmp_path)
    with pytest.raises(cubelab.TableError, match="gen-tables"):
        cubelab.goal_distribution("ll", data_dir=tmp_path)
