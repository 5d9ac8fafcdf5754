//! The `cubelab` Python module: positions, the solvers and the tables of the cubelab library,
//! for notebooks. Everything here converts between Python and the library; what it computes is
//! the library's (`cubelab::solving` picks and opens the solvers, as for `solve` and the HTTP
//! API), and its errors become Python exceptions carrying the library's messages.

use cubelab::catalogue::scan::checked_histogram;
use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::Metric;
use cubelab::model::facelet::net;
use cubelab::model::position::{Form, Position as LibPosition, Puzzle, parse_position};
use cubelab::packing::Encoding;
use cubelab::solving::coset::{
    self as coset_run, CosetLimits, CosetProgress, MAX_DEPTH, default_search_depth, gods_number,
};
use cubelab::solving::goal::{
    GoalAnswerer, GoalOpenError, GoalSolver, LastLayerError, goal_answerer, last_layer_table,
    piece_goal_solver as open_piece_goal_solver,
};
use cubelab::solving::{JsonShape, Method, Request, Solvers};
use cubelab::support::named::Named;
use cubelab::table::identity::{FileIdentity, all_unchanged, record_opened};
use cubelab::table::{BuildLock, Table as LibTable, Verify};
use indicatif::ProgressBar;
use pyo3::create_exception;
use pyo3::exceptions::{
    PyException, PyFileNotFoundError, PyIndexError, PyMemoryError, PyOSError, PyPermissionError,
    PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyList, PyType};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

mod mapped;
mod puzzle;

create_exception!(
    cubelab,
    CubelabError,
    PyException,
    "Base class of the errors cubelab raises."
);
create_exception!(
    cubelab,
    PositionError,
    CubelabError,
    "A text that is no position (bad moves or stickers), or a position that cannot be solved as asked."
);
create_exception!(
    cubelab,
    TableError,
    CubelabError,
    "A table that is missing, damaged or of another kind; the message names the command that builds it."
);

fn position_error(e: impl std::fmt::Display) -> PyErr {
    PositionError::new_err(e.to_string())
}

fn table_error(e: impl std::fmt::Display) -> PyErr {
    TableError::new_err(e.to_string())
}

/// A name given from Python (`"htm"`, `"two-phase"`, `"3x3"`...) as the command line takes it.
fn named<T: Named>(what: &str, name: &str) -> PyResult<T> {
    cubelab::support::named::named(what, name).map_err(|e| PyValueError::new_err(e.to_string()))
}

fn puzzle_of(name: Option<&str>) -> PyResult<Option<Puzzle>> {
    name.map(|n| named("puzzle", n)).transpose()
}

/// Seconds from Python as a duration: finite and not negative.
fn seconds(what: &str, value: Option<f64>) -> PyResult<Option<Duration>> {
    match value {
        None => Ok(None),
        Some(s) if (0.0..=1e9).contains(&s) => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(PyValueError::new_err(format!(
            "{what} must be a number of seconds from 0 to 1e9, not {s}"
        ))),
    }
}

/// A position of the 2x2 or the 3x3. Made from a move sequence (applied to a solved cube),
/// a sticker string (24 or 54 letters, faces U R F D L B) or Reid's notation; immutable.
#[pyclass(frozen, eq, module = "cubelab")]
#[derive(Clone, PartialEq, Eq)]
struct Position {
    inner: LibPosition,
}

#[pymethods]
impl Position {
    /// `Position(text, puzzle=None)`: `puzzle` ("2x2" or "3x3", default 3x3) is what a move
    /// sequence is applied to; sticker strings name their own. Raises PositionError.
    #[new]
    #[pyo3(signature = (text, puzzle = None))]
    fn new(text: &str, puzzle: Option<&str>) -> PyResult<Position> {
        let inner = parse_position(text, puzzle_of(puzzle)?, Form::Auto).map_err(position_error)?;
        Ok(Position { inner })
    }

    /// A uniformly random position; the same for the same `seed`.
    #[classmethod]
    #[pyo3(signature = (puzzle = "3x3", seed = None))]
    fn random(_cls: &Bound<'_, PyType>, puzzle: &str, seed: Option<u64>) -> PyResult<Position> {
        let inner = LibPosition::seeded(named::<Puzzle>("puzzle", puzzle)?, seed);
        Ok(Position { inner })
    }

    /// "2x2" or "3x3".
    #[getter]
    fn puzzle(&self) -> &'static str {
        self.inner.puzzle().name()
    }

    /// The sticker string: 24 or 54 letters, faces U R F D L B.
    #[getter]
    fn stickers(&self) -> String {
        self.inner.stickers()
    }

    /// Reid's notation (3x3 only; None for a 2x2).
    #[getter]
    fn reid(&self) -> Option<String> {
        self.inner.reid()
    }

    fn is_solved(&self) -> bool {
        match &self.inner {
            LibPosition::Pocket(c) => c.is_solved(),
            LibPosition::Cube(c) => c.is_solved(),
        }
    }

    /// The position after `moves` (a move sequence). Raises PositionError.
    fn apply(&self, moves: &str) -> PyResult<Position> {
        Ok(Position {
            inner: self.inner.apply_text(moves).map_err(position_error)?,
        })
    }

    /// The unfolded cube as text (U above, L F R B in a row, D below).
    fn net(&self) -> String {
        net(&self.stickers(), None)
    }

    fn __str__(&self) -> String {
        self.stickers()
    }

    /// Positions hash by their sticker strings, which name them exactly.
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.stickers().hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.stickers())
    }
}

