//! stats goal: a partial goal's exact distribution over its whole space, and its optimal lengths
//! over a sample of scrambles under each colour neutrality.

use crate::report::chart::{Bars, ChartFormat, Labels, Marks, Scale, bars_and_marks};
use cubelab::catalogue::goal::{Goal, GoalTable, GoalTables, Orientations, Places};
use cubelab::experiment::Shard;
use cubelab::experiment::goal_sample::{SampleIdentity, SampleRow, read_merged, write_sample};
use cubelab::experiment::scrambles::read_scrambles;
use cubelab::model::cube::{Cube3, Metric};
use cubelab::solving::goal::{GoalSolver, column_histogram, sample_lengths};
use cubelab::support::sample::{ShareRow, compare, wilson_95};
use cubelab::support::units::{mean_depth, progress_bar, thousands};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::path::Path;

/// What `stats goal` was asked.
pub struct GoalArgs<'a> {
    pub goal: &'a str,
    pub metric: Option<Metric>,
    pub random: Option<u64>,
    pub seed: u64,
    pub scrambles: Option<&'a Path>,
    pub orientations: &'a [Orientations],
    pub json: bool,
    pub csv: Option<&'a Path>,
    pub chart: Option<&'a Path>,
    /// Only this shard's positions of the sample (with --csv, for a Slurm array).
    pub shard: Option<Shard>,
    /// Merge these shards' CSV files (or directories of them) instead of sampling.
    pub merge: &'a [std::path::PathBuf],
}

/// Opens (building if missing) the goal's table in `metric`, its build shown by a bar.
fn open_table(data_dir: &Path, goal: &Goal, metric: Metric) -> Result<GoalTable, String> {
    let space_entries = cubelab::space::goal::GoalSpace::entries(&goal.mask);
    let bar = progress_bar(
        u64::try_from(space_entries).unwrap_or(u64::MAX),
        &format!("goal {metric}"),
    );
    let table =
        GoalTable::open_or_build(data_dir, &goal.mask, metric, &bar).map_err(|e| e.to_string());
    bar.finish_and_clear();
    table
}

/// Opens (building any that is missing) the goal's own table and its helpers' in `metric`.
fn open_tables(data_dir: &Path, goal: &Goal, metric: Metric) -> Result<GoalTables, String> {
    let bar = |mask: &_| {
        progress_bar(
            u64::try_from(cubelab::space::goal::GoalSpace::entries(mask)).unwrap_or(u64::MAX),
            &format!("goal {mask} {metric}"),
        )
    };
    GoalTables::open_or_build(data_dir, goal, metric, &bar).map_err(|e| e.to_string())
}

pub fn goal(data_dir: &Path, args: &GoalArgs) -> Result<bool, String> {
    let goal = Goal::parse(args.goal).map_err(|e| e.to_string())?;
    if !args.merge.is_empty() {
        return merged(data_dir, &goal, args);
    }
    // Everything the user gave is read and checked before a table is built or a file written.
    if let (Some(csv), Some(scrambles)) = (args.csv, args.scrambles) {
        crate::cli::refuse_input_as_output(csv, "--csv", &[("--scrambles", scrambles)])?;
    }
    let sample = match (args.random, args.scrambles) {
        (Some(n), _) => Some((
            random_cubes(n, args.seed),
            format!("random seed {}", args.seed),
        )),
        (None, Some(path)) => Some((
            read_scrambles(path)
                .map_err(|e| e.to_string())?
                .into_iter()
                .map(|s| (s.text, s.cube))
                .collect::<Vec<_>>(),
            format!(
                "scrambles {}",
                path.file_name().map_or(path.display().to_string(), |n| n
                    .to_string_lossy()
                    .into_owned())
            ),
        )),
        (None, None) => None,
    };
    if let Some(chart) = args.chart {
        ChartFormat::of_path(chart).map_err(|e| e.to_string())?;
    }
    match sample {
        None => whole_space(data_dir, &goal, args),
        Some((sample, source)) => over_sample(data_dir, &goal, args, &sample, source),
    }
}

/// `n` random states, unnamed: a random state's CSV row names it by its sticker string.
fn random_cubes(n: u64, seed: u64) -> Vec<(String, Cube3)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n)
        .map(|_| (String::new(), Cube3::random(&mut rng)))
        .collect()
}

