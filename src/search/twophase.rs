//! Kociemba's two-phase method: a short solution in milliseconds, shorter ones the longer it
//! searches.
//!
//! Phase 1 searches, by iterative deepening, for move sequences that bring the position into
//! H = <U, D, R2, L2, F2, B2>; phase 2 solves each position so reached with H's ten moves. The
//! phase-1 table holds the exact distance into H, so phase 1 walks only sequences that stay on
//! shortest paths into H at each depth; the phase-2 tables bound what is left. Every solution
//! is found as a phase-1 part of `d1` moves whose last move leaves H's moves (else a shorter
//! phase-1 part and a longer phase 2 spell it), then the shortest phase 2 within the length
//! still allowed. Phase-1 lengths grow from the position's distance into H, so the first
//! solution comes from a short phase 1 and a phase 2 that fits.
//!
//! The position is searched in six directions at once: along each of the three axes (the
//! position seen through a rotation that brings that axis to U-D) and for its inverse, each
//! phase-1 length tried in every direction before the next. A position far from H along one
//! axis may be near along another, and a solution of the inverse, read backwards and inverted,
//! solves the position (Kociemba's and Herbert Kociemba's later solver's choice).
//!
//! With a time budget the search goes on after the first solution, asking each phase 2 for one
//! move fewer than the best so far. Once the phase-1 length reaches the best length in every
//! direction, no shorter solution exists: the search has proven the best optimal.

use super::SolveError;
use super::canonical::Canonical;
use super::heuristic::{Entries, missing_tables, open_table};
use super::into_h::DistanceIntoH;
use crate::catalogue::{TableId, TableKind};
use crate::model::cube::{Cube3, Face, Metric, Move, Rotation};
use crate::space::phase1::{Phase1Coord, Phase1Space};
use crate::space::twophase::{
    LAYER_EDGES, Phase2SliceSpace, SymProduct, corner_permutation, layer_edges, phase2_moves,
    slice_order,
};
use crate::table::{Table, TableError};
use std::path::Path;
use std::time::{Duration, Instant};

/// The most moves a solution may have: every position has one of 20, and a phase-1 part of
/// more than 12 is never needed; the search's path arrays hold this many.
pub const MAX_LENGTH: u32 = 40;
/// Phase-1 nodes between two looks at the clock.
const CLOCK_INTERVAL: u64 = 1 << 12;
/// The directions: three axes, each for the position and for its inverse.
const DIRECTIONS: usize = 6;

/// What to search for.
#[derive(Clone, Copy, Debug)]
pub struct TwoPhaseLimits {
    /// Solutions longer than this are not wanted.
    pub max_length: u32,
    /// Keep improving for this long after the search starts (if a solution within
    /// `max_length` has been found by then), instead of stopping at the first.
    pub budget: Option<Duration>,
    /// Give up after this long, with the best solution found so far, if any.
    pub timeout: Option<Duration>,
    /// Phase-1 parts of at most this many moves that need not be tried along the position's
    /// own U-D axis, because none leads to a solution within `max_length`: a coset search has
    /// shown it for the positions it leaves (see [`super::coset_finish`]). Along that axis the
    /// phase-1 parts are the coset's own sequences into H, millions of them at 14 and 15
    /// moves, each with a phase 2 that must fail.
    pub fruitless_ud_phase1: Option<u32>,
}

impl Default for TwoPhaseLimits {
    fn default() -> Self {
        TwoPhaseLimits {
            max_length: 20,
            budget: None,
            timeout: None,
            fruitless_ud_phase1: None,
        }
    }
}

/// A solution better than those before it.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Improvement {
    pub length: u32,
    /// Moves of its phase-1 part (in the direction it was found in).
    pub phase1: u32,
    pub seconds: f64,
}

/// How a two-phase search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TwoPhaseStatus {
    /// A solution within the maximum length; maybe not the shortest.
    Found,
    /// The search ran to its end: the solution is optimal (or none is within the maximum).
    Optimal,
    /// Out of time before any solution within the maximum length.
    Timeout,
    /// The search ran to its end without a solution within the maximum length.
    MaxLength,
}

