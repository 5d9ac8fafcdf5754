//! A position and its inverse as bytes laid out for byte shuffles: what the optimal search
//! carries at every node it keeps.
//!
//! The search needs each kept node's inverse (its dual lookup reads the inverse's coordinate).
//! Carried as [`Cube3`]s, every kept child cost a turn of its cubies slot by slot and then a
//! scatter of every piece into the inverse's coordinate, about 200 instructions. Here a piece
//! is one byte, `piece | orientation << 4`, so that a turn of the position is one byte shuffle
//! and one add, and the inverse is carried along instead of recomputed: the child's inverse is
//! the turn's inverse done *before* the parent's inverse, which relabels the pieces (a shuffle
//! of a 16-byte table by the pieces). Turning a node around swaps the two. Masks of the slots
//! that hold a set of pieces are a shuffle and a byte mask each.
//!
//! With SSSE3 (the build targets `x86-64-v2`, see `.cargo/config.toml`) each operation is a handful of instructions; elsewhere the same
//! operations run byte by byte ([`portable`]), and the tests hold the two equal.

use super::{Cube3, MOVE_CUBES, Move, Pieces};

/// What the edges' four unused bytes hold: a piece number no slot holds, which every turn
/// keeps where it is (its shuffle index is its own lane, its relabelling itself).
const PAD: u8 = 0x0F;
/// The low four bits of a byte: its piece.
const PIECE: u8 = 0x0F;
/// A corner byte whose twist has reached 3 is reduced by this.
const THREE_TWISTS: u8 = 0x30;

/// A position as bytes: byte `slot` holds `piece | orientation << 4` of the piece in `slot`
/// (as [`Pieces`]'s `perm` and `ori`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedCube {
    corners: [u8; 8],
    /// Twelve edges, then four bytes of [`PAD`].
    edges: [u8; 16],
}

/// A set of pieces as a shuffle table: byte `piece` is `0x80` for the set's pieces, 0 for the
/// others (and for [`PAD`]), so that shuffling it by a cube's pieces and taking each byte's top
/// bit gives the slots holding the set.
#[derive(Clone, Copy, Debug)]
pub struct PieceSet([u8; 16]);

impl PieceSet {
    /// The set of the pieces whose bits `pieces` has.
    pub const fn of(pieces: u32) -> PieceSet {
        let mut table = [0u8; 16];
        let mut p = 0;
        while p < 12 {
            if pieces >> p & 1 == 1 {
                table[p] = 0x80;
            }
            p += 1;
        }
        PieceSet(table)
    }
}

/// A face turn as shuffle tables.
#[derive(Clone, Copy, Debug)]
struct PackedTurn {
    /// Byte `slot`: the slot the turn brings the new piece from (lanes past the pieces: their
    /// own); and the orientation it adds, shifted into place.
    corner_from: [u8; 16],
    corner_twist: [u8; 16],
    edge_from: [u8; 16],
    edge_flip: [u8; 16],
    /// Byte `piece`: what the turn's inverse makes of it, `piece' | orientation << 4`; for the
    /// inverse position, where pieces are relabelled rather than moved.
    corner_relabel: [u8; 16],
    edge_relabel: [u8; 16],
}

impl PackedTurn {
    const fn of(turn: &Cube3) -> PackedTurn {
        let inverse = turn.inverse();
        let mut t = PackedTurn {
            corner_from: identity_lanes(),
            corner_twist: [0; 16],
            edge_from: identity_lanes(),
            edge_flip: [0; 16],
            corner_relabel: identity_lanes(),
            edge_relabel: identity_lanes(),
        };
        let mut i = 0;
        while i < 8 {
            t.corner_from[i] = turn.corners.perm[i];
            t.corner_twist[i] = turn.corners.ori[i] << 4;
            t.corner_relabel[i] = inverse.corners.perm[i] | inverse.corners.ori[i] << 4;
            i += 1;
        }
        let mut i = 0;
        while i < 12 {
            t.edge_from[i] = turn.edges.perm[i];
            t.edge_flip[i] = turn.edges.ori[i] << 4;
            t.edge_relabel[i] = inverse.edges.perm[i] | inverse.edges.ori[i] << 4;
            i += 1;
        }
        t
    }
}

