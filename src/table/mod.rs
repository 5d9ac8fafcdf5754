//! The one table file format: a small header, then the packed entries, aligned for memory mapping.
//!
//! ```text
//! 0      8 bytes   magic "CUBELAB\0"
//! 8      u32 LE    format version (checked before the header is decoded; 1 and 2 are read)
//! 12     u32 LE    header length n
//! 16     n bytes   TableHeader, bincode (standard config)
//! 4096   payload   entries, packed as the header's encoding says
//! ```
//!
//! Files are written to a temporary name and renamed into place, so a reader never sees half a
//! table. A loaded file is checked against its header (kind, metric, sizes) every time and its
//! payload checksum once per file version on this machine (recorded in a `.ok` sidecar), or on
//! request.

pub mod based;
mod error;

pub use error::TableError;

use crate::cube::Metric;
use memmap2::Mmap;
use serde::{Deserialize, Serialize};
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

pub const MAGIC: [u8; 8] = *b"CUBELAB\0";
/// Version 2 added [`TableHeader::group`]; files of version 1 are still read.
pub const FORMAT_VERSION: u32 = 2;
/// Payload offset: one page, so the mapped payload is page-aligned.
pub const PAYLOAD_OFFSET: usize = 4096;
const PREFIX: usize = 16;

/// What a table indexes. The coordinate a kind uses is fixed by its module in `pdb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
pub enum TableKind {
    /// The whole 2x2x2 with the DBL corner fixed: 7! x 3^6 states.
    #[value(name = "2x2")]
    Pocket,
    /// All 8 corners of the 3x3x3: 8! x 3^7 states.
    Corners,
    /// 6 of the 12 edges of the 3x3x3: 12!/6! x 2^6 states.
    Edges6,
    /// 7 of the 12 edges of the 3x3x3: 12!/5! x 2^7 states.
    Edges7,
    /// Kociemba's phase-1 coordinate of the 3x3x3 (corner twist, edge flip, E-slice edge
    /// places): 3^7 x 2^11 x 495 states.
    Phase1,
    /// Cosets of a subgroup holding U and D (see `pdb::ud`): corner classes x E-slice places x
    /// E-slice flips: 78,645,600 entries (vcube's coordinate 104).
    #[value(name = "ud-f4")]
    UdF4,
    /// ... x the flips of the other eight edges: 1,258,329,600 entries (vcube 108).
    #[value(name = "ud-f8")]
    UdF8,
    /// ... x the order of the E-slice edges x their flips: 1,887,494,400 entries (vcube 204).
    #[value(name = "ud-order-f4")]
    UdOrderF4,
    /// ... x which slots hold U-layer edges x the E-slice flips: 5,505,192,000 entries (vcube 304).
    #[value(name = "ud-layers-f4")]
    UdLayersF4,
    /// ... x all edge flips: 10,066,636,800 entries (vcube 112).
    #[value(name = "ud-f12")]
    UdF12,
    /// ... x the order of the E-slice edges x the flips of the other eight:
    /// 30,199,910,400 entries (vcube 208).
    #[value(name = "ud-order-f8")]
    UdOrderF8,
    /// A subgroup's distances, over the product of its corner and edge images (see
    /// [`crate::group`]); the header's `group` says which. Built by `gen-tables --generators`.
    #[value(skip)]
    Group,
    /// Kociemba's phase-1 coordinate reduced by the 16 U-D symmetries (flip-and-slice classes
    /// x twist): 140,908,410 entries, the two-phase solver's first table (see `pdb::twophase`).
    /// Declared after `Group`, as headers store a kind by its place in this list.
    #[value(name = "phase1-sym")]
    Phase1Sym,
    /// Within <U, D, R2, L2, F2, B2>: corner permutation classes x the U- and D-layer edges'
    /// permutation: 111,605,760 entries, the two-phase solver's phase-2 table.
    Phase2,
    /// Within <U, D, R2, L2, F2, B2>: corner permutation x E-slice edge order: 967,680
    /// entries, beside `phase2`.
    #[value(name = "phase2-slice")]
    Phase2Slice,
}

impl TableKind {
    pub const ALL: [TableKind; 14] = [
        TableKind::Pocket,
        TableKind::Corners,
        TableKind::Edges6,
        TableKind::Edges7,
        TableKind::Phase1,
        TableKind::UdF4,
        TableKind::UdF8,
        TableKind::UdOrderF4,
        TableKind::UdLayersF4,
        TableKind::UdF12,
        TableKind::UdOrderF8,
        TableKind::Phase1Sym,
        TableKind::Phase2,
        TableKind::Phase2Slice,
    ];

