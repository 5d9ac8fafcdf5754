//! The 3x3x3 as cubies: 8 corners and 12 edges, centres fixed.

use super::moves::{Face, Move};
use super::pieces::{Corners, Edges, FourMoved, PiecesFault};
use rand::{Rng, RngExt};

/// Corner cubies and slots, in the standard numbering.
pub const CORNER_NAMES: [&str; 8] = ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"];
/// Edge cubies and slots, in the standard numbering.
pub const EDGE_NAMES: [&str; 12] = [
    "UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR",
];

/// A 3x3x3 position relative to its fixed centres.
///
/// Corner twist counts clockwise turns of the cubie's U/D sticker away from the U/D face of its
/// slot; edge flip is 1 when the edge's reference sticker (U/D, else F/B) is off the slot's
/// reference face. Both are the conventions of Kociemba's cubie model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cube3 {
    pub corners: Corners,
    pub edges: Edges,
}

/// Why a cubie state is not a position of the real cube.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvalidCube {
    #[error("corner {duplicated} appears twice and corner {missing} is missing")]
    DuplicatedCorner {
        duplicated: &'static str,
        missing: &'static str,
    },
    #[error("edge {duplicated} appears twice and edge {missing} is missing")]
    DuplicatedEdge {
        duplicated: &'static str,
        missing: &'static str,
    },
    #[error("a piece number or orientation is out of range")]
    OutOfRange,
    #[error("the corner twists sum to {0} mod 3, not 0: a corner is twisted in place")]
    Twist(u8),
    #[error("the edge flips sum to 1 mod 2: an edge is flipped in place")]
    Flip,
    #[error("corner and edge permutations differ in parity: two pieces are swapped")]
    Parity,
}

fn pieces_fault(fault: PiecesFault, names: &[&'static str], corner: bool) -> InvalidCube {
    match fault {
        PiecesFault::Duplicated {
            duplicated,
            missing,
        } => {
            let (duplicated, missing) = (names[duplicated as usize], names[missing as usize]);
            if corner {
                InvalidCube::DuplicatedCorner {
                    duplicated,
                    missing,
                }
            } else {
                InvalidCube::DuplicatedEdge {
                    duplicated,
                    missing,
                }
            }
        }
        PiecesFault::OutOfRange(_) | PiecesFault::BadOrientation(_) => InvalidCube::OutOfRange,
    }
}

/// Clockwise quarter turns of the six faces, in face order U R F D L B.
const QUARTER_TURNS: [Cube3; 6] = [
    // U
    Cube3 {
        corners: Corners {
            perm: [3, 0, 1, 2, 4, 5, 6, 7],
            ori: [0; 8],
        },
        edges: Edges {
            perm: [3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11],
            ori: [0; 12],
        },
    },
    // R
    Cube3 {
        corners: Corners {
            perm: [4, 1, 2, 0, 7, 5, 6, 3],
            ori: [2, 0, 0, 1, 1, 0, 0, 2],
        },
        edges: Edges {
            perm: [8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0],
            ori: [0; 12],
        },
    },
    // F
    Cube3 {
        corners: Corners {
            perm: [1, 5, 2, 3, 0, 4, 6, 7],
            ori: [1, 2, 0, 0, 2, 1, 0, 0],
        },
        edges: Edges {
            perm: [0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11],
            ori: [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0],
        },
    },
    // D
    Cube3 {
        corners: Corners {
            perm: [0, 1, 2, 3, 5, 6, 7, 4],
            ori: [0; 8],
        },
        edges: Edges {
            perm: [0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11],
            ori: [0; 12],
        },
    },
    // L
    Cube3 {
        corners: Corners {
            perm: [0, 2, 6, 3, 4, 1, 5, 7],
            ori: [0, 1, 2, 0, 0, 2, 1, 0],
        },
        edges: Edges {
            perm: [0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11],
            ori: [0; 12],
        },
    },
    // B
    Cube3 {
        corners: Corners {
            perm: [0, 1, 3, 7, 4, 5, 2, 6],
            ori: [0, 0, 1, 2, 0, 0, 2, 1],
        },
        edges: Edges {
            perm: [0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7],
            ori: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1],
        },
    },
];

/// All 18 face turns as cubie states, indexed by [`Move::index`].
pub const MOVE_CUBES: [Cube3; 18] = {
    let mut out = [Cube3::SOLVED; 18];
    let mut i = 0;
    while i < 18 {
        let quarter = &QUARTER_TURNS[i / 3];
        let mut m = *quarter;
        let mut extra = 0;
        while extra < i % 3 {
            m = m.then(quarter);
            extra += 1;
        }
        out[i] = m;
        i += 1;
    }
    out
};

