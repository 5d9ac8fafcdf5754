//! Lower bounds on the distance of a 3x3 position, read from memory-mapped pattern databases.
//!
//! [`Heuristic`] is what the search asks of a bound: coordinates that follow the moves, the
//! bound of a node, and the dual lookup of its inverse position. Each family of tables is one
//! implementation, so the search is compiled once per family and its hot loops never ask which
//! tables they read:
//!
//! - [`KorfHeuristic`]: the corner table and an edge table read for two complementary edge sets
//!   (Korf 1997);
//! - [`Phase1Heuristic`]: the corner table and the phase-1 table read along the three axes
//!   (Michael Reid's method);
//! - [`UdHeuristic`]: a symmetry-reduced coset table of the `ud` family read along the three axes
//!   (Tomas Rokicki's nxopt);
//! - [`H48Heuristic`]: a coset table of the `h48` family, reduced by all 48 symmetries and read
//!   once (Sebastiano Tronto's H48).
//!
//! [`AnyHeuristic`] opens the family a table kind belongs to.

mod h48;
mod korf;
mod phase1;
mod ud;

pub use h48::H48Heuristic;
pub use korf::KorfHeuristic;
pub use phase1::Phase1Heuristic;
pub use ud::UdHeuristic;

use crate::catalogue::{TableId, TableKind};
use crate::model::cube::{Cube3, CubePair, Metric, Move, PackedCube, Rotation};
use crate::table::{Table, TableError, Verify};
use std::path::Path;

/// A lower bound on the distance to solved, as the search uses it.
///
/// The search keeps [`Heuristic::Coords`] per node and moves them with [`Heuristic::child`];
/// the child's table entries are located by [`Heuristic::locate_entries`] and prefetched from the memory
/// system by [`Heuristic::prefetch_entries`] (or already by `child`, where locating them needs no read). The
/// children of a batch of nodes are all generated before any is looked up, so the reads overlap
/// (see [`super::walk`]).
pub trait Heuristic: Sync {
    /// What a node carries for its lookups.
    type Coords: Copy + Default + Send + Sync;
    /// The coordinates of a node's inverse position that the dual lookup reads.
    type Inverse: Copy + Default + Send + Sync;
    /// What the dual lookup of a node hands down to its children.
    type Dual: Copy + Default + Send + Sync + PartialEq + std::fmt::Debug;

    fn metric(&self) -> Metric;

    /// The search's moves, in the order turn numbers refer to.
    fn moves(&self) -> &[Move];

    fn coords(&self, cube: &Cube3) -> Self::Coords;

    /// The coordinates after move `turn`, their table entries (or what finding them reads)
    /// prefetched.
    fn child(&self, c: &Self::Coords, turn: usize) -> Self::Coords;

    /// The second step of generating a child, run once every child of a batch has had its
    /// first ([`Heuristic::child`]): what the lookups need that depends on reads the first
    /// step prefetched, such as where the table entries are. Splitting the steps lets the reads
    /// of all children overlap instead of waiting one after another. Nothing by default.
    #[inline]
    fn locate_entries(&self, _c: &mut Self::Coords) {}

    /// The third step, where [`Heuristic::child`] has not done it: prefetches the table entries
    /// that [`Heuristic::locate_entries`] located. The search runs it for all the children an expansion
    /// generates back to back: on the project's machine a prefetch holds the processor up
    /// until its line is on its way, so requests made among the work of locating lines wait
    /// one after another, and requests made together wait once.
    #[inline]
    fn prefetch_entries(&self, _c: &Self::Coords) {}

    /// Prefetches the move-table rows that the children of `c` read, where those are too large
    /// to stay in cache.
    #[inline]
    fn prefetch_moves(&self, _c: &Self::Coords) {}

    /// The largest value [`Heuristic::bound`] can return: a budget of this or more lets
    /// every child in, and no entry can rule out a face there. No limit by default.
    #[inline]
    fn largest_bound(&self) -> u8 {
        u8::MAX
    }

