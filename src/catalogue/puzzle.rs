//! The tables of any puzzle given by its definition: a projection's distances (a
//! [`DefinedSpace`] over a relabelled goal, its distances mod 3 in two bits a state, as the
//! solver reads them: [`PROJECTION_ENCODING`]), filled by the one breadth-first
//! engine, written in the one table format and kept in the data directory, so that a second
//! solve of the same puzzle maps them instead of building them again.
//!
//! What decides a table's entries (the definition, the generators and metric, what the
//! projection keeps, how the space ranks its states) is hashed into a fingerprint
//! ([`ProjectionKey`]): the file is named by it, and its header must carry it, the space's
//! size and reachable count, or the file is another table and is built again in its place.

use super::kind::{TableKind, metric_code};
use crate::bfs::{BfsError, breadth_first_rows};
use crate::model::cube;
use crate::model::kpuzzle::Metric;
use crate::packing::Encoding;
use crate::space::StateSpace;
use crate::space::defined::DefinedSpace;
use crate::table::{Contents, SpaceCode, SpaceParameters, Table, TableError, Verify, write_table};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};

/// The encoding of every projection's table: the distance mod 3, four states a byte. The
/// solver moves by single steps whose inverses are steps too, so a child's distance differs
/// from its parent's by at most one and the residue says which (see [`crate::search::puzzle`]).
pub const PROJECTION_ENCODING: Encoding = Encoding::Mod3;

#[derive(Debug, thiserror::Error)]
pub enum PuzzleTableError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Bfs(#[from] BfsError),
    #[error(
        "the search reached {reached} positions of {puzzle}'s projection where its group has {expected}: a defect, please report it"
    )]
    Miscounted {
        puzzle: String,
        reached: u64,
        expected: u64,
    },
    #[error("{} holds another table; remove it and run again", path.display())]
    Mismatch { path: PathBuf },
}

/// What names a projection's table: the puzzle (for people and the file name), the metric,
/// and the fingerprint of everything that decides its entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectionKey {
    pub puzzle: String,
    pub metric: Metric,
    pub fingerprint: u64,
}

impl ProjectionKey {
    /// The key of a projection of `puzzle`: `decided_by` is every input that decides its
    /// entries, written out in full (the fingerprint is its hash, with the space's ranking).
    pub fn new(
        puzzle: &str,
        metric: Metric,
        decided_by: &str,
        space: &DefinedSpace,
    ) -> ProjectionKey {
        let text = format!("{decided_by}|{}|{}", space.describe(), space.size());
        ProjectionKey {
            puzzle: puzzle.to_string(),
            metric,
            fingerprint: xxhash_rust::xxh3::xxh3_64(text.as_bytes()),
        }
    }

    /// Where the table lives in `dir`: `puzzle-<name>-<fingerprint>.tbl`, the name reduced to
    /// lower-case letters, digits and dashes, and to its first 40 characters (a definition
    /// given to the server names itself; the fingerprint tells tables apart).
    pub fn path(&self, dir: &Path) -> PathBuf {
        let name: String = self
            .puzzle
            .chars()
            .take(40)
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        dir.join(format!(
            "{}-{name}-{:016x}.tbl",
            TableKind::Puzzle.name(),
            self.fingerprint
        ))
    }
}

/// A projection's table, and whether this call built it.
pub struct Opened {
    pub table: Table,
    pub built: bool,
}

/// Maps the table of `key` from `dir`, building it first (and writing it there) when it is
/// missing, holds another table, or is damaged (a flipped bit, cut short, another format): the
/// file is this cache's own, named by what decides it, so building it again is the way out.
/// What is not the file's fault (no permission, a directory or a dangling link in its place)
/// is an error.
pub fn open_or_build(
    dir: &Path,
    key: &ProjectionKey,
    space: &DefinedSpace,
    progress: &ProgressBar,
) -> Result<Opened, PuzzleTableError> {
    let path = key.path(dir);
    if path.exists() {
        match open(dir, key, space) {
            Err(PuzzleTableError::Mismatch { .. })
            | Err(PuzzleTableError::Table(
                TableError::ChecksumMismatch { .. }
                | TableError::Truncated { .. }
                | TableError::BadMagic { .. }
                | TableError::Damaged { .. }
                | TableError::WrongVersion { .. },
            )) => {}
            opened => {
                return opened.map(|table| Opened {
                    table,
                    built: false,
                });
            }
        }
    }
    build(dir, key, space, progress)?;
    let table = open(dir, key, space)?;
    Ok(Opened { table, built: true })
}

/// Maps the table of `key` from `dir`, checking that it is this projection's.
pub fn open(
    dir: &Path,
    key: &ProjectionKey,
    space: &DefinedSpace,
) -> Result<Table, PuzzleTableError> {
    let path = key.path(dir);
    let table = Table::open_path(&path, "cubelab puzzle solve", Verify::IfNew)?;
    let header = table.header();
    let matches = header.space == space_code(key.metric)
        && header.encoding == PROJECTION_ENCODING
        && header.entries == space.size()
        && header.parameters.as_ref().is_some_and(|p| {
            p.puzzle == key.puzzle
                && p.fingerprint == key.fingerprint
                && space.known_reachable().is_none_or(|order| p.order == order)
        });
    if !matches {
        return Err(PuzzleTableError::Mismatch { path });
    }
    Ok(table)
}

