//! The exact number of moves that bring a position into Kociemba's subgroup
//! H = <U, D, R2, L2, F2, B2>, read from the `phase1-sym` table: what phase 1 of the two-phase
//! method and the coset search both walk by.

use super::heuristic::{Entries, open_table};
use crate::bfs::MixHasher;
use crate::catalogue::{TableId, TableKind};
use crate::model::cube::{Metric, Move, Symmetry};
use crate::space::phase1::{FLIPS, Phase1Coord, Phase1Space};
use crate::space::twophase::{SymProduct, TWISTS, flip_slice};
use crate::table::{Table, TableError};
use rayon::prelude::*;
use std::hash::Hasher;
use std::path::Path;

/// The mapped `phase1-sym` table of one metric and the index its classes need.
pub struct DistanceIntoH {
    metric: Metric,
    index: SymProduct,
    entries: Entries,
    // The mapping `entries` reads; declared last, dropped after it.
    _table: Table,
}

impl DistanceIntoH {
    /// Maps the table of `metric` from `dir`; the caller has checked that it is present (a
    /// missing table's error names the command that builds it, see [`super::heuristic`]).
    pub fn open(dir: &Path, metric: Metric) -> Result<DistanceIntoH, TableError> {
        let table = open_table(dir, TableId::new(TableKind::Phase1Sym, metric))?;
        Ok(DistanceIntoH::of(table, SymProduct::phase1(), metric))
    }

    /// The reader of a mapped `phase1-sym` table of `metric`, with its index built by the
    /// caller (the two-phase solver builds it beside the phase-2 one).
    pub fn of(table: Table, index: SymProduct, metric: Metric) -> DistanceIntoH {
        DistanceIntoH {
            metric,
            index,
            entries: Entries::of(&table),
            _table: table,
        }
    }

    /// The metric whose moves the distances count.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The exact number of moves from a phase-1 coordinate into H.
    #[inline(always)]
    pub fn distance(&self, c: Phase1Coord) -> u8 {
        self.distance_at(self.index.index(flip_slice(c), c.twist.into()))
    }

    /// Prefetches what an entry's index reads first: the class of the coordinate's
    /// flip-and-slice part (a 4 MB table).
    #[inline(always)]
    pub fn prefetch_class(&self, c: Phase1Coord) {
        self.index.prefetch(flip_slice(c));
    }

    /// The index of the table's entries, which [`TurnsIntoH`] shares.
    pub fn product(&self) -> &SymProduct {
        &self.index
    }

    /// The distance at entry `entry` of the table.
    #[inline(always)]
    pub fn distance_at(&self, entry: u64) -> u8 {
        self.entries.nibble(entry)
    }
}

/// A phase-1 coordinate's distance into H and what each turn does to it, a bit per turn (by
/// its place among its metric's moves, [`Phase1Space::moves`]; in HTM that is
/// [`Move::index`]): the turns that lower the distance and those that keep it; the rest raise
/// it by one. `lowers` and `keeps` are disjoint, `lowers` is empty in H, and the distance is at
/// most 13 (phase 1's diameter: 12 in HTM, 13 in QTM), so that it packs in a nibble.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turns {
    pub distance: u8,
    pub lowers: u32,
    pub keeps: u32,
}

impl Turns {
    /// The turns to a child at most `left` moves from H.
    #[inline]
    pub fn arriving(self, left: u8) -> u32 {
        if left + 1 == self.distance {
            self.lowers
        } else if left == self.distance {
            self.lowers | self.keeps
        } else if left > self.distance {
            ALL_TURNS
        } else {
            0
        }
    }

    /// The distance of the child `turn` reaches.
    #[inline]
    pub fn after(self, turn: usize) -> u8 {
        if self.lowers >> turn & 1 != 0 {
            self.distance - 1
        } else if self.keeps >> turn & 1 != 0 {
            self.distance
        } else {
            self.distance + 1
        }
    }

    /// Reads them off the distances of the coordinate and of its children by each of
    /// `turn_count` turns.
    pub fn of(distance: u8, turn_count: usize, child_distance: impl Fn(usize) -> u8) -> Turns {
        let (mut lowers, mut keeps) = (0, 0);
        // Without branches: the comparisons' outcomes are the table's data, and this runs for
        // each of the turns of 141 million entries when a search starts.
        for turn in 0..turn_count {
            let after = child_distance(turn);
            lowers |= u32::from(after < distance) << turn;
            keeps |= u32::from(after == distance) << turn;
        }
        Turns {
            distance,
            lowers,
            keeps,
        }
    }
}

