//! The search's form of the coordinate ([`ByteCoord`]): the edge part as bytes, one a slot,
//! `class | flip << 4`, where the class is the slice of the edge in the slot (0 for M, 1 for S,
//! 2 for E; the four unused lanes hold 3). A move is then one byte shuffle and a xor, and a
//! symmetry's action two shuffles, where the masks of [`H48Coord`] took two table lookups per
//! mask for each (nine in all per child). The masks the index ranks are read back with
//! `pmovmskb`. [`H48Space::index_bytes`] is [`H48Space::index`] of the same position, as the
//! tests check; the tables and the engine keep the masks, which their row pass moves as blocks.
//!
//! With SSSE3 each operation is a few instructions; elsewhere a byte at a time ([`portable`]).

use super::edge_sym::EdgeSym48;
use super::*;
use crate::model::cube::Move;
use crate::space::masks::slots_under;

/// A position's coset coordinate with its edge part as bytes (see the module's text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByteCoord {
    pub split: u8,
    pub twist: u16,
    pub edges: [u8; 16],
}

/// Per piece: its slice class; the pad (15) class 3.
const CLASS_OF_PIECE: [u8; 16] = {
    let mut t = [3u8; 16];
    let mut p = 0;
    while p < 12 {
        t[p] = if SLICE_PIECES[0] >> p & 1 == 1 {
            0
        } else if SLICE_PIECES[1] >> p & 1 == 1 {
            1
        } else {
            2
        };
        p += 1;
    }
    t
};

/// Per slot: its slice's class shifted by two (the pad lanes 3).
const SLOT_KEY: [u8; 16] = {
    let mut t = [3u8 << 2; 16];
    let mut j = 0;
    while j < 12 {
        t[j] = CLASS_OF_PIECE[j] << 2;
        j += 1;
    }
    t
};

impl ByteCoord {
    /// The same coordinate as `c`.
    pub fn of(c: H48Coord) -> ByteCoord {
        let mut edges = [3u8; 16];
        for (j, byte) in edges.iter_mut().enumerate().take(12) {
            let class = if c.m >> j & 1 == 1 {
                0
            } else if c.s >> j & 1 == 1 {
                1
            } else {
                2
            };
            *byte = class | ((c.flips >> j & 1) as u8) << 4;
        }
        ByteCoord {
            split: c.split,
            twist: c.twist,
            edges,
        }
    }

    /// The coordinate of a packed cube (as [`H48Coord::of_packed`]).
    #[inline]
    pub fn of_packed(cube: &PackedCube) -> ByteCoord {
        // Its edge masks go unread, and the compiler leaves them out.
        let corners = H48Coord::of_packed(cube);
        ByteCoord {
            split: corners.split,
            twist: corners.twist,
            edges: cube.edges_relabelled(&CLASS_OF_PIECE),
        }
    }

    /// The corner part, `split x 2187 + twist`.
    #[inline(always)]
    pub fn corners(&self) -> u32 {
        u32::from(self.split) * TWISTS + u32::from(self.twist)
    }
}

/// A move's action on the edge bytes: the slot each slot's edge comes from, and the flips it
/// changes.
#[derive(Clone, Copy, Debug)]
pub(super) struct ByteMove {
    from: [u8; 16],
    flip: [u8; 16],
}

impl ByteMove {
    pub(super) fn new(m: Move) -> ByteMove {
        let e = Cube3::of_move(m).edges;
        let mut from: [u8; 16] = std::array::from_fn(|i| i as u8);
        let mut flip = [0u8; 16];
        for i in 0..12 {
            from[i] = e.perm[i];
            flip[i] = e.ori[i] << 4;
        }
        ByteMove { from, flip }
    }
}

/// A symmetry's action on the edge bytes ([`EdgeSym48`]'s, in another form): each byte is
/// first relabelled by its class and its slot's slice (`relabel[class | slot slice << 2]` is the
/// image's class and the flip's change, as [`EdgeSym48`] derives them), then moved to its image
/// slot (`from[image slot]` is the slot it comes from).
#[derive(Clone, Copy, Debug)]
pub(super) struct ByteSym {
    relabel: [u8; 16],
    from: [u8; 16],
}

impl ByteSym {
    pub(super) fn new(symmetry: u8, edges: &EdgeSym48) -> ByteSym {
        let (source, refers) = (edges.source, edges.refers.map(|r| r != 0));
        let to = slots_under(symmetry);
        let mut from: [u8; 16] = std::array::from_fn(|i| i as u8);
        for (j, &t) in to.iter().enumerate() {
            from[usize::from(t)] = j as u8;
        }
        let mut relabel = [3u8; 16];
        for class in 0..3u8 {
            for slot_slice in 0..3u8 {
                let image = if source[0] == class {
                    0
                } else if source[1] == class {
                    1
                } else {
                    2
                };
                let change = (refers[0] && ((class == 1) != (slot_slice == 1)))
                    ^ (refers[1] && ((class == 2) != (slot_slice == 2)));
                relabel[usize::from(class | slot_slice << 2)] = image | u8::from(change) << 4;
            }
        }
        ByteSym { relabel, from }
    }
}

impl H48Space {
    /// The coordinate after move number `turn` (as [`H48Space::apply_coord`]).
    #[inline(always)]
    pub fn apply_bytes(&self, c: &ByteCoord, turn: usize) -> ByteCoord {
        let n = self.moves.len();
        debug_assert!(turn < n, "turn {turn} of {n}");
        let mv = &self.byte_moves[turn & 31];
        let (split, twist) = self.moved_corners(c.split, c.twist, turn);
        ByteCoord {
            split,
            twist,
            edges: imp::turn(&c.edges, mv),
        }
    }