/// A position from Python: a Position, or a text that parses as one.
fn position_arg(value: &Bound<'_, PyAny>, puzzle: Option<Puzzle>) -> PyResult<LibPosition> {
    if let Ok(position) = value.cast::<Position>() {
        return Ok(position.get().inner);
    }
    let text: String = value.extract().map_err(|_| {
        PyValueError::new_err("a position is a cubelab.Position or a string of moves or stickers")
    })?;
    parse_position(&text, puzzle, Form::Auto).map_err(position_error)
}

/// The text a position is reported with: as given, or its sticker string.
fn shown(value: &Bound<'_, PyAny>, position: &LibPosition) -> String {
    value
        .extract::<String>()
        .unwrap_or_else(|_| match position {
            LibPosition::Pocket(c) => c.to_facelets(),
            LibPosition::Cube(c) => c.to_facelets(),
        })
}

/// `parse(text, puzzle=None)`: the same as `Position(text, puzzle)`.
#[pyfunction]
#[pyo3(signature = (text, puzzle = None))]
fn parse(text: &str, puzzle: Option<&str>) -> PyResult<Position> {
    Position::new(text, puzzle)
}

/// `validate(text, puzzle=None)`: None if `text` is a position, else the reason it is not (the
/// message `solve` prints, e.g. which corner is twisted).
#[pyfunction]
#[pyo3(signature = (text, puzzle = None))]
fn validate(text: &str, puzzle: Option<&str>) -> PyResult<Option<String>> {
    Ok(parse_position(text, puzzle_of(puzzle)?, Form::Auto)
        .err()
        .map(|e| e.to_string()))
}

/// Solves positions from the tables in one data directory, mapping each table once, on first
/// use, and sharing it. `Solver(data_dir=None)`: the directory gen-tables built (default, as
/// for `solve`: $CUBELAB_DATA, else ./data, else the per-user data directory).
#[pyclass(frozen, module = "cubelab")]
struct Solver {
    solvers: Arc<Solvers>,
}

/// What one call asks, from its keyword arguments.
struct Asked {
    request: Request,
    puzzle: Option<Puzzle>,
}

