//! The last positions of a bound run, proven one at a time.
//!
//! A bound run proves every position of a coset within N moves by phase 1 to a depth and the
//! prepass from there to N (see [`super::coset`]). How deep phase 1 must go is set by the few
//! positions that arrive last: on a random coset, phase 1 to 15 and the prepass to 20 leave
//! 12,974 of the 19.5 billion positions (0.7 ppm) unproven, and phase 1's depth 16, which
//! covers them, finds 187 million sequences. The positions left can instead be proven one at a
//! time: the two-phase search finds a solution within N moves for each, and checks it by
//! applying it.
//!
//! Which is cheaper was measured on that coset (reports/coset.md): the 12,974 took 227 s of
//! two cores (about 35 ms each: they are far from solved, and a solution within 20 is rare
//! among their two-phase candidates), where phase 1's depth 16 and its prepasses take less.
//! So bound runs keep phase 1 to 16 by default, and finishing is what saves a run that still
//! leaves a few positions (a rarer coset, or `--search-depth 15`): it ends with the bound
//! proven instead of an exit status that asks for a run a depth deeper, at seven times the
//! cost of the one before.
//! Rokicki's hcoset has the same way out (`-f`, `-L`: it writes the positions it leaves unset
//! for another program to solve); here the run finishes them itself. A position the two-phase
//! search cannot prove within [`POSITION_TIMEOUT`] stays unproven and is reported as such: the
//! run never claims a bound it has not shown.

use super::twophase::{TwoPhaseLimits, TwoPhaseSolver};
use crate::model::cube::Cube3;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// The most positions a bound run proves one at a time: at about 35 ms a position (the ones
/// left are far from solved, 19 and 20 moves, where the two-phase search must look long for a
/// solution within 20), a few minutes of two cores. A run that leaves more leaves them
/// unproven, as without finishing.
pub const FINISH_AT_MOST: u64 = 20_000;

/// The most `--finish` may ask for: a million positions are 40 MB listed and about five hours
/// of two cores to prove; past it a run is better searched a depth deeper.
pub const FINISH_LIMIT: u64 = 1_000_000;

/// How long the two-phase search looks for one position's solution within the bound: far
/// longer than the 2 s the slowest of a thousand such positions took. One that runs out stays
/// unproven.
pub const POSITION_TIMEOUT: Duration = Duration::from_secs(10);

/// What finishing did.
pub struct Finished {
    /// Positions proven within the bound by the two-phase search.
    pub proven: u64,
    /// Positions it could not prove, in the order given.
    pub left: Vec<Cube3>,
}

/// Proves each of `positions` within `bound` moves by the two-phase search, in parallel;
/// `on_proven` hears how many have been proven so far. A set `stop` leaves the rest unproven.
///
/// The positions are those a run with phase 1 to `search_depth` and the prepass to `bound`
/// left: every sequence of a phase-1 part into H along the coset's axis (the positions' own
/// U-D axis) of at most `search_depth` moves, followed by moves of H to `bound` in all, was
/// marked, so no such two-phase solution exists for them and the search skips those parts. It
/// looks along the other two axes and in the inverse's three directions, where these positions
/// are as any others; skipping loses no solution, as every move sequence splits into a phase-1
/// and a phase-2 part along each axis, and is found along another.
pub fn prove_within(
    two_phase: &TwoPhaseSolver,
    positions: Vec<Cube3>,
    bound: u32,
    search_depth: u32,
    stop: &AtomicBool,
    on_proven: &(dyn Fn(u64) + Sync),
) -> Finished {
    let limits = TwoPhaseLimits {
        max_length: bound,
        budget: None,
        timeout: Some(POSITION_TIMEOUT),
        fruitless_ud_phase1: Some(search_depth),
    };
    let proven = AtomicU64::new(0);
    let left: Vec<Cube3> = positions
        .into_par_iter()
        .filter(|cube| {
            if stop.load(Relaxed) {
                return true;
            }
            // A solution found is one the search has applied and checked; an error (a damaged
            // table) proves nothing, and the position stays.
            let solved = two_phase
                .solve(cube, limits, &mut |_| {})
                .is_ok_and(|result| result.solution.is_some_and(|s| s.len() as u32 <= bound));
            if solved {
                on_proven(proven.fetch_add(1, Relaxed) + 1);
            }
            !solved
        })
        .collect();
    Finished {
        proven: proven.into_inner(),
        left,
    }
}
