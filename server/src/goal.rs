//! `POST /goal`: a partial goal's optimal solutions (the cross, an xcross, a piece mask), as
//! `solve --goal --json` gives them.
//!
//! A goal's answer is a table look-up per view and a walk of a few moves: milliseconds, so it
//! runs on the quick threads; a goal of several places at once (the xxcross) is searched and
//! takes a search thread. Its table is opened once and kept; a missing one is built in the
//! request only if it is small (at most [`BUILD_IN_REQUEST`] entries, the xcross's 73 million
//! in about 10 s) and the server's requests have built less than [`BUILD_BUDGET`] entries
//! so far, else it is a 409 naming the command that builds it. A build holds the lock of its
//! own table only.

use super::{ApiError, ApiResult, ClientAddress, Server, body, named, positions_asked};
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode};
use cubelab::catalogue::goal::{Goal, GoalTable, GoalTables, Orientations, build_command};
use cubelab::model::cube::Metric;
use cubelab::model::goal_mask::GoalMask;
use cubelab::model::position::{Form, Position, Puzzle, parse_position};
use cubelab::solving::goal::{GoalAnswerer, GoalSolver, LastLayerSolver};
use cubelab::space::goal::GoalSpace;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The largest goal table a request builds.
pub const BUILD_IN_REQUEST: u128 = 1 << 27;
/// The most solutions `all` returns for one position.
const MAX_SOLUTIONS: usize = 1_000;

/// The most entries of goal tables the requests to one server may build by default, all
/// together ([`super::Limits::builds`]): about twenty xcross-sized tables. Each distinct mask has a table of its own, so without a budget
/// requests for thousands of masks would fill the disk; past it a missing table is a 409
/// naming the command that builds it offline.
pub const BUILD_BUDGET: u128 = 20 << 27;

/// One goal table, once opened; its lock is held while it is opened, by that request alone.
type TableCell = Arc<Mutex<Option<Arc<GoalTable>>>>;

/// The goal tables a server has opened: per mask and metric a cell, whose lock a request
/// holds while it opens or builds that table alone, so that a request for a table already
/// open never waits behind another's build, and two requests never build one table twice.
#[derive(Default)]
pub struct OpenGoals {
    cells: Mutex<HashMap<(GoalMask, Metric), TableCell>>,
    /// The entries the requests have built so far (see [`super::Limits::builds`]).
    built: Mutex<u128>,
}

impl Server {
    /// `goal`'s table in `metric`, opened once: built first if missing (or numbered by an older
    /// layout) and small; a larger one only opened, a 409 naming its command if that fails.
    /// The lock is held through a build, so that two requests never build one table twice.
    fn goal_tables(&self, goal: &Goal, metric: Metric) -> Result<GoalTables, ApiError> {
        let own = self.goal_table(goal, goal.mask, metric)?;
        let helpers = goal
            .helpers
            .iter()
            .map(|&mask| self.goal_table(goal, mask, metric))
            .collect::<Result<_, _>>()?;
        Ok(GoalTables { own, helpers })
    }

