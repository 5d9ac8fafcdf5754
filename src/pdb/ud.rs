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
use crate::cube::{Corners, Cube3, Edges, Face, Metric, Move, Symmetry};
use crate::space::{MoveSpace, StateSpace};
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

    /// Values of the joint places part ([`UdCoord::places`]): `places x 495 + slice`.
    const fn place_values(self) -> u32 {
        self.places.values() * SLICES
    }
}

/// A position's coset coordinate in the parts that moves act on separately.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UdCoord {
    /// Rank of the set of slots holding U-layer corners.
    pub split: u8,
    /// Twists of corner slots 0..7 as base-3 digits.
    pub twist: u16,
    /// `places x 495 + slice`, slice the rank of the set of slots holding E-slice edges.
    pub places: u16,
    /// The flips of all twelve edge slots, slot `i` in bit `i`.
    pub flips: u16,
}

/// Bit `i` set where `pred(perm[i])`.
fn slots_where<const N: usize>(perm: &[u8; N], pred: impl Fn(u8) -> bool) -> u32 {
    perm.iter()
        .enumerate()
        .fold(0, |mask, (i, &p)| mask | u32::from(pred(p)) << i)
}

/// The bits of `value` at the set bits of `mask`, packed low (a software `pext`).
#[inline]
fn compress(value: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask.trailing_zeros();
        out |= (value >> low & 1) << bit;
        bit += 1;
        mask &= mask - 1;
    }
    out
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

/// The slots holding E-slice edges for slice rank `slice`.
fn slice_mask(slice: u32) -> u32 {
    unrank_combination(u64::from(slice), 4)
}

