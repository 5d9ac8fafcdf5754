//! Experiment files written by `solve --csv`: writing and reading them, merging the files of a
//! sharded run into one experiment, and summarising it.
//!
//! A row names its position's place in the experiment (`index` of `total`, drawn from
//! `source`), so the files of shards run on different machines merge without a coordinator:
//! [`merge`] finds the positions no shard solved and those solved twice.
//!
//! The other files experiments read live beside it: [`coset_runs`] (the `--json` lines of
//! `cubelab coset`, merged into one distribution), [`goal_sample`] (the rows of `stats goal`
//! samples) and [`scrambles`] (scramble lists and the WCA results export).

pub mod coset_runs;
pub mod goal_sample;
pub mod scrambles;

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One position's row. The fields are the file's columns, in order; the last four were added
/// for sharded experiments and are empty in files written before them.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
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
    /// The position's number in the experiment's input, from 0 (over every shard).
    #[serde(default)]
    pub index: Option<u64>,
    /// How many positions the experiment has, where known when it started (not for standard
    /// input).
    #[serde(default)]
    pub total: Option<u64>,
    /// Where the positions came from, e.g. `random 3x3 seed 1`: rows of one experiment agree.
    #[serde(default)]
    pub source: Option<String>,
    /// How the position was solved: optimal, two-phase or layers.
    #[serde(default)]
    pub method: Option<String>,
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
    #[error("{0}: no experiment files (*.csv) in this directory")]
    EmptyDirectory(PathBuf),
    #[error(
        "the files are of different experiments ({first} and {second}); merge only the shards of one run"
    )]
    Mixed { first: String, second: String },
    #[error(
        "position {index} is {first} in one file and {second} in another: the files are of different experiments"
    )]
    Conflict {
        index: u64,
        first: String,
        second: String,
    },
    #[error("a row numbers its position {index}, but its experiment has only {total} positions")]
    Beyond { index: u64, total: u64 },
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

/// The statuses `solve` writes: `optimal`, `found` (two-phase), `solved` (layers), `timeout`,
/// `max-length` and `invalid`.
pub const STATUSES: [&str; 6] = [
    "optimal",
    "found",
    "solved",
    "timeout",
    "max-length",
    "invalid",
];

/// The longest puzzle name a row may give: cubing.js's names are a few words at most.
const MAX_PUZZLE_NAME: usize = 64;

/// A KPuzzle definition's name as a row's puzzle: every character a row may not hold (see
/// [`is_puzzle_name`]) written as `_`, and cut to [`MAX_PUZZLE_NAME`].
pub fn row_puzzle_name(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' | '.' => c,
            _ => '_',
        })
        .take(MAX_PUZZLE_NAME)
        .collect()
}

/// Whether `name` may name a row's puzzle: empty (rows written before the column), `2x2` and
/// `3x3` (what `solve` writes), or a KPuzzle definition's name (what `cubelab puzzle solve`
/// writes: letters, digits, `-`, `_` and `.`).
fn is_puzzle_name(name: &str) -> bool {
    name.len() <= MAX_PUZZLE_NAME
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The longest solution length a row may give: far beyond any method's (the layer method's run
/// to about a hundred moves), and small enough that a chart's counts per length stay small.
pub const MAX_LENGTH: u32 = 1000;

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
    // csv's own line numbers run one low after a blank line or with `\r\n` endings; the line
    // is counted from the record's byte offset instead, when there is an error to name.
    let malformed = |byte: u64, problem: String| ExperimentError::Malformed {
        path: path.to_path_buf(),
        line: line_at(path, byte),
        problem,
    };
    let headers = reader
        .headers()
        .map_err(|e| malformed(0, e.to_string()))?
        .clone();
    let mut rows = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let byte = e.position().map_or(0, csv::Position::byte);
                let problem = match e.kind() {
                    csv::ErrorKind::UnequalLengths {
                        expected_len, len, ..
                    } => format!("{len} fields where the header has {expected_len}"),
                    _ => e.to_string(),
                };
                return Err(malformed(byte, problem));
            }
        }
        let byte = record.position().map_or(0, csv::Position::byte);
        let row: ExperimentRow = record.deserialize(Some(&headers)).map_err(|e| {
            let problem = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => {
                    match err.field().and_then(|i| headers.get(i as usize)) {
                        Some(name) => format!("column '{name}': {}", err.kind()),
                        None => err.to_string(),
                    }
                }
                _ => e.to_string(),
            };
            malformed(byte, problem)
        })?;
        row.check().map_err(|problem| malformed(byte, problem))?;
        rows.push(row);
    }
    Ok(rows)
}

