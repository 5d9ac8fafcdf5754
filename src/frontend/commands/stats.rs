//! stats: distance distributions of the tables and summaries of experiments.

use crate::catalogue::catalogue;
use crate::catalogue::circuit;
use crate::catalogue::group::{self, GroupHeader};
use crate::catalogue::scan::checked_histogram;
use crate::catalogue::{TableId, TableKind};
use crate::frontend::report::chart::{
    ChartFormat, Labels, Points, Series, bar_chart, distribution_chart, points_chart,
};
use crate::frontend::report::experiment::{
    ExperimentRow, ExperimentSummary, ExperimentWriter, Merged, format_seconds, markdown,
    read_experiment, read_merged, summarise,
};
use crate::frontend::report::picture::{Scheme, draw_net};
use crate::model::cube::Metric;
use crate::model::position::{Form, Position, Puzzle, parse_position};
use crate::packing::Encoding;
use crate::space::group::{GroupSpace, Sizes};
use crate::support::units::{histogram_table, human_bytes, max_depth, mean_depth, thousands};
use crate::table::{Table, Verify};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Distance distributions of the tables and summaries of experiments.
#[derive(Parser, Debug)]
#[command(name = "stats", version, arg_required_else_help = true)]
pub struct Args {
    /// Print this program's shell completions (bash, zsh, fish, elvish, powershell) or its man
    /// page (man) to standard output, and exit.
    #[arg(long, value_enum, value_name = "WHAT", exclusive = true)]
    generate: Option<crate::frontend::cli::Generated>,
    /// Directory holding the tables. Default: $CUBELAB_DATA if set, else ./data if it exists,
    /// else the per-user data directory (on Linux ~/.local/share/cubelab).
    #[arg(long, global = true, default_value_os_t = crate::table::default_data_dir())]
    data_dir: PathBuf,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// For every present table: entries, size, and the count and share at every depth, counted
    /// from the table's own entries and checked against published counts where known.
    Tables {
        /// One JSON object per table per line instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Summary of an experiment written by `solve --csv`, per puzzle and metric: positions by
    /// status, and the spread of nodes and time per optimal length. Several files (or
    /// directories of *.csv files), such as the shards of `solve --shard`, are read as one
    /// experiment: positions no file answers and positions answered twice are reported, and
    /// the exit status is 1 if there are any.
    Experiment {
        /// The CSV files, or directories of them.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also write the merged experiment to FILE: each position once, in order, in the
        /// format of `solve --csv` (replaced if it exists).
        #[arg(long, value_name = "FILE")]
        merged: Option<PathBuf>,
        /// One JSON object instead of text.
        #[arg(long, conflicts_with = "markdown")]
        json: bool,
        /// Markdown tables (mean, median, min, max and standard deviation of nodes and time
        /// per length), for reports.
        #[arg(long)]
        markdown: bool,
    },
    /// Charts of every present table's distance distribution (both metrics side by side, on a
    /// linear and on a logarithmic count axis), written into a directory.
    Plot {
        /// Directory the charts are written to (created if missing; charts of the same names
        /// in it are replaced). Required, so that the committed reports/figures is only
        /// rewritten when named.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Image format.
        #[arg(long, value_enum, default_value_t = ChartFormat::Png)]
        format: ChartFormat,
        /// Also chart this experiment file from `solve --csv` (repeatable): optimal lengths,
        /// nodes and time per length, nodes per IDA* iteration.
        #[arg(long, value_name = "FILE")]
        experiment: Vec<PathBuf>,
    },
    /// Draw a position as the unfolded cube (U above, L F R B in a row, D below) into a PNG
    /// or SVG file, the format taken from the file's extension.
    Draw {
        /// The position: a move sequence applied to a solved cube, or a sticker string (24 or
        /// 54 letters, faces U R F D L B).
        position: String,
        /// The picture file: <name>.png or <name>.svg.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Puzzle a move sequence is applied to (a sticker string names its own).
        #[arg(long, value_enum, default_value_t = Puzzle::Cube)]
        puzzle: Puzzle,
        /// The colours of U R F D L B, by name or #rrggbb (default: white red green yellow
        /// orange blue).
        #[arg(long, value_name = "SIX COLOURS")]
        colours: Option<String>,
    },
    /// Check a devil's algorithm (`gen-tables --circuit`): applied to the solved position, its
    /// moves must reach every position of the group its header names exactly once and then
    /// the solved position again. Exits 1 if the file is no such circuit.
    Circuit {
        /// The circuit file (circuit-<group>.txt.zst).
        file: PathBuf,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Runs what the arguments ask for; the exit status follows [`crate::frontend::cli::exit_status`].
pub fn run(args: Args) -> ExitCode {
    if let Some(what) = args.generate {
        return crate::frontend::cli::print_generated(
            what,
            <Args as clap::CommandFactory>::command(),
        );
    }
    let data_dir = args.data_dir;
    let Some(command) = args.command else {
        eprintln!(
            "stats: error: name a command: tables, experiment, plot, draw or circuit (see stats --help)"
        );
        return ExitCode::from(2);
    };
    let result = match command {
        Command::Tables { json } => tables(&data_dir, json),
        Command::Experiment {
            files,
            merged,
            json,
            markdown,
        } => {
            let output = match (json, markdown) {
                (true, _) => ExperimentOutput::Json,
                (_, true) => ExperimentOutput::Markdown,
                _ => ExperimentOutput::Text,
            };
            experiment(&files, merged.as_deref(), output)
        }
        Command::Plot {
            out,
            format,
            experiment,
        } => plot(&data_dir, &out, format, &experiment),
        Command::Draw {
            position,
            out,
            puzzle,
            colours,
        } => draw(&position, &out, puzzle, colours.as_deref()),
        Command::Circuit { file, json } => circuit(&file, json),
    };
    crate::frontend::cli::exit_status("stats", result)
}

/// Checks a circuit file; false (exit 1) if it is readable but no circuit of its group.
fn circuit(file: &std::path::Path, json: bool) -> Result<bool, String> {
    let start = Instant::now();
    let (spec, moves) = circuit::read_circuit(file).map_err(|e| e.to_string())?;
    Sizes::of(&spec)
        .check_fits(&spec, group::available_memory())
        .map_err(|e| e.to_string())?;
    let space = GroupSpace::new(&spec);
    let checked = circuit::move_indices(&spec, &moves)
        .and_then(|indices| circuit::check_circuit(&space, &indices));
    let seconds = start.elapsed().as_secs_f64();
    if json {
        let line = serde_json::json!({
            "file": file,
            "group": spec.to_string(),
            "moves": moves.len(),
            "positions": crate::space::StateSpace::reachable(&space),
            "circuit": checked.is_ok(),
            "error": checked.as_ref().err().map(|e| e.to_string()),
            "seconds": seconds,
        });
        println!("{line}");
    } else {
        match &checked {
            Ok(()) => println!(
                "{}: a circuit of {spec}: {} moves, every position once and back to the start (checked in {seconds:.1} s)",
                file.display(),
                thousands(moves.len() as u128)
            ),
            Err(e) => println!("{}: not a circuit of {spec}: {e}", file.display()),
        }
    }
    Ok(checked.is_ok())
}

fn draw(
    text: &str,
    out: &std::path::Path,
    puzzle: Puzzle,
    colours: Option<&str>,
) -> Result<bool, String> {
    let format = match out.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("png") => ChartFormat::Png,
        Some(e) if e.eq_ignore_ascii_case("svg") => ChartFormat::Svg,
        _ => {
            return Err(format!(
                "{}: name a .png or a .svg file, the picture's format",
                out.display()
            ));
        }
    };
    let scheme = match colours {
        Some(text) => Scheme::parse(text).map_err(|e| e.to_string())?,
        None => Scheme::STANDARD,
    };
    let stickers = match parse_position(text, Some(puzzle), Form::Auto) {
        Ok(Position::Pocket(c)) => c.to_facelets(),
        Ok(Position::Cube(c)) => c.to_facelets(),
        Err(e) => return Err(format!("{text}: {e}")),
    };
    draw_net(out, format, &stickers, &scheme).map_err(|e| e.to_string())?;
    println!("{}", out.display());
    Ok(true)
}

fn tables(dir: &std::path::Path, json: bool) -> Result<bool, String> {
    let mut ok = true;
    let mut found = 0;
    let ids = catalogue()
        .into_iter()
        .flat_map(|id| [id, id.with_encoding(Encoding::Mod3)]);
    let mut opened = Vec::new();
    for id in ids {
        if id.path(dir).exists() {
            let start = Instant::now();
            let table = id.open(dir, Verify::IfNew).map_err(|e| e.to_string())?;
            opened.push((id.name(), table, start));
        }
    }
    for path in group::present_tables(dir) {
        let start = Instant::now();
        let table = Table::open_path(&path, "gen-tables --generators", Verify::IfNew)
            .map_err(|e| e.to_string())?;
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("group");
        opened.push((name.to_string(), table, start));
    }
    for (name, table, start) in opened {
        found += 1;
        let encoding = table.header().encoding;
        let group = GroupHeader::of(table.header());
        let scanned = checked_histogram(&table);
        let seconds = start.elapsed().as_secs_f64();
        ok &= scanned.problems.is_empty();
        let hist = &scanned.histogram;
        let checked = scanned.published;
        if json {
            let line = serde_json::json!({
                "table": name,
                "group": group.as_ref().map(|g| g.spec.to_string()),
                "entries": table.header().entries,
                "bytes": table.file_bytes(),
                "encoding": encoding.name(),
                "histogram": hist,
                "max_depth": max_depth(hist),
                "mean_depth": mean_depth(hist),
                "published": if checked { Some(scanned.problems.is_empty()) } else { None },
                "problems": scanned.problems,
                "seconds": seconds,
            });
            println!("{line}");
        } else {
            println!(
                "{}: {} entries, {}, scanned in {seconds:.2} s",
                name,
                thousands(table.header().entries),
                human_bytes(table.file_bytes())
            );
            if let Some(group) = &group {
                println!(
                    "  the group {}: {} positions, {} entries outside it",
                    group.spec,
                    thousands(group.order),
                    thousands(group.outside)
                );
            }
            if encoding == Encoding::Mod3 {
                println!(
                    "  (2-bit table: residues checked against the depths counted at build time)"
                );
            }
            print!("{}", histogram_table(hist));
            println!("  max {}, mean {:.4}", max_depth(hist), mean_depth(hist));
            if checked && scanned.problems.is_empty() {
                println!("  equals the published distribution");
            }
            for problem in &scanned.problems {
                println!("  MISMATCH: {problem}");
            }
            println!();
        }
    }
    if found == 0 {
        return Err(format!(
            "no tables in {}; build them with `gen-tables --data-dir {}`",
            dir.display(),
            dir.display()
        ));
    }
    Ok(ok)
}

/// Summarises the experiment in `files` (shards merged); false if a position is missing or
/// answered twice.
fn experiment(
    files: &[PathBuf],
    merged_out: Option<&std::path::Path>,
    output: ExperimentOutput,
) -> Result<bool, String> {
    let merged = read_merged(files).map_err(|e| e.to_string())?;
    if let Some(path) = merged_out {
        // Replaced, not appended to: a merge run twice gives the same file.
        if path.exists() {
            std::fs::remove_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        let mut writer = ExperimentWriter::append(path).map_err(|e| e.to_string())?;
        for row in &merged.rows {
            writer.write(row).map_err(|e| e.to_string())?;
        }
    }
    let summary = summarise(&merged.rows);
    let coverage = coverage_lines(&merged);
    match output {
        ExperimentOutput::Json => {
            let mut value = serde_json::to_value(&summary).map_err(|e| e.to_string())?;
            value["total"] = merged.total.into();
            value["missing"] = merged.missing_count().into();
            value["missing_ranges"] = merged
                .missing
                .iter()
                .map(|r| serde_json::json!([r.start(), r.end()]))
                .collect();
            value["duplicated"] = merged
                .duplicated
                .iter()
                .map(|(index, times)| serde_json::json!({"index": index, "times": times}))
                .collect();
            value["unindexed"] = merged.unindexed.into();
            println!("{value}");
        }
        ExperimentOutput::Markdown => {
            for line in &coverage {
                println!("{line}");
            }
            if !coverage.is_empty() {
                println!();
            }
            print!("{}", markdown(&summary));
        }
        ExperimentOutput::Text => {
            let name = match files {
                [one] => one.display().to_string(),
                many => format!("{} files", many.len()),
            };
            print_experiment(&name, &summary);
            for line in &coverage {
                eprintln!("stats: {line}");
            }
        }
    }
    Ok(merged.missing.is_empty() && merged.duplicated.is_empty())
}

/// What is wrong with the experiment's coverage, a line each; none if every position is
/// answered once.
fn coverage_lines(merged: &Merged) -> Vec<String> {
    let mut lines = Vec::new();
    if !merged.missing.is_empty() {
        let runs: Vec<String> = merged
            .missing
            .iter()
            .take(20)
            .map(|r| match r.end() - r.start() {
                0 => r.start().to_string(),
                _ => format!("{}-{}", r.start(), r.end()),
            })
            .collect();
        let more = if merged.missing.len() > 20 {
            ", ..."
        } else {
            ""
        };
        lines.push(format!(
            "{} of the experiment's {} positions were not solved by any file (indices {}{more}); run the shards that wrote them again",
            merged.missing_count(),
            merged.total.unwrap_or(0),
            runs.join(", ")
        ));
    }
    if !merged.duplicated.is_empty() {
        let shown: Vec<String> = merged
            .duplicated
            .iter()
            .take(20)
            .map(|(index, times)| format!("{index} ({times} times)"))
            .collect();
        let more = if merged.duplicated.len() > 20 {
            ", ..."
        } else {
            ""
        };
        lines.push(format!(
            "{} positions were answered more than once (indices {}{more}); each is counted once, from its first row",
            merged.duplicated.len(),
            shown.join(", ")
        ));
    }
    if merged.unindexed > 0 {
        lines.push(format!(
            "{} rows carry no index (written before `solve --shard`), so gaps among them cannot be found",
            merged.unindexed
        ));
    }
    lines
}

enum ExperimentOutput {
    Text,
    Json,
    Markdown,
}

fn print_experiment(name: &str, summary: &ExperimentSummary) {
    println!("{name}: {} positions", summary.positions);
    for group in &summary.groups {
        println!();
        println!(
            "{} {}: {} positions",
            group.puzzle, group.metric, group.positions
        );
        for (status, n) in &group.by_status {
            println!("  {status}: {n}");
        }
        if !group.lower_bounds.is_empty() {
            println!(
                "  proven lower bounds of the others: {:?}",
                group.lower_bounds
            );
        }
        println!(
            "  {:>6} {:>9} {:>15} {:>15} {:>15} {:>11} {:>11} {:>11} {:>11}",
            "length",
            "positions",
            "mean nodes",
            "min nodes",
            "max nodes",
            "mean time",
            "median",
            "min",
            "max"
        );
        for s in &group.by_length {
            let nodes = |v: Option<f64>| v.map_or("-".to_string(), |n| thousands(n.round() as u64));
            let t = s.seconds;
            println!(
                "  {:>6} {:>9} {:>15} {:>15} {:>15} {:>11} {:>11} {:>11} {:>11}",
                s.length,
                s.positions,
                nodes(s.nodes.map(|n| n.mean)),
                nodes(s.nodes.map(|n| n.min)),
                nodes(s.nodes.map(|n| n.max)),
                format_seconds(t.mean),
                format_seconds(t.median),
                format_seconds(t.min),
                format_seconds(t.max),
            );
        }
    }
}

/// What a table kind's chart is called and says.
fn chart_title(kind: TableKind) -> (&'static str, String) {
    let entries = thousands(crate::catalogue::entries(kind));
    match kind {
        TableKind::Pocket => (
            "2x2",
            format!("2x2x2: positions at each distance ({entries} states, DBL fixed)"),
        ),
        TableKind::Corners => (
            "corners",
            format!("3x3x3 corner database ({entries} entries)"),
        ),
        TableKind::Edges6 => (
            "edges6",
            format!("3x3x3 6-edge database ({entries} entries)"),
        ),
        TableKind::Edges7 => (
            "edges7",
            format!("3x3x3 7-edge database ({entries} entries)"),
        ),
        TableKind::Phase1 => (
            "phase1",
            format!("3x3x3 phase-1 database ({entries} entries)"),
        ),
        other => (
            other.name(),
            format!("3x3x3 {} coset database ({entries} entries)", other.name()),
        ),
    }
}

/// A distribution's two charts, on a linear and on a logarithmic count axis: how many written.
fn draw_distribution(
    out: &std::path::Path,
    format: ChartFormat,
    stem: &str,
    title: &str,
    series: &[Series],
) -> Result<usize, String> {
    for (suffix, log) in [("", false), ("-log", true)] {
        let path = out.join(format!(
            "{stem}-distribution{suffix}.{}",
            format.extension()
        ));
        distribution_chart(&path, format, title, series, log).map_err(|e| e.to_string())?;
        println!("{}", path.display());
    }
    Ok(2)
}

fn plot(
    dir: &std::path::Path,
    out: &std::path::Path,
    format: ChartFormat,
    experiments: &[PathBuf],
) -> Result<bool, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut ok = true;
    let mut written = 0;
    for kind in TableKind::ALL {
        let mut series = Vec::new();
        for metric in Metric::BOTH {
            // The table in its kind's own encoding if present, else a mod-3 one (whose depths
            // were counted at build).
            let own = TableId::new(kind, metric);
            let id = [own, own.with_encoding(Encoding::Mod3)]
                .into_iter()
                .find(|id| id.path(dir).exists());
            let Some(id) = id else { continue };
            let table = id.open(dir, Verify::IfNew).map_err(|e| e.to_string())?;
            let checked = checked_histogram(&table);
            for problem in &checked.problems {
                eprintln!("stats: MISMATCH: {}: {problem}", id.name());
                ok = false;
            }
            let name = match metric {
                Metric::Htm => "HTM (half turns count 1)",
                Metric::Qtm => "QTM (quarter turns count 1)",
            };
            series.push(Series {
                name: name.to_string(),
                histogram: checked.histogram,
            });
        }
        if series.is_empty() {
            continue;
        }
        let (stem, title) = chart_title(kind);
        written += draw_distribution(out, format, stem, &title, &series)?;
    }
    for path in group::present_tables(dir) {
        let table = Table::open_path(&path, "gen-tables --generators", Verify::IfNew)
            .map_err(|e| e.to_string())?;
        let Some(group) = GroupHeader::of(table.header()) else {
            continue;
        };
        let checked = checked_histogram(&table);
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("group");
        for problem in &checked.problems {
            eprintln!("stats: MISMATCH: {stem}: {problem}");
            ok = false;
        }
        let series = [Series {
            name: format!("distances in {}", group.spec.metric.name()),
            histogram: checked.histogram,
        }];
        let title = format!(
            "The group {}: positions at each distance ({} positions)",
            group.spec,
            thousands(group.order)
        );
        written += draw_distribution(out, format, stem, &title, &series)?;
    }
    for file in experiments {
        written += plot_experiment(file, out, format)?;
    }
    if written == 0 {
        return Err(format!(
            "no tables in {}; build them with `gen-tables --data-dir {}`",
            dir.display(),
            dir.display()
        ));
    }
    Ok(ok)
}

/// Most positions drawn as lines in the nodes-per-iteration chart: more are unreadable.
const ITERATION_LINES: usize = 8;

/// The charts of one experiment file; returns how many were written.
fn plot_experiment(
    file: &std::path::Path,
    out: &std::path::Path,
    format: ChartFormat,
) -> Result<usize, String> {
    let rows = read_experiment(file).map_err(|e| e.to_string())?;
    let solved: Vec<&ExperimentRow> = rows.iter().filter(|r| r.status == "optimal").collect();
    if solved.is_empty() {
        return Err(format!(
            "{}: no optimally solved position to chart",
            file.display()
        ));
    }
    let stem = file
        .file_stem()
        .map_or("experiment".into(), |s| s.to_string_lossy().into_owned());
    let chart = |name: &str| out.join(format!("{stem}-{name}.{}", format.extension()));
    let metric = solved[0].metric.to_uppercase();
    let mut lengths = Vec::new();
    for r in &solved {
        let l = r.length.unwrap_or(0) as usize;
        if lengths.len() <= l {
            lengths.resize(l + 1, 0);
        }
        lengths[l] += 1;
    }
    let mut written = Vec::new();
    let title = format!(
        "{stem}: optimal solution lengths of {} positions",
        solved.len()
    );
    let x = format!("optimal length ({metric} moves)");
    let labels = Labels {
        title: &title,
        x: &x,
        y: "positions",
    };
    let series = [Series {
        name: "positions".into(),
        histogram: lengths,
    }];
    bar_chart(&chart("lengths"), format, &labels, &series, false).map_err(|e| e.to_string())?;
    written.push(chart("lengths"));
    let by_length = |value: &dyn Fn(&ExperimentRow) -> Option<f64>| Points {
        name: "one position".into(),
        points: solved
            .iter()
            .filter_map(|r| Some((f64::from(r.length?), value(r)?)))
            .collect(),
    };
    let nodes = by_length(&|r| r.nodes.map(|n| n as f64));
    if !nodes.points.is_empty() {
        let title = format!("{stem}: nodes generated against optimal length");
        let labels = Labels {
            title: &title,
            x: &x,
            y: "nodes (log scale)",
        };
        points_chart(&chart("nodes"), format, &labels, &[nodes], false)
            .map_err(|e| e.to_string())?;
        written.push(chart("nodes"));
    }
    let seconds = by_length(&|r| Some(r.seconds));
    let title = format!("{stem}: time to solve against optimal length");
    let labels = Labels {
        title: &title,
        x: &x,
        y: "seconds (log scale)",
    };
    if points_chart(&chart("seconds"), format, &labels, &[seconds], false).is_ok() {
        written.push(chart("seconds"));
    }
    // The longest solves say most about how iterations grow.
    let mut longest = solved.clone();
    longest.sort_by_key(|r| std::cmp::Reverse(r.length));
    longest.truncate(ITERATION_LINES);
    longest.reverse();
    let lines: Vec<Points> = longest
        .iter()
        .filter_map(|r| {
            let its = r.parsed_iterations()?;
            (!its.is_empty()).then(|| Points {
                name: format!(
                    "length {}: {}",
                    r.length.unwrap_or(0),
                    r.input.chars().take(24).collect::<String>()
                ),
                points: its
                    .iter()
                    .map(|i| (f64::from(i.bound), i.nodes as f64))
                    .collect(),
            })
        })
        .collect();
    if !lines.is_empty() {
        let title = format!(
            "{stem}: nodes per IDA* iteration ({} longest solves)",
            lines.len()
        );
        let x = format!("iteration bound ({metric} moves)");
        let labels = Labels {
            title: &title,
            x: &x,
            y: "nodes (log scale)",
        };
        points_chart(&chart("iterations"), format, &labels, &lines, true)
            .map_err(|e| e.to_string())?;
        written.push(chart("iterations"));
    }
    for path in &written {
        println!("{}", path.display());
    }
    Ok(written.len())
}
