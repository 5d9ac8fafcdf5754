//! Small tables over chosen pieces, for the staged solver: where a few edges and corners are and
//! how they are turned, everything else ignored. A table's entry is the exact number of moves
//! that bring its pieces home, a lower bound for any goal that has them home.
//!
//! A table is a product of *parts*, each a set of pieces of one kind ranked on its own:
//! `rank of the slots they occupy x 2^k + flips` for `k` edges, `... x 3^k + twists` for
//! corners, or every edge flip (2,048 values) or every corner twist (2,187). A move changes each
//! part by its own move table, so a state moves by one read per part. Two parts of one kind
//! with disjoint pieces may claim the same slot in the product's ranking; such states are never
//! reached (a move keeps pieces apart), so the breadth-first search leaves them unreached and
//! counts the product's reachable states as the joint arrangements.
//!
//! These tables are a few million entries each and are built in memory by the one breadth-first
//! engine when the staged solver opens, in about a second; they are not files.

use super::move_table;
use super::phase1::{Phase1Coord, corners_with_twist, edges_with_flip, edges_with_slice};
use crate::coord::{
    arrangements, binomial, rank_arrangement, rank_combination, rank_digits, unrank_arrangement,
    unrank_combination, unrank_digits,
};
use crate::model::cube::{Corners, Cube3, Edges, Face, Metric, Move};
use crate::space::{MoveSpace, StateSpace};
use std::sync::Arc;

/// What a part ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// These edge pieces: their slots and flips.
    Edges(Vec<u8>),
    /// These corner pieces: their slots and twists.
    Corners(Vec<u8>),
    /// These edge pieces: their slots only (beside [`PartKind::Flips`], which says their flips).
    EdgePlaces(Vec<u8>),
    /// These corner pieces: their slots only (beside [`PartKind::Twists`]).
    CornerPlaces(Vec<u8>),
    /// Which slots these edge pieces occupy, as a set: not which is where, nor their flips.
    EdgeSet(Vec<u8>),
    /// Which slots these corner pieces occupy, as a set.
    CornerSet(Vec<u8>),
    /// Every edge's flip (the twelfth follows from the others).
    Flips,
    /// Every corner's twist (the eighth follows from the others).
    Twists,
    /// Which four slots hold the E-slice edges (FR FL BL BR), in any order and flip.
    SlicePlaces,
}

impl PartKind {
    /// Number of values.
    pub fn values(&self) -> u32 {
        match self {
            PartKind::Edges(pieces) => {
                (arrangements(12, pieces.len() as u32) << pieces.len()) as u32
            }
            PartKind::Corners(pieces) => {
                (arrangements(8, pieces.len() as u32) * 3u64.pow(pieces.len() as u32)) as u32
            }
            PartKind::EdgePlaces(pieces) => arrangements(12, pieces.len() as u32) as u32,
            PartKind::CornerPlaces(pieces) => arrangements(8, pieces.len() as u32) as u32,
            PartKind::EdgeSet(pieces) => binomial(12, pieces.len() as u32) as u32,
            PartKind::CornerSet(pieces) => binomial(8, pieces.len() as u32) as u32,
            PartKind::Flips => 2_048,
            PartKind::Twists => 2_187,
            PartKind::SlicePlaces => 495,
        }
    }

    /// The part's value in `cube`.
    pub fn value(&self, cube: &Cube3) -> u32 {
        self.value_with(cube, &mut None)
    }