/// The exact distribution of the goal's mask in one place, from its table, per metric.
fn whole_space(data_dir: &Path, goal: &Goal, args: &GoalArgs) -> Result<bool, String> {
    let metrics: Vec<Metric> = args.metric.map_or(Metric::BOTH.to_vec(), |m| vec![m]);
    let mut tables = Vec::new();
    for &metric in &metrics {
        tables.push((metric, open_table(data_dir, goal, metric)?));
    }
    let one_place = place_note(goal);
    for (metric, table) in &tables {
        let histogram = table.histogram();
        let states: u64 = histogram.iter().sum();
        if args.json {
            let line = serde_json::json!({
                "goal": goal.name,
                "mask": goal.mask.to_string(),
                "metric": metric,
                "places": match goal.places {
                    Places::One => "one",
                    Places::AboutUd => "one of four (this is one)",
                    Places::AtOnce(_) => "several of four at once (this is one)",
                },
                "states": states,
                "histogram": histogram,
                "mean": mean_depth(histogram),
                "table": table.path(),
            });
            crate::outln!("{line}")?;
        } else {
            crate::outln!(
                "goal {} ({}){one_place}, {metric}: {} states, mean {:.3}, at most {}",
                goal.name,
                goal.mask,
                thousands(states),
                mean_depth(histogram),
                histogram.len().saturating_sub(1)
            )?;
            crate::outln!("  length           states    share")?;
            for (length, &count) in histogram.iter().enumerate() {
                crate::outln!(
                    "  {length:>6} {:>16} {:>7.3}%",
                    thousands(count),
                    100.0 * count as f64 / states.max(1) as f64
                )?;
            }
        }
    }
    if let Some(chart) = args.chart {
        let bars: Vec<Bars> = tables
            .iter()
            .map(|(metric, table)| {
                let total = table.histogram().iter().sum::<u64>().max(1) as f64;
                Bars {
                    name: metric.to_string(),
                    values: table
                        .histogram()
                        .iter()
                        .map(|&c| c as f64 / total)
                        .collect(),
                    intervals: Vec::new(),
                }
            })
            .collect();
        let title = format!("{}: exact distribution over the whole space", goal.name);
        draw(chart, &title, &bars, &[])?;
    }
    Ok(true)
}

/// For a goal of several places, the note that a table's counts are of one place.
fn place_note(goal: &Goal) -> &'static str {
    match goal.places {
        Places::One => "",
        Places::AboutUd => " in one place (the table's; the goal takes the best of four)",
        Places::AtOnce(_) => {
            " in one place (the table's; the goal needs several of four at once: sample it with --random)"
        }
    }
}

/// One neutrality's lengths over the sample.
#[derive(serde::Serialize)]
struct Column {
    orientations: &'static str,
    views: usize,
    histogram: Vec<u64>,
    mean: f64,
}

fn over_sample(
    data_dir: &Path,
    goal: &Goal,
    args: &GoalArgs,
    sample: &[(String, Cube3)],
    source: String,
) -> Result<bool, String> {
    let metric = args.metric.unwrap_or(Metric::Htm);
    let mut orientations: Vec<Orientations> = Vec::new();
    for &o in args.orientations {
        if !orientations.contains(&o) {
            orientations.push(o);
        }
    }
    if orientations.is_empty() {
        orientations = vec![Orientations::Fixed, Orientations::Dual, Orientations::Six];
    }
    // One set of tables, shared by the neutralities.
    let tables = open_tables(data_dir, goal, metric)?;
    let solvers: Vec<GoalSolver> = orientations
        .iter()
        .map(|&o| GoalSolver::new(goal.clone(), tables.clone(), o))
        .collect();
    // A shard answers every count-th position of the whole sample, all of it drawn or read.
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let kept: Vec<usize> = (0..sample.len())
        .filter(|&i| shard.keeps(i as u64))
        .collect();
    let cubes: Vec<Cube3> = kept.iter().map(|&i| sample[i].1).collect();
    let bar = progress_bar(cubes.len() as u64, &format!("{} {metric}", goal.name));
    let started = std::time::Instant::now();
    let lengths = sample_lengths(&solvers, &cubes, &bar);
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    if let Some(path) = args.csv {
        let identity = SampleIdentity {
            goal: goal.name.clone(),
            metric: metric.to_string(),
            source,
            total: sample.len() as u64,
            orientations: orientations.iter().map(|o| o.name().to_string()).collect(),
        };
        let named: Vec<String> = kept
            .iter()
            .map(|&i| match &sample[i] {
                (text, cube) if text.is_empty() => cube.to_facelets(),
                (text, _) => text.clone(),
            })
            .collect();
        let rows = kept
            .iter()
            .zip(&named)
            .zip(lengths.chunks(solvers.len()))
            .map(|((&index, scramble), lengths)| SampleRow {
                index: index as u64,
                scramble,
                lengths,
            });
        write_sample(path, &identity, rows).map_err(|e| e.to_string())?;
    }
    // The exact whole-space distribution is that of one place in the fixed orientation: it is
    // set beside the fixed column only for goals of one place.
    let exact: Option<Vec<u64>> =
        (goal.places == Places::One).then(|| solvers[0].table().histogram().to_vec());
    present(goal, args, metric, &orientations, &lengths, seconds, exact)
}