    /// A lower bound on the distance of `c`, evaluated lazily: as soon as one lookup shows more
    /// than `budget`, a value above `budget` is returned without reading the others.
    fn bound(&self, c: &Self::Coords, budget: u8) -> u8;

    /// What the walk's verdicts on a child need of its bound (see `walk::Verdicts`): the bound
    /// itself where it exceeds `budget`, and otherwise any value at most `budget`. By default
    /// [`Heuristic::bound`].
    #[inline(always)]
    fn bound_above(&self, c: &Self::Coords, budget: u8) -> u8 {
        self.bound(c, budget)
    }

    /// Whether the coordinates determine the position; if not, the search checks the cubies
    /// to recognise the solved cube.
    fn coords_determine_position(&self) -> bool;

    /// Whether `c` is the solved position's coordinates (with
    /// [`Heuristic::coords_determine_position`], whether it is solved).
    fn is_goal(&self, c: &Self::Coords) -> bool;

    /// The coordinates of a node's inverse position (`inverse`, the node's `cubes.inverse`),
    /// the node reached by `turn`, that the dual lookup reads, their entries located unless
    /// [`Heuristic::locate_inverse`] locates them and prefetched unless
    /// [`Heuristic::prefetch_inverse`] prefetches them; what the child inherits from its parent is left out.
    fn inverse(&self, inverse: &PackedCube, turn: u8) -> Self::Inverse;

    /// Whether the walk reads the inverse that a face's two quarter turns share before it makes
    /// their children (see `walk::rule_out_by_pairs`). Only where they share it: where the
    /// coordinates ([`Heuristic::inverse`]) are those of cosets `H y` of a subgroup `H` that
    /// holds the half turns. The inverse of the child `x U'` is `U x⁻¹ = U2 (U' x⁻¹)`, in the
    /// coset of the inverse `U' x⁻¹` of the child `x U`. The tests check it of every heuristic
    /// that says so. Off by default.
    const SHARED_INVERSES_FIRST: bool = false;

    /// Locates the entries of an inverse from [`Heuristic::inverse`], where that only prefetched
    /// what locating them reads first, so that a round of inverses waits on those reads once
    /// (as [`Heuristic::locate_entries`] does for children). Nothing to do by default.
    #[inline]
    fn locate_inverse(&self, _inverse: &mut Self::Inverse, _turn: u8) {}

    /// Prefetches the entries of an inverse from [`Heuristic::inverse`], where that left them to
    /// be prefetched together with its siblings' (as [`Heuristic::prefetch_entries`] does for children).
    #[inline]
    fn prefetch_inverse(&self, _inverse: &Self::Inverse, _turn: u8) {}

    /// The bound the dual lookup ([`Heuristic::dual`]) finds for a node reached by `turn`
    /// whose parent's dual values are `dual`, with `budget` moves left: the inverse position's
    /// bound where it exceeds the budget, else a value within the budget. For verdicts that
    /// need nothing else, gathered without a branch (see `walk::rule_out_by_pairs`).
    #[inline]
    fn dual_bound(&self, inverse: &Self::Inverse, turn: u8, dual: &Self::Dual, budget: u8) -> u8 {
        let mut values = *dual;
        self.dual(inverse, turn, &mut values, budget)
            .err()
            .unwrap_or(0)
    }

    /// The dual lookup of a node reached by `turn` with `budget` moves left: the moves (a bit
    /// mask over turn numbers) that may follow it, or the inverse position's bound where that
    /// exceeds the budget. `dual` holds the parent's values on entry and the node's on return.
    fn dual(
        &self,
        inverse: &Self::Inverse,
        turn: u8,
        dual: &mut Self::Dual,
        budget: u8,
    ) -> Result<u32, u8>;

    /// The dual values of `cube` itself, all read: where the dual lookup starts, at the root.
    fn root_dual(&self, cube: &Cube3) -> Self::Dual;

    /// Whether the search may turn a node around ([`Heuristic::turn_around`]) and extend the
    /// solution at its other end.
    const BIDIRECTIONAL: bool = false;

