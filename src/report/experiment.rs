//! Experiment files written by `solve --csv`: reading them back and summarising them.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One position's row.
#[derive(Clone, Debug, Deserialize)]
pub struct ExperimentRow {
    pub input: String,
    pub puzzle: String,
    pub metric: String,
    pub status: String,
    pub length: Option<u32>,
    pub lower_bound: Option<u32>,
    pub nodes: Option<u64>,
    pub seconds: f64,
    pub solution: String,
    /// `bound:nodes:seconds` per IDA* iteration, separated by spaces.
    pub iterations: String,
}

/// One IDA* iteration of a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Iteration {
    pub bound: u32,
    pub nodes: u64,
    pub seconds: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}, line {line}: {problem}")]
    Malformed {
        path: PathBuf,
        line: u64,
        problem: String,
    },
}

impl ExperimentRow {
    /// The row's iterations; `None` if the field is malformed.
    pub fn parsed_iterations(&self) -> Option<Vec<Iteration>> {
        self.iterations
            .split_whitespace()
            .map(|it| {
                let mut parts = it.split(':');
                let iteration = Iteration {
                    bound: parts.next()?.parse().ok()?,
                    nodes: parts.next()?.parse().ok()?,
                    seconds: parts.next()?.parse().ok()?,
                };
                parts.next().is_none().then_some(iteration)
            })
            .collect()
    }
}

/// Reads an experiment file, checking every row; an error names the file and line.
pub fn read_experiment(path: &Path) -> Result<Vec<ExperimentRow>, ExperimentError> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| match e.into_kind() {
        csv::ErrorKind::Io(source) => ExperimentError::Io {
            path: path.to_path_buf(),
            source,
        },
        other => ExperimentError::Malformed {
            path: path.to_path_buf(),
            line: 1,
            problem: format!("{other:?}"),
        },
    })?;
    let malformed = |line: u64, problem: String| ExperimentError::Malformed {
        path: path.to_path_buf(),
        line,
        problem,
    };
    let headers = reader
        .headers()
        .map_err(|e| malformed(1, e.to_string()))?
        .clone();
    let mut rows = Vec::new();
    for record in reader.deserialize::<ExperimentRow>() {
        let row = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            let problem = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => {
                    let column = err.field().and_then(|i| headers.get(i as usize));
                    match column {
                        Some(name) => format!("column '{name}': {}", err.kind()),
                        None => err.to_string(),
                    }
                }
                csv::ErrorKind::UnequalLengths {
                    expected_len, len, ..
                } => {
                    format!("{len} fields where the header has {expected_len}")
                }
                _ => e.to_string(),
            };
            malformed(line, problem)
        })?;
        let line = rows.len() as u64 + 2;
        if row.status == "optimal" && row.length.is_none() {
            return Err(malformed(line, "an optimal row without a length".into()));
        }
        if row.parsed_iterations().is_none() {
            return Err(malformed(
                line,
                format!(
                    "iterations '{}' are not bound:nodes:seconds",
                    row.iterations
                ),
            ));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The spread of one quantity over a group of positions. `std` is the sample standard
/// deviation (0 for a single position).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Spread {
    pub mean: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub std: f64,
}

impl Spread {
    /// `None` for no values.
    pub fn of(values: &[f64]) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        let squares: f64 = sorted.iter().map(|v| (v - mean) * (v - mean)).sum();
        let std = if n > 1 {
            (squares / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Some(Spread {
            mean,
            median,
            min: sorted[0],
            max: sorted[n - 1],
            std,
        })
    }
}

/// The positions solved at one optimal length.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LengthSummary {
    pub length: u32,
    pub positions: usize,
    /// Absent where the rows count no nodes (the 2x2's table descent).
    pub nodes: Option<Spread>,
    pub seconds: Spread,
}

/// The rows of one puzzle in one metric: lengths and times of different puzzles or metrics
/// mean different things, so they are never pooled.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GroupSummary {
    pub puzzle: String,
    pub metric: String,
    pub positions: usize,
    pub by_status: BTreeMap<String, usize>,
    pub by_length: Vec<LengthSummary>,
    /// The proven lower bounds of the positions given up on, smallest first.
    pub lower_bounds: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ExperimentSummary {
    pub positions: usize,
    pub groups: Vec<GroupSummary>,
}

