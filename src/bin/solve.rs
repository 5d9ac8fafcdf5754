//! solve: optimal solutions for cube positions, from the tables gen-tables built.

use clap::Parser;
use cubelab::cube::{Cube2, Cube3, Metric, Move};
use cubelab::notation::format_moves;
use cubelab::position::{Position, Puzzle, parse_position};
use cubelab::search::heuristic::AnyHeuristic;
use cubelab::search::ida::{IterationStats, SearchLimits, SearchResult, SearchStatus, Solver};
use cubelab::search::pocket::PocketSolver;
use cubelab::table::TableKind;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Find optimal solutions for cube positions. A position is a move sequence (applied to a solved
/// cube) or a sticker string: 24 letters for a 2x2, 54 for a 3x3, faces in the order U R F D L B.
/// Without positions, --file or --random, positions are read from standard input, one per line.
/// Every solution is checked by applying it before it is printed.
#[derive(Parser, Debug)]
#[command(
    name = "solve",
    version,
    after_help = "Examples:\n  solve \"R U R' U' R' F R2 U' R' U' R U R' F'\"\n  solve --puzzle 2x2 \"R U R' U'\"\n  solve --random 10 --seed 1 --json --csv experiment.csv\n  solve --metric qtm --timeout 60 --file positions.txt\n\nExit status: 0 every position solved optimally; 1 some position invalid, timed out or\nbeyond --max-length (the others are still solved); 2 nothing could be done (arguments, tables)."
)]
struct Args {
    /// Positions to solve.
    positions: Vec<String>,
    /// Puzzle that move sequences are applied to (sticker strings name their own); default 3x3.
    #[arg(long, value_enum)]
    puzzle: Option<Puzzle>,
    /// Metric to be optimal in.
    #[arg(long, value_enum, default_value_t = Metric::Htm)]
    metric: Metric,
    /// Directory holding the tables.
    #[arg(long, default_value = "data")]
    data_dir: PathBuf,
    /// Read positions from FILE, one per line ('#' starts a comment).
    #[arg(long)]
    file: Option<PathBuf>,
    /// Solve N uniformly random positions of --puzzle.
    #[arg(long, value_name = "N")]
    random: Option<usize>,
    /// Seed for --random.
    #[arg(long, default_value_t = 1, requires = "random")]
    seed: u64,
    /// Print every optimal solution, not just one.
    #[arg(long)]
    all: bool,
    /// One JSON object per position per line instead of text.
    #[arg(long)]
    json: bool,
    /// Also append one CSV row per position to FILE (written with a header when new).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// 3x3: give up on a position beyond this many moves (status max-length).
    #[arg(long, value_name = "N")]
    max_length: Option<u32>,
    /// 3x3: give up on a position after this many seconds (status timeout).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// 3x3: search threads; default all cores.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// 3x3: the table the heuristic reads: a ud-* coset table (read along three axes, for
    /// the position and its inverse; see gen-tables --list for sizes), phase1 (with the corner
    /// table, along three axes), or edges7 or edges6 (with the corner table: Korf's method).
    #[arg(long, value_enum, default_value_t = TableKind::UdLayersF4, value_name = "TABLE")]
    tables: TableKind,
    /// 3x3: report the first optimal solution in canonical order, the same on every run and
    /// with any number of threads (by default the first one any thread finds ends the search).
    #[arg(long)]
    deterministic: bool,
    /// 3x3: do not also bound nodes by their inverse position's heuristic (the dual lookup,
    /// on by default: it saves more search than it costs, see reports/performance.md).
    #[arg(long)]
    no_dual: bool,
    /// 3x3: also print every IDA* iteration (bound, nodes, time).
    #[arg(long, short)]
    verbose: bool,
}

/// What happened to one position.
enum Outcome {
    Pocket {
        solutions: Vec<Vec<Move>>,
        seconds: f64,
    },
    Cube {
        result: SearchResult,
        seconds: f64,
    },
    Invalid(String),
}

