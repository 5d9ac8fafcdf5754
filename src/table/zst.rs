//! The shipping copy of a table: the file compressed with zstd, unpacked on first use.

use super::TableError;
use super::write::atomic_write;
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

/// Decompresses a zstd copy back into the packed table file at `path`. A copy that does not
/// decode is damaged; a table that cannot be written (a full disk, a read-only directory) is
/// not, and the error says which.
pub fn import_zst(zst: &Path, path: &Path, rebuild: &str) -> Result<(), TableError> {
    use std::io::Read;
    let input = File::open(zst).map_err(|source| TableError::Io {
        path: zst.to_path_buf(),
        source,
    })?;
    let mut undecodable = None;
    let written = atomic_write(path, |w| {
        let mut decoder = zstd::stream::read::Decoder::new(&input)?;
        let mut chunk = vec![0u8; 1 << 20];
        loop {
            let n = match decoder.read(&mut chunk) {
                Ok(0) => return Ok(()),
                Ok(n) => n,
                Err(e) => {
                    undecodable = Some(e.to_string());
                    return Err(e);
                }
            };
            w.write_all(&chunk[..n])?;
        }
    });
    match (written, undecodable) {
        (Ok(()), _) => Ok(()),
        (Err(_), Some(problem)) => Err(TableError::Damaged {
            path: zst.to_path_buf(),
            problem: format!("its compressed copy cannot be unpacked ({problem})"),
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
