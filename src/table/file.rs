//! Reading tables: a file mapped into memory, its header and size checked at every open and its
//! payload checksum once per file version on this machine (recorded in a `.ok` sidecar), or on
//! request.

use super::header::TableHeader;
use super::{FORMAT_VERSION, MAGIC, PAYLOAD_OFFSET, PREFIX, TableError, bincode_config, checksum};
use crate::packing::{entry, nibble};
use memmap2::Mmap;
use std::fs::{self, File};
use std::path::{Path, PathBuf};

/// When to recompute a payload checksum on load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verify {
    /// Every time.
    Always,
    /// Only if this file version has not been verified on this machine before.
    IfNew,
}

/// A table file mapped into memory, its header checked.
pub struct Table {
    header: TableHeader,
    /// The format version it was written in, which says how its checksum is computed.
    version: u32,
    map: Mmap,
    /// The file mapped: kept open so that a remap ([`Table::keep_resident`]) maps the same file
    /// even if another has been renamed over its path since.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    file: File,
    path: PathBuf,
}

impl Table {
    /// Opens the table file at `path`: maps it, checks its header and size, and its checksum as
    /// `verify` says. What space it holds is for the caller (the catalogue) to check.
    pub fn open_path(path: &Path, rebuild: &str, verify: Verify) -> Result<Table, TableError> {
        let table = Table::open_file(path, rebuild)?;
        table.verify(verify, rebuild)?;
        Ok(table)
    }

