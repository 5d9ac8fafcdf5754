//! Iterative-deepening A* for the 3x3x3 over the mapped pattern databases.
//!
//! Each iteration searches every canonical move sequence whose cost plus heuristic stays within
//! the bound, depth first. Canonical: never the same face twice running (in QTM, `U U` is allowed
//! once as the only spelling of a half turn), and of two opposite faces turned in succession only
//! the order U-before-D, R-before-L, F-before-B. The work of an iteration is split into the
//! subtrees below all canonical prefixes of a few moves, searched in parallel with rayon; the
//! solution reported is the first in canonical order (the lowest-numbered subtree that has one),
//! so results do not depend on thread timing.
//!
//! With the dual lookup each kept child is also bounded by its inverse position, and where the
//! inverse's phase-1 bound is tight the child's next moves are narrowed (see
//! [`Heuristic::dual_moves`]).

use super::SolveError;
use super::heuristic::{Coords, Heuristic};
use crate::cube::{Cube3, Metric, Move, merge_same_face};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Limits on one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchLimits {
    /// Give up rather than search beyond this length.
    pub max_length: Option<u32>,
    /// Give up after this long.
    pub timeout: Option<Duration>,
    /// Find every optimal solution, not just the first.
    pub all: bool,
    /// Also bound each node by the heuristic of its inverse position (same distance), for the
    /// nodes that the direct lookup keeps.
    pub dual: bool,
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SearchStatus {
    Optimal,
    Timeout,
    MaxLength,
}

/// One IDA* iteration's work.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct IterationStats {
    pub bound: u32,
    /// Nodes generated: children whose heuristic was looked up.
    pub nodes: u64,
    pub seconds: f64,
}

/// The outcome of a search. Every solution in it has been applied to the position and checked.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub status: SearchStatus,
    pub solutions: Vec<Vec<Move>>,
    pub iterations: Vec<IterationStats>,
    /// What the search proved about the optimal length: equal to it when optimal; otherwise no
    /// solution is shorter (every iteration below it completed without one).
    pub lower_bound: u32,
}

impl SearchResult {
    pub fn nodes(&self) -> u64 {
        self.iterations.iter().map(|i| i.nodes).sum()
    }
}

/// Allowed next moves after each move history, as bitmasks over move numbers.
struct Canonical {
    /// `[history]`: history 0 is the root, `1 + 2 * turn + doubled` after `turn` (`doubled`: the
    /// turn before it was the same quarter turn, QTM only).
    allowed: Vec<u32>,
}

impl Canonical {
    fn new(metric: Metric, moves: &[Move]) -> Canonical {
        let follows = |last: Move, doubled: bool, next: Move| -> bool {
            if next.face() == last.face() {
                // QTM: U U spells U2; U' U', U U', and a third U are never canonical.
                return metric == Metric::Qtm
                    && next == last
                    && next.quarter_turns() == 1
                    && !doubled;
            }
            !(next.face() == last.face().opposite() && next.face() < last.face())
        };
        let mut allowed = vec![(1u32 << moves.len()) - 1];
        for &last in moves {
            for doubled in [false, true] {
                let mask = moves
                    .iter()
                    .enumerate()
                    .filter(|(_, next)| follows(last, doubled, **next))
                    .fold(0u32, |mask, (i, _)| mask | 1 << i);
                allowed.push(mask);
            }
        }
        Canonical { allowed }
    }

    fn after(history: usize, turn: usize) -> usize {
        let doubled = history > 0 && (history - 1) / 2 == turn;
        1 + 2 * turn + usize::from(doubled)
    }
}

/// A partial path from the root: where the subtree below it starts.
#[derive(Clone)]
struct Prefix {
    coords: Coords,
    cube: Cube3,
    history: usize,
    /// The moves that may follow.
    allowed: u32,
    path: Vec<u8>,
}

/// A child that the direct lookup keeps, on its way into the search.
#[derive(Clone, Copy, Default)]
struct Kept {
    turn: usize,
    coords: Coords,
    cube: Cube3,
    /// Its inverse position's coordinates, with the dual lookup.
    inverse: Coords,
    history: usize,
    /// The moves that may follow it.
    allowed: u32,
}