/// `stats goal --merge`: the shards' rows as one sample, shown as a sample is; false (exit 1)
/// if a position is missing or was answered twice.
fn merged(data_dir: &Path, goal: &Goal, args: &GoalArgs) -> Result<bool, String> {
    let merged = read_merged(args.merge).map_err(|e| e.to_string())?;
    let identity = &merged.identity;
    if identity.goal != goal.name {
        return Err(format!(
            "the files are a sample of the goal {}, not {}; name that goal",
            identity.goal, goal.name
        ));
    }
    let metric = Metric::BOTH
        .into_iter()
        .find(|m| m.to_string() == identity.metric)
        .ok_or_else(|| format!("the files' metric '{}' is not htm or qtm", identity.metric))?;
    let orientations: Vec<Orientations> = identity
        .orientations
        .iter()
        .map(|name| {
            <Orientations as clap::ValueEnum>::from_str(name, true)
                .map_err(|_| format!("the files' column '{name}' is not a neutrality"))
        })
        .collect::<Result<_, _>>()?;
    check_rows(data_dir, goal, metric, &orientations, &merged)?;
    let lengths: Vec<u8> = merged.lengths.concat();
    // The exact column needs the goal's table, which the shards built; without it, none.
    let exact = (goal.places == Places::One)
        .then(|| GoalTable::open(data_dir, &goal.mask, metric).ok())
        .flatten()
        .map(|t| t.histogram().to_vec());
    present(goal, args, metric, &orientations, &lengths, 0.0, exact)?;
    if merged.missing > 0 || !merged.duplicated.is_empty() {
        eprintln!(
            "stats: {} of {} positions missing, {} answered twice ({}): rerun the shards that failed",
            thousands(merged.missing),
            thousands(identity.total),
            merged.duplicated.len(),
            identity.source
        );
        return Ok(false);
    }
    Ok(true)
}

/// The most rows of a merge whose lengths are computed again (spread evenly over the sample).
const ROWS_CHECKED: usize = 1_000;

/// Computes again the lengths of up to [`ROWS_CHECKED`] rows of `merged`, spread over it, with
/// the goal's tables where `data_dir` holds them (a merge builds none), and refuses the merge
/// where a row's lengths are not those of its scramble: a file changed by hand, or rows of
/// another sample. The files' form (scrambles, ranges, neutralities' order) is checked as they
/// are read.
fn check_rows(
    data_dir: &Path,
    goal: &Goal,
    metric: Metric,
    orientations: &[Orientations],
    merged: &cubelab::experiment::goal_sample::MergedSample,
) -> Result<(), String> {
    let Ok(tables) = GoalTables::open(data_dir, goal, metric) else {
        eprintln!(
            "stats: the goal's tables are not in {}: the rows' lengths are not checked against them",
            data_dir.display()
        );
        return Ok(());
    };
    let solvers: Vec<GoalSolver> = orientations
        .iter()
        .map(|&o| GoalSolver::new(goal.clone(), tables.clone(), o))
        .collect();
    let step = merged.positions.len().div_ceil(ROWS_CHECKED).max(1);
    let picked: Vec<usize> = (0..merged.positions.len()).step_by(step).collect();
    let cubes: Vec<Cube3> = picked.iter().map(|&i| merged.positions[i].1).collect();
    let bar = progress_bar(cubes.len() as u64, "rows checked");
    let lengths = sample_lengths(&solvers, &cubes, &bar);
    bar.finish_and_clear();
    for (&i, computed) in picked.iter().zip(lengths.chunks(solvers.len())) {
        if merged.lengths[i] != computed {
            return Err(format!(
                "the row of position {} says lengths {:?}, but its scramble's are {:?}: a file was changed or holds rows of another sample; rerun its shard",
                merged.positions[i].0, merged.lengths[i], computed
            ));
        }
    }
    Ok(())
}