    /// Maps `path` and checks its magic, version, header and size (not the checksum).
    pub fn open_file(path: &Path, rebuild: &str) -> Result<Table, TableError> {
        let err = |problem: String| TableError::Damaged {
            path: path.to_path_buf(),
            problem,
            rebuild: rebuild.to_string(),
        };
        // Opening a FIFO would wait for a writer forever, and a directory or device maps as
        // "no such device": anything but a regular file is refused by name first.
        let kind = fs::metadata(path)
            .map_err(|source| {
                // A name that exists but leads nowhere: a dangling link or a loop of links.
                if fs::symlink_metadata(path).is_ok() {
                    TableError::BrokenLink {
                        path: path.to_path_buf(),
                        source,
                        rebuild: rebuild.to_string(),
                    }
                } else {
                    TableError::Io {
                        path: path.to_path_buf(),
                        source,
                    }
                }
            })?
            .file_type();
        if !kind.is_file() {
            return Err(TableError::NotAFile {
                path: path.to_path_buf(),
                what: if kind.is_dir() {
                    "directory"
                } else {
                    "device, pipe or socket"
                },
                rebuild: rebuild.to_string(),
            });
        }
        let file = File::open(path).map_err(|source| TableError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        super::identity::opened(&super::identity::FileIdentity::of(path, &file));
        // SAFETY: the file is only read. Tables are replaced by rename, which leaves this
        // mapping intact; a file written in place under it is a user's doing, which long-lived
        // readers notice by its identity (see `super::identity`).
        let map = unsafe { Mmap::map(&file) }.map_err(|source| TableError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        // Asked before any byte is read: once a fault has read part of the file in 4 KiB
        // folios, this kernel's readahead keeps to them for the whole file, and the table is
        // then never mapped in 2 MiB pages (see `keep_resident`).
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        if map.len() < PREFIX || map[..8] != MAGIC {
            return Err(TableError::BadMagic {
                path: path.to_path_buf(),
                rebuild: rebuild.to_string(),
            });
        }
        let version = u32::from_le_bytes([map[8], map[9], map[10], map[11]]);
        // Versions 1 and 2 checksummed the payload alone, so a header relabelled to name
        // another table of the same size passed: no such file is answered from.
        if version != FORMAT_VERSION {
            return Err(TableError::WrongVersion {
                path: path.to_path_buf(),
                found: version,
                expected: FORMAT_VERSION,
                rebuild: rebuild.to_string(),
            });
        }
        let header_len = u32::from_le_bytes([map[12], map[13], map[14], map[15]]) as usize;
        if header_len > PAYLOAD_OFFSET - PREFIX {
            return Err(err(format!(
                "its header length field says {header_len} bytes, more than the {} a header has room for",
                PAYLOAD_OFFSET - PREFIX
            )));
        }
        if map.len() < PAYLOAD_OFFSET {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected: PAYLOAD_OFFSET as u64,
                found: map.len() as u64,
                rebuild: rebuild.to_string(),
            });
        }
        let bytes = &map[PREFIX..PREFIX + header_len];
        let header: TableHeader = bincode::serde::decode_from_slice(bytes, bincode_config())
            .map(|(h, _)| h)
            .map_err(|e| err(format!("its header cannot be read ({e})")))?;
        if header.payload_bytes != header.encoding.payload_bytes(header.entries) {
            return Err(err(format!(
                "its header says {} entries in {} bytes",
                header.entries, header.payload_bytes
            )));
        }
        // The checksum covers the payload only; the depth counts in the header are checked by
        // their sum, which any flipped bit in one of them changes.
        let outside = header.outside();
        let counted: u128 = header
            .histogram
            .iter()
            .map(|&n| u128::from(n))
            .sum::<u128>()
            + u128::from(outside);
        if counted != u128::from(header.entries) {
            return Err(err(format!(
                "its header's depth counts add up to {counted}, not to its {} entries",
                header.entries
            )));
        }
        if let Some(space) = &header.parameters
            && u128::from(space.order) + u128::from(outside) != u128::from(header.entries)
        {
            return Err(err(format!(
                "its header says the space has {} positions and {outside} entries outside it, \
                 not its {} entries",
                space.order, header.entries
            )));
        }
        let expected = PAYLOAD_OFFSET as u64 + header.payload_bytes;
        if map.len() as u64 > expected {
            return Err(err(format!(
                "it has {} bytes, {} more than its header's {expected}: something was written \
                 after the table",
                map.len(),
                map.len() as u64 - expected
            )));
        }
        if (map.len() as u64) < expected {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected,
                found: map.len() as u64,
                rebuild: rebuild.to_string(),
            });
        }
        Ok(Table {
            header,
            version,
            map,
            file,
            path: path.to_path_buf(),
        })
    }

    pub fn verify(&self, verify: Verify, rebuild: &str) -> Result<(), TableError> {
        let stamp = file_stamp(&self.path, self.header.checksum);
        let sidecar = sidecar_path(&self.path);
        if verify == Verify::IfNew && stamp.is_some() && fs::read_to_string(&sidecar).ok() == stamp
        {
            return Ok(());
        }
        if checksum(&self.header, self.version, self.payload()) != self.header.checksum {
            // A stamp must never outlive the bytes it vouched for.
            let _ = fs::remove_file(&sidecar);
            return Err(TableError::ChecksumMismatch {
                path: self.path.clone(),
                rebuild: rebuild.to_string(),
            });
        }
        record_verified(&self.path, self.header.checksum);
        Ok(())
    }

    pub fn header(&self) -> &TableHeader {
        &self.header
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Size of the file in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.map.len() as u64
    }

    /// Prepares the table for a search, which reads it at random. The steps are hints: where
    /// the system refuses one, pages still map in on demand.
    ///
    /// Every table is mapped with `MADV_HUGEPAGE` (in [`Table::open_file`]): on kernels whose
    /// file system keeps large folios (ext4 since Linux 6.16) its pages are read in and mapped
    /// 2 MiB at a time, and the search then misses the TLB far less (without the dual lookup,
    /// 5.6 s against 8–13 s at depth 16 when most of the phase-1 table sat in 4 KiB pages).
    ///
    /// - Map every page in now (`MADV_POPULATE_READ`): a first visit would be a page fault (for
    ///   the 1 GiB phase-1 table that doubled the time of short searches).
    /// - Where a large table is still mostly in 4 KiB pages (read in before by a program that
    ///   mapped it without the advice), read it in again in 2 MiB pages (see [`super::huge`]).
    /// - Lock the pages in memory (`mlock`) until the table is dropped: a virtual machine whose
    ///   balloon shrinks the page cache (the project's 2-core VM loses about 10 MB of cache a
    ///   second) would otherwise take pages away in mid-search, to be read from disk again.
    /// - Read a byte of every page: under a hypervisor, the guest's first access to a page
    ///   the host filled costs an exit (see `touch_every_page`); better all of them now than
    ///   scattered over the first searches.
    ///
    /// Consumes the table and gives it back prepared; an error only where the file could not
    /// be mapped again, or came back another size (nothing of the table is left then).
    #[cfg_attr(not(target_os = "linux"), allow(unused_mut))]
    pub fn keep_resident(mut self) -> Result<Table, TableError> {
        #[cfg(target_os = "linux")]
        {
            let _ = self.map.advise(memmap2::Advice::PopulateRead);
            self.read_in_huge_pages(super::huge::LARGE)?;
        }
        #[cfg(unix)]
        let _ = self.map.lock();
        touch_every_page(&self.map);
        Ok(self)
    }

    /// Reads the file in again where it is `large` bytes or more, less than
    /// [`super::huge::ENOUGH`] of its mapping is in 2 MiB pages, and no such reread of this
    /// version of the file failed since the boot. On an error the table holds a one-byte
    /// stand-in mapping: only [`Table::keep_resident`], which then drops it, calls this.
    #[cfg(target_os = "linux")]
    fn read_in_huge_pages(&mut self, large: usize) -> Result<super::huge::Pages, TableError> {
        use super::huge::{self, Pages};
        let len = self.map.len();
        if len < large || !(self.map.as_ptr() as usize).is_multiple_of(huge::HUGE_PAGE) {
            return Ok(Pages::Left);
        }
        let share = |map: &Mmap| huge::share_in_huge_pages(map.as_ptr(), map.len());
        match share(&self.map) {
            None => return Ok(Pages::Unknown),
            Some(s) if s >= huge::ENOUGH => return Ok(Pages::Enough),
            Some(_) => {}
        }
        let io = |source| TableError::Io {
            path: self.path.clone(),
            source,
        };
        // The open file's identity, not the path's: another file may have been renamed there.
        let stamp = stamp_of(&self.file.metadata().map_err(io)?, self.header.checksum);
        let Some(stamp) = stamp else {
            return Ok(Pages::Unknown);
        };
        if huge::tried_before(&self.path, &stamp) {
            return Ok(Pages::TriedBefore);
        }
        // The mapping holds its pages in the cache: it goes first, and a page stands in.
        self.map = memmap2::MmapOptions::new()
            .len(1)
            .map_anon()
            .and_then(|m| m.make_read_only())
            .map_err(io)?;
        let _ = huge::drop_cached(&self.file);
        // SAFETY: as in `open_file`; the same file, still open.
        let map = unsafe { Mmap::map(&self.file) }.map_err(io)?;
        let _ = map.advise(memmap2::Advice::HugePage);
        let _ = map.advise(memmap2::Advice::PopulateRead);
        if map.len() != len {
            return Err(TableError::Changed {
                path: self.path.clone(),
            });
        }
        if share(&map).is_none_or(|s| s < huge::ENOUGH) {
            huge::mark_tried(&self.path, &stamp);
        }
        self.map = map;
        Ok(Pages::ReadAgain)
    }

    /// The packed entries.
    pub fn payload(&self) -> &[u8] {
        &self.map[PAYLOAD_OFFSET..]
    }

    /// Entry `index` of a [`crate::packing::Encoding::Nibble`] table.
    #[inline]
    pub fn nibble(&self, index: u64) -> u8 {
        nibble(self.payload(), index)
    }

    /// Entry `index` as stored, in this table's encoding.
    #[inline]
    pub fn entry(&self, index: u64) -> u8 {
        entry(self.header.encoding, self.payload(), index)
    }
}

