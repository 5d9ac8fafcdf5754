//! The symmetry-reduced row space under both table families ([`SymRows`]): row `class` holds
//! the corner class's edge values, and a move sends a whole row to one row.
//!
//! A move takes the class representative's corners to one corner value, which one symmetry
//! reduces to its class's representative: every position of the row goes to that row, its
//! edge value through the move and then that symmetry. Where the destination class is
//! self-symmetric, one position has several edge values there (one per symmetry fixing the
//! representative); the row keeps the smallest, so that each position has one place. The
//! families differ only in their symmetries (48 or the 16 that keep the U-D axis) and in how
//! they map edge values ([`EdgeMaps`]).

use crate::space::{MoveSpace, RowSpace, StateSpace};

/// A space whose index is `class x row_len + edge value`, its classes those of the corners
/// under a group of symmetries.
pub trait ClassRowSpace: StateSpace + Sync {
    /// Edge values in a row.
    fn row_len(&self) -> u64;

    /// The class that move number `turn` takes class `class`'s representative to, and the
    /// symmetry (an index into the family's list) that reduces it there.
    fn class_step(&self, class: usize, turn: usize) -> (u32, usize);

    /// The symmetries fixing class `class`'s representative, beyond the identity.
    fn stabilizer(&self, class: usize) -> u64;
}

/// How moves and symmetries change an edge value, as small tables built for one space.
pub trait EdgeMaps: Sync {
    /// Edge value `edge` after move number `turn`.
    fn moved(&self, turn: usize, edge: u32) -> u32;

    /// Edge value `edge` conjugated by symmetry number `sym`.
    fn conjugated(&self, sym: usize, edge: u32) -> u32;
}

/// A [`ClassRowSpace`] laid out in rows for the breadth-first engine's row pass.
pub struct SymRows<'a, S, E> {
    pub(crate) space: &'a S,
    pub(crate) edges: E,
}

/// What one move does to a row of [`SymRows`]: the move, the symmetry that reduces the
/// destination, and the symmetries that fix the destination class (whose positions are
/// reduced to the smallest of their images).
#[derive(Clone, Copy, Debug)]
pub struct SymStep {
    turn: usize,
    sym: usize,
    stabilizer: u64,
}

impl<S: ClassRowSpace, E: EdgeMaps> SymRows<'_, S, E> {
    /// The smallest of an edge value's images under the symmetries of `stabilizer` and the
    /// identity: the representative within a row whose class they fix.
    #[inline(always)]
    fn smallest_image(&self, mut stabilizer: u64, position: u32) -> u32 {
        let mut best = position;
        while stabilizer != 0 {
            let sym = stabilizer.trailing_zeros() as usize;
            stabilizer &= stabilizer - 1;
            best = best.min(self.edges.conjugated(sym, position));
        }
        best
    }
}

impl<S: ClassRowSpace, E: EdgeMaps> MoveSpace for SymRows<'_, S, E> {
    fn move_count(&self) -> usize {
        self.space.move_count()
    }

    fn apply(&self, state: u64, turn: usize) -> u64 {
        self.space.apply(state, turn)
    }
}

impl<S: ClassRowSpace, E: EdgeMaps> StateSpace for SymRows<'_, S, E> {
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

impl<S: ClassRowSpace, E: EdgeMaps> RowSpace for SymRows<'_, S, E> {
    type Step = SymStep;

    fn row_len(&self) -> u64 {
        self.space.row_len()
    }

    fn step(&self, row: u64, turn: usize) -> (u64, SymStep) {
        let (class, sym) = self.space.class_step(row as usize, turn);
        let step = SymStep {
            turn,
            sym,
            stabilizer: self.space.stabilizer(class as usize),
        };
        (u64::from(class), step)
    }

    #[inline(always)]
    fn position(&self, step: SymStep, position: u32) -> u32 {
        let moved = self.edges.moved(step.turn, position);
        let image = self.edges.conjugated(step.sym, moved);
        self.smallest_image(step.stabilizer, image)
    }

    fn row_has_duplicates(&self, row: u64) -> bool {
        self.space.stabilizer(row as usize) != 0
    }

    fn row_representative(&self, row: u64, position: u32) -> u32 {
        self.smallest_image(self.space.stabilizer(row as usize), position)
    }
}
