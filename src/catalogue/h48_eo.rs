//! The `h48-eo` tables: the 48-symmetry cosets with the flips of the highest `K` edge slots kept
//! (nissy's `h48hK`, cube48opt's `h48prun31hK`), filled from positions near solved.
//!
//! An entry is the smallest distance to the subgroup that keeps every flip (`H48Flips::All`,
//! nissy's `h11`) over the `2^(11 - K)` cosets whose index differs only in the dropped flips: a
//! bound for every position of all of them, and stronger than slice flips at the same size (a
//! flip of a single edge says more than a slice's flips up to the whole slice). No subgroup has
//! these entries as its cosets (no symmetry-invariant subgroup keeps some edges' flips and not
//! others'), so the engine cannot search them whole, and the 240 G cosets of the member itself
//! (60 GB in two bits) do not fit here. They are filled instead in two steps:
//!
//! 1. The engine's sparse search ([`breadth_first_near`]) finds every coset of the member within
//!    `near` moves of solved (8 for the real tables: a few million cosets). Each writes its exact
//!    distance.
//! 2. A depth-first walk from every coset at exactly `near` moves writes each coset it reaches
//!    `near + j` moves out, up to `max_depth` (the table's base + 2). A coset at distance
//!    `n <= max_depth` lies on a shortest path whose first `near` moves end at distance exactly
//!    `near`, and the walk from there reaches it after `n` moves; every other write is the length
//!    of some path, so no smaller than the distance. Each entry keeps its smallest write: the
//!    exact minimum wherever that is at most `max_depth`. Entries never written are further.
//!
//! The walk skips a child that is itself near (at most `near` moves, in the set of step 1): its
//! own walk, or its own entry, covers everything past it. That check costs a hash lookup, so it
//! is made above the last level only; at the last level a child is written and not walked.
//!
//! The entries are packed in two bits over a base (entries `base + 3` or more read `base + 3`,
//! and one more level of walk, 13 times the work, would tell 12 from 13): base 8 for the rungs
//! of four to six flips and nissy's 9 for the larger ones, whichever prunes more for the
//! walk's cost ([`near_of`]): each rung walks only as deep as its codes can use. With the base
//! one past `near`, a code needs no exact value beside it: an entry of code 0 is exactly the base
//! unless a near coset wrote it, and the near cosets are in the map of step 1. So the walk
//! writes the two-bit codes in their final place ([`fill_based`]), and the lines' minima are
//! completed from the map; the table costs its own size to build, not twice it in four-bit
//! entries. The four-bit fill ([`fill`]), exact to any depth, is the tests' reference.

use super::{BuildError, Built, TableId};
use crate::bfs::{NearStates, Pass, breadth_first_near};
use crate::model::cube::{Face, Metric};
use crate::packing::{Encoding, based, nibble};
use crate::space::StateSpace;
use crate::space::h48::{H48Coord, H48Flips, H48Space, H48Table};
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::time::Instant;

/// How far the sparse search goes for the rungs of seven flips or more: nissy's depth, where
/// the cosets found (a few million) still fit a hash map of a few hundred megabytes and the
/// walk from them is three levels deep. Their base is 9: entries read `<= 9`, 10, 11 or
/// `>= 12`.
pub const NEAR: u8 = 8;
/// How far it goes for the rungs of four to six flips: base 8, entries `<= 8`, 9, 10 or `>= 11`,
/// and a walk to 10, about a tenth of the walk to 11 (`h48-eo6` in 77 s on two cores, not
/// 9 minutes). Over base 9 an entry of 9 reads as its line's minimum, often 8, wherever the
/// search has fewer than 9 moves left; over base 8 it reads 9, and only entries of 12 or more
/// read low (11). The smaller rungs hold many 9s and few entries of 12 or more, so base 8
/// prunes more: the ten positions of benches/peers.txt take 0.73x the nodes with `h48-eo4`
/// over base 8, 0.84x with `h48-eo5`, 1.04x with `h48-eo6`, and 1.40x with `h48-eo7`, whose
/// entries are 12 or more for half of them (reports/tables.md).
pub const NEAR_SMALL: u8 = 7;

