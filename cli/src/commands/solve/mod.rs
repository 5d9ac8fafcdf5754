//! solve: optimal solutions for cube positions, from the tables gen-tables built.

mod goal;
mod inputs;
mod output;
use inputs::*;
use output::*;

use crate::report::chart::ChartFormat;
use crate::report::picture::{Scheme, View, draw_position};
use clap::Parser;
use cubelab::catalogue::TableKind;
use cubelab::catalogue::goal::Orientations;
use cubelab::experiment::{ExperimentRow, ExperimentWriter, Shard};
use cubelab::model::cube::{Cube3, Metric, Move};
use cubelab::model::facelet::{Palette, net};
use cubelab::model::notation::format_moves;
use cubelab::model::position::{Form, Line, Position, PositionLines, Puzzle, parse_position};
use cubelab::solving::{JsonShape, Method, Outcome, Progress, Request, Solvers};
use cubelab::solving::{Step, TwoPhaseStatus};
use cubelab::space::group::{GroupMetric, GroupSpec};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Find optimal (or, with --method, short or human) solutions for cube positions. A position is a move sequence (applied to a solved
/// cube) or a sticker string: 24 letters for a 2x2, 54 for a 3x3, faces in the order U R F D L B.
/// Without positions, --file or --random, positions are read from standard input, one per line.
/// Every solution is checked by applying it before it is printed.
#[derive(Parser, Debug)]
#[command(
    name = "solve",
    version,
    after_help = "Examples:\n  solve \"R U R' U' R' F R2 U' R' U' R U R' F'\"\n  solve --method two-phase --random 1000\n  solve --method two-phase --budget 5 -v \"R U F D L B R2 U2 F2\"\n  solve --puzzle 2x2 \"R U R' U'\"\n  solve --random 10 --seed 1 --json --csv experiment.csv\n  solve --metric qtm --timeout 60 --file positions.txt\n\nExit status: 0 every position solved (optimally, or within --max-length by two-phase); 1 some\nposition invalid, timed out or beyond --max-length (the others are still solved); 2 nothing could be done (arguments, tables)."
)]
pub struct Args {
    /// Print this program's shell completions (bash, zsh, fish, elvish, powershell) or its man
    /// page (man) to standard output, and exit.
    #[arg(long, value_enum, value_name = "WHAT", exclusive = true)]
    generate: Option<crate::cli::Generated>,
    /// Positions to solve.
    positions: Vec<String>,
    /// Puzzle that move sequences are applied to (sticker strings name their own); default 3x3.
    #[arg(long, value_enum)]
    puzzle: Option<Puzzle>,
    /// How positions are written. auto: Reid's notation if it has that shape (20 pieces), a
    /// sticker string if 24 or 54 letters, an error if more than 20 letters without spaces
    /// otherwise, else moves.
    #[arg(long, value_enum, default_value_t = Form::Auto, value_name = "FORM")]
    format: Form,
    /// Positions are move sequences (--format moves).
    #[arg(long, conflicts_with_all = ["format", "stickers"])]
    moves: bool,
    /// Positions are sticker strings (--format stickers).
    #[arg(long, conflicts_with = "format")]
    stickers: bool,
    /// Metric to be optimal in.
    #[arg(long, value_enum, default_value_t = Metric::Htm)]
    metric: Metric,
    /// 3x3: how to solve. optimal: the shortest solution, by IDA* over the pattern databases
    /// (seconds to minutes). two-phase: Kociemba's method, a solution of at most --max-length
    /// moves (default 20) in milliseconds, positions solved in parallel; --budget improves it.
    /// layers: a human method in named stages (cross, first-layer corners, second layer,
    /// last-layer cross, orientation and permutation), each stage's moves the shortest for it.
    #[arg(long, value_enum, default_value_t = Method::Optimal)]
    method: Method,
    /// two-phase: go on looking for shorter solutions for this many seconds per position (each
    /// improvement printed with -v); the search stops sooner if it proves its best optimal.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    budget: Option<Duration>,
    /// Directory holding the tables. Default: $CUBELAB_DATA if set, else ./data if it exists,
    /// else the per-user data directory (on Linux ~/.local/share/cubelab).
    #[arg(long, default_value_os_t = cubelab::table::default_data_dir())]
    data_dir: PathBuf,
    /// Read positions from FILE, one per line ('#' starts a comment).
    #[arg(long)]
    file: Option<PathBuf>,
    /// Solve N uniformly random positions of --puzzle (drawn one at a time, as solved).
    #[arg(long, value_name = "N")]
    random: Option<u64>,
    /// Seed for --random.
    #[arg(long, default_value_t = 1, requires = "random")]
    seed: u64,
    /// Solve only every N-th position, starting at the K-th (from 0), of all the positions
    /// given (arguments, --file, --random: every shard reads or draws them all), so that N
    /// processes share an experiment with no coordinator, e.g. a Slurm array task as
    /// `--shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT`. `stats experiment` merges the
    /// shards' --csv files and names the positions none solved.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Print every optimal solution, not just one. On the 3x3, a position that symmetries keep
    /// has its solutions printed one per class of symmetric images (the first in canonical
    /// order), with the count of all of them; --no-symmetry prints each.
    #[arg(long)]
    all: bool,
    /// One JSON object per position per line instead of text.
    #[arg(long)]
    json: bool,
    /// Also append one CSV row per position to FILE (written with a header when new).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// 3x3: give up on a position beyond this many moves (status max-length). two-phase: the
    /// longest solution wanted, default 20 (every position has one).
    #[arg(long, value_name = "N")]
    max_length: Option<u32>,
    /// 3x3: give up on a position after this many seconds (status timeout).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
    /// 3x3: search threads (1 to 1024); default all cores.
    #[arg(long, value_name = "N", value_parser = crate::cli::parse_threads)]
    threads: Option<usize>,
    /// 3x3: the table the heuristic reads: a ud-* coset table (read along three axes, for
    /// the position and its inverse; see gen-tables --list for sizes), an h48-* table (cosets
    /// reduced by all 48 symmetries, or a coarser rung read off them; read once for each), phase1 (with the corner table,
    /// along three axes), or edges7 or edges6 (with the corner table: Korf's method).
    /// With --method layers, the table of the last step's optimal search. Default: h48-eo6
    /// (half turns; gen-tables builds it), ud-layers-f4 with --metric qtm.
    #[arg(long, value_enum, value_name = "TABLE")]
    tables: Option<TableKind>,
    /// 3x3: report the first optimal solution in canonical order, the same on every run and
    /// with any number of threads (by default the first one any thread finds ends the search).
    #[arg(long)]
    deterministic: bool,
    /// 3x3: do not also bound nodes by their inverse position's heuristic (the dual lookup,
    /// on by default: it saves more search than it costs, see reports/performance-log.md).
    #[arg(long)]
    no_dual: bool,
    /// 3x3: do not use the symmetries that keep the position (by default a search skips the
    /// subtrees whose first moves are the image of others' under them; the superflip, kept by
    /// all 48, is searched about 30 times faster).
    #[arg(long)]
    no_symmetry: bool,
    /// Also draw each position solved as the unfolded cube, coloured on a terminal (text
    /// output; `stats draw` writes a picture file).
    #[arg(long, conflicts_with = "json")]
    show: bool,
    /// When nets (--show, --print-state) are painted: auto (when standard output is a
    /// terminal and NO_COLOR is not set), always or never.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    color: When,
    /// The colours nets are painted in, for U R F D L B, by name or #rrggbb (default: white
    /// red green yellow orange blue, as `stats draw`).
    #[arg(long, value_name = "SIX COLOURS")]
    colours: Option<String>,
    /// Also draw each position solved into DIR as a 3D picture (isometric, from above with U F
    /// R in view beside from below with D F R, so the first layer shows too), and with
    /// --method layers the cube after each stage: <n>-0-position.png, then
    /// <n>-<k>-<stage>.png, n the position's number (from 0). Created if missing; pictures of
    /// the same names are replaced.
    #[arg(long, value_name = "DIR")]
    draw: Option<PathBuf>,
    /// The pictures' format with --draw.
    #[arg(long, value_enum, default_value_t = ChartFormat::Png, requires = "draw")]
    draw_format: ChartFormat,
    /// Print each position instead of solving it: its sticker string, Reid's notation (3x3)
    /// and its net, coloured on a terminal. Needs no tables.
    #[arg(long)]
    print_state: bool,
    /// Also print each solution inverted: the sequence that makes the position from a solved
    /// cube (with --random, a random-state scramble).
    #[arg(long)]
    inverse: bool,
    /// 3x3: also print every IDA* iteration (bound, nodes, time).
    #[arg(long, short)]
    verbose: bool,
    /// Solve optimally within the subgroup these generators generate, from its table
    /// (gen-tables --generators); a position outside the group is an error. Written as for
    /// gen-tables: "U R", or "R U R' U', D" (commas separate sequences). 2x2 positions are
    /// solved as held with the DBL corner in place.
    #[arg(long, value_name = "GENERATORS", conflicts_with_all = ["tables", "all", "deterministic", "no_dual", "no_symmetry", "metric", "random"])]
    generators: Option<String>,
    /// How distances in the subgroup count (with --generators): generators, htm, qtm or
    /// directed, as for gen-tables.
    #[arg(long, value_enum, default_value_t = GroupMetric::Generators, requires = "generators")]
    group_metric: GroupMetric,
    /// 3x3: solve a partial goal optimally instead of the whole cube, from the goal's table
    /// (built on the first use into --data-dir, seconds for most goals), in --metric. By name:
    /// cross, xcross (cross and any one pair), xxcross and xxxcross (two or three pairs at
    /// once, searched: milliseconds and about a second), f2l (the first two layers, searched
    /// over the xcross and 2x2x3 tables: about a second), f2l-pair, eo, eoline, eocross, dr
    /// (domino reduction), roux-fb, 2x2x2 (any of the four on D), 2x2x3 (any of four), ll (the
    /// last layer: from a position whose first two layers are solved, the whole cube, by the
    /// optimal solver and its --tables); or a piece
    /// mask, terms separated by spaces or commas: an edge (DF) or corner (DFR) home, a layer
    /// (U D F B L R: its edges and corners), a slice (E M S: its edges), edges, corners; a
    /// term with /o asks only for orientation (DF/o), and edges/o, corners/o for every edge or
    /// corner (with pieces named home: `DF DB edges/o` is EOLine); a term with /p only for
    /// placement among its own slots, any order (`E/p edges/o corners/o` is dr). Each piece
    /// once.
    #[arg(long, value_name = "GOAL", conflicts_with_all = ["generators", "method", "budget", "deterministic", "no_dual", "no_symmetry", "print_state", "draw", "timeout", "max_length", "show", "inverse", "verbose"])]
    goal: Option<String>,
    /// With --goal: the faces the goal may be built on. fixed: as written (the cross on D);
    /// dual: D or U; 6: any face; 24: any of the cube's orientations (the same as 6 for a goal
    /// that quarter turns about U-D keep, such as the cross). The answer names the face used.
    #[arg(long, value_enum, default_value_t = Orientations::Fixed, requires = "goal")]
    orientations: Orientations,
}

