//! Coset run files (`cubelab coset --json` lines, merged by `stats cosets`) and published
//! references: any bytes are runs or a named error, never a panic; a run that passes the
//! count checks accounts for every position of its coset, and merging checked runs never
//! overflows.
#![no_main]

use cubelab::experiment::coset_runs::{check_counts, merge, read_reference, read_runs};
use cubelab::solving::coset::COSET_POSITIONS;
use libfuzzer_sys::fuzz_target;
use std::io::Write;

fuzz_target!(|data: &[u8]| {
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    file.write_all(data).expect("written");
    if let Ok(runs) = read_runs(&[file.path().to_path_buf()]) {
        assert!(runs.len() <= data.len());
        // `stats cosets` merges only runs that pass the checks.
        let checked: Vec<_> = runs
            .into_iter()
            .filter(|run| check_counts(run).is_ok())
            .collect();
        for run in &checked {
            let sum: u128 = run
                .reached
                .iter()
                .chain([&run.finished, &run.unsolved])
                .map(|&c| u128::from(c))
                .sum();
            assert_eq!(sum, u128::from(COSET_POSITIONS));
            assert!(run.counts.len() <= run.reached.len());
        }
        let merged = merge(&checked);
        assert_eq!(merged.runs, checked.len());
        assert!(merged.counts.len() <= merged.reached.len());
    }
    let column = data.first().map_or(1, |b| usize::from(b % 4));
    if let Ok(counts) = read_reference(file.path(), column) {
        assert!(counts.len() <= data.len());
    }
});
