//! Whole cosets of Kociemba's subgroup H = <U, D, R2, L2, F2, B2>, every position's distance at
//! once (Tomas Rokicki's coset solver, with which God's number was proven 20).
//!
//! The coset of a position `r` is the set of positions `h·r` (first `h`, then `r`) for the
//! 19,508,428,800 elements `h` of H: the positions with `r`'s phase-1 coordinate. A move
//! sequence `s` solves `h·r` exactly when `r·s = h⁻¹`, so a sequence of `d` moves that brings
//! `r` into H proves that one position of the coset is within `d` moves: the one named by the
//! element `e = r·s` it reaches. The search marks these elements in a bit set of all of H (see
//! [`crate::space::coset`]), depth by depth; the first depth at which an element is marked is
//! its position's distance.
//!
//! Two things make that cheap. Phase 1 of the two-phase method enumerates the sequences into H
//! with the exact distance into H as its guide (the `phase1-sym` table), so it walks only
//! sequences that can arrive in time. And most of those sequences need not be walked at all:
//! one that ends with a move of H reaches, one move earlier, an element already marked at the
//! depth before. So between depths the whole set is moved by H's ten moves (the prepass: the
//! new set is the old one and its ten images, a word at a time), and phase 1 enumerates only
//! the sequences whose last move is a quarter turn of R, L, F or B. On the identity coset at
//! depth 12, Rokicki counts 16.0 billion phase-1 sequences, of which 329 million end that way.
//!
//! While the set is small (under six million elements), a prepass would cost more than it
//! spares, and phase 1 looks for every sequence of the depth instead.
//!
//! Beyond the depth phase 1 searches to (`search_depth`), the prepass alone goes on: each
//! element marked then is still within that many moves, so a set that fills proves a bound on
//! the whole coset (the run God's number needed: phase 1 to 16, prepass to 20), though the
//! depths at which its last elements arrive are no longer exact distances.

use super::canonical::Canonical;
use super::coset_finish::{self, FINISH_AT_MOST};
use super::coset_gather::{BitMoves, Kernel, Parities, Source, nibble_images};
use super::coset_set::{BlockPool, CellSet};
use super::into_h::{DistanceIntoH, NearTurns, Turns, TurnsEntry, TurnsIntoH};
use super::twophase::TwoPhaseSolver;
use crate::bfs::breadth_first_near;
use crate::model::cube::{Cube3, Face, Metric};
use crate::space::coset::{
    Arrangement, CHUNK, CHUNKS, CosetSpace, ELEMENTS, MOVES, ORDERS, PERMUTATIONS, Place, SlotMove,
    in_subgroup,
};
use crate::space::phase1::{Phase1Coord, Phase1Space};
use rayon::prelude::*;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU64, AtomicUsize, fence};
use std::time::Instant;

/// Why a coset search cannot start.
#[derive(Debug, thiserror::Error)]
pub enum CosetError {
    #[error(
        "a coset search needs {needed} of memory for its bit set and the blocks a prepass recycles, and this machine has {available} available; close other programs or run it on a machine with more memory"
    )]
    NotEnoughMemory { needed: String, available: String },
    #[error("a coset search goes at most {MAX_DEPTH} moves deep, not {asked} (God's number is 20)")]
    TooDeep { asked: u32 },
    #[error("cannot reserve memory for the bit sets or the phase-1 turns: {0}")]
    Allocation(std::io::Error),
    #[error(
        "position {index} to watch is not in this coset (its phase-1 coordinate differs from the representative's)"
    )]
    NotInCoset { index: usize },
    #[error(
        "--max-depth {max_depth} is below the coset's distance into H ({reach}): no position of it is that close; ask for {reach} or more"
    )]
    BelowReach { max_depth: u32, reach: u32 },
}

/// What one run computes.
#[derive(Clone, Copy, Debug)]
pub struct CosetLimits {
    /// The last depth to reach, unless the set fills sooner.
    pub max_depth: u32,
    /// The last depth phase 1 searches; beyond it the prepass alone extends the set, and the
    /// counts are no longer exact distances (see the module's documentation).
    pub search_depth: u32,
    /// Elements in the set above which a depth starts with the prepass ([`PREPASS_FROM`]; the
    /// tests choose 0 and `u64::MAX` to check that both ways count alike).
    pub prepass_from: u64,
    /// The most positions left at `max_depth` that the run proves one at a time within it, by
    /// the two-phase search where the solver has it (see [`super::coset_finish`]); 0 for none.
    /// Only a bound run finishes: its question is whether every position is within the depth.
    pub finish: u64,
}

impl CosetLimits {
    /// Exact counts to `max_depth`.
    pub fn exact(max_depth: u32) -> CosetLimits {
        CosetLimits {
            max_depth,
            search_depth: max_depth,
            prepass_from: PREPASS_FROM,
            finish: 0,
        }
    }

    /// Every position proven within `bound`, phase 1 searching to `search_depth` at most.
    pub fn bound(bound: u32, search_depth: u32) -> CosetLimits {
        CosetLimits {
            max_depth: bound,
            search_depth: search_depth.min(bound),
            prepass_from: PREPASS_FROM,
            finish: FINISH_AT_MOST,
        }
    }

    /// Whether the run may prove its last positions one at a time (see
    /// [`super::coset_finish`]): a bound run at God's number in HTM (20, the two-phase
    /// search's metric) or above, with phase 1 stopping before the bound. Phase 1 to the bound
    /// leaves only positions farther than it; below God's number a position left may be
    /// farther, and the two-phase search would look for its solution until its time ran out.
    pub fn finishes(&self) -> bool {
        self.finish > 0
            && self.search_depth < self.max_depth
            && self.max_depth >= gods_number(Metric::Htm)
    }
}

/// One depth of a run.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct DepthCount {
    pub depth: u32,
    /// Positions first reached at this depth: their exact distance where `exact`.
    pub count: u64,
    /// Positions reached within this depth.
    pub total: u64,
    /// Whether every count up to this depth is an exact distance: phase 1 searched every depth
    /// so far, or this one's prepass filled the set after depths that were exact.
    pub exact: bool,
    /// Phase-1 sequences that reached H at this depth (each marks one element).
    pub sequences: u64,
    pub seconds: f64,
    /// Of those, the prepass's.
    pub prepass_seconds: f64,
}

