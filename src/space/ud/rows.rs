//! The ud spaces laid out in rows for the engine's row pass ([`UdRows`]): their edge maps.

use super::*;
use crate::space::sym_rows::{EdgeMaps, SymRows};

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

/// How moves and the 16 U-D symmetries change a [`UdSpace`]'s edge values.
pub struct UdEdgeMaps {
    moves: EdgePartMaps,
    /// The 16 U-D symmetries, numbered as in `Symmetry::ud()`.
    syms: EdgePartMaps,
}

impl EdgeMaps for UdEdgeMaps {
    #[inline(always)]
    fn moved(&self, turn: usize, edge: u32) -> u32 {
        self.moves.apply(turn, edge)
    }

    #[inline(always)]
    fn conjugated(&self, sym: usize, edge: u32) -> u32 {
        self.syms.apply(sym, edge)
    }
}

/// A [`UdSpace`] laid out in rows for the breadth-first engine (see [`SymRows`]); on the edge
/// values moves and symmetries act by small tables ([`EdgePartMaps`]).
pub type UdRows<'a> = SymRows<'a, UdSpace, UdEdgeMaps>;

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
        SymRows {
            space,
            edges: UdEdgeMaps { moves, syms },
        }
    }
}
