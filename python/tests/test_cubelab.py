"""The cubelab Python module as a notebook uses it: positions, solving, tables and errors."""

import random
import subprocess
import sys
import threading
import time

import pytest

import cubelab
from conftest import REPOSITORY, published

SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"


def scramble(rng, length):
    faces = "URFDLB"
    moves, last = [], None
    for _ in range(length):
        face = rng.choice([f for f in faces if f != last])
        moves.append(face + rng.choice(["", "2", "'"]))
        last = face
    return " ".join(moves)


def check_solves(position, answer):
    """The answer's solution, applied to the position, solves it."""
    assert position.apply(answer["solution"]).is_solved(), answer


# Positions


def test_positions_read_and_print_every_form():
    p = cubelab.Position("R U R' U'")
    assert p.puzzle == "3x3" and not p.is_solved()
    assert cubelab.Position(p.stickers) == p
    assert cubelab.Position(p.reid) == p
    assert p.apply("U R U' R'").is_solved()
    assert hash(cubelab.parse(p.stickers)) == hash(p)
    assert len({p, cubelab.Position(p.stickers)}) == 1
    assert repr(p) == f"Position('{p.stickers}')"
    assert "U" in p.net()
    pocket = cubelab.Position("R U F", puzzle="2x2")
    assert pocket.puzzle == "2x2" and len(pocket.stickers) == 24 and pocket.reid is None
    # A 2x2 has no inner layer, whether the moves come with the position or after it.
    with pytest.raises(cubelab.PositionError, match="inner layer"):
        pocket.apply("M")


def test_random_positions_follow_their_seed():
    assert cubelab.Position.random(seed=3) == cubelab.Position.random(seed=3)
    assert cubelab.Position.random(seed=3) != cubelab.Position.random(seed=4)
    assert cubelab.Position.random("2x2", seed=1).puzzle == "2x2"


def test_validate_names_what_is_wrong():
    solved = "U" * 9 + "R" * 9 + "F" * 9 + "D" * 9 + "L" * 9 + "B" * 9
    assert cubelab.validate(solved) is None
    assert cubelab.validate("R U F2") is None
    assert "colours" in cubelab.validate(solved[:-1] + "X")
    # The URF corner twisted in place (its U, R and F stickers are 8, 9 and 20): every
    # sticker is there, the position is not.
    twisted = list(solved)
    twisted[8], twisted[9], twisted[20] = solved[20], solved[8], solved[9]
    message = cubelab.validate("".join(twisted))
    assert message is not None and "twist" in message, message
    with pytest.raises(cubelab.PositionError, match="unknown move"):
        cubelab.Position("R U X")
    with pytest.raises(cubelab.PositionError):
        cubelab.parse(solved[:-1] + "X")
    with pytest.raises(ValueError, match="2x2, 3x3"):
        cubelab.Position("R", puzzle="4x4")
    assert issubclass(cubelab.PositionError, cubelab.CubelabError)
    assert issubclass(cubelab.TableError, cubelab.CubelabError)


# Solving


def test_2x2_positions_are_solved_optimally_and_checked(solver):
    positions = [cubelab.Position.random("2x2", seed=s) for s in range(200)]
    answers = solver.solve_many(positions)
    lengths = []
    for position, answer in zip(positions, answers):
        assert answer["status"] == "optimal" and answer["puzzle"] == "2x2"
        check_solves(position, answer)
        lengths.append(answer["length"])
    assert max(lengths) <= 11
    one = solver.solve("R U F", puzzle="2x2", all=True)
    assert one["solutions"] == ["F' U' R'"]
    assert solver.solve("R U F", puzzle="2x2", metric="qtm")["length"] == 3
    assert cubelab.solve("R2 U2", puzzle="2x2", data_dir=solver.data_dir)["length"] == 2


def test_3x3_optimal_solutions_are_no_longer_than_the_scramble(solver):
    rng = random.Random(5)
    for length in range(1, 9):
        text = scramble(rng, length)
        answer = solver.solve(text, tables="ud-f4", timeout=60)
        assert answer["status"] == "optimal", answer
        assert answer["length"] <= length and answer["input"] == text
        check_solves(cubelab.Position(text), answer)
    assert solver.solve("R U R' U'", tables="ud-f4")["length"] == 4


def test_a_timeout_reports_the_proven_lower_bound(solver):
    answer = solver.solve(SUPERFLIP, tables="ud-f4", timeout=0.3)
    assert answer["status"] == "timeout"
    assert "solution" not in answer and 9 <= answer["lower_bound"] <= 20


