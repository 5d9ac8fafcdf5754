"""The shapes of the dicts cubelab returns, for type checkers: `solve` returns an Answer,
`coset` a CosetResult. At run time they are plain dicts (TypedDict); every key but the first
few is present only where the method or outcome gives it (see `help(cubelab.Solver.solve)`)."""

from pathlib import Path
from typing import List, Literal, Optional, TypedDict

Status = Literal["optimal", "found", "solved", "timeout", "max-length", "invalid"]


class Iteration(TypedDict):
    """One IDA* iteration: its bound, the nodes it generated and its time."""

    bound: int
    nodes: int
    seconds: float


class Stage(TypedDict):
    """One step of the layer method."""

    stage: str
    piece: Optional[str]
    moves: str
    length: int


class Improvement(TypedDict):
    """A shorter two-phase solution, found `seconds` into the search."""

    length: int
    phase1: int
    seconds: float


class Answer(TypedDict, total=False):
    """What `solve` returns for one position (the object `solve --json` prints)."""

    input: str
    puzzle: Optional[str]
    metric: str
    status: Status
    error: str
    solution: str
    length: int
    inverse: str
    solutions: List[str]
    inverses: List[str]
    lower_bound: int
    symmetries: int
    solutions_in_all: int
    nodes: int
    iterations: List[Iteration]
    method: str
    stages: List[Stage]
    phase1_nodes: int
    phase2_nodes: int
    improvements: List[Improvement]
    seconds: float


class CosetDepth(TypedDict):
    """One depth of a coset run."""

    depth: int
    count: int
    total: int
    exact: bool
    sequences: int
    seconds: float
    prepass_seconds: float


# `class` is a keyword: the functional form.
CosetResult = TypedDict(
    "CosetResult",
    {
        "coset": str,
        "metric": Literal["htm", "qtm"],
        "class": int,
        "class_cosets": int,
        "counts": List[int],
        "reached": List[int],
        "depths": List[CosetDepth],
        "bound": Optional[int],
        "unsolved": int,
        "finished": int,
        "unsolved_positions": List[str],
        "seconds": float,
    },
)
CosetResult.__doc__ = "What `coset` returns (the object `cubelab coset --json` prints)."


class GoalAnswer(TypedDict, total=False):
    """What `solve_goal` returns for one position (the object `solve --goal --json` prints):
    `error` alone, beside `position`, for a position that does not parse."""

    position: str
    goal: str
    mask: str
    metric: str
    orientations: str
    length: int
    orientation: str
    bottom: str
    solutions: List[str]
    on: List[str]
    error: str


class PuzzleGods(TypedDict):
    """What `puzzle_gods` returns (the object `cubelab puzzle gods --json` prints)."""

    puzzle: str
    generators: List[str]
    moves: List[str]
    metric: Literal["htm", "qtm"]
    counts: List[int]
    total: int
    diameter: int
    antipodes: List[str]
    antipodes_sampled: bool
    ranks: int
    exact_ranking: Optional[bool]
    ranking: str
    encoding: str
    table_bytes: int
    move_table_bytes: int
    seconds: float
    resumed: bool
    passes: List[float]


class PuzzleSolution(TypedDict, total=False):
    """What `PuzzleSolver.solve` returns (the object `cubelab puzzle solve --json` prints):
    `solutions` only where every optimal solution was asked for."""

    scramble: str
    solution: Optional[str]
    solutions: List[str]
    count: int
    length: Optional[int]
    optimal: bool
    status: str
    nodes: int
    seconds: float


class PuzzleTable(TypedDict):
    """One pattern database of a `PuzzleSolver` (its `tables`)."""

    name: str
    states: int
    deepest: int
    source: Literal["built", "written", "read"]
    path: Optional[Path]
