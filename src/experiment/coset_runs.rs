//! Many coset runs as one table: the `--json` objects of `cubelab coset` (one per line, in any
//! number of files, such as the shards of a Slurm array) merged depth by depth.

use crate::model::cube::Metric;
use crate::solving::coset::{COSET_POSITIONS, Class, CosetList, representative};
use std::path::{Path, PathBuf};

/// Why runs cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum CosetRunError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error(
        "{path}, line {line}: not a run of `cubelab coset --json` ({message}); each line must be one such object"
    )]
    Parse {
        path: String,
        line: usize,
        message: String,
    },
    #[error("{path}, line {line}: {message} (a reference is a CSV file of depth,count,... rows)")]
    Reference {
        path: String,
        line: usize,
        message: String,
    },
    #[error(
        "no runs in {0}: give files written by `cubelab coset --json`, or directories of *.jsonl files"
    )]
    Empty(String),
    #[error(
        "{origin}: the run of '{coset}' cannot be right: {message}; run that coset again (its file was changed, or written by something else)"
    )]
    Invalid {
        origin: String,
        coset: String,
        message: String,
    },
    #[error(
        "the runs count in two metrics: '{first}' in {first_metric}, '{other}' in {other_metric}; merge the runs of one metric at a time"
    )]
    MixedMetrics {
        first: String,
        first_metric: Metric,
        other: String,
        other_metric: Metric,
    },
}

/// One coset's run, as `cubelab coset --json` prints it (the fields a merge needs).
#[derive(Clone, Debug, serde::Deserialize)]
pub struct CosetRun {
    pub coset: String,
    /// The metric its distances count (runs written before QTM runs existed are HTM).
    #[serde(default = "half_turns")]
    pub metric: Metric,
    /// Its symmetry class's number, and how many cosets the class stands for.
    pub class: u64,
    pub class_cosets: u64,
    /// Positions at each exact distance, index = depth.
    pub counts: Vec<u64>,
    /// Positions first reached at every depth run (exact or not).
    pub reached: Vec<u64>,
    pub bound: Option<u32>,
    pub unsolved: u64,
    /// Positions left by the last depth and proven one at a time (runs written before this
    /// field existed proved none so).
    #[serde(default)]
    pub finished: u64,
    pub seconds: f64,
    /// Where it was read: `FILE, line N`.
    #[serde(skip)]
    pub origin: String,
}

fn half_turns() -> Metric {
    Metric::Htm
}

/// Runs merged.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MergedCosets {
    /// The metric of every run.
    pub metric: Metric,
    /// Runs read.
    pub runs: usize,
    /// Cosets the runs' classes stand for (each class once).
    pub cosets: u64,
    /// Positions at each exact distance, summed over the runs, for the depths every run made
    /// exact.
    pub counts: Vec<u64>,
    /// The same, each run's counts times the cosets its class stands for: the distribution of
    /// every position of those cosets.
    pub weighted: Vec<u128>,
    /// Positions first reached at each depth, summed (exact or not).
    pub reached: Vec<u64>,
    /// The bound every run proved, if each proved one: the largest.
    pub bound: Option<u32>,
    pub unsolved: u64,
    pub seconds: f64,
    /// Classes run more than once (only their first run is counted).
    pub repeated: Vec<u64>,
}

/// Reads every run in `paths` (files, or directories whose `*.jsonl` and `*.json` files are
/// read in name order), all of one metric.
pub fn read_runs(paths: &[PathBuf]) -> Result<Vec<CosetRun>, CosetRunError> {
    let mut runs = Vec::new();
    for path in paths {
        for file in files_of(path)? {
            read_file(&file, &mut runs)?;
        }
    }
    let Some(first) = runs.first() else {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(CosetRunError::Empty(names.join(", ")));
    };
    if let Some(other) = runs.iter().find(|run| run.metric != first.metric) {
        return Err(CosetRunError::MixedMetrics {
            first: first.coset.clone(),
            first_metric: first.metric,
            other: other.coset.clone(),
            other_metric: other.metric,
        });
    }
    Ok(runs)
}

fn files_of(path: &Path) -> Result<Vec<PathBuf>, CosetRunError> {
    let read_error = |source| CosetRunError::Read {
        path: path.display().to_string(),
        source,
    };
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).map_err(read_error)? {
        let file = entry.map_err(read_error)?.path();
        let extension = file.extension().and_then(|e| e.to_str());
        if matches!(extension, Some("jsonl" | "json")) && file.is_file() {
            files.push(file);
        }
    }
    files.sort();
    Ok(files)
}

