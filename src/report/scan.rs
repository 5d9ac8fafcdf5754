//! Histograms computed from a table's entries themselves (not from its header), by a parallel
//! scan of the mapped payload.

use crate::table::{Encoding, Table};
use rayon::prelude::*;

/// How many entries hold each stored value: index `v` counts entries equal to `v` (0..16 for a
/// 4-bit table, 0..4 for a 2-bit one, where the top value means "never reached").
pub fn value_counts(table: &Table) -> Vec<u64> {
    let encoding = table.header().encoding;
    let per_byte = 8 / encoding.bits() as usize;
    let entries = table.header().entries as usize;
    let payload = table.payload();
    let full_bytes = entries / per_byte;
    let mut counts = payload[..full_bytes]
        .par_chunks(1 << 16)
        .map(|chunk| {
            let mut by_byte = [0u64; 256];
            for &b in chunk {
                by_byte[b as usize] += 1;
            }
            let mut counts = vec![0u64; 1 << encoding.bits()];
            for (byte, &n) in by_byte.iter().enumerate() {
                for field in 0..per_byte {
                    counts[fields(byte as u8, encoding, field)] += n;
                }
            }
            counts
        })
        .reduce(
            || vec![0u64; 1 << encoding.bits()],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        );
    // The entries of a last, partly used byte.
    for index in full_bytes * per_byte..entries {
        counts[usize::from(table.entry(index as u64))] += 1;
    }
    counts
}

fn fields(byte: u8, encoding: Encoding, field: usize) -> usize {
    let bits = encoding.bits() as usize;
    usize::from((byte >> (field * bits)) & ((1u8 << bits) - 1))
}

/// A table's distance histogram from its entries: counts at depths 0.. for a 4-bit table,
/// trimmed after the last depth present. `Err` carries the number of unreached entries if any.
pub fn exact_histogram(table: &Table) -> Result<Vec<u64>, u64> {
    let mut counts = value_counts(table);
    let unreached = counts.pop().unwrap_or(0);
    if unreached > 0 {
        return Err(unreached);
    }
    while counts.last() == Some(&0) {
        counts.pop();
    }
    Ok(counts)
}

/// A distance histogram folded mod 3, which is what a 2-bit table can be checked against.
pub fn fold_mod3(histogram: &[u64]) -> [u64; 3] {
    let mut folded = [0u64; 3];
    for (depth, &n) in histogram.iter().enumerate() {
        folded[depth % 3] += n;
    }
    folded
}
