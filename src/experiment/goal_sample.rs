//! The CSV files of `stats goal --csv`: one row per position of a goal's sample, its length
//! under each neutrality, and the rows of a sharded sample merged into one.
//!
//! A row names its position's place in the sample (`index` of `total`, drawn from `source`)
//! and the goal and metric, as the experiment files of `solve --csv` do, so that the shards of
//! a Slurm array merge without a coordinator: [`read_merged`] refuses rows of different
//! samples and finds the positions no shard answered and those answered twice.

use crate::experiment::{ExperimentError, experiment_files};
use crate::model::cube::Cube3;
use crate::model::position::{Form, Position, Puzzle, parse_position};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// No goal takes more moves than the whole cube does in either metric (26 in QTM).
const MAX_GOAL_LENGTH: u8 = 26;

/// The columns before the neutralities'.
const FIXED_COLUMNS: [&str; 6] = ["index", "total", "source", "goal", "metric", "scramble"];

/// What identifies a sample: rows of one sample agree on all of it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SampleIdentity {
    pub goal: String,
    pub metric: String,
    /// Where the positions came from: `random seed 1`, or `scrambles FILE`.
    pub source: String,
    pub total: u64,
    /// The neutralities, in column order.
    pub orientations: Vec<String>,
}

/// One position's row: its index, scramble (a random state's sticker string) and lengths.
pub struct SampleRow<'a> {
    pub index: u64,
    pub scramble: &'a str,
    pub lengths: &'a [u8],
}

#[derive(Debug, thiserror::Error)]
pub enum GoalSampleError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}, line {line}: {problem}", path.display())]
    Malformed {
        path: PathBuf,
        line: u64,
        problem: String,
    },
    #[error(
        "{} is of another sample ({theirs}) than {} ({ours}); merge only the shards of one run",
        second.display(),
        first.display()
    )]
    Different {
        first: PathBuf,
        ours: String,
        second: PathBuf,
        theirs: String,
    },
    #[error(transparent)]
    Files(#[from] ExperimentError),
    #[error("no file of a goal sample was named")]
    Empty,
}

/// Writes a sample's rows to `path` (replacing it), with the header.
pub fn write_sample<'a>(
    path: &Path,
    identity: &SampleIdentity,
    rows: impl Iterator<Item = SampleRow<'a>>,
) -> Result<(), GoalSampleError> {
    let io = |source| GoalSampleError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::create(path).map_err(io)?;
    let mut out = std::io::BufWriter::new(file);
    let header: Vec<&str> = FIXED_COLUMNS
        .iter()
        .copied()
        .chain(identity.orientations.iter().map(String::as_str))
        .collect();
    writeln!(out, "{}", header.join(",")).map_err(io)?;
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    for row in rows {
        let lengths: Vec<String> = row.lengths.iter().map(u8::to_string).collect();
        writeln!(
            out,
            "{},{},{},{},{},{},{}",
            row.index,
            identity.total,
            quote(&identity.source),
            quote(&identity.goal),
            identity.metric,
            quote(row.scramble),
            lengths.join(",")
        )
        .map_err(io)?;
    }
    out.flush().map_err(io)
}

/// A sample put together from its shards' files.
#[derive(Debug)]
pub struct MergedSample {
    pub identity: SampleIdentity,
    /// Each answered position's lengths, one per neutrality, in index order.
    pub lengths: Vec<Vec<u8>>,
    /// Each answered position, in index order: its index and the position its scramble makes.
    pub positions: Vec<(u64, Cube3)>,
    /// How many positions below `total` no row answers.
    pub missing: u64,
    /// Indices answered more than once (only the first row is kept).
    pub duplicated: Vec<u64>,
}

