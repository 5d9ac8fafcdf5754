//! The tables of Kociemba's two-phase method, symmetry-reduced by the 16 symmetries that keep
//! the U-D axis.
//!
//! Phase 1 brings a position into the subgroup H = <U, D, R2, L2, F2, B2>; phase 2 solves it
//! with H's ten moves. Each phase's table is the exact distance of one coordinate from its goal:
//!
//! - `phase1-sym`: the phase-1 coordinate (corner twist, edge flip, E-slice places), indexed by
//!   the class of its flip-and-slice part (1,013,760 values, 64,430 classes) times the twist
//!   (2,187): 140,908,410 entries, 70 MB, where the raw `phase1` table takes 1.1 GB.
//! - `phase2`: within H, the corner permutation's class (40,320 values, 2,768 classes) times the
//!   permutation of the eight U- and D-layer edges (40,320): 111,605,760 entries, 56 MB.
//! - `phase2-slice`: within H, the corner permutation times the order of the E-slice edges
//!   (24): 967,680 entries, not reduced. It bounds what `phase2` ignores.
//!
//! Both reduced tables are one [`SymProduct`]: the classes of one coordinate times a second
//! coordinate seen through the symmetry that takes the first to its class's representative. A
//! position and its conjugate by a U-D symmetry have the same distance, as the symmetry maps H
//! onto itself and the move set onto itself.
//!
//! The phase-2 tables count half turns: H's generators are the half-turn metric's moves, and a
//! quarter-turn count of phase 2 would need R2 to cost two moves of one step.

use super::move_table;
use super::phase1::{Phase1Coord, corners_with_twist, edges_with_flip, edges_with_slice};
use crate::coord::classes::SymClasses;
use crate::coord::{rank_arrangement, unrank_arrangement};
use crate::model::cube::{Corners, Cube3, Edges, Face, Metric, Move, Symmetry};
use crate::space::{MoveSpace, StateSpace};

/// Values of the phase-1 flip-and-slice part: `slice x 2048 + flip`.
pub const FLIP_SLICES: u32 = (super::phase1::SLICES * super::phase1::FLIPS) as u32;
/// Its classes under the U-D symmetries (Kociemba's count, tested).
pub const FLIP_SLICE_CLASSES: u32 = 64_430;
pub const TWISTS: u32 = super::phase1::TWISTS as u32;
/// Permutations of eight pieces: the corners, or the U- and D-layer edges within H.
pub const PERMUTATIONS: u32 = 40_320;
/// Corner permutation classes under the U-D symmetries (Kociemba's count, tested).
pub const CORNER_CLASSES: u32 = 2_768;
/// Orders of the four E-slice edges in their slice.
pub const SLICE_ORDERS: u32 = 24;

pub const PHASE1_ENTRIES: u64 = FLIP_SLICE_CLASSES as u64 * TWISTS as u64;
pub const PHASE2_ENTRIES: u64 = CORNER_CLASSES as u64 * PERMUTATIONS as u64;
pub const PHASE2_SLICE_ENTRIES: u64 = PERMUTATIONS as u64 * SLICE_ORDERS as u64;

/// The number of U-D symmetries.
const SYMS: usize = 16;
/// The first E-slice edge (FR); FR FL BL BR are pieces 8 to 11.
const FIRST_SLICE_EDGE: u8 = 8;

/// H's generators among the half-turn moves, in move order: U U2 U' R2 F2 D D2 D' L2 B2.
pub fn phase2_moves() -> Vec<Move> {
    Move::all()
        .filter(|m| matches!(m.face(), Face::U | Face::D) || m.quarter_turns() == 2)
        .collect()
}

/// The phase-1 flip-and-slice part of a position.
#[inline]
pub fn flip_slice(c: Phase1Coord) -> u32 {
    u32::from(c.slice) * super::phase1::FLIPS as u32 + u32::from(c.flip)
}

/// The rank of the corner permutation.
pub fn corner_permutation(cube: &Cube3) -> u32 {
    rank_arrangement(&cube.corners.perm, 8) as u32
}

