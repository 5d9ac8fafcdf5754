//! How a symmetry acts on the edge masks of an `h48` coordinate ([`EdgeSym48`]): read by the
//! coordinate machinery and by the byte form of the edges alike.

use super::SLICE_PIECES;
use crate::model::cube::Edges;
use crate::space::masks::{ALL_SLOTS, SlotMap, conjugate_edges, slots_under};

/// How a symmetry changes the edge masks. The edge in slot `j` goes to slot `slots(j)`, and the
/// edges of slice `source[x]` become edges of the image's M slice (`x` = 0) or S slice (1); the
/// rest become its E slice. An edge's flip changes when it sits outside its own slice and the
/// symmetry moves its reference sticker to the other face of its pair: the flip of an edge of
/// slice `a` in a slot of slice `b` changes by `moved(a) ^ moved(b)`, where `moved` is false
/// for slice M and `refers` holds it for slices S and E, so an edge in its own slice keeps its
/// flip, as `H0` needs.
///
/// [`EdgeSym48::apply`] runs for every table index, so its fields are laid out to read
/// without branches or bounds checks.
#[derive(Clone, Copy, Debug)]
pub(super) struct EdgeSym48 {
    pub(super) slots: SlotMap,
    /// `source[0]` and `source[1]`, the slices whose edges become the image's M and S slices.
    pub(super) source: [u8; 2],
    /// For slices S and E, all slots where the symmetry moves its edges' reference sticker
    /// (the U or D sticker, the F or B one for the E slice) off the image's reference, else
    /// none. Only differences between slices show, so slice M's is taken as unmoved.
    pub(super) refers: [u32; 2],
}

impl EdgeSym48 {
    pub(super) fn new(symmetry: u8) -> EdgeSym48 {
        let conjugate = |edges: Edges| conjugate_edges(symmetry, edges);
        let to = slots_under(symmetry);
        let slice_of = |piece: u8| SLICE_PIECES.iter().position(|set| set >> piece & 1 == 1);
        let first = |slice: usize| SLICE_PIECES[slice].trailing_zeros() as u8;
        let source: [usize; 3] = std::array::from_fn(|x| {
            (0..3)
                .find(|&a| slice_of(to[usize::from(first(a))]) == Some(x))
                .expect("a symmetry permutes the slices")
        });
        // An edge of slice `a` in a home slot of slice `b` shows `moved(a) ^ moved(b)` after
        // conjugation; only the differences matter, so slice M's is taken as false.
        let shown = |a: usize, b: usize| {
            let (piece, slot) = (first(a), first(b));
            let mut moved = Edges::SOLVED;
            moved.perm.swap(usize::from(piece), usize::from(slot));
            conjugate(moved).ori[usize::from(to[usize::from(slot)])] == 1
        };
        let all_if = |yes: bool| if yes { ALL_SLOTS } else { 0 };
        EdgeSym48 {
            slots: SlotMap::new(to),
            source: [source[0] as u8, source[1] as u8],
            refers: [all_if(shown(1, 0)), all_if(shown(2, 0))],
        }
    }

    /// The edge masks of the conjugate of a position with M- and S-slice edges in `m` and `s`
    /// and flips `flips`: its `(m, s, flips)`.
    #[inline(always)]
    pub(super) fn apply(&self, m: u32, s: u32, flips: u32) -> (u32, u32, u32) {
        let e = !(m | s) & ALL_SLOTS;
        // A fourth, unused element lets a two-bit index need no bounds check.
        let by_slice = [m, s, e, 0];
        let changed = flips
            ^ ((s ^ SLICE_PIECES[1]) & self.refers[0])
            ^ ((e ^ SLICE_PIECES[2]) & self.refers[1]);
        (
            self.slots.apply(by_slice[usize::from(self.source[0] & 3)]),
            self.slots.apply(by_slice[usize::from(self.source[1] & 3)]),
            self.slots.apply(changed),
        )
    }
}
