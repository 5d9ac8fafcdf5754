//! The space of a partial goal: the pieces a [`GoalMask`] names, where they are and how they
//! are turned, everything else ignored. The breadth-first engine fills it from the goal's
//! states, so an entry is the exact number of moves that reach the goal; and as a uniformly
//! random cube has its named pieces uniformly placed and turned, the table's histogram is the
//! goal's distribution over random cube states.
//!
//! The space is a product of the piece parts of [`crate::space::stages`]:
//!
//! - the edges named home, as one part of their slots and flips;
//! - the edges named only oriented: where every other edge is (EO), the eleven free flips
//!   (2,048 values), and then the edges named home are ranked by their slots alone, as the flips
//!   already say theirs (a product with their flips too would be 16 times the entries for the
//!   cross, all but one in 16 never reached); otherwise one part of their slots and flips, whose
//!   goal states are all their arrangements in the free slots, unflipped;
//! - the corners the same way, with the 2,187 twists for every corner oriented.
//!
//! A part of more than five edges would need a move table of 3 GB (of all eight corners, 19 GB);
//! such a set is split into parts of at most five, disjoint, whose product ranks impossible collisions too (never
//! reached, and not counted by [`StateSpace::reachable`]). A goal whose product exceeds
//! [`MAX_ENTRIES`] is refused with its size: its optimal lengths are a search's, not a table's.

use super::stages::{Part, PartKind, PieceSpace, index_of};
use super::{MoveSpace, StateSpace};
use crate::coord::arrangements;
use crate::model::cube::{Corners, Cube3, Edges, Face, Metric, Move};
use crate::model::goal_mask::GoalMask;
use std::sync::Arc;

/// The largest goal table: 2^32 entries, 2 GiB in 4-bit entries.
pub const MAX_ENTRIES: u64 = 1 << 32;
/// The most edges one part holds (its move table: 12!/7! x 2^5 values x 18 moves x 4 bytes,
/// 219 MB).
const PART_EDGES: usize = 5;
/// The most corners one part holds (8!/3! x 3^5 values, 118 MB of move table; all eight in
/// one part would be 19 GB).
const PART_CORNERS: usize = 5;
/// Goal states kept in memory at most (an oriented-only set of pieces has one per arrangement).
const MAX_GOAL_STATES: u64 = 1 << 26;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoalSpaceError {
    #[error(
        "the goal `{mask}` has {entries} states, more than the {max} a goal table holds; a goal over so many pieces is solved by search, which is not built yet"
    )]
    TooLarge {
        mask: String,
        entries: u128,
        max: u64,
    },
    #[error(
        "the goal `{mask}` has {states} solved states, more than the {max} the table's search starts from; name fewer pieces as only oriented"
    )]
    TooManyGoals { mask: String, states: u64, max: u64 },
}

/// The kinds of the parts a mask is ranked by, in ranking order.
fn part_kinds(mask: &GoalMask) -> Vec<PartKind> {
    let mut kinds = Vec::new();
    let every_edge_oriented =
        mask.oriented_edges != 0 && mask.oriented_edges | mask.solved_edges == 0xFFF;
    let every_corner_oriented =
        mask.oriented_corners != 0 && mask.oriented_corners | mask.solved_corners == 0xFF;
    for chunk in mask.solved_edge_list().chunks(PART_EDGES) {
        // Beside every flip, the edges home need only their places.
        kinds.push(if every_edge_oriented {
            PartKind::EdgePlaces(chunk.to_vec())
        } else {
            PartKind::Edges(chunk.to_vec())
        });
    }
    if every_edge_oriented {
        kinds.push(PartKind::Flips);
    } else {
        for chunk in mask.oriented_edge_list().chunks(PART_EDGES) {
            kinds.push(PartKind::Edges(chunk.to_vec()));
        }
    }
    if mask.placed_edges != 0 {
        kinds.push(PartKind::EdgeSet(mask.placed_edge_list()));
    }
    for chunk in mask.solved_corner_list().chunks(PART_CORNERS) {
        kinds.push(if every_corner_oriented {
            PartKind::CornerPlaces(chunk.to_vec())
        } else {
            PartKind::Corners(chunk.to_vec())
        });
    }
    if mask.placed_corners != 0 {
        kinds.push(PartKind::CornerSet(mask.placed_corner_list()));
    }
    if every_corner_oriented {
        kinds.push(PartKind::Twists);
    } else {
        for chunk in mask.oriented_corner_list().chunks(PART_CORNERS) {
            kinds.push(PartKind::Corners(chunk.to_vec()));
        }
    }
    kinds
}