    /// [`PartKind::value`], with the position's phase-1 coordinate made at most once for all
    /// the parts of one index (`phase1`, filled on first use).
    fn value_with(&self, cube: &Cube3, phase1: &mut Option<Phase1Coord>) -> u32 {
        let mut phase1 = || *phase1.get_or_insert_with(|| Phase1Coord::of(cube));
        match self {
            PartKind::Edges(pieces) => {
                let mut slots = [0u8; 12];
                let mut flips = 0u64;
                for (i, &piece) in pieces.iter().enumerate() {
                    let slot = slot_of(&cube.edges.perm, piece);
                    slots[i] = slot;
                    flips = flips << 1 | u64::from(cube.edges.ori[usize::from(slot)]);
                }
                let rank = rank_arrangement(&slots[..pieces.len()], 12);
                (rank << pieces.len() | flips) as u32
            }
            PartKind::Corners(pieces) => {
                let mut slots = [0u8; 8];
                let mut twists = [0u8; 8];
                for (i, &piece) in pieces.iter().enumerate() {
                    let slot = slot_of(&cube.corners.perm, piece);
                    slots[i] = slot;
                    twists[i] = cube.corners.ori[usize::from(slot)];
                }
                let k = pieces.len();
                let twist = rank_digits(&twists[..k], 3);
                (rank_arrangement(&slots[..k], 8) * 3u64.pow(k as u32) + twist) as u32
            }
            // Read at every node of a goal search: slots gathered on the stack, not allocated.
            PartKind::EdgePlaces(pieces) => {
                let mut slots = [0u8; 12];
                for (slot, &p) in slots.iter_mut().zip(pieces) {
                    *slot = slot_of(&cube.edges.perm, p);
                }
                rank_arrangement(&slots[..pieces.len()], 12) as u32
            }
            PartKind::CornerPlaces(pieces) => {
                let mut slots = [0u8; 8];
                for (slot, &p) in slots.iter_mut().zip(pieces) {
                    *slot = slot_of(&cube.corners.perm, p);
                }
                rank_arrangement(&slots[..pieces.len()], 8) as u32
            }
            PartKind::EdgeSet(pieces) => {
                let slots = pieces
                    .iter()
                    .fold(0u32, |set, &p| set | 1 << slot_of(&cube.edges.perm, p));
                rank_combination(slots) as u32
            }
            PartKind::CornerSet(pieces) => {
                let slots = pieces
                    .iter()
                    .fold(0u32, |set, &p| set | 1 << slot_of(&cube.corners.perm, p));
                rank_combination(slots) as u32
            }
            // Phase 1's coordinate ranks these three.
            PartKind::Flips => u32::from(phase1().flip),
            PartKind::Twists => u32::from(phase1().twist),
            PartKind::SlicePlaces => u32::from(phase1().slice),
        }
    }

    /// A position whose part has value `value`; the other pieces fill the remaining slots in
    /// order, unturned (what a move does to the part's pieces does not depend on them).
    fn cube_of(&self, value: u32) -> Cube3 {
        let value = u64::from(value);
        match self {
            PartKind::Edges(pieces) => {
                let k = pieces.len();
                let mut slots = [0u8; 12];
                unrank_arrangement(value >> k, 12, &mut slots[..k]);
                let mut edges = Edges::SOLVED;
                place(&mut edges.perm, &slots[..k], pieces);
                edges.ori = [0; 12];
                for (i, &slot) in slots[..k].iter().enumerate() {
                    edges.ori[usize::from(slot)] = (value >> (k - 1 - i) & 1) as u8;
                }
                Cube3 {
                    edges,
                    ..Cube3::SOLVED
                }
            }
            PartKind::Corners(pieces) => {
                let k = pieces.len();
                let per_twist = 3u64.pow(k as u32);
                let mut slots = [0u8; 8];
                unrank_arrangement(value / per_twist, 8, &mut slots[..k]);
                let mut twists = [0u8; 8];
                unrank_digits(value % per_twist, 3, &mut twists[..k]);
                let mut corners = Corners::SOLVED;
                place(&mut corners.perm, &slots[..k], pieces);
                corners.ori = [0; 8];
                for (&slot, &twist) in slots[..k].iter().zip(&twists) {
                    corners.ori[usize::from(slot)] = twist;
                }
                Cube3 {
                    corners,
                    ..Cube3::SOLVED
                }
            }
            PartKind::EdgePlaces(pieces) => {
                let mut slots = [0u8; 12];
                unrank_arrangement(value, 12, &mut slots[..pieces.len()]);
                let mut edges = Edges::SOLVED;
                place(&mut edges.perm, &slots[..pieces.len()], pieces);
                Cube3 {
                    edges,
                    ..Cube3::SOLVED
                }
            }
            PartKind::CornerPlaces(pieces) => {
                let mut slots = [0u8; 8];
                unrank_arrangement(value, 8, &mut slots[..pieces.len()]);
                let mut corners = Corners::SOLVED;
                place(&mut corners.perm, &slots[..pieces.len()], pieces);
                Cube3 {
                    corners,
                    ..Cube3::SOLVED
                }
            }
            PartKind::EdgeSet(pieces) => {
                let set = unrank_combination(value, pieces.len() as u32);
                let slots: Vec<u8> = (0..12).filter(|&s| set >> s & 1 == 1).collect();
                let mut edges = Edges::SOLVED;
                place(&mut edges.perm, &slots, pieces);
                Cube3 {
                    edges,
                    ..Cube3::SOLVED
                }
            }
            PartKind::CornerSet(pieces) => {
                let set = unrank_combination(value, pieces.len() as u32);
                let slots: Vec<u8> = (0..8).filter(|&s| set >> s & 1 == 1).collect();
                let mut corners = Corners::SOLVED;
                place(&mut corners.perm, &slots, pieces);
                Cube3 {
                    corners,
                    ..Cube3::SOLVED
                }
            }
            PartKind::Flips => Cube3 {
                edges: edges_with_flip(value),
                ..Cube3::SOLVED
            },
            PartKind::Twists => Cube3 {
                corners: corners_with_twist(value),
                ..Cube3::SOLVED
            },
            PartKind::SlicePlaces => Cube3 {
                edges: edges_with_slice(value),
                ..Cube3::SOLVED
            },
        }
    }
}

