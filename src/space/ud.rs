//! Tables over the cosets of subgroups that contain every turn of U and D, reduced by the 16
//! symmetries that keep the U-D axis: Tomas Rokicki's family of pruning tables (nxopt), from
//! 20 MB to gigabytes.
//!
//! A coset is known by what the subgroup cannot change:
//! - **corners**: which four slots hold the U-layer corners (70 ways) and every twist (3^7);
//! - **edges**: which four slots hold the E-slice edges (495 ways), then a choice of edge
//!   flips ([`EdgeFlips`]: of the E-slice edges, of the other eight, or of all) and of edge
//!   places ([`EdgePlaces`]: nothing more, the order of the E-slice edges, or which of the
//!   other eight slots hold U-layer edges).
//!
//! The 16 U-D symmetries map each such subgroup onto itself, so they act on cosets. The corner
//! part (153,090 values) falls into 9,930 classes; an entry is indexed by the corner class and
//! the edge part seen through the symmetry that takes the corners to their class's
//! representative: `index = class x edge_values + edge`, with
//! `edge = (places x flip_values + flips) x 495 + slice`.
//!
//! An entry is the distance of its coset from the subgroup: a lower bound on the distance of
//! every position in it. Read along each of the three axes (through rotations that bring the
//! axis to U-D), the three corner parts together know every corner's place and twist. Where a
//! bound is tight the solution's last move cannot be a turn of that axis's faces, since those
//! lie in the subgroup: this is what lets the search narrow its moves.
//!
//! A corner class whose representative is fixed by some symmetries (its stabilizer) stands for
//! the same position under several edge values. The breadth-first search reaches one of them,
//! the smallest ([`UdSpace::representative`]); the others are filled from it, so a lookup need
//! not look for the smallest.

use super::move_table;
use crate::coord::classes::SymClasses;
use crate::coord::{
    rank_arrangement, rank_combination, rank_digits, unrank_arrangement, unrank_combination,
    unrank_digits,
};
use crate::model::cube::{Corners, Cube3, Edges, Face, Metric, Move, Symmetry};
use crate::space::{MoveSpace, RowSpace, StateSpace};
use serde::{Deserialize, Serialize};

/// Ways for the four U-layer corners (pieces URF UFL ULB UBR) to occupy four slots.
pub const SPLITS: u32 = 70;
pub const TWISTS: u32 = 2_187;
/// Values of the corner part: split x twist.
pub const CORNER_VALUES: u32 = SPLITS * TWISTS;
/// Classes of the corner part under the 16 U-D symmetries (Rokicki's count, tested).
pub const CORNER_CLASSES: u32 = 9_930;
/// Ways for the four E-slice edges to occupy four of the twelve slots.
pub const SLICES: u32 = 495;
/// The U-D symmetries.
pub const SYMS: usize = 16;

/// The E-slice edges FR FL BL BR are pieces 8 to 11.
const FIRST_SLICE_EDGE: u8 = 8;
/// The U-layer edges UR UF UL UB are pieces 0 to 3, the U-layer corners 0 to 3.
const LAST_U_PIECE: u8 = 3;

/// Which edge flips a coset keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EdgeFlips {
    /// The four E-slice edges' flips: 16 values.
    Slice,
    /// The eight U- and D-layer edges' flips: 256 values.
    Layers,
    /// All twelve flips (the last follows from the others): 2,048 values.
    All,
}

/// What a coset keeps of the edges' places beyond the E-slice edges' slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EdgePlaces {
    /// Nothing more: 1 value.
    Slice,
    /// The order of the four E-slice edges in their slots: 24 values.
    SliceOrder,
    /// Which four of the other eight slots hold the U-layer edges: 70 values.
    Layers,
}

impl EdgeFlips {
    pub const fn values(self) -> u32 {
        match self {
            EdgeFlips::Slice => 16,
            EdgeFlips::Layers => 256,
            EdgeFlips::All => 2_048,
        }
    }
}

impl EdgePlaces {
    pub const fn values(self) -> u32 {
        match self {
            EdgePlaces::Slice => 1,
            EdgePlaces::SliceOrder => 24,
            EdgePlaces::Layers => 70,
        }
    }
}

/// One member of the family: which flips and places of the edges its cosets keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shape {
    pub places: EdgePlaces,
    pub flips: EdgeFlips,
}