    /// The moves that may begin the other end of a solution through a node at `c` with `budget`
    /// moves left: where a bound of `c` is tight, the solution cannot end with a move of that
    /// bound's subgroup, and its last move is the first move of the other end (inverted). All
    /// moves by default.
    #[inline]
    fn other_end_moves(&self, _c: &Self::Coords, _budget: u8) -> u32 {
        u32::MAX
    }

    /// The node seen from its other end: the inverse position's coordinates, from what the
    /// dual lookup keeps (`dual`) or from the inverse's cubies (`cubes.inverse`), and the
    /// position's own as the new dual values. Only called when [`Heuristic::BIDIRECTIONAL`].
    fn turn_around(
        &self,
        c: &Self::Coords,
        dual: &Self::Dual,
        _cubes: &CubePair,
    ) -> (Self::Coords, Self::Dual) {
        (*c, *dual)
    }

    /// Where both ends of a node have as many moves to try: whether to extend the other end.
    /// vcube's choice: the end whose own table values are larger in sum, whose subtrees the
    /// bounds cut sooner. Never, by default.
    #[inline]
    fn prefers_other_end(&self, _c: &Self::Coords, _dual: &Self::Dual) -> bool {
        false
    }

    /// The full bound of `cube`.
    fn value(&self, cube: &Cube3) -> u8 {
        self.bound(&self.coords(cube), u8::MAX)
    }
}

/// A heuristic of any family, opened from a table kind.
pub enum AnyHeuristic {
    Korf(Box<KorfHeuristic>),
    Phase1(Box<Phase1Heuristic>),
    Ud(Box<UdHeuristic>),
    H48(Box<H48Heuristic>),
}

impl AnyHeuristic {
    /// Whether a table of `kind` can guide the optimal search (one of the families
    /// [`AnyHeuristic::open`] opens), or the error that says which can.
    pub fn check_kind(kind: TableKind) -> Result<(), TableError> {
        let guides = matches!(
            kind,
            TableKind::Edges6 | TableKind::Edges7 | TableKind::Phase1
        ) || kind.ud_shape().is_some()
            || kind.h48_table().is_some();
        if guides {
            Ok(())
        } else {
            Err(TableError::NotAHeuristic(kind.name()))
        }
    }

    /// Maps the tables of the family that `kind` belongs to, in `metric`, from `dir`: `edges6`
    /// and `edges7` with the corner table (Korf), `phase1` with the corner table, or a `ud-*`
    /// table alone. A missing table is an error naming the command that builds it.
    pub fn open(dir: &Path, metric: Metric, kind: TableKind) -> Result<AnyHeuristic, TableError> {
        missing_tables(dir, metric, kind)?;
        Ok(match kind {
            TableKind::Edges6 | TableKind::Edges7 => {
                AnyHeuristic::Korf(Box::new(KorfHeuristic::open(dir, metric, kind)?))
            }
            TableKind::Phase1 => {
                AnyHeuristic::Phase1(Box::new(Phase1Heuristic::open(dir, metric)?))
            }
            _ if kind.ud_shape().is_some() => {
                AnyHeuristic::Ud(Box::new(UdHeuristic::open(dir, metric, kind)?))
            }
            _ if kind.h48_table().is_some() => {
                AnyHeuristic::H48(Box::new(H48Heuristic::open(dir, metric, kind)?))
            }
            _ => return Err(TableError::NotAHeuristic(kind.name())),
        })
    }

    pub fn metric(&self) -> Metric {
        match self {
            AnyHeuristic::Korf(h) => h.metric(),
            AnyHeuristic::Phase1(h) => h.metric(),
            AnyHeuristic::Ud(h) => h.metric(),
            AnyHeuristic::H48(h) => h.metric(),
        }
    }