/// The most seconds --timeout takes: about 31 years, far below where a duration overflows.
const MAX_TIMEOUT_SECONDS: f64 = 1e9;

/// A --timeout: a number of seconds from 0 to [`MAX_TIMEOUT_SECONDS`], fractions allowed.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(0.0..=MAX_TIMEOUT_SECONDS).contains(&seconds) {
        return Err(format!(
            "{text} seconds is outside 0 to {MAX_TIMEOUT_SECONDS:.0}"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// The most search threads: more only adds switching, and a typo such as 100000 would spend
/// minutes starting threads.
/// When to paint nets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum When {
    Auto,
    Always,
    Never,
}

/// The colours to paint nets in, if they are painted (see `--color`).
fn palette(args: &Args) -> Result<Option<Palette>, String> {
    let scheme = match &args.colours {
        Some(text) => Scheme::parse(text).map_err(|e| e.to_string())?,
        None => Scheme::STANDARD,
    };
    let paint = match args.color {
        When::Always => true,
        When::Never => false,
        When::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    Ok(paint.then(|| *scheme.colours()))
}

/// Runs what the arguments ask for; the exit status follows [`crate::cli::exit_status`].
pub fn run(args: Args) -> ExitCode {
    if let Some(what) = args.generate {
        return crate::cli::print_generated(what, <Args as clap::CommandFactory>::command());
    }
    crate::cli::exit_status("solve", execute(&args))
}

/// Solves and prints every position as it is read; true if every one was solved as asked
/// (optimally, or within --max-length by two-phase).
fn execute(args: &Args) -> Result<bool, String> {
    if let Some(goal) = &args.goal {
        return goal::execute_goal(args, goal);
    }
    let palette = palette(args)?;
    check_method(args)?;

    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let form = match (args.moves, args.stickers) {
        (true, _) => Form::Moves,
        (_, true) => Form::Stickers,
        _ => args.format,
    };
    let group = match &args.generators {
        Some(text) => Some(
            GroupSpec::parse(args.puzzle.unwrap_or(Puzzle::Cube), text, args.group_metric)
                .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    let solvers = Solvers::new(&args.data_dir);
    let file = args.file.as_deref().map(PositionFile::open).transpose()?;
    if let Some(file) = &file {
        file.check_not_stdout()?;
        if let Some(csv) = &args.csv {
            file.check_not_output(csv, "--csv")?;
        }
    }
    let mut csv = match &args.csv {
        Some(path) => Some(ExperimentWriter::append(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let experiment = Experiment::of(args, file.as_ref());
    let mut all_solved = true;
    let stdout = std::io::stdout();
    let mut inputs = inputs(args, file);
    let batch = batch_size(args);
    loop {
        let mut read = Vec::with_capacity(batch);
        let mut failure = None;
        for input in inputs.by_ref().take(batch) {
            match input {
                Ok(input) => read.push(input),
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        if read.is_empty() {
            return failure.map_or(Ok(all_solved), Err);
        }
        let indices: Vec<u64> = read.iter().map(|input| input.index).collect();
        let positions: Vec<(String, Result<Position, String>)> = read
            .into_iter()
            .map(|Input { shown, text, .. }| {
                let position = text
                    .and_then(|t| parse_position(&t, args.puzzle, form).map_err(|e| e.to_string()));
                (shown, position)
            })
            .collect();
        if args.print_state {
            for (shown, position) in &positions {
                let mut out = stdout.lock();
                let written = write_state(&mut out, args, palette.as_ref(), shown, position)
                    .and_then(|()| out.flush());
                if let Some(end) = output_ended(written) {
                    return end.map(|()| all_solved);
                }
                all_solved &= position.is_ok();
            }
        } else {
            let outcomes = solve_batch(args, &solvers, group.as_ref(), &positions)?;
            for (((shown, position), outcome), index) in
                positions.iter().zip(&outcomes).zip(&indices)
            {
                all_solved &= outcome.solved();
                let puzzle = position.as_ref().map_or(args.puzzle, |p| Some(p.puzzle()));
                let mut out = stdout.lock();
                let written = if args.json {
                    write_json(&mut out, args, shown, puzzle, outcome)
                } else {
                    write_text(&mut out, args, shown, outcome).and_then(|()| match position {
                        Ok(Position::Pocket(c)) if args.show => {
                            write_net(&mut out, palette.as_ref(), &c.to_facelets())
                        }
                        Ok(Position::Cube(c)) if args.show => {
                            write_net(&mut out, palette.as_ref(), &c.to_facelets()).and_then(|()| {
                                match outcome {
                                    Outcome::Layers { steps, .. } => {
                                        write_stage_nets(&mut out, palette.as_ref(), c, steps)
                                    }
                                    _ => Ok(()),
                                }
                            })
                        }
                        _ => Ok(()),
                    })
                };
                if let Some(end) = output_ended(written.and_then(|()| out.flush())) {
                    return end.map(|()| all_solved);
                }
                if let (Some(dir), Ok(position)) = (&args.draw, position) {
                    draw_pictures(dir, args, *index, position, outcome)?;
                }
                if let Some(writer) = csv.as_mut() {
                    let row = csv_row(args, &experiment, *index, shown, puzzle, outcome);
                    writer.write(&row).map_err(|e| e.to_string())?;
                }
            }
        }
        if let Some(e) = failure {
            return Err(e);
        }
    }
}

/// The pictures `--draw` asks for of one position: the position, and after each stage of a
/// layer solution; each path printed to standard error as it is written.
fn draw_pictures(
    dir: &std::path::Path,
    args: &Args,
    index: u64,
    position: &Position,
    outcome: &Outcome,
) -> Result<(), String> {
    let scheme = match &args.colours {
        Some(text) => Scheme::parse(text).map_err(|e| e.to_string())?,
        None => Scheme::STANDARD,
    };
    let mut pictures = vec![("position".to_string(), position.stickers())];
    if let (Position::Cube(cube), Outcome::Layers { steps, .. }) = (position, outcome) {
        pictures.extend(
            stage_positions(cube, steps)
                .into_iter()
                .map(|(stage, c)| (stage.to_string(), c.to_facelets())),
        );
    }
    // Made at the first picture, so that a run that solves nothing leaves no empty folder.
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "--draw {}: not a folder (the pictures go into a folder, one file each); name a \
             folder, new or existing",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("--draw {}: {e}", dir.display()))?;
    for (k, (name, stickers)) in pictures.iter().enumerate() {
        let slug: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let path = dir.join(format!(
            "{index}-{k}-{slug}.{}",
            args.draw_format.extension()
        ));
        draw_position(&path, args.draw_format, stickers, &scheme, View::Cube3dBoth)
            .map_err(|e| e.to_string())?;
        // A note beside the answer: a stderr that cannot be written loses only the note.
        let _ = writeln!(std::io::stderr(), "solve: drew {}", path.display());
    }
    Ok(())
}

/// What a write to standard output means for the run: `None` if it succeeded; a quiet end if
/// the reader has gone (a pipe into `head`, where SIGPIPE has not already ended the process);
/// otherwise (a full disk, a closed descriptor) an error, so that a cut-off output never passes
/// for a complete one.
fn output_ended(written: std::io::Result<()>) -> Option<Result<(), String>> {
    match written {
        Ok(()) => None,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Some(Ok(())),
        Err(e) => Some(Err(crate::cli::stdout_failed(&e))),
    }
}

/// Refuses options that the chosen method does not take, rather than ignore them.
fn check_method(args: &Args) -> Result<(), String> {
    let optimal_only = [
        ("--all", args.all),
        ("--deterministic", args.deterministic),
        ("--no-dual", args.no_dual),
        ("--no-symmetry", args.no_symmetry),
        ("--generators", args.generators.is_some()),
        ("--metric qtm", args.metric != Metric::Htm),
    ];
    if args.method != Method::Optimal
        && let Some((option, _)) = optimal_only.iter().find(|(_, given)| *given)
    {
        return Err(format!(
            "{option} is for --method optimal, not --method {}",
            args.method.name()
        ));
    }
    if args.budget.is_some() && args.method != Method::TwoPhase {
        return Err("--budget is for --method two-phase".into());
    }
    // Limits that nothing would obey are refused, not ignored: a 2x2 solve is an exact table
    // look-up (instant, its length known), and the layer method has no length or time to cut.
    let limits = [
        ("--max-length", args.max_length.is_some()),
        ("--timeout", args.timeout.is_some()),
    ];
    if let Some((option, _)) = limits.iter().find(|(_, given)| *given) {
        if args.puzzle == Some(Puzzle::Pocket) {
            return Err(format!(
                "{option} is for 3x3 searches; a 2x2 solve is a table look-up, always optimal and instant"
            ));
        }
        if args.method == Method::Layers {
            return Err(format!(
                "{option} is for --method optimal and two-phase; --method layers takes every stage's moves, in milliseconds"
            ));
        }
    }
    Ok(())
}

/// How many positions are read and solved together. Two-phase solves take milliseconds each
/// and one thread, so positions are solved in parallel, a batch at a time; the optimal search
/// spreads one position over every thread. Positions typed at a terminal are answered one by
/// one.
fn batch_size(args: &Args) -> usize {
    let from_stdin = args.positions.is_empty() && args.file.is_none() && args.random.is_none();
    if args.method == Method::Optimal || from_stdin {
        return 1;
    }
    let threads = rayon::current_num_threads();
    if args.budget.is_some() {
        threads
    } else {
        64 * threads
    }
}

/// What `args` ask of each search.
fn request(args: &Args) -> Request {
    Request {
        metric: args.metric,
        method: args.method,
        tables: args.tables,
        all: args.all,
        max_length: args.max_length,
        timeout: args.timeout,
        budget: args.budget,
        deterministic: args.deterministic,
        dual: !args.no_dual,
        symmetry: !args.no_symmetry,
        one_thread: false,
        cancel: None,
    }
}

/// Solves a batch of positions, in parallel if there are several (see [`batch_size`]). The
/// solvers they need are opened first, so that a missing table ends the run before any search.
fn solve_batch(
    args: &Args,
    solvers: &Solvers,
    group: Option<&GroupSpec>,
    positions: &[(String, Result<Position, String>)],
) -> Result<Vec<Outcome>, String> {
    use rayon::prelude::*;
    let request = request(args);
    if group.is_none() {
        for position in positions.iter().filter_map(|(_, p)| p.as_ref().ok()) {
            solvers
                .open_for(position.puzzle(), &request)
                .map_err(|e| e.to_string())?;
        }
    }
    let solve = |(shown, position): &(String, Result<Position, String>)| {
        solve_one(args, &request, solvers, group, shown, position)
    };
    if positions.len() > 1 {
        positions.par_iter().map(solve).collect()
    } else {
        positions.iter().map(solve).collect()
    }
}

/// Solves one position, printing the search's progress with -v.
fn solve_one(
    args: &Args,
    request: &Request,
    solvers: &Solvers,
    group: Option<&GroupSpec>,
    shown: &str,
    position: &Result<Position, String>,
) -> Result<Outcome, String> {
    let position = match position {
        Ok(position) => position,
        Err(message) => return Ok(Outcome::Invalid(message.clone())),
    };
    let verbose = args.verbose && !args.json;
    // A closed standard output is noticed when the answer is written.
    let mut progress = |event: Progress| match event {
        Progress::Iteration(it) if verbose => {
            let _ = writeln!(
                std::io::stdout(),
                "{shown}: bound {} searched: {} nodes in {:.3} s",
                it.bound,
                it.nodes,
                it.seconds
            );
        }
        Progress::Improvement(found) if verbose => {
            let _ = writeln!(
                std::io::stdout(),
                "{shown}: {} moves (phase 1: {}) after {:.3} s",
                found.length,
                found.phase1,
                found.seconds
            );
        }
        _ => {}
    };
    match group {
        Some(spec) => solvers.solve_in_group(position, spec),
        None => solvers.solve(position, request, &mut progress),
    }
    .map_err(|e| e.to_string())
}

/// What lengths count: the metric, or the group's moves.
fn metric_name(args: &Args, outcome: &Outcome) -> String {
    match (outcome, &args.generators) {
        (Outcome::Group { .. }, Some(_)) => {
            format!("{} in the group", args.group_metric.name())
        }
        _ => args.metric.name().to_string(),
    }
}
