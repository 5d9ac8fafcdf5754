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

/// The positions solved at one optimal length.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LengthSummary {
    pub length: u32,
    pub positions: usize,
    pub mean_nodes: Option<f64>,
    pub median_nodes: Option<f64>,
    pub mean_seconds: f64,
    pub median_seconds: f64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ExperimentSummary {
    pub positions: usize,
    pub by_status: BTreeMap<String, usize>,
    pub by_length: Vec<LengthSummary>,
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// Counts by status, and nodes and time per optimal length.
pub fn summarise(rows: &[ExperimentRow]) -> ExperimentSummary {
    let mut by_status = BTreeMap::new();
    let mut by_length: BTreeMap<u32, Vec<&ExperimentRow>> = BTreeMap::new();
    for row in rows {
        *by_status.entry(row.status.clone()).or_insert(0) += 1;
        if let (true, Some(length)) = (row.status == "optimal", row.length) {
            by_length.entry(length).or_default().push(row);
        }
    }
    let by_length = by_length
        .into_iter()
        .map(|(length, group)| {
            let mut nodes: Vec<f64> = group
                .iter()
                .filter_map(|r| r.nodes)
                .map(|n| n as f64)
                .collect();
            let mut seconds: Vec<f64> = group.iter().map(|r| r.seconds).collect();
            let has_nodes = !nodes.is_empty();
            LengthSummary {
                length,
                positions: group.len(),
                mean_nodes: has_nodes.then(|| mean(&nodes)),
                median_nodes: has_nodes.then(|| median(&mut nodes)),
                mean_seconds: mean(&seconds),
                median_seconds: median(&mut seconds),
            }
        })
        .collect();
    ExperimentSummary {
        positions: rows.len(),
        by_status,
        by_length,
    }
}