/// Shared by all subtrees of one iteration.
struct Shared {
    bound: u8,
    all: bool,
    dual: bool,
    /// Whether nodes carry their cubie state: for the dual lookup, and to recognise the goal
    /// when the coordinates do not determine the position.
    cubies: bool,
    /// Lowest subtree number that found a solution; higher ones stop.
    first_found: AtomicUsize,
    aborted: AtomicBool,
    deadline: Option<Instant>,
}

/// One subtree's depth-first search.
struct Walk<'a> {
    heuristic: &'a Heuristic,
    canonical: &'a Canonical,
    shared: &'a Shared,
    index: usize,
    nodes: u64,
    path: Vec<u8>,
    solutions: Vec<Vec<u8>>,
}

impl Walk<'_> {
    fn stopped(&self) -> bool {
        self.shared.aborted.load(Relaxed)
            || (!self.shared.all && self.shared.first_found.load(Relaxed) < self.index)
    }

    /// The cubies of the child reached by `turn`. When nothing reads them (no dual lookup, and
    /// coordinates that determine the position) the parent's are passed along unchanged rather
    /// than computed at every kept node.
    #[inline]
    fn child_cube(&self, cube: &Cube3, turn: usize) -> Cube3 {
        if self.shared.cubies {
            cube.apply(self.heuristic.moves()[turn])
        } else {
            *cube
        }
    }

    /// Searches below the node `coords` (cost `g`, heuristic already within the bound); `cube`
    /// is its cubie state when the search tracks cubies (see [`Walk::child_cube`]). `allowed`
    /// is the set of moves that may come next. True once a solution is found and only one is
    /// wanted.
    fn search(
        &mut self,
        coords: &Coords,
        cube: &Cube3,
        g: u8,
        allowed: u32,
        history: usize,
    ) -> bool {
        let bound = self.shared.bound;
        if g == bound {
            if self.heuristic.is_goal(coords) && (!self.shared.cubies || cube.is_solved()) {
                self.solutions.push(self.path.clone());
                return !self.shared.all;
            }
            return false;
        }
        if self.nodes & 0x3FFF == 0 && self.check_deadline() {
            return false;
        }
        let budget = bound - g - 1;
        // Generate every child and prefetch its table entries before reading any, so the
        // memory latencies of the siblings overlap instead of adding up.
        let mut children = [(0usize, Coords::default()); 18];
        let mut count = 0;
        let mut mask = allowed;
        while mask != 0 {
            let turn = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let child = self.heuristic.apply(coords, turn);
            self.heuristic.prefetch(&child);
            children[count] = (turn, child);
            count += 1;
        }
        self.nodes += count as u64;
        // Keep the children within the bound; with the dual lookup, rank their inverses and
        // prefetch those entries too before reading any of them.
        let mut kept = [Kept::default(); 18];
        let mut survivors = 0;
        for &(turn, coords) in &children[..count] {
            if self.heuristic.bound(&coords, budget) > budget {
                continue;
            }
            let cube = self.child_cube(cube, turn);
            let inverse = if self.shared.dual {
                let inverse = self.heuristic.inverse_coords(&cube);
                self.heuristic.prefetch_inverse(&inverse);
                inverse
            } else {
                Coords::default()
            };
            let history = Canonical::after(history, turn);
            kept[survivors] = Kept {
                turn,
                coords,
                cube,
                inverse,
                history,
                allowed: self.canonical.allowed[history],
            };
            survivors += 1;
        }
        // Drop those the inverse prunes, narrow the next moves of the rest where the inverse's
        // bound is tight, and prefetch their move-table rows.
        let mut entered = 0;
        for i in 0..survivors {
            let mut child = kept[i];
            if self.shared.dual {
                match self.heuristic.dual_moves(&child.inverse, budget) {
                    Some(moves) => child.allowed &= moves,
                    None => continue,
                }
            }
            self.heuristic.prefetch_moves(&child.coords);
            kept[entered] = child;
            entered += 1;
        }
        for child in &kept[..entered] {
            self.path.push(child.turn as u8);
            let done = self.search(
                &child.coords,
                &child.cube,
                g + 1,
                child.allowed,
                child.history,
            );
            self.path.pop();
            if done || self.stopped() {
                return done;
            }
        }
        false
    }

    fn check_deadline(&self) -> bool {
        if let Some(deadline) = self.shared.deadline {
            if Instant::now() >= deadline {
                self.shared.aborted.store(true, Relaxed);
            }
        }
        self.stopped()
    }
}

