//! How distances are packed into bytes: the breadth-first engine writes its results in one of
//! these encodings and the table format stores them as they are.
//!
//! The encodings sit below the engine, not inside the table format: the engine packs its
//! working table directly in the final encoding (a second copy of a 2.75 GB working table
//! would not fit beside the first), so it must know them, and the format only names which
//! one a payload uses.

pub mod based;

use serde::{Deserialize, Serialize};

/// How entries are packed. Either way entry `i` sits in byte `i / per_byte`, lowest bits first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Encoding {
    /// Exact distance in 4 bits, two entries per byte; `0xF` marks a state never reached.
    Nibble,
    /// Distance mod 3 in 2 bits, four entries per byte; `3` marks a state never reached. Half the
    /// size; exact values are recovered from a neighbour's exact value (they differ by at most
    /// one, so the residue decides) or by walking down to the goal.
    Mod3,
    /// 2 bits relative to a base with an exact minimum per 64-byte line: a lower bound, not the
    /// distance, for the coset tables the solver reads (see [`based`]). Always used for those,
    /// never for the others.
    #[cfg_attr(feature = "clap", value(skip))]
    Based,
    /// Exact distance in a byte; `0xFF` marks a state never reached. For subgroups, whose
    /// distances can pass the 14 a nibble holds (the squares group reaches 15, `<U, R>` in
    /// quarter turns 25, a directed 2x2 19).
    #[cfg_attr(feature = "clap", value(skip))]
    Byte,
}

impl Encoding {
    pub const fn bits(self) -> u32 {
        match self {
            Encoding::Byte => 8,
            Encoding::Nibble => 4,
            Encoding::Mod3 | Encoding::Based => 2,
        }
    }

    pub const fn payload_bytes(self, entries: u64) -> u64 {
        match self {
            Encoding::Based => based::payload_bytes(entries),
            _ => entries.div_ceil(8 / self.bits() as u64),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Nibble => "nibble",
            Encoding::Mod3 => "mod3",
            Encoding::Based => "based",
            Encoding::Byte => "byte",
        }
    }
}

/// Entry `index` of nibble-packed bytes.
#[inline]
pub fn nibble(packed: &[u8], index: u64) -> u8 {
    (packed[(index / 2) as usize] >> ((index & 1) * 4)) & 0xF
}

/// Entry `index` of bytes packed in `encoding`.
#[inline]
pub fn entry(encoding: Encoding, packed: &[u8], index: u64) -> u8 {
    match encoding {
        Encoding::Nibble => nibble(packed, index),
        Encoding::Mod3 => (packed[(index / 4) as usize] >> ((index & 3) * 2)) & 3,
        Encoding::Based => based::Based::new(packed).map_or(0, |b| b.code(index)),
        Encoding::Byte => packed[index as usize],
    }
}
