//! The table file format: every kind of damage is a clear error naming the rebuild command.

use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::Metric;
use cubelab::packing::Encoding;
use cubelab::table::{self, PAYLOAD_OFFSET, Table, TableError, Verify};
use std::fs;
use std::path::Path;

const ID: TableId = TableId::new(TableKind::Pocket, Metric::Htm);

/// A small valid table file (the format does not care that it is not a real 2x2 table until the
/// sizes are checked, so use the real entry count with made-up contents).
fn write_sample(dir: &Path) -> Vec<u8> {
    let entries = cubelab::catalogue::entries(TableKind::Pocket);
    let payload: Vec<u8> = (0..Encoding::Nibble.payload_bytes(entries))
        .map(|i| (i % 251) as u8)
        .collect();
    ID.write(dir, Encoding::Nibble, vec![1, 2, entries - 3], &payload)
        .unwrap();
    payload
}

fn open(dir: &Path) -> Result<Table, TableError> {
    ID.open(dir, Verify::Always)
}

fn assert_names_rebuild(err: &TableError, dir: &Path) {
    let text = err.to_string();
    assert!(text.contains(&ID.rebuild_command(dir)), "{text}");
}

#[test]
fn a_written_table_loads_with_its_header_and_payload() {
    let dir = tempfile::tempdir().unwrap();
    let payload = write_sample(dir.path());
    let table = open(dir.path()).unwrap();
    assert_eq!(
        table.header().histogram,
        [1, 2, cubelab::catalogue::entries(TableKind::Pocket) - 3]
    );
    assert_eq!(table.payload(), &payload[..]);
    assert_eq!(table.file_bytes(), (PAYLOAD_OFFSET + payload.len()) as u64);
    // No temporary file is left behind.
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        names.iter().all(|n| !n.to_string_lossy().contains("tmp")),
        "{names:?}"
    );
}

#[test]
fn missing() {
    let dir = tempfile::tempdir().unwrap();
    let err = open(dir.path()).err().unwrap();
    assert!(matches!(err, TableError::Missing { .. }));
    assert_names_rebuild(&err, dir.path());
}

#[test]
fn truncated() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let path = ID.path(dir.path());
    let len = fs::metadata(&path).unwrap().len();
    fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len - 100)
        .unwrap();
    let err = open(dir.path()).err().unwrap();
    assert!(
        matches!(err, TableError::Truncated { found, expected, .. } if found + 100 == expected)
    );
    assert_names_rebuild(&err, dir.path());
    // Truncated into the header too.
    fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(100)
        .unwrap();
    assert!(matches!(
        open(dir.path()),
        Err(TableError::Truncated { .. })
    ));
}

/// A file longer than its header says is damaged, not "truncated": the message says what is
/// there.
#[test]
fn too_long() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let path = ID.path(dir.path());
    let len = fs::metadata(&path).unwrap().len();
    fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len + 1)
        .unwrap();
    let err = open(dir.path()).err().unwrap();
    let message = err.to_string();
    assert!(matches!(err, TableError::Damaged { .. }), "{message}");
    assert!(message.contains("1 more than its header's"), "{message}");
    assert!(!message.contains("truncated"), "{message}");
    assert_names_rebuild(&err, dir.path());
}

fn patch(dir: &Path, offset: usize, bytes: &[u8]) {
    let path = ID.path(dir);
    let mut data = fs::read(&path).unwrap();
    data[offset..offset + bytes.len()].copy_from_slice(bytes);
    fs::write(&path, data).unwrap();
}

#[test]
fn wrong_magic() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    patch(dir.path(), 0, b"NOTCUBE!");
    let err = open(dir.path()).err().unwrap();
    assert!(matches!(err, TableError::BadMagic { .. }));
    assert_names_rebuild(&err, dir.path());
}

#[test]
fn wrong_version() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    patch(dir.path(), 8, &99u32.to_le_bytes());
    let err = open(dir.path()).err().unwrap();
    assert!(matches!(
        err,
        TableError::WrongVersion {
            found: 99,
            expected: 3,
            ..
        }
    ));
    assert_names_rebuild(&err, dir.path());
}

/// A header length field past the room a header has is named as such (#31: it read as
/// "truncated", for a file of the right length).
#[test]
fn a_header_length_past_its_room_is_named() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    patch(dir.path(), 12, &5000u32.to_le_bytes());
    let err = open(dir.path()).err().expect("refused");
    let message = err.to_string();
    assert!(
        message.contains("header length field says 5000 bytes"),
        "{message}"
    );
    assert!(!message.contains("truncated"), "{message}");
    assert_names_rebuild(&err, dir.path());
}

