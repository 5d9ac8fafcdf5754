//! The h48 spaces laid out in rows for the engine's row pass ([`H48Rows`]): their edge maps.

use super::*;
use crate::space::sym_rows::{EdgeMaps, SymRows};

/// What one map (a move or a symmetry) does to the kept flips of one placement: it is affine
/// over GF(2) (kept flips are linear in the flips, and a map permutes flips and adds some), so
/// two 16-entry tables over the low and high four bits say it all, the constant folded into
/// the low one. 32 bytes instead of a 256-entry table.
#[derive(Clone, Copy, Debug, Default)]
struct FlipMap {
    low: [u8; 16],
    high: [u8; 16],
}

impl FlipMap {
    /// The map that sends kept flips `k` (`k < values`, at most 256) to `image(k)`, which must
    /// be affine: read at the 16 low values and at the multiples of 16.
    fn of(values: u32, image: impl Fn(u32) -> u8) -> FlipMap {
        let at = |k: u32| if k < values { image(k) } else { 0 };
        let constant = at(0);
        FlipMap {
            low: std::array::from_fn(|k| at(k as u32)),
            high: std::array::from_fn(|k| at((k as u32) << 4) ^ constant),
        }
    }

    #[inline(always)]
    fn apply(&self, kept: u32) -> u32 {
        u32::from(self.low[(kept & 15) as usize] ^ self.high[(kept >> 4 & 15) as usize])
    }
}

/// How moves and symmetries change an [`H48Space`]'s edge values: each map sends a placement
/// to one placement and its block of kept flips through one [`FlipMap`]. Per map, 34,650
/// placements and 34,650 flip maps (1.2 MB), where whole edge-value tables would take 34 MB a
/// map for `h48-flips`.
pub struct H48EdgeMaps {
    /// `placements[map x 34,650 + placement]`: the placement after map `map` (moves first,
    /// then the symmetries).
    placements: Vec<u16>,
    /// `flip_maps[map x 34,650 + placement]`.
    flip_maps: Vec<FlipMap>,
    /// Kept-flip values are a power of two: `edge = placement << flip_bits | kept`.
    flip_bits: u32,
    /// The map number of the first symmetry: the number of moves.
    first_sym: usize,
}

impl H48EdgeMaps {
    /// Edge value `edge` after map number `map`.
    #[inline(always)]
    fn map(&self, map: usize, edge: u32) -> u32 {
        let bits = self.flip_bits;
        let (placement, kept) = (edge >> bits, edge & ((1 << bits) - 1));
        let at = map * PLACEMENTS as usize + placement as usize;
        u32::from(self.placements[at]) << bits | self.flip_maps[at].apply(kept)
    }
}

impl EdgeMaps for H48EdgeMaps {
    #[inline(always)]
    fn moved(&self, turn: usize, edge: u32) -> u32 {
        self.map(turn, edge)
    }

    #[inline(always)]
    fn conjugated(&self, sym: usize, edge: u32) -> u32 {
        self.map(self.first_sym + sym, edge)
    }
}

/// An [`H48Space`] laid out in rows for the breadth-first engine (see [`SymRows`]).
pub type H48Rows<'a> = SymRows<'a, H48Space, H48EdgeMaps>;

impl<'a> H48Rows<'a> {
    pub fn new(space: &'a H48Space) -> H48Rows<'a> {
        use rayon::prelude::*;
        let values = space.flips.values();
        assert!(values <= 256, "the row pass keeps at most eight flip bits");
        let maps = space.moves.len() + SYMS;
        let image = |map: usize, edge: u32| {
            let c = space.edge_coord_of(edge);
            let (m, s, flips) = if map < space.moves.len() {
                let moved = space.apply_coord(c, map);
                (moved.m.into(), moved.s.into(), moved.flips.into())
            } else {
                space.conjugate_edges(&c, map - space.moves.len())
            };
            space.edge_value(m, s, flips)
        };
        let (placements, flip_maps): (Vec<u16>, Vec<FlipMap>) = (0..maps * PLACEMENTS as usize)
            .into_par_iter()
            .map(|i| {
                let (map, placement) = (i / PLACEMENTS as usize, i as u32 % PLACEMENTS);
                let image = |k: u32| image(map, placement * values + k);
                let to = image(0) / values;
                (
                    to as u16,
                    FlipMap::of(values, |k| (image(k) % values) as u8),
                )
            })
            .unzip();
        debug_assert!(values.is_power_of_two());
        let edges = H48EdgeMaps {
            placements,
            flip_maps,
            flip_bits: values.trailing_zeros(),
            first_sym: space.moves.len(),
        };
        SymRows { space, edges }
    }
}
