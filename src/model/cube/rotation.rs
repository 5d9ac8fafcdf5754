//! The 24 whole-cube rotations.
//!
//! A rotation is kept in two views that compose alike: how it relabels faces (used to read `x`,
//! `y`, `z`, wide turns and slices in notation against fixed centres) and how it moves the cubies
//! (used to turn 2x2 input, which has no centres, into a standard orientation, and to look up one
//! set of edges in a table built for a symmetric set).

use super::cube3::{Cube3, quarter_turn};
use super::moves::{Face, Move};
use super::pieces::{Corners, Edges};
use std::sync::LazyLock;

/// A whole-cube rotation.
///
/// `faces[label]` is the face, named in the frame before the rotation, that sits where `label`
/// is after it. So after `x`, a turn written `U` turns what was the `F` face.
/// `cubies` is the rotation's effect on corners and edges, as if it were a move (centres are not
/// modelled; they turn with the cube).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rotation {
    faces: [Face; 6],
    cubies: Cube3,
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
        cubies: Cube3::SOLVED,
    };

    /// `x`: the whole cube turned as `R`. An edge reaching U or D from F or B keeps its reference
    /// sticker on the reference face only if it lands in the middle layer or came from it.
    pub fn x() -> Rotation {
        use Face::*;
        Rotation {
            faces: relabel([(U, F), (F, D), (D, B), (B, U)]),
            cubies: Cube3 {
                corners: corner_rotation(R),
                edges: Edges {
                    perm: [8, 5, 9, 1, 11, 7, 10, 3, 4, 6, 2, 0],
                    ori: [0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0],
                },
            },
        }
    }

    /// `y`: the whole cube turned as `U`. Middle-layer edges move between the F/B and the R/L
    /// sides, so their reference sticker leaves the reference face: all four flip.
    pub fn y() -> Rotation {
        use Face::*;
        Rotation {
            faces: relabel([(F, R), (R, B), (B, L), (L, F)]),
            cubies: Cube3 {
                corners: corner_rotation(U),
                edges: Edges {
                    perm: [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10],
                    ori: [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
                },
            },
        }
    }

    /// `z`: the whole cube turned as `F`, which is `x y x'`.
    pub fn z() -> Rotation {
        Rotation::x()
            .then(&Rotation::y())
            .then(&Rotation::x().inverse())
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
            cubies: self.cubies.then(&other.cubies),
        }
    }

    pub fn inverse(&self) -> Rotation {
        let mut faces = Face::ALL;
        for label in Face::ALL {
            faces[self.faces[label.index()].index()] = label;
        }
        Rotation {
            faces,
            cubies: self.cubies.inverse(),
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
        &self.cubies.corners
    }

    /// The rotation's effect on corners and edges.
    pub fn cubies(&self) -> &Cube3 {
        &self.cubies
    }

    /// `cube` seen after this rotation: `g·s·g⁻¹`. Turning face `X` of `s` becomes turning face
    /// `self.face(X)` of the result, so distances are kept, and the pieces in slots `S` of `s`
    /// are the pieces in the rotated slots of the result.
    pub fn conjugate(&self, cube: &Cube3) -> Cube3 {
        self.cubies.then(cube).then(&self.cubies.inverse())
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
    use crate::model::cube::Cube3;

    #[test]
    fn z_is_f_with_b_undone_on_corners() {
        assert_eq!(*Rotation::z().corners(), corner_rotation(Face::F));
    }

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

    /// The two views agree: conjugating a turn of face `label` by the rotation's cubie action
    /// (corners and edges, flips included) gives the turn of face `faces[label]`.
    #[test]
    fn face_relabelling_matches_cubie_action() {
        for r in Rotation::all() {
            for m in Move::all() {
                let conjugated = r.conjugate(&Cube3::of_move(m));
                assert_eq!(conjugated, Cube3::of_move(r.map_move(m)), "{r:?} {m}");
            }
            // (A rotation is no position of the fixed-centre cube: x moves the M-slice edges in
            // an odd 4-cycle while its corners, R L', are even.)
        }
    }
}
