//! The table catalogue: which tables exist ([`TableKind`], [`TableId`]), how each is built by the
//! one breadth-first engine over its space and written in the one format, and how each is
//! checked against published counts ([`published`], [`scan`]). Subgroup tables ([`group`]) and
//! their Hamiltonian circuits ([`circuit`]) are tables named by parameters.

pub mod circuit;
pub mod goal;
pub mod group;
pub mod h48_eo;
pub mod kind;
pub mod published;
pub mod puzzle;
pub mod scan;

pub use kind::{TableId, TableKind, metric_code, metric_of_code};

use crate::bfs::{BfsError, BfsOutcome, Pass, breadth_first, breadth_first_rows};
use crate::model::cube::Metric;
use crate::packing::{Encoding, based};
use crate::space::{RowSpace, corners, edges, h48, phase1, pocket, twophase, ud};
use crate::table::{Contents, TableError, TableHeader, write_table};
use indicatif::ProgressBar;
use std::path::Path;

/// Number of entries of a table kind.
pub fn entries(kind: TableKind) -> u64 {
    match kind {
        TableKind::Pocket => pocket::STATES,
        TableKind::Corners => corners::STATES,
        TableKind::Edges6 => edges::EDGES6.states(),
        TableKind::Edges7 => edges::EDGES7.states(),
        TableKind::Phase1 => phase1::STATES,
        TableKind::UdF4
        | TableKind::UdF8
        | TableKind::UdOrderF4
        | TableKind::UdLayersF4
        | TableKind::UdF12
        | TableKind::UdOrderF8 => kind.ud_shape().map_or(0, |shape| shape.entries()),
        TableKind::Phase1Sym => twophase::PHASE1_ENTRIES,
        TableKind::Phase2 => twophase::PHASE2_ENTRIES,
        TableKind::Phase2Slice => twophase::PHASE2_SLICE_ENTRIES,
        TableKind::H48Parity
        | TableKind::H48Flips
        | TableKind::H48Flips7
        | TableKind::H48Flips6
        | TableKind::H48Flips5
        | TableKind::H48Flips4
        | TableKind::H48Flips3
        | TableKind::H48Eo4
        | TableKind::H48Eo5
        | TableKind::H48Eo6
        | TableKind::H48Eo7
        | TableKind::H48Eo8
        | TableKind::H48Eo9 => kind.h48_table().map_or(0, |table| table.entries()),
        // A subgroup's size is its generators' (see `group::Sizes`).
        TableKind::Group | TableKind::Goal | TableKind::Puzzle => 0,
    }
}

/// What building a table costs: bytes of memory at peak (the 4-bit working table, which the
/// coset tables are packed from in place), and seconds of one core's work, from the rates
/// measured on the project's 2-core machine (reports/tables.md, reports/performance-log.md): about
/// 15 million entries a second per core for the plain spaces, 12 million for the
/// symmetry-reduced coset spaces built a row at a time.
pub fn build_cost(kind: TableKind) -> (u64, f64) {
    let entries = entries(kind);
    // Measured here (reports/performance-log.md). A coset table whose rows pass 2 M entries
    // (`ud-order-f8`: 3 M, a 1.5 MB destination row) no longer works out of the cache, and
    // its build ran at less than half the rate: 47.5 minutes on two cores.
    let per_core_second = match kind.ud_shape() {
        Some(shape) if shape.edge_values() > 2_000_000 => 5.3e6,
        Some(_) => 12.0e6,
        // The two-phase tables' space finds each move's class through a table of a million
        // entries: 11-13 s and 10 s on two cores (reports/two-phase.md).
        None if matches!(kind, TableKind::Phase1Sym | TableKind::Phase2) => 5.5e6,
        // The 48-symmetry cosets' search costs per entry of the member searched (a coarser
        // table is read off it): `h48-parity` 20.8 s, `h48-flips` 906 s on two cores
        // (reports/performance-log.md).
        None if kind.h48_table().is_some() => 16.5e6 / (1u64 << h48_dropped(kind)) as f64,
        None => 15.0e6,
    };
    if let Some(table) = kind.h48_table().filter(|_| kind.is_h48_eo()) {
        return h48_eo::build_cost(table);
    }
    let bytes = match kind {
        TableKind::Phase2 => entries,
        // The member's exact entries, then the coarser table beside them.
        _ if h48_dropped(kind) > 0 => (entries << h48_dropped(kind)).div_ceil(2) + entries / 4,
        _ => entries.div_ceil(2),
    };
    (bytes, entries as f64 / per_core_second)
}