    /// One of `goal`'s tables, `mask`'s, as [`Server::goal_tables`] opens them.
    fn goal_table(
        &self,
        goal: &Goal,
        mask: GoalMask,
        metric: Metric,
    ) -> Result<Arc<GoalTable>, ApiError> {
        let key = (mask, metric);
        let cell = {
            let mut cells = self
                .goal_tables
                .cells
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            Arc::clone(cells.entry(key).or_default())
        };
        let mut slot = cell.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(table) = slot.as_ref() {
            return Ok(Arc::clone(table));
        }
        let dir = self.data_dir();
        // A goal too large for any table is the request's fault, whatever is on disk.
        GoalSpace::new(mask, metric).map_err(|e| ApiError::bad(e.to_string()))?;
        let entries = GoalSpace::entries(&mask);
        let offline = |why: String| ApiError {
            status: StatusCode::CONFLICT,
            message: format!(
                "the goal {}'s table of {mask} {why}; build it with `{}`",
                goal.name,
                build_command(dir, &mask, metric)
            ),
        };
        let table = match GoalTable::open(dir, &mask, metric) {
            Ok(table) => table,
            Err(e) if entries > BUILD_IN_REQUEST => {
                return Err(offline(format!("is too large to build in a request ({e})")));
            }
            Err(_) => {
                // Counted before the build, so that requests building at once share the budget.
                {
                    let mut built = self
                        .goal_tables
                        .built
                        .lock()
                        .unwrap_or_else(|e| e.into_inner());
                    if *built + entries > self.limits.builds {
                        return Err(offline(format!(
                            "is not built, and this server's requests have built their share of goal tables ({} of {} entries)",
                            *built, self.limits.builds
                        )));
                    }
                    *built += entries;
                }
                let progress = indicatif::ProgressBar::hidden();
                GoalTable::open_or_build(dir, &mask, metric, &progress).map_err(|e| ApiError {
                    status: StatusCode::INTERNAL_SERVER_ERROR,
                    message: e.to_string(),
                })?
            }
        };
        let table = Arc::new(table);
        *slot = Some(Arc::clone(&table));
        Ok(table)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalBody {
    /// A goal's name or a piece mask, as `solve --goal` takes it.
    goal: String,
    position: Option<String>,
    positions: Option<Vec<String>>,
    metric: Option<String>,
    /// fixed, dual, 6 or 24.
    orientations: Option<String>,
    /// Every optimal solution, not one.
    #[serde(default)]
    all: bool,
}

pub(super) async fn goal(
    State(server): State<Arc<Server>>,
    client: Option<axum::Extension<ClientAddress>>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let asked: GoalBody = body(&headers, bytes)?;
    let (texts, single) = positions_asked(asked.position, asked.positions, &server.limits)?;
    let metric: Metric = named("metric", asked.metric.as_deref().unwrap_or("htm"))?;
    let orientations: Orientations = named(
        "orientations",
        asked.orientations.as_deref().unwrap_or("fixed"),
    )?;
    // The last layer is the optimal solver's: no goal table.
    let last_layer = cubelab::catalogue::goal::names_last_layer(&asked.goal);
    let goal = if last_layer {
        None
    } else {
        Some(Goal::parse(&asked.goal).map_err(|e| ApiError::bad(e.to_string()))?)
    };
    let cubes: Vec<Result<_, String>> = texts
        .iter()
        .map(
            |t| match parse_position(t, Some(Puzzle::Cube), Form::Auto) {
                Ok(Position::Cube(cube)) => Ok(cube),
                Ok(Position::Pocket(_)) => Err("a 2x2 position; goals are for the 3x3".into()),
                Err(e) => Err(e.to_string()),
            },
        )
        .collect();
    if single && let Err(message) = &cubes[0] {
        return Err(ApiError::bad(message.clone()));
    }
    let client = client.map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.0);
    // A goal of several places at once is searched (up to a second a position): it takes a
    // search thread, as an optimal solve does.
    let searched = goal.as_ref().is_none_or(|g| g.places.at_once() > 1);
    let permit = server.permits(client, searched).await?;
    let worker = Arc::clone(&server);
    let all = asked.all;
    let answers = tokio::task::spawn_blocking(move || -> Result<Vec<Value>, ApiError> {
        let _permit = permit;
        let solver = match goal {
            Some(goal) => {
                let tables = worker.goal_tables(&goal, metric)?;
                GoalAnswerer::Pieces(GoalSolver::new(goal, tables, orientations))
            }
            None => {
                let optimal = worker
                    .solvers
                    .optimal_solver(metric, worker.optimal_table(metric))
                    .map_err(|e| ApiError {
                        status: StatusCode::CONFLICT,
                        message: e.to_string(),
                    })?;
                GoalAnswerer::LastLayer(LastLayerSolver::new(optimal, orientations))
            }
        };
        Ok(texts
            .iter()
            .zip(&cubes)
            .map(|(text, cube)| {
                // A position the goal cannot take and a defect alike are the position's error.
                let answer = cube
                    .as_ref()
                    .map_err(Clone::clone)
                    .and_then(|cube| solver.report(cube, all, MAX_SOLUTIONS).and_then(|r| r));
                match answer {
                    Ok(report) => {
                        let mut value = json!(report);
                        value["position"] = json!(text);
                        value
                    }
                    Err(message) => json!({ "position": text, "error": message }),
                }
            })
            .collect())
    })
    .await
    .map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("the goal search failed: {e}"),
    })??;
    Ok(axum::Json(if single {
        answers.into_iter().next().unwrap_or(Value::Null)
    } else {
        json!({ "answers": answers })
    }))
}