/// The rows of the files named (files as given, directories as the `*.csv` in them, as for
/// experiments), merged.
pub fn read_merged(paths: &[PathBuf]) -> Result<MergedSample, GoalSampleError> {
    let files = experiment_files(paths)?;
    let mut identity: Option<(PathBuf, SampleIdentity)> = None;
    let mut by_index: BTreeMap<u64, (Cube3, Vec<u8>)> = BTreeMap::new();
    let mut duplicated = Vec::new();
    for file in &files {
        let (theirs, rows) = read_file(file)?;
        match &identity {
            None => identity = Some((file.clone(), theirs)),
            Some((first, ours)) if *ours != theirs => {
                return Err(GoalSampleError::Different {
                    first: first.clone(),
                    ours: describe(ours),
                    second: file.clone(),
                    theirs: describe(&theirs),
                });
            }
            Some(_) => {}
        }
        for (index, cube, lengths) in rows {
            match by_index.entry(index) {
                std::collections::btree_map::Entry::Occupied(_) => duplicated.push(index),
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert((cube, lengths));
                }
            }
        }
    }
    let (_, identity) = identity.ok_or(GoalSampleError::Empty)?;
    let answered = by_index.range(..identity.total).count() as u64;
    Ok(MergedSample {
        missing: identity.total - answered,
        positions: by_index.iter().map(|(&i, (cube, _))| (i, *cube)).collect(),
        lengths: by_index.into_values().map(|(_, lengths)| lengths).collect(),
        duplicated,
        identity,
    })
}

fn describe(identity: &SampleIdentity) -> String {
    format!(
        "goal {} {}, {} of {} positions, columns {}",
        identity.goal,
        identity.metric,
        identity.source,
        identity.total,
        identity.orientations.join(",")
    )
}

/// A row as read: its index, position and lengths.
type IndexedLengths = (u64, Cube3, Vec<u8>);

/// How many views a neutrality's column takes the best of; each column's views include those
/// of every column of fewer (fixed within dual within six within all 24), so its length is at
/// most theirs. `None` for a name that is not a neutrality.
fn views_rank(name: &str) -> Option<u8> {
    match name {
        "fixed" => Some(0),
        "dual" => Some(1),
        "6" => Some(2),
        "24" => Some(3),
        _ => None,
    }
}