/// The size of table `id`'s file.
pub fn file_bytes(id: TableId) -> u64 {
    crate::table::PAYLOAD_OFFSET as u64 + id.encoding.payload_bytes(entries(id.kind))
}

/// `name (size, ~time to build)` for table `id`, its time spread over `cores`.
pub fn build_summary(id: TableId, cores: usize) -> String {
    let bytes = file_bytes(id);
    let seconds = build_cost(id.kind).1 / cores.max(1) as f64;
    format!(
        "{} ({}, {} to build)",
        id.name(),
        crate::support::units::human_bytes(bytes),
        crate::support::units::rough_duration(seconds)
    )
}

impl TableId {
    /// Writes this table into `dir` (atomically, see [`write_table`]): its entries packed in
    /// `encoding`, with their histogram.
    pub fn write(
        &self,
        dir: &Path,
        encoding: Encoding,
        histogram: Vec<u64>,
        payload: &[u8],
    ) -> Result<TableHeader, TableError> {
        let contents = Contents {
            space: self.space_code(),
            encoding,
            entries: entries(self.kind),
            histogram,
            parameters: None,
        };
        write_table(&self.path(dir), contents, payload)
    }
}

/// Whether a file name in a data directory is one of the catalogue's tables (or its
/// temporary): the names of every kind, subgroups' included, start them.
pub fn is_table_file_name(name: &str) -> bool {
    TableKind::ALL
        .iter()
        .chain([&TableKind::Group, &TableKind::Goal, &TableKind::Puzzle])
        .any(|k| name.starts_with(k.name()))
}

/// Removes the temporaries of the catalogue's tables that killed builds left in `dir`; returns
/// each with its size (see [`crate::table::remove_stale_temporaries`]).
pub fn remove_stale_temporaries(dir: &Path) -> Vec<(std::path::PathBuf, u64)> {
    crate::table::remove_stale_temporaries(dir, is_table_file_name)
}

/// The metrics a kind is built in when none is asked for: what the default solvers use.
pub fn default_metrics(kind: TableKind) -> &'static [Metric] {
    match kind {
        TableKind::Pocket => &Metric::BOTH,
        _ => &[Metric::Htm],
    }
}