#[derive(Clone, Debug)]
pub struct TwoPhaseResult {
    pub status: TwoPhaseStatus,
    pub solution: Option<Vec<Move>>,
    pub improvements: Vec<Improvement>,
    /// Phase-1 nodes generated (children whose distance into H was read).
    pub phase1_nodes: u64,
    /// Phase-2 nodes generated.
    pub phase2_nodes: u64,
}

/// The raw phase-2 coordinates of a position within H.
#[derive(Clone, Copy)]
struct Phase2Coord {
    corners: u16,
    edges: u16,
    slice: u8,
}

/// Half-turn moves, numbered as [`Move::index`]; phase 2 uses those in [`PHASE2`].
const HTM_MOVES: usize = Move::COUNT;

/// The two-phase solver over its mapped tables.
pub struct TwoPhaseSolver {
    canonical: Canonical,
    phase1_moves: Phase1Space,
    phase2_index: SymProduct,
    /// The corner and slice-order move tables (those the `phase2-slice` table was built with).
    slice_space: Phase2SliceSpace,
    /// Per U/D-edge permutation and phase-2 turn (0..10, as for [`phase2_moves`]), the
    /// permutation after it.
    edge_moves: Vec<u16>,
    /// The half-turn move numbers of H's moves, a bit each.
    phase2_mask: u32,
    /// Per half-turn move number, its phase-2 turn number (for H's moves).
    phase2_turn: [u8; HTM_MOVES],
    /// Per direction: the rotation, and per move seen through it, the move it stands for.
    rotations: [(Rotation, [Move; HTM_MOVES]); 3],
    into_h: DistanceIntoH,
    phase2: Entries,
    phase2_slice: Entries,
    // The mappings the entries read; declared last, dropped after them.
    _tables: [Table; 2],
}

impl TwoPhaseSolver {
    /// Maps the two-phase tables from `dir` (a missing one is an error naming the command that
    /// builds them) and builds the small move tables.
    pub fn open(dir: &Path) -> Result<TwoPhaseSolver, TableError> {
        missing_tables(dir, Metric::Htm, TableKind::Phase1Sym)?;
        let [phase1, phase2, phase2_slice] =
            TableKind::TWO_PHASE.map(|kind| open_table(dir, TableId::new(kind, Metric::Htm)));
        let tables = [phase2?, phase2_slice?];
        let moves = phase2_moves();
        let mut phase2_turn = [0u8; HTM_MOVES];
        for (turn, m) in moves.iter().enumerate() {
            phase2_turn[m.index()] = turn as u8;
        }
        let rotations = [Rotation::IDENTITY, Rotation::x(), Rotation::z()].map(|r| {
            let back = std::array::from_fn(|i| {
                let seen = Move::from_index(i).unwrap_or(Move::new(Face::U, 1));
                Move::all().find(|&m| r.map_move(m) == seen).unwrap_or(seen)
            });
            (r, back)
        });
        let htm = Metric::Htm.generators(&Face::ALL);
        // The classes take a few tenths of a second each; they are found side by side.
        let (phase1_index, phase2_index) = rayon::join(SymProduct::phase1, SymProduct::phase2);
        Ok(TwoPhaseSolver {
            canonical: Canonical::new(Metric::Htm, &htm),
            phase1_moves: Phase1Space::new(Metric::Htm),
            into_h: DistanceIntoH::of(phase1?, phase1_index, Metric::Htm),
            phase2_index,
            slice_space: Phase2SliceSpace::new(),
            edge_moves: LAYER_EDGES.move_table(&moves),
            phase2_mask: moves.iter().fold(0, |mask, m| mask | 1 << m.index()),
            phase2_turn,
            rotations,
            phase2: Entries::of(&tables[0]),
            phase2_slice: Entries::of(&tables[1]),
            _tables: tables,
        })
    }

