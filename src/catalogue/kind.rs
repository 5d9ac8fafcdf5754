//! Which tables exist: a kind (the coordinate) and a metric make a table, named on the command
//! line and in file names, and coded in file headers.

use crate::model::cube::Metric;
use crate::packing::Encoding;
use crate::space::h48::{H48Flips, H48Table};
use crate::space::ud::{EdgeFlips as F, EdgePlaces as P, Shape};
use crate::table::{SpaceCode, Table, TableError, TableHeader, Verify, import_zst, zst_path};
use std::path::{Path, PathBuf};

/// What a table indexes. The coordinate a kind uses is fixed by its module in [`crate::space`].
///
/// A header stores a kind by its place in this list ([`TableKind::code`]): new kinds go at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum TableKind {
    /// The whole 2x2x2 with the DBL corner fixed: 7! x 3^6 states.
    #[cfg_attr(feature = "clap", value(name = "2x2"))]
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
    #[cfg_attr(feature = "clap", value(name = "ud-f4"))]
    UdF4,
    /// ... x the flips of the other eight edges: 1,258,329,600 entries (vcube 108).
    #[cfg_attr(feature = "clap", value(name = "ud-f8"))]
    UdF8,
    /// ... x the order of the E-slice edges x their flips: 1,887,494,400 entries (vcube 204).
    #[cfg_attr(feature = "clap", value(name = "ud-order-f4"))]
    UdOrderF4,
    /// ... x which slots hold U-layer edges x the E-slice flips: 5,505,192,000 entries (vcube 304).
    #[cfg_attr(feature = "clap", value(name = "ud-layers-f4"))]
    UdLayersF4,
    /// ... x all edge flips: 10,066,636,800 entries (vcube 112).
    #[cfg_attr(feature = "clap", value(name = "ud-f12"))]
    UdF12,
    /// ... x the order of the E-slice edges x the flips of the other eight:
    /// 30,199,910,400 entries (vcube 208).
    #[cfg_attr(feature = "clap", value(name = "ud-order-f8"))]
    UdOrderF8,
    /// A subgroup's distances, over the product of its corner and edge images (see
    /// [`crate::catalogue::group`]); the header's `group` says which. Built by `gen-tables --generators`.
    #[cfg_attr(feature = "clap", value(skip))]
    Group,
    /// Kociemba's phase-1 coordinate reduced by the 16 U-D symmetries (flip-and-slice classes
    /// x twist): 140,908,410 entries, the two-phase solver's first table (see `pdb::twophase`).
    /// Declared after `Group`, as headers store a kind by its place in this list.
    #[cfg_attr(feature = "clap", value(name = "phase1-sym"))]
    Phase1Sym,
    /// Within <U, D, R2, L2, F2, B2>: corner permutation classes x the U- and D-layer edges'
    /// permutation: 111,605,760 entries, the two-phase solver's phase-2 table.
    Phase2,
    /// Within <U, D, R2, L2, F2, B2>: corner permutation x E-slice edge order: 967,680
    /// entries, beside `phase2`.
    #[cfg_attr(feature = "clap", value(name = "phase2-slice"))]
    Phase2Slice,
    /// Cosets of a subgroup every symmetry keeps (see `space::h48`), reduced by all 48
    /// symmetries: corner classes x M- and S-slice edge places x each slice's flip parity:
    /// 470,269,800 entries.
    #[cfg_attr(feature = "clap", value(name = "h48-parity"))]
    H48Parity,
    /// ... x each slice's flips up to flipping the whole slice (instead of its parity):
    /// 30,097,267,200 entries, 7.5 GB.
    #[cfg_attr(feature = "clap", value(name = "h48-flips"))]
    H48Flips,
    /// `h48-flips` with the kept flips cut to 7 bits (the smallest entry of each pair):
    /// 15,048,633,600 entries, 3.8 GB. Read off `h48-flips`' exact entries as it is built.
    #[cfg_attr(feature = "clap", value(name = "h48-flips7"))]
    H48Flips7,
    /// ... to 6 bits: 7,524,316,800 entries, 1.9 GB.
    #[cfg_attr(feature = "clap", value(name = "h48-flips6"))]
    H48Flips6,
    /// ... to 5 bits: 3,762,158,400 entries, 940 MB.
    #[cfg_attr(feature = "clap", value(name = "h48-flips5"))]
    H48Flips5,
    /// ... to 4 bits: 1,881,079,200 entries, 470 MB.
    #[cfg_attr(feature = "clap", value(name = "h48-flips4"))]
    H48Flips4,
    /// ... to 3 bits: 940,539,600 entries, 235 MB.
    #[cfg_attr(feature = "clap", value(name = "h48-flips3"))]
    H48Flips3,
    /// Corner classes x M- and S-slice edge places x the flips of the four highest edge slots
    /// (FR FL BL BR, seen from the class's representative): each entry the smallest distance
    /// to the subgroup that keeps every flip over the cosets it stands for, exact up to 10
    /// (nissy's `h48h4`, over base 8). 1,881,079,200 entries, 470 MB. Filled from the cosets
    /// within 7 moves of solved by a walk three moves further, as are `h48-eo5` and `h48-eo6`;
    /// the larger rungs from those within 8, exact up to 11 (see `catalogue::h48_eo`).
    #[cfg_attr(feature = "clap", value(name = "h48-eo4"))]
    H48Eo4,
    /// ... the five highest (DB too): 3,762,158,400 entries, 940 MB.
    #[cfg_attr(feature = "clap", value(name = "h48-eo5"))]
    H48Eo5,
    /// ... the six highest (DL too): 7,524,316,800 entries, 1.9 GB (cube48opt6's size).
    #[cfg_attr(feature = "clap", value(name = "h48-eo6"))]
    H48Eo6,
    /// ... the seven highest (DF too): 15,048,633,600 entries, 3.8 GB.
    #[cfg_attr(feature = "clap", value(name = "h48-eo7"))]
    H48Eo7,
    /// ... the eight highest (DR too): 30,097,267,200 entries, 7.5 GB.
    #[cfg_attr(feature = "clap", value(name = "h48-eo8"))]
    H48Eo8,
    /// ... the nine highest (UB too): 60,194,534,400 entries, 15.2 GB, the largest that loads
    /// beside the system in 24 GiB (built in about its own size: see `catalogue::h48_eo`).
    #[cfg_attr(feature = "clap", value(name = "h48-eo9"))]
    H48Eo9,
    /// A partial goal's distances (cross, xcross, EOLine, any piece mask), over the goal's
    /// pieces (see [`crate::catalogue::goal`]); the header's parameters say which goal. Built
    /// on demand by `solve --goal` and `stats goal`.
    #[cfg_attr(feature = "clap", value(skip))]
    Goal,
    /// A projection of any puzzle given by its definition (see [`crate::catalogue::puzzle`]);
    /// the header's parameters name the puzzle and fingerprint what decides the entries. Built
    /// on demand by `cubelab puzzle solve`.
    #[cfg_attr(feature = "clap", value(skip))]
    Puzzle,
}