/// The outcome of a run.
#[derive(Clone, Debug)]
pub struct CosetResult {
    pub depths: Vec<DepthCount>,
    /// The depth within which every position of the coset was proven, if the set filled.
    pub bound: Option<u32>,
    /// Positions not reached by the last depth, nor proven within it one at a time.
    pub unsolved: u64,
    /// Positions left by the last depth and proven within it one at a time (see
    /// [`super::coset_finish`]); they count in no depth's row.
    pub finished: u64,
    /// The first [`LISTED_UNSOLVED`] positions not reached (by their elements' order in the
    /// set), each as a position of the coset.
    pub unsolved_positions: Vec<Cube3>,
    /// For each position asked to be watched, the depth at which it was first reached (its
    /// distance, where that depth is exact), or `None` if it was not reached.
    pub watched: Vec<Option<u32>>,
}

/// The phase-1 depth a bound run searches to by default in `metric`: in HTM 16, Rokicki's
/// choice for the run that proved God's number (deeper phase-1 searches cost more than the
/// prepass they spare); in QTM 18, the least that left no position of a random coset
/// unproven at 26 (reports/coset.md: 17 left 121,925).
pub fn default_search_depth(metric: Metric) -> u32 {
    match metric {
        Metric::Htm => 16,
        Metric::Qtm => 18,
    }
}

/// Every position has a solution of this many moves in `metric`: 20 in HTM (Rokicki,
/// Kociemba, Davidson, Dethridge, 2010), 26 in QTM (Rokicki and Davidson, 2014). A bound
/// run's default.
pub fn gods_number(metric: Metric) -> u32 {
    match metric {
        Metric::Htm => 20,
        Metric::Qtm => 26,
    }
}

/// The deepest depth a run may be prefetched (God's number is 20, 26 in QTM).
pub const MAX_DEPTH: u32 = 30;

/// How many unreached positions a run lists (as positions, for `solve`).
pub const LISTED_UNSOLVED: usize = 1_000;

pub use super::coset_set::SET_BYTES;

/// The coset search over its tables.
pub struct CosetSolver {
    /// The metric whose moves the distances count (that of the `phase1-sym` table).
    metric: Metric,
    space: CosetSpace,
    /// What proves the last positions of a bound run one at a time, if the run has its tables.
    two_phase: Option<TwoPhaseSolver>,
    phase1: Phase1Space,
    turns: TurnsIntoH,
    canonical: Canonical,
    /// H's moves among the metric's turns, a bit each (by their places in `phase1.moves()`).
    h_moves: u32,
    /// H's moves that the prepass moves the set by, a bit each (by [`CosetSpace::moves`]):
    /// all ten in HTM; in QTM all but `U2` and `D2`, which two quarter turns a depth apart make.
    prepass_moves: u16,
    /// The phase-1 coordinates within [`NEAR`] moves of H, with their distances and what each
    /// move does to it: most of phase 1's nodes are this close to the end, and such a node
    /// turns only the moves that can still arrive, where another reads every child's distance.
    near: NearTurns,
    /// The prepass's kernel, the fastest this processor runs.
    kernel: Kernel,
    /// Per move of H, what it does to each nibble of a cell (see [`BitMoves::nibbles`]).
    nibbles: Vec<[[u16; 32]; 3]>,
    /// Per order of four edges, its parity (see [`CosetSpace::order_parity`]).
    order_parity: [u8; ORDERS],
    /// Per corner permutation, how many blocks a prepass fills read its block (see
    /// [`CosetSpace::sources_of`]): when they are written, it goes back to the pool.
    readers: Vec<u8>,
    /// Per phase-1 turn, what it does to the pieces' places.
    slot_moves: Vec<SlotMove>,
    /// The sets' memory, kept between runs (see [`BlockPool::reset`]): a solver that has run
    /// holds about 3.6 GB until it is dropped.
    pool: std::sync::Mutex<Option<BlockPool>>,
}

/// A solver's pool lent to one run, given back when the run ends (however it ends); a run
/// while another holds it gets a pool of its own, dropped after it.
struct PoolLoan<'s> {
    home: &'s std::sync::Mutex<Option<BlockPool>>,
    pool: Option<BlockPool>,
}

impl<'s> PoolLoan<'s> {
    /// The pool of `home` for a run on `threads` threads, reset; a new one if it holds none
    /// that fits.
    fn of(
        home: &'s std::sync::Mutex<Option<BlockPool>>,
        threads: usize,
    ) -> Result<PoolLoan<'s>, CosetError> {
        let kept = home.lock().unwrap_or_else(|e| e.into_inner()).take();
        let pool = match kept {
            Some(mut pool) if pool.fits(threads) => {
                pool.reset();
                pool
            }
            _ => BlockPool::new(threads).map_err(CosetError::Allocation)?,
        };
        Ok(PoolLoan {
            home,
            pool: Some(pool),
        })
    }

    fn pool(&self) -> &BlockPool {
        self.pool.as_ref().expect("lent until dropped")
    }
}

impl Drop for PoolLoan<'_> {
    fn drop(&mut self) {
        let mut home = self.home.lock().unwrap_or_else(|e| e.into_inner());
        if home.is_none() {
            *home = self.pool.take();
        }
    }
}

/// Elements in the set above which a depth starts with the prepass rather than a phase-1
/// search of every sequence (Rokicki's choice; a random coset passes it at depth 15).
pub const PREPASS_FROM: u64 = 6_000_000;

/// Which sequences phase 1 looks for at a depth.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// Every sequence into H: no prepass ran at this depth.
    Any,
    /// Those whose last move is not one of H's, and that do not pass through H within four
    /// moves of their end: the prepass found the rest.
    OutsideH,
}

/// How far from H [`CosetSolver::near`] reaches: in HTM 95,039 coordinates (7,803 within
/// four), a few MB that stay in the last-level cache where the 564 MB table misses.
const NEAR: u8 = 5;