    /// Asks for what [`H48Space::index_bytes`] reads first: the corner class.
    #[inline(always)]
    pub fn prefetch_class_bytes(&self, c: &ByteCoord) {
        self.corners.prefetch(c.corners());
    }

    /// The table index of `c`: [`H48Space::index`] of the same coordinate.
    #[inline(always)]
    pub fn index_bytes(&self, c: &ByteCoord) -> u64 {
        let (class, sym) = self.class_and_symmetry(c.corners());
        debug_assert!(sym < SYMS, "symmetry {sym}");
        let (m, s, flips) = imp::conjugate(&c.edges, &self.byte_syms[sym & 63]);
        u64::from(class) * self.edge_values + u64::from(self.edge_value(m, s, flips))
    }
}

/// The operations a byte at a time: the reference for the tests, and the implementation where
/// SSSE3 is not enabled.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "ssse3"),
    allow(dead_code)
)]
mod portable {
    use super::*;

    pub(super) fn turn(edges: &[u8; 16], mv: &ByteMove) -> [u8; 16] {
        std::array::from_fn(|i| edges[usize::from(mv.from[i])] ^ mv.flip[i])
    }

    pub(super) fn conjugate(edges: &[u8; 16], sym: &ByteSym) -> (u32, u32, u32) {
        let relabelled: [u8; 16] = std::array::from_fn(|j| {
            let key = (edges[j] & 3) | SLOT_KEY[j];
            (edges[j] & 0x10) ^ sym.relabel[usize::from(key)]
        });
        let image: [u8; 16] = std::array::from_fn(|j| relabelled[usize::from(sym.from[j])]);
        let mask = |test: &dyn Fn(u8) -> bool| {
            (0..12).fold(0, |mask, j| mask | u32::from(test(image[j])) << j)
        };
        (
            mask(&|b| b & 3 == 0),
            mask(&|b| b & 3 == 1),
            mask(&|b| b & 0x10 != 0),
        )
    }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
use portable as imp;

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
use ssse3 as imp;

/// The operations as byte shuffles.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
mod ssse3 {
    use super::*;
    use std::arch::x86_64::*;

    // SAFETY (every `unsafe` below): SSSE3 is enabled for the whole build (this module is
    // compiled only then), and every load is of a whole 16-byte array.
    #[inline(always)]
    fn load(bytes: &[u8; 16]) -> __m128i {
        unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    pub(super) fn turn(edges: &[u8; 16], mv: &ByteMove) -> [u8; 16] {
        let mut out = [0u8; 16];
        unsafe {
            let moved = _mm_shuffle_epi8(load(edges), load(&mv.from));
            _mm_storeu_si128(
                out.as_mut_ptr().cast(),
                _mm_xor_si128(moved, load(&mv.flip)),
            );
        }
        out
    }

    #[inline(always)]
    pub(super) fn conjugate(edges: &[u8; 16], sym: &ByteSym) -> (u32, u32, u32) {
        unsafe {
            let v = load(edges);
            let key = _mm_or_si128(_mm_and_si128(v, _mm_set1_epi8(3)), load(&SLOT_KEY));
            let relabel = _mm_shuffle_epi8(load(&sym.relabel), key);
            let relabelled = _mm_xor_si128(_mm_and_si128(v, _mm_set1_epi8(0x10)), relabel);
            let image = _mm_shuffle_epi8(relabelled, load(&sym.from));
            let class = _mm_and_si128(image, _mm_set1_epi8(3));
            let m = _mm_movemask_epi8(_mm_cmpeq_epi8(class, _mm_setzero_si128())) as u32;
            let s = _mm_movemask_epi8(_mm_cmpeq_epi8(class, _mm_set1_epi8(1))) as u32;
            // The flip (bit 4) to the top bit; the 16-bit shift carries bits 5 to 7 only into
            // the low bits of the byte above.
            let flips = _mm_movemask_epi8(_mm_slli_epi16(image, 3)) as u32;
            (m & ALL_SLOTS, s & ALL_SLOTS, flips & ALL_SLOTS)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cube::Metric;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    /// Moves, symmetries and indices on bytes agree with those on masks, both implementations,
    /// for every member of the family, every turn and every symmetry.
    #[test]
    fn bytes_agree_with_masks() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(35);
        for flips in [H48Flips::Parity, H48Flips::SliceFlips, H48Flips::All] {
            let space = H48Space::new(flips, Metric::Htm);
            for _ in 0..100 {
                let cube = Cube3::random(&mut rng);
                let c = H48Coord::of(&cube);
                let bytes = ByteCoord::of(c);
                assert_eq!(ByteCoord::of_packed(&PackedCube::of(&cube)), bytes);
                assert_eq!(space.index_bytes(&bytes), space.index(c));
                for turn in 0..space.moves.len() {
                    let moved = ByteCoord::of(space.apply_coord(c, turn));
                    assert_eq!(space.apply_bytes(&bytes, turn), moved);
                    let mv = &space.byte_moves[turn];
                    assert_eq!(portable::turn(&bytes.edges, mv), moved.edges);
                }
                for sym in 0..SYMS {
                    let masks = space.conjugate_edges(&c, sym);
                    let bs = &space.byte_syms[sym];
                    assert_eq!(imp::conjugate(&bytes.edges, bs), masks);
                    assert_eq!(portable::conjugate(&bytes.edges, bs), masks);
                }
            }
        }
    }
}
