//! Optimal solutions for partial goals: a table look-up per view for the length, and a walk
//! down the table for the moves.
//!
//! A goal's table holds every state's exact distance, so the optimal length is the least entry
//! over the goal's views (its places and, with colour neutrality, its orientations: see
//! [`crate::catalogue::goal`]), with no search. A solution walks down: from a state at distance
//! `d` some move reaches `d - 1`. Every optimal solution is every such walk, turns of opposite
//! faces in one order only (`U D`, not also `D U`; see [`Canonical`]). A walk found in a view
//! is turned back into the moves of the cube as held: the view's turn of face `Y` is a turn of
//! the face the view's rotation shows as `Y`.

use super::canonical::Canonical;
use crate::catalogue::goal::{Goal, GoalTable, GoalTables, Orientations, View};
use crate::model::cube::{Cube3, Move, Rotation, merge_same_face};
use crate::model::notation::format_moves;
use std::sync::Arc;

/// A goal's optimal length for one position, and where it is reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalAnswer {
    /// Moves (in the table's metric) to the goal, the least over the views.
    pub length: u8,
    /// The views that reach it in that many, in the order of [`Goal::views`].
    pub best: Vec<usize>,
}

/// One optimal solution: its moves on the cube as held, and the view it reaches the goal in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalSolution {
    pub view: usize,
    pub moves: Vec<Move>,
}

/// The places a goal of several at once chooses among: the four of a quarter turn about U-D.
const PLACES: usize = 4;

/// A position's answer as the front ends print it (`solve --goal --json`, `POST /goal`,
/// Python's `solve_goal`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct GoalReport {
    pub goal: String,
    pub mask: String,
    pub metric: &'static str,
    pub orientations: &'static str,
    pub length: u8,
    /// The rotation (x y z notation, empty for none) of the first solution's view: where the
    /// goal's face is, seen from the table's, and the face of the cube as held it is built on.
    pub orientation: String,
    pub bottom: char,
    /// One optimal solution, or every one asked for, each checked on cubies.
    pub solutions: Vec<String>,
    /// For each solution, the face its goal is built on.
    pub on: Vec<char>,
}

/// Why a goal could not be answered: only a defect (a table that leads nowhere or to a wrong
/// position) stops it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} {problem}: a defect, please report it", path.display())]
pub struct GoalDefect {
    pub path: std::path::PathBuf,
    pub problem: &'static str,
}

/// A goal, its table and its views under one neutrality.
pub struct GoalSolver {
    goal: Goal,
    /// The goal's own table (the one looked up for the length of a goal of one place).
    table: Arc<GoalTable>,
    /// Its helpers' tables (see [`Goal::helpers`]), read only by the search.
    helpers: Vec<Arc<GoalTable>>,
    orientations: Orientations,
    /// Without repeats for a goal of one place at a time; for one of several at once
    /// ([`Places::AtOnce`]), each orientation's four places in a row, repeats kept.
    views: Vec<View>,
    canonical: Canonical,
}

impl GoalSolver {
    /// The solver of `goal` over its `tables` (shared by the neutralities).
    pub fn new(goal: Goal, tables: GoalTables, orientations: Orientations) -> GoalSolver {
        let GoalTables {
            own: table,
            helpers,
        } = tables;
        let views = if goal.places.at_once() > 1 {
            goal.view_groups(orientations).concat()
        } else {
            goal.views(orientations)
        };
        let space = table.space();
        let canonical = Canonical::new(space.metric(), space.moves());
        GoalSolver {
            goal,
            table,
            helpers,
            orientations,
            views,
            canonical,
        }
    }

    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    pub fn table(&self) -> &GoalTable {
        &self.table
    }

    pub fn orientations(&self) -> Orientations {
        self.orientations
    }

    pub fn views(&self) -> &[View] {
        &self.views
    }

    /// The optimal length: a look-up per view, or for a goal of several places at once a
    /// search.
    pub fn length(&self, cube: &Cube3) -> u8 {
        if self.goal.places.at_once() > 1 {
            return self.search(cube, 1).0;
        }
        self.views
            .iter()
            .map(|v| self.table.distance(&v.see(cube)))
            .min()
            .unwrap_or(0)
    }

