//! The 24 whole-cube rotations.
//!
//! A rotation is kept in two views that compose alike: how it relabels faces (used to read `x`,
//! `y`, `z`, wide turns and slices in notation against fixed centres) and how it moves the eight
//! corners (used to turn 2x2 input, which has no centres, into a standard orientation).

use super::cube3::quarter_turn;
use super::moves::{Face, Move};
use super::pieces::Corners;
use std::sync::LazyLock;

/// A whole-cube rotation.
///
/// `faces[label]` is the face, named in the frame before the rotation, that sits where `label`
/// is after it. So after `x`, a turn written `U` turns what was the `F` face.
/// `corners` is the rotation's effect on the corner cubies, as if it were a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rotation {
    faces: [Face; 6],
    corners: Corners,
}

const fn relabel(map: [(Face, Face); 4]) -> [Face; 6] {
    let mut faces = Face::ALL;
    let mut i = 0;
    while i < 4 {
        faces[map[i].0.index()] = map[i].1;
        i += 1;
    }
    faces
}

/// The corner effect of turning `face` clockwise and its opposite counter-clockwise together,
/// which is a whole-cube rotation as far as corners are concerned.
fn corner_rotation(face: Face) -> Corners {
    let near = quarter_turn(face).corners;
    let far = quarter_turn(face.opposite()).corners;
    near.then(&far.inverse())
}

impl Rotation {
    pub const IDENTITY: Rotation = Rotation {
        faces: Face::ALL,
        corners: Corners::SOLVED,
    };

    /// `x`: the whole cube turned as `R`.
    pub fn x() -> Rotation {
        use Face::*;
        Rotation {
            faces: relabel([(U, F), (F, D), (D, B), (B, U)]),
            corners: corner_rotation(R),
        }
    }

    /// `y`: the whole cube turned as `U`.
    pub fn y() -> Rotation {
        use Face::*;
        Rotation {
            faces: relabel([(F, R), (R, B), (B, L), (L, F)]),
            corners: corner_rotation(U),
        }
    }

    /// `z`: the whole cube turned as `F`.
    pub fn z() -> Rotation {
        use Face::*;
        Rotation {
            faces: relabel([(U, L), (L, D), (D, R), (R, U)]),
            corners: corner_rotation(F),
        }
    }

    /// The rotation about `face`'s axis in that face's clockwise sense (`x`, `y`, `z` or the
    /// inverse of one).
    pub fn about(face: Face) -> Rotation {
        match face {
            Face::R => Rotation::x(),
            Face::U => Rotation::y(),
            Face::F => Rotation::z(),
            far => Rotation::about(far.opposite()).inverse(),
        }
    }

    /// `self` and then `other`.
    pub fn then(&self, other: &Rotation) -> Rotation {
        Rotation {
            faces: other.faces.map(|label| self.faces[label.index()]),
            corners: self.corners.then(&other.corners),
        }
    }

    pub fn inverse(&self) -> Rotation {
        let mut faces = Face::ALL;
        for label in Face::ALL {
            faces[self.faces[label.index()].index()] = label;
        }
        Rotation {
            faces,
            corners: self.corners.inverse(),
        }
    }

    pub fn power(&self, n: u8) -> Rotation {
        (0..n).fold(Rotation::IDENTITY, |r, _| r.then(self))
    }

    /// The face (in the frame before this rotation) that the label `face` names after it.
    pub fn face(&self, face: Face) -> Face {
        self.faces[face.index()]
    }

    /// A turn written in the rotated frame, as a turn of the unrotated cube.
    pub fn map_move(&self, m: Move) -> Move {
        Move::new(self.face(m.face()), m.quarter_turns())
    }

    pub fn corners(&self) -> &Corners {
        &self.corners
    }

    /// All 24 rotations, the identity first.
    pub fn all() -> &'static [Rotation] {
        static ALL: LazyLock<Vec<Rotation>> = LazyLock::new(|| {
            let generators = [Rotation::x(), Rotation::y()];
            let mut all = vec![Rotation::IDENTITY];
            let mut next = 0;
            while next < all.len() {
                let r = all[next];
                for g in &generators {
                    let product = r.then(g);
                    if !all.contains(&product) {
                        all.push(product);
                    }
                }
                next += 1;
            }
            all
        });
        &ALL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Cube3;

    #[test]
    fn there_are_24_rotations_and_axis_turns_have_order_4() {
        assert_eq!(Rotation::all().len(), 24);
        for r in [Rotation::x(), Rotation::y(), Rotation::z()] {
            assert_eq!(r.power(4), Rotation::IDENTITY);
            assert_ne!(r.power(2), Rotation::IDENTITY);
        }
        // x y x' = z: after x the top holds the old front face, so y turns about the F axis.
        let xyx = Rotation::x()
            .then(&Rotation::y())
            .then(&Rotation::x().inverse());
        assert_eq!(xyx, Rotation::z());
        assert_ne!(xyx, Rotation::z().inverse());
    }

    /// The two views agree: conjugating a turn of face `label` by the rotation's corner action
    /// gives the turn of face `faces[label]`.
    #[test]
    fn face_relabelling_matches_corner_action() {
        for r in Rotation::all() {
            for m in Move::all() {
                let turned = Cube3::of_move(m).corners;
                let conjugated = r.corners.then(&turned).then(&r.corners.inverse());
                assert_eq!(
                    conjugated,
                    Cube3::of_move(r.map_move(m)).corners,
                    "{r:?} {m}"
                );
            }
        }
    }
}
