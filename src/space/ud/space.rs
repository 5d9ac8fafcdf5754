//! The coordinate machinery of one shape and metric ([`UdSpace`]): move tables, slot maps and
//! the corner classes.

use super::masks::*;
use super::*;
use crate::space::corner_classes::CornerClasses;
use crate::space::masks::*;
use crate::space::sym_rows::ClassRowSpace;

/// The coordinate machinery of one shape and metric: move tables and slot maps for each part,
/// the corner classes, and how the symmetries act on the edge parts.
pub struct UdSpace {
    pub(super) shape: Shape,
    pub(super) moves: Vec<Move>,
    /// The corner classes under the 16 U-D symmetries, and the moves on the corner values.
    pub(super) corners: CornerClasses<4>,
    pub(super) edge_moves: Vec<EdgeMove>,
    /// For [`EdgePlaces::SliceOrder`], per slice rank, order and turn: the order after it.
    pub(super) order_moves: Vec<u8>,
    pub(super) edge_syms: [EdgeSym; SYMS],
    /// For [`EdgePlaces::SliceOrder`], per slice rank, order and symmetry: the conjugate's.
    pub(super) order_syms: Vec<u8>,
    pub(super) ranks: MaskRanks,
}

impl UdSpace {
    pub fn new(shape: Shape, metric: Metric) -> UdSpace {
        let moves = metric.generators(&Face::ALL);
        let syms = Symmetry::ud();
        let corner_cube = |corners| Cube3 {
            corners: corners_of(corners),
            edges: Edges::SOLVED,
        };
        let coord = |cube: &Cube3| UdCoord::of(cube, shape);
        let corners = CornerClasses::new(&moves, syms, corner_cube, |c| coord(c).corners());
        assert_eq!(corners.count(), CORNER_CLASSES);
        let ranks = MaskRanks::new();
        let order_cube = |value: u64| {
            let slice = u32::from(ranks.mask12[(value / 24) as usize]);
            Cube3 {
                corners: Corners::SOLVED,
                edges: edges_with_order(slice, (value % 24) as u8),
            }
        };
        let ordered = shape.places == EdgePlaces::SliceOrder;
        let (order_moves, order_syms) = if ordered {
            let moves_table = move_table(
                u64::from(SLICES) * 24,
                &moves,
                order_cube,
                Cube3::apply,
                |c| u64::from(coord(c).order),
            );
            let syms_table = (0..u64::from(SLICES) * 24)
                .flat_map(|value| {
                    let cube = order_cube(value);
                    syms.iter()
                        .map(move |&s| coord(&Symmetry::nth(s).conjugate(&cube)).order)
                })
                .collect();
            (moves_table, syms_table)
        } else {
            (Vec::new(), Vec::new())
        };
        UdSpace {
            shape,
            corners,
            edge_moves: moves.iter().map(|&m| EdgeMove::new(m)).collect(),
            order_moves,
            edge_syms: std::array::from_fn(|i| EdgeSym::new(syms[i])),
            order_syms,
            ranks,
            moves,
        }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The turns, in the order `turn` numbers refer to.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The coordinate after move number `turn`.
    #[inline]
    pub fn apply_coord(&self, c: UdCoord, turn: usize) -> UdCoord {
        let n = self.moves.len();
        let edge = &self.edge_moves[turn];
        let order = if self.shape.places == EdgePlaces::SliceOrder {
            let slice_rank = usize::from(self.ranks.of12[usize::from(c.slice)]);
            self.order_moves[(slice_rank * 24 + usize::from(c.order)) * n + turn]
        } else {
            0
        };
        let (split, twist) = self.corners.moved(c.split, c.twist, turn);
        UdCoord {
            split,
            twist,
            slice: edge.slots.apply(c.slice.into()) as u16,
            layer: edge.slots.apply(c.layer.into()) as u16,
            order,
            flips: (edge.slots.apply(c.flips.into()) ^ edge.flips) as u16,
        }
    }

    /// The edge part of an index for a coordinate's edge masks.
    #[inline(always)]
    pub(super) fn edge_value(&self, slice: u32, places: u32, flips: u32) -> u32 {
        let kept = match self.shape.flips {
            EdgeFlips::Slice => compress(flips, slice),
            EdgeFlips::Layers => compress(flips, !slice & ALL_SLOTS),
            EdgeFlips::All => flips & 0x7FF,
        };
        let slice_rank = u32::from(self.ranks.of12[slice as usize]);
        (places * self.shape.flips.values() + kept) * SLICES + slice_rank
    }

    /// The edge parts of `c` seen through U-D symmetry number `sym` (an index into
    /// `Symmetry::ud()`): the slice mask, the ranked places part, and the flips.
    #[inline(always)]
    pub(super) fn conjugate_edges(&self, c: &UdCoord, sym: usize) -> (u32, u32, u32) {
        let map = &self.edge_syms[sym];
        let slice = u32::from(c.slice);
        let image = map.slots.apply(slice);
        let places = match self.shape.places {
            EdgePlaces::Slice => 0,
            EdgePlaces::Layers => {
                let layer = map.layer(slice, c.layer.into());
                u32::from(self.ranks.of8[compress(layer, !image & ALL_SLOTS) as usize])
            }
            EdgePlaces::SliceOrder => {
                let slice_rank = usize::from(self.ranks.of12[slice as usize]);
                let value = slice_rank * 24 + usize::from(c.order);
                u32::from(self.order_syms[value * SYMS + sym])
            }
        };
        (image, places, map.flips(c.flips.into(), slice))
    }

    /// Asks for what [`UdSpace::index`] reads first for `c`: its corner class.
    #[inline(always)]
    pub fn prefetch_class(&self, c: UdCoord) {
        self.corners.prefetch(c.corners());
    }

    /// The table index of a coordinate (one of several for a self-symmetric corner class).
    #[inline]
    pub fn index(&self, c: UdCoord) -> u64 {
        let (class, sym) = self.corners.class_and_symmetry(c.corners());
        let (slice, places, flips) = self.conjugate_edges(&c, sym);
        u64::from(class) * u64::from(self.shape.edge_values())
            + u64::from(self.edge_value(slice, places, flips))
    }

    /// A coordinate whose index is `index`: the class representative's corners, and flips
    /// that are zero where the shape keeps none.
    pub fn coord_of(&self, index: u64) -> UdCoord {
        let edge_values = u64::from(self.shape.edge_values());
        let corners = self.corners.representative((index / edge_values) as usize);
        let mut c = self.edge_coord_of((index % edge_values) as u32);
        c.split = (corners / TWISTS) as u8;
        c.twist = (corners % TWISTS) as u16;
        c
    }

    /// The edge masks of edge value `edge`, the corner part solved.
    pub(super) fn edge_coord_of(&self, edge: u32) -> UdCoord {
        let slice = u32::from(self.ranks.mask12[(edge % SLICES) as usize]);
        let rest = edge / SLICES;
        let (kept, places) = (
            rest % self.shape.flips.values(),
            rest / self.shape.flips.values(),
        );
        let flips = match self.shape.flips {
            EdgeFlips::Slice => deposit(kept, slice),
            EdgeFlips::Layers => deposit(kept, !slice & ALL_SLOTS),
            EdgeFlips::All => kept | (kept.count_ones() & 1) << 11,
        };
        let (layer, order) = match self.shape.places {
            EdgePlaces::Slice => (0, 0),
            EdgePlaces::Layers => {
                let mask = u32::from(self.ranks.mask8[places as usize]);
                (deposit(mask, !slice & ALL_SLOTS), 0)
            }
            EdgePlaces::SliceOrder => (0, places as u8),
        };
        UdCoord {
            slice: slice as u16,
            layer: layer as u16,
            order,
            flips: flips as u16,
            ..UdCoord::default()
        }
    }
}

impl MoveSpace for UdSpace {
    fn move_count(&self) -> usize {
        self.moves.len()
    }

