//! The exact number of moves that bring a position into Kociemba's subgroup
//! H = <U, D, R2, L2, F2, B2>, read from the `phase1-sym` table: what phase 1 of the two-phase
//! method and the coset search both walk by.

use super::heuristic::{Entries, open_table};
use crate::catalogue::{TableId, TableKind};
use crate::model::cube::Metric;
use crate::space::phase1::Phase1Coord;
use crate::space::twophase::{SymProduct, flip_slice};
use crate::table::{Table, TableError};
use std::path::Path;

/// The mapped `phase1-sym` table (half-turn metric) and the index its classes need.
pub struct DistanceIntoH {
    index: SymProduct,
    entries: Entries,
    // The mapping `entries` reads; declared last, dropped after it.
    _table: Table,
}

impl DistanceIntoH {
    /// Maps the table from `dir`; the caller has checked that it is present (a missing table's
    /// error names the command that builds it, see [`super::heuristic`]).
    pub fn open(dir: &Path) -> Result<DistanceIntoH, TableError> {
        let table = open_table(dir, TableId::new(TableKind::Phase1Sym, Metric::Htm))?;
        Ok(DistanceIntoH::of(table, SymProduct::phase1()))
    }

    /// The reader of a mapped `phase1-sym` table, with its index built by the caller (the
    /// two-phase solver builds it beside the phase-2 one).
    pub fn of(table: Table, index: SymProduct) -> DistanceIntoH {
        DistanceIntoH {
            index,
            entries: Entries::of(&table),
            _table: table,
        }
    }

    /// The exact number of moves from a phase-1 coordinate into H.
    #[inline(always)]
    pub fn distance(&self, c: Phase1Coord) -> u8 {
        self.distance_at(self.entry(c))
    }

    /// Asks for what [`DistanceIntoH::entry`] reads first: the class of the coordinate's
    /// flip-and-slice part (a 4 MB table).
    #[inline(always)]
    pub fn prefetch_class(&self, c: Phase1Coord) {
        self.index.prefetch(flip_slice(c));
    }

    /// The table entry of a phase-1 coordinate, its byte asked for: a search that reads several
    /// entries at once finds them all first, so that their misses overlap.
    #[inline(always)]
    pub fn entry(&self, c: Phase1Coord) -> u64 {
        let entry = self.index.index(flip_slice(c), c.twist.into());
        self.entries.prefetch_nibble(entry);
        entry
    }

    /// The distance at an entry found by [`DistanceIntoH::entry`].
    #[inline(always)]
    pub fn distance_at(&self, entry: u64) -> u8 {
        self.entries.nibble(entry)
    }
}