#[allow(clippy::too_many_arguments)]
fn asked(
    puzzle: Option<&str>,
    metric: &str,
    method: &str,
    timeout: Option<f64>,
    max_length: Option<u32>,
    budget: Option<f64>,
    all: bool,
    tables: Option<&str>,
) -> PyResult<Asked> {
    let method: Method = named("method", method)?;
    let metric: Metric = named("metric", metric)?;
    if method != Method::Optimal && (metric != Metric::Htm || all) {
        return Err(PyValueError::new_err(format!(
            "method '{}' solves in htm, one solution: metric='qtm' and all=True are for method='optimal'",
            method.name()
        )));
    }
    if budget.is_some() && method != Method::TwoPhase {
        return Err(PyValueError::new_err("budget is for method='two-phase'"));
    }
    let mut request = Request {
        metric,
        method,
        all,
        max_length,
        timeout: seconds("timeout", timeout)?,
        budget: seconds("budget", budget)?,
        ..Request::default()
    };
    if let Some(name) = tables {
        request.tables = Some(named::<TableKind>("table", name)?);
    }
    Ok(Asked {
        request,
        puzzle: puzzle_of(puzzle)?,
    })
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (data_dir = None))]
    fn new(data_dir: Option<PathBuf>) -> Solver {
        let dir = data_dir.unwrap_or_else(cubelab::table::default_data_dir);
        Solver {
            solvers: Arc::new(Solvers::new(&dir)),
        }
    }

    /// The directory the tables are read from.
    #[getter]
    fn data_dir(&self) -> PathBuf {
        self.solvers.data_dir().to_path_buf()
    }

    /// Solves one position (a Position or a text) and returns a dict, the object that
    /// `solve --json` prints: `status` ("optimal", "found", "solved", "timeout",
    /// "max-length"), `solution`, `length`, `seconds`, and what the method adds (`nodes`,
    /// `lower_bound`, `stages`...). Every solution has been checked by applying it.
    ///
    /// method: "optimal" (IDA*, the default; 3x3 seconds to minutes), "two-phase" (at most
    /// `max_length` moves, default 20, in milliseconds; `budget` seconds to improve it) or
    /// "layers". A 2x2 is always solved optimally, at once. `timeout` (seconds) gives up with
    /// status "timeout" and the proven lower bound. The GIL is released while searching, so
    /// other Python threads run; a search is not interrupted by Ctrl-C, so give long ones a
    /// timeout. Raises PositionError for a text that is no position, TableError for a missing
    /// or damaged table.
    #[pyo3(signature = (position, *, puzzle = None, metric = "htm", method = "optimal",
        timeout = None, max_length = None, budget = None, all = false, tables = None))]
    #[allow(clippy::too_many_arguments)]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        puzzle: Option<&str>,
        metric: &str,
        method: &str,
        timeout: Option<f64>,
        max_length: Option<u32>,
        budget: Option<f64>,
        all: bool,
        tables: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let asked = asked(
            puzzle, metric, method, timeout, max_length, budget, all, tables,
        )?;
        let parsed = position_arg(position, asked.puzzle)?;
        let input = shown(position, &parsed);
        let solvers = Arc::clone(&self.solvers);
        let request = asked.request.clone();
        let outcome = py
            .detach(move || solvers.solve(&parsed, &request, &mut |_| {}))
            .map_err(table_error)?;
        let shape = JsonShape {
            all: asked.request.all,
            ..JsonShape::plain(asked.request.metric)
        };
        to_python(py, &outcome.to_json(&input, Some(parsed.puzzle()), &shape))
    }

    /// Solves many positions, in parallel on every core (each 3x3 optimal search on one
    /// thread), and returns their dicts in order. Takes the keywords of `solve`. A text that
    /// is no position gives a dict with status "invalid" and its `error`, not an exception.
    ///
    /// `as_frame=True` returns a pandas DataFrame instead, a row per position in order, with
    /// the columns of an experiment file (`read_experiment`) first: input, puzzle, metric,
    /// status, length, lower_bound, nodes, seconds, solution, iterations (as the file writes
    /// them), method; then whatever else the dicts hold (error, stages, solutions...). Needs
    /// pandas (`pip install 'cubelab[frames]'`; ImportError before solving otherwise).
    #[pyo3(signature = (positions, *, puzzle = None, metric = "htm", method = "optimal",
        timeout = None, max_length = None, budget = None, all = false, tables = None,
        as_frame = false))]
    #[allow(clippy::too_many_arguments)]
    fn solve_many<'py>(
        &self,
        py: Python<'py>,
        positions: Vec<Bound<'py, PyAny>>,
        puzzle: Option<&str>,
        metric: &str,
        method: &str,
        timeout: Option<f64>,
        max_length: Option<u32>,
        budget: Option<f64>,
        all: bool,
        tables: Option<&str>,
        as_frame: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        use rayon::prelude::*;
        let asked = asked(
            puzzle, metric, method, timeout, max_length, budget, all, tables,
        )?;
        if as_frame {
            require(py, "pandas", "solve_many(as_frame=True)")?;
        }
        let parsed: Vec<(String, Result<LibPosition, String>)> = positions
            .iter()
            .map(|value| match position_arg(value, asked.puzzle) {
                Ok(p) => (shown(value, &p), Ok(p)),
                Err(e) => (
                    value
                        .str()
                        .map_or_else(|_| String::new(), |s| s.to_string()),
                    Err(e.value(py).to_string()),
                ),
            })
            .collect();
        let solvers = Arc::clone(&self.solvers);
        let request = Request {
            one_thread: true,
            ..asked.request.clone()
        };
        let shape = JsonShape {
            all: asked.request.all,
            ..JsonShape::plain(asked.request.metric)
        };
        let answers: Vec<String> = py
            .detach(move || {
                for position in parsed.iter().filter_map(|(_, p)| p.as_ref().ok()) {
                    solvers.open_for(position.puzzle(), &request)?;
                }
                parsed
                    .par_iter()
                    .map(|(input, position)| {
                        let outcome = match position {
                            Ok(p) => solvers.solve(p, &request, &mut |_| {})?,
                            Err(message) => cubelab::solving::Outcome::Invalid(message.clone()),
                        };
                        let puzzle = position.as_ref().ok().map(LibPosition::puzzle);
                        Ok(outcome.to_json(input, puzzle, &shape).to_string())
                    })
                    .collect::<Result<Vec<String>, cubelab::solving::SolvingError>>()
            })
            .map_err(table_error)?;
        let loads = py.import("json")?.getattr("loads")?;
        let answers = answers
            .iter()
            .map(|a| loads.call1((a,)))
            .collect::<PyResult<Vec<_>>>()?;
        let answers = PyList::new(py, answers)?.into_any();
        if as_frame {
            frames(py, "answers_frame")?.call1((answers, asked.request.method.name()))
        } else {
            Ok(answers)
        }
    }
}

/// A JSON value as the Python object `json.loads` makes of it.
fn to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .getattr("loads")?
        .call1((value.to_string(),))
}

/// A function of the package's Python part, python/cubelab/_frames.py: what makes numpy
/// arrays and pandas frames, which are optional (`pip install 'cubelab[frames]'`).
fn frames<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("cubelab._frames")?.getattr(name)
}

/// Raises ImportError, saying how to install it, where `package` (numpy or pandas) is missing:
/// before the work, not after it.
fn require(py: Python<'_>, package: &str, what: &str) -> PyResult<()> {
    frames(py, "require")?.call1((package, what))?;
    Ok(())
}