/// Every turn, a bit each.
const ALL_TURNS: u32 = (1 << Move::COUNT) - 1;

/// [`Turns`] of a few hundred thousand phase-1 coordinates at most, by coordinate index: an
/// open-addressed table (linear probing, at most half full) whose slot a search can prefetch
/// before it reads it, as it prefetches table entries. A `HashMap` here kept its lookups waiting
/// on a miss of the last-level cache each, a fifth of a coset search's time (reports/coset.md).
pub struct NearTurns {
    slots: Vec<NearSlot>,
    /// `slots.len() - 1`; the length is a power of two.
    mask: usize,
}

/// A slot of [`NearTurns`]: a coordinate index ([`NearSlot::EMPTY`] for none) and its turns.
#[derive(Clone, Copy)]
struct NearSlot {
    index: u32,
    turns: Turns,
}

impl NearSlot {
    /// No phase-1 index (fewer than 2^32 - 1) is this.
    const EMPTY: u32 = u32::MAX;
}

impl NearTurns {
    /// The table of `entries` (coordinate index, turns), indices below 2^32 - 1.
    pub fn new(entries: impl ExactSizeIterator<Item = (u64, Turns)>) -> NearTurns {
        let capacity = (entries.len() * 2).next_power_of_two().max(16);
        let empty = NearSlot {
            index: NearSlot::EMPTY,
            turns: Turns {
                distance: 0,
                lowers: 0,
                keeps: 0,
            },
        };
        let mut near = NearTurns {
            slots: vec![empty; capacity],
            mask: capacity - 1,
        };
        let mut inserted = 0;
        for (index, turns) in entries {
            let index = u32::try_from(index)
                .ok()
                .filter(|&i| i != NearSlot::EMPTY)
                .expect("phase-1 indices are below 2^32 - 1");
            let mut slot = near.home(index);
            while near.slots[slot].index != NearSlot::EMPTY && near.slots[slot].index != index {
                slot = (slot + 1) & near.mask;
            }
            near.slots[slot] = NearSlot { index, turns };
            inserted += 1;
        }
        // At most half full, so that every probe meets an empty slot soon.
        assert!(
            inserted * 2 <= capacity,
            "more entries than the iterator's length"
        );
        near
    }

    /// The slot where the search for `index` starts; `None` for an index the table cannot hold.
    #[inline(always)]
    fn home_of(&self, index: u64) -> Option<(u32, usize)> {
        let index = u32::try_from(index)
            .ok()
            .filter(|&i| i != NearSlot::EMPTY)?;
        Some((index, self.home(index)))
    }

    /// The slot where `index` is looked for first: the hash the breadth-first engine's maps
    /// use.
    #[inline(always)]
    fn home(&self, index: u32) -> usize {
        let mut hasher = MixHasher::default();
        hasher.write_u64(index.into());
        hasher.finish() as usize & self.mask
    }

    /// Prefetches the slot where [`NearTurns::get`] starts looking for `index`.
    #[inline(always)]
    pub fn prefetch(&self, index: u64) {
        if let Some((_, slot)) = self.home_of(index) {
            crate::support::prefetch(&self.slots, slot);
        }
    }

    /// The turns of coordinate `index`, if the table holds them.
    #[inline]
    pub fn get(&self, index: u64) -> Option<Turns> {
        let (index, mut slot) = self.home_of(index)?;
        loop {
            let found = self.slots[slot];
            if found.index == index {
                return Some(found.turns);
            }
            if found.index == NearSlot::EMPTY {
                return None;
            }
            slot = (slot + 1) & self.mask;
        }
    }
}

/// [`Turns`] for every entry of the `phase1-sym` table, four bytes an entry (564 MB), so that
/// a search that walks sequences into H reads one entry a node, its own, and turns only the
/// moves that can still arrive; with distances alone it reads the entry of every child
/// (thirteen a node in a coset search) to find the one or two that do. Rokicki's phase-1
/// table holds the same (cube20src, phase1prune.w). Built from the distances when the search
/// starts, a class at a time: a class's children by one turn lie in one other class, so its
/// reads stay in cache (a few seconds on two cores); a table file would cost 564 MB of disk
/// for them.
///
/// An entry holds, for the position the index stands for (the class's representative seen
/// with that twist), its distance in bits 0-3 and, per face, a nibble at bit `4 + 4·face`: its
/// turns' changes of distance (see [`FaceCode`]). A position seen through a symmetry has its
/// turns renamed by it, per face nibble from a table.
pub struct TurnsIntoH {
    into_h: DistanceIntoH,
    entries: memmap2::MmapMut,
    /// `[(symmetry * 6 + face) * 16 + nibble]`: the turns that lower (low half) and keep (high
    /// half) the distance, in the position's own turns, of a face nibble of an entry seen
    /// through the `symmetry`th of [`Symmetry::ud`].
    decode: Vec<u64>,
}