/// The slot holding `piece`.
fn slot_of<const N: usize>(perm: &[u8; N], piece: u8) -> u8 {
    perm.iter().position(|&p| p == piece).unwrap_or(0) as u8
}

/// Puts `pieces` in `slots`, and the other pieces in the other slots in order.
fn place<const N: usize>(perm: &mut [u8; N], slots: &[u8], pieces: &[u8]) {
    let mut others = (0..N as u8).filter(|p| !pieces.contains(p));
    for slot in 0..N as u8 {
        perm[usize::from(slot)] = match slots.iter().position(|&s| s == slot) {
            Some(i) => pieces[i],
            None => others.next().unwrap_or(0),
        };
    }
}

/// A part with its move table: `value x moves + turn` is the value after move `turn`.
pub struct Part {
    kind: PartKind,
    moves: Vec<u32>,
}

impl Part {
    /// The part in the half-turn metric's moves, numbered as [`Move::index`].
    pub fn new(kind: PartKind) -> Part {
        let moves = Metric::Htm.generators(&Face::ALL);
        let table = move_table(
            u64::from(kind.values()),
            &moves,
            |value| kind.cube_of(value as u32),
            |cube, m| cube.apply(m),
            |cube| u64::from(kind.value(cube)),
        );
        Part { kind, moves: table }
    }

    pub fn kind(&self) -> &PartKind {
        &self.kind
    }
}

/// A product of parts as a space for the breadth-first engine, in the half-turn metric. State =
/// the parts' values in mixed radix, the first most significant.
pub struct PieceSpace {
    parts: Vec<Arc<Part>>,
    reachable: u64,
}

impl PieceSpace {
    /// How many states of the product of parts of `kinds` are positions: see [`PieceSpace::new`].
    pub fn counted(kinds: &[PartKind]) -> u64 {
        // Pieces placed, and of them those whose turn a part of their own carries.
        let (mut edges, mut flipped, mut corners, mut twisted) = (0u32, 0u32, 0u32, 0u32);
        // Pieces placed only as a set, after those placed one by one.
        let (mut edge_set, mut corner_set) = (0u32, 0u32);
        let mut others = 1u64;
        let has = |kind: PartKind| kinds.contains(&kind);
        let (all_flips, all_twists) = (has(PartKind::Flips), has(PartKind::Twists));
        for kind in kinds {
            match kind {
                PartKind::Edges(pieces) => {
                    edges += pieces.len() as u32;
                    flipped += pieces.len() as u32;
                }
                PartKind::EdgePlaces(pieces) => edges += pieces.len() as u32,
                PartKind::Corners(pieces) => {
                    corners += pieces.len() as u32;
                    twisted += pieces.len() as u32;
                }
                PartKind::CornerPlaces(pieces) => corners += pieces.len() as u32,
                PartKind::EdgeSet(pieces) => edge_set += pieces.len() as u32,
                PartKind::CornerSet(pieces) => corner_set += pieces.len() as u32,
                PartKind::Flips | PartKind::Twists => {}
                kind => others *= u64::from(kind.values()),
            }
        }
        // The twelfth flip follows from the other eleven, the eighth twist from the other seven.
        let flips = if all_flips {
            2_048
        } else {
            1u64 << flipped.min(11)
        };
        let twists = if all_twists {
            2_187
        } else {
            3u64.pow(twisted.min(7))
        };
        let edge_places = arrangements(12, edges) * binomial(12 - edges, edge_set);
        let corner_places = arrangements(8, corners) * binomial(8 - corners, corner_set);
        edge_places * flips * corner_places * twists * others
    }