    /// The optimal length and the views that reach it (for a goal of several places at once,
    /// the first view of the orientation of the first solution the search finds).
    pub fn answer(&self, cube: &Cube3) -> GoalAnswer {
        if self.goal.places.at_once() > 1 {
            let (length, solutions) = self.search(cube, 1);
            return GoalAnswer {
                length,
                best: solutions.iter().map(|s| s.view).collect(),
            };
        }
        let distances: Vec<u8> = self
            .views
            .iter()
            .map(|v| self.table.distance(&v.see(cube)))
            .collect();
        let length = distances.iter().copied().min().unwrap_or(0);
        GoalAnswer {
            length,
            best: (0..distances.len())
                .filter(|&i| distances[i] == length)
                .collect(),
        }
    }

    /// One optimal solution (the first in canonical order in the first view that has one), or
    /// every one with `all`, at most `limit` of them. Not yet checked: the caller checks each
    /// with [`GoalSolver::reaches`] before printing it.
    pub fn solve(&self, cube: &Cube3, all: bool, limit: usize) -> Vec<GoalSolution> {
        let limit = if all { limit } else { 1 };
        if self.goal.places.at_once() > 1 {
            return self.search(cube, limit).1;
        }
        let answer = self.answer(cube);
        let mut solutions = Vec::new();
        for &view in &answer.best {
            let seen = self.views[view].see(cube);
            let space = self.table.space();
            let mut path = Vec::with_capacity(usize::from(answer.length));
            let mut walks = Vec::new();
            self.walk(
                &seen,
                answer.length,
                Canonical::ROOT,
                &mut path,
                &mut walks,
                limit - solutions.len(),
            );
            let back = self.views[view].rotation.inverse();
            for walk in walks {
                let moves: Vec<Move> = in_canonical_order(
                    walk.iter()
                        .map(|&turn| back.map_move(space.moves()[turn]))
                        .collect(),
                );
                // A sequence that reaches the goal in two places is one solution.
                if !solutions.iter().any(|s: &GoalSolution| s.moves == moves) {
                    solutions.push(GoalSolution { view, moves });
                }
            }
            if solutions.len() >= limit {
                break;
            }
        }
        solutions
    }

    /// One optimal solution, or every one (at most `limit`) with `all`, each checked on
    /// cubies, as the front ends print them.
    pub fn report(&self, cube: &Cube3, all: bool, limit: usize) -> Result<GoalReport, GoalDefect> {
        let defect = |problem| GoalDefect {
            path: self.table.path().to_path_buf(),
            problem,
        };
        let solutions = self.solve(cube, all, limit);
        let first = solutions
            .first()
            .ok_or_else(|| defect("leads to no solution of the goal"))?;
        if !solutions
            .iter()
            .all(|s| self.reaches(cube, &s.moves, s.view))
        {
            return Err(defect("gave a solution that does not reach the goal"));
        }
        let view = self.views[first.view];
        let space = self.table.space();
        Ok(GoalReport {
            goal: self.goal.name.clone(),
            mask: self.goal.mask.to_string(),
            metric: space.metric().name(),
            orientations: self.orientations.name(),
            length: space.metric().length(&first.moves) as u8,
            orientation: rotation_name(&view.orientation),
            bottom: view.bottom().letter(),
            solutions: solutions
                .iter()
                .map(|s| format_moves(&merge_same_face(&s.moves)))
                .collect(),
            on: solutions
                .iter()
                .map(|s| self.views[s.view].bottom().letter())
                .collect(),
        })
    }

    /// Whether `moves`, applied to `cube`, reach the goal in view `view` (for a goal of
    /// several places at once, as many of the places of view `view`'s orientation, whose first
    /// view it is): the check every printed solution passes, made on cubies, not on the table.
    pub fn reaches(&self, cube: &Cube3, moves: &[Move], view: usize) -> bool {
        let after = cube.apply_all(moves);
        let at_once = self.goal.places.at_once();
        if at_once > 1 {
            let group = &self.views[view..(view + PLACES).min(self.views.len())];
            let reached = group
                .iter()
                .filter(|v| self.goal.mask.is_reached(&v.see(&after)))
                .count();
            return reached >= usize::from(at_once);
        }
        self.goal.mask.is_reached(&self.views[view].see(&after))
    }

