//! Korf's heuristic: the corner table and an edge table, the edge table read for the tracked
//! set and, through `x2`, for the set of the other edges, so that every piece is seen.

use super::{Entries, Heuristic, Turns, open_table, turns_through};
use crate::catalogue::{TableId, TableKind};
use crate::model::cube::{Cube3, Face, Metric, Move, PackedCube, Rotation};
use crate::space::MoveSpace;
use crate::space::corners::{self, CornerSpace};
use crate::space::edges::{ConjugateRanker, EDGES6, EDGES7, EdgeSet, EdgeSpace};
use crate::table::{Table, TableError};
use std::path::Path;

/// Edge lookups: the set itself and its mirror image.
const EDGE_LOOKUPS: usize = 2;

/// A node's corner coordinate and its edge coordinate per lookup, 32 bits each: every space
/// here has fewer than 2^32 states, and the search keeps hundreds of these per depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KorfCoords {
    corners: u32,
    edges: [u32; EDGE_LOOKUPS],
}

const _: () = assert!(corners::STATES <= 1 << 32 && EDGES7.states() <= 1 << 32);

/// One edge-table lookup of the position conjugated by a rotation.
struct EdgeLookup {
    turns: Turns,
    ranker: ConjugateRanker,
}

pub struct KorfHeuristic {
    metric: Metric,
    moves: Vec<Move>,
    corner_space: CornerSpace,
    edge_space: EdgeSpace,
    lookups: [EdgeLookup; EDGE_LOOKUPS],
    corners: Entries,
    edges: Entries,
    goal: KorfCoords,
    // The mappings `corners` and `edges` read; declared last, dropped after them.
    _tables: [Table; 2],
}

impl KorfHeuristic {
    /// Maps the corner table and the edge table `kind` (`edges6` or `edges7`).
    pub fn open(dir: &Path, metric: Metric, kind: TableKind) -> Result<KorfHeuristic, TableError> {
        let set: EdgeSet = match kind {
            TableKind::Edges7 => EDGES7,
            _ => EDGES6,
        };
        let corner_table = open_table(dir, TableId::new(TableKind::Corners, metric))?;
        let edge_table = open_table(dir, TableId::new(kind, metric))?;
        let moves = metric.generators(&Face::ALL);
        let lookups = [Rotation::IDENTITY, EdgeSet::mirror()].map(|r| EdgeLookup {
            turns: turns_through(&r, &moves),
            ranker: ConjugateRanker::new(set, &r),
        });
        let mut heuristic = KorfHeuristic {
            metric,
            corner_space: CornerSpace::new(metric),
            edge_space: EdgeSpace::with_every_move(set, metric),
            lookups,
            corners: Entries::of(&corner_table),
            edges: Entries::of(&edge_table),
            goal: KorfCoords::default(),
            moves,
            _tables: [corner_table, edge_table],
        };
        heuristic.goal = heuristic.coords(&Cube3::SOLVED);
        Ok(heuristic)
    }
}

impl Heuristic for KorfHeuristic {
    type Coords = KorfCoords;
    /// The inverse position's edge coordinates (its corner value is the position's own).
    type Inverse = [u32; EDGE_LOOKUPS];
    type Dual = ();

    fn metric(&self) -> Metric {
        self.metric
    }

    fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn coords(&self, cube: &Cube3) -> KorfCoords {
        KorfCoords {
            corners: corners::rank(&cube.corners) as u32,
            edges: self
                .lookups
                .each_ref()
                .map(|lookup| lookup.ranker.rank(&cube.edges) as u32),
        }
    }

    #[inline]
    fn child(&self, c: &KorfCoords, turn: usize) -> KorfCoords {
        let corners = self.corner_space.apply(c.corners.into(), turn) as u32;
        self.corners.prefetch_nibble(corners.into());
        let mut edges = [0; EDGE_LOOKUPS];
        for ((e, &from), lookup) in edges.iter_mut().zip(&c.edges).zip(&self.lookups) {
            let turn = usize::from(lookup.turns[turn]);
            *e = self.edge_space.apply_every(from.into(), turn) as u32;
            self.edges.prefetch_nibble(u64::from(*e));
        }
        KorfCoords { corners, edges }
    }

    #[inline]
    fn prefetch_moves(&self, c: &KorfCoords) {
        self.corner_space.prefetch_row(c.corners.into());
        for &e in &c.edges {
            self.edge_space.prefetch_row(e.into());
        }
    }

    #[inline(always)]
    fn bound(&self, c: &KorfCoords, budget: u8) -> u8 {
        let mut best = self.corners.nibble(c.corners.into());
        for &e in &c.edges {
            if best > budget {
                break;
            }
            best = best.max(self.edges.nibble(e.into()));
        }
        best
    }

    /// The two edge sets see every edge and the corner coordinate every corner.
    fn coords_determine_position(&self) -> bool {
        true
    }

    fn is_goal(&self, c: &KorfCoords) -> bool {
        *c == self.goal
    }

    /// Ranked from the carried inverse's edges. The corners are left out: a corner state's table
    /// value is its length as a word in the corner group, which its inverse shares (reverse
    /// the word and invert each turn).
    #[inline]
    fn inverse(&self, inverse: &PackedCube, _turn: u8) -> [u32; EDGE_LOOKUPS] {
        let edges = inverse.cube().edges;
        self.lookups.each_ref().map(|lookup| {
            let e = lookup.ranker.rank(&edges) as u32;
            self.edges.prefetch_nibble(e.into());
            e
        })
    }

    #[inline]
    fn dual(
        &self,
        inverse: &[u32; EDGE_LOOKUPS],
        _: u8,
        _: &mut (),
        budget: u8,
    ) -> Result<u32, u8> {
        let over = inverse
            .iter()
            .map(|&e| self.edges.nibble(e.into()))
            .find(|&value| value > budget);
        over.map_or(Ok(u32::MAX), Err)
    }

    fn root_dual(&self, _cube: &Cube3) {}
}
