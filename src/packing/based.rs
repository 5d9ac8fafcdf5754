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

/// Packs `entries` exact 4-bit entries (two per byte, as the BFS engine leaves them) into based
/// lines, in the same buffer: line `k` is written at byte `64k`, at or before where its own
/// entries start (`127k`), once they are read, so nothing unread is overwritten.
pub fn pack(mut nibbles: Vec<u8>, entries: u64, base: u8) -> Vec<u8> {
    let lines = entries.div_ceil(PER_LINE) as usize;
    let nibble = |bytes: &[u8], i: u64| (bytes[(i / 2) as usize] >> ((i & 1) * 4)) & 0xF;
    let mut values = [0u8; PER_LINE as usize];
    for line in 0..lines {
        let first = line as u64 * PER_LINE;
        let count = (entries - first).min(PER_LINE) as usize;
        for (j, value) in values[..count].iter_mut().enumerate() {
            *value = nibble(&nibbles, first + j as u64);
        }
        let minimum = values[..count].iter().copied().min().unwrap_or(0);
        let out = &mut nibbles[line * LINE_BYTES..(line + 1) * LINE_BYTES];
        out.fill(0);
        for (j, &value) in values[..count].iter().enumerate() {
            let code = value.saturating_sub(base).min(3);
            out[j / 4] |= code << ((j % 4) * 2);
        }
        out[LINE_BYTES - 1] |= minimum.min(15) << 4;
    }
    nibbles.resize((lines + 1) * LINE_BYTES, 0);
    nibbles[lines * LINE_BYTES] = base;
    nibbles.shrink_to_fit();
    nibbles
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

    /// Byte holding entry `index`, and the line's last byte (which holds the minimum).
    #[inline(always)]
    fn place(index: u64) -> (usize, usize, u32) {
        let line = (index / PER_LINE) as usize;
        let j = (index % PER_LINE) as usize;
        (
            line * LINE_BYTES + j / 4,
            line * LINE_BYTES + LINE_BYTES - 1,
            (j % 4) as u32 * 2,
        )
    }

    /// The stored code of entry `index`: 0 (at most the base) to 3.
    #[inline(always)]
    pub fn code(&self, index: u64) -> u8 {
        let (byte, _, shift) = Based::place(index);
        (self.packed[byte] >> shift) & 3
    }

    /// The lower bound entry `index` gives: `base + code`, or for code 0 its line's minimum.
    #[inline(always)]
    pub fn value(&self, index: u64) -> u8 {
        let (byte, last, shift) = Based::place(index);
        match (self.packed[byte] >> shift) & 3 {
            0 => self.packed[last] >> 4,
            code => self.base + code,
        }
    }

    /// Asks for the cache line of entry `index`.
    #[inline(always)]
    pub fn prefetch(&self, index: u64) {
        crate::space::prefetch(self.packed, (index / PER_LINE) as usize * LINE_BYTES);
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
            assert_eq!(based.value(i), expected, "entry {i}");
        }
        let histogram: Vec<u64> = (0..13)
            .map(|d| (0..entries).filter(|&i| value(i) == d).count() as u64)
            .collect();
        assert_eq!(based.code_counts(entries), expected_codes(&histogram, base));
    }

    #[test]
    fn the_base_is_one_below_the_mode() {
        assert_eq!(base_of(&[1, 10, 100, 1000, 30]), 2);
        assert_eq!(base_of(&[5]), 0);
    }
}