/// Faces of the cube, a nibble each in an entry.
const FACES: usize = 6;

impl TurnsIntoH {
    /// Builds the turns of every entry of `into_h`'s table, whose metric's moves `phase1` turns.
    pub fn new(into_h: DistanceIntoH, phase1: &Phase1Space) -> std::io::Result<TurnsIntoH> {
        let code = FaceCode::of(into_h.metric());
        assert_eq!(
            phase1.moves().len(),
            FACES * code.turns_per_face(),
            "the phase-1 space turns the table's metric's moves"
        );
        let product = into_h.product();
        let twists = TWISTS as usize;
        let mut entries = memmap2::MmapMut::map_anon(product.class_count() as usize * twists * 4)?;
        #[cfg(target_os = "linux")]
        let _ = entries.advise(memmap2::Advice::HugePage);
        let seen = twists_seen(product, phase1);
        words_mut(&mut entries)
            .par_chunks_mut(twists)
            .enumerate()
            .for_each_init(
                || vec![0u8; (phase1.moves().len() + 1) * twists],
                |distances, (class, row)| {
                    class_turns(&into_h, phase1, &seen, class as u32, distances, row);
                },
            );
        Ok(TurnsIntoH {
            into_h,
            entries,
            decode: decode_table(phase1.moves(), code),
        })
    }

    /// The distances the turns were read from.
    pub fn distances(&self) -> &DistanceIntoH {
        &self.into_h
    }

    /// Prefetches what [`TurnsIntoH::entry`] reads first (see [`DistanceIntoH::prefetch_class`]).
    #[inline(always)]
    pub fn prefetch_class(&self, c: Phase1Coord) {
        self.into_h.prefetch_class(c);
    }

    /// Where the turns of `c` are, their word not yet prefetched (see [`TurnsIntoH::prefetch_entry`]).
    #[inline(always)]
    pub fn entry(&self, c: Phase1Coord) -> TurnsEntry {
        let product = self.into_h.product();
        let first = flip_slice(c);
        TurnsEntry {
            index: product.index(first, c.twist.into()),
            symmetry: product.symmetry(first),
        }
    }

    /// Prefetches the word of `entry`. A search that reads several prefetches them all back to
    /// back, once all are found, so that their misses overlap: a prefetch here holds the
    /// processor until its line is on its way.
    #[inline(always)]
    pub fn prefetch_entry(&self, entry: TurnsEntry) {
        crate::support::prefetch(words(&self.entries), entry.index as usize);
    }

    /// The turns at an entry found by [`TurnsIntoH::entry`], in the position's own turns.
    #[inline(always)]
    pub fn turns_at(&self, entry: TurnsEntry) -> Turns {
        let word = words(&self.entries)[entry.index as usize];
        let decode = &self.decode[usize::from(entry.symmetry) * FACES * 16..][..FACES * 16];
        let mut both = 0u64;
        for face in 0..FACES {
            both |= decode[face * 16 + (word >> (4 + 4 * face) & 0xF) as usize];
        }
        Turns {
            distance: (word & 0xF) as u8,
            lowers: both as u32,
            keeps: (both >> 32) as u32,
        }
    }

    /// The turns of a coordinate.
    pub fn turns(&self, c: Phase1Coord) -> Turns {
        self.turns_at(self.entry(c))
    }
}

/// `[(turn * 16 + symmetry) * 2187 + twist]`: where in a class's row of twists the twist after
/// the turn lies, seen through the `symmetry`th of [`Symmetry::ud`] (the turn one past the
/// last: no turn).
fn twists_seen(product: &SymProduct, phase1: &Phase1Space) -> Vec<u32> {
    let syms = Symmetry::ud().len() as u8;
    let turn_count = phase1.moves().len();
    (0..=turn_count)
        .flat_map(|turn| (0..syms).map(move |symmetry| (turn, symmetry)))
        .flat_map(|(turn, symmetry)| {
            (0..TWISTS as u16).map(move |twist| {
                let coord = Phase1Coord {
                    twist,
                    ..Phase1Coord::default()
                };
                let twist = if turn == turn_count {
                    twist
                } else {
                    phase1.apply_coord(coord, turn).twist
                };
                product.index_seen(0, symmetry, twist.into()) as u32
            })
        })
        .collect()
}