/// Bytes `0, 1, ..., 15`: each lane its own index.
const fn identity_lanes() -> [u8; 16] {
    let mut lanes = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        lanes[i] = i as u8;
        i += 1;
    }
    lanes
}

/// The 18 face turns, indexed by [`Move::index`].
const PACKED_TURNS: [PackedTurn; 18] = {
    let mut out = [PackedTurn::of(&Cube3::SOLVED); 18];
    let mut i = 0;
    while i < 18 {
        out[i] = PackedTurn::of(&MOVE_CUBES[i]);
        i += 1;
    }
    out
};

impl PackedCube {
    pub const SOLVED: PackedCube = PackedCube::of(&Cube3::SOLVED);

    pub const fn of(cube: &Cube3) -> PackedCube {
        let mut out = PackedCube {
            corners: [0; 8],
            edges: [PAD; 16],
        };
        let mut i = 0;
        while i < 8 {
            out.corners[i] = cube.corners.perm[i] | cube.corners.ori[i] << 4;
            i += 1;
        }
        let mut i = 0;
        while i < 12 {
            out.edges[i] = cube.edges.perm[i] | cube.edges.ori[i] << 4;
            i += 1;
        }
        out
    }

    /// The position as cubies.
    pub fn cube(&self) -> Cube3 {
        fn unpack<const N: usize, const MOD: u8>(bytes: &[u8]) -> Pieces<N, MOD> {
            Pieces {
                perm: std::array::from_fn(|i| bytes[i] & PIECE),
                ori: std::array::from_fn(|i| bytes[i] >> 4),
            }
        }
        Cube3 {
            corners: unpack(&self.corners),
            edges: unpack(&self.edges),
        }
    }

    /// The position after `m`: `self.cube().apply(m)`.
    #[inline(always)]
    pub fn turn(&self, m: Move) -> PackedCube {
        imp::turn(self, &PACKED_TURNS[m.index()])
    }

    /// For a position's inverse, the inverse of the position after `m`: the inverse of `m`
    /// done first, `Cube3::of_move(m.inverse()).then(&self.cube())`.
    #[inline(always)]
    pub fn preturn(&self, m: Move) -> PackedCube {
        imp::preturn(self, &PACKED_TURNS[m.index()])
    }

    /// The corner slots (bit `i` for slot `i`) that hold a piece of `set`.
    #[inline(always)]
    pub fn corner_slots(&self, set: &PieceSet) -> u32 {
        imp::corner_slots(self, set)
    }

    /// The edge slots that hold a piece of `set`.
    #[inline(always)]
    pub fn edge_slots(&self, set: &PieceSet) -> u32 {
        imp::edge_slots(self, set)
    }

    /// The edge bytes with each piece replaced by `table[piece]` (the pad's too), the flips
    /// kept: `table[piece] | flip << 4`.
    #[inline(always)]
    pub fn edges_relabelled(&self, table: &[u8; 16]) -> [u8; 16] {
        imp::edges_relabelled(self, table)
    }

    /// The edge slots whose edge is flipped.
    #[inline(always)]
    pub fn flipped_edges(&self) -> u32 {
        imp::flipped_edges(self)
    }

    /// The twists of corner slots 0 to 6 as base-3 digits, slot 0's the most significant
    /// (`coord::rank_digits(&ori[..7], 3)`).
    #[inline(always)]
    pub fn twist_digits(&self) -> u16 {
        imp::twist_digits(self)
    }
}

/// A position and its inverse, turned together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CubePair {
    pub position: PackedCube,
    pub inverse: PackedCube,
}

impl Default for CubePair {
    fn default() -> CubePair {
        CubePair::of(&Cube3::SOLVED)
    }
}

impl CubePair {
    pub fn of(cube: &Cube3) -> CubePair {
        CubePair {
            position: PackedCube::of(cube),
            inverse: PackedCube::of(&cube.inverse()),
        }
    }