/// How far the sparse search goes for `table`, which decides its base (one more) and the
/// walk's depth (the base + 2): base 8 where it prunes about as well or better and the walk is
/// a tenth of the work, base 9 where its third code is worth the walk.
pub fn near_of(table: H48Table) -> u8 {
    if table.dropped >= 5 { NEAR_SMALL } else { NEAR }
}

/// Entries no write reached hold this in the working table.
const UNREACHED: u8 = 0xF;

/// Bytes of the map of cosets within [`NEAR`] moves (7.2 million cosets) and the list of their
/// entries made from it at the end: the `h48-eo9` build's peak, 15.50 GB, less its 15.17 GB
/// payload (measured, reports/tables.md).
const NEAR_MAP_BYTES: u64 = 350_000_000;
/// Seconds of one core's work to fill an `h48-eo` table walked to 11: the walk's, which does
/// not depend on how many flips the table keeps (measured with nothing else running:
/// `h48-eo8`, 1,248 s of user time, `h48-eo9` 1,176 s, reports/tables.md).
const WALK_CORE_SECONDS: f64 = 1_250.0;
/// The same for a walk to 10 (measured: `h48-eo4` 102 s of user time, `h48-eo5` 110 s,
/// `h48-eo6` 133 s, reports/tables.md).
const SHORT_WALK_CORE_SECONDS: f64 = 130.0;

/// What filling `table` costs: bytes at peak (the payload, written in place, and the map of
/// near cosets) and seconds of one core's work.
pub fn build_cost(table: H48Table) -> (u64, f64) {
    let seconds = match near_of(table) {
        NEAR => WALK_CORE_SECONDS,
        _ => SHORT_WALK_CORE_SECONDS,
    };
    (
        based::payload_bytes(table.entries()) + NEAR_MAP_BYTES,
        seconds,
    )
}

/// The base of an `h48-eo` table whose header records `histogram`: its last count is of the
/// entries past the walk's depth, which is the base + 2, so that a 3 (at least the base + 3)
/// is always a true bound. 0 for a histogram too short to be one of these.
pub fn base_of_histogram(histogram: &[u64]) -> u8 {
    histogram
        .len()
        .saturating_sub(4)
        .min(usize::from(based::MAX_BASE)) as u8
}

/// Builds the `h48-eo` table `id` into `dir`.
pub fn build_h48_eo(id: TableId, dir: &Path, progress: &ProgressBar) -> Result<Built, BuildError> {
    let table = id
        .kind
        .h48_table()
        .filter(|t| t.flips == H48Flips::All)
        .ok_or(BuildError::Family(id.kind.name()))?;
    if id.encoding != Encoding::Based {
        return Err(BuildError::Encoding(id.kind.name(), id.encoding.name()));
    }
    if id.metric != Metric::Htm {
        return Err(BuildError::HalfTurnsOnly(id.kind.name()));
    }
    let space = H48Space::new(H48Flips::All, id.metric);
    let filled = fill_based(&space, table, near_of(table), progress);
    let header = id.write(dir, Encoding::Based, filled.histogram, &filled.payload)?;
    Ok(Built {
        header,
        passes: filled.passes,
    })
}

/// A table as [`fill_based`] leaves it: packed, with its exact histogram.
pub struct FilledBased {
    /// The based payload, as [`based::pack`] makes it from the exact entries.
    pub payload: Vec<u8>,
    /// Entries at each distance up to the base + 2, then those further.
    pub histogram: Vec<u64>,
    /// As in [`Filled`].
    pub passes: Vec<Pass>,
}

/// Fills `table` as [`fill`] does, to the walk's depth `near + 3`, but writes each entry's code
/// over the base `near + 1` straight into the based payload: the bytes [`based::pack`] would
/// make of [`fill`]'s entries, in half their memory (see the module's text).
pub fn fill_based(
    space: &H48Space,
    table: H48Table,
    near: u8,
    progress: &ProgressBar,
) -> FilledBased {
    let base = near + 1;
    assert!(
        base <= based::MAX_BASE,
        "a based table's base is at most {}",
        based::MAX_BASE
    );
    let entries = table.entries();
    let cells = filled_cells(based::payload_bytes(entries) as usize);
    let layout = Lines { base };
    let (found, passes) = walk_into(space, table, near, base + 2, &cells, &layout, progress);
    let mut below: Vec<(u64, u8)> = Vec::with_capacity(found.len());
    for (&state, &depth) in &found {
        space.for_each_variant(state, |variant| {
            below.push((table.entry_of(variant), depth))
        });
    }
    drop(found);
    // Sorted by entry, then depth: the first of an entry's pairs, which dedup keeps, holds the
    // smallest depth any of its cosets has.
    below.par_sort_unstable();
    below.dedup_by_key(|&mut (entry, _)| entry);
    let mut payload: Vec<u8> = cells.into_iter().map(AtomicU8::into_inner).collect();
    let histogram = based::complete(&mut payload, entries, base, &below, UNREACHED);
    FilledBased {
        payload,
        histogram,
        passes,
    }
}

