//! The coordinate machinery of one member and metric ([`H48Space`]): move tables, slot maps, the
//! corner classes, and how the symmetries act on the edge masks.

use super::edge_sym::EdgeSym48;
use super::*;
use crate::model::cube::{Edges, Face, Metric, Move};
use crate::space::corner_classes::CornerClasses;
use crate::space::masks::{EdgeMove, MaskRanks, compress, deposit};
use crate::space::sym_rows::ClassRowSpace;
use crate::space::{MoveSpace, StateSpace};

/// The coordinate machinery of one member and metric: move tables and slot maps for each part,
/// the corner classes, and how the symmetries act on the edge masks.
pub struct H48Space {
    pub(super) flips: H48Flips,
    /// `flips.values()` is `1 << flip_bits`, and `flips.edge_values()` is `edge_values`: read
    /// from fields rather than matched on `flips` for every index.
    flip_bits: u32,
    pub(super) edge_values: u64,
    pub(crate) moves: Vec<Move>,
    /// The corner classes under the 48 symmetries, and the moves on the corner values.
    pub(super) corners: CornerClasses<6>,
    /// Per turn, then copies of the first ones that no turn number reaches: a turn number
    /// masked to five bits needs no bounds check.
    pub(super) edge_moves: Box<[EdgeMove; 32]>,
    pub(super) byte_moves: Box<[super::bytes::ByteMove; 32]>,
    pub(super) byte_syms: Box<[super::bytes::ByteSym; 64]>,
    /// Per symmetry, then sixteen copies of the first ones that no index reads: a symmetry
    /// number masked to six bits needs no bounds check.
    pub(super) edge_syms: Box<[EdgeSym48; 64]>,
    pub(super) ranks: MaskRanks,
    /// The turns that lie in the subgroup: the half turns (none in the quarter-turn metric).
    in_subgroup: u32,
}

impl H48Space {
    pub fn new(flips: H48Flips, metric: Metric) -> H48Space {
        let moves = metric.generators(&Face::ALL);
        let syms: Vec<u8> = (0..SYMS as u8).collect();
        let corner_cube = |corners| Cube3 {
            corners: corners_of(corners),
            edges: Edges::SOLVED,
        };
        let corners = CornerClasses::new(&moves, &syms, corner_cube, |c| H48Coord::of(c).corners());
        assert_eq!(corners.count(), CORNER_CLASSES);
        let in_subgroup = moves.iter().enumerate().fold(0, |mask, (turn, m)| {
            mask | u32::from(m.quarter_turns() == 2) << turn
        });
        // The index lays the kept flips below the placement by a shift.
        assert!(flips.values().is_power_of_two());
        let flip_bits = flips.values().trailing_zeros();
        H48Space {
            flips,
            flip_bits,
            edge_values: u64::from(flips.edge_values()),
            corners,
            edge_moves: Box::new(std::array::from_fn(|t| {
                EdgeMove::new(moves[t % moves.len()])
            })),
            edge_syms: Box::new(std::array::from_fn(|s| EdgeSym48::new((s % SYMS) as u8))),
            byte_moves: Box::new(std::array::from_fn(|t| {
                super::bytes::ByteMove::new(moves[t % moves.len()])
            })),
            byte_syms: Box::new(std::array::from_fn(|s| {
                let symmetry = (s % SYMS) as u8;
                super::bytes::ByteSym::new(symmetry, &EdgeSym48::new(symmetry))
            })),
            ranks: MaskRanks::new(),
            in_subgroup,
            moves,
        }
    }

    pub fn flips(&self) -> H48Flips {
        self.flips
    }

    /// The turns, in the order `turn` numbers refer to.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The turns (a bit mask over turn numbers) that lie in the subgroup: a solution whose
    /// length equals a tight bound cannot end with one of them, or the subgroup would have
    /// been reached a move sooner.
    pub fn subgroup_turns(&self) -> u32 {
        self.in_subgroup
    }

    /// The coordinate after move number `turn`.
    #[inline]
    pub fn apply_coord(&self, c: H48Coord, turn: usize) -> H48Coord {
        let n = self.moves.len();
        debug_assert!(turn < n, "turn {turn} of {n}");
        let edge = &self.edge_moves[turn & 31];
        let (split, twist) = self.moved_corners(c.split, c.twist, turn);
        H48Coord {
            split,
            twist,
            m: edge.slots.apply(c.m.into()) as u16,
            s: edge.slots.apply(c.s.into()) as u16,
            flips: (edge.slots.apply(c.flips.into()) ^ edge.flips) as u16,
        }
    }

    /// The edge part of an index for edge masks.
    #[inline(always)]
    pub(super) fn edge_value(&self, m: u32, s: u32, flips: u32) -> u32 {
        let e = !(m | s) & ALL_SLOTS;
        // The M-slice edges among the eight slots outside the E slice: at most eight bits.
        let m_among_eight = compress(m, !e & ALL_SLOTS) & 0xFF;
        let placement = u32::from(self.ranks.of12[e as usize]) * 70
            + u32::from(self.ranks.of8[m_among_eight as usize]);
        placement << self.flip_bits | self.flips.kept(flips, m, s)
    }

    /// The edge masks of `c` seen through symmetry number `sym`.
    #[inline(always)]
    pub(super) fn conjugate_edges(&self, c: &H48Coord, sym: usize) -> (u32, u32, u32) {
        debug_assert!(sym < SYMS, "symmetry {sym}");
        self.edge_syms[sym & 63].apply(c.m.into(), c.s.into(), c.flips.into())
    }

