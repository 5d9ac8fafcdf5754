//! A mapped table in 2 MiB pages, where the system can give them.
//!
//! The search reads its table at random, a cache line for each child it generates. In 4 KiB
//! pages nearly every such read of a table of a gigabyte or more also misses the TLB, and under
//! a hypervisor the page walk that follows is two-dimensional; in 2 MiB pages the TLB covers
//! gigabytes. Linux maps a file in 2 MiB pages where its page cache holds the file in 2 MiB
//! folios (ext4 since 6.16, and other file systems with large folios), and which folios the
//! cache holds is decided when the pages are read in: 2 MiB under `MADV_HUGEPAGE`, which
//! [`super::Table::open_file`] sets before it reads a byte, but mostly 4 KiB where a program
//! mapping the file without that advice read it first, and they then stay 4 KiB for as long as
//! they are cached. Measured here (reports/performance-log.md, "The table in 2 MiB pages"):
//! `h48-eo6` with a quarter of its mapping in 2 MiB pages solved the ten benchmark positions in
//! 71.7 s and 71.8 s, with all of it in 56.4 s and 54.9 s.
//!
//! So where too little of a large table is in 2 MiB pages, [`super::Table::keep_resident`]
//! drops the file's cached pages (`POSIX_FADV_DONTNEED`, which drops only pages no process
//! maps) and reads them in again under the advice. That costs one read of the file from disk,
//! about 5 s for `h48-eo6` here, once: later opens find the cache in 2 MiB folios. Where the
//! read brings too few 2 MiB pages (an older kernel, a file system without large folios, or
//! another program mapping the pages, which the drop then leaves) it would be paid at every
//! open, so a marker beside the table (`TABLE.small-pages`, holding the file's identity and the
//! boot's) says it was tried for this version of the file since the machine started, and it is
//! not tried again until either changes (a kernel upgrade comes with a boot).
//! Rejected: copying the table into anonymous memory in 2 MiB pages (this VM gives anonymous
//! memory no huge pages, and the copy doubles the memory a table takes while the page cache
//! holds it too); `MADV_COLLAPSE` on the file mapping (refused here with `EINVAL`).

use std::fs::File;
use std::path::{Path, PathBuf};

/// What [`super::Table::keep_resident`] found, and did, about a table's page size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pages {
    /// Smaller than [`LARGE`], or mapped at an address no 2 MiB page can start at.
    Left,
    /// The share in 2 MiB pages could not be read (no `FilePmdMapped` in `/proc/self/smaps`).
    Unknown,
    /// At least [`ENOUGH`] of it was in 2 MiB pages.
    Enough,
    /// Too little, but a reread of this version of the file was tried since the boot.
    TriedBefore,
    /// Read in again.
    ReadAgain,
}

/// 2 MiB: the size of a page the TLB covers a table with.
pub(super) const HUGE_PAGE: usize = 2 << 20;

/// Tables smaller than this are left as they are: a few hundred 4 KiB pages stay in the TLB.
pub(super) const LARGE: usize = 64 << 20;

/// The share of a mapping in 2 MiB pages below which the file is read in again.
pub(super) const ENOUGH: f64 = 0.75;

/// The share of the mapping that starts at `start` (a mapping of this process) held in 2 MiB
/// pages, from `/proc/self/smaps`; `None` where that cannot be told.
#[cfg(target_os = "linux")]
pub(super) fn share_in_huge_pages(start: *const u8, len: usize) -> Option<f64> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    // The kernel writes addresses in at least eight hex digits.
    let head = format!("{:08x}-", start as usize);
    let block = smaps
        .split_inclusive('\n')
        .skip_while(|line| !line.starts_with(&head))
        .skip(1)
        // The mapping's fields ("Name:   value"), up to the next mapping's address range.
        .take_while(|line| {
            line.split_whitespace()
                .next()
                .is_some_and(|key| key.ends_with(':'))
        });
    let kib = block
        .filter_map(|line| line.strip_prefix("FilePmdMapped:"))
        .find_map(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })?;
    Some((kib * 1024) as f64 / len as f64)
}

/// Drops the cached pages of `file` that no process maps, so that the next read brings them in
/// afresh.
#[cfg(target_os = "linux")]
pub(super) fn drop_cached(file: &File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: a plain system call on an open descriptor; it only advises the kernel.
    match unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) } {
        0 => Ok(()),
        error => Err(std::io::Error::from_raw_os_error(error)),
    }
}

/// Where the marker of a table whose reread brought too few 2 MiB pages lies.
pub(super) fn marker_path(table: &Path) -> PathBuf {
    let mut name = table.as_os_str().to_owned();
    name.push(".small-pages");
    PathBuf::from(name)
}

/// The marker's text for the table whose identity is `stamp`: that and the boot's identity.
fn marker_text(stamp: &str) -> String {
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap_or_default();
    format!("{} {}", stamp.trim_end(), boot.trim())
}

/// Whether the marker of `table` is absent or a plain file: a FIFO put there would hold a read
/// or a write of it forever, and a link would redirect the write.
fn marker_is_plain(table: &Path) -> bool {
    std::fs::symlink_metadata(marker_path(table)).map_or(true, |m| m.file_type().is_file())
}

/// Whether a reread of the table whose identity is `stamp` was tried since the boot and did not
/// help. A marker is a line of about a hundred bytes: one far longer is not read.
pub(super) fn tried_before(table: &Path, stamp: &str) -> bool {
    use std::io::Read;
    let expected = marker_text(stamp);
    // Checked before opening: opening a FIFO waits for a writer.
    if !marker_is_plain(table) {
        return false;
    }
    let Ok(file) = File::open(marker_path(table)) else {
        return false;
    };
    let mut marked = Vec::new();
    file.take(expected.len() as u64 + 1)
        .read_to_end(&mut marked)
        .is_ok()
        && marked == expected.as_bytes()
}

/// Records that a reread of the table whose identity is `stamp` did not help. Best effort: a
/// read-only data directory only means trying again at the next open.
pub(super) fn mark_tried(table: &Path, stamp: &str) {
    if marker_is_plain(table) {
        let _ = std::fs::write(marker_path(table), marker_text(stamp));
    }
}