/// The 1-based number of the line of the file at `path` where the record that csv places at
/// byte `byte` begins: csv places a record at the end of the one before, so the line breaks (and
/// blank lines) that follow that byte come before the record.
fn line_at(path: &Path, byte: u64) -> u64 {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else {
        return 0;
    };
    let mut line = 1;
    for (at, b) in std::io::BufReader::new(file).bytes().enumerate() {
        let Ok(b) = b else { break };
        if at as u64 >= byte && b != b'\n' && b != b'\r' {
            break;
        }
        line += u64::from(b == b'\n');
    }
    line
}

impl ExperimentRow {
    /// Whether the row holds what `solve` or `cubelab puzzle solve` writes: a puzzle's name
    /// (2x2, 3x3, or a KPuzzle definition's), a known status, a time that is a time, lengths
    /// within [`MAX_LENGTH`], well-formed iterations; otherwise what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if !is_puzzle_name(&self.puzzle) {
            return Err(format!(
                "column 'puzzle': '{}' is no puzzle's name (2x2, 3x3, or a definition's: at most \
                 {MAX_PUZZLE_NAME} letters, digits, '-', '_' or '.')",
                self.puzzle.escape_debug(),
            ));
        }
        if !STATUSES.contains(&self.status.as_str()) {
            return Err(format!(
                "column 'status': '{}' is none of {}",
                self.status,
                STATUSES.join(", ")
            ));
        }
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            return Err(format!(
                "column 'seconds': {} is not a time (a number of seconds, 0 or more)",
                self.seconds
            ));
        }
        for (column, value) in [("length", self.length), ("lower_bound", self.lower_bound)] {
            if let Some(n) = value.filter(|&n| n > MAX_LENGTH) {
                return Err(format!(
                    "column '{column}': {n} moves is more than any solution ({MAX_LENGTH} at most)"
                ));
            }
        }
        // What a method can end in: the layer method solves or refuses, two-phase finds (or
        // proves optimal), the optimal search proves or gives up.
        let ends: &[&str] = match self.method.as_deref().unwrap_or("") {
            "layers" => &["solved", "invalid"],
            "two-phase" => &["found", "optimal", "timeout", "max-length", "invalid"],
            "optimal" => &["optimal", "timeout", "max-length", "invalid"],
            _ => &STATUSES,
        };
        if !ends.contains(&self.status.as_str()) {
            return Err(format!(
                "column 'status': '{}' is not what the method {} ends in ({})",
                self.status,
                self.method.as_deref().unwrap_or(""),
                ends.join(", ")
            ));
        }
        if self.status == "optimal" && self.length.is_none() {
            return Err("an optimal row without a length".into());
        }
        let iterations = self.parsed_iterations().filter(|its| {
            its.iter()
                .all(|it| it.bound <= MAX_LENGTH && it.seconds.is_finite() && it.seconds >= 0.0)
        });
        if iterations.is_none() {
            return Err(format!(
                "iterations '{}' are not bound:nodes:seconds",
                self.iterations
            ));
        }
        Ok(())
    }
}

/// Appends rows to an experiment file, writing the header only when the file is new, so that
/// a shard run again after a failure adds to its file (its repeats are found by [`merge`]).
pub struct ExperimentWriter {
    path: PathBuf,
    writer: csv::Writer<std::fs::File>,
}

impl ExperimentWriter {
    pub fn append(path: &Path) -> Result<ExperimentWriter, ExperimentError> {
        let io = |source| ExperimentError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        let new = file.metadata().map_err(io)?.len() == 0;
        let writer = csv::WriterBuilder::new().has_headers(new).from_writer(file);
        Ok(ExperimentWriter {
            path: path.to_path_buf(),
            writer,
        })
    }

