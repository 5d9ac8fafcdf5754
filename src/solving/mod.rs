//! Solving a position on request: the one place that picks the solver for a position and a
//! method, opens the tables it needs once (shared by every thread that asks), and answers with an
//! [`Outcome`] that every front end reports: the `solve` command line, the Python module and the
//! HTTP API. Every solution in an outcome has been checked by applying it to the position.

pub mod coset;
pub mod goal;
pub mod puzzle;

use crate::catalogue::TableKind;
use crate::catalogue::group::{self, GroupError, GroupTable};
use crate::model::cube::{Cube2, Cube3, Metric, Move, merge_same_face};
use crate::model::notation::format_moves;
use crate::model::position::{Position, Puzzle};
use crate::search::SolveError;
use crate::search::heuristic::AnyHeuristic;
use crate::search::ida::{IterationStats, SearchLimits, SearchResult, SearchStatus, Solver};
use crate::search::layers::LayersSolver;
use crate::search::pocket::PocketSolver;
use crate::search::twophase::{Improvement, TwoPhaseLimits, TwoPhaseResult, TwoPhaseSolver};
use crate::space::group::{GroupSpaceError, GroupSpec};
use crate::table::{FileIdentity, TableError, all_unchanged, record_opened};
use serde_json::Value;
use std::collections::HashMap;
use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The table the optimal 3x3 search reads in `metric` when none is named. In the half-turn
/// metric it is `h48-eo6`, which `gen-tables` builds by default: of the rungs that build within
/// the default set's budget (five minutes and 4 GB on two cores) it solves random positions
/// fastest (reports/tables.md). The `h48-eo` tables are half-turn only, so the quarter-turn
/// metric reads `ud-layers-f4` (built on request: `gen-tables --metric qtm ud-layers-f4`).
pub const fn default_tables(metric: Metric) -> TableKind {
    match metric {
        Metric::Htm => TableKind::H48Eo6,
        Metric::Qtm => TableKind::UdLayersF4,
    }
}

/// The table an optimal search in `metric` reads: the one `named`, or the metric's default.
/// Every front end resolves `--tables` (or its absence) through this.
pub fn tables_or_default(named: Option<TableKind>, metric: Metric) -> TableKind {
    named.unwrap_or(default_tables(metric))
}

pub use crate::search::layers::{Step, whole_solution};
pub use crate::search::twophase::TwoPhaseStatus;

/// Whether a table of `kind` can guide the optimal search, or the error that says which can.
pub fn check_tables(kind: TableKind) -> Result<(), TableError> {
    AnyHeuristic::check_kind(kind)
}

/// How a 3x3 position is solved (a 2x2 one is always solved optimally, by table descent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// The shortest solution, by IDA* over the pattern databases (seconds to minutes).
    Optimal,
    /// Kociemba's two-phase method: a solution of at most `max_length` moves in milliseconds.
    TwoPhase,
    /// A human method in named stages, each stage's moves the shortest for it.
    Layers,
}

crate::support::named::impl_named!(Method, Method::ALL);

impl Method {
    pub const ALL: [Method; 3] = [Method::Optimal, Method::TwoPhase, Method::Layers];

    pub fn name(self) -> &'static str {
        match self {
            Method::Optimal => "optimal",
            Method::TwoPhase => "two-phase",
            Method::Layers => "layers",
        }
    }
}

/// What is asked of a search, beyond the position.
#[derive(Clone, Debug)]
pub struct Request {
    pub metric: Metric,
    pub method: Method,
    /// 3x3: the table the optimal search's heuristic reads (with `Layers`, its last step's);
    /// `None` reads [`default_tables`] of the metric.
    pub tables: Option<TableKind>,
    /// Every optimal solution, not just one (2x2 and 3x3 optimal).
    pub all: bool,
    /// 3x3: give up beyond this length; two-phase: the longest solution wanted (default 20).
    pub max_length: Option<u32>,
    /// 3x3: give up after this long.
    pub timeout: Option<Duration>,
    /// 3x3 optimal: give up, as at the timeout, once this is set (the server sets it when the
    /// client that asked has gone).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Two-phase: go on improving for this long.
    pub budget: Option<Duration>,
    /// 3x3 optimal: see [`SearchLimits`].
    pub deterministic: bool,
    pub dual: bool,
    pub symmetry: bool,
    /// 3x3 optimal: search on the calling thread only, for callers that solve many positions
    /// at once (see [`SearchLimits::one_thread`]).
    pub one_thread: bool,
}

