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
use super::heuristic::{Coords, Entries, Heuristic, InverseValues};
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
struct Prefix {
    node: Node,
    path: Vec<u8>,
}

/// Most moves a node has: the 18 face turns of HTM (QTM has 12).
const MAX_MOVES: usize = Move::COUNT;

/// A generated child: the turn that reaches it and its coordinates, whose table entries have
/// been prefetched.
#[derive(Clone, Copy, Default)]
struct Child {
    turn: u8,
    coords: Coords,
}

/// A node that the direct lookup keeps: what expanding it needs.
#[derive(Clone, Copy, Default)]
struct Node {
    turn: u8,
    coords: Coords,
    /// Its cubies, where the search tracks them (see [`Shared::cubies`]).
    cube: Cube3,
    history: usize,
    /// The moves that may follow it.
    allowed: u32,
    /// Its inverse position's phase-1 values, with the dual lookup.
    inverse_values: InverseValues,
}

/// The working storage of one depth of the depth-first search, reused by every node expanded
/// at that depth, so that expanding a node initialises nothing.
#[derive(Clone, Default)]
struct Frame {
    /// The children of the node being expanded at this depth, generated by its parent.
    children: [Child; MAX_MOVES],
    child_count: usize,
    /// Those children that the direct lookup keeps; once the dual lookup has run, those it
    /// lets through, at the front.
    kept: [Node; MAX_MOVES],
    /// Their inverse positions' coordinates, with the dual lookup.
    inverses: [Coords; MAX_MOVES],
    /// The children of each child entered, generated ahead of its expansion: see
    /// [`Walk::expand`].
    grandchildren: [[Child; MAX_MOVES]; MAX_MOVES],
    grandchild_counts: [usize; MAX_MOVES],
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

/// Nodes between two looks at the clock and at the other threads.
const CHECK_INTERVAL: u64 = 1 << 16;

/// What every subtree of an iteration reads, and the steps that take a node to its children.
#[derive(Clone, Copy)]
struct Context<'a> {
    heuristic: &'a Heuristic,
    entries: Entries<'a>,
    canonical: &'a Canonical,
    shared: &'a Shared,
}

impl Context<'_> {
    /// Generates the children of `node` by its allowed moves into `out` and prefetches their
    /// table entries; returns how many there are.
    #[inline]
    fn generate(&self, node: &Node, out: &mut [Child]) -> usize {
        let mut count = 0;
        let mut mask = node.allowed;
        while mask != 0 {
            let turn = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let coords = self.heuristic.apply(&node.coords, turn);
            self.heuristic.prefetch(self.entries, &coords);
            out[count] = Child {
                turn: turn as u8,
                coords,
            };
            count += 1;
        }
        count
    }

    /// `child` of `parent` as a node of its own, once the direct lookup keeps it: its canonical
    /// next moves, its parent's inverse values (for [`Context::dual`] to update) and its cubies.
    /// When nothing reads the cubies (no dual lookup, and coordinates that determine the
    /// position) the parent's are passed along unchanged rather than computed at every node.
    #[inline]
    fn node(&self, parent: &Node, child: &Child) -> Node {
        let cube = if self.shared.cubies {
            parent
                .cube
                .apply(self.heuristic.moves()[usize::from(child.turn)])
        } else {
            parent.cube
        };
        let history = Canonical::after(parent.history, usize::from(child.turn));
        Node {
            turn: child.turn,
            coords: child.coords,
            cube,
            history,
            allowed: self.canonical.allowed[history],
            inverse_values: parent.inverse_values,
        }
    }

    /// The coordinates of `node`'s inverse position that the dual lookup reads.
    #[inline]
    fn inverse(&self, node: &Node) -> Coords {
        let inherited = self.heuristic.inherited_axes(node.turn);
        self.heuristic.inverse_coords(&node.cube, inherited)
    }

    /// The dual lookup of `node`, whose inverse coordinates are `inverse`: false if it prunes
    /// the node; otherwise it narrows the node's next moves and records its inverse values.
    #[inline]
    fn dual(&self, node: &mut Node, inverse: &Coords, budget: u8) -> bool {
        let inherited = self.heuristic.inherited_axes(node.turn);
        let values = &mut node.inverse_values;
        match self
            .heuristic
            .dual_moves(self.entries, inverse, inherited, values, budget)
        {
            Some(moves) => {
                node.allowed &= moves;
                true
            }
            None => false,
        }
    }
}