def test_two_phase_and_layers_solve_random_states(solver):
    positions = [cubelab.Position.random(seed=s) for s in range(20)]
    for position, answer in zip(positions, solver.solve_many(positions, method="two-phase")):
        assert answer["status"] in ("found", "optimal") and answer["length"] <= 20
        check_solves(position, answer)
    short = solver.solve(positions[0], method="two-phase", max_length=22)
    assert short["length"] <= 22 and short["method"] == "two-phase"
    layers = solver.solve(positions[1], method="layers", tables="ud-f4")
    assert layers["status"] == "solved"
    assert [s["stage"] for s in layers["stages"]][0] == "cross"
    # The whole solution merges turns of one face that meet at a stage's boundary.
    assert sum(s["length"] for s in layers["stages"]) >= layers["length"]
    check_solves(positions[1], layers)


def test_solve_many_reports_bad_positions_in_place(solver):
    answers = solver.solve_many(["R U", "R X", "F2"], puzzle="2x2")
    assert [a["status"] for a in answers] == ["optimal", "invalid", "optimal"]
    assert "unknown move" in answers[1]["error"]


def test_bad_arguments_are_python_errors(solver):
    with pytest.raises(ValueError, match="htm, qtm"):
        solver.solve("R", metric="stm")
    with pytest.raises(ValueError, match="two-phase"):
        solver.solve("R", method="fast")
    with pytest.raises(ValueError, match="seconds"):
        solver.solve("R", timeout=-1)
    with pytest.raises(ValueError, match="optimal"):
        solver.solve("R", method="two-phase", metric="qtm")
    with pytest.raises(ValueError):
        solver.solve(42)


def test_missing_tables_say_how_to_build_them(tmp_path):
    empty = cubelab.Solver(tmp_path)
    with pytest.raises(cubelab.TableError, match="gen-tables"):
        empty.solve("R U", puzzle="2x2")
    with pytest.raises(cubelab.TableError, match="gen-tables"):
        cubelab.Table.open("corners", data_dir=tmp_path)


def test_searches_release_the_gil(solver):
    """A Python thread runs while a search does: the search holds no lock Python needs."""
    ticks = 0
    done = threading.Event()

    def search():
        solver.solve(SUPERFLIP, tables="ud-f4", timeout=1.0)
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    start = time.monotonic()
    while not done.is_set() and time.monotonic() - start < 30:
        ticks += 1
    thread.join()
    # A search holding the GIL would leave this loop a few switch intervals (5 ms each) of
    # its second, tens of thousands of ticks; free, it ticks millions of times.
    assert ticks > 200_000, ticks


# Tables


def test_tables_are_mapped_and_read_by_index(data_dir):
    table = cubelab.Table.open("2x2", data_dir=data_dir)
    assert (table.kind, table.metric, table.encoding) == ("2x2", "htm", "nibble")
    assert len(table) == table.entries == 3_674_160
    assert table.distance(0) == 0
    values = table.distances(list(range(1000)))
    assert values == [table.distance(i) for i in range(1000)]
    assert all(v is not None and 0 <= v <= 11 for v in values)
    assert list(table.read(0, 1000)) == values
    with pytest.raises(IndexError):
        table.distance(3_674_160)
    with pytest.raises(IndexError):
        table.read(10, 5)
    reopened = cubelab.Table.open_path(table.path)
    assert reopened.build_histogram == table.build_histogram


def test_a_table_rewritten_or_cut_under_its_reader_raises(data_dir, tmp_path):
    # A copy of the HTM table, opened, then overwritten in place with the QTM table's bytes (as
    # `cp` onto it or `dd conv=notrunc` would): its entries are another table's now.
    import shutil

    path = tmp_path / "2x2-htm.tbl"
    shutil.copyfile(data_dir / "2x2-htm.tbl", path)
    table = cubelab.Table.open_path(path)
    assert table.distance(0) == 0
    other = (data_dir / "2x2-qtm.tbl").read_bytes()
    time.sleep(0.02)
    with open(path, "r+b") as f:
        f.write(other)
    for read in (lambda: table.distance(1), lambda: table.distances([1, 2]), lambda: table.read(0, 10)):
        with pytest.raises(cubelab.TableError, match="changed"):
            read()
    # Cut short under a reader: an error, not SIGBUS killing the interpreter.
    shutil.copyfile(data_dir / "2x2-htm.tbl", path)
    table = cubelab.Table.open_path(path)
    with open(path, "r+b") as f:
        f.truncate(8192)
    with pytest.raises(cubelab.TableError, match="changed"):
        table.distance(3_000_000)