/// Records that the file at `path` has been checked against `checksum`. Best effort: a read-only
/// data directory only means verifying again next time.
pub(super) fn record_verified(path: &Path, checksum: u64) {
    if let Some(stamp) = file_stamp(path, checksum) {
        let _ = fs::write(sidecar_path(path), stamp);
    }
}

/// The text in a `.ok` sidecar: what identifies this version of the file.
///
/// Size and modification time alone can be restored after a change (`touch -r`, a copy that
/// keeps times), and a stamp that still matched then let a damaged table answer. On Unix the
/// stamp also holds the inode and its change time, which every write to the file or its
/// metadata sets to now and no user call can set back: a changed file is verified again. The
/// cost is one verification after a copy or restore (a second or two for the default table),
/// against the alternative of hashing the whole table at every start.
fn file_stamp(path: &Path, checksum: u64) -> Option<String> {
    stamp_of(&fs::metadata(path).ok()?, checksum)
}

/// [`file_stamp`] of a file with metadata `meta`.
fn stamp_of(meta: &fs::Metadata, checksum: u64) -> Option<String> {
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    #[cfg(unix)]
    let identity = {
        use std::os::unix::fs::MetadataExt;
        format!(" {} {}.{:09}", meta.ino(), meta.ctime(), meta.ctime_nsec())
    };
    #[cfg(not(unix))]
    let identity = String::new();
    Some(format!(
        "{} {}{identity} {checksum:016x}\n",
        meta.len(),
        modified.as_nanos()
    ))
}

