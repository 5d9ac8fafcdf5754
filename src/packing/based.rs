//! 2-bit entries relative to a base, with an exact fallback per cache line: the encoding of the
//! large coset tables (Tomas Rokicki's, in nxopt).
//!
//! An entry holds 0 for "at most `base`", or 1, 2, 3 for `base + 1`, `base + 2`, "at least
//! `base + 3`". Entries come in 64-byte lines of 254 (508 bits); the line's last four bits hold
//! the smallest exact distance of its 254 entries, which is what a 0 reads as: a bound that is
//! still admissible, and on the same cache line as the entry, so it costs no second miss. With
//! the base one below the most common distance, nearly every read is exact, in half the memory
//! of 4-bit entries. (Storing distances mod 3 instead would need the parent's exact value, which
//! a lookup of the inverse position does not have.)
//!
//! ```text
//! line k (bytes 64k..64k+64): entries 254k.., entry j at bits 2j..2j+2; bits 508..512: minimum
//! last 64 bytes: byte 0 the base, the rest zero
//! ```

use super::nibble;

/// Bytes per line: one cache line.
pub const LINE_BYTES: usize = 64;
/// Entries per line.
pub const PER_LINE: u64 = 254;
/// Largest base: `base + 3` must fit the four bits a line's minimum has.
pub const MAX_BASE: u8 = 12;

/// Payload size for `entries` entries: the lines, then the trailer that holds the base.
pub const fn payload_bytes(entries: u64) -> u64 {
    (entries.div_ceil(PER_LINE) + 1) * LINE_BYTES as u64
}

/// The base for a table with this distance histogram: one below its most common distance
/// (nxopt's rule of thumb), so that the common distances are read exactly.
pub fn base_of(histogram: &[u64]) -> u8 {
    let mode = (0..histogram.len())
        .max_by_key(|&d| histogram[d])
        .unwrap_or(0);
    (mode.saturating_sub(1) as u8).min(MAX_BASE)
}

/// The base that makes the bound largest on average over a table with this distance
/// histogram, reading an entry past `base + 3` as `base + 3` and a 0 as two below the base (a
/// 0 falls back to its line's minimum, which sits a little under the base). Where one distance
/// holds most entries, as in the `h48` tables (63% at 12 in `h48-flips`), nxopt's rule
/// ([`base_of`]) leaves a third of all reads at 0 and this rule picks one lower; the `ud` tables
/// keep nxopt's rule, with which their files were written.
pub fn best_base(histogram: &[u64]) -> u8 {
    let expected = |base: u8| -> u64 {
        let b = u64::from(base);
        (0..histogram.len() as u64)
            .map(|d| {
                let read = if d <= b {
                    b.saturating_sub(2)
                } else {
                    d.min(b + 3)
                };
                histogram[d as usize] * read
            })
            .sum()
    };
    (0..=MAX_BASE)
        .max_by_key(|&b| (expected(b), std::cmp::Reverse(b)))
        .unwrap_or(0)
}

/// Packs `entries` exact 4-bit entries (two per byte, as the BFS engine leaves them) into based
/// lines, in the same buffer: line `k` is written at byte `64k`, at or before where its own
/// entries start (`127k`), once they are read, so nothing unread is overwritten.
pub fn pack(mut nibbles: Vec<u8>, entries: u64, base: u8) -> Vec<u8> {
    let lines = entries.div_ceil(PER_LINE) as usize;
    let mut values = [0u8; PER_LINE as usize];
    for line in 0..lines {
        let count = line_values(entries, line, &mut values, |i| nibble(&nibbles, i));
        write_line(
            &mut nibbles[line * LINE_BYTES..(line + 1) * LINE_BYTES],
            &values[..count],
            base,
        );
    }
    nibbles.resize((lines + 1) * LINE_BYTES, 0);
    // The buffer is cut, not cleared: the trailer would keep entries' old bytes.
    nibbles[lines * LINE_BYTES..].fill(0);
    nibbles[lines * LINE_BYTES] = base;
    nibbles.shrink_to_fit();
    nibbles
}