impl Shape {
    /// Values of the edge part of an index.
    pub const fn edge_values(self) -> u32 {
        self.places.values() * self.flips.values() * SLICES
    }

    /// Entries of the table: corner classes x edge values.
    pub const fn entries(self) -> u64 {
        CORNER_CLASSES as u64 * self.edge_values() as u64
    }
}

/// A position's coset coordinate in the parts that moves act on separately: the corner part as
/// two small ranks, the edge part as masks of the twelve slots, which moves and symmetries
/// permute by two lookups in tables of a few kilobytes (a ranked places part would need
/// megabyte tables, and the search reads them at every node).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UdCoord {
    /// Rank of the set of slots holding U-layer corners.
    pub split: u8,
    /// Twists of corner slots 0..7 as base-3 digits.
    pub twist: u16,
    /// The slots holding E-slice edges (bit `i` for slot `i`).
    pub slice: u16,
    /// The slots holding U-layer edges, for [`EdgePlaces::Layers`]; else 0.
    pub layer: u16,
    /// The order of the E-slice edges in their slots, for [`EdgePlaces::SliceOrder`]; else 0.
    pub order: u8,
    /// The flips of all twelve edge slots.
    pub flips: u16,
}

/// All twelve edge slots.
const ALL_SLOTS: u32 = 0xFFF;

/// Bit `i` set where `pred(perm[i])`.
fn slots_where<const N: usize>(perm: &[u8; N], pred: impl Fn(u8) -> bool) -> u32 {
    perm.iter()
        .enumerate()
        .fold(0, |mask, (i, &p)| mask | u32::from(pred(p)) << i)
}

