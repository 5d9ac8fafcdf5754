//! All eight 3x3x3 corners: 8! x 3^7 = 88,179,840 states.
//!
//! Index = permutation rank x 2187 + twist rank of slots 0..7 (the eighth twist follows from the
//! sum rule). Twist is stored per slot, so a move acts on the two parts independently and each has
//! its own small move table.

use super::twisted::TwistSpace;
use crate::coord::{rank_arrangement, rank_digits, unrank_arrangement, unrank_digits};
use crate::model::cube::{Corners, Cube3, Face, Metric, Move};

pub const PERMUTATIONS: u64 = 40_320;
pub const TWISTS: u64 = 2_187;
pub const STATES: u64 = PERMUTATIONS * TWISTS;

pub fn rank(corners: &Corners) -> u64 {
    let twist: [u8; 7] = std::array::from_fn(|i| corners.ori[i]);
    rank_arrangement(&corners.perm, 8) * TWISTS + rank_digits(&twist, 3)
}

pub fn unrank(index: u64) -> Corners {
    let mut corners = Corners::SOLVED;
    unrank_arrangement(index / TWISTS, 8, &mut corners.perm);
    unrank_digits(index % TWISTS, 3, &mut corners.ori[..7]);
    let sum: u8 = corners.ori[..7].iter().sum();
    corners.ori[7] = (3 - sum % 3) % 3;
    corners
}

/// The corner space under one metric's 3x3 face turns.
pub type CornerSpace = TwistSpace<TWISTS>;

impl CornerSpace {
    pub fn new(metric: Metric) -> CornerSpace {
        let moves = metric.generators(&Face::ALL);
        let apply = |c: &Corners, m: Move| c.then(&Cube3::of_move(m).corners);
        TwistSpace::build(moves, PERMUTATIONS, unrank, rank, apply, &Corners::SOLVED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_round_trips_and_moves_agree_with_cubies() {
        use crate::space::MoveSpace;
        let space = CornerSpace::new(Metric::Htm);
        for index in (0..STATES).step_by(1_000_003) {
            let corners = unrank(index);
            assert_eq!(rank(&corners), index);
            for (turn, &m) in space.moves().iter().enumerate() {
                let moved = corners.then(&Cube3::of_move(m).corners);
                assert_eq!(space.apply(index, turn), rank(&moved));
            }
        }
    }
}