/// A sample's lengths (a row per position, a column per neutrality of `orientations`) as a
/// table, JSON and chart, the exact whole-space distribution beside the fixed column.
fn present(
    goal: &Goal,
    args: &GoalArgs,
    metric: Metric,
    orientations: &[Orientations],
    lengths: &[u8],
    seconds: f64,
    exact: Option<Vec<u64>>,
) -> Result<bool, String> {
    let columns: Vec<Column> = orientations
        .iter()
        .enumerate()
        .map(|(i, &o)| {
            let histogram = column_histogram(lengths, orientations.len(), i);
            Column {
                orientations: o.name(),
                views: goal.views(o).len(),
                mean: mean_depth(&histogram),
                histogram,
            }
        })
        .collect();
    let fixed_vs_exact: Option<Vec<ShareRow>> = exact.as_ref().and_then(|exact| {
        let fixed = columns.iter().find(|c| c.orientations == "fixed")?;
        Some(compare(&fixed.histogram, exact))
    });
    let n = (lengths.len() / orientations.len().max(1)) as u64;
    if args.json {
        let line = serde_json::json!({
            "goal": goal.name,
            "mask": goal.mask.to_string(),
            "metric": metric,
            "positions": n,
            "seconds": seconds,
            "columns": columns,
            "exact": exact.as_ref().map(|h| serde_json::json!({"histogram": h, "mean": mean_depth(h)})),
            "fixed_vs_exact": fixed_vs_exact,
        });
        crate::outln!("{line}")?;
    } else {
        print_table(goal, metric, n, seconds, &columns, exact.as_deref())?;
        if let Some(rows) = &fixed_vs_exact {
            let off: Vec<String> = rows
                .iter()
                .filter(|r| !r.agrees)
                .map(|r| r.length.to_string())
                .collect();
            crate::outln!(
                "the fixed column against the exact shares (Wilson 95%): {}",
                if off.is_empty() {
                    "every length agrees".to_string()
                } else {
                    format!("outside the interval at length {}", off.join(", "))
                }
            )?;
        }
    }
    if let Some(chart) = args.chart {
        let bars: Vec<Bars> = columns
            .iter()
            .map(|c| Bars {
                name: format!("{} ({} views)", c.orientations, c.views),
                values: c
                    .histogram
                    .iter()
                    .map(|&k| k as f64 / n.max(1) as f64)
                    .collect(),
                intervals: c.histogram.iter().map(|&k| Some(wilson_95(k, n))).collect(),
            })
            .collect();
        let marks: Vec<Marks> = match (
            &exact,
            columns.iter().position(|c| c.orientations == "fixed"),
        ) {
            (Some(exact), Some(over)) => {
                let total = exact.iter().sum::<u64>().max(1) as f64;
                vec![Marks {
                    name: "whole space (exact)".into(),
                    over,
                    values: exact.iter().map(|&c| c as f64 / total).collect(),
                }]
            }
            _ => Vec::new(),
        };
        let title = format!(
            "{}: optimal {metric} over {} scrambles",
            goal.name,
            thousands(n)
        );
        draw(chart, &title, &bars, &marks)?;
    }
    Ok(true)
}

fn print_table(
    goal: &Goal,
    metric: Metric,
    n: u64,
    seconds: f64,
    columns: &[Column],
    exact: Option<&[u64]>,
) -> Result<(), String> {
    crate::outln!(
        "goal {} ({}), {} positions, {metric}, {:.2} s",
        goal.name,
        goal.mask,
        thousands(n),
        seconds
    )?;
    let mut header = String::from("  length");
    for c in columns {
        header += &format!(" {:>16}", c.orientations);
    }
    if exact.is_some() {
        header += "  whole space (exact)";
    }
    crate::outln!("{header}")?;
    let longest = columns
        .iter()
        .map(|c| c.histogram.len())
        .chain(exact.map(<[u64]>::len))
        .max()
        .unwrap_or(0);
    let share = |count: u64, total: u64| 100.0 * count as f64 / total.max(1) as f64;
    for length in 0..longest {
        let mut line = format!("  {length:>6}");
        for c in columns {
            let count = c.histogram.get(length).copied().unwrap_or(0);
            line += &format!(" {:>8.3}% {:>6}", share(count, n), compact(count));
        }
        if let Some(exact) = exact {
            let total = exact.iter().sum();
            line += &format!(
                "  {:>8.4}%",
                share(exact.get(length).copied().unwrap_or(0), total)
            );
        }
        crate::outln!("{line}")?;
    }
    let mut means = String::from("    mean");
    for c in columns {
        means += &format!(" {:>16.4}", c.mean);
    }
    if let Some(exact) = exact {
        means += &format!("  {:>9.4}", mean_depth(exact));
    }
    crate::outln!("{means}")?;
    Ok(())
}

/// A count in at most six characters (`12345`, `1.2M`).
fn compact(count: u64) -> String {
    match count {
        0..=99_999 => count.to_string(),
        100_000..=9_999_999 => format!("{:.0}k", count as f64 / 1e3),
        _ => format!("{:.1}M", count as f64 / 1e6),
    }
}

fn draw(path: &Path, title: &str, bars: &[Bars], marks: &[Marks]) -> Result<(), String> {
    let format = ChartFormat::of_path(path).map_err(|e| e.to_string())?;
    let labels = Labels {
        title,
        x: "optimal length (moves)",
        y: "share of positions",
    };
    bars_and_marks(path, format, &labels, bars, marks, Scale::Percent)
        .map_err(|e| e.to_string())?;
    crate::outln!("{}", path.display())?;
    Ok(())
}
