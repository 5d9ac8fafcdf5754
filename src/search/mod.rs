//! Searches over the tables.

pub mod canonical;
pub mod coset;
pub mod coset_finish;
mod coset_gather;
mod coset_set;
pub mod cosets;
pub mod descent;
pub mod goal;
pub mod heuristic;
pub mod ida;
pub mod into_h;
pub mod last_layer;
pub mod layers;
pub mod pocket;
pub mod puzzle;
pub mod symmetry;
pub mod twophase;
mod walk;

/// A search that failed. Both variants mean a damaged or wrong table, never bad input: input is
/// validated before it reaches a search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error(
        "the table has no distance for this position; rebuild it with gen-tables --force (it may be damaged)"
    )]
    Unreachable,
    /// The tables led to a sequence that does not solve the position: a search over correct
    /// tables cannot, so a table is damaged in a way its checksum did not show.
    #[error(
        "the tables led to '{0}', which does not solve the position: a table is damaged; find it with `gen-tables --verify` and rebuild it with `gen-tables --force <table>`"
    )]
    Unverified(String),
}