/// Rokicki's rule: where the prepass ran, a node `distance` moves from H with `left` moves
/// after it is left to the prepass if `distance < left` and `distance + left < SMALL_LOOP`,
/// in either metric. A node `nd` moves
/// from H has a route `m` of `nd` moves into H, reaching an element `Y` of H `togo - nd` moves
/// before the depth ends; a tail of `togo` moves into H reaches `Y·(m⁻¹·tail)`, and where the
/// loop `m⁻¹·tail` is this short, it is an element of H at most `togo - nd` of H's own moves
/// for some route (checked move by move in this module's tests), so the prepass has marked
/// the element already.
const SMALL_LOOP: u8 = 5;

/// Whether Rokicki's rule leaves a child `distance` moves from H with `left` moves after it to
/// the prepass (see [`SMALL_LOOP`]).
#[inline]
fn left_to_prepass(ending: Ending, distance: u8, left: u8) -> bool {
    ending == Ending::OutsideH && distance < left && distance + left < SMALL_LOOP
}

/// The phase-1 coordinates within [`NEAR`] moves of H with what each turn does to them; a
/// child missing from the breadth-first search's map is one further, `NEAR + 1`.
fn near_moves(phase1: &Phase1Space) -> NearTurns {
    let (distances, _) = breadth_first_near(phase1, NEAR, &indicatif::ProgressBar::hidden());
    NearTurns::new(distances.iter().map(|(&index, &distance)| {
        let coord = Phase1Coord::from_index(index);
        let turns = Turns::of(distance, phase1.moves().len(), |turn| {
            let child = phase1.apply_coord(coord, turn).index();
            distances.get(&child).copied().unwrap_or(NEAR + 1)
        });
        (index, turns)
    }))
}

/// What a running search reports and obeys.
pub struct CosetProgress<'a> {
    /// Positions of the coset whose first depth to report (see [`CosetResult::watched`]).
    pub watch: &'a [Cube3],
    /// Called after each depth.
    pub on_depth: &'a mut dyn FnMut(&DepthCount),
    /// Set from elsewhere to stop between two steps.
    pub stop: &'a AtomicBool,
    /// Called as positions left at the last depth are proven one at a time, with how many
    /// have been so far and how many there are.
    pub on_finish: &'a (dyn Fn(u64, u64) + Sync),
}

/// Checks that a run of the coset of `representative` within `limits` can start: a depth
/// within [`MAX_DEPTH`] that the coset reaches (its distance into H read from `into_h`), and
/// memory for a set and a prepass. It needs only the distance table, so a front end checks
/// its runs before the solver's turns are built (seconds of work).
pub fn check_run(
    into_h: &DistanceIntoH,
    representative: &Cube3,
    limits: &CosetLimits,
) -> Result<(), CosetError> {
    check_depths(into_h, representative, limits)?;
    check_memory(rayon::current_num_threads())
}

/// A depth within [`MAX_DEPTH`] that the coset of `representative` reaches.
fn check_depths(
    into_h: &DistanceIntoH,
    representative: &Cube3,
    limits: &CosetLimits,
) -> Result<(), CosetError> {
    let deepest = limits.max_depth.max(limits.search_depth);
    if deepest > MAX_DEPTH {
        return Err(CosetError::TooDeep { asked: deepest });
    }
    let reach = reach_in(into_h, representative);
    if limits.max_depth < reach {
        return Err(CosetError::BelowReach {
            max_depth: limits.max_depth,
            reach,
        });
    }
    Ok(())
}

/// The depth at which the coset of `representative` is first reached: its distance into H.
fn reach_in(into_h: &DistanceIntoH, representative: &Cube3) -> u32 {
    u32::from(into_h.distance(Phase1Coord::of(representative)))
}

/// Memory for one set, and the blocks of the last one still waiting for a reader in a prepass
/// (a tenth of a set at most, see `CosetSpace::orbits`), on `threads` threads. The turns are
/// not counted: built, they are already out of the available memory; not yet, their own
/// reservation fails with `CosetError::Allocation`.
fn check_memory(threads: usize) -> Result<(), CosetError> {
    let needed = BlockPool::bytes(threads);
    if let Some(available) = crate::support::memory::available_memory()
        && available < needed
    {
        return Err(CosetError::NotEnoughMemory {
            needed: crate::support::units::human_bytes(needed),
            available: crate::support::units::human_bytes(available),
        });
    }
    Ok(())
}