    /// The full bound of `cube`.
    pub fn value(&self, cube: &Cube3) -> u8 {
        match self {
            AnyHeuristic::Korf(h) => h.value(cube),
            AnyHeuristic::Phase1(h) => h.value(cube),
            AnyHeuristic::Ud(h) => h.value(cube),
            AnyHeuristic::H48(h) => h.value(cube),
        }
    }
}

/// The tables the heuristic of `kind` reads: the corner table beside a Korf or phase-1 table;
/// the two-phase solver's three together.
fn tables_read(kind: TableKind) -> Vec<TableKind> {
    match kind {
        TableKind::Phase1Sym | TableKind::Phase2 | TableKind::Phase2Slice => {
            TableKind::TWO_PHASE.to_vec()
        }
        TableKind::Edges6 | TableKind::Edges7 | TableKind::Phase1 => {
            vec![TableKind::Corners, kind]
        }
        _ => vec![kind],
    }
}

/// One error naming every table of `kind`'s heuristic missing from `dir`, with sizes, build
/// times and the one command that builds them all (naming them one at a time sent a user
/// through a build per table).
pub(crate) fn missing_tables(
    dir: &Path,
    metric: Metric,
    kind: TableKind,
) -> Result<(), TableError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    missing_of(dir, metric, &tables_read(kind), || {
        cheaper_alternative(dir, metric, kind, cores)
    })
}

/// One error naming every table of `kinds` missing from `dir`, for searches that read tables
/// of their own (see [`missing_tables`]); no other table stands in for them.
pub(crate) fn missing_tables_of(
    dir: &Path,
    metric: Metric,
    kinds: &[TableKind],
) -> Result<(), TableError> {
    missing_of(dir, metric, kinds, || None)
}

fn missing_of(
    dir: &Path,
    metric: Metric,
    kinds: &[TableKind],
    alternative: impl FnOnce() -> Option<String>,
) -> Result<(), TableError> {
    let missing: Vec<TableId> = kinds
        .iter()
        .copied()
        .map(|k| TableId::new(k, metric))
        .filter(|id| !id.is_present(dir))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let names: Vec<&str> = missing.iter().map(|id| id.kind.name()).collect();
    Err(TableError::MissingTables {
        dir: dir.to_path_buf(),
        tables: missing
            .iter()
            .map(|&id| crate::catalogue::build_summary(id, cores))
            .collect(),
        rebuild: format!(
            "gen-tables --data-dir {} --metric {} {}",
            dir.display(),
            metric.name(),
            names.join(" ")
        ),
        alternative: alternative(),
    })
}

/// The 3x3 heuristics, strongest per search first. Measured: `h48-flips6` solves the ten
/// positions of benches/peers.txt in half `ud-order-f8`'s time, `h48-flips3` the five of
/// bench-solver.sh 1.8x faster than `ud-f8`, `h48-parity` between phase-1 and `ud-f4`
/// (reports/performance-log.md); the places of `h48-flips5` and `h48-flips4` among the `ud` tables
/// are estimated from those. Each `h48-eo` table sits just above the `h48-flips` table of its
/// size: on the 18-mover 7 of benches/peers.txt `h48-eo6` generates 172 M nodes where
/// `h48-flips6` generated 238 M, with the same work per node (one table read of the same size).
const HEURISTICS: [TableKind; 22] = [
    TableKind::H48Eo9,
    TableKind::H48Eo8,
    TableKind::H48Flips,
    TableKind::H48Eo7,
    TableKind::H48Flips7,
    TableKind::H48Eo6,
    TableKind::H48Flips6,
    TableKind::UdOrderF8,
    TableKind::UdF12,
    TableKind::H48Eo5,
    TableKind::H48Flips5,
    TableKind::UdLayersF4,
    TableKind::H48Eo4,
    TableKind::H48Flips4,
    TableKind::UdOrderF4,
    TableKind::H48Flips3,
    TableKind::UdF8,
    TableKind::Phase1,
    TableKind::H48Parity,
    TableKind::Edges7,
    TableKind::UdF4,
    TableKind::Edges6,
];