/// The rank of the permutation of the U- and D-layer edges (pieces 0 to 7) in their slots
/// (0 to 7); meaningful within H, where no other edge is there.
pub fn layer_edges(cube: &Cube3) -> u32 {
    rank_arrangement(&cube.edges.perm[..8], 8) as u32
}

/// The rank of the order of the E-slice edges in slots 8 to 11; meaningful within H.
pub fn slice_order(cube: &Cube3) -> u32 {
    slice_order_of(&cube.edges.perm[8..])
}

/// [`slice_order`] of the edges in slots 8 to 11, `slots`.
#[inline]
pub fn slice_order_of(slots: &[u8]) -> u32 {
    let order: [u8; 4] = std::array::from_fn(|i| slots[i] - FIRST_SLICE_EDGE);
    rank_arrangement(&order, 4) as u32
}

/// A solved cube but for the corner permutation of rank `rank`.
pub(crate) fn with_corner_permutation(rank: u32) -> Cube3 {
    let mut corners = Corners::SOLVED;
    unrank_arrangement(u64::from(rank), 8, &mut corners.perm);
    Cube3 {
        corners,
        ..Cube3::SOLVED
    }
}

/// A solved cube but for the U- and D-layer edges, permuted as rank `rank`.
pub(crate) fn with_layer_edges(rank: u32) -> Cube3 {
    let mut edges = Edges::SOLVED;
    unrank_arrangement(u64::from(rank), 8, &mut edges.perm[..8]);
    Cube3 {
        edges,
        ..Cube3::SOLVED
    }
}

/// A solved cube but for the E-slice edges, ordered as rank `rank`.
pub(crate) fn with_slice_order(rank: u32) -> Cube3 {
    let mut order = [0u8; 4];
    unrank_arrangement(u64::from(rank), 4, &mut order);
    let mut edges = Edges::SOLVED;
    for (slot, piece) in edges.perm[8..].iter_mut().zip(order) {
        *slot = piece + FIRST_SLICE_EDGE;
    }
    Cube3 {
        edges,
        ..Cube3::SOLVED
    }
}

/// Edges flipped and placed as the flip-and-slice value `value` says, corners solved.
fn with_flip_slice(value: u32) -> Cube3 {
    let flips = super::phase1::FLIPS;
    let mut edges = edges_with_slice(u64::from(value) / flips);
    edges.ori = edges_with_flip(u64::from(value) % flips).ori;
    Cube3 {
        edges,
        ..Cube3::SOLVED
    }
}

/// Corners twisted as the twist rank `twist` says, edges solved.
fn with_twist(twist: u32) -> Cube3 {
    Cube3 {
        corners: corners_with_twist(u64::from(twist)),
        ..Cube3::SOLVED
    }
}

/// How a coordinate of positions is ranked: the number of values, a position with a given
/// value (the rest solved) and the value of a position.
#[derive(Clone, Copy)]
pub struct Ranking {
    pub values: u32,
    pub cube_of: fn(u32) -> Cube3,
    pub value_of: fn(&Cube3) -> u32,
}

impl Ranking {
    /// Its move table over `moves`: entry `value x moves + turn` is the value after `turn`.
    pub fn move_table(&self, moves: &[Move]) -> Vec<u16> {
        move_table(
            u64::from(self.values),
            moves,
            |value| (self.cube_of)(value as u32),
            |cube, m| cube.apply(m),
            |cube| u64::from((self.value_of)(cube)),
        )
    }

    /// The value of the conjugate by symmetry number `s` of a position of value `value`.
    fn conjugate(&self, value: u32, s: u8) -> u32 {
        (self.value_of)(&Symmetry::nth(s).conjugate(&(self.cube_of)(value)))
    }
}

pub const FLIP_SLICE: Ranking = Ranking {
    values: FLIP_SLICES,
    cube_of: with_flip_slice,
    value_of: |cube| flip_slice(Phase1Coord::of(cube)),
};

pub const TWIST: Ranking = Ranking {
    values: TWISTS,
    cube_of: with_twist,
    value_of: |cube| u32::from(Phase1Coord::of(cube).twist),
};