impl TableKind {
    pub const ALL: [TableKind; 27] = [
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
        TableKind::H48Parity,
        TableKind::H48Flips,
        TableKind::H48Flips7,
        TableKind::H48Flips6,
        TableKind::H48Flips5,
        TableKind::H48Flips4,
        TableKind::H48Flips3,
        TableKind::H48Eo4,
        TableKind::H48Eo5,
        TableKind::H48Eo6,
        TableKind::H48Eo7,
        TableKind::H48Eo8,
        TableKind::H48Eo9,
    ];

    /// The tables `gen-tables` builds when none are named: those the solvers read by default.
    pub const DEFAULT: [TableKind; 6] = [
        TableKind::Pocket,
        TableKind::Corners,
        TableKind::Phase1Sym,
        TableKind::Phase2,
        TableKind::Phase2Slice,
        TableKind::H48Eo6,
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
        let half_turns_only =
            matches!(self, TableKind::Phase2 | TableKind::Phase2Slice) || self.is_h48_eo();
        !(half_turns_only && matches!(metric, Metric::Qtm))
    }

    /// Whether the kind is an `h48-eo*` table, filled from positions near solved rather than
    /// by the engine's whole search (see `catalogue::h48_eo`). Half-turn metric only: the walk
    /// that fills them follows the half-turn metric's canonical sequences.
    pub const fn is_h48_eo(self) -> bool {
        matches!(
            self.h48_table(),
            Some(H48Table {
                flips: H48Flips::All,
                ..
            })
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
            TableKind::Goal => "goal",
            TableKind::Puzzle => "puzzle",
            TableKind::Phase1Sym => "phase1-sym",
            TableKind::Phase2 => "phase2",
            TableKind::Phase2Slice => "phase2-slice",
            TableKind::H48Parity => "h48-parity",
            TableKind::H48Flips => "h48-flips",
            TableKind::H48Flips7 => "h48-flips7",
            TableKind::H48Flips6 => "h48-flips6",
            TableKind::H48Flips5 => "h48-flips5",
            TableKind::H48Flips4 => "h48-flips4",
            TableKind::H48Flips3 => "h48-flips3",
            TableKind::H48Eo4 => "h48-eo4",
            TableKind::H48Eo5 => "h48-eo5",
            TableKind::H48Eo6 => "h48-eo6",
            TableKind::H48Eo7 => "h48-eo7",
            TableKind::H48Eo8 => "h48-eo8",
            TableKind::H48Eo9 => "h48-eo9",
        }
    }

