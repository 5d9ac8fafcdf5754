//! The one breadth-first engine: it fills a table of distances over any ranked state space.
//!
//! Entries are packed in atomic bytes, 4 bits each (exact depth; `0xF` = not yet reached) or 2
//! bits each (depth mod 3; `3` = not yet reached), and each depth is one parallel pass over the
//! whole table. A pass either expands the frontier (states holding the current depth's value mark
//! their unreached neighbours with the next value) or, once the frontier outnumbers the states
//! still unreached, scans the unreached states for a neighbour holding the current value; the
//! second avoids touching every neighbour of a huge frontier when few states are left to find.
//!
//! A space that ranks some states several ways (symmetry-reduced spaces, see
//! [`StateSpace::representative`]) is searched over its representatives only; the other ranks
//! are filled from theirs at the end, so that a lookup may use any of them.
//!
//! With depth mod 3, states three levels back share the frontier's value. Expanding them again is
//! harmless (all their neighbours are reached already), and no unreached state has such a
//! neighbour (it would have been reached), so one engine serves both encodings.

pub use crate::space::{MoveSpace, StateSpace};
use crate::table::Encoding;
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// Marks a state not yet reached in a 4-bit table while the search runs (and unreachable after).
pub const UNREACHED: u8 = 0xF;
/// Largest depth a 4-bit entry holds.
pub const MAX_DEPTH: usize = 14;

/// The packed entries of every state and how many states lie at each depth.
pub struct BfsOutcome {
    pub encoding: Encoding,
    pub packed: Vec<u8>,
    pub histogram: Vec<u64>,
}

#[derive(Debug, thiserror::Error)]
pub enum BfsError {
    #[error("the search reached depth {0}, more than a 4-bit table holds ({MAX_DEPTH})")]
    TooDeep(usize),
    #[error("a space that ranks states several ways is built with exact (4-bit) entries only")]
    DuplicatesNeedNibbles,
    #[error(
        "the search fills exact (4-bit) or mod-3 entries; based entries are packed from exact ones"
    )]
    Lossy,
}

/// Bytes handed to one parallel task: large enough to amortise scheduling, small enough to
/// balance the work between threads.
const CHUNK_BYTES: usize = 1 << 14;

/// Entries of `BITS` bits packed little-end first into atomic bytes.
struct Cells<const BITS: u32> {
    bytes: Vec<AtomicU8>,
}

impl<const BITS: u32> Cells<BITS> {
    const PER_BYTE: u64 = 8 / BITS as u64;
    const MASK: u8 = ((1u16 << BITS) - 1) as u8;
    /// `0x11` or `0x55`: a 1 in the low bit of every field of a byte.
    const LOW_BITS: u8 = if BITS == 4 { 0x11 } else { 0x55 };

    fn new(entries: u64) -> Self {
        let bytes = entries.div_ceil(Self::PER_BYTE);
        Cells {
            bytes: (0..bytes).map(|_| AtomicU8::new(0xFF)).collect(),
        }
    }

    /// What a state at `depth` stores.
    const fn value(depth: usize) -> u8 {
        if BITS == 4 {
            depth as u8
        } else {
            (depth % 3) as u8
        }
    }

    fn shift(i: u64) -> u64 {
        (i % Self::PER_BYTE) * BITS as u64
    }

    fn get(&self, i: u64) -> u8 {
        (self.bytes[(i / Self::PER_BYTE) as usize].load(Relaxed) >> Self::shift(i)) & Self::MASK
    }

    /// Sets entry `i` to `value` if it is unreached; true if this call did so. Within one pass
    /// every write is the same value, so a lost race leaves the same value and counts once.
    fn claim(&self, i: u64, value: u8) -> bool {
        let shift = Self::shift(i);
        let cell = &self.bytes[(i / Self::PER_BYTE) as usize];
        if (cell.load(Relaxed) >> shift) & Self::MASK != Self::MASK {
            return false;
        }
        let keep = !(((!value) & Self::MASK) << shift);
        (cell.fetch_and(keep, Relaxed) >> shift) & Self::MASK == Self::MASK
    }

    /// Whether any field of `byte` equals `value`.
    fn byte_holds(byte: u8, value: u8) -> bool {
        let x = byte ^ (value * Self::LOW_BITS);
        let mut any = x;
        for s in 1..BITS {
            any |= x >> s;
        }
        any & Self::LOW_BITS != Self::LOW_BITS
    }

    fn into_bytes(self) -> Vec<u8> {
        self.bytes.into_iter().map(AtomicU8::into_inner).collect()
    }
}

/// Runs the breadth-first search over `space` into a table of `encoding`, reporting progress in
/// states reached.
pub fn breadth_first<S: StateSpace>(
    space: &S,
    encoding: Encoding,
    progress: &ProgressBar,
) -> Result<BfsOutcome, BfsError> {
    let (packed, histogram) = match encoding {
        Encoding::Nibble => search::<S, 4>(space, progress)?,
        Encoding::Mod3 if space.has_duplicates() => return Err(BfsError::DuplicatesNeedNibbles),
        Encoding::Mod3 => search::<S, 2>(space, progress)?,
        Encoding::Based => return Err(BfsError::Lossy),
    };
    Ok(BfsOutcome {
        encoding,
        packed,
        histogram,
    })
}