impl Request {
    /// The table the optimal search reads: the one named, or the metric's default. The layer
    /// method's last step always searches in half turns.
    pub fn tables(&self) -> TableKind {
        let metric = match self.method {
            Method::Layers => Metric::Htm,
            _ => self.metric,
        };
        tables_or_default(self.tables, metric)
    }
}

impl Default for Request {
    fn default() -> Request {
        Request {
            metric: Metric::Htm,
            method: Method::Optimal,
            tables: None,
            all: false,
            max_length: None,
            timeout: None,
            cancel: None,
            budget: None,
            deterministic: false,
            dual: true,
            symmetry: true,
            one_thread: false,
        }
    }
}

/// What a search reports while it runs.
pub enum Progress<'a> {
    /// The optimal search finished an iteration.
    Iteration(&'a IterationStats),
    /// The two-phase search found a shorter solution.
    Improvement(&'a Improvement),
}

/// What happened to one position.
#[derive(Debug)]
pub enum Outcome {
    /// Solved in stages; `solution` is the stages' moves one after another.
    Layers {
        steps: Vec<Step>,
        solution: Vec<Vec<Move>>,
        seconds: f64,
    },
    TwoPhase {
        result: TwoPhaseResult,
        seconds: f64,
    },
    Pocket {
        solutions: Vec<Vec<Move>>,
        seconds: f64,
    },
    Cube {
        result: SearchResult,
        seconds: f64,
    },
    /// Solved within a subgroup: the solution as face turns, and its length in the group's
    /// moves.
    Group {
        solutions: Vec<Vec<Move>>,
        length: u32,
        seconds: f64,
    },
    /// The position cannot be solved as asked (it is not a position, or not in the group).
    Invalid(String),
}

impl Outcome {
    /// `optimal`, `found` (two-phase, not proven optimal), `solved` (layers), `timeout`,
    /// `max-length` or `invalid`.
    pub fn status(&self) -> &'static str {
        match self {
            Outcome::Pocket { .. } | Outcome::Group { .. } => "optimal",
            Outcome::Cube { result, .. } => match result.status {
                SearchStatus::Optimal => "optimal",
                SearchStatus::Timeout => "timeout",
                SearchStatus::MaxLength => "max-length",
            },
            Outcome::TwoPhase { result, .. } => match result.status {
                TwoPhaseStatus::Found => "found",
                TwoPhaseStatus::Optimal => "optimal",
                TwoPhaseStatus::Timeout => "timeout",
                TwoPhaseStatus::MaxLength => "max-length",
            },
            Outcome::Layers { .. } => "solved",
            Outcome::Invalid(_) => "invalid",
        }
    }

    /// Whether the position was solved as asked: optimally, or within the maximum length.
    pub fn solved(&self) -> bool {
        matches!(self.status(), "optimal" | "found" | "solved")
    }

    /// How it was solved; `None` for an invalid position.
    pub fn method(&self) -> Option<Method> {
        match self {
            Outcome::Layers { .. } => Some(Method::Layers),
            Outcome::TwoPhase { .. } => Some(Method::TwoPhase),
            Outcome::Invalid(_) => None,
            _ => Some(Method::Optimal),
        }
    }

    pub fn solutions(&self) -> &[Vec<Move>] {
        match self {
            Outcome::Pocket { solutions, .. } | Outcome::Group { solutions, .. } => solutions,
            Outcome::Cube { result, .. } => &result.solutions,
            Outcome::TwoPhase { result, .. } => result.solution.as_slice(),
            Outcome::Layers { solution, .. } => solution,
            Outcome::Invalid(_) => &[],
        }
    }

    pub fn seconds(&self) -> f64 {
        match self {
            Outcome::Pocket { seconds, .. }
            | Outcome::Cube { seconds, .. }
            | Outcome::TwoPhase { seconds, .. }
            | Outcome::Layers { seconds, .. }
            | Outcome::Group { seconds, .. } => *seconds,
            Outcome::Invalid(_) => 0.0,
        }
    }

    pub fn nodes(&self) -> Option<u64> {
        match self {
            Outcome::Cube { result, .. } => Some(result.nodes()),
            Outcome::TwoPhase { result, .. } => Some(result.phase1_nodes + result.phase2_nodes),
            _ => None,
        }
    }

    /// The proven lower bound on the optimal length, for 3x3 optimal searches.
    pub fn lower_bound(&self) -> Option<u32> {
        match self {
            Outcome::Cube { result, .. } => Some(result.lower_bound),
            _ => None,
        }
    }

    /// 3x3: the symmetries that keep the position, as the search used them, and how many
    /// optimal solutions the reported ones stand for.
    pub fn symmetry(&self) -> Option<(usize, usize)> {
        match self {
            Outcome::Cube { result, .. } => Some((result.symmetries, result.solutions_in_all)),
            _ => None,
        }
    }

    /// The length of `solution` as counted: in `metric`, or in the group's moves.
    pub fn length(&self, metric: Metric, solution: &[Move]) -> u32 {
        match self {
            Outcome::Group { length, .. } => *length,
            _ => metric.length(solution),
        }
    }

    pub fn iterations(&self) -> &[IterationStats] {
        match self {
            Outcome::Cube { result, .. } => &result.iterations,
            _ => &[],
        }
    }

    /// The outcome as one JSON object, the form every front end gives it (`solve --json`,
    /// the HTTP API, the Python module): `input`, `puzzle`, `metric`, `status`, and then either
    /// `error`, or `solution` and `length` with what the method adds (`nodes`, `iterations`,
    /// `lower_bound`, `symmetries`, `stages`, `improvements`...) and `seconds`.
    pub fn to_json(&self, input: &str, puzzle: Option<Puzzle>, shape: &JsonShape) -> Value {
        let mut line = serde_json::json!({
            "input": input,
            "puzzle": puzzle.map(Puzzle::name),
            "metric": shape.metric,
            "status": self.status(),
        });
        if let Outcome::Invalid(message) = self {
            line["error"] = message.as_str().into();
            return line;
        }
        let solutions = self.solutions();
        let inverse =
            |moves: &[Move]| -> Vec<Move> { moves.iter().rev().map(|m| m.inverse()).collect() };
        if let Some(first) = solutions.first() {
            line["solution"] = format_moves(first).into();
            line["length"] = self.length(shape.length_metric, first).into();
            if shape.inverse {
                line["inverse"] = format_moves(&inverse(first)).into();
            }
        }
        if shape.all {
            line["solutions"] = solutions.iter().map(|s| format_moves(s)).collect();
            if shape.inverse {
                line["inverses"] = solutions
                    .iter()
                    .map(|s| format_moves(&inverse(s)))
                    .collect();
            }
        }
        if let Some(at_least) = self.lower_bound().filter(|_| solutions.is_empty()) {
            line["lower_bound"] = at_least.into();
        }
        if let Some((symmetries, in_all)) = self.symmetry() {
            line["symmetries"] = symmetries.into();
            if shape.all {
                line["solutions_in_all"] = in_all.into();
            }
        }
        if let Some(nodes) = self.nodes() {
            line["nodes"] = nodes.into();
        }
        match self {
            Outcome::Cube { .. } => {
                line["iterations"] = serde_json::to_value(self.iterations()).unwrap_or_default();
            }
            Outcome::Layers { steps, .. } => {
                line["method"] = Method::Layers.name().into();
                line["stages"] = steps
                    .iter()
                    .map(|s| {
                        serde_json::json!({
                            "stage": s.stage,
                            "piece": s.piece,
                            "moves": format_moves(&s.moves),
                            "length": s.moves.len(),
                        })
                    })
                    .collect();
            }
            Outcome::TwoPhase { result, .. } => {
                line["method"] = Method::TwoPhase.name().into();
                line["phase1_nodes"] = result.phase1_nodes.into();
                line["phase2_nodes"] = result.phase2_nodes.into();
                line["improvements"] =
                    serde_json::to_value(&result.improvements).unwrap_or_default();
            }
            _ => {}
        }
        line["seconds"] = self.seconds().into();
        line
    }
}