    /// The product of `parts`; `reachable` is how many of its states are positions (see the
    /// module's note on parts of one kind). The flips part says the flips of the edges of the
    /// edge parts too, so beside it those parts add only their places; the same for twists.
    pub fn new(parts: Vec<Arc<Part>>) -> PieceSpace {
        let kinds: Vec<PartKind> = parts.iter().map(|p| p.kind.clone()).collect();
        let reachable = PieceSpace::counted(&kinds);
        PieceSpace { parts, reachable }
    }

    /// The state of `cube`.
    pub fn index(&self, cube: &Cube3) -> u64 {
        index_of(self.parts.iter().map(|p| &p.kind), cube)
    }
}

/// The state of `cube` in the product of parts of `kinds`, in order, without their move
/// tables (a look-up needs none).
pub fn index_of<'k>(kinds: impl IntoIterator<Item = &'k PartKind>, cube: &Cube3) -> u64 {
    let mut phase1 = None;
    kinds.into_iter().fold(0u64, |index, kind| {
        index * u64::from(kind.values()) + u64::from(kind.value_with(cube, &mut phase1))
    })
}

impl MoveSpace for PieceSpace {
    fn move_count(&self) -> usize {
        Move::COUNT
    }

    fn apply(&self, mut state: u64, turn: usize) -> u64 {
        let mut moved = 0u64;
        let mut weight = 1u64;
        for part in self.parts.iter().rev() {
            let values = u64::from(part.kind.values());
            let value = (state % values) as usize;
            state /= values;
            moved += weight * u64::from(part.moves[value * Move::COUNT + turn]);
            weight *= values;
        }
        moved
    }
}

impl StateSpace for PieceSpace {
    fn size(&self) -> u64 {
        self.parts
            .iter()
            .map(|p| u64::from(p.kind.values()))
            .product()
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.index(&Cube3::SOLVED)]
    }

    fn reachable(&self) -> u64 {
        self.reachable
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::breadth_first;
    use crate::packing::{Encoding, nibble};
    use indicatif::ProgressBar;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    fn kinds() -> Vec<PartKind> {
        vec![
            PartKind::Edges(vec![5, 4, 7, 6]),
            PartKind::Edges(vec![8]),
            PartKind::Corners(vec![4]),
            PartKind::Corners(vec![0, 1, 2, 3]),
            PartKind::EdgePlaces(vec![4, 7, 1]),
            PartKind::CornerPlaces(vec![6, 2]),
            PartKind::EdgeSet(vec![8, 9, 10, 11]),
            PartKind::CornerSet(vec![0, 5, 3]),
            PartKind::Flips,
            PartKind::Twists,
            PartKind::SlicePlaces,
        ]
    }

    #[test]
    fn values_round_trip_and_moves_agree_with_cubies() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        for kind in kinds() {
            for value in (0..kind.values()).step_by(101) {
                assert_eq!(kind.value(&kind.cube_of(value)), value, "{kind:?}");
            }
            let part = Part::new(kind.clone());
            for _ in 0..200 {
                let cube = Cube3::random(&mut rng);
                let value = kind.value(&cube) as usize;
                for m in Move::all() {
                    let moved = part.moves[value * Move::COUNT + m.index()];
                    assert_eq!(moved, kind.value(&cube.apply(m)), "{kind:?} {m}");
                }
            }
        }
    }

    /// The cross and one E-slice edge: five edges, exact distances, every position reached once
    /// and the colliding products never.
    #[test]
    fn a_product_of_edge_parts_reaches_its_positions() {
        let cross = Arc::new(Part::new(PartKind::Edges(vec![4, 5, 6, 7])));
        let edge = Arc::new(Part::new(PartKind::Edges(vec![8])));
        let space = PieceSpace::new(vec![cross, edge]);
        assert_eq!(space.reachable(), 12 * 11 * 10 * 9 * 8 * 32);
        let built = breadth_first(&space, Encoding::Nibble, &ProgressBar::hidden()).unwrap();
        assert_eq!(built.histogram.iter().sum::<u64>(), space.reachable());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        for _ in 0..500 {
            let cube = Cube3::random(&mut rng);
            let d = nibble(&built.packed, space.index(&cube));
            let around: Vec<u8> = Move::all()
                .map(|m| nibble(&built.packed, space.index(&cube.apply(m))))
                .collect();
            assert!(around.iter().all(|n| n.abs_diff(d) <= 1));
            assert!(d == 0 || around.contains(&(d - 1)));
        }
    }
}