pub const CORNER_PERMUTATION: Ranking = Ranking {
    values: PERMUTATIONS,
    cube_of: with_corner_permutation,
    value_of: corner_permutation,
};

pub const LAYER_EDGES: Ranking = Ranking {
    values: PERMUTATIONS,
    cube_of: with_layer_edges,
    value_of: layer_edges,
};

pub const SLICE_ORDER: Ranking = Ranking {
    values: SLICE_ORDERS,
    cube_of: with_slice_order,
    value_of: slice_order,
};

/// The index of a symmetry-reduced table over two coordinates: the class of the first under
/// the U-D symmetries, times the second seen through the symmetry that takes the first to its
/// class's representative.
///
/// Invariant: `index(a, b)` is the same for a position and for each of its conjugates by the
/// U-D symmetries, and distinct positions up to those symmetries have distinct indices but for
/// a representative fixed by some symmetries; there, the several indices of one position are
/// all filled by the breadth-first search (see [`SymProductSpace::representative`]), so a
/// lookup need not look for the smallest.
pub struct SymProduct {
    classes: SymClasses,
    second_values: u32,
    /// `second x 16 + i`: the second coordinate conjugated by the `i`th U-D symmetry.
    conjugates: Vec<u16>,
}

impl SymProduct {
    pub fn new(first: Ranking, second: Ranking) -> SymProduct {
        let syms = Symmetry::ud();
        let classes = SymClasses::new(first.values, syms, |value, s| first.conjugate(value, s));
        let mut conjugates = Vec::with_capacity(second.values as usize * SYMS);
        for value in 0..second.values {
            conjugates.extend(syms.iter().map(|&s| second.conjugate(value, s) as u16));
        }
        SymProduct {
            classes,
            second_values: second.values,
            conjugates,
        }
    }

    /// The phase-1 table's index: flip-and-slice classes times twists.
    pub fn phase1() -> SymProduct {
        SymProduct::new(FLIP_SLICE, TWIST)
    }

    /// The phase-2 table's index: corner permutation classes times layer edge permutations.
    pub fn phase2() -> SymProduct {
        SymProduct::new(CORNER_PERMUTATION, LAYER_EDGES)
    }

    pub fn entries(&self) -> u64 {
        self.classes.count() as u64 * u64::from(self.second_values)
    }

    #[inline]
    fn conjugate_second(&self, second: u32, sym: u8) -> u32 {
        u32::from(self.conjugates[second as usize * SYMS + usize::from(sym)])
    }

    /// Asks for what [`SymProduct::index`] reads first for `first`: its class and symmetry.
    #[inline]
    pub fn prefetch(&self, first: u32) {
        self.classes.prefetch(first);
    }

    /// The number of classes of the first coordinate.
    pub fn class_count(&self) -> u32 {
        self.classes.count() as u32
    }

    /// The first coordinate's value that represents `class`.
    pub fn class_representative(&self, class: u32) -> u32 {
        self.classes.representative(class)
    }

    /// The index, in [`Symmetry::ud`], of the symmetry [`SymProduct::index`] sees a position
    /// whose first coordinate is `first` through: the entry it gives is that of the conjugate.
    #[inline]
    pub fn symmetry(&self, first: u32) -> u8 {
        self.classes.to_representative(first)
    }

    /// The class of the first coordinate's value `first`.
    #[inline]
    pub fn class_of(&self, first: u32) -> u32 {
        self.classes.class_of(first)
    }

    /// The entry of the position whose coordinates are `first` and `second`.
    #[inline]
    pub fn index(&self, first: u32, second: u32) -> u64 {
        let symmetry = self.classes.to_representative(first);
        self.index_seen(self.classes.class_of(first), symmetry, second)
    }

    /// [`SymProduct::index`] of a position whose first coordinate is known by its class and
    /// [`SymProduct::symmetry`]: a search over a class's entries finds them once for all.
    #[inline]
    pub fn index_seen(&self, class: u32, symmetry: u8, second: u32) -> u64 {
        let second = self.conjugate_second(second, symmetry);
        u64::from(class) * u64::from(self.second_values) + u64::from(second)
    }