/// `solve(position, **keywords)`: `Solver().solve(...)` over the default data directory.
#[pyfunction]
#[pyo3(signature = (position, *, puzzle = None, metric = "htm", method = "optimal",
    timeout = None, max_length = None, budget = None, all = false, tables = None, data_dir = None))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    puzzle: Option<&str>,
    metric: &str,
    method: &str,
    timeout: Option<f64>,
    max_length: Option<u32>,
    budget: Option<f64>,
    all: bool,
    tables: Option<&str>,
    data_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    Solver::new(data_dir).solve(
        py, position, puzzle, metric, method, timeout, max_length, budget, all, tables,
    )
}

/// `solve_many(positions, **keywords)`: `Solver().solve_many(...)` over the default data
/// directory (or `data_dir`); `as_frame=True` returns a pandas DataFrame.
#[pyfunction]
#[pyo3(signature = (positions, *, puzzle = None, metric = "htm", method = "optimal",
    timeout = None, max_length = None, budget = None, all = false, tables = None, data_dir = None,
    as_frame = false))]
#[allow(clippy::too_many_arguments)]
fn solve_many<'py>(
    py: Python<'py>,
    positions: Vec<Bound<'py, PyAny>>,
    puzzle: Option<&str>,
    metric: &str,
    method: &str,
    timeout: Option<f64>,
    max_length: Option<u32>,
    budget: Option<f64>,
    all: bool,
    tables: Option<&str>,
    data_dir: Option<PathBuf>,
    as_frame: bool,
) -> PyResult<Bound<'py, PyAny>> {
    Solver::new(data_dir).solve_many(
        py, positions, puzzle, metric, method, timeout, max_length, budget, all, tables, as_frame,
    )
}

/// A goal by name or mask, and its table in `metric` (built on first use into `data_dir`).
fn goal_solver(
    goal: &str,
    metric: &str,
    orientations: &str,
    data_dir: Option<PathBuf>,
) -> PyResult<GoalAnswerer> {
    use cubelab::catalogue::goal::Orientations;
    let metric: Metric = named("metric", metric)?;
    let orientations: Orientations = named("orientations", orientations)?;
    let dir = data_dir.unwrap_or_else(cubelab::table::default_data_dir);
    let progress = |_: &_| indicatif::ProgressBar::hidden();
    match goal_answerer(&dir, goal, metric, orientations, None, &progress) {
        Ok(GoalAnswerer::LastLayer(solver)) => Ok(GoalAnswerer::LastLayer(solver.one_thread())),
        Ok(answerer) => Ok(answerer),
        Err(GoalOpenError::Table(e)) => Err(table_error(e)),
        Err(GoalOpenError::Goal(e)) => Err(goal_error(e)),
    }
}

/// A goal that names nothing or has no table: a ValueError for the former, a TableError else.
fn goal_error(e: cubelab::catalogue::goal::GoalError) -> PyErr {
    match e {
        cubelab::catalogue::goal::GoalError::Space(_) => PyValueError::new_err(e.to_string()),
        e => table_error(e),
    }
}

/// A goal by name or mask, not `ll`, and its tables (built on first use into `dir`).
fn piece_goal_solver(
    goal: &str,
    metric: Metric,
    orientations: cubelab::catalogue::goal::Orientations,
    dir: &std::path::Path,
) -> PyResult<GoalSolver> {
    use cubelab::catalogue::goal::Goal;
    let goal = Goal::parse(goal).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let progress = |_: &_| indicatif::ProgressBar::hidden();
    open_piece_goal_solver(dir, goal, metric, orientations, &progress).map_err(goal_error)
}

/// Whether `goal` names the last layer (`ll`), which the optimal solver answers.
fn is_last_layer(goal: &str) -> bool {
    cubelab::catalogue::goal::names_last_layer(goal)
}

/// `solve_goal(positions, goal, *, metric="htm", orientations="fixed", all=False,
/// data_dir=None, as_frame=False)`: each 3x3 position's optimal solution to a partial goal (a
/// name such as "cross" or "xcross", or a piece mask such as "DF DB edges/o"), as
/// `solve --goal --json` gives it: length, solutions, the face each is on. The goal's table is
/// built on first use into the data directory; "ll" (the last layer, from a position whose
/// first two layers are solved) is answered by the optimal solver and its default table. A dict per position (`error` for one that does
/// not parse), or with as_frame=True a DataFrame. Raises ValueError for an unknown goal, metric
/// or orientations.
#[pyfunction]
#[pyo3(signature = (positions, goal, *, metric = "htm", orientations = "fixed", all = false,
    data_dir = None, as_frame = false))]
