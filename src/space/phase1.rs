//! Kociemba's phase-1 space: the corner twists, the edge flips, and which four slots hold the
//! E-slice edges (FR FL BL BR), all other piece identities ignored.
//! 3^7 x 2^11 x C(12,4) = 2,217,093,120 states.
//!
//! A state's distance is the number of moves that bring a position into the subgroup
//! <U, D, R2, L2, F2, B2>, the one set of positions with all three parts solved. That is a lower
//! bound on its distance to solved. The solver reads it three times, through rotations that put
//! each axis of the cube in the place of the U-D axis (Michael Reid's use of the phase-1 table).
//!
//! Index = (slice rank x 2048 + flip rank) x 2187 + twist rank. Each part changes under a move
//! on its own, so each has a move table of a few kilobytes: moving a state costs three cached
//! reads, and only the distance table itself is far from the processor.

use super::move_table;
use crate::coord::{rank_combination, unrank_combination, unrank_digits};
use crate::model::cube::{Corners, Cube3, Edges, Face, Metric, Move};
use crate::space::{MoveSpace, StateSpace};

pub const TWISTS: u64 = 2_187;
pub const FLIPS: u64 = 2_048;
pub const SLICES: u64 = 495;
pub const STATES: u64 = SLICES * FLIPS * TWISTS;

/// The first E-slice edge (FR); FR FL BL BR are pieces 8 to 11.
const FIRST_SLICE_EDGE: u8 = 8;

/// A position's phase-1 coordinate, kept as its three parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Phase1Coord {
    /// Rank of the set of slots holding E-slice edges.
    pub slice: u16,
    /// Flips of the edges in slots 0..11 (the twelfth follows from the sum rule).
    pub flip: u16,
    /// Twists of the corners in slots 0..7 (the eighth follows from the sum rule).
    pub twist: u16,
}

impl Phase1Coord {
    pub fn of(cube: &Cube3) -> Phase1Coord {
        Phase1Coord::of_conjugate(cube, &Cube3::SOLVED, &Cube3::SOLVED)
    }

    /// `Phase1Coord::of(&rotation.conjugate(cube))`, where `g` and `g_inv` are the rotation's
    /// cubies and their inverse, reading only what the coordinate needs. Slot `i` of
    /// `g·s·g⁻¹` holds what slot `j = g⁻¹(i)` of `s` holds, the piece `k` there renamed to
    /// `g(k)` and its orientation shifted by both rotations. The search ranks three conjugates
    /// of every inverse position it keeps, so no whole cube is built for them.
    #[inline]
    pub fn of_conjugate(cube: &Cube3, g: &Cube3, g_inv: &Cube3) -> Phase1Coord {
        let (c, e) = (&cube.corners, &cube.edges);
        let mut twist = 0u16;
        for i in 0..7 {
            let j = usize::from(g_inv.corners.perm[i]);
            let k = usize::from(c.perm[j]);
            let ori = g.corners.ori[k] + c.ori[j] + g_inv.corners.ori[i];
            twist = twist * 3 + u16::from(ori % 3);
        }
        let mut flip = 0u16;
        let mut slice_slots = 0u32;
        for i in 0..12 {
            let j = usize::from(g_inv.edges.perm[i]);
            let k = usize::from(e.perm[j]);
            if i < 11 {
                let ori = g.edges.ori[k] + e.ori[j] + g_inv.edges.ori[i];
                flip = flip * 2 + u16::from(ori & 1);
            }
            slice_slots |= u32::from(g.edges.perm[k] >= FIRST_SLICE_EDGE) << i;
        }
        Phase1Coord {
            slice: rank_combination(slice_slots) as u16,
            flip,
            twist,
        }
    }

    #[inline]
    pub fn index(self) -> u64 {
        (u64::from(self.slice) * FLIPS + u64::from(self.flip)) * TWISTS + u64::from(self.twist)
    }

    #[inline]
    pub fn from_index(index: u64) -> Phase1Coord {
        Phase1Coord {
            slice: (index / (FLIPS * TWISTS)) as u16,
            flip: (index / TWISTS % FLIPS) as u16,
            twist: (index % TWISTS) as u16,
        }
    }
}

/// Corners twisted as `twist` ranks, in their home slots.
pub(crate) fn corners_with_twist(twist: u64) -> Corners {
    let mut corners = Corners::SOLVED;
    unrank_digits(twist, 3, &mut corners.ori[..7]);
    let sum: u8 = corners.ori[..7].iter().sum();
    corners.ori[7] = (3 - sum % 3) % 3;
    corners
}

/// Edges flipped as `flip` ranks, in their home slots.
pub(crate) fn edges_with_flip(flip: u64) -> Edges {
    let mut edges = Edges::SOLVED;
    unrank_digits(flip, 2, &mut edges.ori[..11]);
    edges.ori[11] = edges.ori[..11].iter().sum::<u8>() % 2;
    edges
}

/// Edges with the E-slice pieces in the slots of slice rank `slice`, the others filling the
/// remaining slots in order.
pub(crate) fn edges_with_slice(slice: u64) -> Edges {
    let slots = unrank_combination(slice, 4);
    let mut edges = Edges::SOLVED;
    let (mut slice_piece, mut other_piece) = (FIRST_SLICE_EDGE, 0);
    for (slot, piece) in edges.perm.iter_mut().enumerate() {
        if slots & 1 << slot != 0 {
            *piece = slice_piece;
            slice_piece += 1;
        } else {
            *piece = other_piece;
            other_piece += 1;
        }
    }
    edges
}