/// One file's identity and rows.
fn read_file(path: &Path) -> Result<(SampleIdentity, Vec<IndexedLengths>), GoalSampleError> {
    let malformed = |line: u64, problem: String| GoalSampleError::Malformed {
        path: path.to_path_buf(),
        line,
        problem,
    };
    let mut reader = csv::Reader::from_path(path).map_err(|e| GoalSampleError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    })?;
    let header = reader
        .headers()
        .map_err(|e| malformed(1, e.to_string()))?
        .clone();
    if header.len() <= FIXED_COLUMNS.len() || header.iter().zip(FIXED_COLUMNS).any(|(a, b)| a != b)
    {
        return Err(malformed(
            1,
            format!(
                "not a goal sample of this version: its header must start {} and name the neutralities (write it with stats goal --csv)",
                FIXED_COLUMNS.join(",")
            ),
        ));
    }
    let orientations: Vec<String> = header
        .iter()
        .skip(FIXED_COLUMNS.len())
        .map(str::to_string)
        .collect();
    let ranks = orientations
        .iter()
        .map(|name| {
            views_rank(name).ok_or_else(|| {
                malformed(
                    1,
                    format!("column '{name}' is not a neutrality (fixed, dual, 6 or 24)"),
                )
            })
        })
        .collect::<Result<Vec<u8>, _>>()?;
    let mut identity: Option<SampleIdentity> = None;
    let mut rows = Vec::new();
    for (n, record) in reader.records().enumerate() {
        let line = n as u64 + 2;
        let record = record.map_err(|e| malformed(line, e.to_string()))?;
        let number = |i: usize, what: &str| -> Result<u64, GoalSampleError> {
            record
                .get(i)
                .and_then(|t| t.trim().parse().ok())
                .ok_or_else(|| malformed(line, format!("its {what} is not a number")))
        };
        let index = number(0, "index")?;
        let total = number(1, "total")?;
        if index >= total {
            return Err(malformed(
                line,
                format!("index {index} is not below total {total}"),
            ));
        }
        let row_identity = SampleIdentity {
            goal: record[3].to_string(),
            metric: record[4].to_string(),
            source: record[2].to_string(),
            total,
            orientations: orientations.clone(),
        };
        match &identity {
            None => identity = Some(row_identity),
            Some(first) if *first != row_identity => {
                return Err(malformed(
                    line,
                    format!("another sample's row ({})", describe(&row_identity)),
                ));
            }
            Some(_) => {}
        }
        let lengths = (FIXED_COLUMNS.len()..record.len())
            .map(|i| {
                let text = record[i].trim();
                match text.parse::<u64>() {
                    Ok(n) if n <= u64::from(MAX_GOAL_LENGTH) => Ok(n as u8),
                    Ok(n) => Err(malformed(
                        line,
                        format!(
                            "length {n} is longer than any goal's ({MAX_GOAL_LENGTH}: God's number)"
                        ),
                    )),
                    Err(_) => Err(malformed(
                        line,
                        format!("length '{text}' is not a whole number of moves"),
                    )),
                }
            })
            .collect::<Result<Vec<u8>, _>>()?;
        // More views can only shorten: a column's length is at most that of any column whose
        // views it includes.
        for (a, (&rank_a, &length_a)) in ranks.iter().zip(&lengths).enumerate() {
            for (b, (&rank_b, &length_b)) in ranks.iter().zip(&lengths).enumerate() {
                if rank_a < rank_b && length_b > length_a {
                    return Err(malformed(
                        line,
                        format!(
                            "its {} length {length_b} is above its {} length {length_a}: more orientations can only shorten a solution",
                            orientations[b], orientations[a]
                        ),
                    ));
                }
            }
        }
        let scramble = &record[5];
        let cube = match parse_position(scramble, Some(Puzzle::Cube), Form::Auto) {
            Ok(Position::Cube(cube)) => cube,
            Ok(_) => return Err(malformed(line, format!("'{scramble}' is no 3x3 position"))),
            Err(e) => {
                return Err(malformed(
                    line,
                    format!("its scramble '{scramble}' is no 3x3 position: {e}"),
                ));
            }
        };
        rows.push((index, cube, lengths));
    }
    let identity = identity.ok_or_else(|| malformed(2, "no rows".into()))?;
    Ok((identity, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> SampleIdentity {
        SampleIdentity {
            goal: "cross".into(),
            metric: "htm".into(),
            source: "random seed 1".into(),
            total: 5,
            orientations: vec!["fixed".into(), "6".into()],
        }
    }

    #[test]
    fn shards_merge_and_gaps_repeats_and_strangers_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, indices: &[u64], identity: &SampleIdentity| {
            let rows = indices.iter().map(|&i| SampleRow {
                index: i,
                scramble: "R U",
                lengths: &[6, 5],
            });
            write_sample(&dir.path().join(name), identity, rows).unwrap();
        };
        write("a.csv", &[0, 2, 4], &identity());
        write("b.csv", &[1, 2], &identity());
        let merged = read_merged(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!(merged.identity, identity());
        assert_eq!(merged.lengths, vec![vec![6, 5]; 4]);
        assert_eq!(merged.missing, 1);
        assert_eq!(merged.duplicated, vec![2]);
        let other = SampleIdentity {
            source: "random seed 2".into(),
            ..identity()
        };
        write("c.csv", &[3], &other);
        let refused = read_merged(&[dir.path().to_path_buf()]).unwrap_err();
        assert!(
            matches!(refused, GoalSampleError::Different { .. }),
            "{refused}"
        );
    }

    /// Rows no goal sample can hold are refused with their line: a length beyond God's
    /// number (1,000,000 included), a more neutral column above a less neutral one, a scramble
    /// that is no position, a column that is no neutrality.
    #[test]
    fn impossible_rows_are_refused_with_their_line() {
        let dir = tempfile::tempdir().unwrap();
        let header = "index,total,source,goal,metric,scramble,fixed,dual,6";
        let row = |scramble: &str, lengths: &str| {
            format!("0,5,\"random seed 1\",\"cross\",htm,\"{scramble}\",{lengths}")
        };
        for (header, row, says) in [
            (header, row("R U", "99,5,5"), "length 99 is longer"),
            (
                header,
                row("R U", "1000000,5,5"),
                "length 1000000 is longer",
            ),
            (header, row("R U", "x,5,5"), "not a whole number"),
            (
                header,
                row("R U", "5,6,5"),
                "dual length 6 is above its fixed length 5",
            ),
            (
                header,
                row("R U", "6,4,5"),
                "6 length 5 is above its dual length 4",
            ),
            (header, row("R Q", "6,5,5"), "'R Q' is no 3x3 position"),
            (
                "index,total,source,goal,metric,scramble,fixed,sideways",
                row("R U", "6,5"),
                "'sideways' is not a neutrality",
            ),
        ] {
            let path = dir.path().join("shard.csv");
            std::fs::write(&path, format!("{header}\n{row}\n")).unwrap();
            let refused = read_merged(&[path]).unwrap_err().to_string();
            assert!(refused.contains(says), "{row}: {refused}");
        }
    }
}