/// Entries of the product of `kinds`.
fn entries_of(kinds: &[PartKind]) -> u128 {
    kinds.iter().map(|k| u128::from(k.values())).product()
}

/// A goal's space in one metric. Its parts' move tables are built on the first move (a build or
/// a walk of the space), not for look-ups: the xcross's take 3 s and 219 MB.
pub struct GoalSpace {
    mask: GoalMask,
    metric: Metric,
    kinds: Vec<PartKind>,
    pieces: std::sync::OnceLock<PieceSpace>,
    reachable: u64,
    /// The metric's moves, as indices of the parts' move tables.
    turns: Vec<usize>,
    moves: Vec<Move>,
    goals: Vec<u64>,
}

impl GoalSpace {
    /// Entries of `mask`'s table, before anything is built.
    pub fn entries(mask: &GoalMask) -> u128 {
        entries_of(&part_kinds(mask))
    }

    /// The space of `mask` in `metric`, and its goal states.
    pub fn new(mask: GoalMask, metric: Metric) -> Result<GoalSpace, GoalSpaceError> {
        let kinds = part_kinds(&mask);
        let entries = entries_of(&kinds);
        if entries > u128::from(MAX_ENTRIES) {
            return Err(GoalSpaceError::TooLarge {
                mask: mask.to_string(),
                entries,
                max: MAX_ENTRIES,
            });
        }
        let states = goal_state_count(&mask);
        if states > MAX_GOAL_STATES {
            return Err(GoalSpaceError::TooManyGoals {
                mask: mask.to_string(),
                states,
                max: MAX_GOAL_STATES,
            });
        }
        // The reachable count does not need the move tables: a product without parts is
        // counted as the one with them would be.
        let reachable = PieceSpace::counted(&kinds);
        let moves = metric.generators(&Face::ALL);
        let goals = goal_cubes(&mask)
            .iter()
            .map(|cube| index_of(&kinds, cube))
            .collect();
        Ok(GoalSpace {
            mask,
            metric,
            kinds,
            pieces: std::sync::OnceLock::new(),
            reachable,
            turns: moves.iter().map(|m| m.index()).collect(),
            moves,
            goals,
        })
    }

    /// The parts with their move tables, built on first use.
    fn pieces(&self) -> &PieceSpace {
        self.pieces.get_or_init(|| {
            use rayon::prelude::*;
            let parts: Vec<Arc<Part>> = self
                .kinds
                .par_iter()
                .map(|k| Arc::new(Part::new(k.clone())))
                .collect();
            PieceSpace::new(parts)
        })
    }

    pub fn mask(&self) -> &GoalMask {
        &self.mask
    }

    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The metric's moves, numbered as the space's turns.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The state of `cube`.
    #[inline]
    pub fn index(&self, cube: &Cube3) -> u64 {
        index_of(&self.kinds, cube)
    }

    /// Identifies the numbering: the parts, in order, and the metric's moves. A table built by
    /// another layout of the same mask does not open.
    pub fn fingerprint(&self) -> u64 {
        let text = format!(
            "{:?} {:?}",
            self.kinds,
            self.moves.iter().map(|m| m.index()).collect::<Vec<_>>()
        );
        xxhash_rust::xxh3::xxh3_64(text.as_bytes())
    }
}