    /// The position after `m`, and its inverse.
    #[inline(always)]
    pub fn turn(&self, m: Move) -> CubePair {
        CubePair {
            position: self.position.turn(m),
            inverse: self.inverse.preturn(m),
        }
    }

    /// The inverse position, and its inverse.
    #[inline(always)]
    pub fn swapped(&self) -> CubePair {
        CubePair {
            position: self.inverse,
            inverse: self.position,
        }
    }

    pub fn is_solved(&self) -> bool {
        self.position == PackedCube::SOLVED
    }
}

/// The operations a byte at a time: the reference the tests hold the shuffles to, and the
/// implementation where SSSE3 is not enabled.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "ssse3"),
    allow(dead_code)
)]
mod portable {
    use super::*;

    /// A corner byte's twist reduced mod 3 (it is below 5, so one subtraction does).
    fn reduce(byte: u8) -> u8 {
        byte.min(byte.wrapping_sub(THREE_TWISTS))
    }

    pub(super) fn turn(cube: &PackedCube, t: &PackedTurn) -> PackedCube {
        PackedCube {
            corners: std::array::from_fn(|i| {
                reduce(cube.corners[usize::from(t.corner_from[i])] + t.corner_twist[i])
            }),
            edges: std::array::from_fn(|i| {
                cube.edges[usize::from(t.edge_from[i])] ^ t.edge_flip[i]
            }),
        }
    }

    pub(super) fn preturn(cube: &PackedCube, t: &PackedTurn) -> PackedCube {
        let relabel =
            |table: &[u8; 16], byte: u8| (table[usize::from(byte & PIECE)], byte & !PIECE);
        PackedCube {
            corners: cube.corners.map(|byte| {
                let (label, twist) = relabel(&t.corner_relabel, byte);
                reduce(label + twist)
            }),
            edges: cube.edges.map(|byte| {
                let (label, flip) = relabel(&t.edge_relabel, byte);
                label ^ flip
            }),
        }
    }

    fn slots(bytes: &[u8], set: &PieceSet) -> u32 {
        bytes.iter().enumerate().fold(0, |mask, (slot, &byte)| {
            mask | u32::from(set.0[usize::from(byte & PIECE)] >> 7) << slot
        })
    }

    pub(super) fn corner_slots(cube: &PackedCube, set: &PieceSet) -> u32 {
        slots(&cube.corners, set)
    }

    pub(super) fn edge_slots(cube: &PackedCube, set: &PieceSet) -> u32 {
        slots(&cube.edges, set)
    }

    pub(super) fn edges_relabelled(cube: &PackedCube, table: &[u8; 16]) -> [u8; 16] {
        cube.edges
            .map(|byte| table[usize::from(byte & PIECE)] | (byte & !PIECE))
    }

    pub(super) fn flipped_edges(cube: &PackedCube) -> u32 {
        (0..12).fold(0, |mask, slot| {
            mask | u32::from(cube.edges[slot] >> 4) << slot
        })
    }

