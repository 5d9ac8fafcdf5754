//! The 3x3 heuristic: the largest of several lookups in memory-mapped pattern databases, each of
//! the position itself or of the position seen through a whole-cube rotation (which keeps
//! distances). The corner table is always read. The default adds the phase-1 table read along
//! each of the three axes; the alternatives are Korf's edge tables, looked up directly and
//! through x2 so that together they see all twelve edges.

use crate::cube::{Cube3, Face, Metric, Move, Rotation};
use crate::pdb::corners::{self, CornerSpace};
use crate::pdb::edges::{ConjugateRanker, EDGES6, EDGES7, EdgeSet, EdgeSpace};
use crate::pdb::phase1::{Phase1Coord, Phase1Space};
use crate::space::MoveSpace;
use crate::table::{Table, TableError, TableId, TableKind, Verify, nibble};
use std::path::Path;

/// Which tables the heuristic reads besides the corner table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HeuristicTables {
    /// The phase-1 table (1.1 GB) along all three axes: the strongest, the default.
    Phase1,
    /// The 7-edge table (255 MB) for two complementary edge sets: Korf's method, larger sets.
    Edges7,
    /// The 6-edge table (21 MB) for two complementary edge sets: Korf's original choice.
    Edges6,
}

impl HeuristicTables {
    /// The table this heuristic reads besides the corner table.
    fn other_kind(self) -> TableKind {
        match self {
            HeuristicTables::Phase1 => TableKind::Phase1,
            HeuristicTables::Edges7 => TableKind::Edges7,
            HeuristicTables::Edges6 => TableKind::Edges6,
        }
    }

    fn edge_set(self) -> Option<EdgeSet> {
        match self {
            HeuristicTables::Phase1 => None,
            HeuristicTables::Edges7 => Some(EDGES7),
            HeuristicTables::Edges6 => Some(EDGES6),
        }
    }
}

/// The phase-1 table values of a node's inverse position, one per axis: what the dual lookup
/// carries from a node to its children (see [`Heuristic::inherited_axes`]).
pub type InverseValues = [u8; AXES];

/// The mask of all axes in [`Heuristic::inherited_axes`].
const ALL_AXES: u8 = (1 << AXES) - 1;

/// Edge lookups of an edge-table heuristic: the set itself and its mirror image.
pub const EDGE_LOOKUPS: usize = 2;
/// Phase-1 lookups: one per axis.
pub const AXES: usize = 3;

/// A search node's coordinates: the corners, and for each other lookup the position's
/// coordinate seen through that lookup's rotation.
///
/// Held in 32 bits each (every space here has fewer than 2^32 states, checked below): the search
/// keeps hundreds of these per depth, and 40 bytes instead of 64 keep them in fewer cache lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coords {
    pub corners: u32,
    pub edges: [u32; EDGE_LOOKUPS],
    pub phase1: [Phase1Coord; AXES],
}

const _: () = assert!(corners::STATES <= 1 << 32 && EDGES7.states() <= 1 << 32);

/// A coordinate of a space smaller than 2^32 (see [`Coords`]).
#[inline]
fn narrow(state: u64) -> u32 {
    state as u32
}

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

/// Turn numbers indexed by turn number, held inline: the search maps every child's turn
/// through one per lookup.
type Turns = [u8; Move::COUNT];

/// One edge-table lookup of the position conjugated by a rotation.
struct EdgeLookup {
    turns: Turns,
    ranker: ConjugateRanker,
}

/// The edge tables' part of a heuristic.
struct EdgePart {
    space: EdgeSpace,
    table: Table,
    lookups: [EdgeLookup; EDGE_LOOKUPS],
}

/// The phase-1 table's part: one lookup per axis, through a rotation that brings that axis to
/// the U-D axis the coordinate is defined on.
struct Phase1Part {
    space: Phase1Space,
    table: Table,
    /// Per axis, the rotation's cubies and their inverse.
    rotations: [(Cube3, Cube3); AXES],
    turns: [Turns; AXES],
    /// Per axis, the turns (as a bit mask) in that axis's subgroup, which the coordinate
    /// cannot tell from no move: U, D and the half turns for the U-D axis.
    subgroup: [u32; AXES],
    /// Per turn, the axes (as a bit mask) whose subgroup holds it.
    inherited: Vec<u8>,
}