#[allow(clippy::too_many_arguments)]
fn solve_goal<'py>(
    py: Python<'py>,
    positions: Vec<String>,
    goal: &str,
    metric: &str,
    orientations: &str,
    all: bool,
    data_dir: Option<PathBuf>,
    as_frame: bool,
) -> PyResult<Bound<'py, PyAny>> {
    use rayon::prelude::*;
    if as_frame {
        require(py, "pandas", "solve_goal(as_frame=True)")?;
    }
    let solver = py.detach(|| goal_solver(goal, metric, orientations, data_dir))?;
    let answers: Vec<serde_json::Value> = py.detach(|| {
        positions
            .par_iter()
            .map(|text| {
                let cube = match parse_position(text, Some(Puzzle::Cube), Form::Auto) {
                    Ok(LibPosition::Cube(cube)) => Ok(cube),
                    Ok(LibPosition::Pocket(_)) => {
                        Err("a 2x2 position; goals are for the 3x3".into())
                    }
                    Err(e) => Err(e.to_string()),
                };
                // A defect in the search is an error too, named in the position's dict.
                let report = cube.and_then(|c| solver.report(&c, all, 10_000).and_then(|r| r));
                match report {
                    Ok(report) => {
                        let mut value = serde_json::json!(report);
                        value["position"] = serde_json::json!(text);
                        value
                    }
                    Err(message) => serde_json::json!({ "position": text, "error": message }),
                }
            })
            .collect()
    });
    let answers = to_python(py, &serde_json::Value::Array(answers))?;
    if as_frame {
        frames(py, "goal_frame")?.call1((answers,))
    } else {
        Ok(answers)
    }
}

/// `goal_distribution(goal, *, metric="htm", data_dir=None)`: a partial goal's exact
/// distribution over its whole space (the positions of its pieces; for a goal of several
/// places, one place's), states at each length, from its table (built on first use); for
/// "ll", the 62,208 last-layer positions' optimal lengths (solved once, minutes, then kept).
#[pyfunction]
#[pyo3(signature = (goal, *, metric = "htm", data_dir = None))]
fn goal_distribution(
    py: Python<'_>,
    goal: &str,
    metric: &str,
    data_dir: Option<PathBuf>,
) -> PyResult<Vec<u64>> {
    let metric: Metric = named("metric", metric)?;
    let dir = data_dir.unwrap_or_else(cubelab::table::default_data_dir);
    if is_last_layer(goal) {
        let progress = indicatif::ProgressBar::hidden();
        let table = py
            .detach(|| last_layer_table(&dir, metric, &progress))
            .map_err(|e| match e {
                LastLayerError::Table(e) => table_error(e),
                e => PyValueError::new_err(e.to_string()),
            })?;
        return Ok(table.histogram().to_vec());
    }
    let fixed = cubelab::catalogue::goal::Orientations::Fixed;
    let solver = py.detach(|| piece_goal_solver(goal, metric, fixed, &dir))?;
    Ok(solver.table().histogram().to_vec())
}

/// The columns of the experiment file at `path` (what `solve --csv` writes), read and checked
/// by the library: a dict of column name to list of values, None where a cell is empty (or the
/// column is newer than the file). `read_experiment` makes a DataFrame of it. Raises
/// FileNotFoundError/OSError, or ValueError naming the line of a malformed row.
#[pyfunction(name = "_experiment_columns")]
fn experiment_columns<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    use cubelab::experiment::{ExperimentError, read_experiment};
    let rows = py.detach(|| read_experiment(&path)).map_err(|e| match e {
        ExperimentError::Io { path, source } => {
            let message = format!("{}: {source}", path.display());
            match source.kind() {
                std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
                std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
                _ => PyOSError::new_err(message),
            }
        }
        other => PyValueError::new_err(other.to_string()),
    })?;
    let text = |s: &str| (!s.is_empty()).then(|| s.to_string());
    let columns = PyDict::new(py);
    macro_rules! column {
        ($name:literal, $value:expr) => {
            columns.set_item($name, rows.iter().map($value).collect::<Vec<_>>())?;
        };
    }
    column!("input", |r| text(&r.input));
    column!("puzzle", |r| text(&r.puzzle));
    column!("metric", |r| text(&r.metric));
    column!("status", |r| text(&r.status));
    column!("length", |r| r.length);
    column!("lower_bound", |r| r.lower_bound);
    column!("nodes", |r| r.nodes);
    column!("seconds", |r| r.seconds);
    column!("solution", |r| text(&r.solution));
    column!("iterations", |r| text(&r.iterations));
    column!("index", |r| r.index);
    column!("total", |r| r.total);
    column!("source", |r| r.source.as_deref().and_then(text));
    column!("method", |r| r.method.as_deref().and_then(text));
    Ok(columns)
}

/// `coset(moves, *, bound=None, exact=False, max_depth=None, search_depth=None, metric="htm",
/// data_dir=None)`: every position of the coset H·moves at once (H = <U, D, R2, L2, F2, B2>;
/// 19,508,428,800 positions), as `cubelab coset --json` computes it, returned as its dict: `counts` (positions
/// at each exact distance, index = depth), `reached`, `depths` (per depth: count, total,
/// exact, sequences, seconds), `bound` (every position proven within it, or None), `unsolved`,
/// `finished` (positions left at a bound of 20 and proven one at a time by the two-phase
/// search), `unsolved_positions`, `class` (its symmetry class among 138,639,780),
/// `class_cosets` (how many cosets that class stands for) and `seconds`. `bound` (default:
/// God's number, 20 in htm and 26 in qtm) proves the bound, phase 1 searching to
/// `search_depth` (default 16 in htm, 18 in qtm); `exact=True` with `max_depth` counts exact distances; `metric` is "htm" or
/// "qtm". Needs the `phase1-sym` table of the metric (an htm bound of 20 also the two-phase
/// tables) and about 7.5 GB of memory; takes seconds to minutes, with the GIL
/// released. Raises TableError for a missing table, PositionError for moves that name no 3x3
/// position, ValueError for contradictory arguments, CubelabError when memory is short or the
/// depth is below the coset's distance into H.
#[pyfunction]
#[pyo3(signature = (moves, *, bound = None, exact = false, max_depth = None, search_depth = None,
    metric = "htm", data_dir = None))]