    /// The exact number of moves from a phase-1 coordinate into H.
    #[inline(always)]
    fn phase1_distance(&self, c: Phase1Coord) -> u8 {
        self.into_h.distance(c)
    }

    /// A lower bound on the phase-2 moves that solve a position of H.
    #[inline(always)]
    fn phase2_bound(&self, c: Phase2Coord) -> u8 {
        let edges = self
            .phase2
            .byte(self.phase2_index.index(c.corners.into(), c.edges.into()));
        let slice = self
            .phase2_slice
            .nibble(Phase2SliceSpace::index(c.corners.into(), c.slice.into()));
        edges.max(slice)
    }

    /// A solution of `cube` within `limits` (see [`TwoPhaseLimits`]), checked by applying it;
    /// `on_improvement` hears of each solution shorter than the ones before it.
    pub fn solve(
        &self,
        cube: &Cube3,
        limits: TwoPhaseLimits,
        on_improvement: &mut dyn FnMut(&Improvement),
    ) -> Result<TwoPhaseResult, SolveError> {
        let started = Instant::now();
        let max_length = limits.max_length.min(MAX_LENGTH);
        let inverse = cube.inverse();
        let starts: [Cube3; DIRECTIONS] = std::array::from_fn(|dir| {
            let (rotation, _) = &self.rotations[dir % 3];
            rotation.conjugate(if dir < 3 { cube } else { &inverse })
        });
        let mut run = Run {
            started,
            budget_end: limits.budget.map(|b| started + b),
            timeout_end: limits.timeout.map(|t| started + t),
            next_clock: CLOCK_INTERVAL,
            best: max_length + 1,
            solution: None,
            improvements: Vec::new(),
            on_improvement,
            direction: 0,
            phase1_length: 0,
            start: *cube,
            path: [Move::new(Face::U, 1); MAX_LENGTH as usize],
            phase2_path: [Move::new(Face::U, 1); MAX_LENGTH as usize],
            phase1_nodes: 0,
            phase2_nodes: 0,
            stopped: false,
        };
        let coords = starts.map(|c| Phase1Coord::of(&c));
        let distances = coords.map(|c| self.phase1_distance(c));
        'lengths: for phase1_length in 0..=max_length {
            for dir in 0..DIRECTIONS {
                if phase1_length >= run.best || run.stopped {
                    break 'lengths;
                }
                let fruitless = dir == 0
                    && limits
                        .fruitless_ud_phase1
                        .is_some_and(|l| phase1_length <= l);
                if u32::from(distances[dir]) > phase1_length || fruitless {
                    continue;
                }
                run.direction = dir;
                run.phase1_length = phase1_length;
                run.start = starts[dir];
                self.phase1(
                    &mut run,
                    coords[dir],
                    distances[dir],
                    phase1_length as u8,
                    0,
                    Canonical::ROOT,
                );
            }
        }
        let status = match (&run.solution, run.stopped) {
            (Some(_), false) => TwoPhaseStatus::Optimal,
            (Some(_), true) => TwoPhaseStatus::Found,
            (None, false) => TwoPhaseStatus::MaxLength,
            (None, true) => TwoPhaseStatus::Timeout,
        };
        if let Some(moves) = &run.solution
            && !cube.apply_all(moves).is_solved()
        {
            return Err(SolveError::Unverified(
                crate::model::notation::format_moves(moves),
            ));
        }
        Ok(TwoPhaseResult {
            status,
            solution: run.solution,
            improvements: run.improvements,
            phase1_nodes: run.phase1_nodes,
            phase2_nodes: run.phase2_nodes,
        })
    }

    /// Phase 1 below a node at `c`, `distance` moves from H, with exactly `togo` moves to go and
    /// `depth` made (`run.path[..depth]`, `history` for the canonical order).
    fn phase1(
        &self,
        run: &mut Run,
        c: Phase1Coord,
        distance: u8,
        togo: u8,
        depth: usize,
        history: usize,
    ) {
        if togo == 0 {
            // In H (`distance` is 0): the phase-1 part is complete.
            self.phase2_from(run, depth, history);
            return;
        }
        if run.phase1_nodes >= run.next_clock {
            run.next_clock = run.phase1_nodes + CLOCK_INTERVAL;
            run.check_clock();
            if run.stopped {
                return;
            }
        }
        let mut allowed = self.canonical.allowed(history);
        // The last phase-1 move leaves H's moves: a part ending in one of them is a shorter part
        // followed by a longer phase 2, searched there. Within H, with fewer than five moves to
        // go, no sequence can leave H and come back (tested: none of three moves or fewer whose
        // last move is not H's lies in H), so H's moves are not tried either.
        if togo == 1 || distance == 0 && togo < 5 {
            allowed &= !self.phase2_mask;
        }
        while allowed != 0 {
            let turn = allowed.trailing_zeros() as usize;
            allowed &= allowed - 1;
            let child = self.phase1_moves.apply_coord(c, turn);
            let child_distance = self.phase1_distance(child);
            run.phase1_nodes += 1;
            if child_distance >= togo {
                continue;
            }
            run.path[depth] = HTM[turn];
            self.phase1(
                run,
                child,
                child_distance,
                togo - 1,
                depth + 1,
                Canonical::after(history, turn),
            );
            if run.stopped {
                return;
            }
        }
    }

    /// Phase 2 from the position the phase-1 part `run.path[..phase1_length]` reaches: the
    /// shortest solution in H's moves that makes a whole solution shorter than the best.
    fn phase2_from(&self, run: &mut Run, phase1_length: usize, history: usize) {
        let Some(limit) = (run.best as usize).checked_sub(phase1_length + 1) else {
            return;
        };
        let cube = run.start.apply_all(&run.path[..phase1_length]);
        let c = Phase2Coord {
            corners: corner_permutation(&cube) as u16,
            edges: layer_edges(&cube) as u16,
            slice: slice_order(&cube) as u8,
        };
        let bound = usize::from(self.phase2_bound(c));
        for length in bound..=limit {
            if self.phase2(run, c, length as u8, 0, history) {
                run.found(phase1_length, length, &self.rotations[run.direction % 3].1);
                return;
            }
        }
    }

    /// Whether some sequence of exactly `togo` of H's moves solves the position at `c`; if so it
    /// is in `run.phase2_path[depth..]`.
    fn phase2(
        &self,
        run: &mut Run,
        c: Phase2Coord,
        togo: u8,
        depth: usize,
        history: usize,
    ) -> bool {
        if togo == 0 {
            return c.corners == 0 && c.edges == 0 && c.slice == 0;
        }
        let mut allowed = self.canonical.allowed(history) & self.phase2_mask;
        while allowed != 0 {
            let turn = allowed.trailing_zeros() as usize;
            allowed &= allowed - 1;
            let t = usize::from(self.phase2_turn[turn]);
            let child = Phase2Coord {
                corners: self.slice_space.move_corners(c.corners, t),
                edges: self.edge_moves[usize::from(c.edges) * PHASE2_MOVES + t],
                slice: self.slice_space.move_slice(c.slice, t),
            };
            run.phase2_nodes += 1;
            if self.phase2_bound(child) >= togo {
                continue;
            }
            run.phase2_path[depth] = HTM[turn];
            if self.phase2(
                run,
                child,
                togo - 1,
                depth + 1,
                Canonical::after(history, turn),
            ) {
                return true;
            }
        }
        false
    }
}

