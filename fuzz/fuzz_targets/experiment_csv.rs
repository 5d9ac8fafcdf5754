//! Experiment files (`solve --csv`): any bytes are rows or a named error, never a panic or an
//! allocation sized by a field.
#![no_main]

use cubelab::experiment::read_experiment;
use libfuzzer_sys::fuzz_target;
use std::io::Write;

fuzz_target!(|data: &[u8]| {
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    file.write_all(data).expect("written");
    if let Ok(rows) = read_experiment(file.path()) {
        assert!(rows.len() <= data.len());
    }
});
