//! The shipping copy of a table: the file compressed with zstd, unpacked on first use.

use super::write::atomic_write;
use super::{MAGIC, TableError};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `<table>.tbl.zst`, the shipping copy of a table file.
pub fn zst_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".zst");
    PathBuf::from(name)
}

/// Writes a zstd copy of the table file at `path` beside it; returns the copy's path.
pub fn export_zst(path: &Path, level: i32) -> Result<PathBuf, TableError> {
    let out = zst_path(path);
    let input = File::open(path).map_err(|source| TableError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    atomic_write(&out, |w| zstd::stream::copy_encode(&input, w, level))?;
    Ok(out)
}

/// Decompresses a zstd copy back into the packed table file at `path`, which must come to
/// exactly `expected_bytes` (the size its kind gives). The first bytes must be a table's magic
/// and the unpacking stops as soon as it passes the expected size, so that a small hostile copy
/// cannot fill the disk before any check (a 92 KB copy once unpacked to 3 GB); nothing is left
/// behind on any failure. A copy that does not decode, or decodes to something else, is
/// damaged; a table that cannot be written (a full disk, a read-only directory) is not, and the
/// error says which.
pub fn import_zst(
    zst: &Path,
    path: &Path,
    expected_bytes: u64,
    rebuild: &str,
) -> Result<(), TableError> {
    use std::io::Read;
    let input = File::open(zst).map_err(|source| TableError::Io {
        path: zst.to_path_buf(),
        source,
    })?;
    let mut undecodable = None;
    let written = atomic_write(path, |w| {
        let mut fail = |problem: String| {
            undecodable = Some(problem.clone());
            Err(std::io::Error::other(problem))
        };
        let mut decoder = zstd::stream::read::Decoder::new(&input)?;
        let mut chunk = vec![0u8; 1 << 20];
        let mut total = 0u64;
        let mut head = Vec::with_capacity(MAGIC.len());
        loop {
            let n = match decoder.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => return fail(e.to_string()),
            };
            let missing = MAGIC.len() - head.len();
            head.extend_from_slice(&chunk[..n.min(missing)]);
            if head.len() == MAGIC.len() && head != MAGIC {
                return fail("it does not unpack to a cubelab table".into());
            }
            total += n as u64;
            if total > expected_bytes {
                return fail(format!(
                    "it unpacks to more than the {expected_bytes} bytes this table has"
                ));
            }
            w.write_all(&chunk[..n])?;
        }
        if total != expected_bytes {
            return fail(format!(
                "it unpacks to {total} bytes, not the {expected_bytes} this table has"
            ));
        }
        Ok(())
    });
    match (written, undecodable) {
        (Ok(()), _) => Ok(()),
        (Err(_), Some(problem)) => Err(TableError::Damaged {
            path: zst.to_path_buf(),
            problem: format!("its compressed copy cannot be unpacked: {problem}"),
            rebuild: rebuild.to_string(),
        }),
        (Err(TableError::Io { source, .. }), None) => Err(TableError::CannotUnpack {
            zst: zst.to_path_buf(),
            path: path.to_path_buf(),
            source,
        }),
        (Err(other), None) => Err(other),
    }
}