/// How many states have the mask's pieces as it asks: one, times the arrangements of the pieces
/// named only oriented in the slots the others leave (one, where every piece of the kind is
/// oriented: the flips or twists part holds no places).
fn goal_state_count(mask: &GoalMask) -> u64 {
    let kinds = part_kinds(mask);
    let edges = if kinds.contains(&PartKind::Flips) {
        1
    } else {
        let free = 12 - (mask.solved_edges | mask.placed_edges).count_ones();
        arrangements(
            free,
            (mask.oriented_edges & !mask.placed_edges).count_ones(),
        )
    };
    let corners = if kinds.contains(&PartKind::Twists) {
        1
    } else {
        let free = 8 - (mask.solved_corners | mask.placed_corners).count_ones();
        arrangements(
            free,
            (mask.oriented_corners & !mask.placed_corners).count_ones(),
        )
    };
    edges * corners
}

/// One cube for each goal state: the pieces named home home, those named only oriented in every
/// arrangement of the free slots, unturned (where all of a kind's other pieces are oriented, in
/// their home slots: the parts then rank only flips or twists).
fn goal_cubes(mask: &GoalMask) -> Vec<Cube3> {
    let kinds = part_kinds(mask);
    let edge_perms = if kinds.contains(&PartKind::Flips) {
        vec![Edges::SOLVED.perm]
    } else {
        placements::<12>(
            (mask.solved_edges | mask.placed_edges).into(),
            &bits_of(mask.oriented_edges & !mask.placed_edges, 12),
        )
    };
    let corner_perms = if kinds.contains(&PartKind::Twists) {
        vec![Corners::SOLVED.perm]
    } else {
        placements::<8>(
            (mask.solved_corners | mask.placed_corners).into(),
            &bits_of(u16::from(mask.oriented_corners & !mask.placed_corners), 8),
        )
    };
    let mut cubes = Vec::with_capacity(edge_perms.len() * corner_perms.len());
    for edges in &edge_perms {
        for corners in &corner_perms {
            let mut cube = Cube3::SOLVED;
            cube.edges.perm = *edges;
            cube.corners.perm = *corners;
            cubes.push(cube);
        }
    }
    cubes
}

/// The set bits of `set` below `n`, as piece numbers.
fn bits_of(set: u16, n: u8) -> Vec<u8> {
    (0..n).filter(|&i| set >> i & 1 == 1).collect()
}

/// Every permutation with the pieces of `home` home and `moving` in every arrangement of the
/// other slots (the pieces named nowhere fill what is left, in order).
fn placements<const N: usize>(home: u32, moving: &[u8]) -> Vec<[u8; N]> {
    let free: Vec<u8> = (0..N as u8).filter(|&s| home >> s & 1 == 0).collect();
    let mut out = Vec::new();
    let mut chosen = Vec::with_capacity(moving.len());
    arrange(&free, moving.len(), &mut chosen, &mut |slots| {
        let mut perm = [u8::MAX; N];
        for s in 0..N as u8 {
            if home >> s & 1 == 1 {
                perm[usize::from(s)] = s;
            }
        }
        for (&slot, &piece) in slots.iter().zip(moving) {
            perm[usize::from(slot)] = piece;
        }
        let placed = perm;
        let mut rest = (0..N as u8).filter(|p| !placed.contains(p));
        for entry in perm.iter_mut().filter(|e| **e == u8::MAX) {
            *entry = rest.next().unwrap_or(0);
        }
        out.push(perm);
    });
    out
}

/// Calls `visit` with every sequence of `k` distinct slots of `free`.
fn arrange(free: &[u8], k: usize, chosen: &mut Vec<u8>, visit: &mut impl FnMut(&[u8])) {
    if chosen.len() == k {
        visit(chosen);
        return;
    }
    for &slot in free {
        if !chosen.contains(&slot) {
            chosen.push(slot);
            arrange(free, k, chosen, visit);
            chosen.pop();
        }
    }
}

impl MoveSpace for GoalSpace {
    fn move_count(&self) -> usize {
        self.turns.len()
    }

    fn apply(&self, state: u64, turn: usize) -> u64 {
        self.pieces().apply(state, self.turns[turn])
    }
}

