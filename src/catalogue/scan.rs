//! Histograms computed from a table's entries themselves (not from its header), by a parallel
//! scan of the mapped payload.

use super::published::{published_group_histogram, published_histogram};
use super::{TableId, TableKind};
use crate::packing::Encoding;
use crate::packing::based::expected_codes;
use crate::table::Table;
use rayon::prelude::*;

/// How many entries hold each stored value: index `v` counts entries equal to `v` (0..16 for a
/// 4-bit table, 0..4 for a 2-bit one, 0..256 for bytes, where the top value means "never
/// reached").
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
    let mask = ((1u16 << bits) - 1) as u8;
    usize::from((byte >> (field * bits)) & mask)
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

/// A table's distribution in positions, which published counts are: its entries' own, but for
/// the symmetry-reduced phase-1 table, whose entries stand for one to sixteen positions each.
fn positions_by_depth(table: &Table, histogram: &[u64]) -> Vec<u64> {
    match TableId::of_header(table.header()).map(|id| id.kind) {
        Some(TableKind::Phase1Sym) => {
            crate::space::twophase::SymProduct::phase1().positions_by_depth(|i| table.nibble(i))
        }
        _ => histogram.to_vec(),
    }
}

/// What a table's entries say, and every way that disagrees with what is known about it.
pub struct CheckedHistogram {
    /// Counts at depths 0..: from the entries for a 4-bit table; for a 2-bit table (which holds
    /// residues or codes only) the build-time counts, once its entries agree with them.
    pub histogram: Vec<u64>,
    /// Whether a published distribution was compared.
    pub published: bool,
    pub problems: Vec<String>,
}

/// Counts `table`'s entries and checks them against its build histogram and, where known, the
/// published distribution.
pub fn checked_histogram(table: &Table) -> CheckedHistogram {
    let header = &table.header().histogram;
    let mut problems = Vec::new();
    let histogram = match table.header().encoding {
        Encoding::Nibble => match exact_histogram(table) {
            Ok(h) => {
                if h != *header {
                    problems.push(
                        "its entries disagree with the histogram recorded when it was built".into(),
                    );
                }
                h
            }
            Err(unreached) => {
                problems.push(format!("{unreached} entries were never reached"));
                Vec::new()
            }
        },
        Encoding::Mod3 => {
            let counts = value_counts(table);
            if counts[3] > 0 {
                problems.push(format!("{} entries were never reached", counts[3]));
            }
            if counts[..3] != fold_mod3(header) {
                problems.push("its residues disagree with its build histogram folded mod 3".into());
            }
            header.clone()
        }
        Encoding::Byte => {
            let mut counts = value_counts(table);
            let unreached = counts.pop().unwrap_or(0);
            let outside = table.header().outside();
            if unreached != outside {
                problems.push(format!(
                    "{unreached} entries were never reached where its header says {outside}"
                ));
            }
            while counts.last() == Some(&0) {
                counts.pop();
            }
            if counts != *header {
                problems.push(
                    "its entries disagree with the histogram recorded when it was built".into(),
                );
            }
            counts
        }
        Encoding::Based => {
            match crate::packing::based::Based::new(table.payload()) {
                Some(based) => {
                    let counts = based.code_counts(table.header().entries);
                    if counts != expected_codes(header, based.base()) {
                        problems.push(format!(
                            "its codes disagree with its build histogram read against base {}",
                            based.base()
                        ));
                    }
                }
                None => problems.push("its payload has no trailer".into()),
            }
            header.clone()
        }
    };
    let published = match &table.header().parameters {
        Some(parameters) => super::group::spec_of(parameters)
            .as_ref()
            .and_then(published_group_histogram),
        None => TableId::of_header(table.header()).and_then(published_histogram),
    };
    if let Some(published) = &published
        && *published != positions_by_depth(table, &histogram)
    {
        problems.push("its distribution differs from the published one".into());
    }
    CheckedHistogram {
        histogram,
        published: published.is_some(),
        problems,
    }
}
