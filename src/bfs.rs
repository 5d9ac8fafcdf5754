//! The one breadth-first engine: it fills a table of distances over any ranked state space.
//!
//! Entries are packed in atomic bytes, 4 bits each (exact depth; `0xF` = not yet reached), 2
//! bits each (depth mod 3; `3` = not yet reached) or 8 (exact depth; `0xFF` = not yet reached,
//! for subgroups whose depths pass 14), and each depth is one parallel pass over the
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

mod checkpoint;

pub use checkpoint::{Checkpoint, CheckpointError};

use crate::packing::Encoding;
pub use crate::space::{MoveSpace, RowSpace, StateSpace};
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// Marks a state not yet reached in a 4-bit table while the search runs (and unreachable after).
pub const UNREACHED: u8 = 0xF;
/// Marks a state not reached in a byte table.
pub const UNREACHED_BYTE: u8 = 0xFF;
/// Largest depth a 4-bit entry holds.
pub const MAX_DEPTH: usize = 14;
/// Largest depth a byte entry holds.
pub const MAX_BYTE_DEPTH: usize = 254;

/// The packed entries of every state and how many states lie at each depth.
pub struct BfsOutcome {
    pub encoding: Encoding,
    pub packed: Vec<u8>,
    pub histogram: Vec<u64>,
    /// The passes, one per depth, in order: where a build spends its time.
    pub passes: Vec<Pass>,
    /// Up to [`RunOptions::deepest`] of the states found at the last depth (representatives),
    /// in no particular order: all of them where there are no more than that.
    pub deepest: Vec<u64>,
}

/// What a run does beyond filling its table.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions<'a> {
    /// How many states of the last depth to keep ([`BfsOutcome::deepest`]).
    pub deepest: usize,
    /// Where the run saves its finished depths (each, once the passes since the last save
    /// took as long as a save: [`SavePolicy`]), and resumes from if a save of the same space
    /// is there: a run stopped (Ctrl-C, `kill -9`, a time limit) goes on from its last saved
    /// depth to the same table.
    pub checkpoint: Option<&'a Checkpoint>,
    /// The deepest depth to search: a run stops there, its table and checkpoint holding the
    /// depths so far, and a later run with the same checkpoint goes on from it.
    pub max_depth: Option<usize>,
}

