//! The edge part as masks of the twelve slots: ranks of masks, and moves and symmetries acting
//! on masks by lookups in small tables.

use super::*;

/// All twelve edge slots.
pub(super) const ALL_SLOTS: u32 = 0xFFF;

/// Bit `i` set where `pred(perm[i])`.
pub(super) fn slots_where<const N: usize>(perm: &[u8; N], pred: impl Fn(u8) -> bool) -> u32 {
    perm.iter()
        .enumerate()
        .fold(0, |mask, (i, &p)| mask | u32::from(pred(p)) << i)
}

/// `COMPRESS[mask][value]`: the bits of the 6-bit `value` at the set bits of the 6-bit
/// `mask`, packed low.
pub(super) const COMPRESS: [[u8; 64]; 64] = {
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
pub(super) fn compress(value: u32, mask: u32) -> u32 {
    let low = COMPRESS[(mask & 63) as usize][(value & 63) as usize];
    let high = COMPRESS[(mask >> 6 & 63) as usize][(value >> 6 & 63) as usize];
    u32::from(low) | u32::from(high) << (mask & 63).count_ones()
}

/// The inverse of [`compress`]: the low bits of `value` placed at the set bits of `mask`.
pub(super) fn deposit(value: u32, mut mask: u32) -> u32 {
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

/// Ranks of 4-element masks of 12 slots (`0..495`) and of 8 slots (`0..70`), and back.
pub(super) struct MaskRanks {
    pub(super) of12: Vec<u16>,
    pub(super) of8: [u8; 256],
    pub(super) mask12: Vec<u16>,
    pub(super) mask8: Vec<u8>,
}

impl MaskRanks {
    pub(super) fn new() -> MaskRanks {
        let mut of12 = vec![0u16; 1 << 12];
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
            mask12: (0..SLICES)
                .map(|r| unrank_combination(u64::from(r), 4) as u16)
                .collect(),
            mask8: (0..70).map(|r| unrank_combination(r, 4) as u8).collect(),
        }
    }
}

/// A permutation of the twelve edge slots acting on masks, by two lookups of 64 entries.
#[derive(Clone, Copy, Debug)]
pub(super) struct SlotMap {
    pub(super) low: [u16; 64],
    pub(super) high: [u16; 64],
}

impl SlotMap {
    /// The map sending slot `i` to slot `to[i]`.
    pub(super) fn new(to: [u8; 12]) -> SlotMap {
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
    pub(super) fn apply(&self, mask: u32) -> u32 {
        u32::from(self.low[(mask & 63) as usize] | self.high[(mask >> 6 & 63) as usize])
    }
}

/// What a move does to the edge masks: the edge in slot `j` goes to slot `to[j]`, and the flips
/// of `flips` change (F and B quarter turns).
#[derive(Clone, Copy, Debug)]
pub(super) struct EdgeMove {
    pub(super) slots: SlotMap,
    pub(super) flips: u32,
}

impl EdgeMove {
    pub(super) fn new(m: Move) -> EdgeMove {
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

/// How a U-D symmetry changes the edge masks. The edge in slot `j` goes to slot `slots(j)`.
/// With `swaps_layers` (the symmetry turns the cube upside down) U-layer edges become D-layer
/// edges. With `slice_flip` an edge changes its flip when exactly one of "it is an E-slice
/// edge" and "slot `j` is an E-slice slot" holds: quarter turns about U-D move E-slice edges
/// between the F/B and R/L sides, where their reference sticker changes face.
#[derive(Clone, Copy, Debug)]
pub(super) struct EdgeSym {
    pub(super) slots: SlotMap,
    pub(super) swaps_layers: bool,
    pub(super) slice_flip: bool,
}

/// The E-slice slots FR FL BL BR.
pub(super) const SLICE_SLOTS: u32 = 0b1111_0000_0000;

impl EdgeSym {
    pub(super) fn new(symmetry: u8) -> EdgeSym {
        let s = Symmetry::nth(symmetry);
        let conjugate = |edges: Edges| {
            s.conjugate(&Cube3 {
                corners: Corners::SOLVED,
                edges,
            })
            .edges
        };
        // Where each slot's edge goes: follow a single flip.
        let mut to = [0u8; 12];
        for (slot, target) in to.iter_mut().enumerate() {
            let mut one = Edges::SOLVED;
            one.ori[slot] = 1;
            let flipped = conjugate(one).ori;
            *target = flipped.iter().position(|&o| o == 1).expect("one flip") as u8;
        }
        // An E-slice edge moved into a U slot, unflipped: does conjugation flip it?
        let mut swapped = Edges::SOLVED;
        swapped.perm.swap(0, usize::from(FIRST_SLICE_EDGE));
        let up = Symmetry::map_move_of(symmetry, Move::new(Face::U, 1)).face();
        EdgeSym {
            slots: SlotMap::new(to),
            swaps_layers: up != Face::U,
            slice_flip: conjugate(swapped).ori != [0; 12],
        }
    }

    /// The flips of the conjugate of a position with `flips` and E-slice edges in `slice`.
    #[inline(always)]
    pub(super) fn flips(&self, flips: u32, slice: u32) -> u32 {
        let changed = if self.slice_flip {
            flips ^ (slice ^ SLICE_SLOTS)
        } else {
            flips
        };
        self.slots.apply(changed)
    }

    /// The U-layer edges' slots of the conjugate.
    #[inline(always)]
    pub(super) fn layer(&self, slice: u32, layer: u32) -> u32 {
        let source = if self.swaps_layers {
            !slice & !layer & ALL_SLOTS
        } else {
            layer
        };
        self.slots.apply(source)
    }
}
