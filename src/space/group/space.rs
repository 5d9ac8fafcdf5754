//! The state space a subgroup's breadth-first search runs over: the product of what the group
//! does to the corners and what it does to the edges.
//!
//! An arbitrary group has no closed-form ranking, so each piece kind's image (the corner states,
//! and the edge states, that the generators reach) is enumerated once by a search of its own and
//! numbered in the order found; a hash table gives the numbers back. The images are small (for
//! `<U, R>` 29,160 corner states and 5,040 edge states), and their product encloses the group:
//! exactly for the squares group and for the 2x2, twice its size for `<U, R>`, whose corner and
//! edge permutations have linked parity. Entries of the product outside the group are never
//! reached and stay marked so.
//!
//! The rejected alternative, ranking the moved pieces' permutation and orientation densely,
//! needs no map but spans every arrangement of the moved pieces: for the squares group, which
//! moves all twelve edges and reaches 6,912 edge states, 12! x 2^12.

use super::GroupSpaceError;
use super::spec::GroupSpec;
use crate::model::cube::{Corners, Cube3, Edges};
use crate::model::position::Puzzle;
use crate::space::{MoveSpace, StateSpace};

/// The numbers of packed piece states: an open-addressing table (linear probing, at most half
/// full) of `(packed state, number)` slots. A state's slot is known from its key alone, so the
/// enumeration asks for the slots of all of a state's children before it reads any of them and
/// their cache misses overlap. The suite's test of the 2x2's group in three metrics, which
/// makes six images of 3,674,160 states, took 46.5 s with the standard map (one lookup at a
/// time) and takes 16.5 s so.
struct Numbers {
    slots: Vec<Slot>,
    mask: usize,
    /// Slots in use.
    used: usize,
}

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    number: u32,
}

impl Numbers {
    /// No packed state is all ones (they use at most 60 bits).
    const EMPTY: u64 = u64::MAX;

    fn with_capacity(states: usize) -> Numbers {
        let len = (states.max(1) * 2).next_power_of_two();
        Numbers {
            slots: vec![
                Slot {
                    key: Self::EMPTY,
                    number: 0
                };
                len
            ],
            mask: len - 1,
            used: 0,
        }
    }

    /// The first slot `key` may occupy: the mixing step of SplitMix64, so that every key bit
    /// moves the slot.
    #[inline]
    fn home(&self, key: u64) -> usize {
        let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as usize & self.mask
    }

    /// Asks for the slot [`Numbers::get`] or [`Numbers::insert`] will read first for `key`.
    #[inline]
    fn prefetch(&self, key: u64) {
        crate::support::prefetch(&self.slots, self.home(key));
    }

    /// The slot of `key`, or the empty slot where it belongs.
    #[inline]
    fn slot(&self, key: u64) -> usize {
        let mut at = self.home(key);
        while self.slots[at].key != key && self.slots[at].key != Self::EMPTY {
            at = (at + 1) & self.mask;
        }
        at
    }

    fn get(&self, key: u64) -> Option<u32> {
        let slot = self.slots[self.slot(key)];
        (slot.key == key).then_some(slot.number)
    }

    /// The number of `key`, given `number` first if it has none yet (then `true`).
    #[inline]
    fn number_or_insert(&mut self, key: u64, number: u32) -> (u32, bool) {
        let at = self.slot(key);
        if self.slots[at].key == key {
            return (self.slots[at].number, false);
        }
        if 2 * (self.used + 1) > self.slots.len() {
            // More states than the capacity asked for: twice the slots, every key moved.
            let mut larger = Numbers::with_capacity(self.slots.len());
            for slot in self.slots.iter().filter(|s| s.key != Self::EMPTY) {
                larger.number_or_insert(slot.key, slot.number);
            }
            *self = larger;
            return self.number_or_insert(key, number);
        }
        self.slots[at] = Slot { key, number };
        self.used += 1;
        (number, true)
    }
}

/// A piece state as one number, for hashing: each piece in 4 bits, each orientation in 1 or
/// 2 (60 bits for the edges).
trait Packed: Copy {
    fn packed(&self) -> u64;
}

