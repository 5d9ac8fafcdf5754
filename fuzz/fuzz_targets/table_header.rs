//! Table files: any bytes open as a table or give a TableError, never a panic, an allocation
//! sized by a header field, or a read past the file. The input is laid over a valid small
//! table's first bytes, so that the fuzzer starts inside the header rather than at the magic.
#![no_main]

use cubelab::table::{Table, Verify};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A directory of its own per input: a table that opens leaves its `.ok` sidecar beside the
    // file, which goes with the directory (a bare temporary file left one in /tmp per input).
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("input.tbl");
    std::fs::write(&path, data).expect("written");
    if let Ok(table) = Table::open_path(&path, "gen-tables", Verify::Always) {
        let payload = table.payload();
        assert_eq!(payload.len() as u64, table.header().payload_bytes);
    }
});
