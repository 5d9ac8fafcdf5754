//! A table of the `h48` family (cosets of a subgroup every symmetry keeps, reduced by all 48;
//! see [`crate::space::h48`]) read once for the position and once for its inverse (Sebastiano
//! Tronto's H48 solver).
//!
//! One lookup sees what the `ud` family sees in three: the reduction by all 48 symmetries
//! already folds the three axes together. The subgroup holds the six half turns, so a tight
//! bound rules them out as a solution's last move; for the inverse position, as the next move
//! (see [`super::Phase1Heuristic`]'s dual lookup). The inverse of a node reached by a half turn
//! lies in its parent's inverse's coset, so its dual value is inherited, not looked up.

use super::{Entries, Heuristic, open_table};
use crate::catalogue::{TableId, TableKind};
use crate::model::cube::{Cube3, CubePair, Metric, Move, PackedCube};
use crate::packing::based::{Based, Spot, best_base};
use crate::space::h48::{ByteCoord, H48Coord, H48Space, H48Table};
use crate::table::{Table, TableError};
use std::path::Path;

/// A node's coset coordinate and where its table entry lies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct H48Coords {
    coord: ByteCoord,
    spot: Spot,
}

/// What the dual lookup keeps of a node's inverse position: its value. Its coordinates are
/// taken again from the inverse's cubies where the node is turned around (about one node in
/// fifteen): kept in every node they made it 152 bytes, copied with a call to `memcpy`; within
/// 128 bytes it is copied inline (2% of the time on positions 5, 7, 9, 10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct H48Side {
    value: u8,
}

pub struct H48Heuristic {
    metric: Metric,
    /// Which member the table is over, and how many bits of its kept flips it drops.
    layout: H48Table,
    space: H48Space,
    /// The turns (a bit mask) that lie in the subgroup: the half turns.
    subgroup: u32,
    /// The table's lines (see [`Based`]) and base.
    lines: Entries,
    base: u8,
    goal: Spot,
    // The mapping `lines` reads; declared last, dropped after it.
    _table: Table,
}

impl H48Heuristic {
    /// Maps the `h48-*` table `kind` of `metric`.
    pub fn open(dir: &Path, metric: Metric, kind: TableKind) -> Result<H48Heuristic, TableError> {
        let layout = kind
            .h48_table()
            .ok_or(TableError::NotAHeuristic(kind.name()))?;
        let id = TableId::new(kind, metric);
        let table = open_table(dir, id)?;
        let damaged = |problem: &str| TableError::Damaged {
            path: table.path().to_path_buf(),
            problem: problem.into(),
            rebuild: id.rebuild_command(dir),
        };
        let based = Based::new(table.payload())
            .ok_or_else(|| damaged("its trailer holds no valid base"))?;
        // An `h48-eo` table's histogram stops at "base + 3 or more" (see `catalogue::h48_eo`).
        let expected_base = if kind.is_h48_eo() {
            crate::catalogue::h48_eo::base_of_histogram(&table.header().histogram)
        } else {
            best_base(&table.header().histogram)
        };
        if based.base() != expected_base {
            return Err(damaged("its base disagrees with its histogram"));
        }
        let (lines, base) = (Entries::of_bytes(based.lines()), based.base());
        let space = H48Space::new(layout.flips, metric);
        let goal = Spot::of(
            layout.entry_of(space.index_bytes(&ByteCoord::of(H48Coord::of(&Cube3::SOLVED)))),
        );
        Ok(H48Heuristic {
            metric,
            layout,
            subgroup: space.subgroup_turns(),
            space,
            lines,
            base,
            goal,
            _table: table,
        })
    }

    #[inline(always)]
    fn table(&self) -> Based<'_> {
        Based::from_parts(self.lines.bytes(), self.base)
    }

    #[inline(always)]
    fn read(&self, c: &H48Coords) -> u8 {
        self.table().value_at(c.spot)
    }

    /// Whether a child reached by `turn` inherits its parent's inverse value: a half turn lies
    /// in the subgroup, so the child's inverse lies in its parent's inverse's coset.
    #[inline(always)]
    fn inherits(&self, turn: u8) -> bool {
        self.subgroup >> turn & 1 == 1
    }

    /// The coordinates of `coord`, their table line located.
    #[inline]
    fn locate(&self, coord: ByteCoord) -> H48Coords {
        H48Coords {
            coord,
            spot: self.entry(coord),
        }
    }

    /// Where the table entry of `coord` lies.
    #[inline(always)]
    fn entry(&self, coord: ByteCoord) -> Spot {
        Spot::of(self.layout.entry_of(self.space.index_bytes(&coord)))
    }

    /// The coordinates of `cube`, their table line prefetched.
    #[inline]
    fn coords_of(&self, cube: &Cube3) -> H48Coords {
        let coords = self.locate(ByteCoord::of(H48Coord::of(cube)));
        self.table().prefetch_at(coords.spot);
        coords
    }

    /// The moves that may follow a node (or begin its other end) whose bound on that side is
    /// `value` with `budget` moves left: no half turn where the bound is tight.
    #[inline(always)]
    fn narrowed(&self, value: u8, budget: u8) -> u32 {
        if value == budget {
            !self.subgroup
        } else {
            u32::MAX
        }
    }
}