fn read_file(path: &Path, runs: &mut Vec<CosetRun>) -> Result<(), CosetRunError> {
    let text = std::fs::read_to_string(path).map_err(|source| CosetRunError::Read {
        path: path.display().to_string(),
        source,
    })?;
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut run: CosetRun = serde_json::from_str(line).map_err(|e| CosetRunError::Parse {
            path: path.display().to_string(),
            line: number + 1,
            message: crate::support::units::quoted(&e.to_string(), 200).into_owned(),
        })?;
        run.origin = format!("{}, line {}", path.display(), number + 1);
        runs.push(run);
    }
    Ok(())
}

/// Checks what a run's numbers must satisfy, so that a file changed by hand (or by a fault)
/// is refused rather than merged: its class and the cosets it stands for are those of the
/// coset it names (`list` numbers the classes); the exact counts are the first depths of the
/// reached ones; every position of the coset is reached, proven one at a time or left
/// unsolved, exactly once; and a run that proves a bound leaves none unsolved.
pub fn check_run(run: &CosetRun, list: &CosetList) -> Result<(), CosetRunError> {
    let refuse = |message: String| CosetRunError::Invalid {
        origin: run.origin.clone(),
        coset: run.coset.clone(),
        message,
    };
    let representative = representative(&run.coset).map_err(|e| refuse(e.to_string()))?;
    let Class {
        number: class,
        cosets,
    } = Class::in_list(list, &representative);
    if (run.class, run.class_cosets) != (class, cosets) {
        return Err(refuse(format!(
            "it says class {} standing for {} cosets; the coset is of class {class}, standing for {cosets}",
            run.class, run.class_cosets
        )));
    }
    check_counts(run)
}

/// Checks what a run's counts must satisfy whatever its coset: the exact counts are the first
/// depths of the reached ones; every position of the coset is reached, proven one at a time or
/// left unsolved, exactly once; and a run that proves a bound leaves none unsolved.
pub fn check_counts(run: &CosetRun) -> Result<(), CosetRunError> {
    let refuse = |message: String| CosetRunError::Invalid {
        origin: run.origin.clone(),
        coset: run.coset.clone(),
        message,
    };
    if run.counts.len() > run.reached.len()
        || run.counts.iter().zip(&run.reached).any(|(a, b)| a != b)
    {
        return Err(refuse(
            "its exact counts are not the first of its reached counts".to_string(),
        ));
    }
    let accounted = run
        .reached
        .iter()
        .chain([&run.finished, &run.unsolved])
        .map(|&c| u128::from(c))
        .sum::<u128>();
    if accounted != u128::from(COSET_POSITIONS) {
        return Err(refuse(format!(
            "its reached, finished and unsolved positions sum to {accounted}, not the coset's {COSET_POSITIONS}"
        )));
    }
    if run.bound.is_some() && run.unsolved > 0 {
        return Err(refuse(format!(
            "it proves a bound and leaves {} positions unsolved",
            run.unsolved
        )));
    }
    Ok(())
}

/// Merges runs: each class counted once, its first run's.
pub fn merge(runs: &[CosetRun]) -> MergedCosets {
    let mut seen = std::collections::HashSet::new();
    let mut repeated = Vec::new();
    let kept: Vec<&CosetRun> = runs
        .iter()
        .filter(|run| {
            let first = seen.insert(run.class);
            if !first {
                repeated.push(run.class);
            }
            first
        })
        .collect();
    let exact_depths = kept.iter().map(|r| r.counts.len()).min().unwrap_or(0);
    let reached_depths = kept.iter().map(|r| r.reached.len()).max().unwrap_or(0);
    let mut merged = MergedCosets {
        metric: runs.first().map_or(Metric::Htm, |run| run.metric),
        runs: runs.len(),
        cosets: kept
            .iter()
            .fold(0u64, |sum, r| sum.saturating_add(r.class_cosets)),
        counts: vec![0; exact_depths],
        weighted: vec![0; exact_depths],
        reached: vec![0; reached_depths],
        bound: Some(0),
        unsolved: 0,
        seconds: 0.0,
        repeated,
    };
    for run in &kept {
        for (depth, &count) in run.counts.iter().take(exact_depths).enumerate() {
            // Saturating: the counts come from files, which may say anything.
            merged.counts[depth] = merged.counts[depth].saturating_add(count);
            let weighted = u128::from(count) * u128::from(run.class_cosets);
            merged.weighted[depth] = merged.weighted[depth].saturating_add(weighted);
        }
        for (depth, &count) in run.reached.iter().enumerate() {
            merged.reached[depth] = merged.reached[depth].saturating_add(count);
        }
        merged.bound = merged.bound.zip(run.bound).map(|(a, b)| a.max(b));
        merged.unsolved = merged.unsolved.saturating_add(run.unsolved);
        merged.seconds += run.seconds;
    }
    merged
}

