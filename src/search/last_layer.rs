//! The last layer: every position whose first two layers are solved, and each one's optimal
//! distance to the solved cube.
//!
//! With the first two layers solved, only the U layer's four corners and four edges are out:
//! in any places (the two permutations of equal parity) and turns (twists summing to 0, flips
//! to even), 4!·4!/2 · 3^3 · 2^3 = 62,208 positions. Finishing the cube from one of them is the
//! speedsolving methods' last step, and its optimal length is the position's distance, found
//! by the optimal solver: no table of the pieces can hold it, since finishing passes through
//! positions with the first two layers broken.
//!
//! The eight symmetries that keep U on top (the turns about U-D and the mirrors through the
//! vertical planes) take the set to itself and keep distances, so only one position of each
//! class is solved: 8,020 of them (the count Bruce Norskog published with the distribution).

use super::goal::{GoalReport, GoalSolver, rotation_name};
use super::ida::{SearchLimits, SearchStatus, Solver};
use crate::catalogue::TableKind;
use crate::catalogue::goal::{Orientations, View};
use crate::catalogue::kind::metric_code;
use crate::model::cube::Metric;
use crate::model::cube::{Corners, Cube3, Edges, Face, Move, Symmetry, merge_same_face};
use crate::model::goal_mask::GoalMask;
use crate::model::notation::format_moves;
use crate::packing::Encoding;
use crate::table::{Contents, SpaceCode, SpaceParameters, Table, TableError, Verify, write_table};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The goal's name, beside the piece goals of [`crate::catalogue::goal`].
pub const NAME: &str = crate::catalogue::goal::LAST_LAYER;

/// How many last-layer positions there are.
pub const POSITIONS: usize = 62_208;

/// The first two layers: the D layer and the E slice.
pub fn first_two_layers() -> GoalMask {
    GoalMask::parse("D E").expect("a fixed mask")
}

/// Whether `cube`'s first two layers are solved (with U on top).
pub fn is_last_layer(cube: &Cube3) -> bool {
    first_two_layers().is_reached(cube)
}

/// Every last-layer position, in a fixed order.
pub fn positions() -> Vec<Cube3> {
    let mut all = Vec::with_capacity(POSITIONS);
    for corner_perm in permutations_of_four() {
        for edge_perm in permutations_of_four() {
            if parity(&corner_perm) != parity(&edge_perm) {
                continue;
            }
            for twist in 0..27u8 {
                for flip in 0..8u8 {
                    all.push(position(&corner_perm, &edge_perm, twist, flip));
                }
            }
        }
    }
    all
}

/// The position with U-layer corners `corner_perm` twisted by the base-3 digits of `twist`
/// (the fourth making the sum 0), and edges `edge_perm` flipped by the bits of `flip`.
fn position(corner_perm: &[u8; 4], edge_perm: &[u8; 4], twist: u8, flip: u8) -> Cube3 {
    let mut corners = Corners::SOLVED;
    let mut edges = Edges::SOLVED;
    corners.perm[..4].copy_from_slice(corner_perm);
    edges.perm[..4].copy_from_slice(edge_perm);
    let mut t = twist;
    for slot in 0..3 {
        corners.ori[slot] = t % 3;
        t /= 3;
    }
    corners.ori[3] = (6 - corners.ori[..3].iter().sum::<u8>()) % 3;
    for slot in 0..3 {
        edges.ori[slot] = flip >> slot & 1;
    }
    edges.ori[3] = edges.ori[..3].iter().sum::<u8>() % 2;
    Cube3 { corners, edges }
}

fn permutations_of_four() -> Vec<[u8; 4]> {
    let mut out = Vec::with_capacity(24);
    for a in 0..4u8 {
        for b in (0..4).filter(|&b| b != a) {
            for c in (0..4).filter(|&c| c != a && c != b) {
                out.push([a, b, c, 6 - a - b - c]);
            }
        }
    }
    out
}

fn parity(perm: &[u8; 4]) -> bool {
    let mut odd = false;
    for i in 0..4 {
        for j in i + 1..4 {
            odd ^= perm[i] > perm[j];
        }
    }
    odd
}

/// The symmetries that keep U on top: they take last-layer positions to last-layer
/// positions and keep every distance.
pub fn symmetries() -> Vec<Symmetry> {
    let u = Move::new(Face::U, 1);
    (0..48u8)
        .filter(|&s| Symmetry::map_move_of(s, u).face() == Face::U)
        .map(Symmetry::nth)
        .collect()
}