impl Heuristic for H48Heuristic {
    type Coords = H48Coords;
    /// The inverse position's coordinates; unset for a child reached by a half turn.
    type Inverse = H48Coords;
    type Dual = H48Side;

    fn metric(&self) -> Metric {
        self.metric
    }

    fn moves(&self) -> &[Move] {
        self.space.moves()
    }

    fn coords(&self, cube: &Cube3) -> H48Coords {
        self.coords_of(cube)
    }

    /// Moves the coordinate and prefetches its corner class; [`Heuristic::locate_entries`] then locates
    /// its entry, once the classes of all children are on their way.
    #[inline]
    fn child(&self, c: &H48Coords, turn: usize) -> H48Coords {
        let coord = self.space.apply_bytes(&c.coord, turn);
        self.space.prefetch_class_bytes(&coord);
        H48Coords {
            coord,
            spot: Spot::default(),
        }
    }

    /// Always inlined: the walk calls it from two places, and out of line the coordinate
    /// crosses the call through memory (8% more instructions in `h48-eo6`'s walk).
    #[inline(always)]
    fn locate_entries(&self, c: &mut H48Coords) {
        c.spot = self.entry(c.coord);
    }

    #[inline(always)]
    fn prefetch_entries(&self, c: &H48Coords) {
        self.table().prefetch_at(c.spot);
    }

    /// An entry reads at most `base + 3` ("that or more").
    #[inline]
    fn largest_bound(&self) -> u8 {
        self.base + 3
    }

    #[inline(always)]
    fn bound(&self, c: &H48Coords, _budget: u8) -> u8 {
        self.read(c)
    }

    /// Where the budget is at least the base, an entry of code 0 is within it whatever its
    /// line's minimum: the code alone decides, without the fallback's read and its branch
    /// (most children are read at budgets 9 to 11 over base 9).
    #[inline(always)]
    fn bound_above(&self, c: &H48Coords, budget: u8) -> u8 {
        if budget >= self.base {
            self.table().at_most_base_at(c.spot)
        } else {
            self.read(c)
        }
    }

    /// The coset coordinate ignores where pieces are within their tetrads and slices.
    fn coords_determine_position(&self) -> bool {
        false
    }

    fn is_goal(&self, c: &H48Coords) -> bool {
        c.spot == self.goal
    }

    /// Prefetches the inverse's corner class; [`Heuristic::locate_inverse`] then locates its
    /// entry, as [`Heuristic::child`] and [`Heuristic::locate_entries`] do for a child.
    #[inline]
    fn inverse(&self, inverse: &PackedCube, turn: u8) -> H48Coords {
        if self.inherits(turn) {
            return H48Coords::default();
        }
        let coord = ByteCoord::of_packed(inverse);
        self.space.prefetch_class_bytes(&coord);
        H48Coords {
            coord,
            spot: Spot::default(),
        }
    }

    #[inline(always)]
    fn locate_inverse(&self, inverse: &mut H48Coords, turn: u8) {
        if !self.inherits(turn) {
            inverse.spot = self.entry(inverse.coord);
        }
    }

    #[inline(always)]
    fn prefetch_inverse(&self, inverse: &H48Coords, turn: u8) {
        if !self.inherits(turn) {
            self.table().prefetch_at(inverse.spot);
        }
    }

    #[inline]
    fn dual(
        &self,
        inverse: &H48Coords,
        turn: u8,
        side: &mut H48Side,
        budget: u8,
    ) -> Result<u32, u8> {
        if !self.inherits(turn) {
            *side = H48Side {
                value: self.read(inverse),
            };
        }
        if side.value > budget {
            return Err(side.value);
        }
        Ok(self.narrowed(side.value, budget))
    }

    /// Read as a child's bound is ([`Heuristic::bound_above`]): where the budget is at least
    /// the base, from the code alone.
    #[inline(always)]
    fn dual_bound(&self, inverse: &H48Coords, turn: u8, side: &H48Side, budget: u8) -> u8 {
        if self.inherits(turn) {
            side.value
        } else {
            self.bound_above(inverse, budget)
        }
    }

    fn root_dual(&self, cube: &Cube3) -> H48Side {
        let coords = self.coords_of(&cube.inverse());
        H48Side {
            value: self.read(&coords),
        }
    }

    const BIDIRECTIONAL: bool = true;

    /// An inverse costs about seventy instructions here, far less than the reads it spares.
    const SHARED_INVERSES_FIRST: bool = true;

    #[inline]
    fn other_end_moves(&self, c: &H48Coords, budget: u8) -> u32 {
        self.narrowed(self.read(c), budget)
    }

    #[inline]
    fn prefers_other_end(&self, c: &H48Coords, side: &H48Side) -> bool {
        side.value > self.read(c)
    }

    #[inline]
    fn turn_around(
        &self,
        c: &H48Coords,
        _side: &H48Side,
        cubes: &CubePair,
    ) -> (H48Coords, H48Side) {
        let own = H48Side {
            value: self.read(c),
        };
        (self.locate(ByteCoord::of_packed(&cubes.inverse)), own)
    }
}
