//! The coset space laid out in rows for the engine's row pass ([`H48Rows`]).

use super::*;
use crate::space::{MoveSpace, RowSpace, StateSpace};

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

/// A [`H48Space`] laid out in rows for the breadth-first engine: row `class` holds the class's
/// edge values. A move takes the class representative's corners to one corner value, so the
/// whole row goes into one row, through the move and then the symmetry that reduces the
/// destination's corners. A map sends each placement to one placement and its block of kept
/// flips through one [`FlipMap`]: per map, 34,650 placements and 34,650 flip maps (1.2 MB),
/// where whole edge-value tables would take 34 MB a map for `h48-flips`.
pub struct H48Rows<'a> {
    space: &'a H48Space,
    /// `placements[map x 34,650 + placement]`: the placement after map `map` (moves first,
    /// then the symmetries).
    placements: Vec<u16>,
    /// `flip_maps[map x 34,650 + placement]`.
    flip_maps: Vec<FlipMap>,
    /// Kept-flip values are a power of two: `edge = placement << flip_bits | kept`.
    flip_bits: u32,
}

/// What one move does to a row of a [`H48Rows`]: the move, the symmetry that reduces the
/// destination, and the symmetries that fix the destination class (whose positions are
/// reduced to the smallest of their images).
#[derive(Clone, Copy, Debug)]
pub struct H48Step {
    turn: usize,
    sym: usize,
    stabilizer: u64,
}

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
        H48Rows {
            space,
            placements,
            flip_maps,
            flip_bits: values.trailing_zeros(),
        }
    }

    /// Edge value `edge` after map number `map`.
    #[inline(always)]
    fn map(&self, map: usize, edge: u32) -> u32 {
        let bits = self.flip_bits;
        let (placement, kept) = (edge >> bits, edge & ((1 << bits) - 1));
        let at = map * PLACEMENTS as usize + placement as usize;
        u32::from(self.placements[at]) << bits | self.flip_maps[at].apply(kept)
    }

    /// The smallest of an edge value's images under the symmetries of `stabilizer` and the
    /// identity: the representative within a row whose class they fix.
    #[inline(always)]
    fn smallest_image(&self, mut stabilizer: u64, position: u32) -> u32 {
        let first_sym = self.space.moves.len();
        let mut best = position;
        while stabilizer != 0 {
            let sym = stabilizer.trailing_zeros() as usize;
            stabilizer &= stabilizer - 1;
            best = best.min(self.map(first_sym + sym, position));
        }
        best
    }
}

impl MoveSpace for H48Rows<'_> {
    fn move_count(&self) -> usize {
        self.space.move_count()
    }

    fn apply(&self, state: u64, turn: usize) -> u64 {
        self.space.apply(state, turn)
    }
}

impl StateSpace for H48Rows<'_> {
    fn size(&self) -> u64 {
        self.space.size()
    }

    fn goals(&self) -> Vec<u64> {
        self.space.goals()
    }

    fn has_duplicates(&self) -> bool {
        true
    }

    fn representative(&self, state: u64) -> u64 {
        self.space.representative(state)
    }
}

impl RowSpace for H48Rows<'_> {
    type Step = H48Step;

    fn row_len(&self) -> u64 {
        self.space.flips.edge_values().into()
    }

    fn step(&self, row: u64, turn: usize) -> (u64, H48Step) {
        let space = self.space;
        let corners = space.reps[row as usize];
        let n = space.moves.len();
        let split = space.split_moves[(corners / TWISTS) as usize * n + turn];
        let twist = space.twist_moves[(corners % TWISTS) as usize * n + turn];
        let reduced = space.reduce[(u32::from(split) * TWISTS + u32::from(twist)) as usize];
        let class = reduced >> 6;
        let step = H48Step {
            turn,
            sym: (reduced & 63) as usize,
            stabilizer: space.stabilizers[class as usize],
        };
        (u64::from(class), step)
    }

    #[inline(always)]
    fn position(&self, step: H48Step, position: u32) -> u32 {
        let moved = self.map(step.turn, position);
        let image = self.map(self.space.moves.len() + step.sym, moved);
        self.smallest_image(step.stabilizer, image)
    }

    fn row_has_duplicates(&self, row: u64) -> bool {
        self.space.stabilizers[row as usize] != 0
    }

    fn row_representative(&self, row: u64, position: u32) -> u32 {
        self.smallest_image(self.space.stabilizers[row as usize], position)
    }
}