    #[inline]
    fn apply(&self, state: u64, turn: usize) -> u64 {
        let moved = self.apply_coord(self.coord_of(state), turn);
        self.representative(self.index(moved))
    }
}

impl StateSpace for UdSpace {
    fn size(&self) -> u64 {
        self.shape.entries()
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.index(UdCoord::of(&Cube3::SOLVED, self.shape))]
    }

    fn has_duplicates(&self) -> bool {
        true
    }

    /// The smallest index of the same position: for a self-symmetric corner class, the
    /// smallest edge value over the symmetries that fix the representative.
    #[inline]
    fn representative(&self, state: u64) -> u64 {
        let edge_values = u64::from(self.shape.edge_values());
        let class = (state / edge_values) as usize;
        let mut stabilizer = self.corners.stabilizer(class);
        if stabilizer == 0 {
            return state;
        }
        let c = self.coord_of(state);
        let mut best = state % edge_values;
        while stabilizer != 0 {
            let sym = stabilizer.trailing_zeros() as usize;
            stabilizer &= stabilizer - 1;
            let (slice, places, flips) = self.conjugate_edges(&c, sym);
            best = best.min(u64::from(self.edge_value(slice, places, flips)));
        }
        class as u64 * edge_values + best
    }
}

impl ClassRowSpace for UdSpace {
    fn row_len(&self) -> u64 {
        self.shape.edge_values().into()
    }

    fn class_step(&self, class: usize, turn: usize) -> (u32, usize) {
        self.corners.step(class, turn)
    }

    fn stabilizer(&self, class: usize) -> u64 {
        self.corners.stabilizer(class)
    }
}