/// `bytes` cells with every bit set: every entry unreached in either layout.
fn filled_cells(bytes: usize) -> Vec<AtomicU8> {
    (0..bytes)
        .into_par_iter()
        .map(|_| AtomicU8::new(0xFF))
        .collect()
}

/// The entries of `table` (4 bits each, two a byte) as [`fill`] leaves them: the exact smallest
/// distance where it is at most `max_depth`, else [`UNREACHED`].
pub struct Filled {
    pub nibbles: Vec<u8>,
    pub entries: u64,
    pub max_depth: u8,
    /// The sparse search's depths (cosets found at each), then the walk's, as one pass at
    /// `max_depth` that counts the cosets it started from.
    pub passes: Vec<Pass>,
}

impl Filled {
    /// The entry of index `i`: its distance, or `None` past `max_depth`.
    pub fn get(&self, i: u64) -> Option<u8> {
        Some(nibble(&self.nibbles, i)).filter(|&v| v != UNREACHED)
    }

    /// Entries at each distance up to `max_depth`, and last those further (at least
    /// `max_depth + 1`): what the table's header records.
    pub fn histogram(&self) -> Vec<u64> {
        let slots = usize::from(self.max_depth) + 2;
        let full = (self.entries / 2) as usize;
        let by_byte = self.nibbles[..full]
            .par_chunks(1 << 16)
            .fold(
                || [0u64; 256],
                |mut counts, bytes| {
                    for &byte in bytes {
                        counts[usize::from(byte)] += 1;
                    }
                    counts
                },
            )
            .reduce(|| [0; 256], |a, b| std::array::from_fn(|i| a[i] + b[i]));
        let mut counts = vec![0u64; slots];
        let mut count = |value: u8, n: u64| counts[usize::from(value).min(slots - 1)] += n;
        for (byte, &n) in by_byte.iter().enumerate() {
            count(byte as u8 & 0xF, n);
            count(byte as u8 >> 4, n);
        }
        if self.entries % 2 == 1 {
            count(nibble(&self.nibbles, self.entries - 1), 1);
        }
        counts
    }
}

/// Fills `table` (over the member `All`, whose space `space` is) with the smallest distances up
/// to `max_depth`: exact ones from the cosets within `near` moves, the rest by the walk from
/// those at exactly `near` (see the module's text). `progress` counts the near cosets, then
/// the walk's roots.
pub fn fill(
    space: &H48Space,
    table: H48Table,
    near: u8,
    max_depth: u8,
    progress: &ProgressBar,
) -> Filled {
    assert!(max_depth < UNREACHED, "four bits hold the depths written");
    let entries = table.entries();
    let cells = filled_cells(entries.div_ceil(2) as usize);
    let (_, passes) = walk_into(space, table, near, max_depth, &cells, &Nibbles, progress);
    Filled {
        nibbles: cells.into_iter().map(AtomicU8::into_inner).collect(),
        entries,
        max_depth,
        passes,
    }
}