    /// Writes one row and flushes it: an experiment stopped at any point keeps every row
    /// answered before.
    pub fn write(&mut self, row: &ExperimentRow) -> Result<(), ExperimentError> {
        let io = |source| ExperimentError::Io {
            path: self.path.clone(),
            source,
        };
        self.writer
            .serialize(row)
            .map_err(|e| match e.into_kind() {
                csv::ErrorKind::Io(source) => io(source),
                other => io(std::io::Error::other(format!("{other:?}"))),
            })?;
        self.writer.flush().map_err(io)
    }
}

/// Which positions of an experiment one process solves: those whose index leaves `index` as
/// remainder when divided by `count`. Every shard draws or reads the whole input and skips the
/// others' positions, so shards need no coordinator and together solve each position once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a shard: write K/N with 0 <= K < N, e.g. 0/4 for the first of four")]
pub struct ShardError(String);

impl Shard {
    /// The whole experiment, as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// `K/N`, as Slurm's array task ID over the task count.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let error = || ShardError(text.to_string());
        let (k, n) = text.trim().split_once('/').ok_or_else(error)?;
        let index: u64 = k.trim().parse().map_err(|_| error())?;
        let count: u64 = n.trim().parse().map_err(|_| error())?;
        if index >= count {
            return Err(error());
        }
        Ok(Shard { index, count })
    }

    /// Whether this shard solves the position numbered `position`.
    pub fn keeps(self, position: u64) -> bool {
        position % self.count == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        Shard::parse(text)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The experiment files named: files as given, directories as the `*.csv` files in them (in
/// name order).
pub fn experiment_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ExperimentError> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let io = |source| ExperimentError::Io {
            path: path.clone(),
            source,
        };
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(io)?
            .map(|entry| entry.map(|e| e.path()).map_err(io))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "csv") && p.is_file())
            .collect();
        if found.is_empty() {
            return Err(ExperimentError::EmptyDirectory(path.clone()));
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// The rows of several experiment files (shards of one run), merged by [`merge`].
pub fn read_merged(paths: &[PathBuf]) -> Result<Merged, ExperimentError> {
    let mut rows = Vec::new();
    for file in experiment_files(paths)? {
        rows.extend(read_experiment(&file)?);
    }
    merge(rows)
}

/// One experiment put together from its shards' rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// Each position once, in index order (rows without an index follow, as read).
    pub rows: Vec<ExperimentRow>,
    /// How many positions the experiment has, where the rows say.
    pub total: Option<u64>,
    /// Runs of indices below `total` that no row answers, in order (runs rather than single
    /// indices, so that a shard lost from a large run costs one entry per gap).
    pub missing: Vec<std::ops::RangeInclusive<u64>>,
    /// Indices answered more than once, with how many times (only the first row is kept).
    pub duplicated: Vec<(u64, usize)>,
    /// Rows that carry no index (files written before sharding), so cannot be checked.
    pub unindexed: usize,
}

impl Merged {
    /// How many positions no row answers.
    pub fn missing_count(&self) -> u64 {
        self.missing.iter().map(|r| r.end() - r.start() + 1).sum()
    }
}

/// The runs of `0..total` not in `present`.
fn gaps(present: &BTreeSet<u64>, total: u64) -> Vec<std::ops::RangeInclusive<u64>> {
    let mut gaps = Vec::new();
    let mut next = 0;
    for &index in present.range(..total) {
        if index > next {
            gaps.push(next..=index - 1);
        }
        next = index + 1;
    }
    if next < total {
        gaps.push(next..=total - 1);
    }
    gaps
}