impl<const N: usize, const MOD: u8> Packed for crate::model::cube::Pieces<N, MOD> {
    fn packed(&self) -> u64 {
        let ori_bits = if MOD <= 2 { 1 } else { 2 };
        let perm = self
            .perm
            .iter()
            .fold(0u64, |acc, &p| acc << 4 | u64::from(p));
        self.ori
            .iter()
            .fold(perm, |acc, &o| acc << ori_bits | u64::from(o))
    }
}

/// The states one piece kind reaches under the moves, numbered from 0 (solved) in the order a
/// breadth-first search finds them, with each move as a table.
struct Image<P> {
    states: Vec<P>,
    numbers: Numbers,
    /// `moves[state * move_count + turn]`: the number of the state `turn` leads to.
    moves: Vec<u32>,
}

impl<P: Packed> Image<P> {
    /// The image from `solved` under `moves`, of `size` states (known beforehand, so that
    /// nothing is reallocated).
    fn enumerate(solved: P, moves: &[P], then: impl Fn(&P, &P) -> P, size: usize) -> Image<P> {
        let mut states = Vec::with_capacity(size);
        states.push(solved);
        let mut numbers = Numbers::with_capacity(size);
        numbers.number_or_insert(solved.packed(), 0);
        let mut table = Vec::with_capacity(size * moves.len());
        let mut children: Vec<(P, u64)> = Vec::with_capacity(moves.len());
        let mut next = 0;
        while next < states.len() {
            // Stage 1: every child of the state, its slot asked for.
            let state = states[next];
            children.clear();
            for m in moves {
                let moved = then(&state, m);
                let key = moved.packed();
                numbers.prefetch(key);
                children.push((moved, key));
            }
            // Stage 2: each child numbered, a new one numbered next.
            for &(moved, key) in &children {
                let (number, new) = numbers.number_or_insert(key, states.len() as u32);
                if new {
                    states.push(moved);
                }
                table.push(number);
            }
            next += 1;
        }
        Image {
            states,
            numbers,
            moves: table,
        }
    }

    fn len(&self) -> u64 {
        self.states.len() as u64
    }

    /// The move tables of the moves' inverses: each move permutes the image, so this is the
    /// table read backwards.
    fn inverted(&self, move_count: usize) -> Vec<u32> {
        let mut inverse = vec![0u32; self.moves.len()];
        for (from, row) in self.moves.chunks(move_count).enumerate() {
            for (turn, &to) in row.iter().enumerate() {
                inverse[to as usize * move_count + turn] = from as u32;
            }
        }
        inverse
    }
}

/// A subgroup's states as (corner state number x edge states + edge state number).
///
/// The search runs from the solved state backwards along the moves, so that an entry is the
/// number of moves that solve its state: for moves that include their inverses the two are the
/// same, but for directed moves the distance to solved is the one a solver needs (a position is
/// solved by `U U U` when `U'` made it), and [`GroupSpace::step`] then goes forwards.
pub struct GroupSpace {
    corners: Image<Corners>,
    edges: Image<Edges>,
    /// The tables of the moves' inverses.
    corner_back: Vec<u32>,
    edge_back: Vec<u32>,
    /// Whether the search goes along the inverses (directed moves; other move sets hold
    /// their inverses, and go forwards).
    search_back: bool,
    move_count: usize,
    /// A 2x2 group: a cube's edges are not looked at.
    corners_only: bool,
    /// The group's order.
    order: u64,
}

impl GroupSpace {
    /// Enumerates the images of `spec`'s group. The caller has checked their sizes (see
    /// [`super::Sizes`]).
    pub fn new(spec: &GroupSpec) -> GroupSpace {
        let moves = spec.moves();
        let corner_moves: Vec<Corners> = moves.iter().map(|m| m.cube.corners).collect();
        // The 2x2 has no edges: one edge state, which every move keeps.
        let edge_moves: Vec<Edges> = match spec.puzzle() {
            Puzzle::Pocket => vec![Edges::SOLVED; moves.len()],
            Puzzle::Cube => moves.iter().map(|m| m.cube.edges).collect(),
        };
        let sizes = super::Sizes::of(spec);
        let size = |n: u128| usize::try_from(n).unwrap_or(0);
        let corners = Image::enumerate(
            Corners::SOLVED,
            &corner_moves,
            Corners::then,
            size(sizes.corner_image),
        );
        let edges = Image::enumerate(
            Edges::SOLVED,
            &edge_moves,
            Edges::then,
            size(sizes.edge_image),
        );
        let (corner_back, edge_back) = (corners.inverted(moves.len()), edges.inverted(moves.len()));
        GroupSpace {
            corners,
            edges,
            corner_back,
            edge_back,
            search_back: !spec.metric.has_inverses(),
            move_count: moves.len(),
            corners_only: spec.puzzle() == Puzzle::Pocket,
            order: u64::try_from(sizes.order).unwrap_or(u64::MAX),
        }
    }

