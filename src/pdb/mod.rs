//! The concrete databases, and building any of them into a table file.

pub mod pocket;

use crate::bfs::{BfsError, breadth_first};
use crate::cube::Metric;
use crate::table::{Encoding, TableError, TableHeader, TableId, TableKind, write_table};
use indicatif::ProgressBar;
use std::path::Path;

/// Number of entries of a table kind.
pub const fn entries(kind: TableKind) -> u64 {
    match kind {
        TableKind::Pocket => pocket::STATES,
    }
}

/// The metrics a kind is built in when none is asked for: what the default solvers use.
pub fn default_metrics(kind: TableKind) -> &'static [Metric] {
    match kind {
        TableKind::Pocket => &Metric::BOTH,
    }
}

/// Every table cubelab knows, in build order.
pub fn catalogue() -> Vec<TableId> {
    TableKind::ALL
        .iter()
        .flat_map(|&kind| Metric::BOTH.map(|metric| TableId::new(kind, metric)))
        .collect()
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Bfs(#[from] BfsError),
    #[error(transparent)]
    Table(#[from] TableError),
}

/// Builds table `id` by breadth-first search and writes it into `dir`.
pub fn build(id: TableId, dir: &Path, progress: &ProgressBar) -> Result<TableHeader, BuildError> {
    let outcome = match id.kind {
        TableKind::Pocket => breadth_first(&pocket::PocketSpace::new(id.metric), progress)?,
    };
    let header = write_table(
        &id.path(dir),
        id,
        Encoding::Nibble,
        entries(id.kind),
        outcome.histogram,
        &outcome.packed,
    )?;
    Ok(header)
}
