//! The corner part that both symmetry-reduced table families (`h48-*` and `ud-*`) index by:
//! corner values `split x 2,187 + twist` (70 ways to split the corners between two sets of
//! four slots, 2,187 twists), their classes under a group of symmetries, and how the moves act
//! on them ([`CornerClasses`]).

use crate::coord::classes::SymClasses;
use crate::model::cube::{Cube3, Move, Symmetry};
use crate::space::move_table;

/// Twists of the corners: `3^7`.
pub const TWISTS: u32 = 2_187;
/// Splits of the eight corners into two sets of four slots: `C(8,4)`.
pub const SPLITS: u32 = 70;
/// Corner values: a split and a twist.
pub const CORNER_VALUES: u32 = SPLITS * TWISTS;

/// The corner values of one family, their classes under the symmetries numbered by
/// `SYM_BITS`-bit indices (48 symmetries in six bits, 16 in four), and their move tables.
///
/// A corner class's row holds every edge value, so a move takes a whole row to one row
/// ([`step`](CornerClasses::step)): what the row pass of both families is built on
/// ([`crate::space::sym_rows`]).
pub struct CornerClasses<const SYM_BITS: u32> {
    moves: usize,
    split_moves: Vec<u8>,
    twist_moves: Vec<u16>,
    /// Per corner value: `class << SYM_BITS | symmetry`, the symmetry (an index into the
    /// family's list) taking the value to its class's representative.
    reduce: Vec<u32>,
    /// Per class: its representative's corner value.
    reps: Vec<u32>,
    /// Per class: the symmetries (as indices) fixing its representative, beyond the identity.
    stabilizers: Vec<u64>,
}

impl<const SYM_BITS: u32> CornerClasses<SYM_BITS> {
    /// The classes of corner values under the symmetries `syms` (numbers for
    /// [`Symmetry::nth`], the identity first), where `cube_of` gives a cube with a corner
    /// value and `value_of` reads it back.
    pub fn new(
        moves: &[Move],
        syms: &[u8],
        cube_of: impl Fn(u32) -> Cube3 + Sync,
        value_of: impl Fn(&Cube3) -> u32 + Sync,
    ) -> CornerClasses<SYM_BITS> {
        assert!(syms.len() <= 1 << SYM_BITS && syms.len() <= 64);
        let classes = SymClasses::new(CORNER_VALUES, syms, |value, s| {
            value_of(&Symmetry::nth(s).conjugate(&cube_of(value)))
        });
        let split_moves = move_table(
            u64::from(SPLITS),
            moves,
            |split| cube_of(split as u32 * TWISTS),
            Cube3::apply,
            |c| u64::from(value_of(c) / TWISTS),
        );
        let twist_moves = move_table(
            u64::from(TWISTS),
            moves,
            |twist| cube_of(twist as u32),
            Cube3::apply,
            |c| u64::from(value_of(c) % TWISTS),
        );
        let count = classes.count() as u32;
        CornerClasses {
            moves: moves.len(),
            split_moves,
            twist_moves,
            reduce: (0..CORNER_VALUES)
                .map(|v| classes.class_of(v) << SYM_BITS | u32::from(classes.to_representative(v)))
                .collect(),
            reps: (0..count).map(|c| classes.representative(c)).collect(),
            stabilizers: (0..count).map(|c| classes.stabilizer(c) & !1).collect(),
        }
    }

    /// How many classes there are.
    pub fn count(&self) -> u32 {
        self.reps.len() as u32
    }

    /// The split and twist after move number `turn`.
    #[inline(always)]
    pub fn moved(&self, split: u8, twist: u16, turn: usize) -> (u8, u16) {
        let n = self.moves;
        (
            self.split_moves[usize::from(split) * n + turn],
            self.twist_moves[usize::from(twist) * n + turn],
        )
    }

    /// The class of corner value `corners` and the symmetry that takes it to the class's
    /// representative.
    #[inline(always)]
    pub fn class_and_symmetry(&self, corners: u32) -> (u32, usize) {
        let reduced = self.reduce[corners as usize];
        (
            reduced >> SYM_BITS,
            (reduced & ((1 << SYM_BITS) - 1)) as usize,
        )
    }

    /// Asks for what [`class_and_symmetry`](CornerClasses::class_and_symmetry) reads.
    #[inline(always)]
    pub fn prefetch(&self, corners: u32) {
        crate::space::prefetch(&self.reduce, corners as usize);
    }

    /// The corner value of class `class`'s representative.
    #[inline]
    pub fn representative(&self, class: usize) -> u32 {
        self.reps[class]
    }

    /// The symmetries fixing class `class`'s representative, beyond the identity, as a mask
    /// of their indices.
    #[inline(always)]
    pub fn stabilizer(&self, class: usize) -> u64 {
        self.stabilizers[class]
    }

    /// The class that move number `turn` takes class `class`'s representative to, and the
    /// symmetry that reduces it there.
    #[inline]
    pub fn step(&self, class: usize, turn: usize) -> (u32, usize) {
        let corners = self.reps[class];
        let (split, twist) = self.moved((corners / TWISTS) as u8, (corners % TWISTS) as u16, turn);
        self.class_and_symmetry(u32::from(split) * TWISTS + u32::from(twist))
    }
}
