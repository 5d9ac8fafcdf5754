//! solve: optimal solutions for cube positions, from the tables gen-tables built.

use clap::Parser;
use cubelab::cube::{Cube2, Cube3, Metric, Move};
use cubelab::notation::format_moves;
use cubelab::position::{Position, Puzzle, parse_position};
use cubelab::search::pocket::PocketSolver;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Find optimal solutions for cube positions. A position is a move sequence (applied to a solved
/// cube) or a sticker string: 24 letters for a 2x2, 54 for a 3x3, faces in the order U R F D L B.
/// Without positions, --file or --random, positions are read from standard input, one per line.
#[derive(Parser, Debug)]
#[command(
    name = "solve",
    version,
    after_help = "Examples:\n  solve --puzzle 2x2 \"R U R' U'\"\n  solve UFRDBLUFRDBLUFRDBLUFRDBL... (24 or 54 letters)\n  solve --puzzle 2x2 --random 10000 --seed 1 --json\n  solve --puzzle 2x2 --metric qtm --all --file positions.txt"
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
}

/// What happened to one position.
enum Outcome {
    Solved {
        solutions: Vec<Vec<Move>>,
        seconds: f64,
    },
    Invalid(String),
}

fn main() -> ExitCode {
    let args = Args::parse();
    let inputs = match gather_inputs(&args) {
        Ok(inputs) => inputs,
        Err(message) => return fail(&message),
    };
    let positions: Vec<Result<Position, String>> = inputs
        .par_iter()
        .map(|text| parse_position(text, args.puzzle).map_err(|e| e.to_string()))
        .collect();
    let needs_pocket = positions
        .iter()
        .any(|p| matches!(p, Ok(Position::Pocket(_))));
    let pocket = match needs_pocket.then(|| PocketSolver::open(&args.data_dir, args.metric)) {
        Some(Err(e)) => return fail(&e.to_string()),
        Some(Ok(solver)) => Some(solver),
        None => None,
    };
    let outcomes: Vec<Outcome> = positions
        .par_iter()
        .map(|position| match position {
            Err(message) => Outcome::Invalid(message.clone()),
            Ok(Position::Pocket(cube)) => match &pocket {
                Some(solver) => solve_pocket(solver, cube, args.all),
                None => Outcome::Invalid("the 2x2 table is not loaded".into()),
            },
            Ok(Position::Cube(cube)) => unsupported(cube),
        })
        .collect();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut failures = 0;
    for ((input, position), outcome) in inputs.iter().zip(&positions).zip(&outcomes) {
        let puzzle = position.as_ref().map_or(args.puzzle, |p| Some(p.puzzle()));
        if matches!(outcome, Outcome::Invalid(_)) {
            failures += 1;
        }
        let written = if args.json {
            write_json(&mut out, &args, input, puzzle, outcome)
        } else {
            write_text(&mut out, &args, input, outcome)
        };
        if written.is_err() {
            // Standard output closed (a pipe into `head`, say): nothing more to say.
            return ExitCode::SUCCESS;
        }
    }
    let _ = out.flush();
    if failures > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("solve: error: {message}");
    ExitCode::from(2)
}

/// Positions from the arguments, --file and --random, or else from standard input.
fn gather_inputs(args: &Args) -> Result<Vec<String>, String> {
    let mut inputs = args.positions.clone();
    if let Some(path) = &args.file {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        inputs.extend(
            read_lines(std::io::BufReader::new(file))
                .map_err(|e| format!("{}: {e}", path.display()))?,
        );
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
        Ok(solutions) => Outcome::Solved {
            solutions,
            seconds: start.elapsed().as_secs_f64(),
        },
        Err(e) => Outcome::Invalid(e.to_string()),
    }
}

fn unsupported(_cube: &Cube3) -> Outcome {
    Outcome::Invalid(
        "optimal 3x3 solving is not built yet; only 2x2 positions can be solved (use --puzzle 2x2 for 2x2 move sequences)"
            .into(),
    )
}

fn write_text(
    out: &mut impl Write,
    args: &Args,
    input: &str,
    outcome: &Outcome,
) -> std::io::Result<()> {
    match outcome {
        Outcome::Invalid(message) => {
            eprintln!("solve: error: {input}: {message}");
            Ok(())
        }
        Outcome::Solved { solutions, .. } => {
            let length = solutions.first().map_or(0, |s| args.metric.length(s));
            if solutions.len() == 1 {
                let text = if length == 0 {
                    "(solved)".to_string()
                } else {
                    format_moves(&solutions[0])
                };
                writeln!(out, "{input}: {text} ({length} {})", args.metric)
            } else {
                writeln!(
                    out,
                    "{input}: {} optimal solutions of length {length} ({})",
                    solutions.len(),
                    args.metric
                )?;
                solutions
                    .iter()
                    .try_for_each(|s| writeln!(out, "  {}", format_moves(s)))
            }
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
    let puzzle = puzzle.map(Puzzle::name);
    let line = match outcome {
        Outcome::Invalid(message) => serde_json::json!({
            "input": input, "puzzle": puzzle, "metric": args.metric,
            "status": "invalid", "error": message,
        }),
        Outcome::Solved { solutions, seconds } => {
            let length = solutions.first().map_or(0, |s| args.metric.length(s));
            let mut line = serde_json::json!({
                "input": input, "puzzle": puzzle, "metric": args.metric,
                "status": "optimal",
                "solution": solutions.first().map(|s| format_moves(s)).unwrap_or_default(),
                "length": length, "seconds": seconds,
            });
            if args.all {
                line["solutions"] = solutions.iter().map(|s| format_moves(s)).collect();
            }
            line
        }
    };
    writeln!(out, "{line}")
}
