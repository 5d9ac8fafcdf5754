//! Tables over the cosets of subgroups that contain every turn of U and D, reduced by the 16
//! symmetries that keep the U-D axis: Tomas Rokicki's family of pruning tables (nxopt), from
//! 20 MB to gigabytes.
//!
//! A coset is known by what the subgroup cannot change:
//! - **corners**: which four slots hold the U-layer corners (70 ways) and every twist (3^7);
//! - **edges**: which four slots hold the E-slice edges (495 ways), then a choice of edge
//!   flips ([`EdgeFlips`]: of the E-slice edges, of the other eight, or of all) and of edge
//!   places ([`EdgePlaces`]: nothing more, the order of the E-slice edges, or which of the
//!   other eight slots hold U-layer edges).
//!
//! The 16 U-D symmetries map each such subgroup onto itself, so they act on cosets. The corner
//! part (153,090 values) falls into 9,930 classes; an entry is indexed by the corner class and
//! the edge part seen through the symmetry that takes the corners to their class's
//! representative: `index = class x edge_values + edge`, with
//! `edge = (places x flip_values + flips) x 495 + slice`.
//!
//! An entry is the distance of its coset from the subgroup: a lower bound on the distance of
//! every position in it. Read along each of the three axes (through rotations that bring the
//! axis to U-D), the three corner parts together know every corner's place and twist. Where a
//! bound is tight the solution's last move cannot be a turn of that axis's faces, since those
//! lie in the subgroup: this is what lets the search narrow its moves.
//!
//! A corner class whose representative is fixed by some symmetries (its stabilizer) stands for
//! the same position under several edge values. The breadth-first search reaches one of them,
//! the smallest ([`UdSpace::representative`]); the others are filled from it, so a lookup need
//! not look for the smallest.

mod masks;
mod rows;
mod space;

pub use rows::{UdEdgeMaps, UdRows};
pub use space::UdSpace;

use super::move_table;
use crate::coord::{
    rank_arrangement, rank_combination, rank_digits, unrank_arrangement, unrank_combination,
    unrank_digits,
};
use crate::model::cube::{Corners, Cube3, Edges, Face, Metric, Move, Symmetry};
use crate::space::masks::slots_where;
use crate::space::{MoveSpace, StateSpace};
use serde::{Deserialize, Serialize};

/// The corner part's values: split x twist (the split of the four U-layer corners (pieces URF UFL ULB UBR) over the slots).
pub use crate::space::corner_classes::{CORNER_VALUES, SPLITS, TWISTS};
/// Classes of the corner part under the 16 U-D symmetries (Rokicki's count, tested).
pub const CORNER_CLASSES: u32 = 9_930;
/// Ways for the four E-slice edges to occupy four of the twelve slots.
pub const SLICES: u32 = 495;
/// The U-D symmetries.
pub const SYMS: usize = 16;

/// The E-slice edges FR FL BL BR are pieces 8 to 11.
const FIRST_SLICE_EDGE: u8 = 8;
/// The U-layer edges UR UF UL UB are pieces 0 to 3, the U-layer corners 0 to 3.
const LAST_U_PIECE: u8 = 3;

/// Which edge flips a coset keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EdgeFlips {
    /// The four E-slice edges' flips: 16 values.
    Slice,
    /// The eight U- and D-layer edges' flips: 256 values.
    Layers,
    /// All twelve flips (the last follows from the others): 2,048 values.
    All,
}

/// What a coset keeps of the edges' places beyond the E-slice edges' slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EdgePlaces {
    /// Nothing more: 1 value.
    Slice,
    /// The order of the four E-slice edges in their slots: 24 values.
    SliceOrder,
    /// Which four of the other eight slots hold the U-layer edges: 70 values.
    Layers,
}

impl EdgeFlips {
    pub const fn values(self) -> u32 {
        match self {
            EdgeFlips::Slice => 16,
            EdgeFlips::Layers => 256,
            EdgeFlips::All => 2_048,
        }
    }
}

impl EdgePlaces {
    pub const fn values(self) -> u32 {
        match self {
            EdgePlaces::Slice => 1,
            EdgePlaces::SliceOrder => 24,
            EdgePlaces::Layers => 70,
        }
    }
}