    /// The tables `gen-tables` builds when none are named: those the solvers read by default.
    pub const DEFAULT: [TableKind; 6] = [
        TableKind::Pocket,
        TableKind::Corners,
        TableKind::Phase1Sym,
        TableKind::Phase2,
        TableKind::Phase2Slice,
        TableKind::UdLayersF4,
    ];

    /// The two-phase solver's tables.
    pub const TWO_PHASE: [TableKind; 3] = [
        TableKind::Phase1Sym,
        TableKind::Phase2,
        TableKind::Phase2Slice,
    ];

    /// Whether the kind has a table in `metric`. The phase-2 tables count in H's own moves,
    /// the half-turn metric's (see `pdb::twophase`).
    pub const fn has_metric(self, metric: Metric) -> bool {
        !matches!(
            (self, metric),
            (TableKind::Phase2 | TableKind::Phase2Slice, Metric::Qtm)
        )
    }

    /// The name used on the command line and in file names.
    pub const fn name(self) -> &'static str {
        match self {
            TableKind::Pocket => "2x2",
            TableKind::Corners => "corners",
            TableKind::Edges6 => "edges6",
            TableKind::Edges7 => "edges7",
            TableKind::Phase1 => "phase1",
            TableKind::UdF4 => "ud-f4",
            TableKind::UdF8 => "ud-f8",
            TableKind::UdOrderF4 => "ud-order-f4",
            TableKind::UdLayersF4 => "ud-layers-f4",
            TableKind::UdF12 => "ud-f12",
            TableKind::UdOrderF8 => "ud-order-f8",
            TableKind::Group => "group",
            TableKind::Phase1Sym => "phase1-sym",
            TableKind::Phase2 => "phase2",
            TableKind::Phase2Slice => "phase2-slice",
        }
    }

    /// The coset shape of a `ud-*` table.
    pub const fn ud_shape(self) -> Option<crate::pdb::ud::Shape> {
        use crate::pdb::ud::{EdgeFlips as F, EdgePlaces as P, Shape};
        let (places, flips) = match self {
            TableKind::UdF4 => (P::Slice, F::Slice),
            TableKind::UdF8 => (P::Slice, F::Layers),
            TableKind::UdOrderF4 => (P::SliceOrder, F::Slice),
            TableKind::UdLayersF4 => (P::Layers, F::Slice),
            TableKind::UdF12 => (P::Slice, F::All),
            TableKind::UdOrderF8 => (P::SliceOrder, F::Layers),
            _ => return None,
        };
        Some(Shape { places, flips })
    }

    pub fn from_name(name: &str) -> Option<TableKind> {
        TableKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// How entries are packed. Either way entry `i` sits in byte `i / per_byte`, lowest bits first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
pub enum Encoding {
    /// Exact distance in 4 bits, two entries per byte; `0xF` marks a state never reached.
    Nibble,
    /// Distance mod 3 in 2 bits, four entries per byte; `3` marks a state never reached. Half the
    /// size; exact values are recovered from a neighbour's exact value (they differ by at most
    /// one, so the residue decides) or by walking down to the goal.
    Mod3,
    /// 2 bits relative to a base with an exact minimum per 64-byte line: a lower bound, not the
    /// distance, for the coset tables the solver reads (see [`based`]). Always used for those,
    /// never for the others.
    #[value(skip)]
    Based,
    /// Exact distance in a byte; `0xFF` marks a state never reached. For subgroups, whose
    /// distances can pass the 14 a nibble holds (the squares group reaches 15, `<U, R>` in
    /// quarter turns 25, a directed 2x2 19).
    #[value(skip)]
    Byte,
}

impl Encoding {
    pub const fn bits(self) -> u32 {
        match self {
            Encoding::Byte => 8,
            Encoding::Nibble => 4,
            Encoding::Mod3 | Encoding::Based => 2,
        }
    }

    pub const fn payload_bytes(self, entries: u64) -> u64 {
        match self {
            Encoding::Based => based::payload_bytes(entries),
            _ => entries.div_ceil(8 / self.bits() as u64),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Nibble => "nibble",
            Encoding::Mod3 => "mod3",
            Encoding::Based => "based",
            Encoding::Byte => "byte",
        }
    }
}

/// A table's identity: its kind, metric and encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableId {
    pub kind: TableKind,
    pub metric: Metric,
    pub encoding: Encoding,
}

