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
//! `edge = placement x flip_values + kept flips`, so that the kept flips of one placement lie
//! together and a move or symmetry maps them as a block ([`H48Rows`]). The same reduction with the 16 U-D symmetries
//! ([`crate::space::ud`]) needs three lookups (one per axis) to see what one lookup here sees;
//! in exchange its subgroups are larger (they hold every turn of U and D, these only the half
//! turns), which is what lets those tables grow a coset part at a time.
//!
//! A corner class whose representative is fixed by some symmetries stands for the same position
//! under several edge values; as in the `ud` family the breadth-first search reaches the
//! smallest ([`H48Space::representative`]) and the others are filled from it.

mod bytes;
mod edge_sym;
mod rows;
mod space;

pub use bytes::ByteCoord;

pub use rows::{H48EdgeMaps, H48Rows};
pub use space::H48Space;

use crate::coord::{rank_combination, rank_digits, unrank_combination, unrank_digits};
use crate::model::cube::{Corners, Cube3, PackedCube, PieceSet};
use crate::space::masks::{ALL_SLOTS, compress, deposit, slots_where};
use serde::{Deserialize, Serialize};

/// The corner part's values: split x twist (the split of the first tetrad's corners over the slots).
pub use crate::space::corner_classes::{CORNER_VALUES, SPLITS, TWISTS};
/// Classes of the corner part under the 48 symmetries (nissy-core's `COCSEP_CLASSES`, tested).
pub const CORNER_CLASSES: u32 = 3_393;
/// Ways for the M- and S-slice edges to occupy the twelve slots (the E-slice edges take the
/// rest): 495 x 70.
pub const PLACEMENTS: u32 = 34_650;
/// All 48 symmetries.
pub const SYMS: usize = 48;

/// The first tetrad's pieces: URF, ULB, DLF, DRB (corners 0, 2, 5, 7).
const TETRAD: u32 = 0b1010_0101;
/// The split of each mask of eight corner slots holding four first-tetrad corners
/// ([`rank_combination`] read from a table: the inverse's split is taken at every kept child).
const SPLIT_OF_SLOTS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut mask = 0;
    while mask < 256 {
        table[mask] = rank_combination(mask as u32) as u8;
        mask += 1;
    }
    table
};

/// The first tetrad's corners and the M- and S-slice edges, as shuffle tables.
const TETRAD_SET: PieceSet = PieceSet::of(TETRAD);
const M_SET: PieceSet = PieceSet::of(SLICE_PIECES[0]);
const S_SET: PieceSet = PieceSet::of(SLICE_PIECES[1]);

/// The M-slice edges UF UB DF DB (pieces 1, 3, 5, 7), the S-slice edges UR UL DR DL (0, 2, 4,
/// 6) and the E-slice edges FR FL BL BR (8 to 11), as masks of pieces, which are also the
/// masks of their home slots.
pub(crate) const SLICE_PIECES: [u32; 3] = [0b1010_1010, 0b0101_0101, 0b1111_0000_0000];

/// Which edge flips a coset keeps beyond `H0`'s (none). Every choice is kept by all 48
/// symmetries, as the reduction needs; they are the only ones besides keeping all flips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum H48Flips {
    /// The parity of the flips of each slice's edges: the subgroup keeps each slice's edges
    /// flipped an even number of times. The three parities add up to the (even) parity of
    /// all flips, so two say everything: 4 values.
    Parity,
    /// Each slice's flips up to flipping all four of its edges: the subgroup flips a slice's
    /// edges all or none. Three bits a slice (each edge's flip against the slice's first), the
    /// last bit following from the even parity of all flips: 256 values.
    SliceFlips,
    /// Every edge's flip: the subgroup flips nothing (nissy's `h11`). Eleven bits, the flip
    /// of slot 1 lowest and of slot 11 highest, slot 0's following from the even parity of
    /// all flips: 2,048 values. Its 240 G cosets are too many to search whole; the `h48-eo`
    /// tables forget its lowest bits and are filled from positions near solved
    /// ([`crate::catalogue`]'s `build_h48_eo`), never by the row pass.
    All,
}

