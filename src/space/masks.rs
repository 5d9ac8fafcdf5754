//! Edge parts as masks of the twelve slots: ranks of masks, and moves and symmetries acting on
//! masks by lookups in small tables. Shared by the coset families (`ud`, `h48`), whose search
//! reads them at every node.

use crate::coord::{rank_combination, unrank_combination};
use crate::model::cube::{Corners, Cube3, Edges, Move, Symmetry};

/// Ways for four edges to occupy four of the twelve slots.
pub const SLOTS_4_OF_12: u32 = 495;

/// All twelve edge slots.
pub(crate) const ALL_SLOTS: u32 = 0xFFF;

/// Bit `i` set where `pred(perm[i])`.
pub(crate) fn slots_where<const N: usize>(perm: &[u8; N], pred: impl Fn(u8) -> bool) -> u32 {
    perm.iter()
        .enumerate()
        .fold(0, |mask, (i, &p)| mask | u32::from(pred(p)) << i)
}

/// `COMPRESS[mask][value]`: the bits of the 6-bit `value` at the set bits of the 6-bit
/// `mask`, packed low.
pub(crate) const COMPRESS: [[u8; 64]; 64] = {
    let mut table = [[0u8; 64]; 64];
    let mut mask = 0;
    while mask < 64 {
        let mut value = 0;
        while value < 64 {
            let (mut out, mut bit, mut i) = (0u8, 0, 0);
            while i < 6 {
                if mask >> i & 1 == 1 {
                    out |= ((value >> i & 1) as u8) << bit;
                    bit += 1;
                }
                i += 1;
            }
            table[mask][value] = out;
            value += 1;
        }
        mask += 1;
    }
    table
};

/// The bits of the 12-bit `value` at the set bits of `mask`, packed low (a `pext` by two
/// lookups; the instruction itself is microcoded and slow on many AMD processors).
#[inline(always)]
pub(crate) fn compress(value: u32, mask: u32) -> u32 {
    let low = COMPRESS[(mask & 63) as usize][(value & 63) as usize];
    let high = COMPRESS[(mask >> 6 & 63) as usize][(value >> 6 & 63) as usize];
    u32::from(low) | u32::from(high) << (mask & 63).count_ones()
}

/// The inverse of [`compress`]: the low bits of `value` placed at the set bits of `mask`.
pub(crate) fn deposit(value: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask.trailing_zeros();
        out |= (value >> bit & 1) << low;
        bit += 1;
        mask &= mask - 1;
    }
    out
}

/// Ranks of 4-element masks of 12 slots (`0..495`) and of 8 slots (`0..70`), and back. The
/// ranks are arrays over every mask of their width, so that an index masked to that width needs
/// no bounds check where the search reads them for every child.
pub(crate) struct MaskRanks {
    pub(crate) of12: Box<[u16; 1 << 12]>,
    pub(crate) of8: [u8; 256],
    pub(crate) mask12: Vec<u16>,
    pub(crate) mask8: Vec<u8>,
}

impl MaskRanks {
    pub(crate) fn new() -> MaskRanks {
        let mut of12 = Box::new([0u16; 1 << 12]);
        let mut of8 = [0u8; 256];
        for mask in 0..1u32 << 12 {
            if mask.count_ones() == 4 {
                of12[mask as usize] = rank_combination(mask) as u16;
                if mask < 256 {
                    of8[mask as usize] = rank_combination(mask) as u8;
                }
            }
        }
        MaskRanks {
            of12,
            of8,
            mask12: (0..SLOTS_4_OF_12)
                .map(|r| unrank_combination(u64::from(r), 4) as u16)
                .collect(),
            mask8: (0..70).map(|r| unrank_combination(r, 4) as u8).collect(),
        }
    }
}

/// A permutation of the twelve edge slots acting on masks, by two lookups of 64 entries.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlotMap {
    pub(crate) low: [u16; 64],
    pub(crate) high: [u16; 64],
}

impl SlotMap {
    /// The map sending slot `i` to slot `to[i]`.
    pub(crate) fn new(to: [u8; 12]) -> SlotMap {
        let image = |bits: usize, first: usize| {
            (0..6).fold(0u16, |out, i| {
                out | u16::from(bits >> i & 1 == 1) << to[first + i]
            })
        };
        SlotMap {
            low: std::array::from_fn(|b| image(b, 0)),
            high: std::array::from_fn(|b| image(b, 6)),
        }
    }

    #[inline(always)]
    pub(crate) fn apply(&self, mask: u32) -> u32 {
        u32::from(self.low[(mask & 63) as usize] | self.high[(mask >> 6 & 63) as usize])
    }
}

/// What a move does to the edge masks: the edge in slot `j` goes to slot `to[j]`, and the flips
/// of `flips` change (F and B quarter turns).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeMove {
    pub(crate) slots: SlotMap,
    pub(crate) flips: u32,
}

impl EdgeMove {
    pub(crate) fn new(m: Move) -> EdgeMove {
        let edges = Cube3::of_move(m).edges;
        // `x.then(m)`: slot `i` receives the edge of slot `m.perm[i]`.
        let mut to = [0u8; 12];
        for (i, &from) in edges.perm.iter().enumerate() {
            to[usize::from(from)] = i as u8;
        }
        EdgeMove {
            slots: SlotMap::new(to),
            flips: slots_where(&edges.ori, |o| o == 1),
        }
    }
}

/// The edges of the conjugate by symmetry number `symmetry` of a position with edges `edges`
/// and solved corners.
pub(crate) fn conjugate_edges(symmetry: u8, edges: Edges) -> Edges {
    let cube = Cube3 {
        corners: Corners::SOLVED,
        edges,
    };
    Symmetry::nth(symmetry).conjugate(&cube).edges
}

/// Where symmetry number `symmetry` sends the edge of each slot (`to[j]` for slot `j`), found
/// by following a single flip through the conjugation.
pub(crate) fn slots_under(symmetry: u8) -> [u8; 12] {
    std::array::from_fn(|slot| {
        let mut one = Edges::SOLVED;
        one.ori[slot] = 1;
        let flipped = conjugate_edges(symmetry, one).ori;
        flipped.iter().position(|&o| o == 1).expect("one flip") as u8
    })
}