/// One member of the family: which flips and places of the edges its cosets keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shape {
    pub places: EdgePlaces,
    pub flips: EdgeFlips,
}

impl Shape {
    /// Values of the edge part of an index.
    pub const fn edge_values(self) -> u32 {
        self.places.values() * self.flips.values() * SLICES
    }

    /// Entries of the table: corner classes x edge values.
    pub const fn entries(self) -> u64 {
        CORNER_CLASSES as u64 * self.edge_values() as u64
    }
}

/// A position's coset coordinate in the parts that moves act on separately: the corner part as
/// two small ranks, the edge part as masks of the twelve slots, which moves and symmetries
/// permute by two lookups in tables of a few kilobytes (a ranked places part would need
/// megabyte tables, and the search reads them at every node).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UdCoord {
    /// Rank of the set of slots holding U-layer corners.
    pub split: u8,
    /// Twists of corner slots 0..7 as base-3 digits.
    pub twist: u16,
    /// The slots holding E-slice edges (bit `i` for slot `i`).
    pub slice: u16,
    /// The slots holding U-layer edges, for [`EdgePlaces::Layers`]; else 0.
    pub layer: u16,
    /// The order of the E-slice edges in their slots, for [`EdgePlaces::SliceOrder`]; else 0.
    pub order: u8,
    /// The flips of all twelve edge slots.
    pub flips: u16,
}

impl UdCoord {
    /// The coordinate of `cube` for cosets of `shape`.
    pub fn of(cube: &Cube3, shape: Shape) -> UdCoord {
        let (c, e) = (&cube.corners, &cube.edges);
        let split = rank_combination(slots_where(&c.perm, |p| p <= LAST_U_PIECE)) as u8;
        let twist = rank_digits(&c.ori[..7], 3) as u16;
        let slice = slots_where(&e.perm, |p| p >= FIRST_SLICE_EDGE) as u16;
        let layer = match shape.places {
            EdgePlaces::Layers => slots_where(&e.perm, |p| p <= LAST_U_PIECE) as u16,
            _ => 0,
        };
        let order = match shape.places {
            EdgePlaces::SliceOrder => {
                let mut order = [0u8; 4];
                let pieces = e.perm.iter().filter(|&&p| p >= FIRST_SLICE_EDGE);
                for (slot, &p) in order.iter_mut().zip(pieces) {
                    *slot = p - FIRST_SLICE_EDGE;
                }
                rank_arrangement(&order, 4) as u8
            }
            _ => 0,
        };
        UdCoord {
            split,
            twist,
            slice,
            layer,
            order,
            flips: slots_where(&e.ori, |o| o == 1) as u16,
        }
    }

    /// The corner part, `split x 2187 + twist`.
    #[inline]
    pub fn corners(self) -> u32 {
        u32::from(self.split) * TWISTS + u32::from(self.twist)
    }
}

/// A position with the corner part `corners`: U-layer corners in the split's slots, in order.
fn corners_of(corners: u32) -> Corners {
    let u_slots = unrank_combination(u64::from(corners / TWISTS), 4);
    let mut out = Corners::SOLVED;
    let (mut u, mut d) = (0, LAST_U_PIECE + 1);
    for (slot, piece) in out.perm.iter_mut().enumerate() {
        if u_slots & 1 << slot != 0 {
            *piece = u;
            u += 1;
        } else {
            *piece = d;
            d += 1;
        }
    }
    unrank_digits(u64::from(corners % TWISTS), 3, &mut out.ori[..7]);
    let sum: u8 = out.ori[..7].iter().sum();
    out.ori[7] = (3 - sum % 3) % 3;
    out
}

/// A position with E-slice edges in `slice` in the order `order`, unflipped, the other edges
/// in slot order.
fn edges_with_order(slice: u32, order: u8) -> Edges {
    let mut pieces = [0u8, 1, 2, 3];
    unrank_arrangement(u64::from(order), 4, &mut pieces);
    let mut out = Edges::SOLVED;
    let (mut e, mut other) = (0, 0);
    for (slot, piece) in out.perm.iter_mut().enumerate() {
        if slice & 1 << slot != 0 {
            *piece = FIRST_SLICE_EDGE + pieces[e];
            e += 1;
        } else {
            *piece = other;
            other += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