/// Fills `row` with the turns of `class`'s entries, through `distances` (room for a row of
/// distances per turn and one more). A turn takes the whole row to one class: that class is
/// found once, and the children's distances read from its row, a twist at a time; the row
/// itself comes last, as the turn one past the last.
fn class_turns(
    into_h: &DistanceIntoH,
    phase1: &Phase1Space,
    seen: &[u32],
    class: u32,
    distances: &mut [u8],
    row: &mut [u32],
) {
    let product = into_h.product();
    let twists = TWISTS as usize;
    let turn_count = phase1.moves().len();
    let code = FaceCode::of(into_h.metric());
    let first = product.class_representative(class);
    let base = Phase1Coord {
        slice: (u64::from(first) / FLIPS) as u16,
        flip: (u64::from(first) % FLIPS) as u16,
        twist: 0,
    };
    for (turn, distances) in distances.chunks_mut(twists).enumerate() {
        let first = if turn == turn_count {
            first
        } else {
            flip_slice(phase1.apply_coord(base, turn))
        };
        let (to, symmetry) = (product.class_of(first), product.symmetry(first));
        let start = u64::from(to) * u64::from(TWISTS);
        let seen = &seen[(turn * Symmetry::ud().len() + usize::from(symmetry)) * twists..];
        for (distance, &at) in distances.iter_mut().zip(seen) {
            *distance = into_h.distance_at(start + u64::from(at));
        }
    }
    let (children, own) = distances.split_at(turn_count * twists);
    for (twist, word) in row.iter_mut().enumerate() {
        *word = code.pack(Turns::of(own[twist], turn_count, |turn| {
            children[turn * twists + twist]
        }));
    }
}

/// Where [`TurnsIntoH::turns_at`] finds a coordinate's turns.
#[derive(Clone, Copy, Debug, Default)]
pub struct TurnsEntry {
    index: u64,
    symmetry: u8,
}

/// How a face's turns' changes of distance fill its nibble of an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FaceCode {
    /// HTM: a face's three turns reach positions a move apart, so their changes cannot hold
    /// both a rise and a fall: bit 3 set for rises (clear for falls), bit `k` for whether turn
    /// `k` changes the distance at all.
    ThreeTurns,
    /// QTM: a face's two quarter turns reach positions two moves apart (`U2`), so one may
    /// raise the distance and the other lower it: two bits a turn, bit `2k` for a fall and
    /// bit `2k + 1` for a rise.
    TwoTurns,
}

/// What a turn does to the distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    Falls,
    Keeps,
    Rises,
}

impl FaceCode {
    fn of(metric: Metric) -> FaceCode {
        match metric {
            Metric::Htm => FaceCode::ThreeTurns,
            Metric::Qtm => FaceCode::TwoTurns,
        }
    }

    fn turns_per_face(self) -> usize {
        match self {
            FaceCode::ThreeTurns => 3,
            FaceCode::TwoTurns => 2,
        }
    }

    /// The entry word of `turns`, in the frame they were read in (a bit operation per face:
    /// it runs for each of the table's 141 million entries when a search starts).
    fn pack(self, turns: Turns) -> u32 {
        let per_face = self.turns_per_face();
        let rising = !(turns.lowers | turns.keeps);
        let mut word = u32::from(turns.distance);
        for face in 0..FACES {
            let falls = turns.lowers >> (per_face * face) & 7 >> (3 - per_face);
            let rises = rising >> (per_face * face) & 7 >> (3 - per_face);
            let nibble = match self {
                FaceCode::ThreeTurns => {
                    debug_assert!(
                        falls == 0 || rises == 0,
                        "two turns of one face are a move apart"
                    );
                    if rises != 0 { 8 | rises } else { falls }
                }
                FaceCode::TwoTurns => {
                    (falls & 1) | (rises & 1) << 1 | (falls >> 1) << 2 | (rises >> 1) << 3
                }
            };
            word |= nibble << (4 + 4 * face);
        }
        word
    }