/// H's moves: U U2 U' D D2 D' R2 L2 F2 B2.
const PHASE2_MOVES: usize = 10;

/// The half-turn moves by number.
const HTM: [Move; HTM_MOVES] = {
    let mut moves = [Move::new(Face::U, 1); HTM_MOVES];
    let mut i = 0;
    while i < HTM_MOVES {
        moves[i] = Move::new(Face::ALL[i / 3], (i % 3) as u8 + 1);
        i += 1;
    }
    moves
};

/// One search's state.
struct Run<'a> {
    started: Instant,
    budget_end: Option<Instant>,
    timeout_end: Option<Instant>,
    /// Phase-1 node count at which to look at the clock next.
    next_clock: u64,
    /// Solutions must be shorter than this: one more than the maximum length, then the best
    /// length found.
    best: u32,
    /// The best solution, of the position itself.
    solution: Option<Vec<Move>>,
    improvements: Vec<Improvement>,
    on_improvement: &'a mut dyn FnMut(&Improvement),
    /// The direction searched (see [`DIRECTIONS`]), its phase-1 length and start position.
    direction: usize,
    phase1_length: u32,
    start: Cube3,
    path: [Move; MAX_LENGTH as usize],
    phase2_path: [Move; MAX_LENGTH as usize],
    phase1_nodes: u64,
    phase2_nodes: u64,
    /// Out of time, or content: the search unwinds.
    stopped: bool,
}