impl H48Flips {
    /// Values of the kept flips.
    pub const fn values(self) -> u32 {
        match self {
            H48Flips::Parity => 4,
            H48Flips::SliceFlips => 256,
            H48Flips::All => 2_048,
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
    /// `s` (masks of slots). Linear in `flips`, which the row layout relies on.
    #[inline(always)]
    pub(crate) fn kept(self, flips: u32, m: u32, s: u32) -> u32 {
        match self {
            H48Flips::Parity => (flips & m).count_ones() & 1 | ((flips & s).count_ones() & 1) << 1,
            H48Flips::SliceFlips => {
                let e = !(m | s) & ALL_SLOTS;
                // A slice's four flips against its first: three bits, zero for "all or none".
                let relative = |slice: u32| {
                    let x = compress(flips, slice);
                    (x >> 1) ^ (0b111 * (x & 1))
                };
                relative(m) | relative(s) << 3 | (relative(e) & 0b11) << 6
            }
            H48Flips::All => flips >> 1,
        }
    }

    /// Flips with kept value `kept` for edges placed by `m` and `s`. For `Parity`, one
    /// flipped edge in each slice whose parity is odd, the E slice making the total even; for
    /// `SliceFlips`, each slice's first edge unflipped; for `All`, the flips themselves.
    pub(crate) fn flips_of(self, kept: u32, m: u32, s: u32) -> u32 {
        let e = !(m | s) & ALL_SLOTS;
        match self {
            H48Flips::Parity => {
                let lowest = |mask: u32| mask & mask.wrapping_neg();
                let (odd_m, odd_s) = (kept & 1, kept >> 1 & 1);
                (lowest(m) * odd_m) | (lowest(s) * odd_s) | (lowest(e) * (odd_m ^ odd_s))
            }
            H48Flips::SliceFlips => {
                let last = (kept.count_ones() & 1) << 2;
                let e_bits = kept >> 6 | last;
                let slice = |bits: u32, mask: u32| deposit(bits << 1, mask);
                slice(kept & 0b111, m) | slice(kept >> 3 & 0b111, s) | slice(e_bits, e)
            }
            H48Flips::All => kept << 1 | (kept.count_ones() & 1),
        }
    }
}

/// A table of the family: a member's cosets, or a coarser table read off them that forgets the
/// lowest `dropped` bits of the kept flips, each entry the smallest of the entries it stands
/// for (a bound for all their positions). The coarser tables are not over cosets of any
/// subgroup (no subgroup keeps the flips of some edges and not of others under every
/// symmetry), so they come from the member's exact entries, never from a search of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct H48Table {
    pub flips: H48Flips,
    pub dropped: u32,
}

impl H48Table {
    /// Entries of the table.
    pub const fn entries(self) -> u64 {
        self.flips.entries() >> self.dropped
    }

    /// The entry of a position whose member index (see [`H48Space::index`]) is `index`: the kept
    /// flips are its lowest bits, so dropping bits of the index drops bits of the flips.
    #[inline(always)]
    pub const fn entry_of(self, index: u64) -> u64 {
        index >> self.dropped
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

    /// The coordinate of a packed cube, each part read by byte shuffles ([`PackedCube`]): the search
    /// takes it for the inverse of every kept child, which it carries packed. Read from the
    /// cubies, turned and inverted a piece at a time, the same cost about 200 instructions a
    /// kept child (reports/performance-log.md).
    #[inline]
    pub fn of_packed(cube: &PackedCube) -> H48Coord {
        H48Coord {
            split: SPLIT_OF_SLOTS[cube.corner_slots(&TETRAD_SET) as usize & 0xFF],
            twist: cube.twist_digits(),
            m: cube.edge_slots(&M_SET) as u16,
            s: cube.edge_slots(&S_SET) as u16,
            flips: cube.flipped_edges() as u16,
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