/// Files of versions 1 and 2, whose checksum covered the payload alone (so that a relabelled
/// header passed), are refused with the command that rebuilds them.
#[test]
fn older_format_versions_are_refused_with_the_rebuild_command() {
    for version in [1u32, 2] {
        let dir = tempfile::tempdir().unwrap();
        write_sample(dir.path());
        patch(dir.path(), 8, &version.to_le_bytes());
        let err = open(dir.path()).err().expect("refused");
        assert!(
            matches!(err, TableError::WrongVersion { found, expected: 3, .. } if found == version),
            "{err}"
        );
        assert_names_rebuild(&err, dir.path());
    }
}

/// A header relabelled to name another table of the same size (the HTM 2x2 table called QTM:
/// one byte, its checksum and payload untouched) fails the checksum, which covers the header
/// from version 3 on.
#[test]
fn a_relabelled_header_fails_the_checksum() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let path = ID.path(dir.path());
    let header = Table::open_file(&path, "x").unwrap().header().clone();
    assert_eq!(
        (header.space.family, header.space.metric),
        (0, 0),
        "codes at bytes 16, 17"
    );
    let qtm = TableId::new(TableKind::Pocket, Metric::Qtm);
    patch(dir.path(), 17, &[1]);
    fs::rename(&path, qtm.path(dir.path())).unwrap();
    let relabelled = Table::open_file(&qtm.path(dir.path()), "x").unwrap();
    assert_eq!(
        relabelled.header().space.metric,
        1,
        "the header now names the QTM table"
    );
    let err = qtm.open(dir.path(), Verify::IfNew).err().unwrap();
    assert!(matches!(err, TableError::ChecksumMismatch { .. }), "{err}");
}

#[test]
fn wrong_kind() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    // A QTM table renamed into the HTM table's place.
    let qtm = TableId::new(TableKind::Pocket, Metric::Qtm);
    fs::rename(ID.path(dir.path()), qtm.path(dir.path())).unwrap();
    let err = qtm.open(dir.path(), Verify::Always).err().unwrap();
    assert!(
        matches!(&err, TableError::WrongKind { expected, found, .. } if expected == "2x2-qtm" && found == "table 2x2-htm")
    );
    assert!(
        err.to_string()
            .contains("holds table 2x2-htm, not table 2x2-qtm"),
        "{err}"
    );
    assert!(err.to_string().contains(&qtm.rebuild_command(dir.path())));
}

#[test]
fn corrupt_header() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    patch(dir.path(), 16, &[0xFF; 8]);
    let err = open(dir.path()).err().unwrap();
    assert!(matches!(err, TableError::Damaged { .. }), "{err}");
    assert_names_rebuild(&err, dir.path());
}

#[test]
fn checksum_mismatch_is_caught_even_after_a_clean_load() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    // A first load on this machine verifies and records it.
    assert!(ID.open(dir.path(), Verify::IfNew).is_ok());
    let offset = PAYLOAD_OFFSET + 1234;
    let path = ID.path(dir.path());
    let original = fs::read(&path).unwrap()[offset];
    patch(dir.path(), offset, &[original ^ 0x10]);
    let err = open(dir.path()).err().unwrap();
    assert!(matches!(err, TableError::ChecksumMismatch { .. }));
    assert_names_rebuild(&err, dir.path());
    // The file changed since it was verified, so a load that only checks new files checks it.
    assert!(matches!(
        ID.open(dir.path(), Verify::IfNew),
        Err(TableError::ChecksumMismatch { .. })
    ));
}

#[test]
fn zstd_copy_round_trips_and_loads_in_place_of_a_missing_table() {
    let dir = tempfile::tempdir().unwrap();
    let payload = write_sample(dir.path());
    let path = ID.path(dir.path());
    let zst = table::export_zst(&path, 3).unwrap();
    assert!(fs::metadata(&zst).unwrap().len() < fs::metadata(&path).unwrap().len());
    fs::remove_file(&path).unwrap();
    let table = open(dir.path()).unwrap();
    assert_eq!(table.payload(), &payload[..]);
}

#[test]
fn a_damaged_zstd_copy_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let path = ID.path(dir.path());
    let zst = table::export_zst(&path, 3).unwrap();
    fs::remove_file(&path).unwrap();
    fs::write(&zst, b"not zstd at all").unwrap();
    let err = open(dir.path()).err().unwrap();
    assert!(matches!(err, TableError::Damaged { .. }), "{err}");
    assert_names_rebuild(&err, dir.path());
    assert!(!path.exists(), "no half-written table is left");
}

