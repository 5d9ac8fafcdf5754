"""Rubik's-cube positions, optimal solvers and pattern-database tables, from the cubelab Rust
library: Position (parse, print, apply moves), validate, Solver, solve and solve_many (2x2 and
3x3: optimal, two-phase, layers; timeouts; the GIL released while searching), solve_goal and
goal_distribution (partial goals: cross, xcross, EOLine, blocks, any piece mask), coset, Table (a
table file mapped into memory: distance by index, histogram, its bytes as a buffer without a
copy; Table.build for the small ones) and read_experiment (an experiment file as a pandas
DataFrame); and any twisty puzzle from its KPuzzle definition (cubing.js's JSON): puzzle_gods
(God's algorithm over its whole space) and PuzzleSolver (optimal solutions over pattern
databases). Tables are built by the `gen-tables` program of the same repository. Answer and
CosetResult name the shapes of the dicts `solve` and `coset` return, for type checkers.

numpy and pandas are optional (`pip install 'cubelab[frames]'`): without them everything works
but the functions that return arrays or frames, which raise ImportError saying so.
"""

from ._cubelab import (
    CubelabError,
    Position,
    PositionError,
    PuzzleSolver,
    Solver,
    Table,
    TableError,
    __version__,
    coset,
    goal_distribution,
    parse,
    puzzle_gods,
    solve,
    solve_goal,
    solve_many,
    validate,
)
from ._frames import read_experiment
from ._types import (
    Answer,
    CosetDepth,
    CosetResult,
    GoalAnswer,
    Improvement,
    Iteration,
    PuzzleGods,
    PuzzleSolution,
    PuzzleTable,
    Stage,
    Status,
)

__all__ = [
    "Answer",
    "GoalAnswer",
    "CosetDepth",
    "CosetResult",
    "Improvement",
    "Iteration",
    "Stage",
    "Status",
    "CubelabError",
    "Position",
    "PositionError",
    "PuzzleGods",
    "PuzzleSolution",
    "PuzzleSolver",
    "PuzzleTable",
    "Solver",
    "Table",
    "TableError",
    "__version__",
    "coset",
    "goal_distribution",
    "parse",
    "puzzle_gods",
    "read_experiment",
    "solve",
    "solve_goal",
    "solve_many",
    "validate",
]
