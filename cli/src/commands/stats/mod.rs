//! stats: distance distributions of the tables and summaries of experiments.

mod cosets;
mod experiment;
mod goal;
mod last_layer;
mod plot;
mod tables;
use cosets::*;
use experiment::*;
use goal::*;
use plot::*;
use tables::*;

use crate::report::chart::{
    Bars, ChartFormat, Labels, Marks, Points, Scale, Series, bar_chart, bars_and_marks,
    points_chart,
};
use crate::report::picture::{Scheme, View, draw_position};
use clap::{Parser, Subcommand};
use cubelab::catalogue::catalogue;
use cubelab::catalogue::circuit;
use cubelab::catalogue::group::{self, GroupHeader};
use cubelab::catalogue::published::{
    published_group_histogram, published_histogram, random_lengths,
};
use cubelab::catalogue::scan::checked_histogram;
use cubelab::catalogue::{TableId, TableKind};
use cubelab::experiment::{
    ExperimentRow, ExperimentSummary, ExperimentWriter, Merged, format_seconds, markdown, percent,
    read_experiment, read_merged, summarise,
};
use cubelab::model::cube::Metric;
use cubelab::model::position::{Form, Position, Puzzle, parse_position};
use cubelab::packing::Encoding;
use cubelab::space::group::{GroupSpace, Sizes};
use cubelab::support::sample::compare;
use cubelab::support::units::{histogram_table, human_bytes, max_depth, mean_depth, thousands};
use cubelab::table::{Table, Verify};
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
    generate: Option<crate::cli::Generated>,
    /// Directory holding the tables. Default: $CUBELAB_DATA if set, else ./data if it exists,
    /// else the per-user data directory (on Linux ~/.local/share/cubelab).
    #[arg(long, global = true, default_value_os_t = cubelab::table::default_data_dir())]
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
        /// Also chart this God's-algorithm run of any puzzle, the output of `cubelab puzzle
        /// gods --json` saved to FILE (repeatable): its positions at each distance.
        #[arg(long, value_name = "FILE")]
        gods: Vec<PathBuf>,
    },
    /// Draw a position into a PNG or SVG file, the format taken from the file's extension:
    /// the unfolded cube (U above, L F R B in a row, D below), or with --view 3d the cube in
    /// isometric projection, U F and R in view.
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
        /// net: every sticker, unfolded; 3d: the cube from above its front-right corner;
        /// 3d-both: that beside the cube from below the same corner (D, F and R in view).
        #[arg(long, value_enum, default_value_t = View::Net)]
        view: View,
    },
    /// Runs of `cubelab coset --json` (one object per line; files, or directories of *.jsonl
    /// files, such as the shards of scripts/slurm/submit-cosets.sh) merged into one table: the
    /// exact counts summed over the depths every run made exact, the same weighted by the
    /// cosets each run's symmetry class stands for, and the positions reached. Exits 1 if a
    /// class was run twice or the exact counts differ from the start of --reference.
    Cosets {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON object instead of the table.
        #[arg(long)]
        json: bool,
        /// Also draw the exact counts (log scale), beside the reference's, into FILE (.png or
        /// .svg).
        #[arg(long, value_name = "FILE")]
        chart: Option<PathBuf>,
        /// A published distribution to compare the exact counts with: a CSV file of
        /// depth,count rows (e.g. ../shared/reference/coset_identity_htm.csv for H itself).
        #[arg(long, value_name = "CSV")]
        reference: Option<PathBuf>,
        /// The reference's column holding the counts (the depth is column 1).
        #[arg(long, default_value_t = 2, value_name = "N", requires = "reference",
              value_parser = clap::value_parser!(u64).range(2..=64))]
        column: u64,
    },
    /// A partial goal (cross, xcross, eoline, roux-fb, ... or a piece mask; see `solve --help`
    /// under --goal): without a sample, its exact distribution over the whole space (every
    /// position of its pieces, which is its distribution over random cube states) from its
    /// table, built on the first use into the data directory; with --random or --scrambles,
    /// the optimal length of each position under each neutrality of --orientations, side by
    /// side, with the exact distribution beside the fixed column (for a goal of one place: an
    /// xcross's table is one pair's, its goal the best of four). `ll` (the last layer) is exact
    /// over its 62,208 positions, by the optimal solver (`gen-tables`' default table; the first
    /// run solves its 8,020 classes in about 13 minutes and keeps the result).
    Goal {
        /// The goal: a name or a piece mask (`DF DB DL DR`, `DF DB edges/o`).
        goal: String,
        /// The metric (default: both for the whole space, htm over a sample).
        #[arg(long, value_enum)]
        metric: Option<Metric>,
        /// A sample of N uniformly random cube states (1 to 100,000,000).
        #[arg(long, value_name = "N", conflicts_with = "scrambles",
              value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        random: Option<u64>,
        /// Seed for --random.
        #[arg(long, default_value_t = 1, requires = "random")]
        seed: u64,
        /// A sample read from FILE: one scramble a line (moves, rotations and wide moves
        /// allowed; '#' starts a comment), or the WCA export's WCA_export_Scrambles.tsv (its
        /// 3x3 events' scrambles).
        #[arg(long, value_name = "FILE")]
        scrambles: Option<PathBuf>,
        /// The neutralities to compare over the sample, comma-separated: fixed, dual, 6, 24.
        #[arg(
            long,
            value_enum,
            value_delimiter = ',',
            default_value = "fixed,dual,6"
        )]
        orientations: Vec<cubelab::catalogue::goal::Orientations>,
        /// One JSON object (per metric for the whole space) instead of text.
        #[arg(long)]
        json: bool,
        /// Also write each sampled position's lengths to FILE (CSV; replaced if it exists).
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// Also draw the distribution into FILE (.png or .svg): shares with 95% intervals per
        /// neutrality, the exact shares marked over the fixed bars.
        #[arg(long, value_name = "FILE")]
        chart: Option<PathBuf>,
        /// Answer only every N-th position of the sample, starting at the K-th (from 0), into
        /// --csv: N processes (a Slurm array: scripts/slurm/submit-goals.sh) share a sample
        /// with no coordinator, and --merge puts their files together.
        #[arg(long, value_name = "K/N", requires = "csv")]
        shard: Option<cubelab::experiment::Shard>,
        /// Instead of sampling, merge the --csv files of a sharded sample (files, or
        /// directories of them) and show the whole sample; exit 1 if a position is missing or
        /// was answered twice.
        #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["random", "scrambles", "shard", "csv"])]
        merge: Vec<PathBuf>,
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

