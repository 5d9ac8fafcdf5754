//! Any twisty puzzle from its KPuzzle definition: `puzzle_gods` (God's algorithm over the
//! whole space, as `cubelab puzzle gods --json`) and `PuzzleSolver` (optimal solutions over
//! pattern databases, as `cubelab puzzle solve --json`), both through
//! `cubelab::solving::puzzle`.

use crate::{CubelabError, PositionError, TableError, to_python};
use cubelab::model::kpuzzle::{KPuzzleDefinition, Metric};
use cubelab::solving::puzzle::{
    GodsOptions, OpenedSolver, PuzzleError, PuzzleLimits, PuzzleSolver as LibPuzzleSolver,
    PuzzleSpace, SolverRequest, SpaceRequest, TableSource, gods, open_definition, open_solver,
    random_scrambles, solve_scramble,
};
use indicatif::ProgressBar;
use pyo3::exceptions::{PyFileNotFoundError, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::time::Duration;

/// A library error as the Python exception that says what kind of mistake it is: the
/// definition or the request (ValueError), a missing definition (FileNotFoundError), memory
/// (MemoryError), a scramble (PositionError), a table (TableError).
fn puzzle_error(e: PuzzleError) -> PyErr {
    let message = e.to_string();
    match e {
        PuzzleError::UnknownPuzzle { .. } => PyFileNotFoundError::new_err(message),
        PuzzleError::NotAFile(_)
        | PuzzleError::Definition { .. }
        | PuzzleError::Moves(_)
        | PuzzleError::UnknownOrbit(..)
        | PuzzleError::Goal(_)
        | PuzzleError::Space(_)
        | PuzzleError::NoProjection { .. } => PyValueError::new_err(message),
        PuzzleError::NotEnoughMemory { .. } | PuzzleError::TablesTooLarge { .. } => {
            PyMemoryError::new_err(message)
        }
        PuzzleError::Scramble(..) | PuzzleError::Unsolvable(_) => PositionError::new_err(message),
        PuzzleError::Table(_) => TableError::new_err(message),
        _ => CubelabError::new_err(message),
    }
}

fn metric_named(name: &str) -> PyResult<Metric> {
    match name {
        "htm" => Ok(Metric::Htm),
        "qtm" => Ok(Metric::Qtm),
        _ => Err(PyValueError::new_err(format!(
            "metric '{name}': give \"htm\" (every power of a generator one move) or \"qtm\" \
             (a power k of a generator of order n costs min(k, n - k))"
        ))),
    }
}

/// The request of the keyword arguments common to both.
fn space_request(
    moves: &str,
    metric: &str,
    ignore_orientation: Option<Vec<String>>,
    goal: Option<String>,
) -> PyResult<SpaceRequest> {
    Ok(SpaceRequest {
        moves: moves.to_string(),
        metric: metric_named(metric)?,
        ignore_orientation: ignore_orientation.unwrap_or_default(),
        goal,
    })
}

/// `puzzle_gods(puzzle, moves, *, metric="htm", ignore_orientation=None, goal=None,
/// antipodes=20, checkpoint=None, data_dir=None)`: God's algorithm over the whole space of
/// `puzzle` (a KPuzzle definition file, or the name of one in DATA_DIR/puzzles) under
/// `moves` ("U,F,R": every power of each is a move), by the library's breadth-first search on
/// all cores, with the GIL released. Returns the dict `cubelab puzzle gods --json` prints:
/// `counts` (positions at each distance, index = distance), `total`, `diameter`, `antipodes`
/// (at most `antipodes` of them, as algorithms that make them), `seconds` and more.
/// `ignore_orientation` names orbits whose twists do not count; `goal` is a pattern JSON text
/// (a sub-goal: pieces given one value are alike); `checkpoint` is a file finished depths are
/// saved to and a later call resumes from. Raises FileNotFoundError for an unknown name,
/// ValueError for a bad definition, moves, orbit or goal, MemoryError when the run needs more
/// memory than there is (said before it starts).
#[pyfunction]
#[pyo3(signature = (puzzle, moves, *, metric = "htm", ignore_orientation = None, goal = None,
    antipodes = 20, checkpoint = None, data_dir = None))]
#[allow(clippy::too_many_arguments)]
pub fn puzzle_gods<'py>(
    py: Python<'py>,
    puzzle: &str,
    moves: &str,
    metric: &str,
    ignore_orientation: Option<Vec<String>>,
    goal: Option<String>,
    antipodes: usize,
    checkpoint: Option<PathBuf>,
    data_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = space_request(moves, metric, ignore_orientation, goal)?;
    let dir = data_dir.unwrap_or_else(cubelab::table::default_data_dir);
    let options = GodsOptions {
        checkpoint,
        antipodes,
        memory: None,
    };
    let answer = py.detach(|| {
        let opened = open_definition(&dir, puzzle).map_err(puzzle_error)?;
        let space = PuzzleSpace::new(&opened.definition, &request).map_err(puzzle_error)?;
        let name = opened.definition.name();
        gods(&space, name, &options, &ProgressBar::hidden()).map_err(puzzle_error)
    })?;
    let value = serde_json::to_value(&answer).map_err(|e| CubelabError::new_err(e.to_string()))?;
    to_python(py, &value)
}

