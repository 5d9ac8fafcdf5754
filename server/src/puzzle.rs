//! `POST /puzzle/solve` and `POST /puzzle/gods`: any puzzle, as `cubelab puzzle solve --json`
//! and `cubelab puzzle gods --json` answer them, named by its KPuzzle definition's name in the
//! data directory's `puzzles/` (a request names no file) or given whole in the request
//! (`definition`, as cubing.js emits it), with an optional sub-goal (`goal`, a pattern).
//!
//! A solver is opened once per question (puzzle, moves, metric, forgotten twists, goal) and kept
//! (the last [`OPEN_SOLVERS`] questions); its pattern databases are mapped when kept in the
//! data directory, and a missing one is built in the request only if it is small (at most
//! [`BUILD_IN_REQUEST`] states, about a second) and the server's requests have built fewer
//! than [`super::Limits::builds`] states so far, else it is a 409 naming the command that
//! builds it. God's algorithm runs
//! in the request only over spaces of at most [`BUILD_IN_REQUEST`] states. Both take a search
//! thread; a solve's positions share the request's search time.

use super::{ApiError, ApiResult, ClientAddress, Server, body, one_or_many};
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode};
use cubelab::model::kpuzzle::{KPuzzleDefinition, Metric};
use cubelab::solving::puzzle::{
    GodsOptions, OpenedSolver, PuzzleError, PuzzleLimits, PuzzleSolver, PuzzleSpace, SolverRequest,
    SpaceRequest, TableSource, definition_names, gods, open_definition, open_solver,
    solve_scramble,
};
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most states a table built in a request, or a God's algorithm run, may hold.
pub const BUILD_IN_REQUEST: u64 = 1 << 25;
/// The most states one pattern database of a served solver may hold (as `puzzle solve`'s
/// default).
const TABLE_STATES: u64 = cubelab::solving::puzzle::DEFAULT_TABLE_STATES;
/// The most solutions `all` returns for one position.
const MAX_SOLUTIONS: usize = 1_000;
/// The most antipodes a God's algorithm answer lists.
const ANTIPODES: usize = 100;
/// The most solvers kept open (each maps its databases); the oldest is dropped for a new one.
const OPEN_SOLVERS: usize = 16;

/// What identifies a solver: the puzzle (its name, or the text of a definition given whole), the
/// moves, the metric, the forgotten twists and the goal.
type SolverKey = (String, String, Metric, Vec<String>, Option<String>);

/// One question's solver, once opened; its lock is held while it is opened, by that request
/// alone.
type SolverCell = Arc<Mutex<Option<Arc<OpenPuzzle>>>>;

/// The puzzle solvers a server has opened, oldest first: a request holds the lock of its own
/// question's cell while it opens (and may build) that solver, so that a request for a solver
/// already open never waits behind another's build.
#[derive(Default)]
pub struct OpenPuzzles {
    cells: Mutex<Vec<(SolverKey, SolverCell)>>,
    /// The states of the pattern databases requests have built so far (see
    /// [`super::Limits::builds`]).
    built: Mutex<u128>,
}

/// A solver and the definition its positions are read with.
struct OpenPuzzle {
    solver: PuzzleSolver,
    definition: cubelab::model::kpuzzle::KPuzzleDefinition,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleBody {
    /// A definition's name in the data directory's `puzzles/` (`pyraminx`, `skewb`...)...
    puzzle: Option<String>,
    /// ...or the definition itself, a KPuzzle definition object.
    definition: Option<Value>,
    /// A goal other than the solved pattern, as cubing.js's pattern object (pieces given one
    /// value are alike): a sub-goal.
    goal: Option<Value>,
    /// Generator moves, comma-separated: every power of each is a move.
    moves: String,
    /// htm (every power one move) or qtm (a power costs its amount).
    metric: Option<String>,
    /// Orbits whose twists do not count.
    #[serde(default)]
    ignore_orientation: Vec<String>,
    /// For solve: one position, or several, as algorithms that make them.
    scramble: Option<String>,
    scrambles: Option<Vec<String>>,
    /// For solve: every optimal solution, not one.
    #[serde(default)]
    all: bool,
    /// For solve: give up beyond this many moves.
    max_length: Option<u32>,
    /// Seconds of search, at most the server's limit (which is also the default).
    timeout: Option<f64>,
}

/// The puzzle a request asks about.
enum Asked {
    /// By name, from the data directory's `puzzles/`.
    Named(String),
    /// Given whole; `key` is its text, which keys its solver (a hash could be made to collide
    /// with another client's definition).
    Given {
        definition: Box<KPuzzleDefinition>,
        key: String,
    },
}

impl Asked {
    /// What keys this puzzle's solvers.
    fn key(&self) -> String {
        match self {
            Asked::Named(name) => name.clone(),
            Asked::Given { key, .. } => key.clone(),
        }
    }