/// What to do instead of building `kind`'s tables: search now with another heuristic whose
/// tables are present (the strongest), or else build the smallest coset table, a few seconds'
/// work, where it is weaker than `kind`.
fn cheaper_alternative(
    dir: &Path,
    metric: Metric,
    kind: TableKind,
    cores: usize,
) -> Option<String> {
    // The two-phase and layer solvers read these; no other heuristic stands in for them.
    if TableKind::TWO_PHASE.contains(&kind) {
        return None;
    }
    let present = |k: TableKind| {
        tables_read(k)
            .into_iter()
            .all(|t| TableId::new(t, metric).is_present(dir))
    };
    if let Some(&ready) = HEURISTICS.iter().find(|&&k| k != kind && present(k)) {
        return Some(format!(
            "or search now with the tables present: --tables {}",
            ready.name()
        ));
    }
    let smallest = TableKind::UdF4;
    let mut weaker = HEURISTICS.iter().skip_while(|&&k| k != kind).skip(1);
    weaker.any(|&k| k == smallest).then(|| {
        format!(
            "or, for a slower search, build {} with `gen-tables --data-dir {} --metric {} {}` and solve with --tables {}",
            crate::catalogue::build_summary(TableId::new(smallest, metric), cores),
            dir.display(),
            metric.name(),
            smallest.name(),
            smallest.name()
        )
    })
}

/// Maps a table for a search: checked, and kept resident (see [`Table::keep_resident`]).
pub(crate) fn open_table(dir: &Path, id: TableId) -> Result<Table, TableError> {
    id.open(dir, Verify::IfNew)?.keep_resident()
}

/// Turn numbers indexed by turn number, held inline: the search maps every child's turn
/// through one per lookup.
type Turns = [u8; Move::COUNT];

/// For each turn of `moves`, the number of the turn that does the same to the position seen
/// through `rotation` (turn `X` of a position is turn `rotation.face(X)` of its conjugate).
fn turns_through(rotation: &Rotation, moves: &[Move]) -> Turns {
    let mut turns = [0; Move::COUNT];
    for (turn, &m) in turns.iter_mut().zip(moves) {
        let mapped = rotation.map_move(m);
        *turn = moves.iter().position(|&x| x == mapped).unwrap_or(0) as u8;
    }
    turns
}

/// The packed entries of a mapped table as a plain slice, taken once when a heuristic is
/// opened: the hot loops read through this instead of through the table's mapping at every
/// read, which cost a tenth of the instructions per node.
#[derive(Clone, Copy)]
pub(crate) struct Entries {
    ptr: *const u8,
    len: usize,
}

// SAFETY: the entries are read-only shared memory; see `Entries::of`.
unsafe impl Send for Entries {}
unsafe impl Sync for Entries {}

impl Entries {
    /// The payload of `table`. The caller keeps `table` alive, unmoved in its mapping, for as
    /// long as the view is used: every heuristic holds the tables next to their views and
    /// drops them together. (Moving a `Table` does not move its mapping.)
    pub(crate) fn of(table: &Table) -> Entries {
        Entries::of_bytes(table.payload())
    }

    /// Part of a table's payload, under the same rule as [`Entries::of`].
    fn of_bytes(bytes: &[u8]) -> Entries {
        Entries {
            ptr: bytes.as_ptr(),
            len: bytes.len(),
        }
    }

    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr` and `len` describe the payload of a mapping that outlives `self` (see
        // `Entries::of`); it is never written while mapped.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// The 4-bit entry `index`.
    #[inline(always)]
    pub(crate) fn nibble(&self, index: u64) -> u8 {
        crate::packing::nibble(self.bytes(), index)
    }

    /// The byte entry `index`.
    #[inline(always)]
    pub(crate) fn byte(&self, index: u64) -> u8 {
        self.bytes()[index as usize]
    }

    /// Prefetches the byte holding 4-bit entry `index`.
    #[inline(always)]
    pub(crate) fn prefetch_nibble(&self, index: u64) {
        crate::space::prefetch(self.bytes(), (index / 2) as usize);
    }
}
