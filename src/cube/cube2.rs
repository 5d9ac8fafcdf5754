//! The 2x2x2: eight corners and no centres.

use super::cube3::{Cube3, InvalidCube, random_pieces, validate_corners};
use super::moves::Move;
use super::pieces::Corners;
use super::rotation::Rotation;
use rand::Rng;

/// Slot (and cubie) number of the DBL corner, which the 2x2 tables hold fixed.
pub const FIXED_CORNER: usize = 6;

/// A 2x2x2 position: the placement of its eight corners in the fixed slots of space.
///
/// With no centres, positions that differ by a whole-cube rotation are the same puzzle state;
/// [`Cube2::normalised`] picks the one representative with the DBL corner solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cube2 {
    pub corners: Corners,
}

impl Cube2 {
    pub const SOLVED: Cube2 = Cube2 {
        corners: Corners::SOLVED,
    };

    pub fn apply(&self, m: Move) -> Cube2 {
        Cube2 {
            corners: self.corners.then(&Cube3::of_move(m).corners),
        }
    }

    pub fn apply_all(&self, moves: &[Move]) -> Cube2 {
        moves.iter().fold(*self, |c, &m| c.apply(m))
    }

    pub fn from_moves(moves: &[Move]) -> Cube2 {
        Cube2::SOLVED.apply_all(moves)
    }

    /// Solved in any of the 24 orientations.
    pub fn is_solved(&self) -> bool {
        Rotation::all().iter().any(|r| *r.corners() == self.corners)
    }

    /// Whether the DBL corner is home and untwisted, as the 2x2 tables require.
    pub fn is_normalised(&self) -> bool {
        self.corners.perm[FIXED_CORNER] == FIXED_CORNER as u8 && self.corners.ori[FIXED_CORNER] == 0
    }

    /// The same puzzle state with its cubies renamed by a whole-cube rotation so that the cubie
    /// in the DBL slot is called DBL and sits untwisted.
    ///
    /// Renaming (rotation applied on the left) rather than turning the cube keeps the frame:
    /// if `n = g·s` is solved by turns `M`, then `s·M = g⁻¹`, a rotation of the solved cube, so
    /// `M` read in the caller's own frame solves the caller's position as it is held.
    pub fn normalised(&self) -> Cube2 {
        let held = self.corners.perm[FIXED_CORNER] as usize;
        let twist = self.corners.ori[FIXED_CORNER];
        Rotation::all()
            .iter()
            .map(|g| g.corners())
            .find(|g| g.perm[held] == FIXED_CORNER as u8 && (g.ori[held] + twist) % 3 == 0)
            .map(|g| Cube2 {
                corners: g.then(&self.corners),
            })
            .expect("the 24 rotations move any corner to any slot in any twist")
    }

    /// Checks that the corners form a real 2x2 (every cubie once, twists summing to 0 mod 3).
    /// Any corner permutation is reachable: with no edges there is no parity law.
    pub fn validate(&self) -> Result<(), InvalidCube> {
        validate_corners(&self.corners)
    }

    /// A uniformly random 2x2 state, normalised (3,674,160 equally likely).
    pub fn random(rng: &mut impl Rng) -> Cube2 {
        Cube2 {
            corners: random_pieces::<8, 3>(rng),
        }
        .normalised()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Face;

    #[test]
    fn opposite_face_turns_are_the_same_state_after_normalising() {
        // On corners y' = D U', so U followed by the rotation y' is exactly D.
        let d = Cube2::from_moves(&[Move::new(Face::D, 1)]).normalised();
        assert!(d.is_normalised());
        assert!(Cube2::from_moves(&[Move::new(Face::D, 1), Move::new(Face::D, 3)]).is_solved());
        let u = Cube2::from_moves(&[Move::new(Face::U, 1)]);
        let rotated_back = Cube2 {
            corners: u.corners.then(Rotation::about(Face::D).corners()),
        };
        assert_eq!(rotated_back.normalised(), d);
    }
}