/// What [`Outcome::to_json`] writes beyond the outcome itself.
pub struct JsonShape {
    /// What lengths count, as shown: the metric's name, or the group's moves.
    pub metric: String,
    /// The metric solution lengths are counted in (outside a group).
    pub length_metric: Metric,
    /// Every solution (`solutions`), not just the first.
    pub all: bool,
    /// Also each solution inverted (`inverse`, `inverses`).
    pub inverse: bool,
}

impl JsonShape {
    /// The shape of a plain request: lengths in `metric`, the first solution only.
    pub fn plain(metric: Metric) -> JsonShape {
        JsonShape {
            metric: metric.name().to_string(),
            length_metric: metric,
            all: false,
            inverse: false,
        }
    }
}

/// Why nothing could be solved: a table is missing or damaged. (A position that cannot be
/// solved is an [`Outcome::Invalid`], not an error.)
#[derive(Debug, thiserror::Error)]
pub enum SolvingError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Group(#[from] GroupError),
    #[error(transparent)]
    Search(#[from] SolveError),
}

/// Values opened on first use and shared afterwards, one per key, each with the table files it
/// reads. Opening holds the lock, so two threads asking at once open a table once (a 1.4 GB map
/// or a second of piece tables). A value whose files have changed on disk since (written in
/// place: see [`crate::table::identity`]) is dropped and opened again, so that nothing is
/// answered from a table that is no longer the one checked.
struct OpenedOnce<K, V> {
    opened: Mutex<HashMap<K, Opened<V>>>,
}

/// A value opened, and the identities of the table files it reads.
struct Opened<V> {
    value: Arc<V>,
    files: Arc<[FileIdentity]>,
}

impl<V> Clone for Opened<V> {
    fn clone(&self) -> Self {
        Opened {
            value: Arc::clone(&self.value),
            files: Arc::clone(&self.files),
        }
    }
}

impl<V> Opened<V> {
    /// `answer`, unless a file changed while it was being found: it may then come from
    /// entries of two tables.
    fn checked<T>(&self, answer: T) -> Result<T, SolvingError> {
        all_unchanged(&self.files)?;
        Ok(answer)
    }
}

impl<K: Eq + Hash, V> OpenedOnce<K, V> {
    fn new() -> OpenedOnce<K, V> {
        OpenedOnce {
            opened: Mutex::new(HashMap::new()),
        }
    }

    fn get<E>(&self, key: K, open: impl FnOnce() -> Result<V, E>) -> Result<Opened<V>, E> {
        // A thread that panicked while opening left nothing half-inserted: the map stays sound.
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(value) = opened.get(&key) {
            if all_unchanged(&value.files).is_ok() {
                return Ok(value.clone());
            }
            opened.remove(&key);
        }
        let (value, files) = record_opened(open);
        let value = Opened {
            value: Arc::new(value?),
            files: files.into(),
        };
        opened.insert(key, value.clone());
        Ok(value)
    }
}

/// The solvers over one data directory, each opened when the first position that needs it
/// comes and then shared (the tables are memory maps, read by every thread at once).
pub struct Solvers {
    data_dir: PathBuf,
    pocket: OpenedOnce<Metric, PocketSolver>,
    cube: OpenedOnce<(Metric, TableKind), Solver>,
    two_phase: OpenedOnce<(), TwoPhaseSolver>,
    layers: OpenedOnce<TableKind, LayersSolver>,
    group: OpenedOnce<String, GroupTable>,
}

impl Solvers {
    pub fn new(data_dir: &Path) -> Solvers {
        Solvers {
            data_dir: data_dir.to_path_buf(),
            pocket: OpenedOnce::new(),
            cube: OpenedOnce::new(),
            two_phase: OpenedOnce::new(),
            layers: OpenedOnce::new(),
            group: OpenedOnce::new(),
        }
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Opens what solving a `puzzle` position by `request` needs, so that a missing table is
    /// reported before any position is searched.
    pub fn open_for(&self, puzzle: Puzzle, request: &Request) -> Result<(), SolvingError> {
        match (puzzle, request.method) {
            (Puzzle::Pocket, _) => self.pocket_solver(request.metric).map(drop),
            (Puzzle::Cube, Method::Optimal) => self.cube_solver(request).map(drop),
            (Puzzle::Cube, Method::TwoPhase) => self.two_phase_solver().map(drop),
            (Puzzle::Cube, Method::Layers) => self.layers_solver(request.tables()).map(drop),
        }
    }

    fn pocket_solver(&self, metric: Metric) -> Result<Opened<PocketSolver>, SolvingError> {
        Ok(self
            .pocket
            .get(metric, || PocketSolver::open(&self.data_dir, metric))?)
    }

    /// The optimal 3x3 solver over `tables` in `metric`, opened once and shared (the last
    /// layer's goal asks it directly).
    pub fn optimal_solver(
        &self,
        metric: Metric,
        tables: TableKind,
    ) -> Result<Arc<Solver>, SolvingError> {
        let request = Request {
            metric,
            tables: Some(tables),
            ..Request::default()
        };
        Ok(self.cube_solver(&request)?.value)
    }

    fn cube_solver(&self, request: &Request) -> Result<Opened<Solver>, SolvingError> {
        let tables = request.tables();
        Ok(self.cube.get((request.metric, tables), || {
            AnyHeuristic::open(&self.data_dir, request.metric, tables).map(Solver::new)
        })?)
    }

    fn two_phase_solver(&self) -> Result<Opened<TwoPhaseSolver>, SolvingError> {
        Ok(self
            .two_phase
            .get((), || TwoPhaseSolver::open(&self.data_dir))?)
    }

    fn layers_solver(&self, finisher: TableKind) -> Result<Opened<LayersSolver>, SolvingError> {
        Ok(self
            .layers
            .get(finisher, || LayersSolver::open(&self.data_dir, finisher))?)
    }

    /// Solves a position as `request` asks; `progress` hears of each optimal iteration and
    /// each two-phase improvement. The method matters only for the 3x3.
    pub fn solve(
        &self,
        position: &Position,
        request: &Request,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Outcome, SolvingError> {
        match position {
            Position::Pocket(cube) => {
                let solver = self.pocket_solver(request.metric)?;
                solver.checked(solve_pocket(&solver.value, cube, request.all))
            }
            Position::Cube(cube) => match request.method {
                Method::Optimal => {
                    let solver = self.cube_solver(request)?;
                    solver.checked(solve_cube(&solver.value, cube, request, progress)?)
                }
                Method::TwoPhase => {
                    let solver = self.two_phase_solver()?;
                    solver.checked(solve_two_phase(&solver.value, cube, request, progress)?)
                }
                Method::Layers => {
                    let solver = self.layers_solver(request.tables())?;
                    solver.checked(solve_layers(&solver.value, cube)?)
                }
            },
        }
    }

    /// Solves a position optimally within the subgroup `spec`, from its table; a position
    /// outside the group (or of the other puzzle) is an [`Outcome::Invalid`].
    pub fn solve_in_group(
        &self,
        position: &Position,
        spec: &GroupSpec,
    ) -> Result<Outcome, SolvingError> {
        let key = serde_json::to_string(spec).unwrap_or_default();
        let table = self
            .group
            .get(key, || GroupTable::open(&self.data_dir, spec))?;
        table.checked(solve_group(&table.value, spec, position))
    }
}

fn solve_group(table: &GroupTable, spec: &GroupSpec, position: &Position) -> Outcome {
    let start = Instant::now();
    let cube = match (position, spec.puzzle()) {
        (Position::Cube(c), Puzzle::Cube) => *c,
        // Held with the DBL corner in place, as the group's moves keep it.
        (Position::Pocket(c), Puzzle::Pocket) => Cube3 {
            corners: c.normalised().corners,
            edges: Cube3::SOLVED.edges,
        },
        (p, _) => {
            return Outcome::Invalid(format!(
                "the position is a {}, the group is of the {}",
                p.puzzle(),
                spec.puzzle()
            ));
        }
    };
    let moves = match table.solve(&cube) {
        Ok(moves) => moves,
        Err(GroupError::Space(GroupSpaceError::NotInGroup)) => {
            return Outcome::Invalid(format!("the position is not in the group {spec}"));
        }
        Err(e) => return Outcome::Invalid(e.to_string()),
    };
    let turns: Vec<Move> = moves.iter().flat_map(|m| m.turns.iter().copied()).collect();
    let end = cube.apply_all(&turns);
    let solved = match spec.puzzle() {
        Puzzle::Pocket => end.corners == Cube3::SOLVED.corners,
        Puzzle::Cube => end.is_solved(),
    };
    if !solved {
        let dir = table.path().parent().unwrap_or(Path::new("."));
        return Outcome::Invalid(format!(
            "the solution found ({}) does not solve the position: the group's table is damaged; rebuild it with `{}`",
            format_moves(&turns),
            group::build_command(dir, spec)
        ));
    }
    // Printed with a face's consecutive turns joined (U U as U2), except where only the
    // turns as given are moves.
    let shown = if spec.metric.has_inverses() {
        merge_same_face(&turns)
    } else {
        turns
    };
    Outcome::Group {
        solutions: vec![shown],
        length: moves.len() as u32,
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn solve_pocket(solver: &PocketSolver, cube: &Cube2, all: bool) -> Outcome {
    let start = Instant::now();
    let result = if all {
        solver.solve_all(cube)
    } else {
        solver.solve(cube).map(|s| vec![s])
    };
    match result {
        Ok(solutions) => Outcome::Pocket {
            solutions,
            seconds: start.elapsed().as_secs_f64(),
        },
        Err(e) => Outcome::Invalid(e.to_string()),
    }
}

fn solve_cube(
    solver: &Solver,
    cube: &Cube3,
    request: &Request,
    progress: &mut dyn FnMut(Progress),
) -> Result<Outcome, SolvingError> {
    let limits = SearchLimits {
        max_length: request.max_length,
        timeout: request.timeout,
        cancel: request.cancel.clone(),
        all: request.all,
        dual: request.dual,
        deterministic: request.deterministic,
        symmetry: request.symmetry,
        one_thread: request.one_thread,
    };
    let start = Instant::now();
    let result = solver.solve(cube, limits, |it| progress(Progress::Iteration(it)))?;
    Ok(Outcome::Cube {
        result,
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn solve_layers(solver: &LayersSolver, cube: &Cube3) -> Result<Outcome, SolvingError> {
    let start = Instant::now();
    let steps = solver.solve(cube)?;
    let solution = vec![crate::search::layers::whole_solution(&steps)];
    Ok(Outcome::Layers {
        steps,
        solution,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The longest two-phase solution wanted when the request names none: every position has one
/// of 20 moves.
pub const TWO_PHASE_MAX_LENGTH: u32 = 20;

fn solve_two_phase(
    solver: &TwoPhaseSolver,
    cube: &Cube3,
    request: &Request,
    progress: &mut dyn FnMut(Progress),
) -> Result<Outcome, SolvingError> {
    let limits = TwoPhaseLimits {
        max_length: request.max_length.unwrap_or(TWO_PHASE_MAX_LENGTH),
        budget: request.budget,
        timeout: request.timeout,
        fruitless_ud_phase1: None,
    };
    let start = Instant::now();
    let result = solver.solve(cube, limits, &mut |found| {
        progress(Progress::Improvement(found))
    })?;
    Ok(Outcome::TwoPhase {
        result,
        seconds: start.elapsed().as_secs_f64(),
    })
}
