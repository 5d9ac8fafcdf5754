//! The whole 2x2x2 state space, DBL corner fixed: 7! x 3^6 = 3,674,160 states.
//!
//! Index = permutation rank of the seven free corners x 729 + twist rank of six of them (the
//! seventh twist follows from the sum rule). Only U, R and F are turned, so DBL never moves.

use super::twisted::TwistSpace;
use crate::coord::{rank_arrangement, rank_digits, unrank_arrangement, unrank_digits};
use crate::model::cube::{Corners, Cube2, FIXED_CORNER, Face, Metric};

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

/// The 2x2 space under one metric's turns of U, R and F.
pub type PocketSpace = TwistSpace<TWISTS>;

impl PocketSpace {
    pub fn new(metric: Metric) -> PocketSpace {
        let moves = metric.generators(&FACES);
        TwistSpace::build(
            moves,
            PERMUTATIONS,
            unrank,
            rank,
            |c, m| c.apply(m),
            &Cube2::SOLVED,
        )
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
        use crate::space::MoveSpace;
        let space = PocketSpace::new(Metric::Htm);
        for index in (0..STATES).step_by(7919) {
            let cube = unrank(index);
            for (turn, &m) in space.moves().iter().enumerate() {
                assert_eq!(space.apply(index, turn), rank(&cube.apply(m)));
            }
        }
    }
}
