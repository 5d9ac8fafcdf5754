//! Subgroups of the puzzles: the positions a set of generators reaches, their distances under a
//! chosen metric, and optimal solutions within the group.
//!
//! A group is named by its generators ([`GroupSpec`]). Its order comes first, from the
//! Schreier–Sims algorithm ([`group_order`]): with the orders of what it does to the corners
//! and to the edges, it sizes the table before anything is allocated, and a group too large for
//! this machine is refused with its numbers. The table is then the one breadth-first engine run
//! over [`GroupSpace`], one byte per entry, written in the one table format with the group in
//! its header; the states the search reaches must number exactly the group's order.
//!
//! Solving within the group walks down the table: from a position at distance `d`, some move
//! leads to distance `d - 1`. That holds in every metric, directed ones included: the table
//! holds the number of moves, as given, that solve each state (see [`GroupSpace`]).

mod circuit;
mod order;
mod space;
mod spec;

pub use circuit::{
    CircuitError, build_circuit, check_circuit, check_supported, circuit_path, move_indices,
    read_circuit, write_circuit,
};
pub use order::{Perm, group_order};
pub use space::GroupSpace;
pub use spec::{GroupMetric, GroupMove, GroupSpec};

use crate::bfs::{BfsError, BfsOutcome, breadth_first};
use crate::cube::Cube3;
use crate::notation::NotationError;
use crate::position::Puzzle;
use crate::report::{human_bytes, thousands};
use crate::space::StateSpace;
use crate::table::{
    Encoding, GroupHeader, Table, TableError, TableHeader, TableKind, Verify, write_group_table,
};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum GroupError {
    #[error("no generators given: write them like \"U R\" or \"R U R' U', D\"")]
    NoGenerators,
    #[error("generator \"{generator}\": {source}")]
    Notation {
        generator: String,
        source: NotationError,
    },
    #[error(
        "generator \"{generator}\" turns the whole cube ({rotation}); generators are face turns"
    )]
    Rotation { generator: String, rotation: char },
    #[error("generator \"{0}\" does nothing")]
    Identity(String),
    #[error(
        "generator \"{0}\" moves the 2x2's DBL corner, which its tables hold in place: write it with U, R and F turns (a D, L or B turn is the U, F or R turn with the cube turned)"
    )]
    MovesFixedCorner(String),
    #[error(
        "generator \"{0}\" is not a quarter turn, as --group-metric qtm needs; use --group-metric generators (each generator and its inverse cost 1) or htm"
    )]
    NotQuarterTurn(String),
    #[error(
        "{spec} has {} positions; its table would hold {} entries and needs about {} to build, more than the {} this machine has available. Choose fewer or smaller generators",
        thousands(*order),
        thousands(*entries),
        human_bytes(*bytes),
        human_bytes(*available)
    )]
    TooLarge {
        spec: String,
        order: u128,
        entries: u128,
        bytes: u128,
        available: u64,
    },
    #[error("the position is not in the group")]
    NotInGroup,
    #[error("no table of {spec} in {}; build it with `{command}`", dir.display())]
    Missing {
        spec: String,
        dir: PathBuf,
        command: String,
    },
    #[error("{} is a table of another group or numbering; rebuild it with `{command}`", path.display())]
    Mismatch { path: PathBuf, command: String },
    #[error(
        "the search reached {reached} positions where the group has {order}: a defect, please report it"
    )]
    Miscounted { reached: u128, order: u128 },
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Bfs(#[from] BfsError),
    #[error(transparent)]
    Circuit(#[from] CircuitError),
    /// A failure outside the group's own logic, already worded (writing a compressed copy).
    #[error("{0}")]
    Other(String),
}

/// A group's size and its table's, known before the table is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Positions in the group.
    pub order: u128,
    /// Corner states and edge states the group reaches (1 edge state for a 2x2).
    pub corner_image: u128,
    pub edge_image: u128,
    /// Moves of the search graph.
    pub moves: u128,
}

