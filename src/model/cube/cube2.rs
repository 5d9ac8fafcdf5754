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

    /// The whole-cube rotation `g` that, done after this placement, brings the DBL cubie home
    /// untwisted: `self·g` is the same puzzle state, held so that the 2x2 tables index it.
    pub fn normalising_rotation(&self) -> Rotation {
        let held_at = self
            .corners
            .perm
            .iter()
            .position(|&c| c as usize == FIXED_CORNER)
            .unwrap_or(FIXED_CORNER);
        let twist = self.corners.ori[held_at];
        *Rotation::all()
            .iter()
            .find(|g| {
                let g = g.corners();
                g.perm[FIXED_CORNER] as usize == held_at
                    && (twist + g.ori[FIXED_CORNER]).is_multiple_of(3)
            })
            .expect("the 24 rotations bring any slot to DBL in any twist")
    }

    /// This puzzle state turned as a whole so that the DBL corner sits solved: the one
    /// representative of the 24 ways of holding it that the 2x2 tables index.
    ///
    /// If turns `M` solve `self·g` (with `g` the [`Cube2::normalising_rotation`]), then the turns
    /// `g.map_move(M)` solve `self` as it is held, because `g·X·g⁻¹` is the turn of face
    /// `g.face(X)`.
    pub fn normalised(&self) -> Cube2 {
        Cube2 {
            corners: self.corners.then(self.normalising_rotation().corners()),
        }
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
    use crate::model::cube::Face;

    #[test]
    fn every_way_of_holding_a_state_normalises_alike() {
        let cube = Cube2::from_moves(&[Move::new(Face::R, 1), Move::new(Face::F, 3)]);
        let expected = cube.normalised();
        assert!(expected.is_normalised());
        for r in Rotation::all() {
            let held = Cube2 {
                corners: cube.corners.then(r.corners()),
            };
            assert_eq!(held.normalised(), expected);
        }
    }

    #[test]
    fn a_normalised_state_is_its_own_representative() {
        let d = Cube2::from_moves(&[Move::new(Face::D, 1)]);
        assert!(!d.is_normalised());
        let n = d.normalised();
        assert_eq!(n.normalised(), n);
        assert_eq!(n.normalising_rotation(), Rotation::IDENTITY);
    }
}
