//! Iterative-deepening A* for the 3x3x3 over the mapped pattern databases: the driver.
//!
//! Each iteration searches every canonical move sequence (see [`super::canonical`]) whose cost
//! plus bound stays within the iteration's bound, depth first ([`super::walk`]). The work of an
//! iteration is split into the subtrees below all canonical prefixes of a few moves, searched in
//! parallel, the densest first (see [`order`]). By default the first solution any thread finds
//! ends the search, so two threads finish the last iteration about twice as soon as one; with
//! [`SearchLimits::deterministic`] the solution reported is the first in canonical order (the
//! lowest-numbered subtree that has one), whatever the threads' timing, at the cost of waiting
//! for the subtrees before it.

use super::SolveError;
use super::canonical::Canonical;
use super::heuristic::{AnyHeuristic, Heuristic};
use super::symmetry::PositionSymmetry;
use super::walk::{FAR_END, Frames, Node, NodeOf, Prefix, Shared, Walk};
use crate::model::cube::{Cube3, CubePair, Metric, Move, merge_same_face};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Limits on one search.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Give up rather than search beyond this length.
    pub max_length: Option<u32>,
    /// Give up after this long.
    pub timeout: Option<Duration>,
    /// Give up, as at the timeout, once this is set (by a caller whose client left).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Find every optimal solution, not just the first.
    pub all: bool,
    /// Also bound each node by the heuristic of its inverse position (same distance), for the
    /// nodes that the direct lookup keeps.
    pub dual: bool,
    /// Report the first optimal solution in canonical order, the same on every run and any
    /// number of threads, instead of the first one found.
    pub deterministic: bool,
    /// Use the symmetries that keep the position: search only the subtrees whose first moves
    /// can start the leader of a class of symmetric solutions, and with `all` report one
    /// solution per class (see [`super::symmetry`]).
    pub symmetry: bool,
    /// Search on the calling thread only, for callers that already solve positions in
    /// parallel: a search that handed its subtrees to the pool from inside the pool's own
    /// work would stack one caller's waiting upon another's.
    pub one_thread: bool,
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
    /// Nodes generated: children whose table entries were asked for, including those the
    /// lookup then skips (a node ruled out by one child), and, where a face's quarter turns
    /// share their children's inverse (`h48`), each such inverse asked for first, which stands
    /// for two children (reports/performance-log.md).
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
    /// How many symmetries keep the position, as the search used them (1 without
    /// [`SearchLimits::symmetry`]).
    pub symmetries: usize,
    /// With [`SearchLimits::all`], how many optimal solutions the solutions stand for: each is
    /// the leader of its class of symmetric images. Otherwise the number of solutions.
    pub solutions_in_all: usize,
}

impl SearchResult {
    pub fn nodes(&self) -> u64 {
        self.iterations.iter().map(|i| i.nodes).sum()
    }
}

fn gave_up(
    status: SearchStatus,
    bound: u8,
    iterations: Vec<IterationStats>,
    symmetry: &PositionSymmetry,
) -> SearchResult {
    SearchResult {
        status,
        solutions: Vec::new(),
        iterations,
        lower_bound: u32::from(bound),
        symmetries: symmetry.order(),
        solutions_in_all: 0,
    }
}

/// Optimal 3x3 solving with the heuristic of one table family.
pub struct Solver {
    engine: Engine,
}

/// The search compiled for each family.
enum Engine {
    Korf(Box<Ida<super::heuristic::KorfHeuristic>>),
    Phase1(Box<Ida<super::heuristic::Phase1Heuristic>>),
    Ud(Box<Ida<super::heuristic::UdHeuristic>>),
    H48(Box<Ida<super::heuristic::H48Heuristic>>),
}

impl Solver {
    pub fn new(heuristic: AnyHeuristic) -> Solver {
        let engine = match heuristic {
            AnyHeuristic::Korf(h) => Engine::Korf(Box::new(Ida::new(*h))),
            AnyHeuristic::Phase1(h) => Engine::Phase1(Box::new(Ida::new(*h))),
            AnyHeuristic::Ud(h) => Engine::Ud(Box::new(Ida::new(*h))),
            AnyHeuristic::H48(h) => Engine::H48(Box::new(Ida::new(*h))),
        };
        Solver { engine }
    }

    pub fn metric(&self) -> Metric {
        match &self.engine {
            Engine::Korf(ida) => ida.heuristic.metric(),
            Engine::Phase1(ida) => ida.heuristic.metric(),
            Engine::Ud(ida) => ida.heuristic.metric(),
            Engine::H48(ida) => ida.heuristic.metric(),
        }
    }

