"""numpy arrays and pandas frames of cubelab's results. numpy and pandas are optional
(`pip install 'cubelab[frames]'`), so they are imported here when a function needs them; the
compiled part calls `require` before its work and the converters below after it.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Union, cast

from . import _cubelab

if TYPE_CHECKING:
    import numpy
    import numpy.typing
    import pandas

INSTALL = "pip install 'cubelab[frames]'"

#: An experiment file's columns (`solve --csv`) and their dtypes: text as pandas strings, counts
#: as nullable integers (<NA> where the file leaves the cell empty), seconds as floats.
EXPERIMENT_DTYPES: Dict[str, str] = {
    "input": "string",
    "puzzle": "string",
    "metric": "string",
    "status": "string",
    "length": "Int64",
    "lower_bound": "Int64",
    "nodes": "UInt64",
    "seconds": "float64",
    "solution": "string",
    "iterations": "string",
    "index": "UInt64",
    "total": "UInt64",
    "source": "string",
    "method": "string",
}

#: The columns of a solve_many frame that an experiment file has too, in the file's order.
ANSWER_COLUMNS = [
    "input",
    "puzzle",
    "metric",
    "status",
    "length",
    "lower_bound",
    "nodes",
    "seconds",
    "solution",
    "iterations",
    "method",
]

#: The dtypes of the other keys a solve dict may have; the rest (stages, solutions...) are
#: objects.
EXTRA_DTYPES: Dict[str, str] = {
    "error": "string",
    "inverse": "string",
    "symmetries": "Int64",
    "solutions_in_all": "Int64",
    "phase1_nodes": "UInt64",
    "phase2_nodes": "UInt64",
}


def require(package: str, what: str) -> ModuleType:
    """The module `package`, or ImportError naming what needs it and how to install it."""
    try:
        return importlib.import_module(package)
    except ImportError as e:
        raise ImportError(f"{what} needs {package}: {INSTALL}", name=package) from e


def int64_array(values: Sequence[int]) -> numpy.typing.NDArray[numpy.int64]:
    require("numpy", "an int64 array")
    import numpy

    return numpy.array(values, dtype=numpy.int64)


def uint8_array(buffer: Any) -> numpy.typing.NDArray[numpy.uint8]:
    """The bytes of `buffer` as uint8, sharing its memory: read-only where the buffer is."""
    require("numpy", "a uint8 array")
    import numpy

    return numpy.frombuffer(buffer, dtype=numpy.uint8)


def _iterations(value: Any) -> Optional[str]:
    """A solve dict's IDA* iterations as an experiment file writes them: `bound:nodes:seconds`
    per iteration, separated by spaces."""
    if not value:
        return None
    return " ".join(f"{i['bound']}:{i['nodes']}:{i['seconds']:.6f}" for i in value)


def answers_frame(answers: List[Dict[str, Any]], method: str) -> pandas.DataFrame:
    """solve_many's dicts as a DataFrame, a row each: the experiment file's columns first (with
    its dtypes, `iterations` in its form, `method` the one asked where the dict names none),
    then the dicts' other keys in the order they first appear."""
    require("pandas", "solve_many(as_frame=True)")
    import pandas

    extra: List[str] = []
    for answer in answers:
        for key in answer:
            if key not in ANSWER_COLUMNS and key not in extra:
                extra.append(key)
    columns: Dict[str, Any] = {}
    for name in ANSWER_COLUMNS:
        if name == "iterations":
            values = [_iterations(a.get(name)) for a in answers]
        elif name == "method":
            values = [a.get(name, method) for a in answers]
        else:
            values = [a.get(name) for a in answers]
        columns[name] = pandas.array(values, dtype=cast(Any, EXPERIMENT_DTYPES[name]))
    for name in extra:
        values = [answer.get(name) for answer in answers]
        if name in EXTRA_DTYPES:
            columns[name] = pandas.array(values, dtype=cast(Any, EXTRA_DTYPES[name]))
        else:
            series = pandas.Series(values, dtype=object)
            columns[name] = series
    return pandas.DataFrame(columns, index=pandas.RangeIndex(len(answers)))


#: A solve_goal frame's columns and dtypes.
GOAL_DTYPES: Dict[str, str] = {
    "position": "string",
    "goal": "string",
    "mask": "string",
    "metric": "string",
    "orientations": "string",
    "length": "Int64",
    "orientation": "string",
    "bottom": "string",
    "solution": "string",
    "solutions": "Int64",
    "error": "string",
}


def goal_frame(answers: List[Dict[str, Any]]) -> pandas.DataFrame:
    """solve_goal's dicts as a DataFrame, a row each: the first solution in `solution`, how many
    were returned in `solutions` (<NA> and an `error` for a position that does not parse)."""
    require("pandas", "solve_goal(as_frame=True)")
    columns: Dict[str, List[Any]] = {name: [] for name in GOAL_DTYPES}
    for answer in answers:
        solutions = answer.get("solutions")
        for name in GOAL_DTYPES:
            if name == "solution":
                value = solutions[0] if solutions else None
            elif name == "solutions":
                value = len(solutions) if solutions is not None else None
            else:
                value = answer.get(name)
            columns[name].append(value)
    return _frame(columns, GOAL_DTYPES, "solve_goal(as_frame=True)")


def _frame(
    columns: Mapping[str, List[Any]], dtypes: Mapping[str, str], what: str = "read_experiment"
) -> pandas.DataFrame:
    require("pandas", what)
    import pandas

    return pandas.DataFrame(
        {
            name: pandas.array(values, dtype=cast(Any, dtypes[name]))
            for name, values in columns.items()
        }
    )


def read_experiment(path: Union[str, os.PathLike[str]]) -> pandas.DataFrame:
    """The experiment file at `path` (what `solve --csv` writes) as a pandas DataFrame, a row
    per position, read and checked by the library as `cubelab report` reads it.

    Columns: input, puzzle, metric, status, solution, iterations (`bound:nodes:seconds` per
    IDA* iteration), source and method as pandas strings; length, lower_bound (Int64), nodes,
    index, total (UInt64) as nullable integers, <NA> where the cell is empty (a lower bound
    where a solution was found, the last four columns in files written before them); seconds as
    float64. Needs pandas (`pip install 'cubelab[frames]'`). Raises FileNotFoundError, or
    ValueError naming the line of a malformed row.
    """
    require("pandas", "read_experiment")
    columns = _cubelab._experiment_columns(os.fspath(path))
    return _frame(columns, EXPERIMENT_DTYPES)