#[allow(clippy::too_many_arguments)]
fn coset<'py>(
    py: Python<'py>,
    moves: &str,
    bound: Option<u32>,
    exact: bool,
    max_depth: Option<u32>,
    search_depth: Option<u32>,
    metric: &str,
    data_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let metric: Metric = named("metric", metric)?;
    let search_depth = search_depth.unwrap_or(default_search_depth(metric));
    let limits = match (exact, max_depth, bound) {
        (true, Some(depth), None) => CosetLimits::exact(depth),
        (true, None, _) => {
            return Err(PyValueError::new_err(
                "exact=True needs max_depth, the last depth to count",
            ));
        }
        (false, None, bound) => {
            CosetLimits::bound(bound.unwrap_or(gods_number(metric)), search_depth)
        }
        (true, Some(_), Some(_)) | (false, Some(_), _) => {
            return Err(PyValueError::new_err(
                "give bound (a bound run) or exact=True with max_depth (exact counts), not both",
            ));
        }
    };
    if limits.max_depth.max(search_depth) > MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "depths go up to {MAX_DEPTH} (God's number is 20, 26 in qtm)"
        )));
    }
    let dir = data_dir.unwrap_or_else(cubelab::table::default_data_dir);
    let representative = coset_run::representative(moves).map_err(position_error)?;
    let finish = coset_run::finishes(metric, &limits);
    coset_run::missing_tables(&dir, metric, finish).map_err(table_error)?;
    let (result, class, seconds) = py
        .detach(|| {
            let started = Instant::now();
            let class = coset_run::Class::of(&representative);
            let solver = coset_run::open_solver(
                &dir,
                metric,
                &limits,
                std::slice::from_ref(&representative),
            )
            .map_err(|e| e.to_string())?;
            let progress = CosetProgress {
                watch: &[],
                on_depth: &mut |_| {},
                stop: &AtomicBool::new(false),
                on_finish: &|_, _| {},
            };
            let result = solver
                .run(&representative, &limits, progress)
                .map_err(|e| e.to_string())?;
            Ok::<_, String>((result, class, started.elapsed().as_secs_f64()))
        })
        .map_err(CubelabError::new_err)?;
    to_python(
        py,
        &coset_run::json(moves, metric, &class, &result, seconds),
    )
}

/// A table file, mapped into memory (not read): opening even a 1.3 GB table takes
/// milliseconds. `Table.open(name, metric="htm", data_dir=None)` by the name gen-tables
/// builds it under ("corners", "2x2", "edges6"...), or `Table.open_path(path)`.
#[pyclass(frozen, module = "cubelab")]
struct Table {
    /// Shared with the buffers `buffer()` exports, which keep the mapping.
    table: Arc<LibTable>,
    /// The file as opened: every read checks it first, so a file rewritten in place (whose
    /// entries would be another table's) or cut short (whose pages would fault) raises
    /// TableError instead of answering from it or killing the interpreter.
    opened: Vec<FileIdentity>,
}

#[pymethods]
impl Table {
    /// The table `name` in `metric` from `data_dir` (default as for Solver). Its checksum is
    /// verified the first time this file is opened on this machine. Raises TableError.
    #[staticmethod]
    #[pyo3(signature = (name, metric = "htm", data_dir = None))]
    fn open(name: &str, metric: &str, data_dir: Option<PathBuf>) -> PyResult<Table> {
        let kind: TableKind = named("table", name)?;
        let metric: Metric = named("metric", metric)?;
        let dir = data_dir.unwrap_or_else(cubelab::table::default_data_dir);
        let (table, opened) =
            record_opened(|| TableId::new(kind, metric).open(&dir, Verify::IfNew));
        Ok(Table {
            table: Arc::new(table.map_err(table_error)?),
            opened,
        })
    }

    /// Builds the table `name` in `metric` into `data_dir` (default as for Solver) as
    /// `gen-tables NAME` does, unless a valid one is there already (`force=True` builds it
    /// anyway), and opens it. The 2x2 tables take a second or so, `corners` about a minute and
    /// 1 GB of memory; the large ones minutes to hours and many GB (`gen-tables --list`): build
    /// those with gen-tables. The GIL is released meanwhile. Raises TableError, naming another
    /// build already running into the directory.
    #[staticmethod]
    #[pyo3(signature = (name, metric = "htm", data_dir = None, force = false))]
    fn build(
        py: Python<'_>,
        name: &str,
        metric: &str,
        data_dir: Option<PathBuf>,
        force: bool,
    ) -> PyResult<Table> {
        let kind: TableKind = named("table", name)?;
        let metric: Metric = named("metric", metric)?;
        let dir = data_dir.unwrap_or_else(cubelab::table::default_data_dir);
        let id = TableId::new(kind, metric);
        let (table, opened) = py
            .detach(|| -> Result<_, String> {
                let _lock = BuildLock::acquire(&dir).map_err(|e| e.to_string())?;
                if !force
                    && let (Ok(table), opened) = record_opened(|| id.open(&dir, Verify::IfNew))
                {
                    return Ok((table, opened));
                }
                cubelab::catalogue::build(id, &dir, &ProgressBar::hidden())
                    .map_err(|e| e.to_string())?;
                let (table, opened) = record_opened(|| id.open(&dir, Verify::IfNew));
                Ok((table.map_err(|e| e.to_string())?, opened))
            })
            .map_err(table_error)?;
        Ok(Table {
            table: Arc::new(table),
            opened,
        })
    }

