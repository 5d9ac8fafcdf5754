//! Goal samples (`stats goal --csv` shards, merged by `stats goal --merge`): any bytes are a
//! sample or a named error, never a panic; a merged sample has a row of lengths, one per
//! column, for each position it holds.
#![no_main]

use cubelab::experiment::goal_sample::read_merged;
use libfuzzer_sys::fuzz_target;
use std::io::Write;

fuzz_target!(|data: &[u8]| {
    let mut file = tempfile::Builder::new()
        .suffix(".csv")
        .tempfile()
        .expect("a temporary file");
    file.write_all(data).expect("written");
    if let Ok(sample) = read_merged(&[file.path().to_path_buf()]) {
        assert_eq!(sample.positions.len(), sample.lengths.len());
        let columns = sample.identity.orientations.len();
        assert!(sample.lengths.iter().all(|row| row.len() == columns));
        assert!(sample.positions.len() <= data.len());
    }
});