/// The sparse search to `near` and the walk from its edge to `max_depth`, lowering entries of
/// `cells` (laid out by `layout`); returns the near cosets and the passes.
fn walk_into<L: Layout>(
    space: &H48Space,
    table: H48Table,
    near: u8,
    max_depth: u8,
    cells: &[AtomicU8],
    layout: &L,
    progress: &ProgressBar,
) -> (NearStates, Vec<Pass>) {
    progress.set_message("cosets near solved, by depth");
    progress.set_length(u64::from(near));
    progress.set_position(0);
    let (found, mut passes) = breadth_first_near(space, near, progress);
    let walk = FillWalk {
        space,
        table,
        near: &found,
        max_depth,
        faces: space.moves().iter().map(|m| m.face()).collect(),
    };
    {
        let regions = Regions::new(cells, layout);
        found.par_iter().for_each_init(
            || regions.writes(),
            |writes, (&state, &depth)| {
                if depth <= max_depth {
                    walk.write(state, depth, writes);
                }
            },
        );
    }
    let roots: Vec<u64> = found
        .iter()
        .filter(|&(_, &depth)| depth == near)
        .map(|(&state, _)| state)
        .collect();
    progress.set_message("walk from the cosets at the edge");
    progress.set_length(roots.len() as u64);
    progress.set_position(0);
    if near < max_depth {
        let start = Instant::now();
        let regions = Regions::new(cells, layout);
        roots.par_chunks(256).for_each_init(
            || regions.writes(),
            |writes, chunk| {
                for &root in chunk {
                    walk.from(space.coord_of(root), near, None, writes);
                }
                progress.inc(chunk.len() as u64);
            },
        );
        passes.push(Pass {
            depth: usize::from(max_depth),
            backward: false,
            found: roots.len() as u64,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    (found, passes)
}

/// The depth-first walk of [`fill`] and [`fill_based`] and what it writes into.
struct FillWalk<'a> {
    space: &'a H48Space,
    table: H48Table,
    near: &'a NearStates,
    max_depth: u8,
    /// The face of each turn, for the canonical order of moves.
    faces: Vec<Face>,
}

impl FillWalk<'_> {
    /// Walks every canonical sequence from `c` (at `depth` moves, reached last by a turn of
    /// `last`) until `max_depth`, writing each coset reached.
    fn from<L: Layout>(&self, c: H48Coord, depth: u8, last: Option<Face>, writes: &mut Writes<L>) {
        let next = depth + 1;
        let leaf = next == self.max_depth;
        let mut children = [(H48Coord::default(), 0u64, Face::U); 18];
        let mut count = 0;
        for (turn, &face) in self.faces.iter().enumerate() {
            if let Some(last) = last
                && !last.may_follow(face)
            {
                continue;
            }
            let child = self.space.apply_coord(c, turn);
            self.space.prefetch_class(child);
            children[count] = (child, 0, face);
            count += 1;
        }
        for (child, index, _) in &mut children[..count] {
            *index = self.space.index(*child);
        }
        for &(child, index, face) in &children[..count] {
            if leaf {
                self.write(index, next, writes);
                continue;
            }
            if self.near.contains_key(&self.space.representative(index)) {
                continue;
            }
            self.write(index, next, writes);
            self.from(child, next, Some(face), writes);
        }
    }

    /// Lowers the entries of every index of the coset with member index `index` to `depth`.
    #[inline]
    fn write<L: Layout>(&self, index: u64, depth: u8, writes: &mut Writes<L>) {
        self.space.for_each_variant(index, |variant| {
            writes.push(self.table.entry_of(variant), depth);
        });
    }
}

/// Where an entry lies in a working table and what a write of a depth stores there: a smaller
/// depth never stores a larger value, so an entry that keeps its smallest value keeps what its
/// smallest write stored.
trait Layout: Sync {
    /// The bits of an entry, at shift 0.
    const MASK: u8;
    /// The byte holding entry `entry`, and the shift of its bits in it.
    fn locate(&self, entry: u64) -> (usize, u32);
    /// What a write of `depth` stores.
    fn code(&self, depth: u8) -> u8;
}

/// Four bits an entry, two a byte, the depth itself: [`Filled`]'s layout.
struct Nibbles;

impl Layout for Nibbles {
    const MASK: u8 = 0xF;
    #[inline(always)]
    fn locate(&self, entry: u64) -> (usize, u32) {
        ((entry / 2) as usize, (entry & 1) as u32 * 4)
    }
    #[inline(always)]
    fn code(&self, depth: u8) -> u8 {
        depth
    }
}

/// Two bits an entry in the based payload's lines, the depth's code over `base`.
struct Lines {
    base: u8,
}

impl Layout for Lines {
    const MASK: u8 = 3;
    #[inline(always)]
    fn locate(&self, entry: u64) -> (usize, u32) {
        based::locate(entry)
    }
    #[inline(always)]
    fn code(&self, depth: u8) -> u8 {
        based::code_of(depth, self.base)
    }
}

/// The working table cut into regions of `2^REGION_BITS` bytes (2 MiB, whole lines of the
/// based layout), each with a lock. A write lands anywhere in gigabytes, so written as it
/// comes each one misses the TLB as well as the cache, and a locked read-modify-write stops the
/// processor from overlapping the misses: the first version of the walk spent 84% of its time
/// there and ran for more than half an hour on `h48-eo6`. Gathered by region ([`Writes`]) and
/// applied a region at a time under its lock, the writes are plain loads and stores into 2 MiB
/// whose pages the TLB holds, prefetched a few ahead.
struct Regions<'a, L: Layout> {
    cells: &'a [AtomicU8],
    layout: &'a L,
    locks: Vec<Mutex<()>>,
}

