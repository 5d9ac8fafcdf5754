//! Partial goals through the one door: a goal named as a user names it (the cross, an xcross,
//! a piece mask, or `ll`, the last layer), and the solver that answers it. A goal of pieces is
//! answered from its own tables (built on first use); the last layer by the optimal solver over
//! the metric's [`default_tables`](super::default_tables) or the tables asked for.

use crate::catalogue::TableKind;
use crate::catalogue::goal::{Goal, GoalError, GoalTables, Orientations};
use crate::model::cube::Metric;
use crate::model::goal_mask::GoalMask;
use crate::search::heuristic::AnyHeuristic;
use crate::search::ida::Solver;
use crate::table::TableError;
use indicatif::ProgressBar;
use std::path::Path;
use std::sync::Arc;

pub use crate::catalogue::goal::names_last_layer;
pub use crate::search::goal::{GoalReport, GoalSolver, column_histogram, sample_lengths};
pub use crate::search::last_layer::{
    GoalAnswerer, LastLayerError, LastLayerSolver, LastLayerTable, NAME as LAST_LAYER, POSITIONS,
    histograms,
};

/// Why a goal's solver could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum GoalOpenError {
    /// The goal names nothing (an unknown name, a malformed mask) or a space too large.
    #[error(transparent)]
    Goal(#[from] GoalError),
    /// A table of the last layer's optimal solver is missing or damaged.
    #[error(transparent)]
    Table(#[from] TableError),
}

/// The optimal solver over `tables` of `metric` in `dir`.
pub fn optimal_solver(dir: &Path, metric: Metric, tables: TableKind) -> Result<Solver, TableError> {
    AnyHeuristic::open(dir, metric, tables).map(Solver::new)
}

/// The solver of a goal of pieces, its tables opened (and built first where missing; `progress`
/// makes the bar of each mask's build).
pub fn piece_goal_solver(
    dir: &Path,
    goal: Goal,
    metric: Metric,
    orientations: Orientations,
    progress: &dyn Fn(&GoalMask) -> ProgressBar,
) -> Result<GoalSolver, GoalError> {
    let tables = GoalTables::open_or_build(dir, &goal, metric, progress)?;
    Ok(GoalSolver::new(goal, tables, orientations))
}

/// The answerer of the goal `text` names: the last layer's by the optimal solver over `tables`
/// (or the metric's default), any other goal's from its own tables.
pub fn goal_answerer(
    dir: &Path,
    text: &str,
    metric: Metric,
    orientations: Orientations,
    tables: Option<TableKind>,
    progress: &dyn Fn(&GoalMask) -> ProgressBar,
) -> Result<GoalAnswerer, GoalOpenError> {
    if names_last_layer(text) {
        let tables = super::tables_or_default(tables, metric);
        let solver = optimal_solver(dir, metric, tables)?;
        return Ok(GoalAnswerer::LastLayer(LastLayerSolver::new(
            Arc::new(solver),
            orientations,
        )));
    }
    let goal = Goal::parse(text)?;
    Ok(GoalAnswerer::Pieces(piece_goal_solver(
        dir,
        goal,
        metric,
        orientations,
        progress,
    )?))
}

/// The table of the last layer's optimal lengths in `metric`: opened, or solved class by class
/// by the optimal solver over the metric's [`default_tables`](super::default_tables) and kept first (minutes;
/// `progress` counts classes).
pub fn last_layer_table(
    dir: &Path,
    metric: Metric,
    progress: &ProgressBar,
) -> Result<LastLayerTable, LastLayerError> {
    let solver = || optimal_solver(dir, metric, super::default_tables(metric));
    LastLayerTable::open_or_build(dir, metric, solver, progress)
}
