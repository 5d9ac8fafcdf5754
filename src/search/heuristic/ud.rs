//! A table of the `ud` family (cosets of a subgroup holding U and D, see [`crate::pdb::ud`])
//! read along the three axes, for the position and for its inverse (Tomas Rokicki's nxopt).
//!
//! The table alone serves: along the three axes the corner parts together place and twist
//! every corner. Two facts sharpen the bound beyond the largest of the three values `v`:
//! - a solution of exactly `v` moves would have to end with a turn outside all three axes'
//!   subgroups, and every face belongs to one: so when all three values are `v > 0`, the
//!   distance is at least `v + 1`;
//! - where the inverse position's value along an axis equals the moves left, the next move
//!   cannot be a turn of that axis's faces (see [`super::Phase1Heuristic`]'s dual lookup).

use super::{Entries, Heuristic, Turns, open_table, turns_through};
use crate::cube::{Cube3, Face, Metric, Move, Rotation};
use crate::pdb::ud::{UdCoord, UdSpace};
use crate::table::based::Based;
use crate::table::{Table, TableError, TableId, TableKind};
use std::path::Path;

const AXES: usize = 3;

/// A node's coset coordinate along each axis and the table index it has there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UdCoords {
    axes: [UdCoord; AXES],
    indices: [u64; AXES],
}

pub struct UdHeuristic {
    metric: Metric,
    space: UdSpace,
    rotations: [Rotation; AXES],
    turns: [Turns; AXES],
    /// Per axis, the turns (a bit mask) of that axis's two faces, which lie in its subgroup.
    subgroup: [u32; AXES],
    /// Per turn, the axis whose subgroup holds it.
    axis_of: [u8; Move::COUNT],
    /// The table's lines (see [`Based`]) and base.
    lines: Entries,
    base: u8,
    goal: [u64; AXES],
    // The mapping `lines` reads; declared last, dropped after it.
    _table: Table,
}

/// The bound from the three axes' values: the largest, or one more when all three agree and
/// are not zero (no last move escapes all three subgroups).
#[inline(always)]
fn combine(values: [u8; AXES]) -> u8 {
    let [a, b, c] = values;
    let best = a.max(b).max(c);
    best + u8::from(a == b && b == c && a > 0)
}

impl UdHeuristic {
    /// Maps the `ud-*` table `kind` of `metric`.
    pub fn open(dir: &Path, metric: Metric, kind: TableKind) -> Result<UdHeuristic, TableError> {
        let shape = kind
            .ud_shape()
            .ok_or(TableError::NotAHeuristic(kind.name()))?;
        let table = open_table(dir, TableId::new(kind, metric))?;
        let based = Based::new(table.payload()).ok_or_else(|| TableError::Damaged {
            path: table.path().to_path_buf(),
            problem: "its payload has no trailer".into(),
            rebuild: TableId::new(kind, metric).rebuild_command(dir),
        })?;
        let (lines, base) = (Entries::of_bytes(based.lines()), based.base());
        let space = UdSpace::new(shape, metric);
        let moves = space.moves().to_vec();
        let rotations = [Rotation::IDENTITY, Rotation::x(), Rotation::z()];
        let turns = rotations.map(|r| turns_through(&r, &moves));
        let subgroup = std::array::from_fn(|axis| {
            (0..moves.len()).fold(0u32, |mask, turn| {
                let seen = moves[usize::from(turns[axis][turn])];
                mask | u32::from(matches!(seen.face(), Face::U | Face::D)) << turn
            })
        });
        let axis_of = std::array::from_fn(|turn| {
            (0..AXES)
                .find(|&axis| subgroup[axis] & 1 << turn != 0)
                .unwrap_or(0) as u8
        });
        let mut heuristic = UdHeuristic {
            metric,
            space,
            rotations,
            turns,
            subgroup,
            axis_of,
            lines,
            base,
            goal: [0; AXES],
            _table: table,
        };
        heuristic.goal = heuristic.coords(&Cube3::SOLVED).indices;
        Ok(heuristic)
    }

    #[inline(always)]
    fn table(&self) -> Based<'_> {
        Based::from_parts(self.lines.bytes(), self.base)
    }

    /// The table index of `cube` along `axis`.
    #[inline]
    fn index_along(&self, cube: &Cube3, axis: usize) -> u64 {
        let seen = self.rotations[axis].conjugate(cube);
        self.space.index(UdCoord::of(&seen, self.space.shape()))
    }
}

impl Heuristic for UdHeuristic {
    type Coords = UdCoords;
    /// The inverse position's table indices, those of the inherited axis left unset.
    type Inverse = [u64; AXES];
    /// The inverse position's values, one per axis.
    type Dual = [u8; AXES];

    fn metric(&self) -> Metric {
        self.metric
    }

    fn moves(&self) -> &[Move] {
        self.space.moves()
    }

    fn coords(&self, cube: &Cube3) -> UdCoords {
        let shape = self.space.shape();
        let axes = self
            .rotations
            .map(|r| UdCoord::of(&r.conjugate(cube), shape));
        UdCoords {
            axes,
            indices: axes.map(|c| self.space.index(c)),
        }
    }

    #[inline]
    fn child(&self, c: &UdCoords, turn: usize) -> UdCoords {
        let mut child = UdCoords::default();
        for axis in 0..AXES {
            let moved = self
                .space
                .apply_coord(c.axes[axis], usize::from(self.turns[axis][turn]));
            let index = self.space.index(moved);
            self.table().prefetch(index);
            child.axes[axis] = moved;
            child.indices[axis] = index;
        }
        child
    }

    #[inline(always)]
    fn bound(&self, c: &UdCoords, budget: u8) -> u8 {
        let mut values = [0; AXES];
        for (value, &index) in values.iter_mut().zip(&c.indices) {
            *value = self.table().value(index);
            if *value > budget {
                return *value;
            }
        }
        combine(values)
    }

    /// The coset coordinates ignore where the U- and D-layer pieces are within their layers.
    fn coords_determine_position(&self) -> bool {
        false
    }

    fn is_goal(&self, c: &UdCoords) -> bool {
        c.indices == self.goal
    }

    /// A turn lies in its own axis's subgroup, whose coordinate of the inverse is therefore
    /// the parent's (as for the phase-1 table): two axes are ranked.
    #[inline]
    fn inverse(&self, cube: &Cube3, turn: u8) -> [u64; AXES] {
        let inherited = usize::from(self.axis_of[usize::from(turn)]);
        let inverse = cube.inverse();
        let mut indices = [0; AXES];
        for (axis, index) in indices.iter_mut().enumerate() {
            if axis != inherited {
                *index = self.index_along(&inverse, axis);
                self.table().prefetch(*index);
            }
        }
        indices
    }

    #[inline]
    fn dual(
        &self,
        inverse: &[u64; AXES],
        turn: u8,
        values: &mut [u8; AXES],
        budget: u8,
    ) -> Option<u32> {
        let inherited = usize::from(self.axis_of[usize::from(turn)]);
        for (axis, value) in values.iter_mut().enumerate() {
            if axis != inherited {
                *value = self.table().value(inverse[axis]);
            }
        }
        if combine(*values) > budget {
            return None;
        }
        let mut allowed = u32::MAX;
        for (axis, &value) in values.iter().enumerate() {
            if value == budget {
                allowed &= !self.subgroup[axis];
            }
        }
        Some(allowed)
    }

    fn root_dual(&self, cube: &Cube3) -> [u8; AXES] {
        let inverse = cube.inverse();
        std::array::from_fn(|axis| self.table().value(self.index_along(&inverse, axis)))
    }
}