/// Merges the rows of an experiment's shards: one row per position, in index order, with the
/// positions missing and those answered twice. Rows of different experiments (another source
/// or size, or another position at the same index) are an error, not a merge.
pub fn merge(rows: Vec<ExperimentRow>) -> Result<Merged, ExperimentError> {
    let describe = |row: &ExperimentRow| {
        format!(
            "'{}' of {}",
            row.source.as_deref().unwrap_or("an unnamed source"),
            row.total
                .map_or("unknown size".to_string(), |t| format!("{t} positions"))
        )
    };
    let mut first_indexed: Option<ExperimentRow> = None;
    let mut by_index: BTreeMap<u64, (ExperimentRow, usize)> = BTreeMap::new();
    let mut unindexed = Vec::new();
    for row in rows {
        let Some(index) = row.index else {
            unindexed.push(row);
            continue;
        };
        if let Some(total) = row.total.filter(|&t| index >= t) {
            return Err(ExperimentError::Beyond { index, total });
        }
        match &first_indexed {
            Some(first) if (&first.source, first.total) != (&row.source, row.total) => {
                return Err(ExperimentError::Mixed {
                    first: describe(first),
                    second: describe(&row),
                });
            }
            Some(_) => {}
            None => first_indexed = Some(row.clone()),
        }
        match by_index.get_mut(&index) {
            Some((kept, _)) if kept.input != row.input => {
                return Err(ExperimentError::Conflict {
                    index,
                    first: kept.input.clone(),
                    second: row.input,
                });
            }
            Some((_, seen)) => *seen += 1,
            None => {
                by_index.insert(index, (row, 1));
            }
        }
    }
    let total = first_indexed.as_ref().and_then(|r| r.total);
    let present: BTreeSet<u64> = by_index.keys().copied().collect();
    let missing = total.map_or_else(Vec::new, |t| gaps(&present, t));
    let duplicated = by_index
        .iter()
        .filter(|(_, (_, seen))| *seen > 1)
        .map(|(index, (_, seen))| (*index, *seen))
        .collect();
    let unindexed_count = unindexed.len();
    let rows = by_index
        .into_values()
        .map(|(row, _)| row)
        .chain(unindexed)
        .collect();
    Ok(Merged {
        rows,
        total,
        missing,
        duplicated,
        unindexed: unindexed_count,
    })
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
    /// The optimal lengths beside the published distribution of random positions, for an
    /// experiment whose every position was solved optimally by length and where one is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<PublishedComparison>,
}

/// An experiment's optimal lengths, each length's share with its 95% interval, beside the
/// share published for random positions.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PublishedComparison {
    pub source: String,
    /// Whether the published counts are the whole space's (no sampling error on that side).
    pub exact: bool,
    pub rows: Vec<crate::support::sample::ShareRow>,
}

impl PublishedComparison {
    /// The comparison for a group's optimal lengths, if its puzzle and metric have a published
    /// distribution and its rows were solved optimally (two-phase or layer lengths are not).
    fn of(puzzle: &str, metric: &str, rows: &[&ExperimentRow]) -> Option<PublishedComparison> {
        let optimal = |r: &&&ExperimentRow| r.method.as_deref().is_none_or(|m| m == "optimal");
        if !rows.iter().all(|r| optimal(&r)) {
            return None;
        }
        let metric =
            crate::support::named::named::<crate::model::cube::Metric>("metric", metric).ok()?;
        let published = crate::catalogue::published::random_lengths(puzzle, metric)?;
        let mut counts = Vec::new();
        for row in rows.iter().filter(|r| r.status == "optimal") {
            let length = row.length? as usize;
            if counts.len() <= length {
                counts.resize(length + 1, 0);
            }
            counts[length] += 1;
        }
        if counts.is_empty() {
            return None;
        }
        Some(PublishedComparison {
            source: published.source.to_string(),
            exact: published.exact,
            rows: crate::support::sample::compare(&counts, &published.counts),
        })
    }
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
        published: PublishedComparison::of(puzzle, metric, rows),
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
    let nodes = |v: f64| crate::support::units::thousands(v.round() as u64);
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
        if let Some(published) = &group.published {
            let _ = writeln!(out, "Against {}:", published.source);
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "| length | positions | share | 95% interval | published share | inside |"
            );
            let _ = writeln!(out, "|{}", "---|".repeat(6));
            for r in &published.rows {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} – {} | {} | {} |",
                    r.length,
                    r.positions,
                    percent(r.share),
                    percent(r.low),
                    percent(r.high),
                    percent(r.published_share),
                    if r.agrees { "yes" } else { "**no**" }
                );
            }
            let _ = writeln!(out);
        }
    }
    out
}

/// A share in percent, with two decimals (four below a hundredth of a percent, where the
/// published tails are).
pub fn percent(share: f64) -> String {
    if share > 0.0 && share < 1e-4 {
        format!("{:.4}%", share * 100.0)
    } else {
        format!("{:.2}%", share * 100.0)
    }
}

#[cfg(test)]
mod tests;