def test_a_read_too_large_for_memory_raises_memory_error(data_dir):
    # Run where the address space is capped just above what the interpreter holds, so that the
    # read cannot be allocated: it must raise, not abort the interpreter.
    script = f"""
import resource, cubelab
table = cubelab.Table.open("ud-f4", data_dir={str(data_dir)!r})
with open("/proc/self/statm") as f:
    pages = int(f.read().split()[0])
held = pages * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (held + (32 << 20), resource.RLIM_INFINITY))
try:
    table.read(0, table.entries)
except MemoryError as e:
    print("MemoryError", e)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "MemoryError" in out.stdout and "smaller ranges" in out.stdout


def test_histograms_equal_the_published_counts(data_dir):
    assert cubelab.Table.open("2x2", data_dir=data_dir).histogram() == published("pocket_htm.csv")
    qtm = cubelab.Table.open("2x2", metric="qtm", data_dir=data_dir)
    assert qtm.histogram() == published("pocket_qtm.csv")
    corners = cubelab.Table.open("corners", data_dir=data_dir)
    assert corners.histogram() == published("corners_htm.csv")


def test_coset_tables_hold_no_exact_distances(data_dir):
    coset = cubelab.Table.open("ud-f4", data_dir=data_dir)
    with pytest.raises(cubelab.TableError, match="read"):
        coset.distance(0)
    assert len(coset.read(0, 16)) == 16


def test_the_guides_example_runs(data_dir, monkeypatch, capsys):
    """docs/guide.md's Python examples, run as written over the test tables."""
    guide = (REPOSITORY / "docs" / "guide.md").read_text()
    blocks = guide.split("```python\n")[1:]
    assert blocks, "docs/guide.md has a Python example"
    monkeypatch.setenv("CUBELAB_DATA", str(data_dir))
    for block in blocks:
        exec(compile(block.split("```")[0], "docs/guide.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "colour 'U' appears 10 times" in printed, printed
    assert "timeout" in printed, printed


# Cosets


def identity_coset():
    """H's published distances (all moves), from tests/data."""
    lines = (REPOSITORY / "tests" / "data" / "coset_identity_htm.csv").read_text().splitlines()
    rows = [line.split(",") for line in lines if not line.startswith(("#", "depth"))]
    return [int(row[1]) for row in rows]


def test_a_coset_counts_h_as_published(data_dir):
    result = cubelab.coset("U", exact=True, max_depth=6, data_dir=data_dir)
    assert result["counts"] == identity_coset()[:7]
    assert result["bound"] is None
    assert result["unsolved"] == 19_508_428_800 - sum(result["counts"])
    assert [d["exact"] for d in result["depths"]] == [True] * 7
    # H is a symmetry class of its own.
    assert result["class_cosets"] == 1 and 0 <= result["class"] < 138_639_780


def test_a_quarter_turn_coset_counts_h(data_dir):
    # H's elements within three quarter turns: U, U', D, D'; then U2, D2, R2, L2, F2, B2 and
    # U D, U D', U' D, U' D'; the 36 at three are checked against a breadth-first search by
    # the Rust suite (tests/suite/coset.rs).
    result = cubelab.coset("U", exact=True, max_depth=3, metric="qtm", data_dir=data_dir)
    assert result["counts"][:3] == [1, 4, 10]
    assert result["metric"] == "qtm"
    assert sum(result["counts"]) + result["unsolved"] == 19_508_428_800
    with pytest.raises(ValueError, match="metric"):
        cubelab.coset("U", exact=True, max_depth=3, metric="stm", data_dir=data_dir)


def test_coset_arguments_are_checked(data_dir):
    with pytest.raises(ValueError, match="max_depth"):
        cubelab.coset("U", exact=True, data_dir=data_dir)
    with pytest.raises(ValueError, match="not both"):
        cubelab.coset("U", bound=20, exact=True, max_depth=3, data_dir=data_dir)
    with pytest.raises(ValueError, match="up to 30"):
        cubelab.coset("U", bound=31, data_dir=data_dir)
    with pytest.raises(cubelab.PositionError):
        cubelab.coset("R Q", data_dir=data_dir)
    with pytest.raises(cubelab.CubelabError, match="below the coset's distance into H"):
        cubelab.coset("R", exact=True, max_depth=0, data_dir=data_dir)


def test_a_coset_without_its_table_says_how_to_build_it(tmp_path):
    with pytest.raises(cubelab.TableError, match="gen-tables"):
        cubelab.coset("U", data_dir=tmp_path)