impl CosetSolver {
    /// The solver over `into_h`'s table, whose turns it builds (see [`TurnsIntoH`]), in that
    /// table's metric.
    pub fn new(into_h: DistanceIntoH) -> Result<CosetSolver, CosetError> {
        let metric = into_h.metric();
        let phase1 = Phase1Space::new(metric);
        let h = CosetSpace::moves();
        let h_moves = phase1
            .moves()
            .iter()
            .enumerate()
            .filter(|(_, m)| h.contains(m))
            .fold(0, |mask, (turn, _)| mask | 1 << turn);
        // In QTM a half turn of U or D is two moves, each of which the prepass makes.
        let prepass_moves = h
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                metric == Metric::Htm
                    || !matches!(m.face(), Face::U | Face::D)
                    || metric.cost(**m) == 1
            })
            .fold(0, |mask, (turn, _)| mask | 1 << turn);
        let space = CosetSpace::new();
        let nibbles = (0..MOVES)
            .map(|turn| nibble_images([space.remap_table(turn, 0), space.remap_table(turn, 1)]))
            .collect();
        let order_parity = std::array::from_fn(|order| space.order_parity(order));
        let mut readers = vec![0u8; PERMUTATIONS];
        for corners in 0..PERMUTATIONS {
            for source in space.sources_of(corners) {
                readers[source] += 1;
            }
        }
        Ok(CosetSolver {
            readers,
            slot_moves: phase1.moves().iter().map(|&m| SlotMove::of(m)).collect(),
            metric,
            space,
            kernel: Kernel::detect(),
            nibbles,
            order_parity,
            two_phase: None,
            turns: TurnsIntoH::new(into_h, &phase1).map_err(CosetError::Allocation)?,
            near: near_moves(&phase1),
            canonical: Canonical::new(metric, phase1.moves()),
            phase1,
            h_moves,
            prepass_moves,
            pool: std::sync::Mutex::new(None),
        })
    }

    /// The solver with `two_phase` to prove the last positions of bound runs one at a time
    /// (in HTM, the two-phase search's metric; a QTM run finishes nothing).
    pub fn with_two_phase(self, two_phase: TwoPhaseSolver) -> CosetSolver {
        CosetSolver {
            two_phase: (self.metric == Metric::Htm).then_some(two_phase),
            ..self
        }
    }

    /// The metric whose moves the distances count.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The phase-1 turns the search walks by.
    pub fn turns(&self) -> &TurnsIntoH {
        &self.turns
    }

    /// The distance of `representative` into H: the depth at which its coset's first position
    /// is reached.
    pub fn reach(&self, representative: &Cube3) -> u32 {
        reach_in(self.turns.distances(), representative)
    }

    /// Checks that a run can start (see [`check_run`]); the memory for its sets only if this
    /// solver holds none from an earlier run. (Two runs at once on one solver: the second
    /// maps a pool of its own, unchecked.)
    pub fn check(&self, representative: &Cube3, limits: &CosetLimits) -> Result<(), CosetError> {
        let threads = rayon::current_num_threads();
        let held = self
            .pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|pool| pool.fits(threads));
        check_depths(self.turns.distances(), representative, limits)?;
        if held { Ok(()) } else { check_memory(threads) }
    }

    /// Runs the search on the coset of `representative` up to `limits.max_depth`, or until every
    /// position is reached.
    pub fn run(
        &self,
        representative: &Cube3,
        limits: &CosetLimits,
        progress: CosetProgress<'_>,
    ) -> Result<CosetResult, CosetError> {
        self.check(representative, limits)?;
        let start = Phase1Coord::of(representative);
        if let Some(index) = progress
            .watch
            .iter()
            .position(|q| Phase1Coord::of(q) != start)
        {
            return Err(CosetError::NotInCoset { index });
        }
        // The element e = r·q⁻¹ names the position q (see `unmarked`).
        let watched_places: Vec<Place> = progress
            .watch
            .iter()
            .map(|q| self.space.place(&representative.then(&q.inverse())))
            .collect();
        let mut watched = vec![None; watched_places.len()];
        let loan = PoolLoan::of(&self.pool, rayon::current_num_threads())?;
        let pool = loan.pool();
        let mut old = CellSet::without_blocks(pool);
        let mut new = CellSet::empty(pool);
        let mut depths = Vec::new();
        let mut total = 0u64;
        for depth in 0..=limits.max_depth {
            if progress.stop.load(Relaxed) {
                break;
            }
            let began = Instant::now();
            let previous = total;
            let prepass_began = Instant::now();
            let searched = depth <= limits.search_depth;
            // While the set is small, phase 1 finds every sequence of this depth faster than
            // a prepass moves the whole set (whose cost is that of every block with anything
            // in it); Rokicki's threshold.
            let prepass = depth > 0 && (total > limits.prepass_from || !searched);
            if prepass {
                // `new` has no blocks: the last prepass gave them all back.
                std::mem::swap(&mut old, &mut new);
                let changing = self.changing_parity(representative, depth);
                total = self.prepass(&old, &new, changing, depth == 1);
            }
            let prepass_seconds = prepass_began.elapsed().as_secs_f64();
            // A prepass that fills the set leaves phase 1 nothing to find: every element left
            // after the depth before is within this depth, so at exactly this distance where
            // the depths before were exact.
            let filled = prepass && total == ELEMENTS;
            let (sequences, marked) = if searched && !filled {
                let ending = if prepass {
                    Ending::OutsideH
                } else {
                    Ending::Any
                };
                self.mark_sequences(representative, start, depth, ending, &new, progress.stop)
            } else {
                (0, 0)
            };
            total += marked;
            let count = DepthCount {
                depth,
                count: total - previous,
                total,
                exact: depths.iter().all(|d: &DepthCount| d.exact) && (searched || filled),
                sequences,
                seconds: began.elapsed().as_secs_f64(),
                prepass_seconds,
            };
            for (seen, place) in watched.iter_mut().zip(&watched_places) {
                let word = new.word(place.cell).load(Relaxed);
                if seen.is_none() && word & place.mask() != 0 {
                    *seen = Some(depth);
                }
            }
            (progress.on_depth)(&count);
            depths.push(count);
            if total == ELEMENTS {
                break;
            }
        }
        let left = ELEMENTS - total;
        let reached_max = depths.last().is_some_and(|d| d.depth == limits.max_depth);
        let finisher = self.two_phase.as_ref().filter(|_| {
            limits.finishes()
                && reached_max
                && left > 0
                && left <= limits.finish
                && !progress.stop.load(Relaxed)
        });
        let listed = if finisher.is_some() {
            left as usize
        } else {
            LISTED_UNSOLVED
        };
        let mut unsolved_positions = if left > 0 {
            self.unmarked(&new, representative, listed)
        } else {
            Vec::new()
        };
        drop((old, new));
        // The sets' memory goes back to the solver, for its next run.
        drop(loan);
        let mut finished = 0;
        if let Some(two_phase) = finisher {
            let on_proven = |proven| (progress.on_finish)(proven, left);
            let outcome = coset_finish::prove_within(
                two_phase,
                unsolved_positions,
                limits.max_depth,
                limits.search_depth,
                progress.stop,
                &on_proven,
            );
            finished = outcome.proven;
            unsolved_positions = outcome.left;
            unsolved_positions.truncate(LISTED_UNSOLVED);
        }
        let unsolved = left - finished;
        Ok(CosetResult {
            bound: (unsolved == 0).then(|| depths.last().map_or(0, |d| d.depth)),
            depths,
            unsolved,
            finished,
            unsolved_positions,
            watched,
        })
    }

    /// The corner parity of the elements that `depth` can reach, in QTM (`None` in HTM, where
    /// every element can be reached at every depth). A quarter turn is a four-cycle of the
    /// corners, so an element reached by `depth` quarter turns from the representative `r`
    /// has `r`'s corner parity changed `depth` times.
    fn changing_parity(&self, representative: &Cube3, depth: u32) -> Option<u8> {
        (self.metric == Metric::Qtm)
            .then(|| u8::from(representative.corners.is_odd()) ^ (depth & 1) as u8)
    }

    /// Fills `new` (which has no blocks) with `old` and its images under H's moves, and gives
    /// `old`'s blocks back to the pool; returns how many elements `new` holds. Each block of
    /// `new` (one corner permutation) gathers from the blocks its elements come from, so it is
    /// written once, from a buffer that stays in cache, and nothing is marked two moves deep
    /// in one pass. The threads take the orbits of blocks in the order of
    /// [`CosetSpace::orbits`], and a block of `old` goes back to the pool when the last block
    /// that reads it is written ([`super::coset_set`]).
    ///
    /// In QTM (`changing` names the corner parity this depth reaches) the elements of the
    /// other parity are at most a depth nearer than the last depth, an even number of moves
    /// from those of this one: their blocks are copied as they are. A block of this parity
    /// gathers a quarter turn of U or D from `old` and a half turn of R, L, F or B from `old`
    /// too: the elements of this parity in `old` are at most two moves nearer, the half turn's
    /// cost. So one earlier set serves both, as in HTM.
    ///
    /// A block's own words in `old` are a source only where `keep` (the prepass into depth 1)
    /// or the block is copied: past depth 1, every element of `old` is the image under one of
    /// H's moves of another element of `old`, so its neighbours bring it back (Rokicki's
    /// hcoset reads ten sources a page, not eleven). An element a prepass made is its source's
    /// image. One phase 1 marked ends with a quarter turn of R, L, F or B, so its twin that ends
    /// with the opposite quarter turn, a half turn away and of the same length, is marked too
    /// (in QTM, `p R R` has the element of `p` a half turn away instead, two moves nearer); one
    /// whose sequence ends with a move of H has the sequence's prefix's element one move away.
    /// Only the representative itself, at depth 0 when it lies in H, has no neighbour in the
    /// set before depth 1.
    fn prepass(&self, old: &CellSet, new: &CellSet, changing: Option<u8>, keep: bool) -> u64 {
        let orbits: Vec<&[u16]> = self.space.orbits().collect();
        let readers_left: Vec<AtomicU8> = self.readers.iter().map(|&r| AtomicU8::new(r)).collect();
        let next = AtomicUsize::new(0);
        let total = AtomicU64::new(0);
        rayon::broadcast(|_| {
            let mut filled = 0;
            while let Some(orbit) = orbits.get(next.fetch_add(1, Relaxed)) {
                for &corners in *orbit {
                    let corners = usize::from(corners);
                    let (moves, keep) = match changing {
                        Some(parity) if self.space.parity(corners) != parity => (0, true),
                        _ => (self.prepass_moves, keep),
                    };
                    let count = self.gather(old, new, corners, moves, keep);
                    new.set_occupied(corners, count > 0);
                    filled += count;
                }
                for &corners in *orbit {
                    for source in self.space.sources_of(usize::from(corners)) {
                        // As `Arc` frees: every reader's reads happen before the last
                        // reader's decrement, and that before the block is handed out again.
                        if readers_left[source].fetch_sub(1, Release) == 1 {
                            fence(Acquire);
                            old.give_back(source);
                        }
                    }
                }
            }
            total.fetch_add(filled, Relaxed);
        });
        total.into_inner()
    }

    /// Gives block `corners` of `new` a block from the pool and fills it from its sources in
    /// `old` (itself if `keep`, and its images under `moves`, a bit per move of
    /// [`CosetSpace::moves`]); returns its count. A block with nothing to gather gets a zero
    /// block, unwritten. The block is filled a chunk at a time, each from its one chunk in
    /// each source ([`super::coset_gather`]), so that a chunk's reads and its writing stay in
    /// the first level of cache.
    #[inline]
    fn gather(&self, old: &CellSet, new: &CellSet, corners: usize, moves: u16, keep: bool) -> u64 {
        let space = &self.space;
        let own = old.is_occupied(corners);
        let blocks: Vec<(usize, &[AtomicU16])> = (0..MOVES)
            .filter(|turn| moves >> turn & 1 != 0)
            .map(|turn| (turn, space.corners_before(turn, corners)))
            .filter(|&(_, source)| old.is_occupied(source))
            .map(|(turn, source)| (turn, old.block(source)))
            .collect();
        if !own && blocks.is_empty() {
            new.take_empty_block(corners);
            return 0;
        }
        let (block, target) = (old.block(corners), new.take_block(corners));
        // A half turn of R, L, F or B swaps two slice edges, so a source word's slice parity is
        // its destination's flipped: read off the destination's corners and layer edges.
        let flipped = space.parity(corners) ^ 1;
        let mut count = 0u64;
        let mut sources = Vec::with_capacity(blocks.len());
        for chunk in 0..CHUNKS {
            if chunk + 1 < CHUNKS {
                self.prefetch_sources(&blocks, chunk + 1);
            }
            let cells = chunk * CHUNK..(chunk + 1) * CHUNK;
            sources.clear();
            sources.extend(blocks.iter().map(|&(turn, source)| {
                let step = space.chunk_move(turn, chunk);
                Source {
                    cells: &source[usize::from(step.source) * CHUNK..][..CHUNK],
                    step,
                    bits: (!space.keeps_slice(turn)).then(|| BitMoves {
                        tables: [space.remap_table(turn, 0), space.remap_table(turn, 1)],
                        nibbles: &self.nibbles[turn],
                    }),
                }
            }));
            let parities = Parities {
                base: flipped ^ space.chunk_parity(chunk),
                order_parity: &self.order_parity,
            };
            let own = (keep && own).then(|| &block[cells.clone()]);
            count += self.kernel.gather(&target[cells], own, &sources, parities);
        }
        count
    }

    /// Prefetches the cache lines of the half turns' source chunks of `chunk`, a chunk ahead of
    /// reading them. Those sources lie in other orbits, out of cache, and a chunk's rows are
    /// read in the move's order, not the memory's, which the processor's own prefetching does
    /// not follow: without this the vector kernel waited on their loads most of its time
    /// (2.5 s a prepass against 1.7 s). The turns of U and D read blocks of the same orbit,
    /// filled just before: asking for theirs too made 1.9 s, and two chunks ahead no better.
    #[inline]
    fn prefetch_sources(&self, blocks: &[(usize, &[AtomicU16])], chunk: usize) {
        const WORDS_PER_LINE: usize = 32;
        let far = blocks
            .iter()
            .filter(|&&(turn, _)| !self.space.keeps_slice(turn));
        for &(turn, block) in far {
            let start = usize::from(self.space.chunk_move(turn, chunk).source) * CHUNK;
            for word in (start..start + CHUNK).step_by(WORDS_PER_LINE) {
                crate::support::prefetch(block, word);
            }
        }
    }

    /// Marks in `set` the element reached by every canonical sequence of exactly `depth` moves
    /// that brings `representative` into H and ends with a move outside H (at depth 0, the
    /// representative itself if it lies in H). Returns the sequences found and the elements
    /// newly marked.
    fn mark_sequences(
        &self,
        representative: &Cube3,
        start: Phase1Coord,
        depth: u32,
        ending: Ending,
        set: &CellSet,
        stop: &AtomicBool,
    ) -> (u64, u64) {
        let distance = self.turns.distances().distance(start);
        if depth == 0 {
            if !in_subgroup(representative) {
                return (0, 0);
            }
            let mut marks = Marks::new(set);
            marks.push(self.space.place(representative));
            return (1, marks.finish());
        }
        if u32::from(distance) > depth {
            return (0, 0);
        }
        let depth = depth as u8;
        // The work is split at the sequences' first moves, as many as give every thread
        // [`TASKS_A_THREAD`] tasks: two moves (about 240 starts, 60 tasks) on a few cores,
        // three (about 3,200) on many, where 60 tasks of unequal size would leave most
        // threads waiting on the largest.
        let root = Phase1Node {
            coord: start,
            pieces: Arrangement::of(representative),
            history: Canonical::ROOT,
            turns: self.turns.turns(start),
        };
        let mut pending = Vec::new();
        let mut starts = Vec::new();
        self.children(
            std::slice::from_ref(&root),
            depth,
            ending,
            &mut pending,
            &mut starts,
        );
        let mut togo = depth - 1;
        let enough = TASKS_A_THREAD * STARTS_A_TASK * rayon::current_num_threads();
        while togo >= 2 && starts.len() < enough {
            let firsts = std::mem::take(&mut starts);
            self.children(&firsts, togo, ending, &mut pending, &mut starts);
            togo -= 1;
        }
        let marked = AtomicU64::new(0);
        let sequences: u64 = starts
            .par_chunks(STARTS_A_TASK)
            .map(|starts| {
                if stop.load(Relaxed) {
                    return 0;
                }
                let mut marks = Marks::new(set);
                let mut walk = Phase1Walk::new(self, &mut marks, ending, togo);
                walk.search(starts, togo);
                let sequences = walk.sequences;
                marked.fetch_add(marks.finish(), Relaxed);
                sequences
            })
            .sum();
        (sequences, marked.into_inner())
    }

    /// Appends to `out` each child of each of `nodes` (with `togo` moves left before them)
    /// that can still end in H after exactly `togo - 1` further moves, and whose subtree holds
    /// a sequence the prepass does not already cover. A node's turns say which children arrive
    /// in time and how far each is; each child's own turns come from the map near H or else
    /// the table. The whole batch's children are found in three rounds, each asking for what
    /// the next reads: a child's class (far from H) or map slot (near it), then its table word,
    /// then the reads. A node's own two rounds of requests would each wait a miss of the
    /// last-level cache; over a batch they overlap (reports/coset.md).
    fn children(
        &self,
        nodes: &[Phase1Node],
        togo: u8,
        ending: Ending,
        pending: &mut Vec<Pending>,
        out: &mut Vec<Phase1Node>,
    ) {
        let left = togo - 1;
        pending.clear();
        for (parent, node) in nodes.iter().enumerate() {
            let allowed = self.canonical.allowed(node.history) & node.turns.arriving(left);
            let mut allowed = allowed & self.last_turns(togo, ending, node.history);
            while allowed != 0 {
                let turn = allowed.trailing_zeros() as usize;
                allowed &= allowed - 1;
                let distance = node.turns.after(turn);
                if left_to_prepass(ending, distance, left) {
                    continue;
                }
                let coord = self.phase1.apply_coord(node.coord, turn);
                if distance > NEAR {
                    self.turns.prefetch_class(coord);
                } else {
                    self.near.prefetch(coord.index());
                }
                pending.push(Pending {
                    parent: parent as u32,
                    turn: turn as u8,
                    distance,
                    coord,
                    entry: TurnsEntry::default(),
                });
            }
        }
        for child in pending.iter_mut().filter(|child| child.distance > NEAR) {
            child.entry = self.turns.entry(child.coord);
            self.turns.prefetch_entry(child.entry);
        }
        out.extend(pending.iter().map(|child| {
            let turns = if child.distance > NEAR {
                self.turns.turns_at(child.entry)
            } else {
                self.near_turns(child.coord)
            };
            let node = &nodes[child.parent as usize];
            let turn = usize::from(child.turn);
            Phase1Node {
                coord: child.coord,
                pieces: node.pieces.then(&self.slot_moves[turn]),
                history: Canonical::after(node.history, turn),
                turns,
            }
        }));
    }

    /// The turns that may be a sequence's last (`togo` = 1) after `history`: where the
    /// prepass ran, those outside H, and in QTM not the second quarter turn of a half turn
    /// (`R R`: the sequence reached H two moves earlier, and the prepass moved that element by
    /// `R2`). Below the root, a node one move from the end is one move from H in HTM
    /// (Rokicki's rule keeps none in H), and no move of H leaves H; the root of a depth-1 run
    /// may lie in H.
    #[inline]
    fn last_turns(&self, togo: u8, ending: Ending, history: usize) -> u32 {
        if togo != 1 || ending != Ending::OutsideH {
            return u32::MAX;
        }
        match (self.metric, history) {
            (Metric::Qtm, 1..) => !self.h_moves & !(1 << ((history - 1) / 2)),
            _ => !self.h_moves,
        }
    }

    /// The turns of a coordinate within [`NEAR`] moves of H. The map holds every one of them;
    /// the table answers for any it might lack.
    #[inline]
    fn near_turns(&self, coord: Phase1Coord) -> Turns {
        let near = self.near.get(coord.index());
        debug_assert!(near.is_some(), "{coord:?} is within {NEAR} moves of H");
        near.unwrap_or_else(|| self.turns.turns(coord))
    }

    /// Up to `limit` positions of the coset whose elements `set` lacks.
    fn unmarked(&self, set: &CellSet, representative: &Cube3, limit: usize) -> Vec<Cube3> {
        let mut positions = Vec::new();
        for (cell, word) in set.words().enumerate() {
            let word = word.load(Relaxed);
            if word == 0xfff {
                continue;
            }
            for bit in 0..12u8 {
                if word >> bit & 1 == 0 {
                    let element = self.space.element(Place {
                        cell: cell as u32,
                        bit,
                    });
                    // The element e = r·s names the position e⁻¹·r.
                    positions.push(element.inverse().then(representative));
                    if positions.len() == limit {
                        return positions;
                    }
                }
            }
        }
        positions
    }
}