    /// Finds an optimal solution (or all of them) for a valid position, calling `on_iteration`
    /// after each completed iteration.
    pub fn solve(
        &self,
        cube: &Cube3,
        limits: SearchLimits,
        on_iteration: impl FnMut(&IterationStats),
    ) -> Result<SearchResult, SolveError> {
        match &self.engine {
            Engine::Korf(ida) => ida.solve(cube, limits, on_iteration),
            Engine::Phase1(ida) => ida.solve(cube, limits, on_iteration),
            Engine::Ud(ida) => ida.solve(cube, limits, on_iteration),
            Engine::H48(ida) => ida.solve(cube, limits, on_iteration),
        }
    }
}

/// Prefix length at which an iteration is split into subtrees: about 40,000 of them, fine
/// enough both to balance sixteen threads and to order by density (see [`order`]; at 3 moves
/// the order gained 26% where at 4 it gained 43%), and still cheap to enumerate.
const SPLIT_DEPTH: u8 = 4;

/// The split for a position that symmetries keep: one move deeper, so that the runs the
/// symmetry judges (all but a prefix's last, unless it is complete) span four moves. The
/// superflip's complete iteration at bound 16 searched 17.5 M nodes with the first rule at four
/// moves and 10.7 M at five; without its symmetries, bound 15 alone took 63.9 M (2.05 M with
/// them, one node in 31). Of the 575,000 prefixes of five
/// moves about one in 40 remains, so the number of subtrees stays near the usual one.
const SYMMETRIC_SPLIT_DEPTH: u8 = 5;

/// A prefix's path as a key of the density map: its entries (at most eight, see
/// [`SYMMETRIC_SPLIT_DEPTH`]) a byte each, without the allocation and hashing of a `Vec` key
/// (with a `Vec`, the map and the ordering cost about 10 ms an iteration over 43,000
/// prefixes).
fn path_key(path: &[u8]) -> u64 {
    const _: () = assert!(SPLIT_DEPTH <= 8 && SYMMETRIC_SPLIT_DEPTH <= 8);
    debug_assert!(path.len() <= 8, "a prefix of {} moves", path.len());
    path.iter()
        .fold(0, |key, &entry| key << 8 | u64::from(entry))
}

/// Subtrees walked together by one walk (see [`Walk::search`]): enough that the batches near
/// their roots are full. Of a bound-16 iteration's 2.85 M nodes (position 3 of
/// benches/peers.txt), 69 each below a subtree on average, the walk took 76 ns a node one
/// subtree at a time and 60 in groups of 32; groups of 128 to 2,048 measured the same
/// (reports/performance-log.md).
const GROUP: usize = 32;

/// The groups of subtrees the threads take, from a list of subtrees in the order they are to
/// be searched: with `threads` threads, `size` places of the list a group, each group taking
/// every `threads`-th place of a band of `size x threads` places, so that the threads
/// together still take the front of the list first.
struct Groups {
    places: usize,
    size: usize,
    threads: usize,
}

impl Groups {
    fn new(places: usize, size: usize, threads: usize) -> Groups {
        Groups {
            places,
            size: size.max(1),
            threads: threads.max(1),
        }
    }

    /// The places of group `k` in the list, or `None` past the last group.
    fn get(&self, k: usize) -> Option<impl Iterator<Item = usize> + use<>> {
        let (band, lane) = (k / self.threads, k % self.threads);
        let start = band * self.size * self.threads + lane;
        let (threads, places) = (self.threads, self.places);
        (start < places).then(|| {
            (0..self.size)
                .map(move |m| start + m * threads)
                .take_while(move |&p| p < places)
        })
    }
}

/// IDA* over one heuristic.
struct Ida<H: Heuristic> {
    heuristic: H,
    canonical: Canonical,
}

impl<H: Heuristic> Ida<H> {
    fn new(heuristic: H) -> Ida<H> {
        let canonical = Canonical::new(heuristic.metric(), heuristic.moves());
        Ida {
            heuristic,
            canonical,
        }
    }