/// The based payload and the histogram of a coarser table read off `exact` (4-bit entries, two
/// a byte): its entry `i` is the smallest of the `2^group_bits` exact entries from
/// `i << group_bits` on, a bound for every position of all of them. A first pass counts the
/// histogram, from which `base_of` picks the base; a second writes the lines. The coarser
/// table thus needs no exact copy of its own beside the source.
pub fn pack_collapsed(
    exact: &[u8],
    entries: u64,
    group_bits: u32,
    base_of: fn(&[u64]) -> u8,
) -> (Vec<u8>, Vec<u64>) {
    use rayon::prelude::*;
    let group = |i: u64| {
        let first = i << group_bits;
        (first..first + (1 << group_bits))
            .map(|j| nibble(exact, j))
            .min()
            .unwrap_or(0)
    };
    let lines = entries.div_ceil(PER_LINE) as usize;
    let histogram = (0..lines)
        .into_par_iter()
        .fold(
            || vec![0u64; 16],
            |mut counts, line| {
                let mut values = [0u8; PER_LINE as usize];
                let count = line_values(entries, line, &mut values, group);
                for &v in &values[..count] {
                    counts[usize::from(v)] += 1;
                }
                counts
            },
        )
        .reduce(
            || vec![0u64; 16],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        );
    let mut histogram = histogram;
    while histogram.last() == Some(&0) {
        histogram.pop();
    }
    let base = base_of(&histogram);
    let mut payload = vec![0u8; (lines + 1) * LINE_BYTES];
    payload[..lines * LINE_BYTES]
        .par_chunks_mut(LINE_BYTES)
        .enumerate()
        .for_each(|(line, out)| {
            let mut values = [0u8; PER_LINE as usize];
            let count = line_values(entries, line, &mut values, group);
            write_line(out, &values[..count], base);
        });
    payload[lines * LINE_BYTES] = base;
    (payload, histogram)
}

/// The byte of a payload that holds entry `index`, and the shift of its two bits in it.
#[inline(always)]
pub fn locate(index: u64) -> (usize, u32) {
    let line = (index / PER_LINE) as usize;
    let j = (index % PER_LINE) as usize;
    (line * LINE_BYTES + j / 4, (j % 4) as u32 * 2)
}

/// Completes a payload whose codes were written in place: `payload` holds
/// [`payload_bytes`]`(entries)` bytes, each entry's code at [`locate`] and every other bit set.
/// Writes each line's minimum, clears the bits past the last entry and writes the trailer, so
/// that the payload equals what [`pack`] makes of the exact entries. Those are: the values in
/// `below` (entry and value, sorted by entry, each entry once, every value under the base);
/// `base` for every other entry of code 0; `base + 1` and `base + 2` for codes 1 and 2; and for
/// code 3 values of `base + 3` or more, of which a line holding nothing else records
/// `unwritten` as its minimum (no read of code 0 reaches it, so any value is admissible).
/// Returns the exact entries' histogram: the values under the base, the base, then the
/// entries of codes 1, 2 and 3.
pub fn complete(
    payload: &mut [u8],
    entries: u64,
    base: u8,
    below: &[(u64, u8)],
    unwritten: u8,
) -> Vec<u64> {
    use rayon::prelude::*;
    let lines = entries.div_ceil(PER_LINE) as usize;
    assert_eq!(
        payload.len(),
        (lines + 1) * LINE_BYTES,
        "a payload of {entries} entries"
    );
    let (body, trailer) = payload.split_at_mut(lines * LINE_BYTES);
    trailer.fill(0);
    trailer[0] = base;
    let codes = body
        .par_chunks_mut(LINE_BYTES)
        .enumerate()
        .fold(
            || [0u64; 4],
            |mut codes, (line, out)| {
                let count = (entries - line as u64 * PER_LINE).min(PER_LINE) as usize;
                let mut line_codes = [0u64; 4];
                for j in 0..count {
                    line_codes[usize::from((out[j / 4] >> ((j % 4) * 2)) & 3)] += 1;
                }
                for j in count..PER_LINE as usize {
                    out[j / 4] &= !(3 << ((j % 4) * 2));
                }
                let minimum = (0..3)
                    .find(|&code| line_codes[code] > 0)
                    .map_or(unwritten, |code| base + code as u8);
                out[LINE_BYTES - 1] = out[LINE_BYTES - 1] & 0xF | minimum.min(15) << 4;
                for (total, n) in codes.iter_mut().zip(line_codes) {
                    *total += n;
                }
                codes
            },
        )
        .reduce(|| [0; 4], |a, b| std::array::from_fn(|i| a[i] + b[i]));
    let mut histogram = vec![0u64; usize::from(base) + 4];
    assert!(
        below.windows(2).all(|pair| pair[0].0 < pair[1].0),
        "the entries under the base are listed once each, in order"
    );
    for &(entry, value) in below {
        let (byte, shift) = locate(entry);
        let code = (body[byte] >> shift) & 3;
        assert!(
            value < base && code == 0,
            "entry {entry} listed at {value} under the base {base} holds code {code}"
        );
        histogram[usize::from(value)] += 1;
        let last = Spot::of(entry).minimum_byte();
        if value < body[last] >> 4 {
            body[last] = body[last] & 0xF | value << 4;
        }
    }
    histogram[usize::from(base)] = codes[0] - below.len() as u64;
    histogram[usize::from(base) + 1..].copy_from_slice(&codes[1..]);
    histogram
}

