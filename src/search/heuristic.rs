//! The 3x3 heuristic: the largest of the corner table and several lookups in one edge-set table,
//! each of the position seen through a whole-cube rotation, read from memory-mapped pattern
//! databases. The identity and x2 lookups together see all twelve edges; further rotations show
//! the table other subsets of edges and make the bound stronger.

use crate::cube::{Cube3, Face, Metric, Move, Rotation};
use crate::pdb::corners::{self, CornerSpace};
use crate::pdb::edges::{ConjugateRanker, EDGES6, EDGES7, EdgeSet, EdgeSpace};
use crate::space::MoveSpace;
use crate::table::{Table, TableError, TableId, TableKind, Verify};
use std::path::Path;

/// Which edge tables the heuristic reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EdgeTables {
    /// 7-edge sets (255 MB table): the stronger heuristic, the default.
    Edges7,
    /// 6-edge sets (21 MB table): Korf's original choice, quicker to build.
    Edges6,
}

impl EdgeTables {
    fn kind(self) -> TableKind {
        match self {
            EdgeTables::Edges7 => TableKind::Edges7,
            EdgeTables::Edges6 => TableKind::Edges6,
        }
    }

    fn set(self) -> EdgeSet {
        match self {
            EdgeTables::Edges7 => EDGES7,
            EdgeTables::Edges6 => EDGES6,
        }
    }
}

/// Most edge lookups a heuristic makes.
pub const MAX_EDGE_LOOKUPS: usize = 4;

/// A search node's coordinates: the corners, and for each edge lookup the tracked set's index in
/// the position seen through that lookup's rotation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coords {
    pub corners: u64,
    pub edges: [u64; MAX_EDGE_LOOKUPS],
}

/// One edge-table lookup of the position conjugated by `rotation`: turn `X` of the position is
/// turn `rotation.face(X)` of the conjugate, so its coordinate follows moves by `turns`.
struct EdgeLookup {
    turns: Vec<usize>,
    ranker: ConjugateRanker,
}

/// The mapped tables with the move tables that update coordinates, for one metric.
pub struct Heuristic {
    metric: Metric,
    moves: Vec<Move>,
    corner_space: CornerSpace,
    edge_space: EdgeSpace,
    lookups: Vec<EdgeLookup>,
    corner_table: Table,
    edge_table: Table,
    goal: Coords,
}

impl Heuristic {
    /// Maps the corner table and the chosen edge table of `metric` from `dir`, looking the edges
    /// up directly and through x2. The tables must be exact (4-bit); a missing one is an error
    /// naming the command that builds it.
    pub fn open(dir: &Path, metric: Metric, edges: EdgeTables) -> Result<Heuristic, TableError> {
        Heuristic::with_rotations(dir, metric, edges, &[])
    }

    /// As [`Heuristic::open`], with one more edge lookup for each of `extra` (at most two).
    pub fn with_rotations(
        dir: &Path,
        metric: Metric,
        edges: EdgeTables,
        extra: &[Rotation],
    ) -> Result<Heuristic, TableError> {
        let corner_table =
            Table::open(dir, TableId::new(TableKind::Corners, metric), Verify::IfNew)?;
        let edge_table = Table::open(dir, TableId::new(edges.kind(), metric), Verify::IfNew)?;
        let moves = metric.generators(&Face::ALL);
        let set = edges.set();
        let rotations: Vec<Rotation> = [Rotation::IDENTITY, EdgeSet::mirror()]
            .into_iter()
            .chain(extra.iter().copied())
            .take(MAX_EDGE_LOOKUPS)
            .collect();
        let lookups: Vec<EdgeLookup> = rotations
            .iter()
            .map(|r| EdgeLookup {
                turns: moves
                    .iter()
                    .map(|&m| moves.iter().position(|&x| x == r.map_move(m)).unwrap_or(0))
                    .collect(),
                ranker: ConjugateRanker::new(set, r),
            })
            .collect();
        let mut heuristic = Heuristic {
            metric,
            corner_space: CornerSpace::new(metric),
            edge_space: EdgeSpace::with_every_move(set, metric),
            lookups,
            corner_table,
            edge_table,
            goal: Coords::default(),
            moves,
        };
        heuristic.goal = heuristic.coords(&Cube3::SOLVED);
        Ok(heuristic)
    }

    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The search's moves, in the order `turn` numbers refer to.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn coords(&self, cube: &Cube3) -> Coords {
        let mut c = Coords {
            corners: corners::rank(&cube.corners),
            ..Coords::default()
        };
        for (slot, lookup) in c.edges.iter_mut().zip(&self.lookups) {
            *slot = lookup.ranker.rank(&cube.edges);
        }
        c
    }

    /// The coordinates of `cube`'s inverse position, ranked from `cube` itself.
    pub fn inverse_coords(&self, cube: &Cube3) -> Coords {
        let mut c = Coords {
            corners: corners::rank_of_inverse(&cube.corners),
            ..Coords::default()
        };
        for (slot, lookup) in c.edges.iter_mut().zip(&self.lookups) {
            *slot = lookup.ranker.rank_of_inverse(&cube.edges);
        }
        c
    }

    pub fn is_goal(&self, c: &Coords) -> bool {
        *c == self.goal
    }

    #[inline]
    pub fn apply(&self, c: &Coords, turn: usize) -> Coords {
        let mut next = Coords {
            corners: self.corner_space.apply(c.corners, turn),
            ..Coords::default()
        };
        for (i, lookup) in self.lookups.iter().enumerate() {
            next.edges[i] = self.edge_space.apply(c.edges[i], lookup.turns[turn]);
        }
        next
    }

    /// Asks the memory system for the table entries of `c`, so that a later [`Heuristic::bound`]
    /// finds them in cache: the search prefetches all children of a node before reading any.
    #[inline]
    pub fn prefetch(&self, c: &Coords) {
        prefetch(self.corner_table.payload(), c.corners / 2);
        for &e in &c.edges[..self.lookups.len()] {
            prefetch(self.edge_table.payload(), e / 2);
        }
    }

    /// Asks for the move-table rows that applying any move to `c` reads.
    #[inline]
    pub fn prefetch_moves(&self, c: &Coords) {
        self.corner_space.prefetch_row(c.corners);
        for &e in &c.edges[..self.lookups.len()] {
            self.edge_space.prefetch_row(e);
        }
    }

    /// A lower bound on the distance of `c`, evaluated lazily: as soon as one table shows more
    /// than `budget`, that value is returned without reading the others.
    #[inline]
    pub fn bound(&self, c: &Coords, budget: u8) -> u8 {
        let mut best = self.corner_table.nibble(c.corners);
        for &e in &c.edges[..self.lookups.len()] {
            if best > budget {
                break;
            }
            best = best.max(self.edge_table.nibble(e));
        }
        best
    }

    /// The full heuristic value of `c`.
    pub fn value(&self, c: &Coords) -> u8 {
        self.bound(c, u8::MAX)
    }
}

fn prefetch(bytes: &[u8], index: u64) {
    crate::space::prefetch(bytes, index as usize);
}