/// Every table cubelab knows, in build order.
pub fn catalogue() -> Vec<TableId> {
    TableKind::ALL
        .iter()
        .flat_map(|&kind| Metric::BOTH.map(|metric| TableId::new(kind, metric)))
        .filter(|id| id.kind.has_metric(id.metric))
        .collect()
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Bfs(#[from] BfsError),
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("a subgroup's table is built from its generators (gen-tables --generators)")]
    Group,
    #[error("a goal's table is built from its goal (solve --goal, stats goal, gen-tables --goal)")]
    Goal,
    #[error("a puzzle's tables are built from its definition (cubelab puzzle solve)")]
    Puzzle,
    #[error("{0} tables are built with their own 2-bit encoding, not {1}")]
    Encoding(&'static str, &'static str),
    #[error("{0} tables count H's own moves, the half-turn metric's: build them with --metric htm")]
    Metric(&'static str),
    #[error(
        "{0} is filled by a walk of the half-turn metric's move sequences and has no quarter-turn table: build it with --metric htm"
    )]
    HalfTurnsOnly(&'static str),
    #[error("{0} is not read off the same search as the other tables asked for with it")]
    Family(&'static str),
}

/// A table written: its header, and the passes of the search that built it.
pub struct Built {
    pub header: TableHeader,
    pub passes: Vec<Pass>,
}

/// A coset table's entries: exact distances by the row pass, then packed two bits an entry
/// relative to a base (see [`based`]).
fn based_rows<S: RowSpace>(space: &S, progress: &ProgressBar) -> Result<BfsOutcome, BfsError> {
    let exact = breadth_first_rows(space, Encoding::Nibble, progress)?;
    let base = based::base_of(&exact.histogram);
    Ok(BfsOutcome {
        encoding: Encoding::Based,
        packed: based::pack(exact.packed, space.size(), base),
        histogram: exact.histogram,
        passes: exact.passes,
        deepest: exact.deepest,
    })
}

/// How many states the breadth-first search that builds `kind` finds: its entries, or for a
/// coarser `h48-*` table its member's (what a progress bar counts).
pub fn searched_entries(kind: TableKind) -> u64 {
    entries(kind) << h48_dropped(kind)
}

/// How many bits of the kept flips an `h48-*` kind read off its member's whole search drops
/// (0 for any other kind, and for the `h48-eo*` tables, which are filled on their own).
fn h48_dropped(kind: TableKind) -> u32 {
    if kind.is_h48_eo() {
        return 0;
    }
    kind.h48_table().map_or(0, |table| table.dropped)
}

/// Builds the `h48` tables `ids` from one breadth-first search of their member (they must share
/// member and metric) and writes them into `dir` (see [`write_h48`]). The search's memory (4
/// bits an entry of the member: 15 GB for `h48-flips`) is the peak; each coarser table adds its
/// own size.
pub fn build_h48(
    ids: &[TableId],
    dir: &Path,
    progress: &ProgressBar,
) -> Result<Vec<Built>, BuildError> {
    let Some((member, metric)) = h48_member(ids)? else {
        return Ok(Vec::new());
    };
    let space = h48::H48Space::new(member, metric);
    let exact = breadth_first_rows(&h48::H48Rows::new(&space), Encoding::Nibble, progress)?;
    write_h48(ids, dir, exact)
}

/// The member and metric the `h48` tables `ids` share, if there are any; an error if they do not
/// share them or one is not an `h48` table in the based encoding.
fn h48_member(ids: &[TableId]) -> Result<Option<(h48::H48Flips, Metric)>, BuildError> {
    let Some(&first) = ids.first() else {
        return Ok(None);
    };
    let table_of = |id: TableId| {
        id.kind
            .h48_table()
            .ok_or(BuildError::Family(id.kind.name()))
    };
    let member = table_of(first)?.flips;
    for &id in ids {
        if table_of(id)?.flips != member || id.metric != first.metric {
            return Err(BuildError::Family(id.kind.name()));
        }
        if id.encoding != Encoding::Based {
            return Err(BuildError::Encoding(id.kind.name(), id.encoding.name()));
        }
    }
    Ok(Some((member, first.metric)))
}

/// Writes the `h48` tables `ids` into `dir` from `exact`, their member's exact entries in
/// nibbles (the engine's row pass over the member, as [`build_h48`] runs it): the coarser
/// tables are read off the exact entries first ([`based::pack_collapsed`]), then the member's
/// own table, if asked for, is packed in place. Apart from [`build_h48`], the test suite calls
/// it to write the tables from the exact entries it also checks, rather than search twice.
pub fn write_h48(
    ids: &[TableId],
    dir: &Path,
    exact: crate::bfs::BfsOutcome,
) -> Result<Vec<Built>, BuildError> {
    let Some((member, _)) = h48_member(ids)? else {
        return Ok(Vec::new());
    };
    let mut built = Vec::with_capacity(ids.len());
    let mut own = None;
    for &id in ids {
        let table = id
            .kind
            .h48_table()
            .ok_or(BuildError::Family(id.kind.name()))?;
        if table.dropped == 0 {
            own = Some(id);
            continue;
        }
        let (payload, histogram) = based::pack_collapsed(
            &exact.packed,
            table.entries(),
            table.dropped,
            based::best_base,
        );
        let header = id.write(dir, Encoding::Based, histogram, &payload)?;
        built.push((
            id,
            Built {
                header,
                passes: exact.passes.clone(),
            },
        ));
    }
    if let Some(id) = own {
        let base = based::best_base(&exact.histogram);
        let payload = based::pack(exact.packed, member.entries(), base);
        let header = id.write(dir, Encoding::Based, exact.histogram, &payload)?;
        built.push((
            id,
            Built {
                header,
                passes: exact.passes,
            },
        ));
    }
    // In the order asked for.
    Ok(ids
        .iter()
        .filter_map(|id| {
            let at = built.iter().position(|(b, _)| b == id)?;
            Some(built.swap_remove(at).1)
        })
        .collect())
}

/// Builds table `id` by breadth-first search and writes it into `dir`.
pub fn build(id: TableId, dir: &Path, progress: &ProgressBar) -> Result<Built, BuildError> {
    let (metric, encoding) = (id.metric, id.encoding);
    let outcome = match id.kind {
        TableKind::Pocket => breadth_first(&pocket::PocketSpace::new(metric), encoding, progress)?,
        TableKind::Corners => {
            breadth_first(&corners::CornerSpace::new(metric), encoding, progress)?
        }
        TableKind::Edges6 => {
            let space = edges::EdgeSpace::new(edges::EDGES6, metric);
            breadth_first(&space, encoding, progress)?
        }
        TableKind::Edges7 => {
            let space = edges::EdgeSpace::new(edges::EDGES7, metric);
            breadth_first(&space, encoding, progress)?
        }
        TableKind::Phase1 => breadth_first(&phase1::Phase1Space::new(metric), encoding, progress)?,
        TableKind::UdF4
        | TableKind::UdF8
        | TableKind::UdOrderF4
        | TableKind::UdLayersF4
        | TableKind::UdF12
        | TableKind::UdOrderF8 => {
            let shape = id.kind.ud_shape().expect("a ud table kind");
            if encoding != Encoding::Based {
                return Err(BuildError::Encoding(id.kind.name(), encoding.name()));
            }
            let space = ud::UdSpace::new(shape, metric);
            based_rows(&ud::UdRows::new(&space), progress)?
        }
        TableKind::H48Parity
        | TableKind::H48Flips
        | TableKind::H48Flips7
        | TableKind::H48Flips6
        | TableKind::H48Flips5
        | TableKind::H48Flips4
        | TableKind::H48Flips3 => {
            let mut built = build_h48(&[id], dir, progress)?;
            return Ok(built.remove(0));
        }
        TableKind::H48Eo4
        | TableKind::H48Eo5
        | TableKind::H48Eo6
        | TableKind::H48Eo7
        | TableKind::H48Eo8
        | TableKind::H48Eo9 => return h48_eo::build_h48_eo(id, dir, progress),
        TableKind::Phase1Sym => breadth_first(
            &twophase::SymProductSpace::phase1(metric),
            encoding,
            progress,
        )?,
        TableKind::Phase2 | TableKind::Phase2Slice if metric != Metric::Htm => {
            return Err(BuildError::Metric(id.kind.name()));
        }
        TableKind::Phase2 => {
            breadth_first(&twophase::SymProductSpace::phase2(), encoding, progress)?
        }
        TableKind::Phase2Slice => {
            breadth_first(&twophase::Phase2SliceSpace::new(), encoding, progress)?
        }
        TableKind::Group => return Err(BuildError::Group),
        TableKind::Goal => return Err(BuildError::Goal),
        TableKind::Puzzle => return Err(BuildError::Puzzle),
    };
    let header = id.write(dir, outcome.encoding, outcome.histogram, &outcome.packed)?;
    Ok(Built {
        header,
        passes: outcome.passes,
    })
}