impl Sizes {
    pub fn of(spec: &GroupSpec) -> Sizes {
        let moves = spec.moves();
        let perms = |corners: bool, edges: bool| -> Vec<Perm> {
            moves
                .iter()
                .map(|m| points_of(&m.cube, corners, edges))
                .collect()
        };
        let corner_image = group_order(&perms(true, false));
        let (order, edge_image) = match spec.puzzle() {
            Puzzle::Pocket => (corner_image, 1),
            Puzzle::Cube => (
                group_order(&perms(true, true)),
                group_order(&perms(false, true)),
            ),
        };
        Sizes {
            order,
            corner_image,
            edge_image,
            moves: moves.len() as u128,
        }
    }

    /// Entries of the table: corner states x edge states.
    pub fn entries(&self) -> u128 {
        self.corner_image * self.edge_image
    }

    /// Memory a build needs: a byte per entry, and per image state its cube state, its place in
    /// the hash map and its row of the move table (about 64 bytes and 4 per move).
    pub fn build_bytes(&self) -> u128 {
        self.entries() + (self.corner_image + self.edge_image) * (64 + 4 * self.moves)
    }

    /// Refuses a group whose build does not fit in `available` bytes.
    pub fn check_fits(&self, spec: &GroupSpec, available: Option<u64>) -> Result<(), GroupError> {
        let too_large = match available {
            Some(available) => self.build_bytes() > u128::from(available),
            None => false,
        } || self.corner_image > u128::from(u32::MAX)
            || self.edge_image > u128::from(u32::MAX);
        if too_large {
            return Err(GroupError::TooLarge {
                spec: spec.to_string(),
                order: self.order,
                entries: self.entries(),
                bytes: self.build_bytes(),
                available: available.unwrap_or(0),
            });
        }
        Ok(())
    }
}

/// `cube` as a permutation of its pieces' stickers: corner `q`'s sticker `o` is point `3q + o`,
/// edge `q`'s sticker `o` is point `24 + 2q + o` (of the kinds asked for). Composition of cube
/// states is composition of these permutations, so the group orders agree.
fn points_of(cube: &Cube3, corners: bool, edges: bool) -> Perm {
    let mut image = Vec::new();
    if corners {
        image.resize(24, 0);
        let c = &cube.corners;
        for slot in 0..8 {
            let piece = usize::from(c.perm[slot]);
            for o in 0..3 {
                image[piece * 3 + o] = (slot * 3 + (o + usize::from(c.ori[slot])) % 3) as u8;
            }
        }
    }
    if edges {
        let base = image.len();
        image.resize(base + 24, 0);
        let e = &cube.edges;
        for slot in 0..12 {
            let piece = usize::from(e.perm[slot]);
            for o in 0..2 {
                image[base + piece * 2 + o] =
                    (base + slot * 2 + (o + usize::from(e.ori[slot])) % 2) as u8;
            }
        }
    }
    Perm::new(image).expect("a cube state permutes its stickers")
}

/// Memory the system can give now (`MemAvailable`), where it says.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Where a group's table lives in `dir`.
pub fn table_path(dir: &Path, spec: &GroupSpec) -> PathBuf {
    dir.join(format!("{}-{}.tbl", TableKind::Group.name(), spec.stem()))
}

/// The subgroup tables in `dir`, by file name.
pub fn present_tables(dir: &Path) -> Vec<PathBuf> {
    let prefix = format!("{}-", TableKind::Group.name());
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with(&prefix) && name.ends_with(".tbl")
        })
        .collect();
    paths.sort();
    paths
}

/// The command that builds `spec`'s table into `dir`.
pub fn build_command(dir: &Path, spec: &GroupSpec) -> String {
    let generators: Vec<String> = spec
        .generators
        .iter()
        .map(|g| crate::notation::format_moves(g))
        .collect();
    let list = if spec.generators.iter().all(|g| g.len() == 1) {
        generators.join(" ")
    } else {
        generators.join(", ")
    };
    format!(
        "gen-tables --data-dir {} --puzzle {} --generators \"{list}\" --group-metric {}",
        dir.display(),
        spec.puzzle,
        spec.metric.name()
    )
}