fn gave_up(status: SearchStatus, bound: u8, iterations: Vec<IterationStats>) -> SearchResult {
    SearchResult {
        status,
        solutions: Vec::new(),
        iterations,
        lower_bound: u32::from(bound),
    }
}

/// Optimal 3x3 solving with one heuristic.
pub struct Solver {
    heuristic: Heuristic,
    canonical: Canonical,
}

/// Prefix length at which an iteration is split into parallel subtrees: a few thousand
/// subtrees balance two to sixteen threads without costing much to enumerate.
const SPLIT_DEPTH: u8 = 3;

impl Solver {
    pub fn new(heuristic: Heuristic) -> Solver {
        let canonical = Canonical::new(heuristic.metric(), heuristic.moves());
        Solver {
            heuristic,
            canonical,
        }
    }

    pub fn heuristic(&self) -> &Heuristic {
        &self.heuristic
    }

    /// Finds an optimal solution (or all of them) for a valid position, calling `on_iteration`
    /// after each completed iteration.
    pub fn solve(
        &self,
        cube: &Cube3,
        limits: SearchLimits,
        mut on_iteration: impl FnMut(&IterationStats),
    ) -> Result<SearchResult, SolveError> {
        let start = Instant::now();
        let deadline = limits.timeout.map(|t| start + t);
        let root = self.heuristic.coords(cube);
        let metric = self.heuristic.metric();
        // In QTM every quarter turn flips the corner permutation's parity, so solution lengths
        // have the parity of the position's corner permutation.
        let parity = u8::from(cube.corners.is_odd());
        let mut bound = self.heuristic.value(&root);
        if metric == Metric::Qtm && bound % 2 != parity {
            bound += 1;
        }
        let mut iterations = Vec::new();
        loop {
            if limits.max_length.is_some_and(|max| u32::from(bound) > max) {
                return Ok(gave_up(SearchStatus::MaxLength, bound, iterations));
            }
            let began = Instant::now();
            let (solutions, nodes, aborted) =
                self.iteration((&root, cube), bound, &limits, deadline);
            let stats = IterationStats {
                bound: u32::from(bound),
                nodes,
                seconds: began.elapsed().as_secs_f64(),
            };
            iterations.push(stats);
            on_iteration(&stats);
            if aborted {
                return Ok(gave_up(SearchStatus::Timeout, bound, iterations));
            }
            if !solutions.is_empty() {
                let moves = solutions
                    .iter()
                    .map(|p| {
                        p.iter()
                            .map(|&t| self.heuristic.moves()[t as usize])
                            .collect()
                    })
                    .collect();
                return self.verified(cube, moves, iterations);
            }
            bound += if metric == Metric::Qtm { 2 } else { 1 };
        }
    }

    /// Prints turns as face turns (QTM `U U` as `U2`) and proves each solves `cube`.
    fn verified(
        &self,
        cube: &Cube3,
        found: Vec<Vec<Move>>,
        iterations: Vec<IterationStats>,
    ) -> Result<SearchResult, SolveError> {
        let metric = self.heuristic.metric();
        let mut solutions = Vec::with_capacity(found.len());
        for turns in found {
            let solution = merge_same_face(&turns);
            if !cube.apply_all(&solution).is_solved()
                || metric.length(&solution) != turns.len() as u32
            {
                return Err(SolveError::Unverified(crate::notation::format_moves(
                    &solution,
                )));
            }
            solutions.push(solution);
        }
        let lower_bound = solutions.first().map_or(0, |s| metric.length(s));
        Ok(SearchResult {
            status: SearchStatus::Optimal,
            solutions,
            iterations,
            lower_bound,
        })
    }