/// One depth of the search.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Pass {
    /// The depth the pass found states at.
    pub depth: usize,
    /// Whether it scanned the unreached states (else it expanded the frontier).
    pub backward: bool,
    /// States found (representatives only; the histogram counts every rank).
    pub found: u64,
    pub seconds: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum BfsError {
    #[error("the search reached depth {0}, more than its entries hold ({1})")]
    TooDeep(usize, usize),
    #[error("a space that ranks states several ways is built with exact (4-bit) entries only")]
    DuplicatesNeedNibbles,
    #[error(
        "the search fills exact (4-bit) or mod-3 entries; based entries are packed from exact ones"
    )]
    Lossy,
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// Neighbours located ahead of being read in a row pass: enough misses in flight to cover the
/// latency of memory.
const BATCH: usize = 32;

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
    const LOW_BITS: u8 = match BITS {
        8 => 0x01,
        4 => 0x11,
        _ => 0x55,
    };

    fn new(entries: u64) -> Self {
        let bytes = entries.div_ceil(Self::PER_BYTE);
        Cells {
            bytes: (0..bytes).map(|_| AtomicU8::new(UNREACHED_BYTE)).collect(),
        }
    }

    /// What a state at `depth` stores.
    const fn value(depth: usize) -> u8 {
        if BITS == 2 {
            (depth % 3) as u8
        } else {
            depth as u8
        }
    }

    /// For the pass from `depth`: the frontier's value, the value it writes, and the value of
    /// the entries it lists (a backward pass lists unreached ones, a forward one the frontier).
    fn pass_values(depth: usize, backward: bool) -> (u8, u8, u8) {
        let current = Self::value(depth);
        let wanted = if backward { Self::MASK } else { current };
        (current, Self::value(depth + 1), wanted)
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

    /// [`Cells::claim`] where `wanted`, for a caller that alone writes the entries of `i`'s
    /// byte while it runs (it holds their row); 1 if it set the entry, else 0. A plain load
    /// and store, and no branch: a locked read-modify-write per entry stops the processor from
    /// overlapping cache misses, and a branch on whether the entry is set, which goes either
    /// way as often in the largest passes, throws away the work in flight when mispredicted.
    #[inline(always)]
    fn claim_exclusive(&self, i: u64, value: u8, wanted: bool) -> u64 {
        let shift = Self::shift(i);
        let cell = &self.bytes[(i / Self::PER_BYTE) as usize];
        let byte = cell.load(Relaxed);
        let unreached = u8::from((byte >> shift) & Self::MASK == Self::MASK && wanted);
        let clear = (((!value) & Self::MASK) * unreached) << shift;
        cell.store(byte & !clear, Relaxed);
        u64::from(unreached)
    }

    /// Asks for entry `i`'s byte ahead of a read.
    #[inline(always)]
    fn prefetch(&self, i: u64) {
        crate::space::prefetch(&self.bytes, (i / Self::PER_BYTE) as usize);
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

    /// Appends to `out` the offsets from `first` of the entries `first..first + len` that
    /// hold `value`, skipping bytes that hold none.
    fn collect(&self, first: u64, len: u64, value: u8, out: &mut Vec<u32>) {
        let end = first + len;
        for at in first / Self::PER_BYTE..end.div_ceil(Self::PER_BYTE) {
            let byte = self.bytes[at as usize].load(Relaxed);
            if !Self::byte_holds(byte, value) {
                continue;
            }
            for field in 0..Self::PER_BYTE {
                let i = at * Self::PER_BYTE + field;
                if (first..end).contains(&i)
                    && (byte >> (field * BITS as u64)) & Self::MASK == value
                {
                    out.push((i - first) as u32);
                }
            }
        }
    }

    fn into_bytes(self) -> Vec<u8> {
        self.bytes.into_iter().map(AtomicU8::into_inner).collect()
    }

    fn from_bytes(bytes: Vec<u8>) -> Self {
        Cells {
            bytes: bytes.into_iter().map(AtomicU8::new).collect(),
        }
    }
}

/// The states a pass found, kept up to a number: the last pass's are a run's deepest states.
struct Found {
    wanted: usize,
    kept: AtomicUsize,
    states: Mutex<Vec<u64>>,
}

impl Found {
    fn new(wanted: usize) -> Found {
        Found {
            wanted,
            kept: AtomicUsize::new(0),
            states: Mutex::new(Vec::new()),
        }
    }

    /// Keeps `state` if fewer than wanted are kept: one relaxed load once the sample is full.
    #[inline]
    fn offer(&self, state: u64) {
        if self.kept.load(Relaxed) < self.wanted {
            let mut states = self.states.lock().unwrap_or_else(PoisonError::into_inner);
            if states.len() < self.wanted {
                states.push(state);
                self.kept.store(states.len(), Relaxed);
            }
        }
    }

    fn take(&self) -> Vec<u64> {
        self.kept.store(0, Relaxed);
        std::mem::take(&mut *self.states.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Runs the breadth-first search over `space` into a table of `encoding`, reporting progress in
/// states reached.
pub fn breadth_first<S: StateSpace>(
    space: &S,
    encoding: Encoding,
    progress: &ProgressBar,
) -> Result<BfsOutcome, BfsError> {
    run(space, encoding, progress, &ByState, &RunOptions::default())
}

/// [`breadth_first`] with what [`RunOptions`] asks beyond the table.
pub fn breadth_first_with<S: StateSpace>(
    space: &S,
    encoding: Encoding,
    progress: &ProgressBar,
    options: &RunOptions,
) -> Result<BfsOutcome, BfsError> {
    run(space, encoding, progress, &ByState, options)
}

/// [`breadth_first`] for a space laid out in rows, a row at a time (see [`RowSpace`]): the same
/// depths and entries, an order of work that keeps each move's writes within one row. On the
/// 5.5-billion-entry `ud-layers-f4` space this is what brings the build from half an hour of
/// decoding and re-ranking every state to minutes.
///
/// A thread writes a row's entries with plain stores while it holds the row, so no byte may
/// hold entries of two rows: rows whose length is not a multiple of four entries are searched
/// state by state instead.
pub fn breadth_first_rows<S: RowSpace>(
    space: &S,
    encoding: Encoding,
    progress: &ProgressBar,
) -> Result<BfsOutcome, BfsError> {
    breadth_first_rows_with(space, encoding, progress, &RunOptions::default())
}

/// [`breadth_first_rows`] with what [`RunOptions`] asks beyond the table.
pub fn breadth_first_rows_with<S: RowSpace>(
    space: &S,
    encoding: Encoding,
    progress: &ProgressBar,
    options: &RunOptions,
) -> Result<BfsOutcome, BfsError> {
    if !space.row_len().is_multiple_of(ROW_ALIGNMENT) {
        return breadth_first_with(space, encoding, progress, options);
    }
    run(space, encoding, progress, &ByRow::new(space), options)
}

/// Entries per byte in the densest encoding (2 bits): a row of a multiple of this many entries
/// starts on a byte in every encoding.
const ROW_ALIGNMENT: u64 = 4;

/// How a pass walks the table: state by state through [`MoveSpace::apply`], or row by row.
trait PassOrder<S: StateSpace>: Sync {
    fn pass<const BITS: u32>(
        &self,
        space: &S,
        cells: &Cells<BITS>,
        depth: usize,
        backward: bool,
        progress: &ProgressBar,
        found: &Found,
    ) -> u64;

    /// Where a run resumes at `depth`: what the order keeps between passes, as it would be.
    fn resume(&self, _depth: usize) {}

    /// How many ranks are not representatives, where that is cheap to count (else 0): the
    /// search reaches representatives only, and decides between forward and backward passes
    /// by how many of them are left.
    fn duplicates(space: &S) -> u64;

    /// Fills the ranks that are not representatives, once the search is done.
    fn fill_duplicates<const BITS: u32>(space: &S, cells: &Cells<BITS>, histogram: &mut [u64]);
}

struct ByState;

/// What the row passes keep between depths.
struct ByRow {
    /// A forward pass writes into other rows: a thread holds the destination row while it
    /// writes. A backward pass writes only into the row it works on, which no other thread
    /// writes.
    locks: Vec<Mutex<()>>,
    /// Per row, bit `d` set once it holds an entry of depth `d` (of its value mod 3 in a 2-bit
    /// table; bit 63 stands for every larger value): a forward pass skips the rows without
    /// frontier, which are nearly all of them in the first passes.
    depths: Vec<AtomicU64>,
}

impl ByRow {
    fn new<S: RowSpace>(space: &S) -> ByRow {
        let len = space.row_len();
        let rows = space.size() / len;
        let row = ByRow {
            locks: (0..rows).map(|_| Mutex::new(())).collect(),
            depths: (0..rows).map(|_| AtomicU64::new(0)).collect(),
        };
        for goal in space.goals() {
            row.mark(goal / len, 0);
        }
        row
    }

    fn bit(depth: usize) -> u64 {
        1 << depth.min(63)
    }

    fn mark(&self, row: u64, depth: usize) {
        self.depths[row as usize].fetch_or(Self::bit(depth), Relaxed);
    }

    fn holds(&self, row: u64, depth: usize) -> bool {
        self.depths[row as usize].load(Relaxed) & Self::bit(depth) != 0
    }
}

impl<S: StateSpace> PassOrder<S> for ByState {
    fn pass<const BITS: u32>(
        &self,
        space: &S,
        cells: &Cells<BITS>,
        depth: usize,
        backward: bool,
        progress: &ProgressBar,
        found: &Found,
    ) -> u64 {
        pass(space, cells, depth, backward, progress, found)
    }

    fn duplicates(_: &S) -> u64 {
        0
    }

    fn fill_duplicates<const BITS: u32>(space: &S, cells: &Cells<BITS>, histogram: &mut [u64]) {
        let per_chunk = CHUNK_BYTES as u64 * Cells::<BITS>::PER_BYTE;
        let size = space.size();
        let chunks = (0..size.div_ceil(per_chunk))
            .into_par_iter()
            .map(|chunk| chunk * per_chunk..((chunk + 1) * per_chunk).min(size));
        fill_duplicates(cells, histogram, chunks, |state| {
            space.representative(state)
        });
    }
}

impl<S: RowSpace> PassOrder<S> for ByRow {
    fn pass<const BITS: u32>(
        &self,
        space: &S,
        cells: &Cells<BITS>,
        depth: usize,
        backward: bool,
        progress: &ProgressBar,
        found: &Found,
    ) -> u64 {
        row_pass(space, self, cells, depth, backward, progress, found)
    }

    /// The rows' record of their depths is not saved: every row is taken to hold the depth a
    /// run resumes at, so that its first pass, if forward, looks at every row once.
    fn resume(&self, depth: usize) {
        for row in 0..self.depths.len() {
            self.mark(row as u64, depth);
        }
    }

    fn duplicates(space: &S) -> u64 {
        let len = space.row_len();
        (0..space.size() / len)
            .into_par_iter()
            .filter(|&row| space.row_has_duplicates(row))
            .map(|row| {
                let positions = 0..len as u32;
                positions
                    .filter(|&p| space.row_representative(row, p) != p)
                    .count() as u64
            })
            .sum()
    }

    fn fill_duplicates<const BITS: u32>(space: &S, cells: &Cells<BITS>, histogram: &mut [u64]) {
        let len = space.row_len();
        let rows = (0..space.size() / len)
            .into_par_iter()
            .filter(|&row| space.row_has_duplicates(row))
            .map(|row| row * len..(row + 1) * len);
        fill_duplicates(cells, histogram, rows, |state| {
            let row = state / len;
            row * len + u64::from(space.row_representative(row, (state % len) as u32))
        });
    }
}

fn run<S: StateSpace, P: PassOrder<S>>(
    space: &S,
    encoding: Encoding,
    progress: &ProgressBar,
    order: &P,
    options: &RunOptions,
) -> Result<BfsOutcome, BfsError> {
    match encoding {
        Encoding::Nibble => search::<S, P, 4>(space, progress, order, encoding, options),
        Encoding::Mod3 if space.has_duplicates() => Err(BfsError::DuplicatesNeedNibbles),
        Encoding::Mod3 => search::<S, P, 2>(space, progress, order, encoding, options),
        Encoding::Byte => search::<S, P, 8>(space, progress, order, encoding, options),
        Encoding::Based => Err(BfsError::Lossy),
    }
}

fn search<S: StateSpace, P: PassOrder<S>, const BITS: u32>(
    space: &S,
    progress: &ProgressBar,
    order: &P,
    encoding: Encoding,
    options: &RunOptions,
) -> Result<BfsOutcome, BfsError> {
    let size = space.size();
    progress.set_length(space.reachable());
    let saved = match options.checkpoint {
        Some(checkpoint) => checkpoint.load(encoding, size)?,
        None => None,
    };
    let (cells, mut histogram, mut passes, mut deepest) = match saved {
        Some(saved) => {
            order.resume(saved.histogram.len() - 1);
            let cells = Cells::<BITS>::from_bytes(saved.packed);
            (cells, saved.histogram, saved.passes, saved.deepest)
        }
        None => {
            let cells = Cells::<BITS>::new(size);
            let mut histogram = vec![0u64];
            let mut goals = Vec::new();
            for goal in space.goals() {
                if cells.claim(goal, 0) {
                    histogram[0] += 1;
                    goals.push(goal);
                }
            }
            goals.truncate(options.deepest);
            (cells, histogram, Vec::new(), goals)
        }
    };
    let mut reached: u64 = histogram.iter().sum();
    progress.inc(reached);
    // States the passes can reach: the representatives.
    let reachable = space.reachable() - P::duplicates(space);
    let found_now = Found::new(options.deepest);
    let mut saves = SavePolicy::new(size, BITS);
    for depth in histogram.len() - 1.. {
        if histogram[depth] == 0
            || reached == reachable
            || options.max_depth.is_some_and(|max| depth >= max)
        {
            break;
        }
        let max = match BITS {
            4 => MAX_DEPTH,
            8 => MAX_BYTE_DEPTH,
            _ => usize::MAX,
        };
        if depth + 1 > max {
            return Err(BfsError::TooDeep(depth + 1, max));
        }
        let backward = space.may_search_backward() && histogram[depth] > reachable - reached;
        let start = Instant::now();
        let found = order.pass(space, &cells, depth, backward, progress, &found_now);
        passes.push(Pass {
            depth: depth + 1,
            backward,
            found,
            seconds: start.elapsed().as_secs_f64(),
        });
        histogram.push(found);
        reached += found;
        let states = found_now.take();
        if found > 0 {
            deepest = states;
        }
        let stopping = options.max_depth.is_some_and(|max| depth + 1 >= max);
        if let Some(checkpoint) = options.checkpoint
            && (stopping || saves.due(start.elapsed().as_secs_f64()))
        {
            let saving = Instant::now();
            checkpoint.save(encoding, size, &cells.bytes, &histogram, &passes, &deepest)?;
            saves.saved(saving.elapsed().as_secs_f64());
        }
    }
    if space.has_duplicates() {
        P::fill_duplicates(space, &cells, &mut histogram);
    }
    while histogram.last() == Some(&0) {
        histogram.pop();
    }
    progress.finish();
    Ok(BfsOutcome {
        encoding,
        packed: cells.into_bytes(),
        histogram,
        passes,
        deepest,
    })
}

/// When a run saves its table ([`Checkpoint`]): after a depth once the passes since the last
/// save took at least as long as a save does, so that saving costs at most about as much as
/// the search and a stopped run redoes at most that much. A save writes the whole table, and
/// the first depths of a large space take milliseconds where a save of gigabytes takes tens
/// of seconds: saving after each of them would double the run. Before the first save its cost
/// is estimated at [`SavePolicy::BYTES_PER_SECOND`].
struct SavePolicy {
    /// Seconds of passes since the last save.
    since: f64,
    /// Seconds the last save took (estimated before the first).
    cost: f64,
}

impl SavePolicy {
    /// A disk's sequential writes, for the first save's estimate.
    const BYTES_PER_SECOND: f64 = 500e6;

    fn new(size: u64, bits: u32) -> SavePolicy {
        let bytes = size as f64 * f64::from(bits) / 8.0;
        SavePolicy {
            since: 0.0,
            cost: bytes / Self::BYTES_PER_SECOND,
        }
    }

    /// Whether to save after a pass of `seconds`.
    fn due(&mut self, seconds: f64) -> bool {
        self.since += seconds;
        self.since >= self.cost
    }

    /// A save of `seconds` was made.
    fn saved(&mut self, seconds: f64) {
        self.since = 0.0;
        self.cost = seconds;
    }
}

/// Gives every rank that is not its state's representative the representative's entry, and
/// counts it (4-bit entries: the entry is the depth). Looks only at the states of `blocks`,
/// which hold every such rank.
fn fill_duplicates<const BITS: u32>(
    cells: &Cells<BITS>,
    histogram: &mut [u64],
    blocks: impl ParallelIterator<Item = std::ops::Range<u64>>,
    representative: impl Fn(u64) -> u64 + Sync,
) {
    let counts = blocks
        .map(|block| {
            let mut counts = vec![0u64; 1 << BITS];
            for state in block {
                let representative = representative(state);
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
    sample: &Found,
) -> u64 {
    let size = space.size();
    let (current, next, wanted) = Cells::<BITS>::pass_values(depth, backward);
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
                            sample.offer(state);
                        }
                    } else {
                        for turn in 0..space.move_count() {
                            let neighbour = space.apply(state, turn);
                            if cells.claim(neighbour, next) {
                                found += 1;
                                sample.offer(neighbour);
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

/// One depth, a row at a time: returns how many states were found at `depth + 1`. The row's
/// wanted positions (the frontier, or the unreached representatives) are listed once; then each
/// move maps them into its destination row. A backward pass drops a position as soon as one
/// neighbour holds the current depth, so most positions cost a move or two.
fn row_pass<S: RowSpace, const BITS: u32>(
    space: &S,
    memo: &ByRow,
    cells: &Cells<BITS>,
    depth: usize,
    backward: bool,
    progress: &ProgressBar,
    sample: &Found,
) -> u64 {
    // The same for the whole pass: the branch on it is never mispredicted.
    let sampling = sample.wanted > 0;
    let len = space.row_len();
    let (current, next, wanted) = Cells::<BITS>::pass_values(depth, backward);
    let total = AtomicU64::new(0);
    (0..space.size() / len)
        .into_par_iter()
        .filter(|&row| backward || memo.holds(row, depth))
        .for_each_init(Vec::new, |positions: &mut Vec<u32>, row| {
            let first = row * len;
            positions.clear();
            cells.collect(first, len, wanted, positions);
            if backward && space.row_has_duplicates(row) {
                positions.retain(|&p| space.row_representative(row, p) == p);
            }
            let mut found = 0u64;
            for turn in 0..space.move_count() {
                if positions.is_empty() {
                    break;
                }
                let (dest, step) = space.step(row, turn);
                let target = dest * len;
                let found_before = found;
                let _held = (!backward).then(|| {
                    memo.locks[dest as usize]
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                });
                // Batches of neighbours are located and asked for before any is read, so
                // that their cache misses overlap.
                let mut kept = 0;
                for start in (0..positions.len()).step_by(BATCH) {
                    let end = (start + BATCH).min(positions.len());
                    let mut neighbours = [0u64; BATCH];
                    for (n, &p) in neighbours.iter_mut().zip(&positions[start..end]) {
                        *n = target + u64::from(space.position(step, p));
                        cells.prefetch(*n);
                    }
                    for (i, &neighbour) in (start..end).zip(&neighbours) {
                        if backward {
                            // Keep the position unless the neighbour is on the frontier.
                            let p = positions[i];
                            let hit = cells.get(neighbour) == current;
                            let claimed = cells.claim_exclusive(first + u64::from(p), next, hit);
                            if sampling && claimed != 0 {
                                sample.offer(first + u64::from(p));
                            }
                            found += claimed;
                            positions[kept] = p;
                            kept += usize::from(!hit);
                        } else {
                            let claimed = cells.claim_exclusive(neighbour, next, true);
                            if sampling && claimed != 0 {
                                sample.offer(neighbour);
                            }
                            found += claimed;
                        }
                    }
                }
                if backward {
                    positions.truncate(kept);
                } else if found > found_before {
                    memo.mark(dest, depth + 1);
                }
            }
            if backward && found > 0 {
                memo.mark(row, depth + 1);
            }
            progress.inc(found);
            total.fetch_add(found, Relaxed);
        });
    total.into_inner()
}

#[cfg(test)]
mod tests;

/// The states within `depth` moves of the goals and their distances, representatives only:
/// the breadth-first search of a space too large for a table of its own (the 240 G cosets of
/// the `h48` member that keeps every flip), of which only the neighbourhood of the goals is
/// wanted. The frontier is a list and the states seen a hash map, so memory grows with the
/// states found, not with the space: about 16 bytes a state. Each depth expands the frontier
/// in parallel, then sorts and deduplicates the children and keeps those not seen before.
/// `progress` counts depths.
pub fn breadth_first_near<S: StateSpace>(
    space: &S,
    depth: u8,
    progress: &ProgressBar,
) -> (NearStates, Vec<Pass>) {
    let mut passes = Vec::with_capacity(usize::from(depth));
    let mut seen = NearStates::default();
    let mut frontier: Vec<u64> = space
        .goals()
        .iter()
        .map(|&g| space.representative(g))
        .collect();
    frontier.sort_unstable();
    frontier.dedup();
    for &state in &frontier {
        seen.insert(state, 0);
    }
    for next in 1..=depth {
        let start = Instant::now();
        let mut children: Vec<u64> = frontier
            .par_iter()
            .flat_map_iter(|&state| {
                (0..space.move_count()).map(move |turn| space.apply(state, turn))
            })
            .collect();
        children.par_sort_unstable();
        children.dedup();
        children.retain(|state| !seen.contains_key(state));
        seen.reserve(children.len());
        for &state in &children {
            seen.insert(state, next);
        }
        progress.inc(1);
        passes.push(Pass {
            depth: usize::from(next),
            backward: false,
            found: children.len() as u64,
            seconds: start.elapsed().as_secs_f64(),
        });
        frontier = children;
    }
    (seen, passes)
}

/// The states [`breadth_first_near`] found, with their distances.
pub type NearStates = std::collections::HashMap<u64, u8, std::hash::BuildHasherDefault<MixHasher>>;

/// A hasher for keys that are ranks: one multiply and a fold. Ranks of nearby states differ in
/// low bits and share high ones; the default SipHash costs several times as much per lookup,
/// which the depth-first fill of the `h48-eo` tables makes billions of.
#[derive(Default)]
pub struct MixHasher(u64);

impl std::hash::Hasher for MixHasher {
    fn finish(&self) -> u64 {
        let x = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^ (x >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}