impl UdCoord {
    /// The coordinate of `cube` for cosets of `shape`.
    pub fn of(cube: &Cube3, shape: Shape) -> UdCoord {
        let (c, e) = (&cube.corners, &cube.edges);
        let split = rank_combination(slots_where(&c.perm, |p| p <= LAST_U_PIECE)) as u8;
        let twist = rank_digits(&c.ori[..7], 3) as u16;
        let slots = slots_where(&e.perm, |p| p >= FIRST_SLICE_EDGE);
        let slice = rank_combination(slots) as u32;
        let places = match shape.places {
            EdgePlaces::Slice => 0,
            EdgePlaces::SliceOrder => {
                let order: Vec<u8> = e
                    .perm
                    .iter()
                    .filter(|&&p| p >= FIRST_SLICE_EDGE)
                    .map(|&p| p - FIRST_SLICE_EDGE)
                    .collect();
                rank_arrangement(&order, 4) as u32
            }
            EdgePlaces::Layers => {
                let u_slots = slots_where(&e.perm, |p| p <= LAST_U_PIECE);
                rank_combination(compress(u_slots, !slots & 0xFFF)) as u32
            }
        };
        let flips = slots_where(&e.ori, |o| o == 1) as u16;
        UdCoord {
            split,
            twist,
            places: (places * SLICES + slice) as u16,
            flips,
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

/// A position with the joint places part `places` of `shape`, unflipped.
fn edges_of(places: u32, shape: Shape) -> Edges {
    let slots = slice_mask(places % SLICES);
    let value = u64::from(places / SLICES);
    let others = !slots & 0xFFF;
    let mut order = [0u8, 1, 2, 3];
    if shape.places == EdgePlaces::SliceOrder {
        unrank_arrangement(value, 4, &mut order);
    }
    // Without the layers part, any four of the other slots will do: the lowest.
    let u_slots = match shape.places {
        EdgePlaces::Layers => deposit(unrank_combination(value, 4), others),
        _ => deposit(0b1111, others),
    };
    let mut out = Edges::SOLVED;
    let (mut e, mut u, mut d) = (0, 0, LAST_U_PIECE + 1);
    for (slot, piece) in out.perm.iter_mut().enumerate() {
        if slots & 1 << slot != 0 {
            *piece = FIRST_SLICE_EDGE + order[e];
            e += 1;
        } else if u_slots & 1 << slot != 0 {
            *piece = u;
            u += 1;
        } else {
            *piece = d;
            d += 1;
        }
    }
    out
}

fn with_flips(mut edges: Edges, flips: u32) -> Edges {
    for (slot, ori) in edges.ori.iter_mut().enumerate() {
        *ori = (flips >> slot & 1) as u8;
    }
    edges
}

/// How a U-D symmetry changes the flips: the edge in slot `j` goes to slot `to[j]` and changes
/// its flip if `slice_flip` and exactly one of "it is an E-slice edge" and "slot `j` is an
/// E-slice slot" holds (quarter turns about U-D move E-slice edges between the F/B and R/L
/// sides, where their reference sticker changes face).
#[derive(Clone, Copy, Debug)]
struct FlipMap {
    /// `low[b]` and `high[b]`: where the six low and six high flip bits `b` go.
    low: [u16; 64],
    high: [u16; 64],
    slice_flip: bool,
}

impl FlipMap {
    fn new(symmetry: u8) -> FlipMap {
        let s = Symmetry::nth(symmetry);
        let image = |flips: u32| {
            let cube = Cube3 {
                corners: Corners::SOLVED,
                edges: with_flips(Edges::SOLVED, flips),
            };
            slots_where(&s.conjugate(&cube).edges.ori, |o| o == 1) as u16
        };
        // An E-slice edge moved into a U slot, unflipped: does conjugation flip it?
        let mut swapped = Edges::SOLVED;
        swapped.perm.swap(0, usize::from(FIRST_SLICE_EDGE));
        let probe = Cube3 {
            corners: Corners::SOLVED,
            edges: swapped,
        };
        FlipMap {
            low: std::array::from_fn(|b| image(b as u32)),
            high: std::array::from_fn(|b| image((b as u32) << 6)),
            slice_flip: s.conjugate(&probe).edges.ori != [0; 12],
        }
    }

    /// The flips of the conjugate of a position with `flips` and E-slice edges in `slots`.
    #[inline]
    fn apply(&self, flips: u32, slots: u32) -> u32 {
        let changed = if self.slice_flip {
            flips ^ (slots ^ 0b1111_0000_0000)
        } else {
            flips
        };
        u32::from(self.low[(changed & 63) as usize] | self.high[(changed >> 6) as usize])
    }
}

/// The coordinate machinery of one shape and metric: move tables for each part, the corner
/// classes, and how the symmetries act on the edge parts.
pub struct UdSpace {
    shape: Shape,
    moves: Vec<Move>,
    split_moves: Vec<u8>,
    twist_moves: Vec<u16>,
    place_moves: Vec<u16>,
    flip_moves: Vec<u16>,
    /// Per corner value: `class << 4 | symmetry` (an index into `Symmetry::ud()`).
    reduce: Vec<u32>,
    /// Per class: its representative's corner part.
    reps: Vec<u32>,
    /// Per class: the symmetries fixing its representative, beyond the identity.
    stabilizers: Vec<u16>,
    /// Per joint places value and symmetry: the value of the conjugate.
    place_syms: Vec<u16>,
    flip_maps: [FlipMap; SYMS],
    /// Per slice rank: the slots holding E-slice edges.
    slice_masks: Vec<u16>,
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
        let reduce = (0..CORNER_VALUES)
            .map(|v| classes.class_of(v) << 4 | u32::from(classes.to_representative(v)))
            .collect();
        let reps = (0..CORNER_CLASSES)
            .map(|c| classes.representative(c))
            .collect();
        let stabilizers = (0..CORNER_CLASSES)
            .map(|c| (classes.stabilizer(c) & !1) as u16)
            .collect();
        let edge_cube = |places: u64| Cube3 {
            corners: Corners::SOLVED,
            edges: edges_of(places as u32, shape),
        };
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
        let place_moves = move_table(
            u64::from(shape.place_values()),
            &moves,
            edge_cube,
            Cube3::apply,
            |c| u64::from(coord(c).places),
        );
        let flip_moves = move_table(
            1 << 12,
            &moves,
            |flips| Cube3 {
                corners: Corners::SOLVED,
                edges: with_flips(Edges::SOLVED, flips as u32),
            },
            Cube3::apply,
            |c| u64::from(coord(c).flips),
        );
        let place_syms = (0..shape.place_values())
            .flat_map(|places| {
                let cube = edge_cube(u64::from(places));
                syms.iter()
                    .map(move |&s| coord(&Symmetry::nth(s).conjugate(&cube)).places)
            })
            .collect();
        UdSpace {
            shape,
            moves,
            split_moves,
            twist_moves,
            place_moves,
            flip_moves,
            reduce,
            reps,
            stabilizers,
            place_syms,
            flip_maps: std::array::from_fn(|i| FlipMap::new(syms[i])),
            slice_masks: (0..SLICES).map(|s| slice_mask(s) as u16).collect(),
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
        UdCoord {
            split: self.split_moves[usize::from(c.split) * n + turn],
            twist: self.twist_moves[usize::from(c.twist) * n + turn],
            places: self.place_moves[usize::from(c.places) * n + turn],
            flips: self.flip_moves[usize::from(c.flips) * n + turn],
        }
    }

    /// The edge part of an index for the joint places value `places` and the flips `flips`.
    #[inline]
    fn edge_value(&self, places: u32, flips: u32) -> u32 {
        let slice = places % SLICES;
        let slots = u32::from(self.slice_masks[slice as usize]);
        let kept = match self.shape.flips {
            EdgeFlips::Slice => compress(flips, slots),
            EdgeFlips::Layers => compress(flips, !slots & 0xFFF),
            EdgeFlips::All => flips & 0x7FF,
        };
        ((places / SLICES) * self.shape.flips.values() + kept) * SLICES + slice
    }

    /// The edge parts seen through U-D symmetry number `sym` (an index into `Symmetry::ud()`).
    #[inline]
    fn conjugate_edges(&self, places: u32, flips: u32, sym: usize) -> (u32, u32) {
        let slots = u32::from(self.slice_masks[(places % SLICES) as usize]);
        let flips = self.flip_maps[sym].apply(flips, slots);
        let places = u32::from(self.place_syms[places as usize * SYMS + sym]);
        (places, flips)
    }

    /// The table index of a coordinate (one of several for a self-symmetric corner class).
    #[inline]
    pub fn index(&self, c: UdCoord) -> u64 {
        let reduced = self.reduce[c.corners() as usize];
        let (class, sym) = (reduced >> 4, (reduced & 15) as usize);
        let (places, flips) = self.conjugate_edges(c.places.into(), c.flips.into(), sym);
        u64::from(class) * u64::from(self.shape.edge_values())
            + u64::from(self.edge_value(places, flips))
    }

    /// A coordinate whose index is `index`: the class representative's corners, and flips
    /// that are zero where the shape keeps none.
    pub fn coord_of(&self, index: u64) -> UdCoord {
        let edge_values = u64::from(self.shape.edge_values());
        let corners = self.reps[(index / edge_values) as usize];
        let edge = (index % edge_values) as u32;
        let slice = edge % SLICES;
        let rest = edge / SLICES;
        let (kept, places) = (
            rest % self.shape.flips.values(),
            rest / self.shape.flips.values(),
        );
        let slots = u32::from(self.slice_masks[slice as usize]);
        let flips = match self.shape.flips {
            EdgeFlips::Slice => deposit(kept, slots),
            EdgeFlips::Layers => deposit(kept, !slots & 0xFFF),
            EdgeFlips::All => kept | (kept.count_ones() & 1) << 11,
        };
        UdCoord {
            split: (corners / TWISTS) as u8,
            twist: (corners % TWISTS) as u16,
            places: (places * SLICES + slice) as u16,
            flips: flips as u16,
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
            let (places, flips) = self.conjugate_edges(c.places.into(), c.flips.into(), sym);
            best = best.min(u64::from(self.edge_value(places, flips)));
        }
        class as u64 * edge_values + best
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

    /// The flips of a conjugate follow from the flips and the E-slice slots alone.
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
                let (places, flips) = space.conjugate_edges(c.places.into(), c.flips.into(), i);
                assert_eq!((places, flips), (image.places.into(), image.flips.into()));
            }
        }
    }

    /// The same cosets without the symmetry reduction: corner part x edge part, every value
    /// its own state. Ranked `corners x edge_values + edge`; the flips of a state are zero where
    /// the shape keeps none, as in [`UdSpace::coord_of`].
    struct Unreduced<'a>(&'a UdSpace);

    impl Unreduced<'_> {
        fn rank(&self, c: UdCoord) -> u64 {
            u64::from(c.corners()) * u64::from(self.0.shape.edge_values())
                + u64::from(self.0.edge_value(c.places.into(), c.flips.into()))
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
    /// class and symmetry, is its distance in the unreduced search.
    #[test]
    fn the_reduced_table_equals_an_unreduced_search() {
        use crate::bfs::breadth_first;
        use crate::table::{Encoding, nibble};
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