    /// The coset shape of a `ud-*` table.
    pub const fn ud_shape(self) -> Option<Shape> {
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

    /// What an `h48-*` table holds: its member and how many bits of the kept flips it drops.
    pub const fn h48_table(self) -> Option<H48Table> {
        let (flips, dropped) = match self {
            TableKind::H48Parity => (H48Flips::Parity, 0),
            TableKind::H48Flips => (H48Flips::SliceFlips, 0),
            TableKind::H48Flips7 => (H48Flips::SliceFlips, 1),
            TableKind::H48Flips6 => (H48Flips::SliceFlips, 2),
            TableKind::H48Flips5 => (H48Flips::SliceFlips, 3),
            TableKind::H48Flips4 => (H48Flips::SliceFlips, 4),
            TableKind::H48Flips3 => (H48Flips::SliceFlips, 5),
            TableKind::H48Eo4 => (H48Flips::All, 7),
            TableKind::H48Eo5 => (H48Flips::All, 6),
            TableKind::H48Eo6 => (H48Flips::All, 5),
            TableKind::H48Eo7 => (H48Flips::All, 4),
            TableKind::H48Eo8 => (H48Flips::All, 3),
            TableKind::H48Eo9 => (H48Flips::All, 2),
            _ => return None,
        };
        Some(H48Table { flips, dropped })
    }

    /// Whether the kind is a coset table stored in 2-bit entries relative to a base (`ud-*`,
    /// `h48-*`).
    pub const fn is_based(self) -> bool {
        self.ud_shape().is_some() || self.h48_table().is_some()
    }

    pub fn from_name(name: &str) -> Option<TableKind> {
        TableKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kind's code in a table header: its place in the declaration.
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// The kind a header's code names, if this build knows it.
    pub fn from_code(code: u32) -> Option<TableKind> {
        TableKind::ALL
            .into_iter()
            .chain([TableKind::Group, TableKind::Goal, TableKind::Puzzle])
            .find(|k| k.code() == code)
    }
}

crate::support::named::impl_named!(TableKind, TableKind::ALL);

/// A table's identity: its kind, metric and encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableId {
    pub kind: TableKind,
    pub metric: Metric,
    pub encoding: Encoding,
}

impl TableId {
    /// A table in its kind's own encoding: based for the coset tables, bytes for
    /// `phase2`, exact 4-bit distances for the others.
    pub const fn new(kind: TableKind, metric: Metric) -> TableId {
        let encoding = if kind.is_based() {
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

    /// The header's description of this table's space.
    pub const fn space_code(&self) -> SpaceCode {
        SpaceCode {
            family: self.kind.code(),
            metric: metric_code(self.metric),
        }
    }

    /// The table a header describes, if this build knows its kind and metric.
    pub fn of_header(header: &TableHeader) -> Option<TableId> {
        let kind = TableKind::from_code(header.space.family)?;
        let metric = metric_of_code(header.space.metric)?;
        Some(TableId::new(kind, metric).with_encoding(header.encoding))
    }

    /// What a header describes, for a message: `table NAME`, or a table of a kind this build
    /// does not know, by its codes.
    pub fn name_of_header(header: &TableHeader) -> String {
        TableId::of_header(header).map_or_else(
            || {
                format!(
                    "a table of a kind this build does not know (codes {} and {})",
                    header.space.family, header.space.metric
                )
            },
            |id| format!("table {}", id.name()),
        )
    }

    /// Opens this table in `dir`, decompressing `<name>.tbl.zst` first if only that exists, and
    /// refuses a file that holds another table.
    pub fn open(&self, dir: &Path, verify: Verify) -> Result<Table, TableError> {
        let path = self.path(dir);
        let rebuild = self.rebuild_command(dir);
        // A link that leads nowhere is there too: opening it says so, where "missing" would
        // send the user to build a table whose write would replace the link.
        if path.exists() || path.symlink_metadata().is_ok() {
            return self.check_opened(path, rebuild, verify);
        }
        let zst = zst_path(&path);
        if !zst.exists() {
            return Err(TableError::Missing { path, rebuild });
        }
        import_zst(&zst, &path, super::file_bytes(*self), &rebuild)?;
        // A copy that unpacks to another table is not left in this table's place.
        self.check_opened(path.clone(), rebuild, verify)
            .inspect_err(|_| {
                let _ = std::fs::remove_file(&path);
            })
    }

    /// Opens the table file at `path` and refuses it unless it holds this table.
    fn check_opened(
        &self,
        path: std::path::PathBuf,
        rebuild: String,
        verify: Verify,
    ) -> Result<Table, TableError> {
        let table = Table::open_file(&path, &rebuild)?;
        if TableId::of_header(table.header()) != Some(*self) {
            return Err(TableError::WrongKind {
                path,
                expected: self.name(),
                found: TableId::name_of_header(table.header()),
                rebuild,
            });
        }
        // A header can name this kind and still hold another coordinate's size (a file of
        // another version, a relabelled file): lookups would then index past its payload.
        let expected = super::entries(self.kind);
        if table.header().entries != expected {
            return Err(TableError::Damaged {
                path,
                problem: format!(
                    "its header says {} entries where {} has {expected}",
                    table.header().entries,
                    self.name()
                ),
                rebuild,
            });
        }
        table.verify(verify, &rebuild)?;
        Ok(table)
    }

    /// Whether `dir` holds this table, as a file or as its compressed copy (which
    /// [`Table::open`] unpacks); whether it is valid is for opening it to say.
    pub fn is_present(&self, dir: &Path) -> bool {
        let path = self.path(dir);
        path.exists() || path.symlink_metadata().is_ok() || zst_path(&path).exists()
    }

    /// Whether `dir` holds only this table's compressed copy, which the first open unpacks.
    pub fn only_packed(&self, dir: &Path) -> bool {
        let path = self.path(dir);
        !path.exists() && path.symlink_metadata().is_err() && zst_path(&path).exists()
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

/// A metric's code in a table header.
pub const fn metric_code(metric: Metric) -> u32 {
    match metric {
        Metric::Htm => 0,
        Metric::Qtm => 1,
    }
}

/// The metric a header's code names.
pub fn metric_of_code(code: u32) -> Option<Metric> {
    Metric::BOTH.into_iter().find(|&m| metric_code(m) == code)
}
