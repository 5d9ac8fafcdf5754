//! The coset space laid out in rows for the engine's row pass ([`UdRows`]).

use super::*;

/// How a move or a symmetry changes the edge part of an index, one part at a time. Each part
/// after it depends only on that part and the E-slice edges' slots before it: the slots go to
/// new slots, the places of the other edges and the kept flips are carried along by the same
/// permutation. So each map is three tables indexed by the slice rank and one part, 36 KB per
/// move for `ud-layers-f4`.
///
/// A table of whole edge values per move and symmetry would take 75 MB for `ud-layers-f4`:
/// the breadth-first search then streams it from memory for every row and move, and a build
/// takes seven minutes instead of the minutes these small tables allow.
pub(super) struct EdgePartMaps {
    /// `slice[map x 495 + slice]`: the slice rank after map number `map`.
    pub(super) slice: Vec<u16>,
    /// `places[(map x 495 + slice) x place_values + places]`.
    pub(super) places: Vec<u8>,
    /// `flips[(map x 495 + slice) x flip_values + flips]`.
    pub(super) flips: Vec<u16>,
    pub(super) place_values: usize,
    /// Flip values are a power of two: `rest = places << flip_bits | flips`.
    pub(super) flip_bits: u32,
}

impl EdgePartMaps {
    /// Maps number `0..count`, given as functions on whole edge values.
    pub(super) fn new(
        shape: Shape,
        count: usize,
        image: impl Fn(usize, u32) -> u32 + Sync,
    ) -> EdgePartMaps {
        use rayon::prelude::*;
        let (place_values, flip_values) = (shape.places.values(), shape.flips.values());
        debug_assert!(flip_values.is_power_of_two());
        let flip_bits = flip_values.trailing_zeros();
        let value =
            |slice: u32, places: u32, flips: u32| (places << flip_bits | flips) * SLICES + slice;
        let split = |edge: u32| {
            let rest = edge / SLICES;
            (edge % SLICES, rest >> flip_bits, rest & (flip_values - 1))
        };
        let rows = count * SLICES as usize;
        let per_row = |values: u32, part: &(dyn Fn(u32, u32, u32) -> u32 + Sync)| {
            (0..rows)
                .into_par_iter()
                .flat_map_iter(|row| {
                    let (map, slice) = (row / SLICES as usize, row as u32 % SLICES);
                    (0..values).map(move |v| part(map as u32, slice, v))
                })
                .collect::<Vec<u32>>()
        };
        let slice = per_row(1, &|map, slice, _| {
            split(image(map as usize, value(slice, 0, 0))).0
        });
        let places = per_row(place_values, &|map, slice, places| {
            split(image(map as usize, value(slice, places, 0))).1
        });
        let flips = per_row(flip_values, &|map, slice, flips| {
            split(image(map as usize, value(slice, 0, flips))).2
        });
        EdgePartMaps {
            slice: slice.into_iter().map(|v| v as u16).collect(),
            places: places.into_iter().map(|v| v as u8).collect(),
            flips: flips.into_iter().map(|v| v as u16).collect(),
            place_values: place_values as usize,
            flip_bits,
        }
    }

    /// Edge value `edge` after map number `map`.
    #[inline(always)]
    pub(super) fn apply(&self, map: usize, edge: u32) -> u32 {
        let (slice, rest) = (edge % SLICES, edge / SLICES);
        let (places, flips) = (rest >> self.flip_bits, rest & ((1 << self.flip_bits) - 1));
        let row = map * SLICES as usize + slice as usize;
        let places = u32::from(self.places[row * self.place_values + places as usize]);
        let flips = u32::from(self.flips[(row << self.flip_bits) + flips as usize]);
        (places << self.flip_bits | flips) * SLICES + u32::from(self.slice[row])
    }
}

/// A [`UdSpace`] laid out in rows for the breadth-first engine: row `class` holds the class's
/// edge values. A move takes the class representative's corners to one corner value, so the
/// whole row goes into one row, through the move and then the symmetry that reduces the
/// destination's corners; on the edge values both act by small tables ([`EdgePartMaps`]).
pub struct UdRows<'a> {
    pub(super) space: &'a UdSpace,
    pub(super) moves: EdgePartMaps,
    /// The 16 U-D symmetries, numbered as in `Symmetry::ud()`.
    pub(super) syms: EdgePartMaps,
}

/// What one move does to a row of a [`UdRows`]: the move, the symmetry that reduces the
/// destination, and the symmetries that fix the destination class (whose positions are
/// reduced to the smallest of their images).
#[derive(Clone, Copy, Debug)]
pub struct UdStep {
    pub(super) turn: usize,
    pub(super) sym: usize,
    pub(super) stabilizer: u16,
}

impl<'a> UdRows<'a> {
    pub fn new(space: &'a UdSpace) -> UdRows<'a> {
        let value_of = |(slice, places, flips)| space.edge_value(slice, places, flips);
        let shape = space.shape;
        let moves = EdgePartMaps::new(shape, space.moves.len(), |turn, edge| {
            let moved = space.apply_coord(space.edge_coord_of(edge), turn);
            value_of(space.conjugate_edges(&moved, 0))
        });
        let syms = EdgePartMaps::new(shape, SYMS, |sym, edge| {
            value_of(space.conjugate_edges(&space.edge_coord_of(edge), sym))
        });
        UdRows { space, moves, syms }
    }

    /// The smallest of an edge value's images under the symmetries of `stabilizer` and the
    /// identity: the representative within a row whose class they fix.
    #[inline(always)]
    pub(super) fn smallest_image(&self, mut stabilizer: u16, position: u32) -> u32 {
        let mut best = position;
        while stabilizer != 0 {
            let sym = stabilizer.trailing_zeros() as usize;
            stabilizer &= stabilizer - 1;
            best = best.min(self.syms.apply(sym, position));
        }
        best
    }
}

impl MoveSpace for UdRows<'_> {
    fn move_count(&self) -> usize {
        self.space.move_count()
    }

    fn apply(&self, state: u64, turn: usize) -> u64 {
        self.space.apply(state, turn)
    }
}

impl StateSpace for UdRows<'_> {
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

impl RowSpace for UdRows<'_> {
    type Step = UdStep;

    fn row_len(&self) -> u64 {
        self.space.shape.edge_values().into()
    }

    fn step(&self, row: u64, turn: usize) -> (u64, UdStep) {
        let space = self.space;
        let corners = space.reps[row as usize];
        let n = space.moves.len();
        let split = space.split_moves[(corners / TWISTS) as usize * n + turn];
        let twist = space.twist_moves[(corners % TWISTS) as usize * n + turn];
        let reduced = space.reduce[(u32::from(split) * TWISTS + u32::from(twist)) as usize];
        let class = reduced >> 4;
        let step = UdStep {
            turn,
            sym: (reduced & 15) as usize,
            stabilizer: space.stabilizers[class as usize],
        };
        (u64::from(class), step)
    }

    #[inline(always)]
    fn position(&self, step: UdStep, position: u32) -> u32 {
        let moved = self.moves.apply(step.turn, position);
        let image = self.syms.apply(step.sym, moved);
        self.smallest_image(step.stabilizer, image)
    }

    fn row_has_duplicates(&self, row: u64) -> bool {
        self.space.stabilizers[row as usize] != 0
    }

    fn row_representative(&self, row: u64, position: u32) -> u32 {
        self.smallest_image(self.space.stabilizers[row as usize], position)
    }
}