/// Per puzzle and metric: counts by status, and the spread of nodes and time per optimal
/// length.
pub fn summarise(rows: &[ExperimentRow]) -> ExperimentSummary {
    let mut groups: BTreeMap<(&str, &str), Vec<&ExperimentRow>> = BTreeMap::new();
    for row in rows {
        groups
            .entry((&row.puzzle, &row.metric))
            .or_default()
            .push(row);
    }
    let groups = groups
        .into_iter()
        .map(|((puzzle, metric), rows)| summarise_group(puzzle, metric, &rows))
        .collect();
    ExperimentSummary {
        positions: rows.len(),
        groups,
    }
}

fn summarise_group(puzzle: &str, metric: &str, rows: &[&ExperimentRow]) -> GroupSummary {
    let mut by_status = BTreeMap::new();
    let mut by_length: BTreeMap<u32, Vec<&ExperimentRow>> = BTreeMap::new();
    let mut lower_bounds = Vec::new();
    for row in rows {
        *by_status.entry(row.status.clone()).or_insert(0) += 1;
        match (row.status == "optimal", row.length, row.lower_bound) {
            (true, Some(length), _) => by_length.entry(length).or_default().push(row),
            (false, _, Some(bound)) => lower_bounds.push(bound),
            _ => {}
        }
    }
    lower_bounds.sort_unstable();
    let by_length = by_length
        .into_iter()
        .map(|(length, group)| {
            let nodes: Vec<f64> = group
                .iter()
                .filter_map(|r| r.nodes)
                .map(|n| n as f64)
                .collect();
            let seconds: Vec<f64> = group.iter().map(|r| r.seconds).collect();
            LengthSummary {
                length,
                positions: group.len(),
                nodes: Spread::of(&nodes),
                // A group is never empty.
                seconds: Spread::of(&seconds).unwrap_or_default(),
            }
        })
        .collect();
    GroupSummary {
        puzzle: puzzle.to_string(),
        metric: metric.to_string(),
        positions: rows.len(),
        by_status,
        by_length,
        lower_bounds,
    }
}

/// Seconds with three significant digits, or in µs below a millisecond: the 2x2's lookups take
/// microseconds, which a fixed three decimals would show as 0.000.
pub fn format_seconds(seconds: f64) -> String {
    if seconds > 0.0 && seconds < 1e-3 {
        format!("{:.1} µs", seconds * 1e6)
    } else if seconds < 10.0 {
        format!("{seconds:.3} s")
    } else {
        format!("{seconds:.1} s")
    }
}

/// The summary as Markdown: a heading per puzzle and metric, its statuses, then a table of
/// nodes and seconds per optimal length (mean, median, min, max, standard deviation).
pub fn markdown(summary: &ExperimentSummary) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let nodes = |v: f64| super::thousands(v.round() as u64);
    for group in &summary.groups {
        let _ = writeln!(
            out,
            "### {} {}: {} positions",
            group.puzzle, group.metric, group.positions
        );
        let _ = writeln!(out);
        for (status, n) in &group.by_status {
            let _ = writeln!(out, "- {status}: {n}");
        }
        if !group.lower_bounds.is_empty() {
            let _ = writeln!(
                out,
                "- proven lower bounds of the others: {:?}",
                group.lower_bounds
            );
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "| length | positions | mean nodes | median nodes | min nodes | max nodes | nodes std | \
             mean time | median time | min time | max time | time std |"
        );
        let _ = writeln!(out, "|{}", "---|".repeat(12));
        for s in &group.by_length {
            let node_cells = s.nodes.map_or_else(
                || vec!["-".to_string(); 5],
                |n| [n.mean, n.median, n.min, n.max, n.std].map(nodes).to_vec(),
            );
            let t = s.seconds;
            let time_cells = [t.mean, t.median, t.min, t.max, t.std].map(format_seconds);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                s.length,
                s.positions,
                node_cells.join(" | "),
                time_cells.join(" | ")
            );
        }
        let _ = writeln!(out);
    }
    out
}