/// Runs what the arguments ask for; the exit status follows [`crate::cli::exit_status`].
pub fn run(args: Args) -> ExitCode {
    if let Some(what) = args.generate {
        return crate::cli::print_generated(what, <Args as clap::CommandFactory>::command());
    }
    let data_dir = args.data_dir;
    let Some(command) = args.command else {
        eprintln!(
            "stats: error: name a command: tables, experiment, goal, cosets, plot, draw or circuit (see stats --help)"
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
            gods,
        } => plot(&data_dir, &out, format, &experiment, &gods),
        Command::Draw {
            position,
            out,
            puzzle,
            colours,
            view,
        } => draw(&position, &out, puzzle, colours.as_deref(), view),
        Command::Circuit { file, json } => circuit(&file, json),
        Command::Goal {
            goal: text,
            metric,
            random,
            seed,
            scrambles,
            orientations,
            json,
            csv,
            chart,
            shard,
            merge,
        } => {
            let args = GoalArgs {
                goal: &text,
                metric,
                random,
                seed,
                scrambles: scrambles.as_deref(),
                orientations: &orientations,
                json,
                csv: csv.as_deref(),
                chart: chart.as_deref(),
                shard,
                merge: &merge,
            };
            // The last layer's distribution is the optimal solver's, not a goal table's.
            if cubelab::solving::goal::names_last_layer(&text) {
                last_layer::last_layer(&data_dir, &args)
            } else {
                goal(&data_dir, &args)
            }
        }
        Command::Cosets {
            files,
            json,
            chart,
            reference,
            column,
        } => cosets(&CosetsArgs {
            files: &files,
            json,
            chart: chart.as_deref(),
            reference: reference.as_deref().map(|r| (r, column as usize - 1)),
        }),
    };
    crate::cli::exit_status("stats", result)
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
            "positions": cubelab::space::StateSpace::reachable(&space),
            "circuit": checked.is_ok(),
            "error": checked.as_ref().err().map(|e| e.to_string()),
            "seconds": seconds,
        });
        crate::outln!("{line}")?;
    } else {
        match &checked {
            Ok(()) => crate::outln!(
                "{}: a circuit of {spec}: {} moves, every position once and back to the start (checked in {seconds:.1} s)",
                file.display(),
                thousands(moves.len() as u128)
            )?,
            Err(e) => crate::outln!("{}: not a circuit of {spec}: {e}", file.display())?,
        }
    }
    Ok(checked.is_ok())
}

fn draw(
    text: &str,
    out: &std::path::Path,
    puzzle: Puzzle,
    colours: Option<&str>,
    view: View,
) -> Result<bool, String> {
    let format = ChartFormat::of_path(out)?;
    let scheme = match colours {
        Some(text) => Scheme::parse(text).map_err(|e| e.to_string())?,
        None => Scheme::STANDARD,
    };
    let stickers = match parse_position(text, Some(puzzle), Form::Auto) {
        Ok(Position::Pocket(c)) => c.to_facelets(),
        Ok(Position::Cube(c)) => c.to_facelets(),
        Err(e) => return Err(format!("{text}: {e}")),
    };
    draw_position(out, format, &stickers, &scheme, view).map_err(|e| e.to_string())?;
    crate::outln!("{}", out.display())?;
    Ok(true)
}