/// What a build produced.
pub struct Built {
    pub header: TableHeader,
    pub outcome: BfsOutcome,
    pub path: PathBuf,
}

/// Builds `spec`'s table into `dir` (its size checked first by the caller with
/// [`Sizes::check_fits`]).
pub fn build(dir: &Path, spec: &GroupSpec, progress: &ProgressBar) -> Result<Built, GroupError> {
    let space = GroupSpace::new(spec);
    let outcome = breadth_first(&space, Encoding::Byte, progress)?;
    let reached: u128 = outcome.histogram.iter().map(|&n| u128::from(n)).sum();
    // The space's reachable count is the group's order by Schreier–Sims.
    let order = u128::from(space.reachable());
    if reached != order {
        return Err(GroupError::Miscounted { reached, order });
    }
    let group = GroupHeader {
        spec: spec.clone(),
        order: reached as u64,
        outside: outcome.packed.len() as u64 - reached as u64,
        fingerprint: space.fingerprint(),
    };
    let path = table_path(dir, spec);
    let header = write_group_table(&path, group, outcome.histogram.clone(), &outcome.packed)?;
    Ok(Built {
        header,
        outcome,
        path,
    })
}

/// A group's table, mapped, with the numbering of its states.
pub struct GroupTable {
    space: GroupSpace,
    moves: Vec<GroupMove>,
    table: Table,
    /// The command that rebuilds it, for the error that says it is damaged.
    rebuild: String,
}

impl GroupTable {
    /// Opens `spec`'s table in `dir`, checking that it is this group's, numbered as this code
    /// numbers it.
    pub fn open(dir: &Path, spec: &GroupSpec) -> Result<GroupTable, GroupError> {
        let path = table_path(dir, spec);
        let command = build_command(dir, spec);
        if !path.exists() {
            return Err(GroupError::Missing {
                spec: spec.to_string(),
                dir: dir.to_path_buf(),
                command,
            });
        }
        let table = Table::open_path(&path, &command, Verify::IfNew)?;
        let space = GroupSpace::new(spec);
        let header = table.header();
        let matches = header.kind == TableKind::Group
            && header.encoding == Encoding::Byte
            && header.entries == space.size()
            && header
                .group
                .as_ref()
                .is_some_and(|g| g.spec == *spec && g.fingerprint == space.fingerprint());
        if !matches {
            return Err(GroupError::Mismatch { path, command });
        }
        Ok(GroupTable {
            space,
            moves: spec.moves(),
            table,
            rebuild: command,
        })
    }

    pub fn header(&self) -> &TableHeader {
        self.table.header()
    }

    /// The distance of `cube` within the group, or why it has none.
    pub fn distance(&self, cube: &Cube3) -> Result<u8, GroupError> {
        let state = self.space.index(cube)?;
        match self.table.entry(state) {
            crate::bfs::UNREACHED_BYTE => Err(GroupError::NotInGroup),
            d => Ok(d),
        }
    }

    /// An optimal solution of `cube` within the group, as the group's moves (each a sequence
    /// of face turns). Not yet checked: the caller applies it.
    pub fn solve(&self, cube: &Cube3) -> Result<Vec<&GroupMove>, GroupError> {
        let mut state = self.space.index(cube)?;
        let mut distance = self.distance(cube)?;
        let mut solution = Vec::with_capacity(usize::from(distance));
        while distance > 0 {
            let step = (0..self.moves.len())
                .map(|turn| (turn, self.space.step(state, turn)))
                .find(|&(_, next)| self.table.entry(next) == distance - 1);
            let Some((turn, next)) = step else {
                return Err(TableError::Damaged {
                    path: self.table.path().to_path_buf(),
                    problem: format!("no move leads down from an entry of {distance}"),
                    rebuild: self.rebuild.clone(),
                }
                .into());
            };
            solution.push(&self.moves[turn]);
            state = next;
            distance -= 1;
        }
        Ok(solution)
    }

    /// The file the table was mapped from.
    pub fn path(&self) -> &Path {
        self.table.path()
    }
}
