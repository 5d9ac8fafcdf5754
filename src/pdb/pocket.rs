//! The whole 2x2x2 state space, DBL corner fixed: 7! x 3^6 = 3,674,160 states.
//!
//! Index = permutation rank of the seven free corners x 729 + twist rank of six of them (the
//! seventh twist follows from the sum rule). Only U, R and F are turned, so DBL never moves.

use super::move_table;
use crate::coord::{rank_arrangement, rank_digits, unrank_arrangement, unrank_digits};
use crate::cube::{Corners, Cube2, FIXED_CORNER, Face, Metric, Move};
use crate::space::{MoveSpace, StateSpace};

/// The slots (and cubies) other than DBL, in the order the coordinate lists them.
const FREE: [usize; 7] = [0, 1, 2, 3, 4, 5, 7];
pub const PERMUTATIONS: u64 = 5040;
pub const TWISTS: u64 = 729;
pub const STATES: u64 = PERMUTATIONS * TWISTS;
/// The faces whose turns leave DBL in place.
pub const FACES: [Face; 3] = [Face::U, Face::R, Face::F];

/// Position of cubie `c` within [`FREE`].
fn free_index(c: u8) -> u8 {
    if c as usize > FIXED_CORNER { c - 1 } else { c }
}

/// The index of a normalised position (DBL home and untwisted).
pub fn rank(cube: &Cube2) -> u64 {
    debug_assert!(cube.is_normalised());
    let c = &cube.corners;
    let perm = FREE.map(|slot| free_index(c.perm[slot]));
    let twist: [u8; 6] = std::array::from_fn(|i| c.ori[FREE[i]]);
    rank_arrangement(&perm, 7) * TWISTS + rank_digits(&twist, 3)
}

/// The normalised position with this index.
pub fn unrank(index: u64) -> Cube2 {
    let mut perm = [0u8; 7];
    let mut twist = [0u8; 6];
    unrank_arrangement(index / TWISTS, 7, &mut perm);
    unrank_digits(index % TWISTS, 3, &mut twist);
    let mut corners = Corners::SOLVED;
    for (i, &slot) in FREE.iter().enumerate() {
        corners.perm[slot] = FREE[perm[i] as usize] as u8;
    }
    for (i, &t) in twist.iter().enumerate() {
        corners.ori[FREE[i]] = t;
    }
    let sum: u8 = twist.iter().sum();
    corners.ori[FREE[6]] = (3 - sum % 3) % 3;
    Cube2 { corners }
}

/// The 2x2 space under one metric's turns, with move tables for the permutation and twist parts
/// (a turn acts on each independently), so a move is two table reads, never an unrank.
pub struct PocketSpace {
    moves: Vec<Move>,
    perm_moves: Vec<u16>,
    twist_moves: Vec<u16>,
}

impl PocketSpace {
    pub fn new(metric: Metric) -> PocketSpace {
        let moves = metric.generators(&FACES);
        let apply = |c: &Cube2, m: Move| c.apply(m);
        let perm_moves = move_table(
            PERMUTATIONS,
            &moves,
            |p| unrank(p * TWISTS),
            apply,
            |c| rank(c) / TWISTS,
        );
        let twist_moves = move_table(TWISTS, &moves, unrank, apply, |c| rank(c) % TWISTS);
        PocketSpace {
            moves,
            perm_moves,
            twist_moves,
        }
    }

    /// The turns of this space, in the order [`MoveSpace::apply`] numbers them.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
}

impl MoveSpace for PocketSpace {
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

impl StateSpace for PocketSpace {
    fn size(&self) -> u64 {
        STATES
    }

    fn goals(&self) -> Vec<u64> {
        vec![rank(&Cube2::SOLVED)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse() {
        for index in (0..STATES).step_by(997) {
            let cube = unrank(index);
            assert!(cube.is_normalised());
            assert_eq!(cube.validate(), Ok(()));
            assert_eq!(rank(&cube), index);
        }
    }

    #[test]
    fn move_tables_agree_with_the_cubie_model() {
        let space = PocketSpace::new(Metric::Htm);
        for index in (0..STATES).step_by(7919) {
            let cube = unrank(index);
            for (turn, &m) in space.moves().iter().enumerate() {
                assert_eq!(space.apply(index, turn), rank(&cube.apply(m)));
            }
        }
    }
}