/// An optimal solver of one puzzle, move set and goal: its pattern databases (projections of
/// the puzzle, each at most `table_states` states, four a byte) built by the library's
/// breadth-first search when it is made, kept in DATA_DIR as puzzle-NAME-FINGERPRINT.tbl and
/// mapped by later solvers of the same question (`keep_tables=False` builds them in memory
/// only). `solve(scramble)` returns the dict `cubelab puzzle solve --json` prints: `solution`,
/// `length`, `optimal`, `status` (`optimal`, `timeout` or `max-length`), `nodes`, `seconds`, and with `all=True` every optimal solution and
/// their `count`. Every solution is checked by applying it to the position with the
/// definition's moves before it is returned. Raises as `puzzle_gods` does, and MemoryError
/// when the databases need more memory than there is.
#[pyclass(frozen, module = "cubelab", name = "PuzzleSolver")]
pub struct PuzzleSolver {
    solver: LibPuzzleSolver,
    definition: KPuzzleDefinition,
    sources: Vec<TableSource>,
}

// Python's signature shows its defaults as written, so the default is a literal here: the
// library's, as the compiler checks.
const _: () = assert!(cubelab::solving::puzzle::DEFAULT_TABLE_STATES == 800_000_000);

#[pymethods]
impl PuzzleSolver {
    #[new]
    #[pyo3(signature = (puzzle, moves, *, metric = "htm", ignore_orientation = None,
        goal = None, table_states = 800_000_000, keep_tables = true, data_dir = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        puzzle: &str,
        moves: &str,
        metric: &str,
        ignore_orientation: Option<Vec<String>>,
        goal: Option<String>,
        table_states: u64,
        keep_tables: bool,
        data_dir: Option<PathBuf>,
    ) -> PyResult<PuzzleSolver> {
        let dir = data_dir.unwrap_or_else(cubelab::table::default_data_dir);
        let request = SolverRequest {
            space: space_request(moves, metric, ignore_orientation, goal)?,
            per_table: table_states,
            tables: keep_tables.then(|| dir.clone()),
            build_at_most: None,
        };
        py.detach(|| {
            let opened = open_definition(&dir, puzzle).map_err(puzzle_error)?;
            let OpenedSolver { solver, sources } =
                open_solver(&opened.definition, &request, &ProgressBar::hidden())
                    .map_err(puzzle_error)?;
            Ok(PuzzleSolver {
                solver,
                definition: opened.definition,
                sources,
            })
        })
    }

    /// The puzzle's name, as its definition gives it.
    #[getter]
    fn name(&self) -> &str {
        self.definition.name()
    }

    /// The pattern databases: per projection a dict of `name` (what it keeps), `states`,
    /// `deepest` (its greatest distance), `source` ("built", "written" or "read") and `path`
    /// (its file, or None when built in memory only).
    #[getter]
    fn tables<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.solver
            .projections()
            .iter()
            .zip(&self.sources)
            .map(|(projection, source)| {
                let table = PyDict::new(py);
                table.set_item("name", projection.name())?;
                table.set_item("states", projection.states())?;
                table.set_item("deepest", projection.deepest())?;
                let (source, path) = match source {
                    TableSource::Built => ("built", None),
                    TableSource::Written(path) => ("written", Some(path.clone())),
                    TableSource::Read(path) => ("read", Some(path.clone())),
                };
                table.set_item("source", source)?;
                table.set_item("path", path)?;
                Ok(table)
            })
            .collect()
    }

    /// `solve(scramble, *, all=False, max_length=None, timeout=None)`: optimal solutions of
    /// the position `scramble` (an algorithm in the definition's move names) makes from the
    /// goal, with the GIL released. `max_length` and `timeout` (seconds) give up early: the
    /// dict then has `optimal` false (and no solution where none was found). Raises
    /// PositionError for a scramble that does not parse or makes a position these moves
    /// cannot reach.
    #[pyo3(signature = (scramble, *, all = false, max_length = None, timeout = None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        scramble: &str,
        all: bool,
        max_length: Option<u32>,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let timeout = match timeout {
            Some(s) if !(s.is_finite() && s > 0.0) => {
                return Err(PyValueError::new_err(format!(
                    "timeout {s}: give a number of seconds above 0"
                )));
            }
            s => s.map(Duration::from_secs_f64),
        };
        let limits = PuzzleLimits {
            all,
            max_length,
            timeout,
        };
        let solved = py.detach(|| {
            solve_scramble(&self.solver, &self.definition, scramble, &limits).map_err(puzzle_error)
        })?;
        let value =
            serde_json::to_value(&solved).map_err(|e| CubelabError::new_err(e.to_string()))?;
        to_python(py, &value)
    }

    /// `random_scrambles(count, seed=1)`: `count` random positions, each as the walk of 1,000
    /// random moves from the goal that makes it, drawn from `seed` (as `cubelab puzzle solve
    /// --random N --seed S` draws them).
    #[pyo3(signature = (count, seed = 1))]
    fn random_scrambles(&self, count: usize, seed: u64) -> PyResult<Vec<String>> {
        if count > 1_000_000 {
            return Err(PyValueError::new_err(format!(
                "count {count}: at most 1,000,000 a call (each is a 1,000-move text)"
            )));
        }
        Ok(random_scrambles(&self.solver, count, seed))
    }

    fn __repr__(&self) -> String {
        format!(
            "PuzzleSolver({:?}, {} pattern database(s))",
            self.definition.name(),
            self.solver.projections().len()
        )
    }
}