    /// For a goal of several places at once, whether a lower bound of `cube`'s distance is at
    /// most `left`, and if so the first view of the first orientation within it. The bound: for
    /// each orientation, the `at_once`-th smallest of its places' exact distances (reaching
    /// those places together takes at least the largest of theirs, and the best choice of
    /// places has the smallest such largest), and the largest distance of a helper (its mask
    /// is held in all four places); the least over the orientations. Each term changes by at
    /// most one a move, so the bound is consistent, and it is 0 exactly where the goal is
    /// reached. An orientation is given up at its first distance past `left`: most nodes of a
    /// search fail the test, and a look-up in a large table is a cache miss.
    fn within(&self, cube: &Cube3, left: u8) -> Option<usize> {
        let at_once = usize::from(self.goal.places.at_once());
        'groups: for (g, group) in self.views.chunks(PLACES).enumerate() {
            let mut beyond = 0;
            for view in group {
                let seen = view.see(cube);
                if self.helpers.iter().any(|h| h.distance(&seen) > left) {
                    continue 'groups;
                }
                if self.table.distance(&seen) > left {
                    beyond += 1;
                    if beyond > PLACES - at_once {
                        continue 'groups;
                    }
                }
            }
            return Some(g * PLACES);
        }
        None
    }

    /// IDA* for a goal of several places at once: the optimal length, and up to `limit`
    /// optimal solutions (each named by the first view of the orientation it reaches in).
    fn search(&self, cube: &Cube3, limit: usize) -> (u8, Vec<GoalSolution>) {
        let moves = self.table.space().moves();
        // The first iteration's depth: the bound itself, the least depth within it.
        let mut depth = (0..u8::MAX)
            .find(|&d| self.within(cube, d).is_some())
            .unwrap_or(u8::MAX);
        loop {
            let mut found = Vec::new();
            let mut path = Vec::with_capacity(usize::from(depth));
            self.deepen(cube, depth, Canonical::ROOT, &mut path, &mut found, limit);
            if !found.is_empty() {
                let solutions = found
                    .into_iter()
                    .map(|(view, turns): (usize, Vec<usize>)| GoalSolution {
                        view,
                        moves: turns.iter().map(|&t| moves[t]).collect(),
                    })
                    .collect();
                return (depth, solutions);
            }
            depth += 1;
        }
    }

    /// Every canonical sequence of `left` more moves from `cube` that reaches the goal, into
    /// `out` (at most `limit`).
    fn deepen(
        &self,
        cube: &Cube3,
        left: u8,
        history: usize,
        path: &mut Vec<usize>,
        out: &mut Vec<(usize, Vec<usize>)>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        let Some(view) = self.within(cube, left) else {
            return;
        };
        if left == 0 {
            out.push((view, path.clone()));
            return;
        }
        let moves = self.table.space().moves();
        let allowed = self.canonical.allowed(history);
        for (turn, &m) in moves.iter().enumerate() {
            if allowed >> turn & 1 == 1 {
                path.push(turn);
                self.deepen(
                    &cube.apply(m),
                    left - 1,
                    Canonical::after(history, turn),
                    path,
                    out,
                    limit,
                );
                path.pop();
            }
        }
    }

    /// Every canonical walk down the table from `cube` at distance `distance`, into `out`, at
    /// most `limit` of them. It moves cubies and ranks each, rather than the table's states by
    /// their parts' move tables, which a walk of a few moves would not repay.
    fn walk(
        &self,
        cube: &Cube3,
        distance: u8,
        history: usize,
        path: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        if distance == 0 {
            out.push(path.clone());
            return;
        }
        let moves = self.table.space().moves();
        let allowed = self.canonical.allowed(history);
        for (turn, &m) in moves.iter().enumerate() {
            if allowed >> turn & 1 == 0 {
                continue;
            }
            let next = cube.apply(m);
            if self.table.distance(&next) == distance - 1 {
                path.push(turn);
                self.walk(
                    &next,
                    distance - 1,
                    Canonical::after(history, turn),
                    path,
                    out,
                    limit,
                );
                path.pop();
            }
        }
    }
}