/// A phase-1 node: its coordinate, where its pieces are (to name the element of H a sequence
/// reaches), its canonical history and its turns.
#[derive(Clone, Copy)]
struct Phase1Node {
    coord: Phase1Coord,
    pieces: Arrangement,
    history: usize,
    turns: Turns,
}

/// Marks waiting for their cells' cache lines. Places are gathered [`Marks::BATCH`] at a time;
/// a full batch's lines are prefetched back to back and its marks made when the next batch is
/// full, so that the misses of a whole batch overlap. A prefetch here holds the processor until
/// its line is on its way: asked one mark at a time among the walk's work, each waited in turn
/// (reports/coset.md).
struct Marks<'a> {
    set: &'a CellSet<'a>,
    /// The batch whose lines were prefetched.
    asked: [Place; Marks::BATCH],
    prefetched_count: usize,
    /// The batch being gathered.
    gathering: [Place; Marks::BATCH],
    gathered: usize,
    newly: u64,
}

impl<'a> Marks<'a> {
    const BATCH: usize = 16;

    fn new(set: &'a CellSet<'a>) -> Marks<'a> {
        let none = [Place { cell: 0, bit: 0 }; Marks::BATCH];
        Marks {
            set,
            asked: none,
            prefetched_count: 0,
            gathering: none,
            gathered: 0,
            newly: 0,
        }
    }

    #[inline]
    fn push(&mut self, place: Place) {
        self.gathering[self.gathered] = place;
        self.gathered += 1;
        if self.gathered == Marks::BATCH {
            self.turn_over();
        }
    }

    /// Makes the asked batch's marks, then prefetches the gathered batch's lines.
    #[inline]
    fn turn_over(&mut self) {
        for i in 0..self.prefetched_count {
            self.mark(self.asked[i]);
        }
        for place in &self.gathering[..self.gathered] {
            self.set.prefetch(place.cell);
        }
        std::mem::swap(&mut self.asked, &mut self.gathering);
        self.prefetched_count = self.gathered;
        self.gathered = 0;
    }

    #[inline]
    fn mark(&mut self, place: Place) {
        let before = self.set.word(place.cell).fetch_or(place.mask(), Relaxed);
        if before & place.mask() == 0 {
            self.newly += 1;
            self.set
                .set_occupied(place.cell as usize / PERMUTATIONS, true);
        }
    }

    /// Makes the marks still waiting; returns how many elements were new.
    fn finish(mut self) -> u64 {
        self.turn_over();
        self.turn_over();
        self.newly
    }
}