    /// The smallest index of the position at `class` and `second`: the second coordinate seen
    /// through each symmetry that keeps the class's representative.
    fn smallest(&self, class: u32, second: u32) -> u32 {
        let mut stabilizer = self.classes.stabilizer(class) & !1;
        let mut smallest = second;
        while stabilizer != 0 {
            let sym = stabilizer.trailing_zeros() as u8;
            stabilizer &= stabilizer - 1;
            smallest = smallest.min(self.conjugate_second(second, sym));
        }
        smallest
    }

    /// The smallest of the indices of the position at `index` (see [`SymProduct`]).
    #[inline]
    pub fn representative(&self, index: u64) -> u64 {
        let per_class = u64::from(self.second_values);
        let class = (index / per_class) as u32;
        let second = (index % per_class) as u32;
        u64::from(class) * per_class + u64::from(self.smallest(class, second))
    }

    /// The coordinates of the position at `index`: its first coordinate (its class's
    /// representative) and its second, seen through the symmetry that took the first there.
    pub fn values_at(&self, index: u64) -> (u32, u32) {
        let per_class = u64::from(self.second_values);
        let class = (index / per_class) as u32;
        (
            self.classes.representative(class),
            (index % per_class) as u32,
        )
    }

    /// How many distinct positions (pairs of coordinates) are conjugates of the one at
    /// `index` by the U-D symmetries: 16 over the number of them that fix it, which are those
    /// fixing its class's representative that also fix its second coordinate.
    pub fn orbit_size(&self, index: u64) -> u64 {
        let per_class = u64::from(self.second_values);
        let class = (index / per_class) as u32;
        let second = (index % per_class) as u32;
        let stabilizer = self.classes.stabilizer(class);
        let fixing = (0..SYMS as u8)
            .filter(|&s| stabilizer >> s & 1 == 1 && self.conjugate_second(second, s) == second)
            .count();
        (SYMS / fixing) as u64
    }

    /// How many positions each entry of `class` stands for, over the entries of one
    /// representative: 16 over the size of its stabilizer.
    pub fn class_weight(&self, class: u32) -> u64 {
        (SYMS as u32 / self.classes.stabilizer(class).count_ones()) as u64
    }

    /// The table's distribution in positions: each entry counted for the positions it stands
    /// for (see [`SymProduct::class_weight`]), which the unreduced coordinate's published
    /// distribution can be checked against. `entry(index)` reads the table.
    pub fn positions_by_depth(&self, entry: impl Fn(u64) -> u8) -> Vec<u64> {
        let mut histogram = Vec::new();
        let per_class = u64::from(self.second_values);
        for class in 0..self.classes.count() as u32 {
            let weight = self.class_weight(class);
            for index in u64::from(class) * per_class..u64::from(class + 1) * per_class {
                let depth = usize::from(entry(index));
                if histogram.len() <= depth {
                    histogram.resize(depth + 1, 0);
                }
                histogram[depth] += weight;
            }
        }
        histogram
    }
}

/// A [`SymProduct`] as a space for the breadth-first engine. Only the representatives of the
/// classes are ever moved, so the first coordinate's move table is kept for them alone (64,430
/// rows for phase 1 where the raw flip-and-slice part has a million values).
pub struct SymProductSpace {
    product: SymProduct,
    moves: Vec<Move>,
    /// `class x moves + turn`: the first coordinate after `turn` from the class's
    /// representative.
    first_moves: Vec<u32>,
    /// `second x moves + turn`: the second coordinate after `turn`.
    second_moves: Vec<u16>,
    goal: u64,
}

impl SymProductSpace {
    pub fn new(first: Ranking, second: Ranking, product: SymProduct, moves: Vec<Move>) -> Self {
        let representative =
            |class: u64| (first.cube_of)(product.classes.representative(class as u32));
        let apply = |cube: &Cube3, m: Move| cube.apply(m);
        let first_moves = move_table(
            product.classes.count() as u64,
            &moves,
            representative,
            apply,
            |cube| u64::from((first.value_of)(cube)),
        );
        let second_moves = move_table(
            u64::from(second.values),
            &moves,
            |value| (second.cube_of)(value as u32),
            apply,
            |cube| u64::from((second.value_of)(cube)),
        );
        let goal = product.index(
            (first.value_of)(&Cube3::SOLVED),
            (second.value_of)(&Cube3::SOLVED),
        );
        SymProductSpace {
            product,
            moves,
            first_moves,
            second_moves,
            goal,
        }
    }