    /// The table file at `path`, whatever it holds. Raises TableError.
    #[staticmethod]
    fn open_path(path: PathBuf) -> PyResult<Table> {
        let rebuild =
            "gen-tables --list` (which names each table's file), then `gen-tables --force TABLE";
        let (table, opened) = record_opened(|| LibTable::open_path(&path, rebuild, Verify::IfNew));
        Ok(Table {
            table: Arc::new(table.map_err(table_error)?),
            opened,
        })
    }

    /// The kind's name, e.g. "corners".
    #[getter]
    fn kind(&self) -> &'static str {
        TableId::of_header(self.table.header()).map_or("unknown", |id| id.kind.name())
    }

    #[getter]
    fn metric(&self) -> &'static str {
        TableId::of_header(self.table.header()).map_or("unknown", |id| id.metric.name())
    }

    /// How entries are stored: "nibble" (exact, 4 bits), "byte" (exact), "mod3" (distance mod
    /// 3) or "based" (2-bit lower bounds over a per-line base, the coset tables).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.table.header().encoding.name()
    }

    #[getter]
    fn entries(&self) -> u64 {
        self.table.header().entries
    }

    #[getter]
    fn path(&self) -> PathBuf {
        self.table.path().to_path_buf()
    }

    /// The count of entries at each distance, recorded when the table was built.
    #[getter]
    fn build_histogram(&self) -> Vec<u64> {
        self.table.header().histogram.clone()
    }

    fn __len__(&self) -> usize {
        self.table.header().entries as usize
    }

    fn __repr__(&self) -> String {
        format!(
            "Table('{}', {}, {} entries)",
            self.kind(),
            self.metric(),
            self.entries()
        )
    }

    /// The exact distance stored at `index`, or None where the state was never reached.
    /// Exact tables only (nibble and byte encodings). Raises IndexError beyond the table.
    fn distance(&self, index: u64) -> PyResult<Option<u8>> {
        let unreached = self.exact_marker()?;
        self.check_index(index)?;
        self.check_unchanged()?;
        let value = self.table.entry(index);
        Ok((value != unreached).then_some(value))
    }

    /// `distance` of each index, in one call (far faster than a Python loop).
    fn distances(&self, py: Python<'_>, indices: Vec<u64>) -> PyResult<Vec<Option<u8>>> {
        let unreached = self.exact_marker()?;
        if let Some(&bad) = indices.iter().find(|&&i| i >= self.entries()) {
            self.check_index(bad)?;
        }
        self.check_unchanged()?;
        let table = &*self.table;
        Ok(py.detach(|| {
            indices
                .iter()
                .map(|&i| {
                    let value = table.entry(i);
                    (value != unreached).then_some(value)
                })
                .collect()
        }))
    }

    /// The entries from `start` to `stop` (exclusive) as stored, one byte each, e.g. for
    /// `numpy.frombuffer(table.read(0, 10**6), dtype=numpy.uint8)`.
    fn read(&self, py: Python<'_>, start: u64, stop: u64) -> PyResult<Vec<u8>> {
        if start > stop || stop > self.entries() {
            return Err(PyIndexError::new_err(format!(
                "{start}..{stop} is not within the table's {} entries",
                self.entries()
            )));
        }
        // Asked of the allocator first: a range too large for memory raises MemoryError
        // instead of aborting the interpreter.
        let mut entries = Vec::new();
        usize::try_from(stop - start)
            .ok()
            .and_then(|len| entries.try_reserve_exact(len).ok())
            .ok_or_else(|| {
                PyMemoryError::new_err(format!(
                    "{} entries do not fit in memory; read the table in smaller ranges",
                    stop - start
                ))
            })?;
        self.check_unchanged()?;
        let table = &*self.table;
        py.detach(|| entries.extend((start..stop).map(|i| table.entry(i))));
        Ok(entries)
    }

    /// The table's payload as mapped, a read-only memoryview of bytes (format "B"), without a
    /// copy: the bytes on disk, packed as `encoding` says. "nibble": entry `i` in byte `i // 2`,
    /// the low 4 bits for even `i`, 15 = never reached; "byte": one entry a byte, 255 = never
    /// reached; "mod3": four entries a byte, 2 bits each from the low ones, 3 = never reached;
    /// "based": 64-byte lines of 2-bit codes over a per-line base (read them decoded with
    /// `read` or `array`). The mapping stays while the view, or any array made from it, does.
    fn buffer<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        mapped::memoryview(py, &self.table)
    }

    /// `buffer()` as a read-only numpy array of uint8, sharing the mapping (no copy): the
    /// packed bytes, not one entry each. Needs numpy.
    fn packed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        require(py, "numpy", "Table.packed()")?;
        frames(py, "uint8_array")?.call1((self.buffer(py)?,))
    }

    /// The entries from `start` to `stop` (default: the end) decoded, one uint8 each, as `read`
    /// returns them, in a new writable numpy array: for exact tables the distance, with 15
    /// ("nibble") or 255 ("byte") where a state was never reached. Needs numpy. Raises
    /// IndexError outside the table, MemoryError for a range too large for memory.
    #[pyo3(signature = (start = 0, stop = None))]
    fn array<'py>(
        &self,
        py: Python<'py>,
        start: u64,
        stop: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        require(py, "numpy", "Table.array()")?;
        let stop = stop.unwrap_or(self.entries());
        if start > stop || stop > self.entries() {
            return Err(PyIndexError::new_err(format!(
                "{start}..{stop} is not within the table's {} entries",
                self.entries()
            )));
        }
        let too_large = || {
            PyMemoryError::new_err(format!(
                "{} entries do not fit in memory; read the table in smaller ranges",
                stop - start
            ))
        };
        let len = usize::try_from(stop - start)
            .ok()
            .filter(|&len| isize::try_from(len).is_ok())
            .ok_or_else(too_large)?;
        self.check_unchanged()?;
        let table = &*self.table;
        let bytes = PyByteArray::new_with(py, len, |entries| {
            py.detach(|| {
                for (slot, i) in entries.iter_mut().zip(start..stop) {
                    *slot = table.entry(i);
                }
            });
            Ok(())
        })
        .map_err(|_| too_large())?;
        frames(py, "uint8_array")?.call1((bytes,))
    }

    /// The count of entries at each distance, counted from the entries themselves and checked
    /// against the build histogram and, where known, the published distribution (what
    /// `stats tables` prints): a list, index = depth, or with `as_array=True` a numpy array
    /// (int64; needs numpy). Reads the whole table: a second per 100 M entries or so. Raises
    /// TableError if the entries disagree.
    #[pyo3(signature = (*, as_array = false))]
    fn histogram<'py>(&self, py: Python<'py>, as_array: bool) -> PyResult<Bound<'py, PyAny>> {
        if as_array {
            require(py, "numpy", "histogram(as_array=True)")?;
        }
        let table = &*self.table;
        let checked = py.detach(|| checked_histogram(table));
        if checked.problems.is_empty() {
            let counts = PyList::new(py, checked.histogram)?.into_any();
            if as_array {
                frames(py, "int64_array")?.call1((counts,))
            } else {
                Ok(counts)
            }
        } else {
            Err(table_error(format!(
                "{}: {}; rebuild it with gen-tables --force",
                table.path().display(),
                checked.problems.join("; ")
            )))
        }
    }
}