    /// The corner part's split and twist after move number `turn`.
    #[inline(always)]
    pub(super) fn moved_corners(&self, split: u8, twist: u16, turn: usize) -> (u8, u16) {
        self.corners.moved(split, twist, turn)
    }

    /// The class of corner part `corners` and the symmetry that takes it to the class's
    /// representative.
    #[inline(always)]
    pub(super) fn class_and_symmetry(&self, corners: u32) -> (u32, usize) {
        self.corners.class_and_symmetry(corners)
    }

    /// Asks for what [`H48Space::index`] reads first for `c`: its corner class.
    #[inline(always)]
    pub fn prefetch_class(&self, c: H48Coord) {
        self.corners.prefetch(c.corners());
    }

    /// The table index of a coordinate (one of several for a self-symmetric corner class).
    #[inline(always)]
    pub fn index(&self, c: H48Coord) -> u64 {
        let (class, sym) = self.class_and_symmetry(c.corners());
        let (m, s, flips) = self.conjugate_edges(&c, sym);
        u64::from(class) * self.edge_values + u64::from(self.edge_value(m, s, flips))
    }

    /// A coordinate whose index is `index`: the class representative's corners and the edge
    /// value's masks.
    pub fn coord_of(&self, index: u64) -> H48Coord {
        let edge_values = self.edge_values;
        let corners = self.corners.representative((index / edge_values) as usize);
        let mut c = self.edge_coord_of((index % edge_values) as u32);
        c.split = (corners / TWISTS) as u8;
        c.twist = (corners % TWISTS) as u16;
        c
    }

    /// The edge masks of edge value `edge`, the corner part solved.
    pub(super) fn edge_coord_of(&self, edge: u32) -> H48Coord {
        let values = self.flips.values();
        let (placement, kept) = (edge / values, edge % values);
        let e = u32::from(self.ranks.mask12[(placement / 70) as usize]);
        let m = deposit(
            u32::from(self.ranks.mask8[(placement % 70) as usize]),
            !e & ALL_SLOTS,
        );
        let s = !(e | m) & ALL_SLOTS;
        H48Coord {
            m: m as u16,
            s: s as u16,
            flips: self.flips.flips_of(kept, m, s) as u16,
            ..H48Coord::default()
        }
    }

    /// Calls `f` with every index of the position whose index is `index`: itself and, for a
    /// self-symmetric corner class, its edge part seen through each symmetry that fixes the
    /// class's representative (repeats included). A table filled other than by the engine
    /// (which fills them from their representative) writes them all, so that a lookup may use
    /// any of them.
    #[inline]
    pub fn for_each_variant(&self, index: u64, mut f: impl FnMut(u64)) {
        f(index);
        let edge_values = self.edge_values;
        let class = (index / edge_values) as usize;
        let mut stabilizer = self.corners.stabilizer(class);
        if stabilizer == 0 {
            return;
        }
        let c = self.edge_coord_of((index % edge_values) as u32);
        while stabilizer != 0 {
            let sym = stabilizer.trailing_zeros() as usize;
            stabilizer &= stabilizer - 1;
            let (m, s, flips) = self.conjugate_edges(&c, sym);
            f(class as u64 * edge_values + u64::from(self.edge_value(m, s, flips)));
        }
    }

    /// The smallest edge value of position `edge` of class `class`'s row over the symmetries
    /// that fix the class's representative.
    fn smallest_edge(&self, class: usize, edge: u32) -> u32 {
        let mut stabilizer = self.corners.stabilizer(class);
        let c = self.edge_coord_of(edge);
        let mut best = edge;
        while stabilizer != 0 {
            let sym = stabilizer.trailing_zeros() as usize;
            stabilizer &= stabilizer - 1;
            let (m, s, flips) = self.conjugate_edges(&c, sym);
            best = best.min(self.edge_value(m, s, flips));
        }
        best
    }
}

impl MoveSpace for H48Space {
    fn move_count(&self) -> usize {
        self.moves.len()
    }

    #[inline]
    fn apply(&self, state: u64, turn: usize) -> u64 {
        let moved = self.apply_coord(self.coord_of(state), turn);
        self.representative(self.index(moved))
    }
}

impl StateSpace for H48Space {
    fn size(&self) -> u64 {
        self.flips.entries()
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.index(H48Coord::of(&Cube3::SOLVED))]
    }

    fn has_duplicates(&self) -> bool {
        true
    }

    /// The smallest index of the same position: for a self-symmetric corner class, the
    /// smallest edge value over the symmetries that fix the representative.
    #[inline]
    fn representative(&self, state: u64) -> u64 {
        let edge_values = self.edge_values;
        let class = (state / edge_values) as usize;
        if self.corners.stabilizer(class) == 0 {
            return state;
        }
        let edge = (state % edge_values) as u32;
        class as u64 * edge_values + u64::from(self.smallest_edge(class, edge))
    }
}

impl ClassRowSpace for H48Space {
    fn row_len(&self) -> u64 {
        self.edge_values
    }

    fn class_step(&self, class: usize, turn: usize) -> (u32, usize) {
        self.corners.step(class, turn)
    }

    fn stabilizer(&self, class: usize) -> u64 {
        self.corners.stabilizer(class)
    }
}
