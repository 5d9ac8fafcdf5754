//! Writing tables: atomically (a temporary file renamed into place, so a reader never sees half
//! a table), one build per data directory at a time, and the temporaries of killed builds
//! removed.

use super::file::record_verified;
use super::header::{SpaceCode, SpaceParameters, TableHeader};
use super::{
    CREATED_BY, FORMAT_VERSION, MAGIC, PAYLOAD_OFFSET, TableError, bincode_config, checksum,
};
use crate::packing::Encoding;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// What a writer says of the table it writes; the format adds sizes, checksum and version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contents {
    pub space: SpaceCode,
    pub encoding: Encoding,
    pub entries: u64,
    pub histogram: Vec<u64>,
    pub parameters: Option<SpaceParameters>,
}

/// Writes a table atomically: to a temporary file beside `path`, then renamed over it.
pub fn write_table(
    path: &Path,
    contents: Contents,
    payload: &[u8],
) -> Result<TableHeader, TableError> {
    let mut header = TableHeader {
        space: contents.space,
        encoding: contents.encoding,
        entries: contents.entries,
        payload_bytes: payload.len() as u64,
        checksum: 0,
        histogram: contents.histogram,
        created_by: CREATED_BY.to_string(),
        parameters: contents.parameters,
    };
    header.checksum = checksum(&header, FORMAT_VERSION, payload);
    write_header_and_payload(path, header, payload)
}

fn write_header_and_payload(
    path: &Path,
    header: TableHeader,
    payload: &[u8],
) -> Result<TableHeader, TableError> {
    let encoded = bincode::serde::encode_to_vec(&header, bincode_config())
        .map_err(|e| TableError::Encode(e.to_string()))?;
    let mut prefix = Vec::with_capacity(PAYLOAD_OFFSET);
    prefix.extend_from_slice(&MAGIC);
    prefix.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    prefix.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
    prefix.extend_from_slice(&encoded);
    prefix.resize(PAYLOAD_OFFSET, 0);
    atomic_write(path, |w| {
        w.write_all(&prefix)?;
        w.write_all(payload)
    })?;
    // The checksum was just computed from these bytes: stamp the file as verified.
    record_verified(path, header.checksum);
    Ok(header)
}

/// Runs `fill` on a temporary file beside `path` and renames it into place once complete.
pub fn atomic_write(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<&File>) -> std::io::Result<()>,
) -> Result<(), TableError> {
    let io = |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let result = (|| {
        let file = File::create(&tmp)?;
        let mut writer = BufWriter::with_capacity(1 << 20, &file);
        fill(&mut writer)?;
        writer.flush()?;
        drop(writer);
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// One build process's hold on a data directory: an exclusive lock on a file in it, released
/// when the process ends however it ends. Two builds into one directory would each spend the
/// whole build time and memory on the same tables; the second is refused instead.
pub struct BuildLock {
    _file: File,
}

impl BuildLock {
    pub const FILE_NAME: &'static str = ".gen-tables.lock";

    /// Takes the lock on `dir` (created if missing), or says that another build holds it.
    pub fn acquire(dir: &Path) -> Result<BuildLock, TableError> {
        let io = |source| TableError::Io {
            path: dir.to_path_buf(),
            source,
        };
        fs::create_dir_all(dir).map_err(io)?;
        let path = dir.join(Self::FILE_NAME);
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|source| TableError::Io {
                path: path.clone(),
                source,
            })?;
        match file.try_lock() {
            Ok(()) => Ok(BuildLock { _file: file }),
            Err(fs::TryLockError::WouldBlock) => Err(TableError::Busy {
                dir: dir.to_path_buf(),
            }),
            Err(fs::TryLockError::Error(source)) => Err(TableError::Io { path, source }),
        }
    }
}

/// Removes the temporary files (`<table>.tmp<pid>`, for the names `is_table_name` accepts) that builds or unpacks killed before
/// their rename left in `dir`, where no process of that number runs; returns each with its
/// size. Such a file is never read (tables are found by their final names) but can hold
/// gigabytes.
pub fn remove_stale_temporaries(
    dir: &Path,
    is_table_name: impl Fn(&str) -> bool,
) -> Vec<(PathBuf, u64)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let pid = path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(|e| e.strip_prefix("tmp"))
            .and_then(|digits| digits.parse::<u32>().ok());
        let Some(pid) = pid else { continue };
        // Only the temporaries of table files: another file that merely ends in `.tmp<n>`
        // is not ours to remove.
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !is_table_name(name) {
            continue;
        }
        if pid == std::process::id() || process_runs(pid) {
            continue;
        }
        let bytes = entry.metadata().map(|m| m.len()).unwrap_or(0);
        if fs::remove_file(&path).is_ok() {
            removed.push((path, bytes));
        }
    }
    removed
}

/// Whether a process with this number exists (on systems where that cannot be asked, it is
/// assumed to, so nothing is removed).
fn process_runs(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = i32::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only asks whether the process exists; nothing is sent.
        let result = unsafe { libc::kill(pid, 0) };
        result == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}