/// The phase-1 space under one metric's face turns.
pub struct Phase1Space {
    moves: Vec<Move>,
    twist_moves: Vec<u16>,
    flip_moves: Vec<u16>,
    slice_moves: Vec<u16>,
}

impl Phase1Space {
    pub fn new(metric: Metric) -> Phase1Space {
        let moves = metric.generators(&Face::ALL);
        let corner_move = |c: &Corners, m: Move| c.then(&Cube3::of_move(m).corners);
        let edge_move = |e: &Edges, m: Move| e.then(&Cube3::of_move(m).edges);
        let of_edges = |edges: &Edges| {
            Phase1Coord::of(&Cube3 {
                corners: Corners::SOLVED,
                edges: *edges,
            })
        };
        let of_corners = |corners: &Corners| {
            Phase1Coord::of(&Cube3 {
                corners: *corners,
                edges: Edges::SOLVED,
            })
        };
        let twist_moves = move_table(TWISTS, &moves, corners_with_twist, corner_move, |c| {
            u64::from(of_corners(c).twist)
        });
        let flip_moves = move_table(FLIPS, &moves, edges_with_flip, edge_move, |e| {
            u64::from(of_edges(e).flip)
        });
        let slice_moves = move_table(SLICES, &moves, edges_with_slice, edge_move, |e| {
            u64::from(of_edges(e).slice)
        });
        Phase1Space {
            moves,
            twist_moves,
            flip_moves,
            slice_moves,
        }
    }

    /// The turns of this space, in the order [`Phase1Space::apply_coord`] numbers them.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    #[inline]
    pub fn apply_coord(&self, c: Phase1Coord, turn: usize) -> Phase1Coord {
        let n = self.moves.len();
        Phase1Coord {
            slice: self.slice_moves[usize::from(c.slice) * n + turn],
            flip: self.flip_moves[usize::from(c.flip) * n + turn],
            twist: self.twist_moves[usize::from(c.twist) * n + turn],
        }
    }
}

impl MoveSpace for Phase1Space {
    fn move_count(&self) -> usize {
        self.moves.len()
    }

    #[inline]
    fn apply(&self, state: u64, turn: usize) -> u64 {
        self.apply_coord(Phase1Coord::from_index(state), turn)
            .index()
    }
}

impl StateSpace for Phase1Space {
    fn size(&self) -> u64 {
        STATES
    }

    /// The subgroup's positions all share one coordinate, that of the solved cube.
    fn goals(&self) -> Vec<u64> {
        vec![Phase1Coord::of(&Cube3::SOLVED).index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    #[test]
    fn index_round_trips_and_covers_the_space() {
        for index in (0..STATES).step_by(7_654_321).chain([STATES - 1]) {
            assert_eq!(Phase1Coord::from_index(index).index(), index);
        }
        let last = Phase1Coord {
            slice: (SLICES - 1) as u16,
            flip: (FLIPS - 1) as u16,
            twist: (TWISTS - 1) as u16,
        };
        assert_eq!(last.index(), STATES - 1);
    }

    /// Moving the coordinate through the tables agrees with moving the cubies, from random
    /// positions and for every turn of both metrics.
    #[test]
    fn moves_agree_with_cubies() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for metric in Metric::BOTH {
            let space = Phase1Space::new(metric);
            for _ in 0..300 {
                let cube = Cube3::random(&mut rng);
                let coord = Phase1Coord::of(&cube);
                for (turn, &m) in space.moves().iter().enumerate() {
                    assert_eq!(
                        space.apply_coord(coord, turn),
                        Phase1Coord::of(&cube.apply(m))
                    );
                    assert_eq!(
                        space.apply(coord.index(), turn),
                        Phase1Coord::of(&cube.apply(m)).index()
                    );
                }
            }
        }
    }

    #[test]
    fn conjugates_rank_as_built_cubes() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        for _ in 0..200 {
            let cube = Cube3::random(&mut rng);
            for r in crate::model::cube::Rotation::all() {
                let (g, g_inv) = (*r.cubies(), r.cubies().inverse());
                assert_eq!(
                    Phase1Coord::of_conjugate(&cube, &g, &g_inv),
                    Phase1Coord::of(&r.conjugate(&cube))
                );
            }
        }
    }

    /// Kociemba's count: the flip and E-slice parts together (1,013,760 values) fall into
    /// 64,430 classes under the 16 symmetries that keep the U-D axis.
    #[test]
    fn flip_slice_has_64430_symmetry_classes() {
        use crate::coord::classes::SymClasses;
        use crate::model::cube::Symmetry;
        let classes = SymClasses::new((SLICES * FLIPS) as u32, Symmetry::ud(), |value, s| {
            let mut edges = edges_with_slice(u64::from(value) / FLIPS);
            edges.ori = edges_with_flip(u64::from(value) % FLIPS).ori;
            let cube = Cube3 {
                corners: Corners::SOLVED,
                edges,
            };
            let image = Phase1Coord::of(&Symmetry::nth(s).conjugate(&cube));
            u32::from(image.slice) * FLIPS as u32 + u32::from(image.flip)
        });
        assert_eq!(classes.count(), 64_430);
    }

    /// The goal is exactly the subgroup: its generators keep the coordinate, every other turn
    /// changes it.
    #[test]
    fn the_goal_is_fixed_by_the_subgroup_only() {
        let space = Phase1Space::new(Metric::Htm);
        let goal = Phase1Coord::of(&Cube3::SOLVED);
        for (turn, &m) in space.moves().iter().enumerate() {
            let in_subgroup = matches!(m.face(), Face::U | Face::D) || m.quarter_turns() == 2;
            assert_eq!(space.apply_coord(goal, turn) == goal, in_subgroup, "{m}");
        }
    }
}