/// `COMPRESS[mask][value]`: the bits of the 6-bit `value` at the set bits of the 6-bit
/// `mask`, packed low.
const COMPRESS: [[u8; 64]; 64] = {
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
fn compress(value: u32, mask: u32) -> u32 {
    let low = COMPRESS[(mask & 63) as usize][(value & 63) as usize];
    let high = COMPRESS[(mask >> 6 & 63) as usize][(value >> 6 & 63) as usize];
    u32::from(low) | u32::from(high) << (mask & 63).count_ones()
}

/// The inverse of [`compress`]: the low bits of `value` placed at the set bits of `mask`.
fn deposit(value: u32, mut mask: u32) -> u32 {
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
struct MaskRanks {
    of12: Vec<u16>,
    of8: [u8; 256],
    mask12: Vec<u16>,
    mask8: Vec<u8>,
}

impl MaskRanks {
    fn new() -> MaskRanks {
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
struct SlotMap {
    low: [u16; 64],
    high: [u16; 64],
}

impl SlotMap {
    /// The map sending slot `i` to slot `to[i]`.
    fn new(to: [u8; 12]) -> SlotMap {
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
    fn apply(&self, mask: u32) -> u32 {
        u32::from(self.low[(mask & 63) as usize] | self.high[(mask >> 6 & 63) as usize])
    }
}

/// What a move does to the edge masks: the edge in slot `j` goes to slot `to[j]`, and the flips
/// of `flips` change (F and B quarter turns).
#[derive(Clone, Copy, Debug)]
struct EdgeMove {
    slots: SlotMap,
    flips: u32,
}

impl EdgeMove {
    fn new(m: Move) -> EdgeMove {
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
struct EdgeSym {
    slots: SlotMap,
    swaps_layers: bool,
    slice_flip: bool,
}

/// The E-slice slots FR FL BL BR.
const SLICE_SLOTS: u32 = 0b1111_0000_0000;

impl EdgeSym {
    fn new(symmetry: u8) -> EdgeSym {
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
    fn flips(&self, flips: u32, slice: u32) -> u32 {
        let changed = if self.slice_flip {
            flips ^ (slice ^ SLICE_SLOTS)
        } else {
            flips
        };
        self.slots.apply(changed)
    }

    /// The U-layer edges' slots of the conjugate.
    #[inline(always)]
    fn layer(&self, slice: u32, layer: u32) -> u32 {
        let source = if self.swaps_layers {
            !slice & !layer & ALL_SLOTS
        } else {
            layer
        };
        self.slots.apply(source)
    }
}

impl UdCoord {
    /// The coordinate of `cube` for cosets of `shape`.
    pub fn of(cube: &Cube3, shape: Shape) -> UdCoord {
        let (c, e) = (&cube.corners, &cube.edges);
        let split = rank_combination(slots_where(&c.perm, |p| p <= LAST_U_PIECE)) as u8;
        let twist = rank_digits(&c.ori[..7], 3) as u16;
        let slice = slots_where(&e.perm, |p| p >= FIRST_SLICE_EDGE) as u16;
        let layer = match shape.places {
            EdgePlaces::Layers => slots_where(&e.perm, |p| p <= LAST_U_PIECE) as u16,
            _ => 0,
        };
        let order = match shape.places {
            EdgePlaces::SliceOrder => {
                let mut order = [0u8; 4];
                let pieces = e.perm.iter().filter(|&&p| p >= FIRST_SLICE_EDGE);
                for (slot, &p) in order.iter_mut().zip(pieces) {
                    *slot = p - FIRST_SLICE_EDGE;
                }
                rank_arrangement(&order, 4) as u8
            }
            _ => 0,
        };
        UdCoord {
            split,
            twist,
            slice,
            layer,
            order,
            flips: slots_where(&e.ori, |o| o == 1) as u16,
        }
    }

    /// The corner part, `split x 2187 + twist`.
    #[inline]
    pub fn corners(self) -> u32 {
        u32::from(self.split) * TWISTS + u32::from(self.twist)
    }
}

/// A position with the corner part `corners`: U-layer corners in the split's slots, in order.
fn corners_of(corners: u32) -> Corners {
    let u_slots = unrank_combination(u64::from(corners / TWISTS), 4);
    let mut out = Corners::SOLVED;
    let (mut u, mut d) = (0, LAST_U_PIECE + 1);
    for (slot, piece) in out.perm.iter_mut().enumerate() {
        if u_slots & 1 << slot != 0 {
            *piece = u;
            u += 1;
        } else {
            *piece = d;
            d += 1;
        }
    }
    unrank_digits(u64::from(corners % TWISTS), 3, &mut out.ori[..7]);
    let sum: u8 = out.ori[..7].iter().sum();
    out.ori[7] = (3 - sum % 3) % 3;
    out
}

/// A position with E-slice edges in `slice` in the order `order`, unflipped, the other edges
/// in slot order.
fn edges_with_order(slice: u32, order: u8) -> Edges {
    let mut pieces = [0u8, 1, 2, 3];
    unrank_arrangement(u64::from(order), 4, &mut pieces);
    let mut out = Edges::SOLVED;
    let (mut e, mut other) = (0, 0);
    for (slot, piece) in out.perm.iter_mut().enumerate() {
        if slice & 1 << slot != 0 {
            *piece = FIRST_SLICE_EDGE + pieces[e];
            e += 1;
        } else {
            *piece = other;
            other += 1;
        }
    }
    out
}

/// The coordinate machinery of one shape and metric: move tables and slot maps for each part,
/// the corner classes, and how the symmetries act on the edge parts.
pub struct UdSpace {
    shape: Shape,
    moves: Vec<Move>,
    split_moves: Vec<u8>,
    twist_moves: Vec<u16>,
    edge_moves: Vec<EdgeMove>,
    /// For [`EdgePlaces::SliceOrder`], per slice rank, order and turn: the order after it.
    order_moves: Vec<u8>,
    /// Per corner value: `class << 4 | symmetry` (an index into `Symmetry::ud()`).
    reduce: Vec<u32>,
    /// Per class: its representative's corner part.
    reps: Vec<u32>,
    /// Per class: the symmetries fixing its representative, beyond the identity.
    stabilizers: Vec<u16>,
    edge_syms: [EdgeSym; SYMS],
    /// For [`EdgePlaces::SliceOrder`], per slice rank, order and symmetry: the conjugate's.
    order_syms: Vec<u8>,
    ranks: MaskRanks,
}

impl UdSpace {
    pub fn new(shape: Shape, metric: Metric) -> UdSpace {
        let moves = metric.generators(&Face::ALL);
        let syms = Symmetry::ud();
        let corner_cube = |corners| Cube3 {
            corners: corners_of(corners),
            edges: Edges::SOLVED,
        };
        let classes = SymClasses::new(CORNER_VALUES, syms, |value, s| {
            UdCoord::of(&Symmetry::nth(s).conjugate(&corner_cube(value)), shape).corners()
        });
        assert_eq!(classes.count() as u32, CORNER_CLASSES);
        let coord = |cube: &Cube3| UdCoord::of(cube, shape);
        let split_moves = move_table(
            u64::from(SPLITS),
            &moves,
            |split| corner_cube(split as u32 * TWISTS),
            Cube3::apply,
            |c| u64::from(coord(c).split),
        );
        let twist_moves = move_table(
            u64::from(TWISTS),
            &moves,
            |twist| corner_cube(twist as u32),
            Cube3::apply,
            |c| u64::from(coord(c).twist),
        );
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
            split_moves,
            twist_moves,
            edge_moves: moves.iter().map(|&m| EdgeMove::new(m)).collect(),
            order_moves,
            reduce: (0..CORNER_VALUES)
                .map(|v| classes.class_of(v) << 4 | u32::from(classes.to_representative(v)))
                .collect(),
            reps: (0..CORNER_CLASSES)
                .map(|c| classes.representative(c))
                .collect(),
            stabilizers: (0..CORNER_CLASSES)
                .map(|c| (classes.stabilizer(c) & !1) as u16)
                .collect(),
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
        UdCoord {
            split: self.split_moves[usize::from(c.split) * n + turn],
            twist: self.twist_moves[usize::from(c.twist) * n + turn],
            slice: edge.slots.apply(c.slice.into()) as u16,
            layer: edge.slots.apply(c.layer.into()) as u16,
            order,
            flips: (edge.slots.apply(c.flips.into()) ^ edge.flips) as u16,
        }
    }

    /// The edge part of an index for a coordinate's edge masks.
    #[inline(always)]
    fn edge_value(&self, slice: u32, places: u32, flips: u32) -> u32 {
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
    fn conjugate_edges(&self, c: &UdCoord, sym: usize) -> (u32, u32, u32) {
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
        crate::space::prefetch(&self.reduce, c.corners() as usize);
    }

    /// The table index of a coordinate (one of several for a self-symmetric corner class).
    #[inline]
    pub fn index(&self, c: UdCoord) -> u64 {
        let reduced = self.reduce[c.corners() as usize];
        let (class, sym) = (reduced >> 4, (reduced & 15) as usize);
        let (slice, places, flips) = self.conjugate_edges(&c, sym);
        u64::from(class) * u64::from(self.shape.edge_values())
            + u64::from(self.edge_value(slice, places, flips))
    }

    /// A coordinate whose index is `index`: the class representative's corners, and flips
    /// that are zero where the shape keeps none.
    pub fn coord_of(&self, index: u64) -> UdCoord {
        let edge_values = u64::from(self.shape.edge_values());
        let corners = self.reps[(index / edge_values) as usize];
        let mut c = self.edge_coord_of((index % edge_values) as u32);
        c.split = (corners / TWISTS) as u8;
        c.twist = (corners % TWISTS) as u16;
        c
    }

    /// The edge masks of edge value `edge`, the corner part solved.
    fn edge_coord_of(&self, edge: u32) -> UdCoord {
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
        let mut stabilizer = self.stabilizers[class];
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

/// How a move or a symmetry changes the edge part of an index, one part at a time. Each part
/// after it depends only on that part and the E-slice edges' slots before it: the slots go to
/// new slots, the places of the other edges and the kept flips are carried along by the same
/// permutation. So each map is three tables indexed by the slice rank and one part, 36 KB per
/// move for `ud-layers-f4`.
///
/// A table of whole edge values per move and symmetry would take 75 MB for `ud-layers-f4`:
/// the breadth-first search then streams it from memory for every row and move, and a build
/// takes seven minutes instead of the minutes these small tables allow.
struct EdgePartMaps {
    /// `slice[map x 495 + slice]`: the slice rank after map number `map`.
    slice: Vec<u16>,
    /// `places[(map x 495 + slice) x place_values + places]`.
    places: Vec<u8>,
    /// `flips[(map x 495 + slice) x flip_values + flips]`.
    flips: Vec<u16>,
    place_values: usize,
    /// Flip values are a power of two: `rest = places << flip_bits | flips`.
    flip_bits: u32,
}

impl EdgePartMaps {
    /// Maps number `0..count`, given as functions on whole edge values.
    fn new(shape: Shape, count: usize, image: impl Fn(usize, u32) -> u32 + Sync) -> EdgePartMaps {
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
    fn apply(&self, map: usize, edge: u32) -> u32 {
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
    space: &'a UdSpace,
    moves: EdgePartMaps,
    /// The 16 U-D symmetries, numbered as in `Symmetry::ud()`.
    syms: EdgePartMaps,
}

/// What one move does to a row of a [`UdRows`]: the move, the symmetry that reduces the
/// destination, and the symmetries that fix the destination class (whose positions are
/// reduced to the smallest of their images).
#[derive(Clone, Copy, Debug)]
pub struct UdStep {
    turn: usize,
    sym: usize,
    stabilizer: u16,
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
    fn smallest_image(&self, mut stabilizer: u16, position: u32) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    const SHAPES: [Shape; 3] = [
        Shape {
            places: EdgePlaces::Slice,
            flips: EdgeFlips::Slice,
        },
        Shape {
            places: EdgePlaces::SliceOrder,
            flips: EdgeFlips::Layers,
        },
        Shape {
            places: EdgePlaces::Layers,
            flips: EdgeFlips::All,
        },
    ];

    /// Moving the coordinate by tables agrees with moving the cubies.
    #[test]
    fn moves_agree_with_cubies() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        for shape in SHAPES {
            let space = UdSpace::new(shape, Metric::Htm);
            for _ in 0..100 {
                let cube = Cube3::random(&mut rng);
                let c = UdCoord::of(&cube, shape);
                for (turn, &m) in space.moves().iter().enumerate() {
                    assert_eq!(
                        space.apply_coord(c, turn),
                        UdCoord::of(&cube.apply(m), shape)
                    );
                }
            }
        }
    }

    /// Every U-D conjugate of a position has the same index (up to the stabilizer's choice),
    /// and the index decodes to a coordinate with that index: so the table's entry for a
    /// position is shared by all its symmetric images.
    #[test]
    fn symmetric_positions_share_an_index() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(22);
        for shape in SHAPES {
            let space = UdSpace::new(shape, Metric::Htm);
            for _ in 0..100 {
                let cube = Cube3::random(&mut rng);
                let index = space.representative(space.index(UdCoord::of(&cube, shape)));
                assert!(index < shape.entries());
                for &s in Symmetry::ud() {
                    let image = Symmetry::nth(s).conjugate(&cube);
                    let image_index = space.index(UdCoord::of(&image, shape));
                    assert_eq!(space.representative(image_index), index);
                }
                assert_eq!(
                    space.representative(space.index(space.coord_of(index))),
                    index
                );
            }
        }
    }

    /// The masks of a conjugate follow from the masks alone (the flips from the flips and the
    /// E-slice slots).
    #[test]
    fn flip_maps_agree_with_conjugation() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
        let shape = SHAPES[2];
        let space = UdSpace::new(shape, Metric::Htm);
        for _ in 0..200 {
            let cube = Cube3::random(&mut rng);
            let c = UdCoord::of(&cube, shape);
            for (i, &s) in Symmetry::ud().iter().enumerate() {
                let image = UdCoord::of(&Symmetry::nth(s).conjugate(&cube), shape);
                let (slice, _, flips) = space.conjugate_edges(&c, i);
                assert_eq!((slice, flips), (image.slice.into(), image.flips.into()));
                let layer = space.edge_syms[i].layer(c.slice.into(), c.layer.into());
                assert_eq!(layer, u32::from(image.layer));
            }
        }
    }

    /// The same cosets without the symmetry reduction: corner part x edge part, every value
    /// its own state. Ranked `corners x edge_values + edge`; the flips of a state are zero where
    /// the shape keeps none, as in [`UdSpace::coord_of`].
    struct Unreduced<'a>(&'a UdSpace);

    impl Unreduced<'_> {
        fn rank(&self, c: UdCoord) -> u64 {
            let (slice, places, flips) = self.0.conjugate_edges(&c, 0);
            u64::from(c.corners()) * u64::from(self.0.shape.edge_values())
                + u64::from(self.0.edge_value(slice, places, flips))
        }

        fn coord_of(&self, state: u64) -> UdCoord {
            let edge_values = u64::from(self.0.shape.edge_values());
            let class_zero = self.0.coord_of(state % edge_values);
            let corners = (state / edge_values) as u32;
            UdCoord {
                split: (corners / TWISTS) as u8,
                twist: (corners % TWISTS) as u16,
                ..class_zero
            }
        }
    }

    impl MoveSpace for Unreduced<'_> {
        fn move_count(&self) -> usize {
            self.0.moves.len()
        }
        fn apply(&self, state: u64, turn: usize) -> u64 {
            self.rank(self.0.apply_coord(self.coord_of(state), turn))
        }
    }

    impl StateSpace for Unreduced<'_> {
        fn size(&self) -> u64 {
            u64::from(CORNER_VALUES) * u64::from(self.0.shape.edge_values())
        }
        fn goals(&self) -> Vec<u64> {
            vec![self.rank(UdCoord::of(&Cube3::SOLVED, self.0.shape))]
        }
    }

    /// The symmetry-reduced table of the smallest shape against a search of the same cosets
    /// without symmetry (1.2 billion states): every coset's entry, looked up through its corner
    /// class and symmetry, is its distance in the unreduced search. Three minutes on two
    /// cores, so run by `scripts/check-tables.sh ud` (results in reports/ud-table-checks.md).
    #[test]
    #[ignore = "three minutes; run by scripts/check-tables.sh ud"]
    fn the_reduced_table_equals_an_unreduced_search() {
        use crate::bfs::breadth_first;
        use crate::packing::{Encoding, nibble};
        use indicatif::ProgressBar;
        use rayon::prelude::*;
        let shape = SHAPES[0];
        let space = UdSpace::new(shape, Metric::Htm);
        let unreduced = Unreduced(&space);
        let goal = unreduced.goals()[0];
        assert_eq!(unreduced.coord_of(goal), UdCoord::of(&Cube3::SOLVED, shape));
        let bar = ProgressBar::hidden();
        let reduced = breadth_first(&space, Encoding::Nibble, &bar).unwrap();
        let full = breadth_first(&unreduced, Encoding::Nibble, &bar).unwrap();
        assert_eq!(full.histogram.iter().sum::<u64>(), unreduced.size());
        assert_eq!(reduced.histogram.iter().sum::<u64>(), space.size());
        let edge_values = u64::from(shape.edge_values());
        let mismatches: u64 = (0..u64::from(CORNER_VALUES))
            .into_par_iter()
            .map(|corners| {
                let mut wrong = 0;
                for edge in 0..edge_values {
                    let state = corners * edge_values + edge;
                    let index = space.index(unreduced.coord_of(state));
                    wrong +=
                        u64::from(nibble(&reduced.packed, index) != nibble(&full.packed, state));
                }
                wrong
            })
            .sum();
        assert_eq!(mismatches, 0);
    }

    /// Row steps agree with moving states one by one, representatives included.
    #[test]
    fn rows_agree_with_states() {
        use rand::RngExt;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(24);
        let layers = Shape {
            places: EdgePlaces::Layers,
            flips: EdgeFlips::Slice,
        };
        for shape in [SHAPES[0], SHAPES[1], layers] {
            for metric in Metric::BOTH {
                let space = UdSpace::new(shape, metric);
                let rows = UdRows::new(&space);
                let len = rows.row_len();
                for _ in 0..2_000 {
                    let any = rng.random_range(0..space.size());
                    let (row, position) = (any / len, (any % len) as u32);
                    let state = space.representative(any);
                    assert_eq!(
                        row * len + u64::from(rows.row_representative(row, position)),
                        state
                    );
                    if !rows.row_has_duplicates(row) {
                        assert_eq!(state, any);
                    }
                    for turn in 0..space.move_count() {
                        let (dest, step) = rows.step(state / len, turn);
                        let position = rows.position(step, (state % len) as u32);
                        assert_eq!(
                            dest * len + u64::from(position),
                            space.apply(state, turn),
                            "{shape:?} {metric:?} state {state} turn {turn}"
                        );
                    }
                }
            }
        }
    }

    /// The subgroup holds U and D: their turns keep the solved coset; every other turn leaves it.
    #[test]
    fn u_and_d_turns_keep_the_goal() {
        for shape in SHAPES {
            let space = UdSpace::new(shape, Metric::Htm);
            let goal = space.goals()[0];
            for (turn, &m) in space.moves().iter().enumerate() {
                let kept = matches!(m.face(), Face::U | Face::D);
                assert_eq!(space.apply(goal, turn) == goal, kept, "{shape:?} {m}");
            }
        }
    }
}
