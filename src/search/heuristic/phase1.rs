//! The corner table and the phase-1 table, the latter read along the three axes: the position
//! seen through the identity, `x` and `z`, each bringing one axis to U-D (Michael Reid's use of
//! Kociemba's phase-1 coordinate).

use super::{Entries, Heuristic, Turns, open_table, turns_through};
use crate::catalogue::{TableId, TableKind};
use crate::model::cube::{Cube3, Face, Metric, Move, PackedCube, Rotation};
use crate::space::MoveSpace;
use crate::space::corners::{self, CornerSpace};
use crate::space::phase1::{Phase1Coord, Phase1Space};
use crate::table::{Table, TableError};
use std::path::Path;

/// Phase-1 lookups: one per axis.
const AXES: usize = 3;
/// The mask of all axes.
const ALL_AXES: u8 = (1 << AXES) - 1;

/// A node's corner coordinate and its phase-1 coordinate along each axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Phase1Coords {
    corners: u32,
    axes: [Phase1Coord; AXES],
}

pub struct Phase1Heuristic {
    metric: Metric,
    moves: Vec<Move>,
    corner_space: CornerSpace,
    space: Phase1Space,
    /// Per axis, the rotation's cubies and their inverse.
    rotations: [(Cube3, Cube3); AXES],
    turns: [Turns; AXES],
    /// Per axis, the turns (a bit mask) of that axis's subgroup, which the coordinate cannot
    /// tell from no move: U, D and the half turns for the U-D axis.
    subgroup: [u32; AXES],
    /// Per turn, the axes (a bit mask) whose subgroup holds it.
    inherited: [u8; Move::COUNT],
    corners: Entries,
    phase1: Entries,
    goal: Phase1Coords,
    // The mappings `corners` and `phase1` read; declared last, dropped after them.
    _tables: [Table; 2],
}

impl Phase1Heuristic {
    pub fn open(dir: &Path, metric: Metric) -> Result<Phase1Heuristic, TableError> {
        let corner_table = open_table(dir, TableId::new(TableKind::Corners, metric))?;
        let phase1_table = open_table(dir, TableId::new(TableKind::Phase1, metric))?;
        let moves = metric.generators(&Face::ALL);
        let rotations = [Rotation::IDENTITY, Rotation::x(), Rotation::z()];
        let turns = rotations.map(|r| turns_through(&r, &moves));
        let subgroup = std::array::from_fn(|axis| {
            (0..moves.len()).fold(0u32, |mask, turn| {
                let seen = moves[usize::from(turns[axis][turn])];
                let inside = matches!(seen.face(), Face::U | Face::D) || seen.quarter_turns() == 2;
                mask | u32::from(inside) << turn
            })
        });
        let inherited = std::array::from_fn(|turn| {
            (0..AXES).fold(0u8, |axes, axis| {
                axes | u8::from(subgroup[axis] & 1 << turn != 0) << axis
            })
        });
        let mut heuristic = Phase1Heuristic {
            metric,
            corner_space: CornerSpace::new(metric),
            space: Phase1Space::new(metric),
            rotations: rotations.map(|r| (*r.cubies(), r.cubies().inverse())),
            turns,
            subgroup,
            inherited,
            corners: Entries::of(&corner_table),
            phase1: Entries::of(&phase1_table),
            goal: Phase1Coords::default(),
            moves,
            _tables: [corner_table, phase1_table],
        };
        heuristic.goal = heuristic.coords(&Cube3::SOLVED);
        Ok(heuristic)
    }
}

impl Heuristic for Phase1Heuristic {
    type Coords = Phase1Coords;
    /// The inverse position's phase-1 coordinates, those of inherited axes left unset.
    type Inverse = [Phase1Coord; AXES];
    /// The inverse position's phase-1 values, one per axis.
    type Dual = [u8; AXES];

    /// A face's quarter turns share their children's inverse here too (H holds the half
    /// turns; the tests check it), but the inverse's two phase-1 coordinates cost more than
    /// the reads the walk would spare: complete iterations took 2–8% longer (positions 2 and 3
    /// of benches/peers.txt).
    const SHARED_INVERSES_FIRST: bool = false;

    fn metric(&self) -> Metric {
        self.metric
    }

    fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn coords(&self, cube: &Cube3) -> Phase1Coords {
        Phase1Coords {
            corners: corners::rank(&cube.corners) as u32,
            axes: self
                .rotations
                .map(|(g, g_inv)| Phase1Coord::of_conjugate(cube, &g, &g_inv)),
        }
    }

    #[inline]
    fn child(&self, c: &Phase1Coords, turn: usize) -> Phase1Coords {
        let corners = self.corner_space.apply(c.corners.into(), turn) as u32;
        self.corners.prefetch_nibble(corners.into());
        let mut axes = [Phase1Coord::default(); AXES];
        for ((coord, &from), turns) in axes.iter_mut().zip(&c.axes).zip(&self.turns) {
            *coord = self.space.apply_coord(from, usize::from(turns[turn]));
            self.phase1.prefetch_nibble(coord.index());
        }
        Phase1Coords { corners, axes }
    }

    /// The phase-1 move tables are a few kilobytes and stay in cache.
    #[inline]
    fn prefetch_moves(&self, c: &Phase1Coords) {
        self.corner_space.prefetch_row(c.corners.into());
    }

    #[inline(always)]
    fn bound(&self, c: &Phase1Coords, budget: u8) -> u8 {
        let mut best = self.corners.nibble(c.corners.into());
        for coord in &c.axes {
            if best > budget {
                break;
            }
            best = best.max(self.phase1.nibble(coord.index()));
        }
        best
    }

    /// The phase-1 coordinates ignore which U and D layer edges are where.
    fn coords_determine_position(&self) -> bool {
        false
    }

    fn is_goal(&self, c: &Phase1Coords) -> bool {
        *c == self.goal
    }

    /// The axes in `inherited[turn]` are left out: the phase-1 coordinate of a position `y`
    /// is unchanged by any move `h` of the subgroup H done before it (`h` turns no corner or
    /// edge out of its orientation or out of its layer). The inverse of the child `x m` is
    /// `m⁻¹` done before `x⁻¹`; so where `m` lies in an axis's subgroup, the child's inverse
    /// has its parent's coordinate along that axis. Half turns lie in all three subgroups,
    /// quarter turns in one.
    #[inline]
    fn inverse(&self, inverse: &PackedCube, turn: u8) -> [Phase1Coord; AXES] {
        let inherited = self.inherited[usize::from(turn)];
        let mut coords = [Phase1Coord::default(); AXES];
        if inherited == ALL_AXES {
            return coords;
        }
        let inverse = inverse.cube();
        for (axis, (g, g_inv)) in self.rotations.iter().enumerate() {
            if inherited & 1 << axis == 0 {
                coords[axis] = Phase1Coord::of_conjugate(&inverse, g, g_inv);
                self.phase1.prefetch_nibble(coords[axis].index());
            }
        }
        coords
    }

    /// Where a phase-1 bound of the inverse is tight, the next move cannot lie in that axis's
    /// subgroup H. The rest `w` of a solution through the node solves the inverse position
    /// read backwards. If `w` began with a move `m` of H, the inverse followed by `w` without
    /// `m`, reversed, would reach H one move sooner than the bound allows. (Michael Reid's and
    /// Tomas Rokicki's observation; it narrows the branching most where the search spends
    /// most of its time, next to the bound.)
    #[inline]
    fn dual(
        &self,
        inverse: &[Phase1Coord; AXES],
        turn: u8,
        values: &mut [u8; AXES],
        budget: u8,
    ) -> Result<u32, u8> {
        let inherited = self.inherited[usize::from(turn)];
        let mut allowed = u32::MAX;
        for (axis, value) in values.iter_mut().enumerate() {
            if inherited & 1 << axis == 0 {
                *value = self.phase1.nibble(inverse[axis].index());
            }
            if *value > budget {
                return Err(*value);
            }
            if *value == budget {
                allowed &= !self.subgroup[axis];
            }
        }
        Ok(allowed)
    }

    fn root_dual(&self, cube: &Cube3) -> [u8; AXES] {
        let inverse = cube.inverse();
        self.rotations.map(|(g, g_inv)| {
            self.phase1
                .nibble(Phase1Coord::of_conjugate(&inverse, &g, &g_inv).index())
        })
    }
}