/// `moves` with each pair of consecutive opposite-face turns in canonical order (U before D, R
/// before L, F before B): a walk turned back through a rotation may spell `D U` where the
/// canonical walk of another view spelled `U D`, the same solution.
fn in_canonical_order(mut moves: Vec<Move>) -> Vec<Move> {
    // A bubble sort within each run of turns on one axis (a QTM run may hold three: D D U).
    let mut swapped = true;
    while swapped {
        swapped = false;
        for i in 1..moves.len() {
            let (a, b) = (moves[i - 1], moves[i]);
            if a.face().opposite_out_of_order(b.face()) {
                moves.swap(i - 1, i);
                swapped = true;
            }
        }
    }
    moves
}

/// The optimal length of every cube of `cubes` under every solver of `solvers`, in parallel:
/// entry `i * solvers.len() + s` is cube `i`'s under solver `s`. `progress` counts cubes.
pub fn sample_lengths(
    solvers: &[GoalSolver],
    cubes: &[Cube3],
    progress: &indicatif::ProgressBar,
) -> Vec<u8> {
    use rayon::prelude::*;
    // Chunks small enough that every thread has several (a search goal takes milliseconds a
    // position), large enough that a look-up goal's are not scheduled one by one.
    let threads = rayon::current_num_threads().max(1);
    let chunk = (cubes.len() / (threads * 16)).clamp(1, 4096);
    let mut lengths = vec![0u8; cubes.len() * solvers.len()];
    if solvers.is_empty() {
        return lengths;
    }
    lengths
        .par_chunks_mut(chunk * solvers.len())
        .zip(cubes.par_chunks(chunk))
        .for_each(|(out, chunk)| {
            for (row, cube) in out.chunks_mut(solvers.len()).zip(chunk) {
                for (length, solver) in row.iter_mut().zip(solvers) {
                    *length = solver.length(cube);
                }
            }
            progress.inc(chunk.len() as u64);
        });
    lengths
}

/// Counts at each length of column `column` of [`sample_lengths`]'s output.
pub fn column_histogram(lengths: &[u8], columns: usize, column: usize) -> Vec<u64> {
    let mut histogram = Vec::new();
    for row in lengths.chunks(columns) {
        let l = usize::from(row[column]);
        if histogram.len() <= l {
            histogram.resize(l + 1, 0);
        }
        histogram[l] += 1;
    }
    histogram
}