fn search<S: StateSpace, const BITS: u32>(
    space: &S,
    progress: &ProgressBar,
) -> Result<(Vec<u8>, Vec<u64>), BfsError> {
    let size = space.size();
    let cells = Cells::<BITS>::new(size);
    progress.set_length(size);
    let mut histogram = vec![0u64];
    for goal in space.goals() {
        if cells.claim(goal, 0) {
            histogram[0] += 1;
        }
    }
    progress.inc(histogram[0]);
    let mut reached = histogram[0];
    for depth in 0.. {
        if histogram[depth] == 0 || reached == size {
            break;
        }
        if BITS == 4 && depth + 1 > MAX_DEPTH {
            return Err(BfsError::TooDeep(depth + 1));
        }
        let backward = histogram[depth] > size - reached;
        let found = pass(space, &cells, depth, backward, progress);
        histogram.push(found);
        reached += found;
    }
    if space.has_duplicates() {
        fill_duplicates(space, &cells, &mut histogram);
    }
    while histogram.last() == Some(&0) {
        histogram.pop();
    }
    progress.finish();
    Ok((cells.into_bytes(), histogram))
}

/// Gives every rank that is not its state's representative the representative's entry, and
/// counts it (4-bit entries: the entry is the depth).
fn fill_duplicates<S: StateSpace, const BITS: u32>(
    space: &S,
    cells: &Cells<BITS>,
    histogram: &mut [u64],
) {
    let size = space.size();
    let per_chunk = CHUNK_BYTES as u64 * Cells::<BITS>::PER_BYTE;
    let counts = (0..size.div_ceil(per_chunk))
        .into_par_iter()
        .map(|chunk| {
            let mut counts = vec![0u64; 1 << BITS];
            for state in chunk * per_chunk..((chunk + 1) * per_chunk).min(size) {
                let representative = space.representative(state);
                if representative != state {
                    let value = cells.get(representative);
                    cells.claim(state, value);
                    counts[usize::from(value)] += 1;
                }
            }
            counts
        })
        .reduce(
            || vec![0u64; 1 << BITS],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        );
    for (depth, &count) in counts.iter().enumerate().take(histogram.len()) {
        histogram[depth] += count;
    }
}

/// One depth: returns how many states were found at `depth + 1`.
fn pass<S: StateSpace, const BITS: u32>(
    space: &S,
    cells: &Cells<BITS>,
    depth: usize,
    backward: bool,
    progress: &ProgressBar,
) -> u64 {
    let size = space.size();
    let current = Cells::<BITS>::value(depth);
    let next = Cells::<BITS>::value(depth + 1);
    // A backward pass looks for unreached entries, a forward one for the frontier's value.
    let wanted = if backward {
        Cells::<BITS>::MASK
    } else {
        current
    };
    let per_byte = Cells::<BITS>::PER_BYTE;
    let total = AtomicU64::new(0);
    cells
        .bytes
        .par_chunks(CHUNK_BYTES)
        .enumerate()
        .for_each(|(chunk, bytes)| {
            let first = (chunk * CHUNK_BYTES) as u64 * per_byte;
            let mut found = 0u64;
            for (offset, byte) in bytes.iter().enumerate() {
                let value = byte.load(Relaxed);
                if !Cells::<BITS>::byte_holds(value, wanted) {
                    continue;
                }
                for field in 0..per_byte {
                    let state = first + offset as u64 * per_byte + field;
                    if state >= size {
                        break;
                    }
                    if (value >> (field * BITS as u64)) & Cells::<BITS>::MASK != wanted {
                        continue;
                    }
                    if backward {
                        if space.has_duplicates() && space.representative(state) != state {
                            continue;
                        }
                        let hit = (0..space.move_count())
                            .any(|turn| cells.get(space.apply(state, turn)) == current);
                        if hit && cells.claim(state, next) {
                            found += 1;
                        }
                    } else {
                        for turn in 0..space.move_count() {
                            if cells.claim(space.apply(state, turn), next) {
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

    /// Odd and even lengths in both encodings: the even cycle ends with a single state left,
    /// which the backward scan finds; the long one is deeper than 4 bits hold but fine mod 3.
    #[test]
    fn distances_on_cycles() {
        for (n, encoding) in [
            (27u64, Encoding::Nibble),
            (28, Encoding::Nibble),
            (27, Encoding::Mod3),
            (28, Encoding::Mod3),
            (101, Encoding::Mod3),
        ] {
            let outcome = breadth_first(&Cycle(n), encoding, &ProgressBar::hidden()).unwrap();
            for i in 0..n {
                let d = i.min(n - i);
                let stored = crate::table::entry(encoding, &outcome.packed, i);
                let expected = if encoding == Encoding::Nibble {
                    d
                } else {
                    d % 3
                };
                assert_eq!(
                    u64::from(stored),
                    expected,
                    "state {i} of {n}, {encoding:?}"
                );
            }
            assert_eq!(outcome.histogram.iter().sum::<u64>(), n);
            assert_eq!(outcome.histogram.len() as u64, n / 2 + 1);
        }
    }

    #[test]
    fn too_deep_is_an_error_not_garbage() {
        assert!(matches!(
            breadth_first(&Cycle(40), Encoding::Nibble, &ProgressBar::hidden()),
            Err(BfsError::TooDeep(15))
        ));
    }

    #[test]
    fn byte_matching_finds_every_field() {
        for byte in 0..=255u8 {
            for value in 0..16u8 {
                let nibbles = byte & 0xF == value || byte >> 4 == value;
                assert_eq!(Cells::<4>::byte_holds(byte, value), nibbles);
            }
            for value in 0..4u8 {
                let crumbs = (0..4).any(|k| (byte >> (2 * k)) & 3 == value);
                assert_eq!(Cells::<2>::byte_holds(byte, value), crumbs);
            }
        }
    }
}
