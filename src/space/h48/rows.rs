//! The coset space laid out in rows for the engine's row pass ([`H48Rows`]).

use super::*;
use crate::space::{MoveSpace, RowSpace, StateSpace};

/// A [`H48Space`] laid out in rows for the breadth-first engine: row `class` holds the class's
/// edge values. A move takes the class representative's corners to one corner value, so the
/// whole row goes into one row, through the move and then the symmetry that reduces the
/// destination's corners. Both act on edge values by whole-value tables: 138,600 values make
/// 10 MB for the moves and 27 MB for the symmetries, read a row at a time.
pub struct H48Rows<'a> {
    space: &'a H48Space,
    /// `moves[turn x edge_values + edge]`: the edge value after move `turn`.
    moves: Vec<u32>,
    /// `syms[sym x edge_values + edge]`: the edge value seen through symmetry `sym`.
    syms: Vec<u32>,
}

/// What one move does to a row of a [`H48Rows`]: the move, the symmetry that reduces the
/// destination, and the symmetries that fix the destination class (whose positions are
/// reduced to the smallest of their images).
#[derive(Clone, Copy, Debug)]
pub struct H48Step {
    turn: usize,
    sym: usize,
    stabilizer: u64,
}

impl<'a> H48Rows<'a> {
    pub fn new(space: &'a H48Space) -> H48Rows<'a> {
        use rayon::prelude::*;
        let values = space.flips.edge_values() as usize;
        let table = |maps: usize, image: &(dyn Fn(usize, H48Coord) -> (u32, u32, u32) + Sync)| {
            (0..maps * values)
                .into_par_iter()
                .map(|i| {
                    let (map, edge) = (i / values, (i % values) as u32);
                    let (m, s, flips) = image(map, space.edge_coord_of(edge));
                    space.edge_value(m, s, flips)
                })
                .collect::<Vec<u32>>()
        };
        let moves = table(space.moves.len(), &|turn, c| {
            let moved = space.apply_coord(c, turn);
            (moved.m.into(), moved.s.into(), moved.flips.into())
        });
        let syms = table(SYMS, &|sym, c| space.conjugate_edges(&c, sym));
        H48Rows { space, moves, syms }
    }

    fn values(&self) -> usize {
        self.space.flips.edge_values() as usize
    }

    /// The smallest of an edge value's images under the symmetries of `stabilizer` and the
    /// identity: the representative within a row whose class they fix.
    #[inline(always)]
    fn smallest_image(&self, mut stabilizer: u64, position: u32) -> u32 {
        let mut best = position;
        while stabilizer != 0 {
            let sym = stabilizer.trailing_zeros() as usize;
            stabilizer &= stabilizer - 1;
            best = best.min(self.syms[sym * self.values() + position as usize]);
        }
        best
    }
}

impl MoveSpace for H48Rows<'_> {
    fn move_count(&self) -> usize {
        self.space.move_count()
    }

    fn apply(&self, state: u64, turn: usize) -> u64 {
        self.space.apply(state, turn)
    }
}

impl StateSpace for H48Rows<'_> {
    fn size(&self) -> u64 {
        self.space.size()
    }

    fn goals(&self) -> Vec<u64> {
        self.space.goals()
    }

    fn has_duplicates(&self) -> bool {
        true
    }

    fn representative(&self, state: u64) -> u64 {
        self.space.representative(state)
    }
}

impl RowSpace for H48Rows<'_> {
    type Step = H48Step;

    fn row_len(&self) -> u64 {
        self.values() as u64
    }

    fn step(&self, row: u64, turn: usize) -> (u64, H48Step) {
        let space = self.space;
        let corners = space.reps[row as usize];
        let n = space.moves.len();
        let split = space.split_moves[(corners / TWISTS) as usize * n + turn];
        let twist = space.twist_moves[(corners % TWISTS) as usize * n + turn];
        let reduced = space.reduce[(u32::from(split) * TWISTS + u32::from(twist)) as usize];
        let class = reduced >> 6;
        let step = H48Step {
            turn,
            sym: (reduced & 63) as usize,
            stabilizer: space.stabilizers[class as usize],
        };
        (u64::from(class), step)
    }

    #[inline(always)]
    fn position(&self, step: H48Step, position: u32) -> u32 {
        let values = self.values();
        let moved = self.moves[step.turn * values + position as usize];
        let image = self.syms[step.sym * values + moved as usize];
        self.smallest_image(step.stabilizer, image)
    }

    fn row_has_duplicates(&self, row: u64) -> bool {
        self.space.stabilizers[row as usize] != 0
    }

    fn row_representative(&self, row: u64, position: u32) -> u32 {
        self.smallest_image(self.space.stabilizers[row as usize], position)
    }
}