/// One class of last-layer positions under [`symmetries`]: its first member, that member's
/// number in [`positions`], and how many there are.
#[derive(Clone, Copy, Debug)]
pub struct LastLayerClass {
    pub representative: Cube3,
    pub first: u32,
    pub size: u32,
}

/// The classes of the last-layer positions, in the order of their first member in
/// [`positions`], and each position's class number, in that order.
pub fn classes() -> (Vec<LastLayerClass>, Vec<u32>) {
    let symmetries = symmetries();
    let mut index: HashMap<Cube3, u32> = HashMap::with_capacity(POSITIONS);
    let mut classes: Vec<LastLayerClass> = Vec::new();
    let mut class_of = Vec::with_capacity(POSITIONS);
    for (number, cube) in positions().into_iter().enumerate() {
        if let Some(&class) = index.get(&cube) {
            classes[class as usize].size += 1;
            class_of.push(class);
            continue;
        }
        let class = classes.len() as u32;
        for s in &symmetries {
            index.insert(s.conjugate(&cube), class);
        }
        classes.push(LastLayerClass {
            representative: cube,
            first: number as u32,
            size: 1,
        });
        class_of.push(class);
    }
    (classes, class_of)
}

/// Why a last-layer position could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum LastLayerError {
    #[error(transparent)]
    Solve(#[from] super::SolveError),
    #[error(
        "the optimal solver stopped ({0:?}) on a last-layer position: a defect, please report it"
    )]
    Stopped(SearchStatus),
    #[error(
        "the first two layers are not solved (on {faces}): ll is the last step; solve the first two layers first (--goal f2l), or allow more faces with --orientations"
    )]
    NotLastLayer { faces: String },
    #[error(
        "the optimal solver gave a solution that does not solve the cube: a defect, please report it"
    )]
    Unchecked,
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("{} is not the last layer's table as this version writes it; remove it and it is rebuilt on the next use", .0.display())]
    Foreign(PathBuf),
}

/// The last step as a goal: from a position whose first two layers are solved (on one of the
/// faces a neutrality allows), the whole cube solved, optimally.
pub struct LastLayerSolver {
    solver: std::sync::Arc<Solver>,
    orientations: Orientations,
    /// Search each position on the calling thread (see [`SearchLimits::one_thread`]).
    one_thread: bool,
}

impl LastLayerSolver {
    pub fn new(solver: std::sync::Arc<Solver>, orientations: Orientations) -> LastLayerSolver {
        LastLayerSolver {
            solver,
            orientations,
            one_thread: false,
        }
    }

    /// For callers that answer many positions in parallel themselves.
    pub fn one_thread(self) -> LastLayerSolver {
        LastLayerSolver {
            one_thread: true,
            ..self
        }
    }