/// A published distribution, from a CSV file whose first column is the depth and whose
/// `column` (counted from 0) holds the counts; lines starting with `#` and a header are skipped.
pub fn read_reference(path: &Path, column: usize) -> Result<Vec<u64>, CosetRunError> {
    let text = std::fs::read_to_string(path).map_err(|source| CosetRunError::Read {
        path: path.display().to_string(),
        source,
    })?;
    let mut counts = Vec::new();
    let mut header_seen = false;
    for (number, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let parse_error = |message: String| CosetRunError::Reference {
            path: path.display().to_string(),
            line: number + 1,
            message,
        };
        match fields[0].parse::<u64>() {
            // One header, before the first row.
            Err(_) if !header_seen && counts.is_empty() => {
                header_seen = true;
                continue;
            }
            Err(_) => {
                return Err(parse_error(format!("'{}' is not a depth", fields[0])));
            }
            Ok(depth) if depth != counts.len() as u64 => {
                return Err(parse_error(format!(
                    "depth {depth} where depth {} was due (one row a depth, from 0, in order)",
                    counts.len()
                )));
            }
            Ok(_) => {}
        }
        let count = fields
            .get(column)
            .ok_or_else(|| parse_error(format!("no column {}", column + 1)))?
            .parse::<u64>()
            .map_err(|e| parse_error(format!("column {}: {e}", column + 1)))?;
        counts.push(count);
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(class: u64, cosets: u64, counts: &[u64], reached: &[u64], bound: Option<u32>) -> String {
        serde_json::json!({"coset": format!("c{class}"), "class": class, "class_cosets": cosets,
            "counts": counts, "reached": reached, "bound": bound, "unsolved": 0,
            "seconds": 1.5, "depths": []})
        .to_string()
    }

    #[test]
    fn runs_merge_over_their_common_exact_depths_each_class_once() {
        let dir = tempfile::tempdir().unwrap();
        let lines = [
            run(7, 16, &[1, 2, 3], &[1, 2, 3, 4], Some(3)),
            String::new(),
            run(9, 2, &[0, 5], &[0, 5, 6, 7], None),
        ];
        std::fs::write(dir.path().join("a.jsonl"), lines.join("\n")).unwrap();
        std::fs::write(
            dir.path().join("b.jsonl"),
            run(7, 16, &[9, 9, 9], &[9], Some(3)),
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a run").unwrap();
        let merged = merge(&read_runs(&[dir.path().to_path_buf()]).unwrap());
        assert_eq!(merged.runs, 3);
        assert_eq!(merged.repeated, vec![7]);
        assert_eq!(merged.cosets, 18);
        assert_eq!(merged.counts, vec![1, 7]);
        assert_eq!(merged.weighted, vec![16, 2 * 16 + 5 * 2]);
        assert_eq!(merged.reached, vec![1, 7, 9, 11]);
        assert_eq!(merged.bound, None);
        assert_eq!(merged.seconds, 3.0);
    }

    /// Counts no run could hold (a file says what it likes) saturate rather than wrap.
    #[test]
    fn counts_past_u64_saturate() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.jsonl");
        let huge = run(1, u64::MAX, &[u64::MAX], &[u64::MAX], None);
        std::fs::write(
            &file,
            format!("{huge}\n{}\n", run(2, u64::MAX, &[5], &[5], None)),
        )
        .unwrap();
        let merged = merge(&read_runs(&[file]).unwrap());
        assert_eq!(merged.counts, vec![u64::MAX]);
        assert_eq!(merged.reached, vec![u64::MAX]);
        assert_eq!(merged.cosets, u64::MAX);
        // u64::MAX squared, plus 5 u64::MAX, passes u128::MAX.
        assert_eq!(merged.weighted, vec![u128::MAX]);
    }

    /// Runs of the two metrics are refused together; a run without a metric is HTM.
    #[test]
    fn runs_of_two_metrics_are_not_merged() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.jsonl");
        let mut qtm: serde_json::Value =
            serde_json::from_str(&run(2, 1, &[1], &[1], None)).unwrap();
        qtm["metric"] = "qtm".into();
        std::fs::write(&file, format!("{}\n{qtm}\n", run(1, 1, &[1], &[1], None))).unwrap();
        let error = read_runs(std::slice::from_ref(&file))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("'c1' in htm, 'c2' in qtm; merge the runs of one metric at a time"),
            "{error}"
        );
        std::fs::write(&file, format!("{qtm}\n")).unwrap();
        assert_eq!(merge(&read_runs(&[file]).unwrap()).metric, Metric::Qtm);
    }

    #[test]
    fn a_line_that_is_no_run_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.jsonl");
        std::fs::write(
            &file,
            format!("{}\n{{\"coset\": 1}}\n", run(1, 1, &[1], &[1], None)),
        )
        .unwrap();
        let error = read_runs(&[file]).unwrap_err().to_string();
        assert!(
            error.contains("a.jsonl, line 2: not a run of `cubelab coset --json`"),
            "{error}"
        );
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        assert!(matches!(read_runs(&[empty]), Err(CosetRunError::Empty(_))));
    }

    #[test]
    fn a_reference_is_read_from_its_column() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("r.csv");
        std::fs::write(&file, "# note\ndepth,all,h\n0,1,1\n1,10,12\n").unwrap();
        assert_eq!(read_reference(&file, 1).unwrap(), vec![1, 10]);
        assert_eq!(read_reference(&file, 2).unwrap(), vec![1, 12]);
        let error = read_reference(&file, 3).unwrap_err().to_string();
        assert!(error.contains("line 3: no column 4"), "{error}");
        // The depth column is read, and a line that is no row is named, not skipped.
        std::fs::write(&file, "depth,all\n0,1\n2,10\n").unwrap();
        let error = read_reference(&file, 1).unwrap_err().to_string();
        assert!(
            error.contains("line 3: depth 2 where depth 1 was due"),
            "{error}"
        );
        std::fs::write(&file, "depth,all\n0,1\nx,10\n").unwrap();
        let error = read_reference(&file, 1).unwrap_err().to_string();
        assert!(error.contains("line 3: 'x' is not a depth"), "{error}");
    }

    /// A run whose numbers cannot be right is refused with where it was read: a class or a
    /// coset count not the coset's, counts that do not account for the coset, a bound with
    /// positions unsolved. A run as `cubelab coset` writes it passes.
    #[test]
    fn runs_that_cannot_be_right_are_refused() {
        let list = CosetList::new();
        // H itself, exact to depth 2: 1, 10 and 67 positions, the rest unreached.
        let h = Class::in_list(&list, &representative("U").unwrap());
        let good = || CosetRun {
            coset: "U".into(),
            metric: Metric::Htm,
            class: h.number,
            class_cosets: h.cosets,
            counts: vec![1, 10, 67],
            reached: vec![1, 10, 67],
            bound: None,
            unsolved: COSET_POSITIONS - 78,
            finished: 0,
            seconds: 1.0,
            origin: "runs.jsonl, line 1".into(),
        };
        assert!(check_run(&good(), &list).is_ok());
        let cases: [(CosetRun, &str); 6] = [
            (
                CosetRun {
                    class: h.number + 1,
                    ..good()
                },
                "the coset is of class",
            ),
            (
                CosetRun {
                    class_cosets: 1_000_000_000_000_000_000,
                    ..good()
                },
                "standing for",
            ),
            (
                CosetRun {
                    coset: "R".into(),
                    ..good()
                },
                "the coset is of class",
            ),
            (
                CosetRun {
                    counts: vec![1, 10, 66],
                    ..good()
                },
                "not the first of its reached",
            ),
            (
                CosetRun {
                    unsolved: 0,
                    ..good()
                },
                "sum to 78",
            ),
            (
                CosetRun {
                    bound: Some(20),
                    ..good()
                },
                "leaves 19508428722 positions unsolved",
            ),
        ];
        for (run, says) in cases {
            let error = check_run(&run, &list).unwrap_err().to_string();
            assert!(
                error.contains(says) && error.contains("runs.jsonl, line 1"),
                "{error}"
            );
        }
    }
}