/// A small copy that unpacks to far more than its table's size (a compression bomb), or to
/// something that is no table, is refused as soon as that shows, and nothing is left behind.
#[test]
fn a_zstd_copy_that_unpacks_to_no_table_or_too_much_is_stopped_early() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let path = ID.path(dir.path());
    let table = fs::read(&path).unwrap();
    let zst = table::zst_path(&path);
    fs::remove_file(&path).unwrap();
    let mut oversized = table.clone();
    oversized.resize(table.len() * 40, 0);
    let no_table = vec![0u8; table.len()];
    for (bytes, says) in [(oversized, "more than"), (no_table, "cubelab table")] {
        fs::write(&zst, zstd::encode_all(&bytes[..], 19).unwrap()).unwrap();
        assert!(fs::metadata(&zst).unwrap().len() < 200_000);
        let err = open(dir.path()).err().unwrap();
        assert!(matches!(err, TableError::Damaged { .. }), "{err}");
        assert!(err.to_string().contains(says), "{err}");
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .map(|name| name.to_string_lossy().into_owned())
            .filter(|name| !name.ends_with(".zst") && !name.ends_with(".ok"))
            .collect();
        assert!(left.is_empty(), "left behind: {left:?}");
    }
}

/// A copy of another table (of the same size) unpacked in this one's place is refused and
/// removed, not left to be refused again on every later load.
#[test]
fn a_zstd_copy_of_another_table_is_not_left_in_place() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let path = ID.path(dir.path());
    let mut bytes = fs::read(&path).unwrap();
    fs::remove_file(&path).unwrap();
    // Another version's format number: same size, not this table.
    bytes[8] = 0x7f;
    fs::write(
        table::zst_path(&path),
        zstd::encode_all(&bytes[..], 3).unwrap(),
    )
    .unwrap();
    assert!(open(dir.path()).is_err());
    assert!(!path.exists());
}

/// A good compressed copy that cannot be written out (here a directory stands where the
/// temporary file goes, as a full disk or a read-only directory would stop it) is not called
/// damaged: the error says the copy could not be unpacked there, and how to get round it.
#[test]
fn an_unwritable_unpack_is_not_called_damage() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let path = ID.path(dir.path());
    table::export_zst(&path, 3).unwrap();
    fs::remove_file(&path).unwrap();
    let blocker = path.with_extension(format!("tmp{}", std::process::id()));
    fs::create_dir(&blocker).unwrap();
    let err = open(dir.path()).err().unwrap();
    assert!(matches!(err, TableError::CannotUnpack { .. }), "{err}");
    let message = err.to_string();
    assert!(!message.contains("damaged"), "{message}");
    assert!(message.contains("--data-dir"), "{message}");
    fs::remove_dir(&blocker).unwrap();
    assert!(open(dir.path()).is_ok());
}

/// A flipped bit in the header's depth counts (which the payload checksum does not cover) is
/// found on load by their sum.
#[test]
fn a_flipped_histogram_bit_is_found_on_load() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let path = ID.path(dir.path());
    let mut bytes = fs::read(&path).unwrap();
    // Every one-bit flip in the header: none may change the depth counts unnoticed.
    let original = open(dir.path()).unwrap().header().clone();
    let mut found = false;
    for at in 16..PAYLOAD_OFFSET {
        bytes[at] ^= 1;
        fs::write(&path, &bytes).unwrap();
        if let Ok(file) = Table::open_file(&path, "rebuild") {
            let header = file.header();
            let histogram_only = header.histogram != original.histogram
                && header.entries == original.entries
                && header.checksum == original.checksum;
            assert!(!histogram_only, "a flip at byte {at} went unnoticed");
        } else if let Err(TableError::Damaged { problem, .. }) = Table::open_file(&path, "x") {
            found |= problem.contains("depth counts");
        }
        bytes[at] ^= 1;
    }
    fs::write(&path, &bytes).unwrap();
    assert!(found, "no flip was reported as a histogram problem");
    assert!(open(dir.path()).is_ok());
}

/// A header that names this kind with another coordinate's entry count (a relabelled file, or
/// one from a build whose coordinate had another size) is refused, not indexed past its end.
#[test]
fn a_header_with_another_kinds_size_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let contents = cubelab::table::Contents {
        space: ID.space_code(),
        encoding: Encoding::Nibble,
        entries: 10,
        histogram: vec![10],
        parameters: None,
    };
    cubelab::table::write_table(&ID.path(dir.path()), contents, &[0; 5]).unwrap();
    let err = ID.open(dir.path(), Verify::Always).err().expect("refused");
    assert!(err.to_string().contains("10 entries"), "{err}");
}