    /// The definition: read from `dir` when named.
    fn open(&self, dir: &std::path::Path) -> Result<KPuzzleDefinition, ApiError> {
        match self {
            Asked::Named(name) => Ok(open_definition(dir, name)
                .map_err(|e| api_error(dir, e))?
                .definition),
            Asked::Given { definition, .. } => Ok((**definition).clone()),
        }
    }

    /// How `cubelab puzzle` names it in a hint.
    fn shown(&self) -> &str {
        match self {
            Asked::Named(name) => name,
            Asked::Given { .. } => "DEFINITION.json",
        }
    }
}

impl PuzzleBody {
    /// The question, read: a definition named (never a path) or given whole, the moves,
    /// metric and goal.
    fn request(&self) -> Result<(Asked, SpaceRequest), ApiError> {
        let asked = match (&self.puzzle, &self.definition) {
            (Some(name), None) => {
                let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
                if name.is_empty() || name.len() > 64 || !name.chars().all(plain) {
                    return Err(ApiError::bad(format!(
                        "puzzle '{}': give the name of a definition in the server's puzzles/ (letters, digits, _ and -), e.g. pyraminx, or the definition itself as 'definition'",
                        name.chars().take(64).collect::<String>()
                    )));
                }
                Asked::Named(name.clone())
            }
            (None, Some(definition)) => {
                let text = definition.to_string();
                let read = KPuzzleDefinition::from_json_str(&text)
                    .map_err(|e| ApiError::bad(format!("definition: {e}")))?;
                Asked::Given {
                    definition: Box::new(read),
                    key: format!("given:{text}"),
                }
            }
            _ => {
                return Err(ApiError::bad(
                    "give the puzzle by 'puzzle' (a definition's name in the server's puzzles/) or by 'definition' (a KPuzzle definition object), one of the two",
                ));
            }
        };
        let metric = match self.metric.as_deref().unwrap_or("htm") {
            "htm" => Metric::Htm,
            "qtm" => Metric::Qtm,
            other => {
                return Err(ApiError::bad(format!(
                    "metric '{other}': give htm (every power of a generator one move) or qtm (a power costs its amount)"
                )));
            }
        };
        let request = SpaceRequest {
            moves: self.moves.clone(),
            metric,
            ignore_orientation: self.ignore_orientation.clone(),
            goal: self.goal.as_ref().map(Value::to_string),
        };
        Ok((asked, request))
    }
}

/// A library error as the status it is: the request's mistake (400), a definition that is
/// not in `dir`'s puzzles/ (404, naming those that are), a table too large to build here
/// (409), memory (507), else 500.
fn api_error(dir: &std::path::Path, e: PuzzleError) -> ApiError {
    if let PuzzleError::UnknownPuzzle { name, .. } = &e {
        let names = definition_names(dir);
        return ApiError {
            status: StatusCode::NOT_FOUND,
            message: if names.is_empty() {
                format!(
                    "no puzzle '{name}' here: this server has no definitions yet (scripts/puzzle-definitions.sh DATA_DIR/puzzles writes cubing.js's)"
                )
            } else {
                format!(
                    "no puzzle '{name}' here; this server has: {}",
                    names.join(", ")
                )
            },
        };
    }
    let status = match &e {
        PuzzleError::UnknownPuzzle { .. } => StatusCode::NOT_FOUND,
        PuzzleError::Moves(_)
        | PuzzleError::UnknownOrbit(..)
        | PuzzleError::Space(_)
        | PuzzleError::Goal(_)
        | PuzzleError::NoProjection { .. }
        | PuzzleError::Scramble(..)
        | PuzzleError::Unsolvable(_) => StatusCode::BAD_REQUEST,
        PuzzleError::NotBuilt { .. } => StatusCode::CONFLICT,
        PuzzleError::NotEnoughMemory { .. } | PuzzleError::TablesTooLarge { .. } => {
            StatusCode::INSUFFICIENT_STORAGE
        }
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    ApiError {
        status,
        message: e.to_string(),
    }
}

impl Server {
    /// The solver of `request` on `puzzle`, opened once and kept: its small databases built
    /// if missing, its large ones only mapped. The lock is held through a build, so that two
    /// requests never build one table twice.
    fn puzzle_solver(
        &self,
        puzzle: &Asked,
        request: &SpaceRequest,
    ) -> Result<Arc<OpenPuzzle>, ApiError> {
        let key: SolverKey = (
            puzzle.key(),
            request.moves.clone(),
            request.metric,
            request.ignore_orientation.clone(),
            request.goal.clone(),
        );
        let cell = {
            let mut cells = self.puzzles.cells.lock().unwrap_or_else(|e| e.into_inner());
            match cells.iter().find(|(k, _)| *k == key) {
                Some((_, cell)) => Arc::clone(cell),
                None => {
                    if cells.len() == OPEN_SOLVERS {
                        cells.remove(0);
                    }
                    let cell = SolverCell::default();
                    cells.push((key, Arc::clone(&cell)));
                    cell
                }
            }
        };
        let mut slot = cell.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = slot.as_ref() {
            return Ok(Arc::clone(open));
        }
        let dir = self.data_dir();
        let definition = puzzle.open(dir)?;
        let spent = *self.puzzles.built.lock().unwrap_or_else(|e| e.into_inner());
        let solver_request = SolverRequest {
            space: request.clone(),
            per_table: TABLE_STATES,
            tables: Some(dir.to_path_buf()),
            // Past the server's budget, nothing more is built in a request.
            build_at_most: Some(if spent < self.limits.builds {
                BUILD_IN_REQUEST
            } else {
                0
            }),
        };
        let progress = indicatif::ProgressBar::hidden();
        let OpenedSolver { solver, sources } =
            open_solver(&definition, &solver_request, &progress).map_err(|e| api_error(dir, e))?;
        let built: u128 = solver
            .projections()
            .iter()
            .zip(&sources)
            .filter(|(_, source)| matches!(source, TableSource::Written(_)))
            .map(|(p, _)| u128::from(p.states()))
            .sum();
        *self.puzzles.built.lock().unwrap_or_else(|e| e.into_inner()) += built;
        let open = Arc::new(OpenPuzzle { solver, definition });
        *slot = Some(Arc::clone(&open));
        Ok(open)
    }
}

/// The search time a request asks for: at most the server's, which is the default.
fn search_time(asked: Option<f64>, most: Duration) -> Result<Duration, ApiError> {
    match asked {
        None => Ok(most),
        Some(s) if s.is_finite() && s > 0.0 => Ok(Duration::from_secs_f64(s).min(most)),
        Some(s) => Err(ApiError::bad(format!(
            "timeout {s}: give a number of seconds above 0"
        ))),
    }
}

/// `POST /puzzle/solve`: optimal solutions of each scramble, each checked by the definition's
/// moves before it is answered.
pub(super) async fn solve(
    State(server): State<Arc<Server>>,
    client: Option<axum::Extension<ClientAddress>>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let asked: PuzzleBody = body(&headers, bytes)?;
    let (puzzle, request) = asked.request()?;
    let (scrambles, single) = one_or_many(
        asked.scramble,
        asked.scrambles,
        ("scramble", "scrambles"),
        &server.limits,
    )?;
    let search = search_time(asked.timeout, server.limits.search)?;
    let client = client.map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.0);
    let permit = server.permits(client, true).await?;
    let worker = Arc::clone(&server);
    let (all, max_length) = (asked.all, asked.max_length);
    let answers = tokio::task::spawn_blocking(move || -> Result<Vec<Value>, ApiError> {
        let _permit = permit;
        let open = worker.puzzle_solver(&puzzle, &request)?;
        let started = Instant::now();
        let mut answers = Vec::new();
        for scramble in &scrambles {
            let limits = PuzzleLimits {
                all,
                max_length,
                // The request's positions share its search time.
                timeout: Some(search.saturating_sub(started.elapsed())),
            };
            let answer = match solve_scramble(&open.solver, &open.definition, scramble, &limits) {
                Ok(mut solved) => {
                    if let Some(solutions) = &mut solved.solutions {
                        solutions.truncate(MAX_SOLUTIONS);
                    }
                    json!(solved)
                }
                Err(e) => json!({ "scramble": scramble, "error": e.to_string() }),
            };
            answers.push(answer);
        }
        Ok(answers)
    })
    .await
    .map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("the puzzle search failed: {e}"),
    })??;
    if single && let Some(error) = answers[0].get("error").and_then(Value::as_str) {
        return Err(ApiError::bad(error.to_string()));
    }
    Ok(axum::Json(if single {
        answers.into_iter().next().unwrap_or(Value::Null)
    } else {
        json!({ "answers": answers })
    }))
}

