//! Corner coordinates of the form `permutation rank x TWISTS + twist rank`, with the twist kept
//! per slot so that a move changes the two parts independently: each part gets its own small
//! move table, and a move is two table reads, never an unrank. The whole 2x2x2 and the 3x3x3
//! corners are both of this form; `TWISTS` is a constant so the split costs a multiplication.

use super::move_table;
use crate::model::cube::Move;
use crate::space::{MoveSpace, StateSpace};

pub struct TwistSpace<const TWISTS: u64> {
    moves: Vec<Move>,
    permutations: u64,
    perm_moves: Vec<u16>,
    twist_moves: Vec<u16>,
    goal: u64,
}

impl<const TWISTS: u64> TwistSpace<TWISTS> {
    /// The space of states `S` ranked by `rank` (inverse `unrank`) under `moves`.
    pub(crate) fn build<S>(
        moves: Vec<Move>,
        permutations: u64,
        unrank: impl Fn(u64) -> S + Sync,
        rank: impl Fn(&S) -> u64 + Sync,
        apply: impl Fn(&S, Move) -> S + Sync,
        solved: &S,
    ) -> Self {
        let perm_moves = move_table(
            permutations,
            &moves,
            |p| unrank(p * TWISTS),
            &apply,
            |s| rank(s) / TWISTS,
        );
        let twist_moves = move_table(TWISTS, &moves, &unrank, &apply, |s| rank(s) % TWISTS);
        TwistSpace {
            goal: rank(solved),
            moves,
            permutations,
            perm_moves,
            twist_moves,
        }
    }

    /// The turns of this space, in the order [`MoveSpace::apply`] numbers them.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Prefetches the permutation move-table row that moves from `state` read (the twist table
    /// is small enough to stay in cache).
    #[inline]
    pub fn prefetch_row(&self, state: u64) {
        let row = (state / TWISTS) as usize * self.moves.len();
        crate::space::prefetch(&self.perm_moves, row);
    }
}

impl<const TWISTS: u64> MoveSpace for TwistSpace<TWISTS> {
    fn move_count(&self) -> usize {
        self.moves.len()
    }

    #[inline]
    fn apply(&self, state: u64, turn: usize) -> u64 {
        let n = self.moves.len();
        let perm = self.perm_moves[(state / TWISTS) as usize * n + turn];
        let twist = self.twist_moves[(state % TWISTS) as usize * n + turn];
        u64::from(perm) * TWISTS + u64::from(twist)
    }
}

impl<const TWISTS: u64> StateSpace for TwistSpace<TWISTS> {
    fn size(&self) -> u64 {
        self.permutations * TWISTS
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.goal]
    }
}
