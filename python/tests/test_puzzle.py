"""Any puzzle from its KPuzzle definition: puzzle_gods and PuzzleSolver over a hand-written
2x2x2 definition (its corners alone), whose distributions are published (tests/data), and whose
solutions are checked here by applying them with the definition's own permutations."""

import json

import pytest

import cubelab

from conftest import published

# The 2x2x2 as eight corners: each move a permutation (new position i holds the piece that was
# at permutation[i]) and a twist added to each position's piece.
HAND_2X2 = {
    "name": "hand 2x2x2",
    "orbits": [{"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3}],
    "defaultPattern": {
        "CORNERS": {"pieces": [0, 1, 2, 3, 4, 5, 6, 7], "orientation": [0] * 8}
    },
    "moves": {
        "U": {"CORNERS": {"permutation": [3, 0, 1, 2, 4, 5, 6, 7], "orientationDelta": [0] * 8}},
        "R": {
            "CORNERS": {
                "permutation": [4, 1, 2, 0, 7, 5, 6, 3],
                "orientationDelta": [2, 0, 0, 1, 1, 0, 0, 2],
            }
        },
        "F": {
            "CORNERS": {
                "permutation": [1, 5, 2, 3, 0, 4, 6, 7],
                "orientationDelta": [1, 2, 0, 0, 2, 1, 0, 0],
            }
        },
    },
}


@pytest.fixture()
def definition(tmp_path):
    path = tmp_path / "hand.kpuzzle.json"
    path.write_text(json.dumps(HAND_2X2))
    return path


def apply(pattern, move):
    """The pattern after one move, by the definition's arrays alone (KPuzzle's rule)."""
    spec = HAND_2X2["moves"][move]["CORNERS"]
    pieces, twists = pattern
    return (
        [pieces[p] for p in spec["permutation"]],
        [(twists[p] + d) % 3 for p, d in zip(spec["permutation"], spec["orientationDelta"])],
    )


def run(algorithm):
    """The pattern `algorithm` (moves with ' and 2) makes from solved."""
    pattern = (list(range(8)), [0] * 8)
    for word in algorithm.split():
        times = {"": 1, "2": 2, "'": 3}[word[1:]]
        for _ in range(times):
            pattern = apply(pattern, word[0])
    return pattern


@pytest.mark.parametrize("metric, file", [("htm", "pocket_htm.csv"), ("qtm", "pocket_qtm.csv")])
def test_gods_algorithm_gives_the_published_distribution(definition, tmp_path, metric, file):
    answer = cubelab.puzzle_gods(
        str(definition), "U,R,F", metric=metric, antipodes=5, data_dir=tmp_path
    )
    assert answer["counts"] == published(file)
    assert answer["total"] == 3674160
    assert answer["diameter"] == len(answer["counts"]) - 1
    assert answer["metric"] == metric
    assert 0 < len(answer["antipodes"]) <= 5
    # Each listed antipode is a position at the greatest distance: an optimal solver agrees.
    solver = cubelab.PuzzleSolver(
        str(definition), "U,R,F", metric=metric, keep_tables=False, data_dir=tmp_path
    )
    found = solver.solve(answer["antipodes"][0])
    assert found["length"] == answer["diameter"]


def test_solutions_are_optimal_and_solve(definition, tmp_path):
    solver = cubelab.PuzzleSolver(str(definition), "U,R,F", data_dir=tmp_path)
    assert solver.name == "hand 2x2x2"
    # Kept as files in the data directory, read by the next solver of the same question.
    assert [t["source"] for t in solver.tables] == ["written"]
    again = cubelab.PuzzleSolver(str(definition), "U,R,F", data_dir=tmp_path)
    assert [t["source"] for t in again.tables] == ["read"]
    assert again.tables[0]["states"] == 3674160
    for scramble in solver.random_scrambles(5, seed=3):
        found = solver.solve(scramble)
        assert found["optimal"] is True
        # The solution undoes the scramble: applied after it, it gives solved.
        pattern = run(scramble + " " + found["solution"])
        assert pattern == (list(range(8)), [0] * 8), (scramble, found)
        assert len(found["solution"].split()) == found["length"] <= 11
    every = solver.solve("R U R' U'", all=True)
    assert every["length"] == 4 and every["count"] == len(every["solutions"]) >= 1
    assert "R U R' U'" not in every["solutions"]
    for solution in every["solutions"]:
        assert run("R U R' U' " + solution) == (list(range(8)), [0] * 8)


def test_bad_requests_raise_clear_errors(definition, tmp_path):
    with pytest.raises(FileNotFoundError, match="no puzzle definition 'nothing'"):
        cubelab.puzzle_gods("nothing", "U", data_dir=tmp_path)
    with pytest.raises(ValueError, match="Q"):
        cubelab.puzzle_gods(str(definition), "U,Q", data_dir=tmp_path)
    with pytest.raises(ValueError, match="metric 'stm'"):
        cubelab.PuzzleSolver(str(definition), "U,R", metric="stm", data_dir=tmp_path)
    with pytest.raises(ValueError, match="EDGES"):
        cubelab.puzzle_gods(str(definition), "U,R", ignore_orientation=["EDGES"], data_dir=tmp_path)
    solver = cubelab.PuzzleSolver(str(definition), "U,R", keep_tables=False, data_dir=tmp_path)
    with pytest.raises(cubelab.PositionError, match="F"):
        # F is in the definition, but not among the generators: its position cannot be solved
        # by U and R (or, where it can, the scramble is refused for naming it).
        solver.solve("F")
    with pytest.raises(ValueError, match="timeout"):
        solver.solve("U", timeout=-1)
    bad = tmp_path / "bad.kpuzzle.json"
    bad.write_text("{ not json")
    with pytest.raises(ValueError, match="bad.kpuzzle.json"):
        cubelab.puzzle_gods(str(bad), "U", data_dir=tmp_path)