    fn solve(
        &self,
        cube: &Cube3,
        limits: SearchLimits,
        mut on_iteration: impl FnMut(&IterationStats),
    ) -> Result<SearchResult, SolveError> {
        let start = Instant::now();
        let deadline = limits.timeout.map(|t| start + t);
        let metric = self.heuristic.metric();
        // In QTM every quarter turn flips the corner permutation's parity, so solution lengths
        // have the parity of the position's corner permutation.
        let parity = u8::from(cube.corners.is_odd());
        let mut bound = self.heuristic.value(cube);
        if metric == Metric::Qtm && bound % 2 != parity {
            bound += 1;
        }
        let symmetry = if limits.symmetry {
            PositionSymmetry::of(cube)
        } else {
            PositionSymmetry::none()
        };
        let mut iterations = Vec::new();
        let mut density = HashMap::new();
        loop {
            if limits.max_length.is_some_and(|max| u32::from(bound) > max) {
                let status = SearchStatus::MaxLength;
                return Ok(gave_up(status, bound, iterations, &symmetry));
            }
            let began = Instant::now();
            let (solutions, nodes, aborted) =
                self.iteration(cube, bound, &limits, &symmetry, deadline, &mut density);
            let stats = IterationStats {
                bound: u32::from(bound),
                nodes,
                seconds: began.elapsed().as_secs_f64(),
            };
            iterations.push(stats);
            on_iteration(&stats);
            // A solution of an iteration that ran out of time is still optimal (the iterations
            // before it had none), but a set of all of them may lack some.
            if !(solutions.is_empty() || aborted && limits.all) {
                let mut moves: Vec<Vec<Move>> =
                    solutions.iter().map(|path| self.moves_of(path)).collect();
                let mut in_all = moves.len();
                if limits.all {
                    moves.retain(|s| symmetry.leads(s));
                    in_all = moves.iter().map(|s| symmetry.class_size(s)).sum();
                }
                let mut result = self.verified(cube, moves, iterations)?;
                result.symmetries = symmetry.order();
                result.solutions_in_all = in_all;
                return Ok(result);
            }
            if aborted {
                let status = SearchStatus::Timeout;
                return Ok(gave_up(status, bound, iterations, &symmetry));
            }
            bound += if metric == Metric::Qtm { 2 } else { 1 };
        }
    }