    /// What turn `k` of a face does, by the face's nibble.
    fn change(self, nibble: u64, k: usize) -> Change {
        match self {
            FaceCode::ThreeTurns if nibble >> k & 1 == 0 => Change::Keeps,
            FaceCode::ThreeTurns if nibble & 8 == 0 => Change::Falls,
            FaceCode::ThreeTurns => Change::Rises,
            FaceCode::TwoTurns => match nibble >> (2 * k) & 3 {
                0 => Change::Keeps,
                1 => Change::Falls,
                _ => Change::Rises,
            },
        }
    }
}

/// [`TurnsIntoH::decode`]: a nibble of face `face` read in the frame of the conjugate by
/// symmetry `s` describes the turns (of `moves`, a metric's moves face by face) that
/// `map_move_of(s, ·)` takes to that face's.
fn decode_table(moves: &[Move], code: FaceCode) -> Vec<u64> {
    let per_face = code.turns_per_face();
    let turn_of = |m: Move| {
        moves
            .iter()
            .position(|&own| own == m)
            .expect("a symmetry maps a metric's moves onto themselves")
    };
    let mut decode = vec![0u64; Symmetry::ud().len() * FACES * 16];
    for (index, &s) in Symmetry::ud().iter().enumerate() {
        // The position's turn that the symmetry makes each turn of the conjugate.
        let mut from = [0usize; Move::COUNT];
        for (turn, &m) in moves.iter().enumerate() {
            from[turn_of(Symmetry::map_move_of(s, m))] = turn;
        }
        for face in 0..FACES {
            for nibble in 0..16u64 {
                let mut both = 0u64;
                for k in 0..per_face {
                    let own = from[per_face * face + k];
                    match code.change(nibble, k) {
                        Change::Keeps => both |= 1 << (32 + own),
                        Change::Falls => both |= 1 << own,
                        Change::Rises => {}
                    }
                }
                decode[(index * FACES + face) * 16 + nibble as usize] = both;
            }
        }
    }
    decode
}

/// The turns table's words.
fn words(map: &memmap2::MmapMut) -> &[u32] {
    // SAFETY: an anonymous mapping is page-aligned, its length a multiple of four (see
    // `TurnsIntoH::new`), and it lives as long as the borrow.
    unsafe { std::slice::from_raw_parts(map.as_ptr().cast::<u32>(), map.len() / 4) }
}

/// The turns table's words, to fill.
fn words_mut(map: &mut memmap2::MmapMut) -> &mut [u32] {
    // SAFETY: as in `words`, the borrow being unique.
    unsafe { std::slice::from_raw_parts_mut(map.as_mut_ptr().cast::<u32>(), map.len() / 4) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns(i: u64) -> Turns {
        Turns {
            distance: (i % 13) as u8,
            lowers: (i * 7) as u32 & ALL_TURNS,
            keeps: (i * 11) as u32 & ALL_TURNS & !((i * 7) as u32),
        }
    }

    /// Every entry is found with its turns and nothing else is: spread over the phase-1 range.
    #[test]
    fn near_turns_holds_exactly_its_entries() {
        let indices: Vec<u64> = (0..5_000u64).map(|i| i * 443_419 % 2_217_093_120).collect();
        let near = NearTurns::new(indices.iter().map(|&i| (i, turns(i))));
        for &i in &indices {
            assert_eq!(near.get(i), Some(turns(i)), "{i}");
        }
        let absent = (0..5_000u64).map(|i| i * 443_419 % 2_217_093_120 + 1);
        for i in absent.filter(|i| !indices.contains(i)) {
            assert_eq!(near.get(i), None, "{i}");
        }
        for beyond in [u64::from(u32::MAX), u64::from(u32::MAX) + 5] {
            assert_eq!(near.get(beyond), None);
        }
    }

    /// Keys that share the last slot as their home: the probe runs past the end of the table
    /// and on from its start, and a key absent from the run is not found.
    #[test]
    fn near_turns_probes_wrap_around() {
        // Eight entries: sixteen slots, as in an empty table.
        let empty = NearTurns::new(std::iter::empty());
        let mut sharing = (0u32..).filter(|&i| empty.home(i) == 15).map(u64::from);
        let indices: Vec<u64> = sharing.by_ref().take(8).collect();
        let near = NearTurns::new(indices.iter().map(|&i| (i, turns(i))));
        assert_eq!(near.slots.len(), 16);
        for &i in &indices {
            assert_eq!(near.get(i), Some(turns(i)), "{i}");
        }
        let next = sharing.next().unwrap_or_default();
        assert_eq!(near.get(next), None);
    }
}