    /// The state of `cube`, or why it has none: its corners or its edges lie outside what the
    /// group reaches. (A state inside the product can still lie outside the group: its table
    /// entry then says unreached.)
    pub fn index(&self, cube: &Cube3) -> Result<u64, GroupSpaceError> {
        let corners = self.corners.numbers.get(cube.corners.packed());
        let edges = match self.corners_only {
            true => Some(0),
            false => self.edges.numbers.get(cube.edges.packed()),
        };
        match (corners, edges) {
            (Some(c), Some(e)) => Ok(u64::from(c) * self.edges.len() + u64::from(e)),
            _ => Err(GroupSpaceError::NotInGroup),
        }
    }

    /// A fingerprint of the numbering: a table built with another numbering (another version
    /// of this code) would be read wrongly, and is refused instead.
    pub fn fingerprint(&self) -> u64 {
        let mut hash = xxhash_rust::xxh3::Xxh3::new();
        for c in &self.corners.states {
            hash.update(&c.perm);
            hash.update(&c.ori);
        }
        for e in &self.edges.states {
            hash.update(&e.perm);
            hash.update(&e.ori);
        }
        hash.digest()
    }
}

impl GroupSpace {
    /// Whether the corner permutation of `state` is odd: a quarter turn changes it.
    pub fn is_odd(&self, state: u64) -> bool {
        self.corners.states[(state / self.edges.len()) as usize].is_odd()
    }

    /// The state move `turn` leads to from `state`, forwards (as a solution applies it).
    pub fn step(&self, state: u64, turn: usize) -> u64 {
        self.through(state, turn, &self.corners.moves, &self.edges.moves)
    }

    /// The state from which move `turn` leads to `state`.
    pub fn step_back(&self, state: u64, turn: usize) -> u64 {
        self.through(state, turn, &self.corner_back, &self.edge_back)
    }

    #[inline]
    fn through(&self, state: u64, turn: usize, corners: &[u32], edges: &[u32]) -> u64 {
        let edge_states = self.edges.len();
        let (c, e) = (
            (state / edge_states) as usize,
            (state % edge_states) as usize,
        );
        let m = self.move_count;
        u64::from(corners[c * m + turn]) * edge_states + u64::from(edges[e * m + turn])
    }
}

impl MoveSpace for GroupSpace {
    fn move_count(&self) -> usize {
        self.move_count
    }

    /// In the searched direction (see [`GroupSpace`]).
    #[inline]
    fn apply(&self, state: u64, turn: usize) -> u64 {
        if self.search_back {
            self.step_back(state, turn)
        } else {
            self.step(state, turn)
        }
    }
}

impl StateSpace for GroupSpace {
    fn size(&self) -> u64 {
        self.corners.len() * self.edges.len()
    }

    fn goals(&self) -> Vec<u64> {
        vec![0]
    }

    fn reachable(&self) -> u64 {
        self.order
    }

    /// Never: directed moves do not allow it (a state's successors are not the states it is
    /// reached from), and where the product is larger than the group the states never reached
    /// would be scanned at every pass. The spaces are small enough for forward passes alone.
    fn may_search_backward(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::Numbers;

    /// Keys get back the numbers they were given first, and a table asked for too few states
    /// grows instead of filling up.
    #[test]
    fn numbers_are_kept_beyond_the_capacity_asked_for() {
        let mut numbers = Numbers::with_capacity(3);
        for key in 0..1000u64 {
            let key = key * 0x1_0001;
            assert_eq!(
                numbers.number_or_insert(key, key as u32 / 7),
                (key as u32 / 7, true)
            );
        }
        for key in 0..1000u64 {
            let key = key * 0x1_0001;
            assert_eq!(numbers.number_or_insert(key, 0), (key as u32 / 7, false));
            assert_eq!(numbers.get(key), Some(key as u32 / 7));
        }
        assert_eq!(numbers.get(3), None);
        assert!(numbers.slots.len() >= 2000);
    }
}
