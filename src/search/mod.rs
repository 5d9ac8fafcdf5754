//! Searches over the tables.

pub mod canonical;
pub mod descent;
pub mod heuristic;
pub mod ida;
pub mod pocket;
pub mod symmetry;
mod walk;

/// A search that failed. Both variants mean a damaged or wrong table, never bad input: input is
/// validated before it reaches a search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error(
        "the table has no distance for this position; rebuild it with gen-tables --force (it may be damaged)"
    )]
    Unreachable,
    #[error("internal error: the found solution '{0}' does not solve the position")]
    Unverified(String),
}