impl Outcome {
    fn status(&self) -> &'static str {
        match self {
            Outcome::Pocket { .. } => "optimal",
            Outcome::Cube { result, .. } => match result.status {
                SearchStatus::Optimal => "optimal",
                SearchStatus::Timeout => "timeout",
                SearchStatus::MaxLength => "max-length",
            },
            Outcome::Invalid(_) => "invalid",
        }
    }

    fn solutions(&self) -> &[Vec<Move>] {
        match self {
            Outcome::Pocket { solutions, .. } => solutions,
            Outcome::Cube { result, .. } => &result.solutions,
            Outcome::Invalid(_) => &[],
        }
    }

    fn seconds(&self) -> f64 {
        match self {
            Outcome::Pocket { seconds, .. } | Outcome::Cube { seconds, .. } => *seconds,
            Outcome::Invalid(_) => 0.0,
        }
    }

    fn nodes(&self) -> Option<u64> {
        match self {
            Outcome::Cube { result, .. } => Some(result.nodes()),
            _ => None,
        }
    }

    /// The proven lower bound on the optimal length, for 3x3 searches.
    fn lower_bound(&self) -> Option<u32> {
        match self {
            Outcome::Cube { result, .. } => Some(result.lower_bound),
            _ => None,
        }
    }

    fn iterations(&self) -> &[IterationStats] {
        match self {
            Outcome::Cube { result, .. } => &result.iterations,
            _ => &[],
        }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(all_optimal) => {
            if all_optimal {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(message) => {
            eprintln!("solve: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Solves and prints every position; true if every one was solved optimally.
fn run(args: &Args) -> Result<bool, String> {
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let inputs = gather_inputs(args)?;
    let positions: Vec<Result<Position, String>> = inputs
        .par_iter()
        .map(|text| parse_position(text, args.puzzle).map_err(|e| e.to_string()))
        .collect();
    let wants = |puzzle| {
        positions
            .iter()
            .any(|p| p.as_ref().is_ok_and(|p| p.puzzle() == puzzle))
    };
    let pocket = if wants(Puzzle::Pocket) {
        Some(PocketSolver::open(&args.data_dir, args.metric).map_err(|e| e.to_string())?)
    } else {
        None
    };
    let cube = if wants(Puzzle::Cube) {
        let heuristic = AnyHeuristic::open(&args.data_dir, args.metric, args.tables)
            .map_err(|e| e.to_string())?;
        Some(Solver::new(heuristic))
    } else {
        None
    };
    // 2x2 positions are cheap: solve them all in parallel up front. 3x3 searches are parallel
    // inside, so they run one at a time, printed as each finishes.
    let pocket_outcomes: Vec<Option<Outcome>> = positions
        .par_iter()
        .map(|p| match (p, &pocket) {
            (Ok(Position::Pocket(c)), Some(solver)) => Some(solve_pocket(solver, c, args.all)),
            _ => None,
        })
        .collect();
    let mut csv = open_csv(args)?;
    let mut all_optimal = true;
    let stdout = std::io::stdout();
    for ((input, position), pocket_outcome) in inputs.iter().zip(&positions).zip(pocket_outcomes) {
        let outcome = match (position, pocket_outcome) {
            (Err(message), _) => Outcome::Invalid(message.clone()),
            (_, Some(outcome)) => outcome,
            (Ok(Position::Cube(c)), None) => match &cube {
                Some(solver) => solve_cube(args, solver, input, c)?,
                None => Outcome::Invalid("the 3x3 tables are not loaded".into()),
            },
            (Ok(Position::Pocket(_)), None) => {
                Outcome::Invalid("the 2x2 table is not loaded".into())
            }
        };
        all_optimal &= outcome.status() == "optimal";
        let puzzle = position.as_ref().map_or(args.puzzle, |p| Some(p.puzzle()));
        let mut out = stdout.lock();
        let written = if args.json {
            write_json(&mut out, args, input, puzzle, &outcome)
        } else {
            write_text(&mut out, args, input, &outcome)
        };
        if written.is_err() {
            // Standard output closed (a pipe into `head`, say): nothing more to say.
            return Ok(all_optimal);
        }
        if let Some(writer) = csv.as_mut() {
            write_csv(writer, args, input, puzzle, &outcome)?;
        }
    }
    Ok(all_optimal)
}

/// Positions from the arguments, --file and --random, or else from standard input.
fn gather_inputs(args: &Args) -> Result<Vec<String>, String> {
    let mut inputs = args.positions.clone();
    if let Some(path) = &args.file {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let lines = read_lines(std::io::BufReader::new(file));
        inputs.extend(lines.map_err(|e| format!("{}: {e}", path.display()))?);
    }
    if let Some(count) = args.random {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
        let puzzle = args.puzzle.unwrap_or(Puzzle::Cube);
        inputs.extend((0..count).map(|_| match puzzle {
            Puzzle::Pocket => Cube2::random(&mut rng).to_facelets(),
            Puzzle::Cube => Cube3::random(&mut rng).to_facelets(),
        }));
    }
    if args.positions.is_empty() && args.file.is_none() && args.random.is_none() {
        let stdin = std::io::stdin();
        if stdin.is_terminal() {
            eprintln!("solve: reading positions from standard input, one per line (Ctrl-D ends)");
        }
        inputs.extend(read_lines(stdin.lock()).map_err(|e| format!("standard input: {e}"))?);
    }
    Ok(inputs)
}

/// Non-empty lines with `#` comments removed.
fn read_lines(reader: impl BufRead) -> std::io::Result<Vec<String>> {
    let mut lines = Vec::new();
    for line in reader.lines() {
        let line = line?;
        let text = line.split('#').next().unwrap_or("").trim();
        if !text.is_empty() {
            lines.push(text.to_string());
        }
    }
    Ok(lines)
}

fn solve_pocket(solver: &PocketSolver, cube: &Cube2, all: bool) -> Outcome {
    let start = Instant::now();
    let result = if all {
        solver.solve_all(cube)
    } else {
        solver.solve(cube).map(|s| vec![s])
    };
    match result {
        Ok(solutions) => Outcome::Pocket {
            solutions,
            seconds: start.elapsed().as_secs_f64(),
        },
        Err(e) => Outcome::Invalid(e.to_string()),
    }
}

fn solve_cube(args: &Args, solver: &Solver, input: &str, cube: &Cube3) -> Result<Outcome, String> {
    let limits = SearchLimits {
        max_length: args.max_length,
        timeout: args.timeout.map(Duration::from_secs_f64),
        all: args.all,
        dual: !args.no_dual,
        deterministic: args.deterministic,
    };
    let start = Instant::now();
    let verbose = args.verbose && !args.json;
    let result = solver
        .solve(cube, limits, |it| {
            if verbose {
                println!(
                    "{input}: bound {} searched: {} nodes in {:.3} s",
                    it.bound, it.nodes, it.seconds
                );
            }
        })
        .map_err(|e| e.to_string())?;
    Ok(Outcome::Cube {
        result,
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn write_text(
    out: &mut impl Write,
    args: &Args,
    input: &str,
    outcome: &Outcome,
) -> std::io::Result<()> {
    if let Outcome::Invalid(message) = outcome {
        eprintln!("solve: error: {input}: {message}");
        return Ok(());
    }
    let metric = args.metric;
    let mut effort = format!("{:.3} s", outcome.seconds());
    if let Some(nodes) = outcome.nodes() {
        effort = format!("{nodes} nodes, {effort}");
    }
    let solutions = outcome.solutions();
    match outcome.status() {
        "optimal" => {
            let length = solutions.first().map_or(0, |s| metric.length(s));
            if solutions.len() == 1 {
                let text = if length == 0 {
                    "(solved)".to_string()
                } else {
                    format_moves(&solutions[0])
                };
                writeln!(out, "{input}: {text} ({length} {metric}; {effort})")
            } else {
                writeln!(
                    out,
                    "{input}: {} optimal solutions of length {length} ({metric}; {effort})",
                    solutions.len()
                )?;
                solutions
                    .iter()
                    .try_for_each(|s| writeln!(out, "  {}", format_moves(s)))
            }
        }
        status => {
            let bound = outcome.iterations().last().map_or(0, |i| i.bound);
            writeln!(
                out,
                "{input}: gave up ({status}): no solution of {bound} moves or fewer below that bound's search ({metric}; {effort})"
            )
        }
    }
}

fn write_json(
    out: &mut impl Write,
    args: &Args,
    input: &str,
    puzzle: Option<Puzzle>,
    outcome: &Outcome,
) -> std::io::Result<()> {
    let mut line = serde_json::json!({
        "input": input,
        "puzzle": puzzle.map(Puzzle::name),
        "metric": args.metric,
        "status": outcome.status(),
    });
    match outcome {
        Outcome::Invalid(message) => line["error"] = message.as_str().into(),
        _ => {
            let solutions = outcome.solutions();
            if let Some(first) = solutions.first() {
                line["solution"] = format_moves(first).into();
                line["length"] = args.metric.length(first).into();
            }
            if args.all {
                line["solutions"] = solutions.iter().map(|s| format_moves(s)).collect();
            }
            if let Some(at_least) = outcome.lower_bound().filter(|_| solutions.is_empty()) {
                line["lower_bound"] = at_least.into();
            }
            if let Some(nodes) = outcome.nodes() {
                line["nodes"] = nodes.into();
                line["iterations"] = serde_json::to_value(outcome.iterations()).unwrap_or_default();
            }
            line["seconds"] = outcome.seconds().into();
        }
    }
    writeln!(out, "{line}")
}

/// The columns of `--csv` files, which `stats experiment` reads.
const CSV_HEADER: [&str; 10] = [
    "input",
    "puzzle",
    "metric",
    "status",
    "length",
    "lower_bound",
    "nodes",
    "seconds",
    "solution",
    "iterations",
];

fn open_csv(args: &Args) -> Result<Option<csv::Writer<std::fs::File>>, String> {
    let Some(path) = &args.csv else {
        return Ok(None);
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let new = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
    let mut writer = csv::Writer::from_writer(file);
    if new {
        writer
            .write_record(CSV_HEADER)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(Some(writer))
}

/// One row; `iterations` is `bound:nodes:seconds` per iteration, separated by spaces.
fn write_csv(
    writer: &mut csv::Writer<std::fs::File>,
    args: &Args,
    input: &str,
    puzzle: Option<Puzzle>,
    outcome: &Outcome,
) -> Result<(), String> {
    let first = outcome.solutions().first();
    let iterations: Vec<String> = outcome
        .iterations()
        .iter()
        .map(|i| format!("{}:{}:{:.6}", i.bound, i.nodes, i.seconds))
        .collect();
    let record = [
        input.to_string(),
        puzzle.map_or("", Puzzle::name).to_string(),
        args.metric.name().to_string(),
        outcome.status().to_string(),
        first
            .map(|s| args.metric.length(s).to_string())
            .unwrap_or_default(),
        outcome
            .lower_bound()
            .filter(|_| first.is_none())
            .map(|b| b.to_string())
            .unwrap_or_default(),
        outcome.nodes().map(|n| n.to_string()).unwrap_or_default(),
        format!("{:.6}", outcome.seconds()),
        first.map(|s| format_moves(s)).unwrap_or_default(),
        iterations.join(" "),
    ];
    writer
        .write_record(&record)
        .and_then(|()| Ok(writer.flush()?))
        .map_err(|e| e.to_string())
}