/// Fills `values` with the entries of line `line` of a table of `entries` entries, read by
/// `entry`; returns how many there are (fewer in the last line).
fn line_values(entries: u64, line: usize, values: &mut [u8], entry: impl Fn(u64) -> u8) -> usize {
    let first = line as u64 * PER_LINE;
    let count = (entries - first).min(PER_LINE) as usize;
    for (j, value) in values[..count].iter_mut().enumerate() {
        *value = entry(first + j as u64);
    }
    count
}

/// Writes one line: each value's code relative to `base`, and the values' minimum in the last
/// four bits.
fn write_line(out: &mut [u8], values: &[u8], base: u8) {
    let minimum = values.iter().copied().min().unwrap_or(0);
    out.fill(0);
    for (j, &value) in values.iter().enumerate() {
        out[j / 4] |= code_of(value, base) << ((j % 4) * 2);
    }
    out[LINE_BYTES - 1] |= minimum.min(15) << 4;
}

/// The code a value is stored as over `base`: 0 for at most the base, else how far above it,
/// at most 3.
#[inline(always)]
pub fn code_of(value: u8, base: u8) -> u8 {
    value.saturating_sub(base).min(3)
}

/// Where an entry lies in a payload: its byte times four plus its place in that byte.
/// Locating an entry divides its index by [`PER_LINE`]; a search that asks for an entry and
/// reads it later keeps its spot, and divides once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Spot(u64);

impl Spot {
    /// The spot of entry `index`.
    #[inline(always)]
    pub fn of(index: u64) -> Spot {
        let (byte, shift) = locate(index);
        Spot((byte as u64) << 2 | u64::from(shift >> 1))
    }

    /// The byte that holds the entry.
    #[inline(always)]
    fn byte(self) -> usize {
        (self.0 >> 2) as usize
    }

    /// The shift of the entry's two bits in its byte.
    #[inline(always)]
    fn shift(self) -> u32 {
        (self.0 & 3) as u32 * 2
    }

    /// The byte whose top four bits hold the minimum of the entry's line: the line's last
    /// (lines start on a multiple of [`LINE_BYTES`]).
    #[inline(always)]
    fn minimum_byte(self) -> usize {
        self.byte() | (LINE_BYTES - 1)
    }
}

/// A based payload, read.
#[derive(Clone, Copy)]
pub struct Based<'a> {
    packed: &'a [u8],
    base: u8,
}