/// Fills the projection's distances by the engine and writes them to `dir`.
fn build(
    dir: &Path,
    key: &ProjectionKey,
    space: &DefinedSpace,
    progress: &ProgressBar,
) -> Result<(), PuzzleTableError> {
    let outcome = breadth_first_rows(space, PROJECTION_ENCODING, progress)?;
    let reached: u64 = outcome.histogram.iter().sum();
    if let Some(expected) = space.known_reachable()
        && reached != expected
    {
        return Err(PuzzleTableError::Miscounted {
            puzzle: key.puzzle.clone(),
            reached,
            expected,
        });
    }
    std::fs::create_dir_all(dir).map_err(|source| TableError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let contents = Contents {
        space: space_code(key.metric),
        encoding: PROJECTION_ENCODING,
        entries: space.size(),
        histogram: outcome.histogram,
        parameters: Some(SpaceParameters {
            puzzle: key.puzzle.clone(),
            generators: Vec::new(),
            metric: metric_code(cube_metric(key.metric)),
            order: reached,
            outside: space.size() - reached,
            fingerprint: key.fingerprint,
        }),
    };
    write_table(&key.path(dir), contents, &outcome.packed)?;
    Ok(())
}

/// A puzzle table's space in the header: the puzzle family, and its metric by the cube's
/// codes (a power costs one, or its amount).
fn space_code(metric: Metric) -> SpaceCode {
    SpaceCode {
        family: TableKind::Puzzle.code(),
        metric: metric_code(cube_metric(metric)),
    }
}

fn cube_metric(metric: Metric) -> cube::Metric {
    match metric {
        Metric::Htm => cube::Metric::Htm,
        Metric::Qtm => cube::Metric::Qtm,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::kpuzzle::Generators;
    use crate::model::kpuzzle::tests::toy;

    /// The 2x2x2 under U, R, F.
    fn pocket() -> DefinedSpace {
        let definition = toy();
        let generators = Generators::parse(&definition, "U,R,F", Metric::Htm).unwrap();
        let goal = definition.default_pattern().clone();
        DefinedSpace::new(&definition, &generators, &goal, &[]).unwrap()
    }

    /// Built once, then mapped: the second open builds nothing and reads the same entries;
    /// a file of another projection under the key's name is replaced, not read.
    #[test]
    fn a_table_is_built_once_then_mapped_and_a_foreign_one_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let space = pocket();
        let key = ProjectionKey::new("2x2x2", Metric::Htm, "U,F,R", &space);
        let hidden = ProgressBar::hidden();
        let first = open_or_build(dir.path(), &key, &space, &hidden).unwrap();
        assert!(first.built);
        assert_eq!(
            first.table.header().histogram.iter().sum::<u64>(),
            3_674_160
        );
        let second = open_or_build(dir.path(), &key, &space, &hidden).unwrap();
        assert!(!second.built);
        assert_eq!(first.table.payload(), second.table.payload());
        // Another key's table copied over this key's file: refused on open, rebuilt.
        let other = ProjectionKey::new("2x2x2", Metric::Htm, "U,F,R again", &space);
        open_or_build(dir.path(), &other, &space, &hidden).unwrap();
        drop((first, second));
        std::fs::copy(other.path(dir.path()), key.path(dir.path())).unwrap();
        assert!(matches!(
            open(dir.path(), &key, &space),
            Err(PuzzleTableError::Mismatch { .. })
        ));
        let rebuilt = open_or_build(dir.path(), &key, &space, &hidden).unwrap();
        assert!(rebuilt.built);
        assert_eq!(
            rebuilt
                .table
                .header()
                .parameters
                .as_ref()
                .unwrap()
                .fingerprint,
            key.fingerprint
        );
    }

    /// A flipped payload bit or a file cut short is found (the checksum, the length) and the
    /// table built again in its place, with the same entries.
    #[test]
    fn a_damaged_table_is_built_again() {
        let dir = tempfile::tempdir().unwrap();
        let space = pocket();
        let key = ProjectionKey::new("2x2x2", Metric::Htm, "U,R,F", &space);
        let hidden = ProgressBar::hidden();
        let good = open_or_build(dir.path(), &key, &space, &hidden).unwrap();
        let payload = good.table.payload().to_vec();
        drop(good);
        let path = key.path(dir.path());
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 1000;
        bytes[at] ^= 1;
        // A new file (not written in place), so its checksum is verified afresh.
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            open(dir.path(), &key, &space),
            Err(PuzzleTableError::Table(TableError::ChecksumMismatch { .. }))
        ));
        let rebuilt = open_or_build(dir.path(), &key, &space, &hidden).unwrap();
        assert!(rebuilt.built);
        assert_eq!(rebuilt.table.payload(), &payload[..]);
        drop(rebuilt);
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        let rebuilt = open_or_build(dir.path(), &key, &space, &hidden).unwrap();
        assert!(rebuilt.built);
        assert_eq!(rebuilt.table.payload(), &payload[..]);
    }
}
