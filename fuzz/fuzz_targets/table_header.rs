//! Table files: any bytes open as a table or give a TableError, never a panic, an allocation
//! sized by a header field, or a read past the file. The input is laid over a valid small
//! table's first bytes, so that the fuzzer starts inside the header rather than at the magic.
#![no_main]

use cubelab::table::{Table, Verify};
use libfuzzer_sys::fuzz_target;
use std::io::Write;

fuzz_target!(|data: &[u8]| {
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    file.write_all(data).expect("written");
    if let Ok(table) = Table::open_path(file.path(), "gen-tables", Verify::Always) {
        let payload = table.payload();
        assert_eq!(payload.len() as u64, table.header().payload_bytes);
    }
});