impl Table {
    /// Raises TableError if the file is no longer the one opened (see `opened`).
    fn check_unchanged(&self) -> PyResult<()> {
        all_unchanged(&self.opened).map_err(table_error)
    }

    /// The value that marks an unreached state, for the exact encodings.
    fn exact_marker(&self) -> PyResult<u8> {
        match self.table.header().encoding {
            Encoding::Nibble => Ok(0xF),
            Encoding::Byte => Ok(0xFF),
            other => Err(TableError::new_err(format!(
                "a {} table does not hold exact distances; read its entries as stored with read()",
                other.name()
            ))),
        }
    }

    fn check_index(&self, index: u64) -> PyResult<()> {
        if index < self.entries() {
            Ok(())
        } else {
            Err(PyIndexError::new_err(format!(
                "index {index} is beyond the table's {} entries",
                self.entries()
            )))
        }
    }
}

/// Rubik's-cube positions, optimal solvers and pattern-database tables, from the cubelab Rust
/// library: Position (parse, print, apply moves), validate, Solver and solve (2x2 and 3x3:
/// optimal, two-phase, layers; timeouts; the GIL released while searching), Table (a table
/// file mapped into memory: distance by index, histogram, its bytes as a buffer without a
/// copy). Tables are built by the `gen-tables` program of the same repository. This is the
/// package's compiled part, `cubelab._cubelab`; python/cubelab/__init__.py re-exports it and
/// adds `read_experiment` (numpy and pandas are optional: `pip install 'cubelab[frames]'`).
#[pymodule(name = "_cubelab")]
fn cubelab_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CubelabError", py.get_type::<CubelabError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("TableError", py.get_type::<TableError>())?;
    m.add_class::<Position>()?;
    m.add_class::<Solver>()?;
    m.add_class::<Table>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(experiment_columns, m)?)?;
    m.add_function(wrap_pyfunction!(coset, m)?)?;
    m.add_function(wrap_pyfunction!(solve_goal, m)?)?;
    m.add_function(wrap_pyfunction!(goal_distribution, m)?)?;
    m.add_class::<puzzle::PuzzleSolver>()?;
    m.add_function(wrap_pyfunction!(puzzle::puzzle_gods, m)?)?;
    Ok(())
}