/// Bytes of a region, as a power of two.
const REGION_BITS: u32 = 21;
/// Writes gathered for a region before they are applied.
const GATHER: usize = 1024;
/// How far ahead of a write its byte is asked for.
const AHEAD: usize = 16;

impl<'a, L: Layout> Regions<'a, L> {
    fn new(cells: &'a [AtomicU8], layout: &'a L) -> Regions<'a, L> {
        let regions = cells.len().div_ceil(1 << REGION_BITS);
        Regions {
            cells,
            layout,
            locks: (0..regions).map(|_| Mutex::new(())).collect(),
        }
    }

    /// A buffer of writes for one task; it applies what it holds when dropped.
    fn writes(&self) -> Writes<'_, L> {
        Writes {
            regions: self,
            gathered: (0..self.locks.len()).map(|_| Vec::new()).collect(),
        }
    }

    /// Applies `writes` (each a [`Writes::record`]) to region `region`.
    fn apply(&self, region: usize, writes: &[u64]) {
        let _held = self.locks[region]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (i, &write) in writes.iter().enumerate() {
            if let Some(&ahead) = writes.get(i + AHEAD) {
                crate::space::prefetch(self.cells, Writes::<L>::byte(ahead));
            }
            let (at, shift, code) = (
                Writes::<L>::byte(write),
                (write & 7) as u32,
                (write >> 56) as u8,
            );
            let cell = &self.cells[at];
            let byte = cell.load(Relaxed);
            if code < (byte >> shift) & L::MASK {
                cell.store(byte & !(L::MASK << shift) | code << shift, Relaxed);
            }
        }
    }
}

/// One task's writes, gathered by region (see [`Regions`]).
struct Writes<'a, L: Layout> {
    regions: &'a Regions<'a, L>,
    gathered: Vec<Vec<u64>>,
}

impl<L: Layout> Writes<'_, L> {
    /// A write as it waits for its region: the entry located once, when it is made (byte from
    /// bit 3, shift in bits 0-2, under 2^53 bytes), and the value it stores in the top byte.
    #[inline(always)]
    fn record(at: usize, shift: u32, code: u8) -> u64 {
        (at as u64) << 3 | u64::from(shift) | u64::from(code) << 56
    }

    /// The byte a [`Writes::record`] lowers.
    #[inline(always)]
    fn byte(record: u64) -> usize {
        ((record & ((1 << 56) - 1)) >> 3) as usize
    }

    /// Lowers entry `entry` to `depth`, now or when its region's writes are applied.
    #[inline]
    fn push(&mut self, entry: u64, depth: u8) {
        let layout = self.regions.layout;
        let (at, shift) = layout.locate(entry);
        let list = &mut self.gathered[at >> REGION_BITS];
        if list.capacity() == 0 {
            list.reserve_exact(GATHER);
        }
        list.push(Self::record(at, shift, layout.code(depth)));
        if list.len() == GATHER {
            self.regions.apply(at >> REGION_BITS, list);
            list.clear();
        }
    }
}

impl<L: Layout> Drop for Writes<'_, L> {
    fn drop(&mut self) {
        for (region, list) in self.gathered.iter().enumerate() {
            if !list.is_empty() {
                self.regions.apply(region, list);
            }
        }
    }
}
