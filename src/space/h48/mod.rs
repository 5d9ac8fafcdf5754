//! Tables over the cosets of a subgroup that every one of the cube's 48 symmetries maps onto
//! itself, reduced by all 48: the family of Sebastiano Tronto's H48 solver (nissy-core,
//! `doc/h48.md`).
//!
//! The subgroup `H0` holds the positions where every corner sits in its own tetrad (URF ULB DLF
//! DRB, or UFL UBR DFR DBL) and is oriented, and every edge sits in its own slice (M: UF UB DF
//! DB; S: UR UL DR DL; E: FR FL BL BR). A symmetry maps tetrads to tetrads and slices to
//! slices, and a corner in its tetrad (an edge in its slice) that is oriented along one axis is
//! oriented along all three, so every symmetry maps `H0` onto itself. A member of the family
//! keeps some of the edge flips as well ([`H48Flips`]), again in a way every symmetry keeps.
//!
//! A coset is known by what the subgroup cannot change:
//! - **corners**: which four slots hold the first tetrad (70 ways) and every twist (3^7):
//!   153,090 values in 3,393 classes under the 48 symmetries (nissy's count, tested);
//! - **edges**: which four slots hold M-slice edges and which four S-slice edges (495 x 70 =
//!   34,650 placements), and the kept flips.
//!
//! An entry is indexed by the corner class and the edge part seen through the symmetry that
//! takes the corners to their class's representative: `index = class x edge_values + edge`,
//! `edge = kept flips x 34,650 + placement`. The same reduction with the 16 U-D symmetries
//! ([`crate::space::ud`]) needs three lookups (one per axis) to see what one lookup here sees;
//! in exchange its subgroups are larger (they hold every turn of U and D, these only the half
//! turns), which is what lets those tables grow a coset part at a time.
//!
//! A corner class whose representative is fixed by some symmetries stands for the same position
//! under several edge values; as in the `ud` family the breadth-first search reaches the
//! smallest ([`H48Space::representative`]) and the others are filled from it.

mod rows;
mod space;

pub use rows::{H48Rows, H48Step};
pub use space::H48Space;

use crate::coord::{rank_combination, rank_digits, unrank_combination, unrank_digits};
use crate::model::cube::{Corners, Cube3};
use crate::space::masks::slots_where;
use serde::{Deserialize, Serialize};

/// Ways for the first tetrad's corners to occupy four of the eight slots.
pub const SPLITS: u32 = 70;
pub const TWISTS: u32 = 2_187;
/// Values of the corner part: split x twist.
pub const CORNER_VALUES: u32 = SPLITS * TWISTS;
/// Classes of the corner part under the 48 symmetries (nissy-core's `COCSEP_CLASSES`, tested).
pub const CORNER_CLASSES: u32 = 3_393;
/// Ways for the M- and S-slice edges to occupy the twelve slots (the E-slice edges take the
/// rest): 495 x 70.
pub const PLACEMENTS: u32 = 34_650;
/// All 48 symmetries.
pub const SYMS: usize = 48;

/// The first tetrad's pieces: URF, ULB, DLF, DRB (corners 0, 2, 5, 7).
const TETRAD: u32 = 0b1010_0101;
/// The M-slice edges UF UB DF DB (pieces 1, 3, 5, 7), the S-slice edges UR UL DR DL (0, 2, 4,
/// 6) and the E-slice edges FR FL BL BR (8 to 11), as masks of pieces, which are also the
/// masks of their home slots.
pub(crate) const SLICE_PIECES: [u32; 3] = [0b1010_1010, 0b0101_0101, 0b1111_0000_0000];

/// Which edge flips a coset keeps beyond `H0`'s (none). Every choice is kept by all 48
/// symmetries, as the reduction needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum H48Flips {
    /// The parity of the flips of each slice's edges: the subgroup keeps each slice's edges
    /// flipped an even number of times. The three parities add up to the (even) parity of
    /// all flips, so two say everything: 4 values.
    Parity,
}