impl TableId {
    /// A table in its kind's own encoding: based for the `ud` coset tables, bytes for
    /// `phase2`, exact 4-bit distances for the others.
    pub const fn new(kind: TableKind, metric: Metric) -> TableId {
        let encoding = if kind.ud_shape().is_some() {
            Encoding::Based
        } else if matches!(kind, TableKind::Phase2) {
            // Its distances reach 18, beyond what four bits hold.
            Encoding::Byte
        } else {
            Encoding::Nibble
        };
        TableId {
            kind,
            metric,
            encoding,
        }
    }

    pub const fn with_encoding(self, encoding: Encoding) -> TableId {
        TableId { encoding, ..self }
    }

    /// For example `2x2-htm`, or `edges7-htm-mod3` for a 2-bit table.
    pub fn name(&self) -> String {
        match self.encoding {
            Encoding::Nibble | Encoding::Based | Encoding::Byte => {
                format!("{}-{}", self.kind.name(), self.metric.name())
            }
            Encoding::Mod3 => format!("{}-{}-mod3", self.kind.name(), self.metric.name()),
        }
    }

    pub fn path(&self, dir: &Path) -> PathBuf {
        dir.join(format!("{}.tbl", self.name()))
    }

    /// Whether `dir` holds this table, as a file or as its compressed copy (which
    /// [`Table::open`] unpacks); whether it is valid is for opening it to say.
    pub fn is_present(&self, dir: &Path) -> bool {
        let path = self.path(dir);
        path.exists() || zst_path(&path).exists()
    }

    /// The command that (re)builds this table into `dir`, for error messages. It needs no
    /// `--force`: gen-tables rebuilds a table it finds damaged.
    pub fn rebuild_command(&self, dir: &Path) -> String {
        let encoding = match self.encoding {
            Encoding::Nibble | Encoding::Based | Encoding::Byte => "",
            Encoding::Mod3 => " --encoding mod3",
        };
        format!(
            "gen-tables --data-dir {} --metric {}{encoding} {}",
            dir.display(),
            self.metric.name(),
            self.kind.name()
        )
    }
}

/// Everything about a table except its entries. Its own layout is versioned by
/// [`FORMAT_VERSION`], independent of bincode's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableHeader {
    pub kind: TableKind,
    pub metric: Metric,
    pub encoding: Encoding,
    pub entries: u64,
    pub payload_bytes: u64,
    /// xxh3-64 of the payload.
    pub checksum: u64,
    /// States at each distance, as counted when the table was built.
    pub histogram: Vec<u64>,
    /// The cubelab version that wrote the file.
    pub created_by: String,
    /// For a subgroup's table: which group, and how its states are numbered.
    pub group: Option<GroupHeader>,
}

/// What identifies a subgroup's table beyond its kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupHeader {
    pub spec: crate::group::GroupSpec,
    /// The group's order (by the Schreier–Sims algorithm): the states the histogram counts.
    pub order: u64,
    /// Entries of the product space outside the group, never reached.
    pub outside: u64,
    /// [`crate::group::GroupSpace::fingerprint`] of the numbering the entries follow.
    pub fingerprint: u64,
}

/// The header as format version 1 wrote it (before `group`).
#[derive(Deserialize)]
struct TableHeaderV1 {
    kind: TableKind,
    metric: Metric,
    encoding: Encoding,
    entries: u64,
    payload_bytes: u64,
    checksum: u64,
    histogram: Vec<u64>,
    created_by: String,
}

impl From<TableHeaderV1> for TableHeader {
    fn from(v1: TableHeaderV1) -> TableHeader {
        TableHeader {
            kind: v1.kind,
            metric: v1.metric,
            encoding: v1.encoding,
            entries: v1.entries,
            payload_bytes: v1.payload_bytes,
            checksum: v1.checksum,
            histogram: v1.histogram,
            created_by: v1.created_by,
            group: None,
        }
    }
}

impl TableHeader {
    pub fn id(&self) -> TableId {
        TableId::new(self.kind, self.metric).with_encoding(self.encoding)
    }
}

fn bincode_config() -> impl bincode::config::Config {
    // The limit stops a damaged length field from asking for a huge allocation.
    bincode::config::standard().with_limit::<{ PAYLOAD_OFFSET - PREFIX }>()
}

pub fn checksum(payload: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(payload)
}

