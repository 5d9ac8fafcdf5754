//! How the U-D symmetries act on the edge masks.

use super::*;
use crate::space::masks::{ALL_SLOTS, SlotMap, conjugate_edges, slots_under};

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
        let conjugate = |edges: Edges| conjugate_edges(symmetry, edges);
        let to = slots_under(symmetry);
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