/// One subtree's depth-first search.
struct Walk<'a> {
    context: Context<'a>,
    index: usize,
    nodes: u64,
    next_check: u64,
    path: Vec<u8>,
    solutions: Vec<Vec<u8>>,
    /// One frame per depth, `0..=bound`.
    frames: Vec<Frame>,
}

impl Walk<'_> {
    fn stopped(&self) -> bool {
        let shared = self.context.shared;
        shared.aborted.load(Relaxed)
            || (!shared.all && shared.first_found.load(Relaxed) < self.index)
    }

    /// Whether `node`, at the bound, is the solved position.
    fn is_goal(&self, node: &Node) -> bool {
        let Context {
            heuristic, shared, ..
        } = self.context;
        heuristic.is_goal(&node.coords) && (!shared.cubies || node.cube.is_solved())
    }

    /// Searches the subtree below `node` at depth `g`; true once a solution is found and only
    /// one is wanted.
    fn search(&mut self, node: &Node, g: u8) -> bool {
        if g == self.context.shared.bound {
            return self.found(node);
        }
        let frame = &mut self.frames[usize::from(g)];
        frame.child_count = self.context.generate(node, &mut frame.children);
        self.expand(node, g)
    }

    /// Records a solution if `node`, at the bound, is the goal; true if the search is done.
    fn found(&mut self, node: &Node) -> bool {
        if self.is_goal(node) {
            self.solutions.push(self.path.clone());
            return !self.context.shared.all;
        }
        false
    }

    /// Expands `node` at depth `g` below the bound, whose children are already in this depth's
    /// frame with their entries prefetched.
    ///
    /// The latency of the table reads is what bounds the node rate, so reads are issued long
    /// before they are needed: once the lookups have settled which children to enter and by
    /// which moves, the children of all of them are generated and their entries prefetched
    /// before any subtree is entered. Those of the second and later children then wait a whole
    /// subtree's time in cache.
    fn expand(&mut self, node: &Node, g: u8) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_INTERVAL;
            if self.check_deadline() {
                return false;
            }
        }
        let context = self.context;
        let (heuristic, shared) = (context.heuristic, context.shared);
        let bound = shared.bound;
        let budget = bound - g - 1;
        let depth = usize::from(g);
        let frame = &mut self.frames[depth];
        // The direct lookup; with the dual lookup, the kept children's inverses are ranked and
        // their entries prefetched.
        self.nodes += frame.child_count as u64;
        let mut kept = 0;
        for i in 0..frame.child_count {
            let child = &frame.children[i];
            if heuristic.bound(context.entries, &child.coords, budget) > budget {
                continue;
            }
            let child = context.node(node, child);
            if shared.dual {
                let inverse = context.inverse(&child);
                let inherited = heuristic.inherited_axes(child.turn);
                heuristic.prefetch_inverse(context.entries, &inverse, inherited);
                frame.inverses[kept] = inverse;
            }
            heuristic.prefetch_moves(&child.coords);
            frame.kept[kept] = child;
            kept += 1;
        }
        // The dual lookup drops kept children or narrows their next moves.
        let mut entered = 0;
        for k in 0..kept {
            if shared.dual && !context.dual(&mut frame.kept[k], &frame.inverses[k], budget) {
                continue;
            }
            frame.kept[entered] = frame.kept[k];
            entered += 1;
        }
        // Generate ahead the children of every entered child that is not a leaf.
        if g + 1 < bound {
            for k in 0..entered {
                let count = context.generate(&frame.kept[k], &mut frame.grandchildren[k]);
                frame.grandchild_counts[k] = count;
            }
        }
        for k in 0..entered {
            let child = self.frames[depth].kept[k];
            self.path.push(child.turn);
            let done = if g + 1 == bound {
                self.found(&child)
            } else {
                self.pass_down(depth, k);
                self.expand(&child, g + 1)
            };
            self.path.pop();
            if done || self.stopped() {
                return done;
            }
        }
        false
    }

    /// Moves the children generated ahead for entered child `k` of depth `depth` into the next
    /// depth's frame.
    #[inline]
    fn pass_down(&mut self, depth: usize, k: usize) {
        let (upper, lower) = self.frames.split_at_mut(depth + 1);
        let (from, to) = (&upper[depth], &mut lower[0]);
        let count = from.grandchild_counts[k];
        to.children[..count].copy_from_slice(&from.grandchildren[k][..count]);
        to.child_count = count;
    }

    fn check_deadline(&self) -> bool {
        let shared = self.context.shared;
        if let Some(deadline) = shared.deadline {
            if Instant::now() >= deadline {
                shared.aborted.store(true, Relaxed);
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
        let mut walk = self.walk(&shared, 0, Vec::new(), Vec::new());
        let split = SPLIT_DEPTH.min(bound);
        let root = Node {
            turn: 0,
            coords: *root.0,
            cube: *root.1,
            history: 0,
            allowed: self.canonical.allowed[0],
            inverse_values: self.heuristic.inverse_values(root.1),
        };
        walk.collect_prefixes(&root, 0, split, &mut prefixes);
        let prefix_nodes = walk.nodes;
        let frame_count = usize::from(bound) + 1;
        let results: Vec<(Vec<Vec<u8>>, u64)> = prefixes
            .par_iter()
            .enumerate()
            // Frames (about 20 KB per depth) are made once per rayon job, not per subtree.
            .map_init(
                || vec![Frame::default(); frame_count],
                |frames, (index, prefix)| {
                    if !all && shared.first_found.load(Relaxed) < index {
                        return (Vec::new(), 0);
                    }
                    let path = prefix.path.clone();
                    let mut walk = self.walk(&shared, index, path, std::mem::take(frames));
                    walk.search(&prefix.node, split);
                    if !walk.solutions.is_empty() {
                        shared.first_found.fetch_min(index, Relaxed);
                    }
                    *frames = walk.frames;
                    (walk.solutions, walk.nodes)
                },
            )
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

    fn walk<'a>(
        &'a self,
        shared: &'a Shared,
        index: usize,
        path: Vec<u8>,
        frames: Vec<Frame>,
    ) -> Walk<'a> {
        Walk {
            context: Context {
                heuristic: &self.heuristic,
                entries: self.heuristic.entries(),
                canonical: &self.canonical,
                shared,
            },
            index,
            nodes: 0,
            next_check: 0,
            path,
            solutions: Vec::new(),
            frames,
        }
    }
}

impl Walk<'_> {
    /// Every canonical prefix of `split` turns below `node` (at depth `g`) whose heuristic stays
    /// within the bound, in canonical order.
    fn collect_prefixes(&mut self, node: &Node, g: u8, split: u8, out: &mut Vec<Prefix>) {
        if g == split {
            out.push(Prefix {
                node: *node,
                path: self.path.clone(),
            });
            return;
        }
        let context = self.context;
        let budget = context.shared.bound - g - 1;
        let mut children = [Child::default(); MAX_MOVES];
        let count = context.generate(node, &mut children);
        self.nodes += count as u64;
        for child in &children[..count] {
            if context
                .heuristic
                .bound(context.entries, &child.coords, budget)
                > budget
            {
                continue;
            }
            let mut child = context.node(node, child);
            if context.shared.dual {
                let inverse = context.inverse(&child);
                if !context.dual(&mut child, &inverse, budget) {
                    continue;
                }
            }
            self.path.push(child.turn);
            self.collect_prefixes(&child, g + 1, split, out);
            self.path.pop();
        }
    }
}
