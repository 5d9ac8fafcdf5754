//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// Reads a published distance distribution (`depth,count` lines, `#` comments) from tests/data.
pub fn reference_histogram(name: &str) -> Vec<u64> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut histogram = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth"))
    {
        let (depth, count) = line.split_once(',').expect("depth,count");
        assert_eq!(
            depth.trim().parse::<usize>().unwrap(),
            histogram.len(),
            "{name}: depths in order"
        );
        histogram.push(count.trim().parse::<u64>().unwrap());
    }
    histogram
}
