//! Subgroups of the puzzles: the positions a set of generators reaches, their distances under a
//! chosen metric, and optimal solutions within the group.
//!
//! A group is named by its generators ([`GroupSpec`]). Its order comes first, from the
//! Schreier–Sims algorithm ([`crate::coord::order::group_order`]): with the orders of what it does to the corners
//! and to the edges, it sizes the table before anything is allocated, and a group too large for
//! this machine is refused with its numbers. The table is then the one breadth-first engine run
//! over [`GroupSpace`], one byte per entry, written in the one table format with the group in
//! its header; the states the search reaches must number exactly the group's order.
//!
//! Solving within the group walks down the table: from a position at distance `d`, some move
//! leads to distance `d - 1`. That holds in every metric, directed ones included: the table
//! holds the number of moves, as given, that solve each state (see [`GroupSpace`]).

use super::circuit::CircuitError;
use super::kind::{TableKind, metric_code};
use crate::bfs::{BfsError, BfsOutcome, breadth_first};
use crate::model::cube::{Cube3, Metric, Move};
use crate::packing::Encoding;
use crate::space::StateSpace;
use crate::space::group::{GroupMetric, GroupMove, GroupSpace, GroupSpaceError, GroupSpec};
use crate::table::{
    Contents, SpaceCode, SpaceParameters, Table, TableError, TableHeader, Verify, write_table,
};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum GroupError {
    #[error(transparent)]
    Space(#[from] GroupSpaceError),
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

/// A group table's space in the header: the group family, and the metric its distances are
/// closest to (quarter turns for `qtm`, face turns otherwise).
fn space_code(spec: &GroupSpec) -> SpaceCode {
    let metric = match spec.metric {
        GroupMetric::Qtm => Metric::Qtm,
        _ => Metric::Htm,
    };
    SpaceCode {
        family: TableKind::Group.code(),
        metric: metric_code(metric),
    }
}

/// The header's description of a group: its spec (generators as move codes, the group metric
/// by its place in [`GroupMetric`]) and the counts the format checks.
pub fn parameters(spec: &GroupSpec, order: u64, outside: u64, fingerprint: u64) -> SpaceParameters {
    SpaceParameters {
        puzzle: spec.puzzle.clone(),
        generators: spec
            .generators
            .iter()
            .map(|g| g.iter().map(|&m| u8::from(m)).collect())
            .collect(),
        metric: spec.metric as u32,
        order,
        outside,
        fingerprint,
    }
}

/// A group table's header read back in the catalogue's types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupHeader {
    pub spec: GroupSpec,
    /// The group's order: the states the histogram counts.
    pub order: u64,
    /// Entries of the product space outside the group, never reached.
    pub outside: u64,
    /// [`GroupSpace::fingerprint`] of the numbering the entries follow.
    pub fingerprint: u64,
}

impl GroupHeader {
    /// The group of a subgroup table's header; `None` for other tables or unknown codes.
    pub fn of(header: &TableHeader) -> Option<GroupHeader> {
        let parameters = header.parameters.as_ref()?;
        Some(GroupHeader {
            spec: spec_of(parameters)?,
            order: parameters.order,
            outside: parameters.outside,
            fingerprint: parameters.fingerprint,
        })
    }
}

/// The group a header describes, if its codes are valid.
pub fn spec_of(parameters: &SpaceParameters) -> Option<GroupSpec> {
    let metric = [
        GroupMetric::Generators,
        GroupMetric::Htm,
        GroupMetric::Qtm,
        GroupMetric::Directed,
    ]
    .into_iter()
    .find(|&m| m as u32 == parameters.metric)?;
    let generators = parameters
        .generators
        .iter()
        .map(|g| g.iter().map(|&code| Move::try_from(code).ok()).collect())
        .collect::<Option<Vec<Vec<Move>>>>()?;
    Some(GroupSpec {
        puzzle: parameters.puzzle.clone(),
        generators,
        metric,
    })
}

pub use crate::support::memory::available_memory;

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
        .map(|g| crate::model::notation::format_moves(g))
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
    let contents = Contents {
        space: space_code(spec),
        encoding: Encoding::Byte,
        entries: outcome.packed.len() as u64,
        histogram: outcome.histogram.clone(),
        parameters: Some(parameters(
            spec,
            reached as u64,
            outcome.packed.len() as u64 - reached as u64,
            space.fingerprint(),
        )),
    };
    let path = table_path(dir, spec);
    let header = write_table(&path, contents, &outcome.packed)?;
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
        GroupTable::open_verified(dir, spec, Verify::IfNew)
    }

    /// Opens the subgroup table file at `path` (one of [`present_tables`]) for a listing or a
    /// check: the group its header names must be the one its file name says, and the table
    /// must open as that group's, checked as `verify` says.
    pub fn open_present(path: &Path, verify: Verify) -> Result<GroupTable, GroupError> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let unnamed = || GroupError::Mismatch {
            path: path.to_path_buf(),
            command: "gen-tables --generators ... with the group's generators".into(),
        };
        let table = Table::open_file(path, "gen-tables --generators ... --force")?;
        let spec = GroupHeader::of(table.header()).ok_or_else(unnamed)?.spec;
        if table_path(dir, &spec) != path {
            return Err(GroupError::Mismatch {
                path: path.to_path_buf(),
                command: build_command(dir, &spec),
            });
        }
        GroupTable::open_verified(dir, &spec, verify)
    }

    fn open_verified(
        dir: &Path,
        spec: &GroupSpec,
        verify: Verify,
    ) -> Result<GroupTable, GroupError> {
        let path = table_path(dir, spec);
        let command = build_command(dir, spec);
        if !path.exists() {
            return Err(GroupError::Missing {
                spec: spec.to_string(),
                dir: dir.to_path_buf(),
                command,
            });
        }
        let table = Table::open_path(&path, &command, verify)?;
        let space = GroupSpace::new(spec);
        let header = table.header();
        let matches = header.space == space_code(spec)
            && header.encoding == Encoding::Byte
            && header.entries == space.size()
            && header.parameters.as_ref().is_some_and(|p| {
                spec_of(p).as_ref() == Some(spec) && p.fingerprint == space.fingerprint()
            });
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
            crate::bfs::UNREACHED_BYTE => Err(GroupSpaceError::NotInGroup.into()),
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