/// A child that [`CosetSolver::children`] has found and prefetched, not yet read: its parent's
/// place in the batch, its turn, distance and coordinate, and (far from H) where its turns are.
#[derive(Clone, Copy)]
struct Pending {
    parent: u32,
    turn: u8,
    distance: u8,
    coord: Phase1Coord,
    entry: TurnsEntry,
}

/// Nodes a batch of phase 1 expands together: enough that a batch's requests keep the
/// processor's misses in flight, few enough that its nodes stay in the first-level cache.
const BATCH: usize = 64;

/// The sequences' starts (after their first moves) a task of the parallel walk takes.
const STARTS_A_TASK: usize = 4;

/// Tasks of the parallel walk a thread should have at least, so that threads that finish
/// early find more work.
const TASKS_A_THREAD: usize = 8;

/// One thread's walk of phase 1 below some nodes, depth first a batch of nodes at a time: the
/// children of a batch are found together, then walked a batch at a time.
struct Phase1Walk<'s, 'm, 'c> {
    solver: &'s CosetSolver,
    marks: &'m mut Marks<'c>,
    ending: Ending,
    sequences: u64,
    /// Per number of moves left, the children being walked there (kept to spare allocations).
    levels: Vec<Vec<Phase1Node>>,
    pending: Vec<Pending>,
}