impl<'a> Based<'a> {
    /// The payload's entries; `None` if it is too short to hold its trailer or its base leaves
    /// no room for `base + 3` in four bits (a damaged trailer).
    pub fn new(packed: &'a [u8]) -> Option<Based<'a>> {
        let trailer = packed.len().checked_sub(LINE_BYTES)?;
        let base = packed[trailer];
        (base <= MAX_BASE).then_some(Based {
            base,
            packed: &packed[..trailer],
        })
    }

    /// The entries of `lines` (a payload without its trailer) with base `base`, as
    /// [`Based::lines`] and [`Based::base`] gave them.
    #[inline(always)]
    pub fn from_parts(lines: &'a [u8], base: u8) -> Based<'a> {
        Based {
            packed: lines,
            base,
        }
    }

    /// The lines, without the trailer.
    pub fn lines(&self) -> &'a [u8] {
        self.packed
    }

    pub fn base(&self) -> u8 {
        self.base
    }

    /// The stored code of entry `index`: 0 (at most the base) to 3.
    #[inline(always)]
    pub fn code(&self, index: u64) -> u8 {
        let (byte, shift) = locate(index);
        (self.packed[byte] >> shift) & 3
    }

    /// `base + code` of the entry at `spot`: its lower bound where the code is not 0, and
    /// otherwise a value at least that bound, at most the base (its line is not read).
    #[inline(always)]
    pub fn at_most_base_at(&self, spot: Spot) -> u8 {
        self.base + self.code_at(spot)
    }

    /// The stored code of the entry at `spot`.
    #[inline(always)]
    fn code_at(&self, spot: Spot) -> u8 {
        (self.packed[spot.byte()] >> spot.shift()) & 3
    }

    /// The lower bound the entry at `spot` gives: `base + code`, or for code 0 its line's
    /// minimum.
    #[inline(always)]
    pub fn value_at(&self, spot: Spot) -> u8 {
        // Both bytes lie in the entry's line, and the choice is made without a branch: whether
        // an entry is 0 follows no pattern a predictor could learn.
        let code = self.code_at(spot);
        let minimum = self.packed[spot.minimum_byte()] >> 4;
        std::hint::select_unpredictable(code == 0, minimum, self.base + code)
    }

    /// Asks for the cache line of the entry at `spot`.
    #[inline(always)]
    pub fn prefetch_at(&self, spot: Spot) {
        crate::space::prefetch(self.packed, spot.byte() & !(LINE_BYTES - 1));
    }

    /// How many of the first `entries` entries hold each code.
    pub fn code_counts(&self, entries: u64) -> [u64; 4] {
        use rayon::prelude::*;
        let lines = entries.div_ceil(PER_LINE);
        (0..lines)
            .into_par_iter()
            .fold(
                || [0u64; 4],
                |mut counts, line| {
                    let first = line * PER_LINE;
                    for index in first..(first + PER_LINE).min(entries) {
                        counts[usize::from(self.code(index))] += 1;
                    }
                    counts
                },
            )
            .reduce(|| [0; 4], |a, b| std::array::from_fn(|i| a[i] + b[i]))
    }
}

/// What the codes of a table with this exact histogram must count: entries at most the base,
/// one, two, and three or more above it.
pub fn expected_codes(histogram: &[u64], base: u8) -> [u64; 4] {
    let mut codes = [0u64; 4];
    for (depth, &count) in histogram.iter().enumerate() {
        codes[depth.saturating_sub(usize::from(base)).min(3)] += count;
    }
    codes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packing in place keeps every entry: values above the base read back exactly (three or
    /// more above as base + 3), values at most the base as their line's minimum.
    #[test]
    fn packed_entries_read_back() {
        let entries = 254 * 5 + 17;
        let value = |i: u64| ((i * 7 + i / 254) % 13) as u8;
        let mut nibbles = vec![0u8; (entries as usize).div_ceil(2)];
        for i in 0..entries {
            nibbles[(i / 2) as usize] |= value(i) << ((i & 1) * 4);
        }
        let base = 6;
        let packed = pack(nibbles, entries, base);
        assert_eq!(packed.len() as u64, payload_bytes(entries));
        let based = Based::new(&packed).unwrap();
        assert_eq!(based.base(), base);
        for i in 0..entries {
            let line = i / PER_LINE;
            let last = (line * PER_LINE + PER_LINE).min(entries);
            let minimum = (line * PER_LINE..last).map(value).min().unwrap();
            let expected = if value(i) > base {
                value(i).min(base + 3)
            } else {
                minimum
            };
            assert_eq!(based.value_at(Spot::of(i)), expected, "entry {i}");
            // Without the fallback: the bound above the base, the base itself at or below it.
            let without = if value(i) > base { expected } else { base };
            assert_eq!(based.at_most_base_at(Spot::of(i)), without, "entry {i}");
        }
        let histogram: Vec<u64> = (0..13)
            .map(|d| (0..entries).filter(|&i| value(i) == d).count() as u64)
            .collect();
        assert_eq!(based.code_counts(entries), expected_codes(&histogram, base));
    }

    /// Codes written in place and completed equal the packed exact entries byte for byte, with
    /// their histogram: lines with values under the base (listed), lines whose smallest code is
    /// 1 or 3 (which records `unwritten`, as the exact entries' 15 does), and a last line with
    /// padding.
    #[test]
    fn completed_codes_are_the_packed_entries() {
        let (entries, base) = (254 * 4 + 100, 6u8);
        let value = |i: u64| match i / PER_LINE {
            0 => [2, 6, 7, 9, 15][(i % 5) as usize],
            1 => [7, 8, 15][(i % 3) as usize],
            2 => 15,
            _ => [6, 8, 15, 4][(i % 4) as usize],
        };
        let mut nibbles = vec![0u8; (entries as usize).div_ceil(2)];
        let mut payload = vec![0xFFu8; payload_bytes(entries) as usize];
        let mut below = Vec::new();
        for i in 0..entries {
            nibbles[(i / 2) as usize] |= value(i) << ((i & 1) * 4);
            let (byte, shift) = locate(i);
            payload[byte] &= !(3 << shift) | code_of(value(i), base) << shift;
            if value(i) < base {
                below.push((i, value(i)));
            }
        }
        let histogram = complete(&mut payload, entries, base, &below, 15);
        assert!(
            payload == pack(nibbles, entries, base),
            "the payloads differ"
        );
        let count = |keep: &dyn Fn(u8) -> bool| (0..entries).filter(|&i| keep(value(i))).count();
        let expected: Vec<u64> = (0..base + 4)
            .map(|d| match d {
                d if d == base + 3 => count(&|v| v >= d),
                d => count(&|v| v == d),
            } as u64)
            .collect();
        assert_eq!(histogram, expected);
    }

    #[test]
    fn the_base_is_one_below_the_mode() {
        assert_eq!(base_of(&[1, 10, 100, 1000, 30]), 2);
        assert_eq!(base_of(&[5]), 0);
    }

    /// The best base weighs a 0 read at two below the base: with most entries at one distance
    /// it sits two or three below it (h48-flips' shape), where nxopt's rule sits one below.
    #[test]
    fn the_best_base_makes_the_bound_largest() {
        let h48_flips: [u64; 15] = [
            1,
            1,
            4,
            34,
            331,
            3_809,
            45_203,
            545_943,
            6_796_004,
            84_564_068,
            1_006_526_458,
            8_901_943_949,
            18_956_270_761,
            1_140_569_031,
            1_603,
        ];
        assert_eq!(best_base(&h48_flips), 9);
        assert_eq!(base_of(&h48_flips), 11);
        // All at 10: bases 7 and 8 both read 10 exactly; the smaller is taken.
        assert_eq!(best_base(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100]), 7);
        assert_eq!(best_base(&[]), 0);
    }

    /// A collapsed table's entries are the minima of their groups, packed like any other: read
    /// back exactly above the base, as the line minimum at or below it; its histogram counts
    /// the minima.
    #[test]
    fn collapsed_entries_are_group_minima() {
        let source = 254 * 8 * 4 + 40;
        let value = |i: u64| ((i * 11 + i / 7) % 14) as u8;
        let mut nibbles = vec![0u8; (source as usize).div_ceil(2)];
        for i in 0..source {
            nibbles[(i / 2) as usize] |= value(i) << ((i & 1) * 4);
        }
        for group_bits in [1, 2] {
            let entries = source >> group_bits;
            let minimum = |i: u64| {
                let first = i << group_bits;
                (first..first + (1 << group_bits)).map(value).min().unwrap()
            };
            let (payload, histogram) = pack_collapsed(&nibbles, entries, group_bits, best_base);
            assert_eq!(payload.len() as u64, payload_bytes(entries));
            let expected: Vec<u64> = (0..14)
                .map(|d| (0..entries).filter(|&i| minimum(i) == d).count() as u64)
                .collect();
            let trimmed = expected.len() - expected.iter().rev().take_while(|&&c| c == 0).count();
            assert_eq!(histogram, expected[..trimmed]);
            let based = Based::new(&payload).unwrap();
            assert_eq!(based.base(), best_base(&histogram));
            for i in 0..entries {
                let line = i / PER_LINE;
                let last = (line * PER_LINE + PER_LINE).min(entries);
                let line_min = (line * PER_LINE..last).map(minimum).min().unwrap();
                let expected = if minimum(i) > based.base() {
                    minimum(i).min(based.base() + 3)
                } else {
                    line_min
                };
                assert_eq!(
                    based.value_at(Spot::of(i)),
                    expected,
                    "entry {i}, {group_bits} bits"
                );
            }
        }
    }
}