    pub(super) fn twist_digits(cube: &PackedCube) -> u16 {
        cube.corners[..7]
            .iter()
            .fold(0, |rank, &byte| rank * 3 + u16::from(byte >> 4))
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
    // compiled only then), and every load and store is of a whole array of at least its width.
    #[inline(always)]
    fn load16(bytes: &[u8; 16]) -> __m128i {
        unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    fn load8(bytes: &[u8; 8]) -> __m128i {
        unsafe { _mm_loadl_epi64(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(corners: __m128i, edges: __m128i) -> PackedCube {
        let mut out = PackedCube {
            corners: [0; 8],
            edges: [0; 16],
        };
        unsafe {
            _mm_storel_epi64(out.corners.as_mut_ptr().cast(), corners);
            _mm_storeu_si128(out.edges.as_mut_ptr().cast(), edges);
        }
        out
    }

    /// Corner bytes whose twist reached 3 or 4 brought back by 3.
    #[inline(always)]
    fn reduce(corners: __m128i) -> __m128i {
        unsafe {
            _mm_min_epu8(
                corners,
                _mm_sub_epi8(corners, _mm_set1_epi8(THREE_TWISTS as i8)),
            )
        }
    }

    #[inline(always)]
    pub(super) fn turn(cube: &PackedCube, t: &PackedTurn) -> PackedCube {
        unsafe {
            let corners = _mm_shuffle_epi8(load8(&cube.corners), load16(&t.corner_from));
            let corners = reduce(_mm_add_epi8(corners, load16(&t.corner_twist)));
            let edges = _mm_shuffle_epi8(load16(&cube.edges), load16(&t.edge_from));
            store(corners, _mm_xor_si128(edges, load16(&t.edge_flip)))
        }
    }

    #[inline(always)]
    pub(super) fn preturn(cube: &PackedCube, t: &PackedTurn) -> PackedCube {
        unsafe {
            let piece = _mm_set1_epi8(PIECE as i8);
            let relabel = |bytes: __m128i, table: &[u8; 16]| {
                let label = _mm_shuffle_epi8(load16(table), _mm_and_si128(bytes, piece));
                (label, _mm_andnot_si128(piece, bytes))
            };
            let (label, twist) = relabel(load8(&cube.corners), &t.corner_relabel);
            let corners = reduce(_mm_add_epi8(label, twist));
            let (label, flip) = relabel(load16(&cube.edges), &t.edge_relabel);
            store(corners, _mm_xor_si128(label, flip))
        }
    }

    #[inline(always)]
    fn slots(bytes: __m128i, set: &PieceSet) -> u32 {
        unsafe {
            let marked = _mm_shuffle_epi8(
                load16(&set.0),
                _mm_and_si128(bytes, _mm_set1_epi8(PIECE as i8)),
            );
            _mm_movemask_epi8(marked) as u32
        }
    }

    #[inline(always)]
    pub(super) fn corner_slots(cube: &PackedCube, set: &PieceSet) -> u32 {
        slots(load8(&cube.corners), set) & 0xFF
    }

    #[inline(always)]
    pub(super) fn edge_slots(cube: &PackedCube, set: &PieceSet) -> u32 {
        slots(load16(&cube.edges), set) & 0xFFF
    }

    #[inline(always)]
    pub(super) fn edges_relabelled(cube: &PackedCube, table: &[u8; 16]) -> [u8; 16] {
        let mut out = [0u8; 16];
        unsafe {
            let edges = load16(&cube.edges);
            let piece = _mm_set1_epi8(PIECE as i8);
            let label = _mm_shuffle_epi8(load16(table), _mm_and_si128(edges, piece));
            let relabelled = _mm_or_si128(label, _mm_andnot_si128(piece, edges));
            _mm_storeu_si128(out.as_mut_ptr().cast(), relabelled);
        }
        out
    }

    #[inline(always)]
    pub(super) fn flipped_edges(cube: &PackedCube) -> u32 {
        // The flip, bit 4 of each byte, moved to its top bit (a 16-bit shift by 3 carries a
        // byte's bits 5 to 7 into the low bits of the byte above, never into its top bit).
        unsafe { _mm_movemask_epi8(_mm_slli_epi16(load16(&cube.edges), 3)) as u32 & 0xFFF }
    }

    #[inline(always)]
    pub(super) fn twist_digits(cube: &PackedCube) -> u16 {
        unsafe {
            let twists = _mm_and_si128(
                _mm_srli_epi16(load8(&cube.corners), 4),
                _mm_set1_epi8(PIECE as i8),
            );
            // Pairs of slots weighted within groups of four: 27t0 + 9t1, 3t2 + t3, 9t4 + 3t5,
            // t6 (slot 7's weight is 0) ...
            let pairs = _mm_maddubs_epi16(
                twists,
                _mm_setr_epi8(27, 9, 3, 1, 9, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0),
            );
            // ... then the groups: 27 x (slots 0-3) and slots 4-6.
            let groups = _mm_madd_epi16(pairs, _mm_setr_epi16(27, 27, 1, 1, 0, 0, 0, 0));
            let both = _mm_cvtsi128_si64(groups) as u64;
            (both as u32 + (both >> 32) as u32) as u16
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::rank_digits;
    use rand::rngs::Xoshiro256PlusPlus as Rng64;
    use rand::{RngExt, SeedableRng};

    fn random(rng: &mut Rng64) -> Cube3 {
        Cube3::random(rng)
    }

    #[test]
    fn packing_round_trips() {
        let mut rng = Rng64::seed_from_u64(1);
        for _ in 0..200 {
            let cube = random(&mut rng);
            assert_eq!(PackedCube::of(&cube).cube(), cube);
        }
    }

    /// Both implementations against the cubies, for every turn of random positions.
    #[test]
    fn turns_and_preturns_match_the_cubies() {
        let mut rng = Rng64::seed_from_u64(2);
        for _ in 0..200 {
            let cube = random(&mut rng);
            let (packed, inverse) = (PackedCube::of(&cube), PackedCube::of(&cube.inverse()));
            for m in Move::all() {
                let t = &PACKED_TURNS[m.index()];
                let turned = PackedCube::of(&cube.apply(m));
                assert_eq!(packed.turn(m), turned);
                assert_eq!(portable::turn(&packed, t), turned);
                let turned_inverse = PackedCube::of(&cube.apply(m).inverse());
                assert_eq!(inverse.preturn(m), turned_inverse);
                assert_eq!(portable::preturn(&inverse, t), turned_inverse);
            }
        }
    }

    #[test]
    fn a_pair_turns_together_and_swaps() {
        let mut rng = Rng64::seed_from_u64(3);
        let mut cube = Cube3::SOLVED;
        let mut pair = CubePair::of(&cube);
        assert!(pair.is_solved());
        for _ in 0..100 {
            let m = Move::from_index(rng.random_range(0..Move::COUNT)).unwrap();
            cube = cube.apply(m);
            pair = pair.turn(m);
            assert_eq!(pair, CubePair::of(&cube));
            assert_eq!(pair.swapped(), CubePair::of(&cube.inverse()));
        }
    }

    /// The masks and the twist rank, both implementations, against their definitions.
    #[test]
    fn masks_and_twists_match_their_definitions() {
        let mut rng = Rng64::seed_from_u64(4);
        for _ in 0..500 {
            let cube = random(&mut rng);
            let packed = PackedCube::of(&cube);
            let set: u32 = rng.random_range(0..1 << 12);
            let pieces = PieceSet::of(set);
            let where_ = |perm: &[u8]| {
                perm.iter()
                    .enumerate()
                    .fold(0, |m, (slot, &p)| m | (set >> p & 1) << slot)
            };
            assert_eq!(packed.corner_slots(&pieces), where_(&cube.corners.perm));
            assert_eq!(
                portable::corner_slots(&packed, &pieces),
                where_(&cube.corners.perm)
            );
            assert_eq!(packed.edge_slots(&pieces), where_(&cube.edges.perm));
            assert_eq!(
                portable::edge_slots(&packed, &pieces),
                where_(&cube.edges.perm)
            );
            let flips = cube
                .edges
                .ori
                .iter()
                .enumerate()
                .fold(0, |m, (slot, &o)| m | u32::from(o) << slot);
            assert_eq!(packed.flipped_edges(), flips);
            assert_eq!(portable::flipped_edges(&packed), flips);
            let table: [u8; 16] = std::array::from_fn(|_| rng.random_range(0..16));
            let relabelled: [u8; 16] = std::array::from_fn(|slot| match slot {
                0..12 => table[usize::from(cube.edges.perm[slot])] | cube.edges.ori[slot] << 4,
                _ => table[usize::from(PAD)],
            });
            assert_eq!(packed.edges_relabelled(&table), relabelled);
            assert_eq!(portable::edges_relabelled(&packed, &table), relabelled);
            let twists = rank_digits(&cube.corners.ori[..7], 3) as u16;
            assert_eq!(packed.twist_digits(), twists);
            assert_eq!(portable::twist_digits(&packed), twists);
        }
    }
}
