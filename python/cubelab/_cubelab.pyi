"""Type stubs of cubelab's compiled part (python/src/lib.rs), re-exported by `cubelab`."""

import os
import pathlib
from typing import Any, Dict, List, Literal, Optional, Sequence, Union, final, overload

import numpy
import numpy.typing
import pandas

from ._types import Answer, CosetResult, GoalAnswer, PuzzleGods, PuzzleSolution, PuzzleTable

_Path = Union[str, "os.PathLike[str]"]
_PositionArg = Union["Position", str]
_Puzzle = Literal["2x2", "3x3"]
_Metric = Literal["htm", "qtm"]
_Method = Literal["optimal", "two-phase", "layers"]

__all__ = [
    "__version__",
    "CubelabError",
    "PositionError",
    "TableError",
    "Position",
    "Solver",
    "Table",
    "parse",
    "validate",
    "solve",
    "solve_many",
    "_experiment_columns",
    "coset",
    "solve_goal",
    "goal_distribution",
    "puzzle_gods",
    "PuzzleSolver",
]

__version__: str

class CubelabError(Exception): ...
class PositionError(CubelabError): ...
class TableError(CubelabError): ...

@final
class Position:
    def __new__(cls, text: str, puzzle: Optional[_Puzzle] = None) -> "Position": ...
    @classmethod
    def random(cls, puzzle: _Puzzle = "3x3", seed: Optional[int] = None) -> "Position": ...
    @property
    def puzzle(self) -> _Puzzle: ...
    @property
    def stickers(self) -> str: ...
    @property
    def reid(self) -> Optional[str]: ...
    def is_solved(self) -> bool: ...
    def apply(self, moves: str) -> "Position": ...
    def net(self) -> str: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def parse(text: str, puzzle: Optional[_Puzzle] = None) -> Position: ...
def validate(text: str, puzzle: Optional[_Puzzle] = None) -> Optional[str]: ...
@final
class Solver:
    def __new__(cls, data_dir: Optional[_Path] = None) -> "Solver": ...
    @property
    def data_dir(self) -> pathlib.Path: ...
    def solve(
        self,
        position: _PositionArg,
        *,
        puzzle: Optional[_Puzzle] = None,
        metric: _Metric = "htm",
        method: _Method = "optimal",
        timeout: Optional[float] = None,
        max_length: Optional[int] = None,
        budget: Optional[float] = None,
        all: bool = False,
        tables: Optional[str] = None,
    ) -> Answer: ...
    @overload
    def solve_many(
        self,
        positions: Sequence[_PositionArg],
        *,
        puzzle: Optional[_Puzzle] = None,
        metric: _Metric = "htm",
        method: _Method = "optimal",
        timeout: Optional[float] = None,
        max_length: Optional[int] = None,
        budget: Optional[float] = None,
        all: bool = False,
        tables: Optional[str] = None,
        as_frame: Literal[False] = False,
    ) -> List[Answer]: ...
    @overload
    def solve_many(
        self,
        positions: Sequence[_PositionArg],
        *,
        puzzle: Optional[_Puzzle] = None,
        metric: _Metric = "htm",
        method: _Method = "optimal",
        timeout: Optional[float] = None,
        max_length: Optional[int] = None,
        budget: Optional[float] = None,
        all: bool = False,
        tables: Optional[str] = None,
        as_frame: Literal[True],
    ) -> pandas.DataFrame: ...

