//! Which file version a mapped table is, to notice the file changing under a long-lived reader.
//!
//! Tables are replaced by rename, which leaves a mapping on the old file intact. A file
//! rewritten in place (`cp` or `cat` onto it, `rsync --inplace`) changes under the mapping: its
//! entries become another table's, and a search answers from them with lengths no longer
//! optimal; a truncated one faults the reader. A server or a Python session holds its tables
//! for hours, so what it opened is recorded ([`record_opened`]) and compared with the files
//! before and after each answer ([`FileIdentity::unchanged`]): a stat per file, microseconds.

use super::TableError;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// What writing to a file or replacing it changes: device, inode, length, modification time
/// and (on Unix) change time. The change time is the kernel's: a writer can set the
/// modification time back (`touch -r`, `cp -p`), never the change time.
type Version = (u64, u64, u64, SystemTime, (i64, i64));

/// A file as opened: its path, and its [`Version`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileIdentity {
    path: PathBuf,
    version: Option<Version>,
}

impl FileIdentity {
    /// The identity of `file`, opened from `path`.
    pub fn of(path: &Path, file: &std::fs::File) -> FileIdentity {
        FileIdentity {
            path: path.to_path_buf(),
            version: file.metadata().ok().and_then(|m| version(&m)),
        }
    }

    /// Whether the file at the path is still the one opened, unwritten since; otherwise the
    /// error that says so.
    pub fn unchanged(&self) -> Result<(), TableError> {
        let now = std::fs::metadata(&self.path).ok().and_then(|m| version(&m));
        if now.is_some() && now == self.version {
            return Ok(());
        }
        Err(TableError::Changed {
            path: self.path.clone(),
        })
    }
}

/// The file's [`Version`].
fn version(metadata: &std::fs::Metadata) -> Option<Version> {
    #[cfg(unix)]
    let (device, inode, changed) = {
        use std::os::unix::fs::MetadataExt;
        (
            metadata.dev(),
            metadata.ino(),
            (metadata.ctime(), metadata.ctime_nsec()),
        )
    };
    #[cfg(not(unix))]
    let (device, inode, changed) = (0, 0, (0, 0));
    Some((
        device,
        inode,
        metadata.len(),
        metadata.modified().ok()?,
        changed,
    ))
}

thread_local! {
    /// The tables opened on this thread while [`record_opened`] runs.
    static RECORDING: RefCell<Option<Vec<FileIdentity>>> = const { RefCell::new(None) };
}

/// Runs `open` and returns, beside its result, the identities of the table files it opened on
/// this thread: what a solver built by `open` reads.
pub fn record_opened<T>(open: impl FnOnce() -> T) -> (T, Vec<FileIdentity>) {
    let outer = RECORDING.with(|r| r.replace(Some(Vec::new())));
    let result = open();
    let recorded = RECORDING.with(|r| r.replace(outer)).unwrap_or_default();
    // A recording around this one sees these tables too.
    RECORDING.with(|r| {
        if let Some(list) = r.borrow_mut().as_mut() {
            list.extend(recorded.iter().cloned());
        }
    });
    (result, recorded)
}

/// Notes that a table file was opened, for a recording in progress on this thread.
pub(super) fn opened(identity: &FileIdentity) {
    RECORDING.with(|r| {
        if let Some(list) = r.borrow_mut().as_mut() {
            list.push(identity.clone());
        }
    });
}

/// Whether every file of `identities` is unchanged; the first change found otherwise.
pub fn all_unchanged(identities: &[FileIdentity]) -> Result<(), TableError> {
    identities.iter().try_for_each(FileIdentity::unchanged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A file rewritten in place with its length kept and its modification time set back is
    /// still seen as changed (by its change time, which no writer sets).
    #[test]
    #[cfg(unix)]
    fn a_rewrite_with_its_time_restored_is_noticed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tbl");
        std::fs::write(&path, b"first version").unwrap();
        let opened = std::fs::File::open(&path).unwrap();
        let identity = FileIdentity::of(&path, &opened);
        assert!(identity.unchanged().is_ok());
        let modified = opened.metadata().unwrap().modified().unwrap();
        // The kernel's change time has a clock tick's resolution: let one pass.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all(b"other version").unwrap();
        file.set_modified(modified).unwrap();
        drop(file);
        let now = std::fs::metadata(&path).unwrap();
        assert_eq!(now.len(), 13);
        assert_eq!(now.modified().unwrap(), modified);
        assert!(matches!(
            identity.unchanged(),
            Err(TableError::Changed { .. })
        ));
    }
}