impl Run<'_> {
    /// Stops the search at the timeout, or at the end of the budget once a solution is known.
    fn check_clock(&mut self) {
        let now = Instant::now();
        let timed_out = self.timeout_end.is_some_and(|end| now >= end);
        let budget_spent = self.budget_end.is_some_and(|end| now >= end);
        self.stopped |= timed_out || budget_spent && self.solution.is_some();
    }

    /// Records the solution of `phase1_length + phase2_length` moves in the paths, as a
    /// solution of the position: each move taken back through the direction's rotation
    /// (`back`), and for the inverse's directions the whole read backwards and inverted.
    fn found(&mut self, phase1_length: usize, phase2_length: usize, back: &[Move; HTM_MOVES]) {
        let seen = self.path[..phase1_length]
            .iter()
            .chain(&self.phase2_path[..phase2_length]);
        let mut moves: Vec<Move> = seen.map(|m| back[m.index()]).collect();
        if self.direction >= 3 {
            moves = moves.iter().rev().map(|m| m.inverse()).collect();
        }
        self.best = moves.len() as u32;
        self.solution = Some(moves);
        let improvement = Improvement {
            length: self.best,
            phase1: self.phase1_length,
            seconds: self.started.elapsed().as_secs_f64(),
        };
        (self.on_improvement)(&improvement);
        self.improvements.push(improvement);
        if self.budget_end.is_none() {
            self.stopped = true;
        } else {
            self.check_clock();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What lets phase 1 skip H's moves with fewer than five moves to go from a position of H:
    /// no canonical sequence of one to three moves whose last move is not one of H's lies in H,
    /// so none of the skipped branches could end phase 1 there.
    #[test]
    fn no_short_sequence_leaves_h_and_returns() {
        let canonical = Canonical::new(Metric::Htm, &HTM);
        let phase2_mask = phase2_moves()
            .iter()
            .fold(0u32, |mask, m| mask | 1 << m.index());
        let goal = Phase1Coord::of(&Cube3::SOLVED);
        let mut found = Vec::new();
        let mut stack = vec![(Cube3::SOLVED, Canonical::ROOT, Vec::<Move>::new())];
        while let Some((cube, history, moves)) = stack.pop() {
            if moves.len() == 3 {
                continue;
            }
            let mut allowed = canonical.allowed(history);
            while allowed != 0 {
                let turn = allowed.trailing_zeros() as usize;
                allowed &= allowed - 1;
                let next = cube.apply(HTM[turn]);
                let mut path = moves.clone();
                path.push(HTM[turn]);
                if phase2_mask & 1 << turn == 0 && Phase1Coord::of(&next) == goal {
                    found.push(path.clone());
                }
                stack.push((next, Canonical::after(history, turn), path));
            }
        }
        assert!(found.is_empty(), "{found:?}");
        // Five moves can: with five to go, H's moves are tried.
        let five = crate::model::notation::parse_moves("R L' U2 R' L").unwrap();
        assert_eq!(Phase1Coord::of(&Cube3::from_moves(&five)), goal);
    }
}