def solve(
    position: _PositionArg,
    *,
    puzzle: Optional[_Puzzle] = None,
    metric: _Metric = "htm",
    method: _Method = "optimal",
    timeout: Optional[float] = None,
    max_length: Optional[int] = None,
    budget: Optional[float] = None,
    all: bool = False,
    tables: Optional[str] = None,
    data_dir: Optional[_Path] = None,
) -> Answer: ...
@overload
def solve_many(
    positions: Sequence[_PositionArg],
    *,
    puzzle: Optional[_Puzzle] = None,
    metric: _Metric = "htm",
    method: _Method = "optimal",
    timeout: Optional[float] = None,
    max_length: Optional[int] = None,
    budget: Optional[float] = None,
    all: bool = False,
    tables: Optional[str] = None,
    data_dir: Optional[_Path] = None,
    as_frame: Literal[False] = False,
) -> List[Answer]: ...
@overload
def solve_many(
    positions: Sequence[_PositionArg],
    *,
    puzzle: Optional[_Puzzle] = None,
    metric: _Metric = "htm",
    method: _Method = "optimal",
    timeout: Optional[float] = None,
    max_length: Optional[int] = None,
    budget: Optional[float] = None,
    all: bool = False,
    tables: Optional[str] = None,
    data_dir: Optional[_Path] = None,
    as_frame: Literal[True],
) -> pandas.DataFrame: ...
def coset(
    moves: str,
    *,
    bound: Optional[int] = None,
    exact: bool = False,
    max_depth: Optional[int] = None,
    search_depth: Optional[int] = None,
    metric: _Metric = "htm",
    data_dir: Optional[_Path] = None,
) -> CosetResult: ...
@overload
def solve_goal(
    positions: Sequence[str],
    goal: str,
    *,
    metric: _Metric = "htm",
    orientations: Literal["fixed", "dual", "6", "24"] = "fixed",
    all: bool = False,
    data_dir: Optional[_Path] = None,
    as_frame: Literal[False] = False,
) -> List[GoalAnswer]: ...
@overload
def solve_goal(
    positions: Sequence[str],
    goal: str,
    *,
    metric: _Metric = "htm",
    orientations: Literal["fixed", "dual", "6", "24"] = "fixed",
    all: bool = False,
    data_dir: Optional[_Path] = None,
    as_frame: Literal[True],
) -> pandas.DataFrame: ...
def goal_distribution(
    goal: str, *, metric: _Metric = "htm", data_dir: Optional[_Path] = None
) -> List[int]: ...
def puzzle_gods(
    puzzle: str,
    moves: str,
    *,
    metric: _Metric = "htm",
    ignore_orientation: Optional[List[str]] = None,
    goal: Optional[str] = None,
    antipodes: int = 20,
    checkpoint: Optional[_Path] = None,
    data_dir: Optional[_Path] = None,
) -> PuzzleGods: ...
@final
class PuzzleSolver:
    def __new__(
        cls,
        puzzle: str,
        moves: str,
        *,
        metric: _Metric = "htm",
        ignore_orientation: Optional[List[str]] = None,
        goal: Optional[str] = None,
        table_states: int = 800000000,
        keep_tables: bool = True,
        data_dir: Optional[_Path] = None,
    ) -> "PuzzleSolver": ...
    @property
    def name(self) -> str: ...
    @property
    def tables(self) -> List[PuzzleTable]: ...
    def solve(
        self,
        scramble: str,
        *,
        all: bool = False,
        max_length: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> PuzzleSolution: ...
    def random_scrambles(self, count: int, seed: int = 1) -> List[str]: ...
@final
class Table:
    @staticmethod
    def open(name: str, metric: _Metric = "htm", data_dir: Optional[_Path] = None) -> "Table": ...
    @staticmethod
    def build(
        name: str, metric: _Metric = "htm", data_dir: Optional[_Path] = None, force: bool = False
    ) -> "Table": ...
    @staticmethod
    def open_path(path: _Path) -> "Table": ...
    @property
    def kind(self) -> str: ...
    @property
    def metric(self) -> str: ...
    @property
    def encoding(self) -> Literal["nibble", "byte", "mod3", "based"]: ...
    @property
    def entries(self) -> int: ...
    @property
    def path(self) -> pathlib.Path: ...
    @property
    def build_histogram(self) -> List[int]: ...
    def __len__(self) -> int: ...
    def distance(self, index: int) -> Optional[int]: ...
    def distances(self, indices: Sequence[int]) -> List[Optional[int]]: ...
    def read(self, start: int, stop: int) -> bytes: ...
    def buffer(self) -> memoryview: ...
    def packed(self) -> numpy.typing.NDArray[numpy.uint8]: ...
    def array(self, start: int = 0, stop: Optional[int] = None) -> numpy.typing.NDArray[numpy.uint8]: ...
    @overload
    def histogram(self, *, as_array: Literal[False] = False) -> List[int]: ...
    @overload
    def histogram(self, *, as_array: Literal[True]) -> numpy.typing.NDArray[numpy.int64]: ...

def _experiment_columns(path: _Path) -> Dict[str, List[Any]]: ...