    /// The first orientation of the neutrality that shows `cube`'s first two layers solved.
    fn view(&self, cube: &Cube3) -> Result<View, LastLayerError> {
        let rotations = self.orientations.rotations();
        rotations
            .iter()
            .map(|&r| View {
                rotation: r,
                orientation: r,
            })
            .find(|v| is_last_layer(&v.see(cube)))
            .ok_or_else(|| LastLayerError::NotLastLayer {
                faces: rotations
                    .iter()
                    .map(|&r| {
                        let view = View {
                            rotation: r,
                            orientation: r,
                        };
                        view.bottom().letter().to_string()
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// One optimal solution, or every one (at most `limit`) with `all`, each checked on
    /// cubies, as the front ends print them.
    pub fn report(
        &self,
        cube: &Cube3,
        all: bool,
        limit: usize,
    ) -> Result<GoalReport, LastLayerError> {
        let view = self.view(cube)?;
        let limits = SearchLimits {
            all,
            deterministic: true,
            dual: true,
            // With `all`, every solution, not one of each symmetric class.
            symmetry: !all,
            one_thread: self.one_thread,
            ..SearchLimits::default()
        };
        let result = self.solver.solve(cube, limits, |_| {})?;
        if result.status != SearchStatus::Optimal {
            return Err(LastLayerError::Stopped(result.status));
        }
        let mut solutions = result.solutions;
        solutions.truncate(limit.max(1));
        if !solutions.iter().all(|s| cube.apply_all(s).is_solved()) {
            return Err(LastLayerError::Unchecked);
        }
        let metric = self.solver.metric();
        Ok(GoalReport {
            goal: NAME.to_string(),
            mask: first_two_layers().to_string(),
            metric: metric.name(),
            orientations: self.orientations.name(),
            length: result.lower_bound as u8,
            orientation: rotation_name(&view.orientation),
            bottom: view.bottom().letter(),
            on: vec![view.bottom().letter(); solutions.len()],
            solutions: solutions
                .iter()
                .map(|s| format_moves(&merge_same_face(s)))
                .collect(),
        })
    }
}

/// Each class's optimal length by `solver`, in the order of `classes`, in parallel (each
/// search on one thread). `progress` counts classes.
pub fn class_lengths(
    solver: &Solver,
    classes: &[LastLayerClass],
    progress: &indicatif::ProgressBar,
) -> Result<Vec<u8>, LastLayerError> {
    use rayon::prelude::*;
    classes
        .par_iter()
        .map(|class| {
            let limits = SearchLimits {
                one_thread: true,
                dual: true,
                symmetry: true,
                ..SearchLimits::default()
            };
            let result = solver.solve(&class.representative, limits, |_| {})?;
            progress.inc(1);
            match result.status {
                SearchStatus::Optimal => Ok(result.lower_bound as u8),
                other => Err(LastLayerError::Stopped(other)),
            }
        })
        .collect()
}

/// What answers a goal by name or mask: a piece goal's tables, or the optimal solver for the
/// last layer. The front ends hold one and ask it for reports.
pub enum GoalAnswerer {
    Pieces(GoalSolver),
    LastLayer(LastLayerSolver),
}

impl GoalAnswerer {
    /// One optimal solution, or every one (at most `limit`) with `all`, each checked on
    /// cubies: `Ok(Err(_))` says what is wrong with this position (a last-layer goal's
    /// position whose first two layers are not solved), `Err` is a defect.
    pub fn report(
        &self,
        cube: &Cube3,
        all: bool,
        limit: usize,
    ) -> Result<Result<GoalReport, String>, String> {
        match self {
            GoalAnswerer::Pieces(solver) => solver
                .report(cube, all, limit)
                .map(Ok)
                .map_err(|e| e.to_string()),
            GoalAnswerer::LastLayer(solver) => match solver.report(cube, all, limit) {
                Ok(report) => Ok(Ok(report)),
                Err(e @ LastLayerError::NotLastLayer { .. }) => Ok(Err(e.to_string())),
                Err(e) => Err(e.to_string()),
            },
        }
    }
}

/// Where the last layer's table in `metric` is cached in `dir`.
pub fn table_path(dir: &Path, metric: Metric) -> PathBuf {
    dir.join(format!("{}-{NAME}-{metric}.tbl", TableKind::Goal.name()))
}

/// The header's name of the last layer's table.
const HEADER_NAME: &str = "goal ll: the last layer's positions, solved";

/// Identifies [`positions`]' order, which the table's entries follow.
const FINGERPRINT: u64 = 0x4c4c_0001;

/// Every last-layer position's distance, in [`positions`]' order, in the one table format: a
/// byte an entry. Solving the 8,020 classes takes minutes, so the table is kept in the data
/// directory and read back.
pub struct LastLayerTable {
    table: Table,
    classes: Vec<LastLayerClass>,
}

impl LastLayerTable {
    /// Opens the table in `metric` from `dir`; if it is missing or another's, solves the
    /// classes with the solver `solver` opens (in `metric`) and writes it first (`progress`
    /// counts classes).
    pub fn open_or_build(
        dir: &Path,
        metric: Metric,
        solver: impl FnOnce() -> Result<Solver, TableError>,
        progress: &indicatif::ProgressBar,
    ) -> Result<LastLayerTable, LastLayerError> {
        match LastLayerTable::open(dir, metric) {
            Err(LastLayerError::Table(TableError::Missing { .. }) | LastLayerError::Foreign(_)) => {
                LastLayerTable::build(dir, &solver()?, progress)?;
                LastLayerTable::open(dir, metric)
            }
            opened => opened,
        }
    }

    /// Opens the table in `metric` from `dir`, checking it is this one.
    pub fn open(dir: &Path, metric: Metric) -> Result<LastLayerTable, LastLayerError> {
        let path = table_path(dir, metric);
        let rebuild = rebuild_command(dir, metric);
        if !path.exists() {
            return Err(TableError::Missing { path, rebuild }.into());
        }
        let table = Table::open_path(&path, &rebuild, Verify::IfNew)?;
        let header = table.header();
        let ours = header.space == space_code(metric)
            && header.encoding == Encoding::Byte
            && header.entries == POSITIONS as u64
            && header
                .parameters
                .as_ref()
                .is_some_and(|p| p.puzzle == HEADER_NAME && p.fingerprint == FINGERPRINT);
        if !ours {
            return Err(LastLayerError::Foreign(path));
        }
        let (classes, _) = classes();
        Ok(LastLayerTable { table, classes })
    }

    /// Solves every class with `solver` and writes the table into `dir`.
    fn build(
        dir: &Path,
        solver: &Solver,
        progress: &indicatif::ProgressBar,
    ) -> Result<(), LastLayerError> {
        let metric = solver.metric();
        let (classes, class_of) = classes();
        progress.set_length(classes.len() as u64);
        let lengths = class_lengths(solver, &classes, progress)?;
        // Every member of a class is a symmetric image of its first one: the same distance.
        let entries: Vec<u8> = class_of.iter().map(|&c| lengths[c as usize]).collect();
        let (histogram, _) = histograms(&classes, &lengths);
        let contents = Contents {
            space: space_code(metric),
            encoding: Encoding::Byte,
            entries: POSITIONS as u64,
            histogram,
            parameters: Some(SpaceParameters {
                puzzle: HEADER_NAME.into(),
                generators: Vec::new(),
                metric: metric_code(metric),
                order: POSITIONS as u64,
                outside: 0,
                fingerprint: FINGERPRINT,
            }),
        };
        std::fs::create_dir_all(dir).map_err(|source| TableError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        write_table(&table_path(dir, metric), contents, &entries)?;
        Ok(())
    }

    /// Positions at each length.
    pub fn histogram(&self) -> &[u64] {
        &self.table.header().histogram
    }

    /// The classes, and each one's length.
    pub fn class_lengths(&self) -> (&[LastLayerClass], Vec<u8>) {
        let lengths = self
            .classes
            .iter()
            .map(|c| self.table.entry(u64::from(c.first)))
            .collect();
        (&self.classes, lengths)
    }

    pub fn path(&self) -> &Path {
        self.table.path()
    }
}

fn space_code(metric: Metric) -> SpaceCode {
    SpaceCode {
        family: TableKind::Goal.code(),
        metric: metric_code(metric),
    }
}

/// What rebuilds the table: removing it and asking for it again.
fn rebuild_command(dir: &Path, metric: Metric) -> String {
    format!(
        "rm {}; stats --data-dir {} goal ll --metric {metric}",
        table_path(dir, metric).display(),
        dir.display()
    )
}

/// Positions and classes at each length, from [`class_lengths`]: `(positions, classes)`.
pub fn histograms(classes: &[LastLayerClass], lengths: &[u8]) -> (Vec<u64>, Vec<u64>) {
    let longest = lengths.iter().copied().max().map_or(0, usize::from);
    let mut positions = vec![0u64; longest + 1];
    let mut counts = vec![0u64; longest + 1];
    for (class, &length) in classes.iter().zip(lengths) {
        positions[usize::from(length)] += u64::from(class.size);
        counts[usize::from(length)] += 1;
    }
    (positions, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_62208_distinct_valid_positions_with_the_first_two_layers_solved() {
        let all = positions();
        assert_eq!(all.len(), POSITIONS);
        let distinct: std::collections::HashSet<Cube3> = all.iter().copied().collect();
        assert_eq!(distinct.len(), POSITIONS);
        for cube in &all {
            cube.validate().unwrap();
            assert!(is_last_layer(cube));
        }
    }

    /// Eight symmetries keep U on top, and they split the positions into the 8,020 classes
    /// Norskog counted.
    #[test]
    fn the_positions_fall_into_8020_classes() {
        assert_eq!(symmetries().len(), 8);
        let (classes, class_of) = classes();
        assert_eq!(classes.len(), 8_020);
        assert_eq!(class_of.len(), POSITIONS);
        let all = positions();
        for (c, class) in classes.iter().enumerate() {
            assert_eq!(all[class.first as usize], class.representative);
            assert_eq!(class_of[class.first as usize] as usize, c);
        }
        assert_eq!(
            classes.iter().map(|c| u64::from(c.size)).sum::<u64>(),
            POSITIONS as u64
        );
        assert!(classes.iter().all(|c| 8 % c.size == 0));
    }
}