/// Writes a table atomically: to a temporary file beside `path`, then renamed over it.
pub fn write_table(
    path: &Path,
    id: TableId,
    encoding: Encoding,
    entries: u64,
    histogram: Vec<u64>,
    payload: &[u8],
) -> Result<TableHeader, TableError> {
    let header = TableHeader {
        kind: id.kind,
        metric: id.metric,
        encoding,
        entries,
        payload_bytes: payload.len() as u64,
        checksum: checksum(payload),
        histogram,
        created_by: concat!("cubelab ", env!("CARGO_PKG_VERSION")).to_string(),
        group: None,
    };
    write_header_and_payload(path, header, payload)
}

/// Writes a subgroup's table (one byte per entry) atomically, as [`write_table`] does.
pub fn write_group_table(
    path: &Path,
    group: GroupHeader,
    histogram: Vec<u64>,
    payload: &[u8],
) -> Result<TableHeader, TableError> {
    let metric = match group.spec.metric {
        crate::group::GroupMetric::Qtm => Metric::Qtm,
        _ => Metric::Htm,
    };
    let header = TableHeader {
        kind: TableKind::Group,
        metric,
        encoding: Encoding::Byte,
        entries: payload.len() as u64,
        payload_bytes: payload.len() as u64,
        checksum: checksum(payload),
        histogram,
        created_by: concat!("cubelab ", env!("CARGO_PKG_VERSION")).to_string(),
        group: Some(group),
    };
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
pub(crate) fn atomic_write(
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

/// Removes the temporary files (`<table>.tmp<pid>`) that builds or unpacks killed before
/// their rename left in `dir`, where no process of that number runs; returns each with its
/// size. Such a file is never read (tables are found by their final names) but can hold
/// gigabytes.
pub fn remove_stale_temporaries(dir: &Path) -> Vec<(PathBuf, u64)> {
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
        let kinds = TableKind::ALL.iter().chain([&TableKind::Group]);
        if !kinds.into_iter().any(|k| name.starts_with(k.name())) {
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
    map: Mmap,
    path: PathBuf,
}

impl Table {
    /// Opens the table `id` in `dir`, decompressing `<name>.tbl.zst` first if only that exists.
    pub fn open(dir: &Path, id: TableId, verify: Verify) -> Result<Table, TableError> {
        let path = id.path(dir);
        let rebuild = id.rebuild_command(dir);
        if !path.exists() {
            let zst = zst_path(&path);
            if !zst.exists() {
                return Err(TableError::Missing { path, rebuild });
            }
            import_zst(&zst, &path, &rebuild)?;
        }
        let table = Table::open_file(&path, &rebuild)?;
        if table.header.id() != id {
            return Err(TableError::WrongKind {
                path,
                expected: id.name(),
                found: table.header.id().name(),
                rebuild,
            });
        }
        table.verify(verify, &rebuild)?;
        Ok(table)
    }

    /// Opens the table file at `path` as [`Table::open`] does, for tables found by path (a
    /// subgroup's) rather than by [`TableId`]; what it holds is for the caller to check.
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
            .map_err(|source| TableError::Io {
                path: path.to_path_buf(),
                source,
            })?
            .file_type();
        if !kind.is_file() {
            return Err(err(format!(
                "it is not a regular file (a {})",
                if kind.is_dir() {
                    "directory"
                } else {
                    "device, pipe or socket"
                }
            )));
        }
        let file = File::open(path).map_err(|source| TableError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        // SAFETY: the file is only read; tables are replaced by rename, never rewritten in
        // place, so a mapped file's contents do not change under us.
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
        if version != FORMAT_VERSION && version != 1 {
            return Err(TableError::WrongVersion {
                path: path.to_path_buf(),
                found: version,
                expected: FORMAT_VERSION,
                rebuild: rebuild.to_string(),
            });
        }
        let header_len = u32::from_le_bytes([map[12], map[13], map[14], map[15]]) as usize;
        if header_len > PAYLOAD_OFFSET - PREFIX || map.len() < PAYLOAD_OFFSET {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected: PAYLOAD_OFFSET as u64,
                found: map.len() as u64,
                rebuild: rebuild.to_string(),
            });
        }
        let bytes = &map[PREFIX..PREFIX + header_len];
        let header: TableHeader = if version == 1 {
            bincode::serde::decode_from_slice::<TableHeaderV1, _>(bytes, bincode_config())
                .map(|(v1, _)| v1.into())
        } else {
            bincode::serde::decode_from_slice(bytes, bincode_config()).map(|(h, _)| h)
        }
        .map_err(|e| err(format!("its header cannot be read ({e})")))?;
        if header.payload_bytes != header.encoding.payload_bytes(header.entries) {
            return Err(err(format!(
                "its header says {} entries in {} bytes",
                header.entries, header.payload_bytes
            )));
        }
        // The checksum covers the payload only; the depth counts in the header are checked by
        // their sum, which any flipped bit in one of them changes.
        let outside = header.group.as_ref().map_or(0, |g| g.outside);
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
        if let Some(group) = &header.group
            && u128::from(group.order) + u128::from(outside) != u128::from(header.entries)
        {
            return Err(err(format!(
                "its header says the group has {} positions and {outside} entries outside it, \
                 not its {} entries",
                group.order, header.entries
            )));
        }
        let expected = PAYLOAD_OFFSET as u64 + header.payload_bytes;
        if map.len() as u64 != expected {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected,
                found: map.len() as u64,
                rebuild: rebuild.to_string(),
            });
        }
        Ok(Table {
            header,
            map,
            path: path.to_path_buf(),
        })
    }

    fn verify(&self, verify: Verify, rebuild: &str) -> Result<(), TableError> {
        let stamp = file_stamp(&self.path, self.header.checksum);
        let sidecar = sidecar_path(&self.path);
        if verify == Verify::IfNew && stamp.is_some() && fs::read_to_string(&sidecar).ok() == stamp
        {
            return Ok(());
        }
        if checksum(self.payload()) != self.header.checksum {
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

    /// Prepares the table for a search, which reads it at random. The first two steps are
    /// hints: where the system refuses one, pages still map in on demand.
    ///
    /// Every table is mapped with `MADV_HUGEPAGE` (in [`Table::open_file`]): on kernels whose
    /// file system keeps large folios (ext4 since Linux 6.16) its pages are read in and mapped
    /// 2 MiB at a time, and the search then misses the TLB far less (without the dual lookup,
    /// 5.6 s against 8–13 s at depth 16 when most of the phase-1 table sat in 4 KiB pages).
    ///
    /// - Map every page in now (`MADV_POPULATE_READ`): a first visit would be a page fault (for
    ///   the 1 GiB phase-1 table that doubled the time of short searches).
    /// - Lock the pages in memory (`mlock`) until the table is dropped: a virtual machine whose
    ///   balloon shrinks the page cache (the project's 2-core VM loses about 10 MB of cache a
    ///   second) would otherwise take pages away in mid-search, to be read from disk again.
    /// - Read a byte of every page: under a hypervisor, the guest's first access to a page
    ///   the host filled costs an exit (see `touch_every_page`); better all of them now than
    ///   scattered over the first searches.
    pub fn keep_resident(&self) {
        #[cfg(target_os = "linux")]
        let _ = self.map.advise(memmap2::Advice::PopulateRead);
        #[cfg(unix)]
        let _ = self.map.lock();
        touch_every_page(&self.map);
    }

    /// The packed entries.
    pub fn payload(&self) -> &[u8] {
        &self.map[PAYLOAD_OFFSET..]
    }

    /// Entry `index` of a [`Encoding::Nibble`] table.
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

/// Entry `index` of nibble-packed bytes.
#[inline]
pub fn nibble(packed: &[u8], index: u64) -> u8 {
    (packed[(index / 2) as usize] >> ((index & 1) * 4)) & 0xF
}

/// Entry `index` of bytes packed in `encoding`.
#[inline]
pub fn entry(encoding: Encoding, packed: &[u8], index: u64) -> u8 {
    match encoding {
        Encoding::Nibble => nibble(packed, index),
        Encoding::Mod3 => (packed[(index / 4) as usize] >> ((index & 3) * 2)) & 3,
        Encoding::Based => based::Based::new(packed).map_or(0, |b| b.code(index)),
        Encoding::Byte => packed[index as usize],
    }
}

/// Records that the file at `path` has been checked against `checksum`. Best effort: a read-only
/// data directory only means verifying again next time.
fn record_verified(path: &Path, checksum: u64) {
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
    let meta = fs::metadata(path).ok()?;
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

/// The directory the binaries read and write tables in when `--data-dir` names none, the same
/// for all of them so that `gen-tables` writes where `solve` looks:
/// 1. `$CUBELAB_DATA`, if set and not empty;
/// 2. `data/` in the working directory, if it exists (a checkout of this repository has it);
/// 3. the per-user data directory of the platform, `cubelab` in it (on Linux
///    `$XDG_DATA_HOME/cubelab`, by default `~/.local/share/cubelab`);
/// 4. `data/`, where the system names no such directory.
pub fn default_data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CUBELAB_DATA").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let local = PathBuf::from("data");
    if local.is_dir() {
        return local;
    }
    dirs::data_dir().map_or(local, |d| d.join("cubelab"))
}

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