fn sidecar_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".ok");
    PathBuf::from(name)
}

/// Reads one byte of every 4 KiB page of `bytes`.
///
/// The reason is the machine under the kernel: in a virtual machine, a page that the host
/// filled (a disk read into the page cache, or memory the host took back and gave again) is not
/// yet in the second-level tables that translate the guest's memory, and the guest's first
/// access to it stops the CPU while the host maps it, about 9 µs a page here.
/// `MADV_POPULATE_READ` and `mlock` set up only the guest's own page tables. Without the touch,
/// those stops fell on the first searches after a table was read from disk: an 11-move
/// position took 0.19-0.25 s instead of 0.015 s. The touch moves them to the load (3 s for the
/// 1.4 GB table after a disk read, once; 0.05 s when its pages were touched before), where a
/// peer that reads its table into its own memory pays them too. Rejected: touching from
/// several threads (no faster here: the host maps one page at a time), and touching beside the
/// first search (it would compete with the search and leave its time to a race).
fn touch_every_page(bytes: &[u8]) {
    const PAGE: usize = 4096;
    let mut sum = 0u8;
    for offset in (0..bytes.len()).step_by(PAGE) {
        sum = sum.wrapping_add(bytes[offset]);
    }
    std::hint::black_box(sum);
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::super::huge::{self, Pages};
    use super::*;
    use crate::packing::Encoding;
    use crate::table::{Contents, SpaceCode, write_table};

    /// The tables here are 32 MiB; read in again from 1 MiB on.
    const LARGE: usize = 1 << 20;

    /// A valid table of `bytes` one-byte entries at `path`; its payload.
    fn write_large(path: &Path, bytes: u64) -> Vec<u8> {
        let payload: Vec<u8> = (0..bytes)
            .map(|i| (i.wrapping_mul(0x9E37_79B9) >> 24) as u8)
            .collect();
        let contents = Contents {
            space: SpaceCode {
                family: 0,
                metric: 0,
            },
            encoding: Encoding::Byte,
            entries: bytes,
            histogram: vec![bytes],
            parameters: None,
        };
        write_table(path, contents, &payload).unwrap();
        payload
    }

    /// Opens the table at `path` after reading half its pages a page at a time at random,
    /// once dropped from the cache: the cache then holds them in 4 KiB folios, as after a
    /// program that read the file without asking for 2 MiB pages. Its pages mapped in. A
    /// system that cannot be brought to that state (the drop left pages in 2 MiB folios, or
    /// the share cannot be read) fails the test that asked, saying so: its check cannot run
    /// there, and a pass would claim it had.
    fn open_in_small_pages(path: &Path) -> Table {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        use std::os::unix::fs::FileExt;
        let file = File::open(path).unwrap();
        huge::drop_cached(&file).unwrap();
        let len = file.metadata().unwrap().len();
        let mut pages: Vec<u64> = (0..len / 4096).map(|p| p * 4096).collect();
        pages.shuffle(&mut rand::rngs::Xoshiro256PlusPlus::seed_from_u64(4096));
        let mut byte = [0u8];
        for &page in &pages[..pages.len() / 2] {
            file.read_at(&mut byte, page).unwrap();
        }
        let table = Table::open_file(path, "rebuild").unwrap();
        let _ = table.map.advise(memmap2::Advice::PopulateRead);
        let small = share(&table).is_some_and(|s| s < huge::ENOUGH);
        assert!(
            small,
            "this system keeps no table in 4 KiB pages to test with (its page cache folds them into 2 MiB folios, or /proc does not say): this check cannot run here"
        );
        table
    }

    fn share(table: &Table) -> Option<f64> {
        huge::share_in_huge_pages(table.map.as_ptr(), table.map.len())
    }

    /// A table the cache holds in 4 KiB pages is read in again, its contents unchanged: in 2
    /// MiB pages where this system gives them, and otherwise marked as tried, after which it is
    /// not read in again.
    #[test]
    fn a_table_in_small_pages_is_read_in_again_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("large.tbl");
        let payload = write_large(&path, 32 << 20);
        let mut table = open_in_small_pages(&path);
        if !(table.map.as_ptr() as usize).is_multiple_of(huge::HUGE_PAGE) {
            assert_eq!(table.read_in_huge_pages(LARGE).unwrap(), Pages::Left);
            return;
        }
        assert_eq!(table.read_in_huge_pages(LARGE).unwrap(), Pages::ReadAgain);
        assert_eq!(table.payload(), &payload[..]);
        let marked = huge::marker_path(&path).exists();
        let now = share(&table).unwrap();
        assert_eq!(
            marked,
            now < huge::ENOUGH,
            "marked {marked} with {now} in 2 MiB pages"
        );
        drop(table);
        let mut table = open_in_small_pages(&path);
        let expected = if marked {
            Pages::TriedBefore
        } else {
            Pages::ReadAgain
        };
        assert_eq!(table.read_in_huge_pages(LARGE).unwrap(), expected);
        assert_eq!(table.payload(), &payload[..]);
    }

    /// A table marked as tried for its present version since the boot is not read in again;
    /// one marked for another version is.
    #[test]
    fn a_marked_table_is_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("large.tbl");
        let payload = write_large(&path, 32 << 20);
        let table = Table::open_file(&path, "rebuild").unwrap();
        let stamp = file_stamp(&path, table.header.checksum).unwrap();
        drop(table);
        huge::mark_tried(&path, &stamp);
        let mut table = open_in_small_pages(&path);
        if !(table.map.as_ptr() as usize).is_multiple_of(huge::HUGE_PAGE) {
            // A mapping not on a 2 MiB boundary is left as it is, marked or not.
            assert_eq!(table.read_in_huge_pages(LARGE).unwrap(), Pages::Left);
            return;
        }
        assert_eq!(table.read_in_huge_pages(LARGE).unwrap(), Pages::TriedBefore);
        assert_eq!(table.payload(), &payload[..]);
        drop(table);
        huge::mark_tried(&path, "another version");
        let mut table = open_in_small_pages(&path);
        assert_eq!(table.read_in_huge_pages(LARGE).unwrap(), Pages::ReadAgain);
        assert_eq!(table.payload(), &payload[..]);
    }

    /// `keep_resident` gives the table back whole.
    #[test]
    fn a_table_kept_resident_reads_as_before() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("large.tbl");
        let payload = write_large(&path, 3 << 20);
        let table = Table::open_file(&path, "rebuild").unwrap();
        let table = table.keep_resident().unwrap();
        assert_eq!(table.payload(), &payload[..]);
    }
}