    /// The phase-1 table's space, in `metric`'s moves.
    pub fn phase1(metric: Metric) -> SymProductSpace {
        let moves = metric.generators(&Face::ALL);
        SymProductSpace::new(FLIP_SLICE, TWIST, SymProduct::phase1(), moves)
    }

    /// The phase-2 table's space, in H's moves.
    pub fn phase2() -> SymProductSpace {
        let moves = phase2_moves();
        SymProductSpace::new(CORNER_PERMUTATION, LAYER_EDGES, SymProduct::phase2(), moves)
    }

    pub fn product(&self) -> &SymProduct {
        &self.product
    }
}

impl MoveSpace for SymProductSpace {
    fn move_count(&self) -> usize {
        self.moves.len()
    }

    #[inline]
    fn apply(&self, state: u64, turn: usize) -> u64 {
        let per_class = u64::from(self.product.second_values);
        let (class, second) = ((state / per_class) as usize, (state % per_class) as usize);
        let n = self.moves.len();
        let first = self.first_moves[class * n + turn];
        let second = u32::from(self.second_moves[second * n + turn]);
        self.product
            .representative(self.product.index(first, second))
    }
}

impl StateSpace for SymProductSpace {
    fn size(&self) -> u64 {
        self.product.entries()
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.goal]
    }

    fn has_duplicates(&self) -> bool {
        true
    }

    fn representative(&self, state: u64) -> u64 {
        self.product.representative(state)
    }
}

/// Within H: the corner permutation and the order of the E-slice edges, unreduced.
/// Index = corner permutation x 24 + slice order.
pub struct Phase2SliceSpace {
    corner_moves: Vec<u16>,
    slice_moves: Vec<u8>,
    moves: usize,
}

impl Phase2SliceSpace {
    pub fn new() -> Phase2SliceSpace {
        let moves = phase2_moves();
        Phase2SliceSpace {
            corner_moves: CORNER_PERMUTATION.move_table(&moves),
            slice_moves: SLICE_ORDER
                .move_table(&moves)
                .into_iter()
                .map(|v| v as u8)
                .collect(),
            moves: moves.len(),
        }
    }

    /// The corner permutation after phase-2 turn `turn` (numbered as [`phase2_moves`]).
    #[inline]
    pub fn move_corners(&self, corners: u16, turn: usize) -> u16 {
        self.corner_moves[usize::from(corners) * self.moves + turn]
    }

    /// The slice order after phase-2 turn `turn`.
    #[inline]
    pub fn move_slice(&self, slice: u8, turn: usize) -> u8 {
        self.slice_moves[usize::from(slice) * self.moves + turn]
    }

    /// The table's index of a position's corner permutation and slice order.
    #[inline]
    pub fn index(corners: u32, slice: u32) -> u64 {
        u64::from(corners) * u64::from(SLICE_ORDERS) + u64::from(slice)
    }
}

impl Default for Phase2SliceSpace {
    fn default() -> Self {
        Phase2SliceSpace::new()
    }
}

impl MoveSpace for Phase2SliceSpace {
    fn move_count(&self) -> usize {
        self.moves
    }

    #[inline]
    fn apply(&self, state: u64, turn: usize) -> u64 {
        let corners = (state / u64::from(SLICE_ORDERS)) as usize;
        let slice = (state % u64::from(SLICE_ORDERS)) as usize;
        Phase2SliceSpace::index(
            self.corner_moves[corners * self.moves + turn].into(),
            self.slice_moves[slice * self.moves + turn].into(),
        )
    }
}

impl StateSpace for Phase2SliceSpace {
    fn size(&self) -> u64 {
        PHASE2_SLICE_ENTRIES
    }

    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
}

#[cfg(test)]
mod tests;