/// `POST /puzzle/gods`: God's algorithm over a space of at most [`BUILD_IN_REQUEST`] states.
pub(super) async fn gods_run(
    State(server): State<Arc<Server>>,
    client: Option<axum::Extension<ClientAddress>>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let asked: PuzzleBody = body(&headers, bytes)?;
    let (puzzle, request) = asked.request()?;
    if asked.scramble.is_some() || asked.scrambles.is_some() || asked.all {
        return Err(ApiError::bad(
            "God's algorithm takes no scramble nor 'all': send those to /puzzle/solve",
        ));
    }
    let client = client.map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.0);
    let permit = server.permits(client, true).await?;
    let dir = server.data_dir().to_path_buf();
    let answer = tokio::task::spawn_blocking(move || -> Result<Value, ApiError> {
        let _permit = permit;
        let definition = puzzle.open(&dir)?;
        let space = PuzzleSpace::new(&definition, &request).map_err(|e| api_error(&dir, e))?;
        let states = cubelab::space::StateSpace::size(&space.space);
        if states > BUILD_IN_REQUEST {
            return Err(ApiError {
                status: StatusCode::CONFLICT,
                message: format!(
                    "{} has {states} states under these moves, more than the {BUILD_IN_REQUEST} a request may run: run `cubelab puzzle gods {} --moves {}` instead",
                    definition.name(),
                    puzzle.shown(),
                    request.moves
                ),
            });
        }
        let options = GodsOptions {
            checkpoint: None,
            antipodes: ANTIPODES,
            memory: None,
        };
        let progress = indicatif::ProgressBar::hidden();
        let answer = gods(&space, definition.name(), &options, &progress)
            .map_err(|e| api_error(&dir, e))?;
        Ok(json!(answer))
    })
    .await
    .map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("God's algorithm failed: {e}"),
    })??;
    Ok(axum::Json(answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_is_a_name_never_a_path() {
        let body = |puzzle: &str| PuzzleBody {
            puzzle: Some(puzzle.to_string()),
            definition: None,
            goal: None,
            moves: "U".into(),
            metric: None,
            ignore_orientation: Vec::new(),
            scramble: None,
            scrambles: None,
            all: false,
            max_length: None,
            timeout: None,
        };
        for bad in ["/etc/passwd", "../x", "a.json", "", "pyra minx"] {
            let e = body(bad).request().err().map(|e| e.message);
            assert!(
                e.is_some_and(|m| m.contains("name of a definition")),
                "{bad}"
            );
        }
        assert!(body("master_tetraminx").request().is_ok());
        assert!(body("2x2x2").request().is_ok());
    }

    #[test]
    fn search_time_is_at_most_the_servers() {
        let most = Duration::from_secs(10);
        assert_eq!(search_time(None, most).ok(), Some(most));
        assert_eq!(search_time(Some(99.0), most).ok(), Some(most));
        assert_eq!(
            search_time(Some(0.5), most).ok(),
            Some(Duration::from_millis(500))
        );
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(search_time(Some(bad), most).is_err(), "{bad}");
        }
    }
}