    /// One iteration at `bound`: its solutions (as turn numbers), nodes, and whether it ran out
    /// of time.
    fn iteration(
        &self,
        root: (&Coords, &Cube3),
        bound: u8,
        limits: &SearchLimits,
        deadline: Option<Instant>,
    ) -> (Vec<Vec<u8>>, u64, bool) {
        let all = limits.all;
        let shared = Shared {
            bound,
            all,
            dual: limits.dual,
            cubies: limits.dual || !self.heuristic.coords_determine_position(),
            first_found: AtomicUsize::new(usize::MAX),
            aborted: AtomicBool::new(false),
            deadline,
        };
        let mut prefixes = Vec::new();
        let mut walk = self.walk(&shared, 0, Vec::new());
        let split = SPLIT_DEPTH.min(bound);
        let allowed = self.canonical.allowed[0];
        walk.collect_prefixes(root, 0, 0, allowed, split, &mut prefixes);
        let prefix_nodes = walk.nodes;
        let results: Vec<(Vec<Vec<u8>>, u64)> = prefixes
            .par_iter()
            .enumerate()
            .map(|(index, prefix)| {
                if !all && shared.first_found.load(Relaxed) < index {
                    return (Vec::new(), 0);
                }
                let mut walk = self.walk(&shared, index, prefix.path.clone());
                walk.search(
                    &prefix.coords,
                    &prefix.cube,
                    split,
                    prefix.allowed,
                    prefix.history,
                );
                if !walk.solutions.is_empty() {
                    shared.first_found.fetch_min(index, Relaxed);
                }
                (walk.solutions, walk.nodes)
            })
            .collect();
        let nodes = prefix_nodes + results.iter().map(|r| r.1).sum::<u64>();
        let aborted = shared.aborted.load(Relaxed);
        let solutions = if all {
            results.into_iter().flat_map(|r| r.0).collect()
        } else {
            results
                .into_iter()
                .find(|r| !r.0.is_empty())
                .map(|r| r.0)
                .unwrap_or_default()
        };
        (solutions, nodes, aborted)
    }

    fn walk<'a>(&'a self, shared: &'a Shared, index: usize, path: Vec<u8>) -> Walk<'a> {
        Walk {
            heuristic: &self.heuristic,
            canonical: &self.canonical,
            shared,
            index,
            nodes: 0,
            path,
            solutions: Vec::new(),
        }
    }
}

impl Walk<'_> {
    /// Every canonical prefix of `split` turns below the root whose heuristic stays within the
    /// bound, in canonical order. `allowed` is the moves that may follow `node`.
    fn collect_prefixes(
        &mut self,
        node: (&Coords, &Cube3),
        g: u8,
        history: usize,
        allowed: u32,
        split: u8,
        out: &mut Vec<Prefix>,
    ) {
        let (coords, cube) = node;
        if g == split {
            out.push(Prefix {
                coords: *coords,
                cube: *cube,
                history,
                allowed,
                path: self.path.clone(),
            });
            return;
        }
        let budget = self.shared.bound - g - 1;
        let mut mask = allowed;
        while mask != 0 {
            let turn = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let child = self.heuristic.apply(coords, turn);
            self.nodes += 1;
            if self.heuristic.bound(&child, budget) > budget {
                continue;
            }
            let child_cube = self.child_cube(cube, turn);
            let next = Canonical::after(history, turn);
            let mut next_allowed = self.canonical.allowed[next];
            if self.shared.dual {
                let inverse = self.heuristic.inverse_coords(&child_cube);
                match self.heuristic.dual_moves(&inverse, budget) {
                    Some(moves) => next_allowed &= moves,
                    None => continue,
                }
            }
            self.path.push(turn as u8);
            let child_node = (&child, &child_cube);
            self.collect_prefixes(child_node, g + 1, next, next_allowed, split, out);
            self.path.pop();
        }
    }
}
