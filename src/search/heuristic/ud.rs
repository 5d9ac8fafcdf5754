//! A table of the `ud` family (cosets of a subgroup holding U and D, see [`crate::space::ud`])
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
use crate::catalogue::{TableId, TableKind};
use crate::model::cube::{Cube3, CubePair, Face, Metric, Move, PackedCube, Rotation};
use crate::packing::based::{Based, Spot, base_of};
use crate::space::ud::{UdCoord, UdSpace};
use crate::table::{Table, TableError};
use std::path::Path;

const AXES: usize = 3;

/// A node's coset coordinate along each axis and where its table entry along each lies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UdCoords {
    axes: [UdCoord; AXES],
    spots: [Spot; AXES],
}

/// What the dual lookup keeps of a node's inverse position: its coordinates and their values,
/// so that the node can be turned around (the search then moves the inverse by move tables).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UdSide {
    coords: UdCoords,
    values: [u8; AXES],
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
    goal: [Spot; AXES],
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
        // The base is covered by the checksum; checking it against the build histogram as well
        // costs nothing and stops a damaged base (which would make the bound inadmissible) even
        // where the checksum is not recomputed.
        let damaged = |problem: &str| TableError::Damaged {
            path: table.path().to_path_buf(),
            problem: problem.into(),
            rebuild: TableId::new(kind, metric).rebuild_command(dir),
        };
        let based = Based::new(table.payload())
            .ok_or_else(|| damaged("its trailer holds no valid base"))?;
        if based.base() != base_of(&table.header().histogram) {
            return Err(damaged("its base disagrees with its histogram"));
        }
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
            goal: [Spot::default(); AXES],
            _table: table,
        };
        heuristic.goal = heuristic.coords(&Cube3::SOLVED).spots;
        Ok(heuristic)
    }

    #[inline(always)]
    fn table(&self) -> Based<'_> {
        Based::from_parts(self.lines.bytes(), self.base)
    }

    /// The coordinate of `cube` along `axis`.
    #[inline]
    fn coord_along(&self, cube: &Cube3, axis: usize) -> UdCoord {
        UdCoord::of(&self.rotations[axis].conjugate(cube), self.space.shape())
    }

    /// The table's values at `c`'s entries.
    #[inline]
    fn values(&self, c: &UdCoords) -> [u8; AXES] {
        c.spots.map(|spot| self.table().value_at(spot))
    }

    /// The moves that may follow a position whose inverse has `values` with `budget` moves
    /// left: none of the subgroup of an axis whose value is tight.
    #[inline]
    fn narrowed(&self, values: [u8; AXES], budget: u8) -> u32 {
        let mut allowed = u32::MAX;
        for (axis, &value) in values.iter().enumerate() {
            if value == budget {
                allowed &= !self.subgroup[axis];
            }
        }
        allowed
    }
}

impl Heuristic for UdHeuristic {
    type Coords = UdCoords;
    /// The inverse position's coordinates, those of the inherited axis left unset.
    type Inverse = UdCoords;
    type Dual = UdSide;

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
            spots: axes.map(|c| Spot::of(self.space.index(c))),
        }
    }

    /// Moves the coordinates and prefetches their corner classes; [`Heuristic::locate_entries`] then
    /// locates their entries, once the classes of all children are on their way.
    #[inline]
    fn child(&self, c: &UdCoords, turn: usize) -> UdCoords {
        let mut child = UdCoords::default();
        for axis in 0..AXES {
            let moved = self
                .space
                .apply_coord(c.axes[axis], usize::from(self.turns[axis][turn]));
            self.space.prefetch_class(moved);
            child.axes[axis] = moved;
        }
        child
    }

    #[inline]
    fn locate_entries(&self, c: &mut UdCoords) {
        for (spot, &coord) in c.spots.iter_mut().zip(&c.axes) {
            *spot = Spot::of(self.space.index(coord));
        }
    }

    #[inline(always)]
    fn prefetch_entries(&self, c: &UdCoords) {
        for &spot in &c.spots {
            self.table().prefetch_at(spot);
        }
    }

    #[inline(always)]
    fn bound(&self, c: &UdCoords, budget: u8) -> u8 {
        let mut values = [0; AXES];
        for (value, &spot) in values.iter_mut().zip(&c.spots) {
            *value = self.table().value_at(spot);
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
        c.spots == self.goal
    }

    /// A turn lies in its own axis's subgroup, whose coordinate of the inverse is therefore
    /// the parent's (as for the phase-1 table): two axes are ranked.
    #[inline]
    fn inverse(&self, inverse: &PackedCube, turn: u8) -> UdCoords {
        let inherited = usize::from(self.axis_of[usize::from(turn)]);
        let inverse = inverse.cube();
        let mut coords = UdCoords::default();
        for axis in 0..AXES {
            if axis != inherited {
                let coord = self.coord_along(&inverse, axis);
                coords.axes[axis] = coord;
                coords.spots[axis] = Spot::of(self.space.index(coord));
            }
        }
        coords
    }

    #[inline(always)]
    fn prefetch_inverse(&self, inverse: &UdCoords, turn: u8) {
        let inherited = usize::from(self.axis_of[usize::from(turn)]);
        for axis in 0..AXES {
            if axis != inherited {
                self.table().prefetch_at(inverse.spots[axis]);
            }
        }
    }

    #[inline]
    fn dual(&self, inverse: &UdCoords, turn: u8, side: &mut UdSide, budget: u8) -> Result<u32, u8> {
        let inherited = usize::from(self.axis_of[usize::from(turn)]);
        for axis in 0..AXES {
            if axis != inherited {
                side.coords.axes[axis] = inverse.axes[axis];
                side.coords.spots[axis] = inverse.spots[axis];
                side.values[axis] = self.table().value_at(inverse.spots[axis]);
            }
        }
        let bound = combine(side.values);
        if bound > budget {
            return Err(bound);
        }
        Ok(self.narrowed(side.values, budget))
    }

    fn root_dual(&self, cube: &Cube3) -> UdSide {
        let coords = self.coords(&cube.inverse());
        UdSide {
            coords,
            values: self.values(&coords),
        }
    }

    const BIDIRECTIONAL: bool = true;

    #[inline]
    fn other_end_moves(&self, c: &UdCoords, budget: u8) -> u32 {
        self.narrowed(self.values(c), budget)
    }

    #[inline]
    fn prefers_other_end(&self, c: &UdCoords, side: &UdSide) -> bool {
        let sum = |values: [u8; AXES]| values.iter().map(|&v| u32::from(v)).sum::<u32>();
        sum(side.values) > sum(self.values(c))
    }

    #[inline]
    fn turn_around(&self, c: &UdCoords, side: &UdSide, _cubes: &CubePair) -> (UdCoords, UdSide) {
        let own = UdSide {
            coords: *c,
            values: self.values(c),
        };
        (side.coords, own)
    }
}