/// The 18 face turns as the four corners and four edges each moves (see [`FourMoved`]).
const TURNS_MOVED: [(FourMoved<8, 3>, FourMoved<12, 2>); 18] = {
    let mut out = [(
        FourMoved::of(&Corners::SOLVED),
        FourMoved::of(&Edges::SOLVED),
    ); 18];
    let mut i = 0;
    while i < 18 {
        out[i] = (
            FourMoved::of(&MOVE_CUBES[i].corners),
            FourMoved::of(&MOVE_CUBES[i].edges),
        );
        i += 1;
    }
    out
};

impl Default for Cube3 {
    fn default() -> Cube3 {
        Cube3::SOLVED
    }
}

impl Cube3 {
    pub const SOLVED: Cube3 = Cube3 {
        corners: Corners::SOLVED,
        edges: Edges::SOLVED,
    };

    /// `self` followed by `other`.
    pub const fn then(&self, other: &Cube3) -> Cube3 {
        Cube3 {
            corners: self.corners.then(&other.corners),
            edges: self.edges.then(&other.edges),
        }
    }

    pub const fn inverse(&self) -> Cube3 {
        Cube3 {
            corners: self.corners.inverse(),
            edges: self.edges.inverse(),
        }
    }

    /// The cubie state of a single face turn.
    pub const fn of_move(m: Move) -> Cube3 {
        MOVE_CUBES[m.index()]
    }

    /// The position after turn `m`: `self.then(&Cube3::of_move(m))`, rewriting only the eight
    /// slots the turn changes.
    #[inline]
    pub fn apply(&self, m: Move) -> Cube3 {
        let (corners, edges) = &TURNS_MOVED[m.index()];
        Cube3 {
            corners: self.corners.then_turn(corners),
            edges: self.edges.then_turn(edges),
        }
    }

    pub fn apply_all(&self, moves: &[Move]) -> Cube3 {
        moves.iter().fold(*self, |c, &m| c.apply(m))
    }

    /// The position a solved cube reaches under `moves`.
    pub fn from_moves(moves: &[Move]) -> Cube3 {
        Cube3::SOLVED.apply_all(moves)
    }

    pub fn is_solved(&self) -> bool {
        *self == Cube3::SOLVED
    }

    /// Checks the laws every position of the real cube obeys: whole permutations, twist sum 0
    /// mod 3, flip sum even, and equal corner and edge parity.
    pub fn validate(&self) -> Result<(), InvalidCube> {
        validate_corners(&self.corners)?;
        self.edges
            .check()
            .map_err(|f| pieces_fault(f, &EDGE_NAMES, false))?;
        if self.edges.orientation_sum() != 0 {
            return Err(InvalidCube::Flip);
        }
        if self.corners.is_odd() != self.edges.is_odd() {
            return Err(InvalidCube::Parity);
        }
        Ok(())
    }

    /// A uniformly random position of the real cube (each of the 43 quintillion equally likely).
    pub fn random(rng: &mut impl Rng) -> Cube3 {
        let mut corners = random_pieces::<8, 3>(rng);
        let edges = random_pieces::<12, 2>(rng);
        if corners.is_odd() != edges.is_odd() {
            // Swapping two corners fixes parity and keeps the distribution uniform: it is a
            // bijection between the odd and even halves.
            corners.perm.swap(0, 1);
            corners.ori.swap(0, 1);
        }
        Cube3 { corners, edges }
    }
}

/// The corner laws shared by both puzzles: each cubie once, twist sum 0 mod 3.
pub(crate) fn validate_corners(corners: &Corners) -> Result<(), InvalidCube> {
    corners
        .check()
        .map_err(|f| pieces_fault(f, &CORNER_NAMES, true))?;
    match corners.orientation_sum() {
        0 => Ok(()),
        t => Err(InvalidCube::Twist(t)),
    }
}

/// Uniform permutation (Fisher-Yates) and uniform orientations with sum 0 (the last one is
/// forced), which is uniform over all states with that sum.
pub(crate) fn random_pieces<const N: usize, const MOD: u8>(
    rng: &mut impl Rng,
) -> super::pieces::Pieces<N, MOD> {
    let mut p = super::pieces::Pieces::<N, MOD>::SOLVED;
    for i in (1..N).rev() {
        let j = rng.random_range(0..=i);
        p.perm.swap(i, j);
    }
    let mut sum = 0u8;
    for o in p.ori.iter_mut().take(N - 1) {
        *o = rng.random_range(0..MOD);
        sum = (sum + *o) % MOD;
    }
    p.ori[N - 1] = (MOD - sum) % MOD;
    p
}

/// The clockwise quarter turn of `face` as a cubie state.
pub const fn quarter_turn(face: Face) -> Cube3 {
    QUARTER_TURNS[face.index()]
}