/// The shortest name of a whole-cube rotation in `x y z` notation (`""` for none).
pub fn rotation_name(rotation: &Rotation) -> String {
    let turns = [
        ("x", Rotation::x()),
        ("y", Rotation::y()),
        ("z", Rotation::z()),
    ];
    let mut named: Vec<(String, Rotation)> = vec![(String::new(), Rotation::IDENTITY)];
    for (letter, base) in &turns {
        for (suffix, power) in [("", 1), ("2", 2), ("'", 3)] {
            named.push((format!("{letter}{suffix}"), base.power(power)));
        }
    }
    let singles = named.clone();
    for (a, ra) in &singles[1..] {
        for (b, rb) in &singles[1..] {
            named.push((format!("{a} {b}"), ra.then(rb)));
        }
    }
    named
        .into_iter()
        .find(|(_, r)| r == rotation)
        .map_or_else(|| "?".into(), |(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cube::{Face, Metric};
    use crate::model::notation::parse_moves;
    use indicatif::ProgressBar;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    fn solver(dir: &std::path::Path, goal: &str, o: Orientations, metric: Metric) -> GoalSolver {
        let goal = Goal::parse(goal).unwrap();
        let tables =
            GoalTables::open_or_build(dir, &goal, metric, &|_| ProgressBar::hidden()).unwrap();
        GoalSolver::new(goal, tables, o)
    }

    /// Colour neutrality is the fixed goal on the rotated scrambles: for a goal no rotation
    /// keeps (Roux's block), the 24 orientations' distances are, as a multiset, the fixed
    /// goal's distances of the scramble written through each of the 24 rotations.
    #[test]
    fn the_24_orientations_are_the_fixed_goal_of_the_24_rotated_scrambles() {
        let dir = tempfile::tempdir().unwrap();
        let fixed = solver(dir.path(), "roux-fb", Orientations::Fixed, Metric::Htm);
        let all = solver(dir.path(), "roux-fb", Orientations::All, Metric::Htm);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(24);
        for _ in 0..30 {
            let scramble: Vec<Move> = (0..25)
                .map(|_| Move::from_index(rand::RngExt::random_range(&mut rng, 0..18)).unwrap())
                .collect();
            let cube = Cube3::from_moves(&scramble);
            let mut by_views: Vec<u8> = all
                .views()
                .iter()
                .map(|v| all.table().distance(&v.see(&cube)))
                .collect();
            let mut by_scrambles: Vec<u8> = Rotation::all()
                .iter()
                .map(|r| {
                    let rotated: Vec<Move> = scramble.iter().map(|&m| r.map_move(m)).collect();
                    fixed.length(&Cube3::from_moves(&rotated))
                })
                .collect();
            by_views.sort_unstable();
            by_scrambles.sort_unstable();
            assert_eq!(by_views, by_scrambles);
            assert_eq!(all.length(&cube), by_scrambles[0]);
        }
    }

    #[test]
    fn commuting_turns_are_put_in_canonical_order() {
        let order = |text: &str| format_moves(&in_canonical_order(parse_moves(text).unwrap()));
        assert_eq!(order("D U R L' B F"), "U D R L' F B");
        assert_eq!(order("D D U"), "U D D");
        assert_eq!(order("R U D"), "R U D");
    }

    #[test]
    fn every_rotation_has_a_name_that_reads_back() {
        for r in Rotation::all() {
            let name = rotation_name(r);
            assert_ne!(name, "?");
            let read = name
                .split_whitespace()
                .map(|w| {
                    let base = match &w[..1] {
                        "x" => Rotation::x(),
                        "y" => Rotation::y(),
                        _ => Rotation::z(),
                    };
                    base.power(match &w[1..] {
                        "" => 1,
                        "2" => 2,
                        _ => 3,
                    })
                })
                .fold(Rotation::IDENTITY, |r, t| r.then(&t));
            assert_eq!(&read, r, "{name}");
        }
    }

    /// Solutions reach the goal (checked on cubies), are as long as the answer says, and a
    /// cross solved on U is found at length 0 with neutrality, its bottom U.
    #[test]
    fn solutions_reach_the_goal_in_the_view_they_name() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for (goal, metric) in [
            ("cross", Metric::Htm),
            ("xcross", Metric::Htm),
            ("eoline", Metric::Qtm),
            ("f2l-pair", Metric::Htm),
            ("xxcross", Metric::Htm),
            ("xxcross", Metric::Qtm),
        ] {
            for o in [Orientations::Fixed, Orientations::Six] {
                let solver = solver(dir.path(), goal, o, metric);
                for _ in 0..20 {
                    let cube = Cube3::random(&mut rng);
                    let answer = solver.answer(&cube);
                    let solutions = solver.solve(&cube, true, 50);
                    assert!(!solutions.is_empty());
                    for s in &solutions {
                        assert!(solver.reaches(&cube, &s.moves, s.view), "{goal}");
                        assert_eq!(metric.length(&s.moves), u32::from(answer.length));
                    }
                }
            }
        }
        let cross = solver(dir.path(), "cross", Orientations::Dual, Metric::Htm);
        let cube = Cube3::SOLVED.apply_all(&parse_moves("D").unwrap());
        let answer = cross.answer(&cube);
        assert_eq!(answer.length, 0);
        assert_eq!(cross.views()[answer.best[0]].bottom(), Face::U);
    }
}
