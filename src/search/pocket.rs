//! Optimal 2x2x2 solutions by descending the complete distance table.

use super::SolveError;
use super::descent::{descend, descend_all};
use crate::catalogue::{TableId, TableKind};
use crate::model::cube::{Cube2, Metric, Move, Rotation, merge_same_face};
use crate::space::pocket::{PocketSpace, rank};
use crate::table::{Table, TableError, Verify};
use std::path::Path;

/// The mapped 2x2 table of one metric with the move tables to walk it.
pub struct PocketSolver {
    metric: Metric,
    space: PocketSpace,
    table: Table,
}

impl PocketSolver {
    /// Maps the 2x2 table of `metric` from `dir`.
    pub fn open(dir: &Path, metric: Metric) -> Result<PocketSolver, TableError> {
        let table = TableId::new(TableKind::Pocket, metric).open(dir, Verify::IfNew)?;
        Ok(PocketSolver {
            metric,
            space: PocketSpace::new(metric),
            table,
        })
    }

    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The optimal distance of `cube` in this metric.
    pub fn distance(&self, cube: &Cube2) -> u8 {
        self.table.nibble(rank(&cube.normalised()))
    }

    /// One optimal solution for `cube` as it is held, checked by applying it.
    pub fn solve(&self, cube: &Cube2) -> Result<Vec<Move>, SolveError> {
        let turn = cube.normalising_rotation();
        let path = descend(&self.space, self.table.payload(), rank(&cube.normalised()))
            .ok_or(SolveError::Unreachable)?;
        self.checked(cube, &turn, &path)
    }

    /// Every optimal solution for `cube`, each checked, without repeats.
    pub fn solve_all(&self, cube: &Cube2) -> Result<Vec<Vec<Move>>, SolveError> {
        let turn = cube.normalising_rotation();
        let paths = descend_all(&self.space, self.table.payload(), rank(&cube.normalised()));
        if paths.is_empty() {
            return Err(SolveError::Unreachable);
        }
        let mut solutions = paths
            .iter()
            .map(|p| self.checked(cube, &turn, p))
            .collect::<Result<Vec<_>, _>>()?;
        // In QTM two paths can print alike (U U and U' U' are both U2).
        solutions.sort_unstable();
        solutions.dedup();
        Ok(solutions)
    }

    /// Turns a path of move numbers, found for `cube` turned by `turn`, into turns of the cube
    /// as held, and proves that they solve it.
    fn checked(
        &self,
        cube: &Cube2,
        turn: &Rotation,
        path: &[usize],
    ) -> Result<Vec<Move>, SolveError> {
        let turns: Vec<Move> = path
            .iter()
            .map(|&t| turn.map_move(self.space.moves()[t]))
            .collect();
        let solution = merge_same_face(&turns);
        if !cube.apply_all(&solution).is_solved()
            || self.metric.length(&solution) != path.len() as u32
        {
            return Err(SolveError::Unverified(
                crate::model::notation::format_moves(&solution),
            ));
        }
        Ok(solution)
    }
}