/// The packed entries of a heuristic's tables (the corner table's, then the other's), borrowed
/// for a search: its hot loops hold these slices instead of reaching through each table's
/// mapping at every read, which was a tenth of the instructions per node.
#[derive(Clone, Copy)]
pub struct Entries<'a> {
    corners: &'a [u8],
    other: &'a [u8],
}

/// The mapped tables with the move tables that update coordinates, for one metric.
pub struct Heuristic {
    metric: Metric,
    moves: Vec<Move>,
    corner_space: CornerSpace,
    corner_table: Table,
    edges: Option<EdgePart>,
    phase1: Option<Phase1Part>,
    goal: Coords,
}

impl Heuristic {
    /// Maps the corner table and the chosen tables of `metric` from `dir`. The tables must be
    /// exact (4-bit); a missing one is an error naming the command that builds it.
    pub fn open(
        dir: &Path,
        metric: Metric,
        tables: HeuristicTables,
    ) -> Result<Heuristic, TableError> {
        let open = |kind| {
            let table = Table::open(dir, TableId::new(kind, metric), Verify::IfNew)?;
            table.keep_resident();
            Ok::<Table, TableError>(table)
        };
        let corner_table = open(TableKind::Corners)?;
        let moves = metric.generators(&Face::ALL);
        let edges = match tables.edge_set() {
            Some(set) => {
                let lookups = [Rotation::IDENTITY, EdgeSet::mirror()].map(|r| EdgeLookup {
                    turns: turns_through(&r, &moves),
                    ranker: ConjugateRanker::new(set, &r),
                });
                Some(EdgePart {
                    table: open(tables.other_kind())?,
                    space: EdgeSpace::with_every_move(set, metric),
                    lookups,
                })
            }
            None => None,
        };
        let phase1 = if tables == HeuristicTables::Phase1 {
            let rotations = [Rotation::IDENTITY, Rotation::x(), Rotation::z()];
            let turns = rotations.map(|r| turns_through(&r, &moves));
            let subgroup = std::array::from_fn(|axis| {
                moves.iter().enumerate().fold(0u32, |mask, (turn, _)| {
                    let seen = moves[usize::from(turns[axis][turn])];
                    let inside =
                        matches!(seen.face(), Face::U | Face::D) || seen.quarter_turns() == 2;
                    mask | u32::from(inside) << turn
                })
            });
            let inherited = (0..moves.len())
                .map(|turn| {
                    (0..AXES).fold(0u8, |axes, axis| {
                        axes | u8::from(subgroup[axis] & 1 << turn != 0) << axis
                    })
                })
                .collect();
            Some(Phase1Part {
                inherited,
                table: open(tables.other_kind())?,
                space: Phase1Space::new(metric),
                turns,
                rotations: rotations.map(|r| (*r.cubies(), r.cubies().inverse())),
                subgroup,
            })
        } else {
            None
        };
        let mut heuristic = Heuristic {
            metric,
            corner_space: CornerSpace::new(metric),
            corner_table,
            edges,
            phase1,
            goal: Coords::default(),
            moves,
        };
        heuristic.goal = heuristic.coords(&Cube3::SOLVED);
        Ok(heuristic)
    }

    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The entries every lookup reads, for the hot functions below.
    pub fn entries(&self) -> Entries<'_> {
        let other = match (&self.phase1, &self.edges) {
            (Some(part), _) => part.table.payload(),
            (None, Some(part)) => part.table.payload(),
            (None, None) => &[],
        };
        Entries {
            corners: self.corner_table.payload(),
            other,
        }
    }

    /// The search's moves, in the order `turn` numbers refer to.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn coords(&self, cube: &Cube3) -> Coords {
        let mut c = Coords {
            corners: narrow(corners::rank(&cube.corners)),
            ..Coords::default()
        };
        if let Some(part) = &self.edges {
            for (slot, lookup) in c.edges.iter_mut().zip(&part.lookups) {
                *slot = narrow(lookup.ranker.rank(&cube.edges));
            }
        }
        if let Some(part) = &self.phase1 {
            c.phase1 = part
                .rotations
                .map(|(g, g_inv)| Phase1Coord::of_conjugate(cube, &g, &g_inv));
        }
        c
    }

    /// The coordinates of `cube`'s inverse position that the dual lookup reads, ranked from
    /// `cube` itself; the axes in `inherited` (see [`Heuristic::inherited_axes`]) are left out.
    ///
    /// Without the corners: a corner state's table value is its length as a word in the corner
    /// group, which its inverse shares (reverse the word and invert each turn), so the inverse's
    /// corner value is the position's and the dual lookup does not read it.
    pub fn inverse_coords(&self, cube: &Cube3, inherited: u8) -> Coords {
        let mut c = Coords::default();
        if let Some(part) = &self.edges {
            for (slot, lookup) in c.edges.iter_mut().zip(&part.lookups) {
                *slot = narrow(lookup.ranker.rank_of_inverse(&cube.edges));
            }
        }
        if let Some(part) = self.phase1.as_ref().filter(|_| inherited != ALL_AXES) {
            let inverse = cube.inverse();
            for (axis, (g, g_inv)) in part.rotations.iter().enumerate() {
                if inherited & 1 << axis == 0 {
                    c.phase1[axis] = Phase1Coord::of_conjugate(&inverse, g, g_inv);
                }
            }
        }
        c
    }

    /// The axes (as a bit mask) along which a child reached by `turn` has its parent's inverse
    /// phase-1 value, so that the dual lookup need not rank or read them.
    ///
    /// The phase-1 coordinate of a position `y` is unchanged by any move `h` of the subgroup H
    /// done before it: `h` turns no corner or edge out of its orientation or out of its layer.
    /// The inverse of the child `x m` is `m⁻¹` done before `x⁻¹`; so where `m` lies in an
    /// axis's subgroup, the child's inverse has its parent's coordinate along that axis. Half
    /// turns lie in all three subgroups, quarter turns in one.
    #[inline]
    pub fn inherited_axes(&self, turn: u8) -> u8 {
        self.phase1
            .as_ref()
            .map_or(0, |part| part.inherited[usize::from(turn)])
    }

    /// Whether `c` is the solved position's coordinates. Only when
    /// [`Heuristic::coords_determine_position`] does that mean the position is solved.
    pub fn is_goal(&self, c: &Coords) -> bool {
        *c == self.goal
    }

    /// Whether coordinates determine the position. The edge tables' two sets see every edge; the
    /// phase-1 coordinates ignore which U and D layer edges are where, so a search with them
    /// must check the cubies to recognise the solved cube.
    pub fn coords_determine_position(&self) -> bool {
        self.edges.is_some()
    }

    /// The coordinates after move `turn`. Fields a heuristic does not use stay zero, so that
    /// [`Heuristic::is_goal`] can compare whole coordinates.
    #[inline]
    pub fn apply(&self, c: &Coords, turn: usize) -> Coords {
        let mut next = Coords {
            corners: narrow(self.corner_space.apply(c.corners.into(), turn)),
            ..Coords::default()
        };
        if let Some(part) = &self.edges {
            for ((e, &from), lookup) in next.edges.iter_mut().zip(&c.edges).zip(&part.lookups) {
                let turn = usize::from(lookup.turns[turn]);
                *e = narrow(part.space.apply_every(from.into(), turn));
            }
        } else if let Some(part) = &self.phase1 {
            for ((coord, &from), turns) in next.phase1.iter_mut().zip(&c.phase1).zip(&part.turns) {
                *coord = part.space.apply_coord(from, usize::from(turns[turn]));
            }
        }
        next
    }

    /// Calls `visit` with the number, table and entry of each lookup of `c` in turn (the
    /// corner table is lookup 0) until it returns false. One loop per kind of heuristic, so
    /// that the search's hot paths branch on the kind once, not once per lookup.
    #[inline(always)]
    fn visit_entries<'a>(
        &self,
        entries: Entries<'a>,
        c: &Coords,
        mut visit: impl FnMut(usize, &'a [u8], u64) -> bool,
    ) {
        if !visit(0, entries.corners, c.corners.into()) {
            return;
        }
        if self.phase1.is_some() {
            for (axis, coord) in c.phase1.iter().enumerate() {
                if !visit(1 + axis, entries.other, coord.index()) {
                    return;
                }
            }
        } else if self.edges.is_some() {
            for (i, &e) in c.edges.iter().enumerate() {
                if !visit(1 + i, entries.other, e.into()) {
                    return;
                }
            }
        }
    }

    /// Asks the memory system for every entry of `c`, so that a later read finds them in
    /// cache: the search prefetches for all children of a node before reading any.
    #[inline]
    pub fn prefetch(&self, entries: Entries, c: &Coords) {
        self.visit_entries(entries, c, |_, packed, index| {
            prefetch(packed, index / 2);
            true
        });
    }

    /// Prefetches the entries that [`Heuristic::dual_moves`] reads for `inverse` (all but the
    /// corners and the `inherited` axes, see [`Heuristic::inverse_coords`]).
    #[inline]
    pub fn prefetch_inverse(&self, entries: Entries, inverse: &Coords, inherited: u8) {
        let read = |lookup: usize| {
            lookup > 0 && (self.phase1.is_none() || inherited & 1 << (lookup - 1) == 0)
        };
        self.visit_entries(entries, inverse, |lookup, packed, index| {
            if read(lookup) {
                prefetch(packed, index / 2);
            }
            true
        });
    }

    /// Asks for the move-table rows that applying any move to `c` reads (the phase-1 move
    /// tables are small enough to stay in cache).
    #[inline]
    pub fn prefetch_moves(&self, c: &Coords) {
        self.corner_space.prefetch_row(c.corners.into());
        if let Some(part) = &self.edges {
            for &e in &c.edges {
                part.space.prefetch_row(e.into());
            }
        }
    }

    /// A lower bound on the distance of `c`, evaluated lazily: as soon as one table shows more
    /// than `budget`, that value is returned without reading the others.
    #[inline(always)]
    pub fn bound(&self, entries: Entries, c: &Coords, budget: u8) -> u8 {
        let mut best = 0;
        self.visit_entries(entries, c, |_, packed, index| {
            best = best.max(nibble(packed, index));
            best <= budget
        });
        best
    }

    /// The dual lookup of a child within `budget` moves of the bound: `None` if the bound of its
    /// inverse position, `inverse`, exceeds the budget; otherwise the moves (as a bit mask) that
    /// may follow the child.
    ///
    /// `values` holds the parent's inverse phase-1 values on entry, and the child's on return:
    /// those of the `inherited` axes are kept, the others read for `inverse`.
    ///
    /// Where a phase-1 bound of the inverse is tight, the next move cannot lie in that axis's
    /// subgroup H. The rest `w` of a solution through the child is the inverse position itself.
    /// If `w` began with a move `m` of H, the inverse followed by `w` without `m`, reversed,
    /// would be `m`, inside H, one move short of `w`: so H is nearer than the bound says.
    /// (Michael Reid's and Tomas Rokicki's observation; it shrinks the branching factor most
    /// where the search spends most of its time, next to the bound.)
    pub fn dual_moves(
        &self,
        entries: Entries,
        inverse: &Coords,
        inherited: u8,
        values: &mut InverseValues,
        budget: u8,
    ) -> Option<u32> {
        let mut allowed = u32::MAX;
        if let Some(part) = &self.phase1 {
            for (axis, value) in values.iter_mut().enumerate() {
                if inherited & 1 << axis == 0 {
                    *value = nibble(entries.other, inverse.phase1[axis].index());
                }
                let value = *value;
                if value > budget {
                    return None;
                }
                if value == budget {
                    allowed &= !part.subgroup[axis];
                }
            }
        }
        if self.edges.is_some() {
            for &e in &inverse.edges {
                if nibble(entries.other, e.into()) > budget {
                    return None;
                }
            }
        }
        Some(allowed)
    }

    /// The inverse phase-1 values of `cube`, all read: where the dual lookup starts, at the root.
    pub fn inverse_values(&self, cube: &Cube3) -> InverseValues {
        let mut values = InverseValues::default();
        let inverse = self.inverse_coords(cube, 0);
        let _ = self.dual_moves(self.entries(), &inverse, 0, &mut values, u8::MAX);
        values
    }

    /// The full heuristic value of `c`.
    pub fn value(&self, c: &Coords) -> u8 {
        self.bound(self.entries(), c, u8::MAX)
    }
}

fn prefetch(bytes: &[u8], index: u64) {
    crate::space::prefetch(bytes, index as usize);
}