    /// The solution a path spells: its turns at the near end in order, then the inverses of
    /// those at the far end, last first (see [`super::walk::FAR_END`]).
    fn moves_of(&self, path: &[u8]) -> Vec<Move> {
        let moves = self.heuristic.moves();
        let turn = |t: u8| moves[usize::from(t & !FAR_END)];
        let near = path.iter().filter(|&&t| t & FAR_END == 0).map(|&t| turn(t));
        let far = path.iter().rev().filter(|&&t| t & FAR_END != 0);
        near.chain(far.map(|&t| turn(t).inverse())).collect()
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
                return Err(SolveError::Unverified(
                    crate::model::notation::format_moves(&solution),
                ));
            }
            solutions.push(solution);
        }
        let lower_bound = solutions.first().map_or(0, |s| metric.length(s));
        Ok(SearchResult {
            status: SearchStatus::Optimal,
            solutions_in_all: solutions.len(),
            solutions,
            iterations,
            lower_bound,
            symmetries: 1,
        })
    }

    /// One iteration at `bound`: its solutions (as turn numbers), nodes, and whether it was
    /// stopped by the deadline. `density` holds the nodes of each subtree of the previous
    /// iteration on entry, and of this one on return.
    fn iteration(
        &self,
        cube: &Cube3,
        bound: u8,
        limits: &SearchLimits,
        symmetry: &PositionSymmetry,
        deadline: Option<Instant>,
        density: &mut HashMap<u64, u64>,
    ) -> (Vec<Vec<u8>>, u64, bool) {
        let all = limits.all;
        let shared = Shared {
            bound,
            all,
            deterministic: limits.deterministic,
            dual: limits.dual,
            turn_around: limits.dual && !all && !symmetry.is_cyclic(),
            forward_prefixes: symmetry.order() > 1,
            shifts: symmetry.is_cyclic().then(|| symmetry.clone()),
            cubies: limits.dual || !self.heuristic.coords_determine_position(),
            first_found: AtomicUsize::new(usize::MAX),
            aborted: AtomicBool::new(false),
            deadline,
            cancel: limits.cancel.clone(),
        };
        let frame_count = usize::from(bound) + 1;
        let root = Node::root(
            self.heuristic.coords(cube),
            CubePair::of(cube),
            self.canonical.allowed(Canonical::ROOT),
            if limits.dual {
                self.heuristic.root_dual(cube)
            } else {
                H::Dual::default()
            },
        );
        let frames = || Frames::<H>::new(frame_count);
        let mut walk = Walk::new(&self.heuristic, &self.canonical, &shared, frames());
        let split = if symmetry.order() > 1 {
            SYMMETRIC_SPLIT_DEPTH
        } else {
            SPLIT_DEPTH
        };
        // A prefix below which every solution has a smaller symmetric image is never listed.
        let may_lead = |path: &[u8], node: &NodeOf<H>| {
            symmetry.order() == 1 || {
                let last = path.last().copied();
                let grows = last.is_some_and(|t| self.canonical.run_may_grow(node.history(), t));
                let moves = self.moves_of(path);
                symmetry.may_lead(&moves, !grows)
                    && (!symmetry.is_cyclic() || symmetry.judge_runs(&moves).is_some())
            }
        };
        let prefixes = walk.prefixes(&root, split.min(bound), &may_lead);
        let prefix_nodes = walk.nodes;
        let order = order(&prefixes, limits, density);
        // Subtrees are handed out in that order from one counter, a group at a time (see
        // [`Groups`]), so that every thread takes the most promising ones first (a parallel
        // iterator splits the list in ranges and would start the second thread halfway down it).
        let threads = if limits.one_thread {
            1
        } else {
            rayon::current_num_threads()
        };
        // A symmetric position's prefixes are judged one at a time by the walk.
        let size = if symmetry.order() > 1 { 1 } else { GROUP };
        let groups = Groups::new(order.len(), size, threads);
        let next = AtomicUsize::new(0);
        let results = Mutex::new(vec![(Vec::new(), 0u64); prefixes.len()]);
        let work = || {
            // Frames (up to a few hundred KB per depth) are made once per thread, not per subtree.
            let mut frames = frames();
            let mut roots = Vec::new();
            while let Some(members) = groups.get(next.fetch_add(1, Relaxed)) {
                let first = shared.first_found.load(Relaxed);
                roots.clear();
                roots.extend(
                    members
                        .map(|position| order[position])
                        .filter(|&index| {
                            all || !(first < index
                                || (!limits.deterministic && first != usize::MAX))
                        })
                        .map(|index| (index, &prefixes[index])),
                );
                if roots.is_empty() {
                    continue;
                }
                let mut walk = Walk::new(
                    &self.heuristic,
                    &self.canonical,
                    &shared,
                    std::mem::take(&mut frames),
                );
                walk.search(&roots);
                for &(index, _) in &walk.solutions {
                    shared.first_found.fetch_min(index, Relaxed);
                }
                frames = std::mem::take(&mut walk.frames);
                let mut results = results.lock().unwrap_or_else(|e| e.into_inner());
                for (&(index, _), &nodes) in roots.iter().zip(&walk.nodes_below) {
                    results[index].1 = nodes;
                }
                for (index, path) in walk.solutions.drain(..) {
                    results[index].0.push(path);
                }
            }
        };
        if limits.one_thread {
            work();
        } else {
            rayon::broadcast(|_| work());
        }
        let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
        density.clear();
        for (prefix, (_, nodes)) in prefixes.iter().zip(&results) {
            density.insert(path_key(&prefix.path), *nodes);
        }
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
}

/// The order to search the subtrees below `prefixes` in (indices into it): canonical order for
/// every solution or for the canonical first one; otherwise densest first, as vcube orders its
/// depth-4 subtrees. The last iteration ends at its first solution and is the longest, and a
/// subtree where the last bound let many nodes through is the likeliest to hold one.
///
/// A subtree's density is its nodes in the previous iteration (`density`, by path) per move
/// that may follow its root. The root's branching multiplies the subtree's size whether or not
/// the subtree is near a solution; dividing it out leaves the part that tells. On 31 positions
/// of lengths 16 and 17 the final iterations generated 19% fewer nodes than ordering by nodes
/// alone, and those 30–43% fewer than canonical order (reports/performance-log.md). vcube divides
/// by an estimate from the root's last face alone (√3 after U, R, F, √2 after D, L, B), which
/// gained 4 points less here; dividing by a power of the branching above 1 gained on one half
/// of the positions and lost on the other. Subtrees new to this iteration (cut off by the last
/// bound) come last.
fn order<H: Heuristic>(
    prefixes: &[Prefix<H>],
    limits: &SearchLimits,
    density: &HashMap<u64, u64>,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..prefixes.len()).collect();
    if !limits.deterministic && !limits.all {
        // Each key is computed once (a path lookup per comparison would hash n log n times).
        let keys: Vec<f64> = prefixes
            .iter()
            .map(|prefix| {
                let nodes = density.get(&path_key(&prefix.path)).copied().unwrap_or(0);
                nodes as f64 / f64::from(prefix.node.branching().max(1))
            })
            .collect();
        order.sort_by(|&a, &b| keys[b].total_cmp(&keys[a]));
    }
    order
}