impl<'s, 'm, 'c> Phase1Walk<'s, 'm, 'c> {
    fn new(
        solver: &'s CosetSolver,
        marks: &'m mut Marks<'c>,
        ending: Ending,
        togo: u8,
    ) -> Phase1Walk<'s, 'm, 'c> {
        Phase1Walk {
            solver,
            marks,
            ending,
            sequences: 0,
            levels: vec![Vec::new(); usize::from(togo)],
            pending: Vec::new(),
        }
    }

    /// Walks `nodes`, with exactly `togo` moves left after each.
    fn search(&mut self, nodes: &[Phase1Node], togo: u8) {
        let solver = self.solver;
        if togo == 0 {
            for node in nodes {
                self.sequences += 1;
                self.marks.push(solver.space.place_of(&node.pieces));
            }
            return;
        }
        if togo == 1 {
            // The last turns: those that arrive in H. No child of theirs is read.
            for node in nodes {
                let mut last = solver.canonical.allowed(node.history)
                    & node.turns.arriving(0)
                    & solver.last_turns(1, self.ending, node.history);
                while last != 0 {
                    let turn = last.trailing_zeros() as usize;
                    last &= last - 1;
                    let reached = node.pieces.then(&solver.slot_moves[turn]);
                    self.sequences += 1;
                    self.marks.push(solver.space.place_of(&reached));
                }
            }
            return;
        }
        let level = usize::from(togo) - 1;
        let mut children = std::mem::take(&mut self.levels[level]);
        children.clear();
        solver.children(nodes, togo, self.ending, &mut self.pending, &mut children);
        for batch in children.chunks(BATCH) {
            self.search(batch, togo - 1);
        }
        self.levels[level] = children;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cube::{Face, Move};
    use std::collections::HashMap;

    /// The elements of H within `depth` of H's own moves, with their lengths in them, a half
    /// turn counting as `metric` counts it.
    fn lengths_in_h(metric: Metric, depth: u8) -> HashMap<Cube3, u8> {
        let mut lengths = HashMap::from([(Cube3::SOLVED, 0)]);
        let mut by_length = vec![vec![Cube3::SOLVED]];
        for length in 1..=depth {
            let mut next = Vec::new();
            for &m in &CosetSpace::moves() {
                let cost = metric.cost(m) as u8;
                let Some(from) = length.checked_sub(cost) else {
                    continue;
                };
                for cube in &by_length[usize::from(from)] {
                    let child = cube.apply(m);
                    lengths.entry(child).or_insert_with(|| {
                        next.push(child);
                        length
                    });
                }
            }
            by_length.push(next);
        }
        lengths
    }

    /// The canonical sequences of `length` moves of `metric`.
    fn sequences(metric: Metric, length: u8) -> Vec<Vec<Move>> {
        let moves = metric.generators(&Face::ALL);
        let canonical = Canonical::new(metric, &moves);
        let mut found = vec![(Vec::new(), Canonical::ROOT)];
        for _ in 0..length {
            found = found
                .into_iter()
                .flat_map(|(sequence, history)| {
                    let allowed = canonical.allowed(history);
                    moves
                        .iter()
                        .enumerate()
                        .filter(move |(turn, _)| allowed >> turn & 1 != 0)
                        .map(move |(turn, &m)| {
                            let mut longer = sequence.clone();
                            longer.push(m);
                            (longer, Canonical::after(history, turn))
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
        }
        found.into_iter().map(|(sequence, _)| sequence).collect()
    }

    /// Checks Rokicki's rule ([`SMALL_LOOP`]) in `metric`, move by move, and returns how many
    /// tails it checked. A node `nd` moves from H is `X·n` for an
    /// element X of H and `n` the identity (`nd` = 0) or a quarter turn of R, L, F or B
    /// (`nd` = 1); its routes into H are the turns `m` with `n·m` in H. The tail `rest` of
    /// `togo` moves that phase 1 would walk (its last move outside H and, in QTM, not the
    /// second quarter turn of a half turn) reaches `X·n·rest`, which is `Y·(m⁻¹·rest)` for the
    /// element `Y = X·n·m` reached `togo - nd` moves earlier. Wherever the rule skips, some
    /// route makes `m⁻¹·rest` at most `togo - nd` of H's moves, so the prepass has the element
    /// already. From `nd` = 2 on, no `togo` both exceeds `nd` and keeps the loop short.
    fn check_rule(metric: Metric) -> usize {
        let in_h = lengths_in_h(metric, SMALL_LOOP - 1);
        let h_moves = CosetSpace::moves();
        let walked_last = |rest: &[Move]| match rest {
            [.., before, last] if metric == Metric::Qtm && before == last => false,
            [.., last] => !h_moves.contains(last),
            [] => false,
        };
        let quarter_turns: Vec<Move> = Move::all()
            .filter(|m| !h_moves.contains(m) && !matches!(m.face(), Face::U | Face::D))
            .collect();
        assert_eq!(quarter_turns.len(), 8);
        let nodes = std::iter::once((0u8, Cube3::SOLVED))
            .chain(quarter_turns.iter().map(|&q| (1, Cube3::of_move(q))));
        let mut checked = 0;
        for (nd, node) in nodes {
            let routes: Vec<Cube3> = match nd {
                0 => vec![Cube3::SOLVED],
                _ => metric
                    .generators(&Face::ALL)
                    .into_iter()
                    .filter(|&m| in_subgroup(&node.apply(m)))
                    .map(|m| Cube3::of_move(m.inverse()))
                    .collect(),
            };
            for togo in 0..SMALL_LOOP {
                if !left_to_prepass(Ending::OutsideH, nd, togo) {
                    continue;
                }
                for rest in sequences(metric, togo) {
                    if !walked_last(&rest) || !in_subgroup(&node.apply_all(&rest)) {
                        continue;
                    }
                    let shortest = routes
                        .iter()
                        .filter_map(|route_inverse| in_h.get(&route_inverse.apply_all(&rest)))
                        .min();
                    assert!(
                        shortest.is_some_and(|&l| l <= togo - nd),
                        "{metric}: {nd} {rest:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(!left_to_prepass(Ending::OutsideH, 2, 3));
        assert!(!left_to_prepass(Ending::Any, 0, 2));
        checked
    }

    /// Rokicki's rule in HTM: only `R2 L` and `R2 L'` from the nodes a quarter turn of L from
    /// H, and `F2 B`, `F2 B'` from B's, close so short a loop. In QTM the same eight loops
    /// (`R R L`, ...), as long as a half turn of R costs there; a loop of five would take in
    /// nodes two moves from H, which the rule's argument does not cover.
    #[test]
    fn loops_the_rule_skips_are_short_in_h() {
        assert_eq!(check_rule(Metric::Htm), 8, "loops checked in HTM");
        assert_eq!(check_rule(Metric::Qtm), 8, "loops checked in QTM");
    }
}
