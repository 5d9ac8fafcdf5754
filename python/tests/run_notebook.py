"""Runs a notebook with nbclient in its own directory, failing on any cell's error; first
checks that the committed file holds no outputs (they are cleared before committing).

    python python/tests/run_notebook.py notebooks/tour.ipynb [--timeout SECONDS]
"""

import argparse
import pathlib
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("notebook", type=pathlib.Path)
    parser.add_argument("--timeout", type=int, default=120, help="seconds a cell may take")
    args = parser.parse_args()
    notebook = nbformat.read(args.notebook, as_version=4)
    kept = [i for i, c in enumerate(notebook.cells) if c.get("outputs") or c.get("execution_count")]
    if kept:
        print(f"{args.notebook}: cells {kept} hold outputs; clear them before committing "
              "(jupyter nbconvert --clear-output --inplace)", file=sys.stderr)
        return 1
    client = NotebookClient(
        notebook,
        timeout=args.timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(args.notebook.resolve().parent)}},
    )
    start = time.monotonic()
    try:
        client.execute()
    except CellExecutionError as e:
        print(f"{args.notebook}: a cell failed:\n{e}", file=sys.stderr)
        return 1
    print(f"{args.notebook}: {len(notebook.cells)} cells ran in {time.monotonic() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