impl StateSpace for GoalSpace {
    fn size(&self) -> u64 {
        self.kinds.iter().map(|k| u64::from(k.values())).product()
    }

    fn goals(&self) -> Vec<u64> {
        self.goals.clone()
    }

    fn reachable(&self) -> u64 {
        self.reachable
    }

    /// Scanning the unreached entries pays only where nearly all are reached in the end; a
    /// product of disjoint parts of one kind leaves its collisions unreached for ever.
    fn may_search_backward(&self) -> bool {
        self.nearly_all_reachable()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::breadth_first;
    use crate::packing::{Encoding, entry};
    use indicatif::ProgressBar;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;
    use rustc_hash::FxHashMap;
    use std::collections::VecDeque;

    /// Distances by a plain search over cubies: positions keyed by the named pieces' slots and
    /// turns, the goal states every cube the mask calls reached.
    fn cubie_histogram(mask: &GoalMask, metric: Metric) -> Vec<u64> {
        let kinds = part_kinds(mask);
        let every_edge = kinds.contains(&PartKind::Flips);
        let every_corner = kinds.contains(&PartKind::Twists);
        // A state's key: the named pieces' slots and twists, the placed-only pieces' slot sets.
        // Every key of one mask has the same layout, so a byte a field is enough: a slot and
        // its twist as `slot * 4 + twist` (at most 19 * 4 + 2), a set as its bytes. A fixed
        // array (at most 12 + 12 + 3 + 8 + 8 bytes) keeps the search free of allocations.
        let key = |cube: &Cube3| {
            let mut key = [0u8; 48];
            let mut len = 0;
            let mut push = |byte: u8| {
                key[len] = byte;
                len += 1;
            };
            let named_edges = if every_edge {
                mask.solved_edges
            } else {
                mask.solved_edges | (mask.oriented_edges & !mask.placed_edges)
            };
            for e in 0..12u8 {
                if named_edges >> e & 1 == 1 {
                    let slot = cube.edges.perm.iter().position(|&p| p == e).unwrap_or(0);
                    push(slot as u8 * 4 + cube.edges.ori[slot]);
                }
            }
            if every_edge {
                cube.edges.ori.iter().for_each(|&o| push(o));
            }
            // Pieces placed only as a set: the set of slots they occupy.
            let set = |perm: &[u8], placed: u16| {
                (0..perm.len()).fold(0u16, |set, slot| {
                    set | u16::from(placed >> perm[slot] & 1 == 1) << slot
                })
            };
            let edge_set = set(&cube.edges.perm, mask.placed_edges);
            let corner_set = set(&cube.corners.perm, mask.placed_corners.into());
            push((edge_set & 0xFF) as u8);
            push((edge_set >> 8) as u8);
            push(corner_set as u8);
            let named_corners = if every_corner {
                mask.solved_corners
            } else {
                mask.solved_corners | (mask.oriented_corners & !mask.placed_corners)
            };
            for c in 0..8u8 {
                if named_corners >> c & 1 == 1 {
                    let slot = cube.corners.perm.iter().position(|&p| p == c).unwrap_or(0);
                    push((slot as u8 + 12) * 4 + cube.corners.ori[slot]);
                }
            }
            if every_corner {
                cube.corners.ori.iter().for_each(|&o| push(o));
            }
            key
        };
        // Start from every goal state, found as the cubes of the goal's own enumeration, each
        // checked against the mask.
        // FxHash: the keys are the search's own, not an adversary's.
        let mut seen: FxHashMap<[u8; 48], u8> = FxHashMap::default();
        let mut queue = VecDeque::new();
        for cube in goal_cubes(mask) {
            assert!(mask.is_reached(&cube));
            if seen.insert(key(&cube), 0).is_none() {
                queue.push_back((cube, 0));
            }
        }
        let moves = metric.generators(&Face::ALL);
        while let Some((cube, d)) = queue.pop_front() {
            for &m in &moves {
                let next = cube.apply(m);
                seen.entry(key(&next)).or_insert_with(|| {
                    queue.push_back((next, d + 1));
                    d + 1
                });
            }
        }
        let mut histogram = vec![0u64; 1 + *seen.values().max().unwrap_or(&0) as usize];
        for d in seen.values() {
            histogram[usize::from(*d)] += 1;
        }
        histogram
    }

    fn table_histogram(mask: &GoalMask, metric: Metric) -> (GoalSpace, Vec<u8>, Vec<u64>) {
        let space = GoalSpace::new(*mask, metric).unwrap();
        let built = breadth_first(&space, Encoding::Byte, &ProgressBar::hidden()).unwrap();
        assert_eq!(built.histogram.iter().sum::<u64>(), space.reachable());
        (space, built.packed, built.histogram)
    }

    /// Small goals of every shape against the plain cubie search, in both metrics: pieces
    /// home, pieces only oriented (some of a kind, all of a kind), and a mix.
    #[test]
    fn small_goals_agree_with_a_plain_search_over_cubies() {
        for text in [
            "DF DB",
            "DF DB DFR",
            "DF DB edges/o",
            "DR/o UF/o",
            "DFR/o UBR",
            "corners/o",
            "FR/p FL/p DF",
            "URF/p DBL/p corners/o",
            "DL DB BL DBL",
            "E/p DF/o",
            "URF/p corners/o DF",
            "DF/p UR/o",
        ] {
            let mask = GoalMask::parse(text).unwrap();
            for metric in Metric::BOTH {
                let (_, _, histogram) = table_histogram(&mask, metric);
                assert_eq!(histogram, cubie_histogram(&mask, metric), "{text} {metric}");
            }
        }
    }

    /// The cross: 190,080 positions of its four edges, at most 8 moves (HTM), and an entry is 0
    /// exactly where the cube has the cross, and moves change it by at most one.
    #[test]
    fn the_cross_has_190080_states_within_8_moves() {
        let mask = GoalMask::parse("DF DB DL DR").unwrap();
        let (space, packed, histogram) = table_histogram(&mask, Metric::Htm);
        assert_eq!(histogram.iter().sum::<u64>(), 190_080);
        assert_eq!(histogram.len(), 9);
        assert_eq!(histogram, cubie_histogram(&mask, Metric::Htm));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(32);
        for _ in 0..300 {
            let cube = Cube3::random(&mut rng);
            let d = entry(Encoding::Byte, &packed, space.index(&cube));
            assert_eq!(d == 0, mask.is_reached(&cube));
            let best = Move::all()
                .map(|m| entry(Encoding::Byte, &packed, space.index(&cube.apply(m))))
                .min()
                .unwrap_or(0);
            assert!(d == 0 || best == d - 1);
        }
    }

    /// Every corner home: the eighth twist follows from the other seven (the count was once
    /// three times too high), and the product of its two parts is too large for a table.
    #[test]
    fn all_eight_corners_are_counted_once_and_refused() {
        let kinds = part_kinds(&GoalMask::parse("corners").unwrap());
        assert_eq!(kinds.len(), 2);
        assert_eq!(PieceSpace::counted(&kinds), 40_320 * 2_187);
        let edges = part_kinds(&GoalMask::parse("edges").unwrap());
        assert_eq!(PieceSpace::counted(&edges), 479_001_600 * 2_048);
        let error = GoalSpace::new(GoalMask::parse("corners").unwrap(), Metric::Htm);
        assert!(matches!(error, Err(GoalSpaceError::TooLarge { .. })));
    }

    #[test]
    fn goals_too_large_for_a_table_are_refused_with_their_size() {
        let f2l = GoalMask::parse("D E").unwrap();
        let error = GoalSpace::new(f2l, Metric::Htm).err().unwrap();
        assert!(matches!(error, GoalSpaceError::TooLarge { .. }), "{error}");
        assert!(
            error.to_string().contains("DR DF DL DB FR FL BL BR"),
            "{error}"
        );
    }
}
