//! The 3x3 heuristic: the largest of the corner table and two edge-set lookups that together see
//! all twelve edges, each read from a memory-mapped pattern database.

use crate::cube::{Cube3, Face, Metric, Move};
use crate::pdb::corners::{self, CornerSpace};
use crate::pdb::edges::{EDGES6, EDGES7, EdgeSet, EdgeSpace, MirroredRanker};
use crate::space::MoveSpace;
use crate::table::{Table, TableError, TableId, TableKind, Verify};
use std::path::Path;

/// Which edge tables the heuristic reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EdgeTables {
    /// Two 7-edge sets (255 MB table): the stronger heuristic, the default.
    Edges7,
    /// Two 6-edge sets (21 MB table): Korf's original choice, quicker to build.
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

/// A search node's coordinates: the corners, the tracked edge set, and the tracked set of the
/// position mirrored by x2 (which is the rest of the edges).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coords {
    pub corners: u64,
    pub edges: u64,
    pub mirrored: u64,
}

/// The mapped tables with the move tables that update coordinates, for one metric.
pub struct Heuristic {
    metric: Metric,
    moves: Vec<Move>,
    corner_space: CornerSpace,
    edge_space: EdgeSpace,
    mirrored_ranker: MirroredRanker,
    /// For each move number, the number of its x2 mirror image.
    mirrored_turn: Vec<usize>,
    corner_table: Table,
    edge_table: Table,
    goal: Coords,
}

impl Heuristic {
    /// Maps the corner table and the chosen edge table of `metric` from `dir`. The tables must be
    /// exact (4-bit); a missing one is an error naming the command that builds it.
    pub fn open(dir: &Path, metric: Metric, edges: EdgeTables) -> Result<Heuristic, TableError> {
        let corner_table =
            Table::open(dir, TableId::new(TableKind::Corners, metric), Verify::IfNew)?;
        let edge_table = Table::open(dir, TableId::new(edges.kind(), metric), Verify::IfNew)?;
        let moves = metric.generators(&Face::ALL);
        let mirror = EdgeSet::mirror();
        let mirrored_turn = moves
            .iter()
            .map(|&m| {
                let image = mirror.map_move(m);
                moves.iter().position(|&x| x == image).unwrap_or(0)
            })
            .collect();
        let set = edges.set();
        Ok(Heuristic {
            metric,
            corner_space: CornerSpace::new(metric),
            edge_space: EdgeSpace::with_every_move(set, metric),
            mirrored_ranker: MirroredRanker::new(set),
            mirrored_turn,
            corner_table,
            edge_table,
            goal: Coords {
                corners: corners::rank(&Cube3::SOLVED.corners),
                edges: set.rank(&Cube3::SOLVED.edges),
                mirrored: set.rank_mirrored(&Cube3::SOLVED),
            },
            moves,
        })
    }

    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The search's moves, in the order `turn` numbers refer to.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn coords(&self, cube: &Cube3) -> Coords {
        let set = self.edge_space.set();
        Coords {
            corners: corners::rank(&cube.corners),
            edges: set.rank(&cube.edges),
            mirrored: self.mirrored_ranker.rank(&cube.edges),
        }
    }

    /// The coordinates of `cube`'s inverse position, ranked from `cube` itself.
    pub fn inverse_coords(&self, cube: &Cube3) -> Coords {
        Coords {
            corners: corners::rank_of_inverse(&cube.corners),
            edges: self.edge_space.set().rank_of_inverse(&cube.edges),
            mirrored: self.mirrored_ranker.rank_of_inverse(&cube.edges),
        }
    }

    pub fn is_goal(&self, c: &Coords) -> bool {
        *c == self.goal
    }

    #[inline]
    pub fn apply(&self, c: &Coords, turn: usize) -> Coords {
        Coords {
            corners: self.corner_space.apply(c.corners, turn),
            edges: self.edge_space.apply(c.edges, turn),
            mirrored: self.edge_space.apply(c.mirrored, self.mirrored_turn[turn]),
        }
    }

    /// Asks the memory system for the table entries of `c`, so that a later [`Heuristic::bound`]
    /// finds them in cache: the search prefetches all children of a node before reading any.
    #[inline]
    pub fn prefetch(&self, c: &Coords) {
        prefetch(self.corner_table.payload(), c.corners / 2);
        prefetch(self.edge_table.payload(), c.edges / 2);
        prefetch(self.edge_table.payload(), c.mirrored / 2);
    }

    /// Asks for the move-table rows that applying any move to `c` reads.
    #[inline]
    pub fn prefetch_moves(&self, c: &Coords) {
        self.corner_space.prefetch_row(c.corners);
        self.edge_space.prefetch_row(c.edges);
        self.edge_space.prefetch_row(c.mirrored);
    }

    /// A lower bound on the distance of `c`, evaluated lazily: as soon as one table shows more
    /// than `budget`, that value is returned without reading the others.
    #[inline]
    pub fn bound(&self, c: &Coords, budget: u8) -> u8 {
        let corners = self.corner_table.nibble(c.corners);
        if corners > budget {
            return corners;
        }
        let edges = self.edge_table.nibble(c.edges);
        if edges > budget {
            return edges;
        }
        corners.max(edges).max(self.edge_table.nibble(c.mirrored))
    }

    /// The full heuristic value of `c`.
    pub fn value(&self, c: &Coords) -> u8 {
        self.bound(c, u8::MAX)
    }
}

fn prefetch(bytes: &[u8], index: u64) {
    crate::space::prefetch(bytes, index as usize);
}
