"""Type-checked, not run: `mypy --strict` on this file against the package's stubs (see
scripts/test-python.sh) proves that each call below has the precise type it says, and that the
wrong calls at the end are errors."""

from pathlib import Path
from typing import List, Optional

import numpy as np
import numpy.typing as npt
import pandas as pd
from typing_extensions import assert_type

import cubelab


def positions() -> None:
    cube = cubelab.Position("R U R' U'")
    assert_type(cube, cubelab.Position)
    assert_type(cubelab.Position.random("2x2", seed=1), cubelab.Position)
    assert_type(cube.apply("U R U' R'").is_solved(), bool)
    assert_type(cube.stickers, str)
    assert_type(cube.reid, Optional[str])
    assert_type(cube.net(), str)
    assert_type(cubelab.parse("R U"), cubelab.Position)
    assert_type(cubelab.validate("R U"), Optional[str])
    assert_type(cubelab.__version__, str)


def solving(data: Path) -> None:
    solver = cubelab.Solver(data)
    answer = solver.solve("R U F", puzzle="2x2", metric="qtm", all=True)
    assert_type(answer, cubelab.Answer)
    assert_type(answer["length"], int)
    assert_type(answer["status"], cubelab.Status)
    assert_type(answer["iterations"][0]["nodes"], int)
    answers = solver.solve_many([cube for cube in [cubelab.Position("R")]], method="two-phase")
    assert_type(answers, List[cubelab.Answer])
    frame = solver.solve_many(["R U"], puzzle="2x2", as_frame=True)
    assert_type(frame, pd.DataFrame)
    assert_type(cubelab.solve_many(["R"], data_dir=data, as_frame=True), pd.DataFrame)
    assert_type(cubelab.solve("R", data_dir=str(data), timeout=1.5), cubelab.Answer)
    goals = cubelab.solve_goal(["R U F"], "cross", orientations="6", data_dir=data)
    assert_type(goals, List[cubelab.GoalAnswer])
    assert_type(cubelab.solve_goal(["R"], "eoline", data_dir=data, as_frame=True), pd.DataFrame)
    assert_type(cubelab.goal_distribution("cross", data_dir=data), List[int])
    result = cubelab.coset("U", exact=True, max_depth=6, data_dir=data)
    assert_type(result["counts"], List[int])
    assert_type(result["bound"], Optional[int])


def tables(data: Path) -> None:
    table = cubelab.Table.open("2x2", data_dir=data)
    assert_type(cubelab.Table.build("2x2", metric="qtm", data_dir=data), cubelab.Table)
    assert_type(table.histogram(), List[int])
    assert_type(table.histogram(as_array=True), npt.NDArray[np.int64])
    assert_type(table.distance(0), Optional[int])
    assert_type(table.distances([0, 1]), List[Optional[int]])
    assert_type(table.read(0, 10), bytes)
    assert_type(table.buffer(), memoryview)
    assert_type(table.packed(), npt.NDArray[np.uint8])
    assert_type(table.array(0, 10), npt.NDArray[np.uint8])
    assert_type(len(table), int)
    assert_type(table.path, Path)
    assert_type(cubelab.read_experiment(data / "experiment.csv"), pd.DataFrame)
    gods = cubelab.puzzle_gods("pyraminx", "r,l,b,u", data_dir=data)
    assert_type(gods["counts"], List[int])
    puzzle = cubelab.PuzzleSolver("pyraminx", "r,l,b,u", table_states=10**6, data_dir=data)
    found = puzzle.solve("r u", max_length=11)
    assert_type(found["length"], Optional[int])
    assert_type(puzzle.tables[0]["path"], Optional[Path])
    assert_type(puzzle.random_scrambles(3), List[str])


def wrong(data: Path) -> None:
    cubelab.solve("R", metric="stm")  # type: ignore[arg-type]
    cubelab.Table.open("2x2").histogram(True)  # type: ignore[call-overload]
    cubelab.Position(42)  # type: ignore[arg-type]
    cubelab.Solver(data).solve_many(["R U"], as_frame=1)  # type: ignore[call-overload]
    cubelab.Table.open("2x2").read(0)  # type: ignore[call-arg]
    cubelab.PuzzleSolver("pyraminx", "r", metric="stm")  # type: ignore[arg-type]