impl H48Flips {
    /// Values of the kept flips.
    pub const fn values(self) -> u32 {
        match self {
            H48Flips::Parity => 4,
        }
    }

    /// Values of the edge part of an index.
    pub const fn edge_values(self) -> u32 {
        self.values() * PLACEMENTS
    }

    /// Entries of the table: corner classes x edge values.
    pub const fn entries(self) -> u64 {
        CORNER_CLASSES as u64 * self.edge_values() as u64
    }

    /// The kept flips of a position with flips `flips` and M- and S-slice edges in `m` and
    /// `s` (masks of slots).
    #[inline(always)]
    pub(crate) fn kept(self, flips: u32, m: u32, s: u32) -> u32 {
        match self {
            H48Flips::Parity => (flips & m).count_ones() & 1 | ((flips & s).count_ones() & 1) << 1,
        }
    }

    /// Flips with kept value `kept` for edges placed by `m` and `s`: one flipped edge in each
    /// slice whose parity is odd, the E slice making the total even.
    pub(crate) fn flips_of(self, kept: u32, m: u32, s: u32) -> u32 {
        match self {
            H48Flips::Parity => {
                let e = !(m | s) & crate::space::masks::ALL_SLOTS;
                let lowest = |mask: u32| mask & mask.wrapping_neg();
                let (odd_m, odd_s) = (kept & 1, kept >> 1 & 1);
                (lowest(m) * odd_m) | (lowest(s) * odd_s) | (lowest(e) * (odd_m ^ odd_s))
            }
        }
    }
}

/// A position's coset coordinate in the parts that moves act on separately: the corner part as
/// two small ranks, the edge part as masks of the twelve slots (which moves and symmetries
/// permute by lookups in tables of a few kilobytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct H48Coord {
    /// Rank of the set of slots holding the first tetrad's corners.
    pub split: u8,
    /// Twists of corner slots 0..7 as base-3 digits.
    pub twist: u16,
    /// The slots holding M-slice edges (bit `i` for slot `i`).
    pub m: u16,
    /// The slots holding S-slice edges.
    pub s: u16,
    /// The flips of all twelve edge slots.
    pub flips: u16,
}

impl H48Coord {
    /// The coordinate of `cube`.
    pub fn of(cube: &Cube3) -> H48Coord {
        let (c, e) = (&cube.corners, &cube.edges);
        let in_set = |set: u32| move |p: u8| set >> p & 1 == 1;
        H48Coord {
            split: rank_combination(slots_where(&c.perm, in_set(TETRAD))) as u8,
            twist: rank_digits(&c.ori[..7], 3) as u16,
            m: slots_where(&e.perm, in_set(SLICE_PIECES[0])) as u16,
            s: slots_where(&e.perm, in_set(SLICE_PIECES[1])) as u16,
            flips: slots_where(&e.ori, |o| o == 1) as u16,
        }
    }

    /// The corner part, `split x 2187 + twist`.
    #[inline(always)]
    pub fn corners(self) -> u32 {
        u32::from(self.split) * TWISTS + u32::from(self.twist)
    }
}

/// A position with the corner part `corners`: each tetrad's corners in its slots, in order.
fn corners_of(corners: u32) -> Corners {
    let slots = unrank_combination(u64::from(corners / TWISTS), 4);
    let in_tetrad = |first: bool| (0..8u8).filter(move |p| (TETRAD >> p & 1 == 1) == first);
    let mut tetrads = [in_tetrad(true), in_tetrad(false)];
    let mut out = Corners::SOLVED;
    for (slot, piece) in out.perm.iter_mut().enumerate() {
        let tetrad = usize::from(slots >> slot & 1 == 0);
        *piece = tetrads[tetrad].next().expect("four corners a tetrad");
    }
    unrank_digits(u64::from(corners % TWISTS), 3, &mut out.ori[..7]);
    let sum: u8 = out.ori[..7].iter().sum();
    out.ori[7] = (3 - sum % 3) % 3;
    out
}

#[cfg(test)]
mod tests;
