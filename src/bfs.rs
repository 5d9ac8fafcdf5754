//! The one breadth-first engine: it fills a table of distances over any ranked state space.
//!
//! Distances are packed two to a byte (4 bits each, `0xF` = not yet reached) in atomic bytes, and
//! each depth is one parallel pass over the whole table. A pass either expands the frontier
//! (states at depth `d` mark their unreached neighbours `d + 1`) or, once the frontier outnumbers
//! the states still unreached, scans the unreached states for a neighbour at depth `d`; the second
//! avoids touching every neighbour of a huge frontier when few states are left to find.

pub use crate::space::{MoveSpace, StateSpace};
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// Marks a state not yet reached while the search runs (and unreachable after it).
pub const UNREACHED: u8 = 0xF;
/// Largest depth a 4-bit entry holds.
pub const MAX_DEPTH: usize = 14;

/// Distances of every state, two 4-bit entries per byte (entry `i` in the low nibble of byte
/// `i / 2` when `i` is even), and how many states lie at each depth.
pub struct BfsOutcome {
    pub packed: Vec<u8>,
    pub histogram: Vec<u64>,
}

#[derive(Debug, thiserror::Error)]
pub enum BfsError {
    #[error("the search reached depth {0}, more than a 4-bit table holds ({MAX_DEPTH})")]
    TooDeep(usize),
}

/// Bytes handed to one parallel task: large enough to amortise scheduling, small enough to
/// balance the work between threads.
const CHUNK_BYTES: usize = 1 << 14;

fn entry(cells: &[AtomicU8], i: u64) -> u8 {
    (cells[(i / 2) as usize].load(Relaxed) >> ((i & 1) * 4)) & 0xF
}

/// Sets entry `i` to `depth` if it is unreached; true if this call did so. Within one pass every
/// write is the same depth, so a lost race leaves the same value and is counted only once.
fn claim(cells: &[AtomicU8], i: u64, depth: u8) -> bool {
    let shift = (i & 1) * 4;
    let cell = &cells[(i / 2) as usize];
    if (cell.load(Relaxed) >> shift) & 0xF != UNREACHED {
        return false;
    }
    let keep = !(((!depth) & 0xF) << shift);
    (cell.fetch_and(keep, Relaxed) >> shift) & 0xF == UNREACHED
}

/// Runs the breadth-first search over `space`, reporting progress in states reached.
pub fn breadth_first<S: StateSpace>(
    space: &S,
    progress: &ProgressBar,
) -> Result<BfsOutcome, BfsError> {
    let size = space.size();
    let cells: Vec<AtomicU8> = (0..size.div_ceil(2)).map(|_| AtomicU8::new(0xFF)).collect();
    progress.set_length(size);
    let mut histogram = vec![0u64];
    for goal in space.goals() {
        if claim(&cells, goal, 0) {
            histogram[0] += 1;
        }
    }
    progress.inc(histogram[0]);
    let mut reached = histogram[0];
    for depth in 0.. {
        let frontier = histogram[depth];
        if frontier == 0 || reached == size {
            break;
        }
        if depth + 1 > MAX_DEPTH {
            return Err(BfsError::TooDeep(depth + 1));
        }
        let backward = frontier > size - reached;
        let found = pass(space, &cells, depth as u8, backward, progress);
        histogram.push(found);
        reached += found;
    }
    while histogram.last() == Some(&0) {
        histogram.pop();
    }
    progress.finish();
    let packed = cells.into_iter().map(AtomicU8::into_inner).collect();
    Ok(BfsOutcome { packed, histogram })
}

/// One depth: returns how many states were found at `depth + 1`.
fn pass<S: StateSpace>(
    space: &S,
    cells: &[AtomicU8],
    depth: u8,
    backward: bool,
    progress: &ProgressBar,
) -> u64 {
    let size = space.size();
    let next = depth + 1;
    let total = AtomicU64::new(0);
    cells
        .par_chunks(CHUNK_BYTES)
        .enumerate()
        .for_each(|(chunk, bytes)| {
            let first = (chunk * CHUNK_BYTES * 2) as u64;
            let mut found = 0u64;
            for (offset, byte) in bytes.iter().enumerate() {
                let value = byte.load(Relaxed);
                let wanted = if backward { 0xFF } else { depth * 0x11 };
                // Fast skip: neither nibble can match.
                if value & 0xF != wanted & 0xF && value >> 4 != wanted >> 4 {
                    continue;
                }
                for half in 0..2u64 {
                    let state = first + 2 * offset as u64 + half;
                    if state >= size {
                        break;
                    }
                    let nibble = (value >> (half * 4)) & 0xF;
                    if backward && nibble == UNREACHED {
                        if has_neighbour_at(space, cells, state, depth) && claim(cells, state, next)
                        {
                            found += 1;
                        }
                    } else if !backward && nibble == depth {
                        for turn in 0..space.move_count() {
                            if claim(cells, space.apply(state, turn), next) {
                                found += 1;
                            }
                        }
                    }
                }
            }
            progress.inc(found);
            total.fetch_add(found, Relaxed);
        });
    total.into_inner()
}

fn has_neighbour_at<S: StateSpace>(space: &S, cells: &[AtomicU8], state: u64, depth: u8) -> bool {
    (0..space.move_count()).any(|turn| entry(cells, space.apply(state, turn)) == depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// States 0..n on a cycle, moves +1 and -1: the distance of i from 0 is min(i, n - i).
    struct Cycle(u64);

    impl MoveSpace for Cycle {
        fn move_count(&self) -> usize {
            2
        }
        fn apply(&self, state: u64, turn: usize) -> u64 {
            if turn == 0 {
                (state + 1) % self.0
            } else {
                (state + self.0 - 1) % self.0
            }
        }
    }

    impl StateSpace for Cycle {
        fn size(&self) -> u64 {
            self.0
        }
        fn goals(&self) -> Vec<u64> {
            vec![0]
        }
    }

    /// Odd and even lengths: the even cycle ends with a single state left, which the backward
    /// scan finds.
    #[test]
    fn distances_on_cycles() {
        for n in [27u64, 28] {
            let outcome = breadth_first(&Cycle(n), &ProgressBar::hidden()).unwrap();
            for i in 0..n {
                let d = (outcome.packed[(i / 2) as usize] >> ((i & 1) * 4)) & 0xF;
                assert_eq!(u64::from(d), i.min(n - i), "state {i} of {n}");
            }
            assert_eq!(outcome.histogram.iter().sum::<u64>(), n);
        }
    }

    #[test]
    fn too_deep_is_an_error_not_garbage() {
        assert!(matches!(
            breadth_first(&Cycle(40), &ProgressBar::hidden()),
            Err(BfsError::TooDeep(15))
        ));
    }
}
