//! `cubelab puzzle`: any twisty puzzle from its KPuzzle definition (a file, or a name of
//! cubing.js's puzzles written by `scripts/kpuzzle-definitions.mjs`). `gods` runs God's
//! algorithm over the whole space of the moves asked for; `solve` finds optimal solutions.

use crate::report::chart::{Bars, ChartFormat, Labels, Scale, bars_and_marks};
use clap::{Args, Subcommand, ValueEnum};
use cubelab::experiment::{ExperimentRow, ExperimentWriter, Shard, row_puzzle_name};
use cubelab::model::kpuzzle::Metric;
use cubelab::solving::puzzle::{
    DEFAULT_TABLE_STATES, GodsAnswer, GodsOptions, OpenedSolver, PuzzleLimits, PuzzleSolution,
    PuzzleSpace, SolverRequest, SpaceRequest, TableSource, gods, gods_memory, open_definition,
    open_solver, random_scrambles, solve_scramble,
};
use cubelab::support::units::{histogram_table, human_bytes, progress_bar, thousands};
use std::path::{Path, PathBuf};

/// How a power of a generator is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PuzzleMetric {
    /// Every power of a generator is one move (twips's count; the half-turn metric on cubes).
    Htm,
    /// A power k of a generator of order n costs min(k, n - k) (the quarter-turn metric).
    Qtm,
}

/// What every `cubelab puzzle` command asks: the puzzle, its moves, and where named
/// definitions are.
#[derive(Args, Debug)]
pub struct PuzzleArgs {
    /// A KPuzzle definition file (cubing.js's JSON), or the name of one in DATA_DIR/puzzles
    /// (2x2x2, pyraminx, skewb, ...).
    puzzle: String,
    /// Generator moves, comma-separated, as twips takes them: every power of each is a move.
    #[arg(long, value_name = "M1,M2,...", required = true)]
    moves: String,
    /// How a power of a generator is counted.
    #[arg(long, value_enum, default_value_t = PuzzleMetric::Htm)]
    metric: PuzzleMetric,
    /// Orbits whose orientation does not count, comma-separated (e.g. CENTERS).
    #[arg(long, value_name = "ORBIT,...", value_delimiter = ',')]
    ignore_orientation: Vec<String>,
    /// A goal other than solved (a sub-goal): a file, or the text, of cubing.js's pattern
    /// JSON ({"ORBIT": {"pieces": [...], "orientation": [...], "orientationMod": [...]}}, every
    /// orbit). Pieces given one value are alike and an orientationMod of 1 forgets a twist, so
    /// only the pieces that matter are solved: e.g. the 3x3x3's corners alone.
    #[arg(long, value_name = "FILE|JSON")]
    goal: Option<String>,
    /// Where named definitions are (DATA_DIR/puzzles).
    #[arg(long, default_value_os_t = cubelab::table::default_data_dir())]
    data_dir: PathBuf,
}

impl PuzzleArgs {
    fn request(&self) -> Result<SpaceRequest, String> {
        let goal = match &self.goal {
            None => None,
            Some(text) if text.trim_start().starts_with('{') => Some(text.clone()),
            Some(path) => {
                let way_out = "give a pattern JSON file or the JSON itself";
                // A FIFO or a device is never read, so never waited on.
                match std::fs::metadata(path) {
                    // A pattern holds a number a piece: a megabyte is thousands of pieces.
                    Ok(meta) if meta.is_file() && meta.len() > 1 << 24 => {
                        return Err(format!(
                            "--goal {path}: {} bytes is no pattern of a puzzle; {way_out}",
                            meta.len()
                        ));
                    }
                    Ok(meta) if meta.is_file() => {}
                    Ok(_) => return Err(format!("--goal {path}: not a regular file; {way_out}")),
                    Err(e) => return Err(format!("--goal {path}: {e}; {way_out}")),
                }
                Some(
                    std::fs::read_to_string(path)
                        .map_err(|e| format!("--goal {path}: {e}; {way_out}"))?,
                )
            }
        };
        Ok(SpaceRequest {
            moves: self.moves.clone(),
            metric: match self.metric {
                PuzzleMetric::Htm => Metric::Htm,
                PuzzleMetric::Qtm => Metric::Qtm,
            },
            ignore_orientation: self.ignore_orientation.clone(),
            goal,
        })
    }
}

#[derive(Subcommand, Debug)]
pub enum PuzzleCommand {
    /// God's algorithm: every position's distance under the moves, by breadth-first search
    /// over a packed table on all cores; the counts at each distance, God's number and the
    /// antipodes. The memory it needs is checked before it starts.
    Gods {
        #[command(flatten)]
        what: PuzzleArgs,
        /// Worker threads; default: every core.
        #[arg(long, value_name = "N", value_parser = crate::cli::parse_threads)]
        threads: Option<usize>,
        /// Save finished depths here and resume from them: a run stopped (Ctrl-C, kill, a
        /// time limit) and started again with the same arguments goes on from its last saved
        /// depth (a depth is saved once the search since the last save took as long as a save).
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<PathBuf>,
        /// The most antipodes to list.
        #[arg(long, default_value_t = 20, value_name = "N")]
        antipodes: usize,
        /// Also draw the distribution as a bar chart (PNG or SVG by the extension).
        #[arg(long, value_name = "FILE")]
        chart: Option<PathBuf>,
        /// One JSON object: counts (index = distance), total, seconds, antipodes and more.
        #[arg(long)]
        json: bool,
    },
    /// Optimal solutions: IDA* over pattern databases on projections of the puzzle (the
    /// whole puzzle where it fits one table), built by the same engine the first time and kept
    /// in DATA_DIR as puzzle-NAME-FINGERPRINT.tbl, mapped by later runs; every solution is
    /// checked by applying it to the position with the definition's moves.
    Solve {
        #[command(flatten)]
        what: PuzzleArgs,
        /// A position, as the algorithm (in the definition's move names) that makes it; give
        /// it again for more.
        #[arg(long, value_name = "ALG", required_unless_present = "random")]
        scramble: Vec<String>,
        /// Solve N random positions (each 1,000 random moves from solved), drawn from --seed.
        #[arg(long, value_name = "N", conflicts_with = "scramble")]
        random: Option<usize>,
        /// The seed the random positions are drawn from.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Every optimal solution (canonical move orders: commuting moves in one order), with
        /// their count.
        #[arg(long)]
        all: bool,
        /// The most states one pattern database may hold, four a byte (their distances mod 3)
        #[arg(long, value_name = "N", default_value_t = DEFAULT_TABLE_STATES)]
        table_states: u64,
        /// Build the pattern databases in memory for this run only, writing nothing to
        /// DATA_DIR.
        #[arg(long)]
        no_save: bool,
        /// Give up on a position rather than search beyond this many moves.
        #[arg(long, value_name = "N")]
        max_length: Option<u32>,
        /// Give up on a position after this many seconds.
        #[arg(long, value_name = "S")]
        timeout: Option<f64>,
        /// One JSON object a position: scramble, solution, length, optimal, status, seconds
        /// and more.
        #[arg(long)]
        json: bool,
        /// Also append a row a position to this CSV file, as `solve --csv` does: `stats
        /// experiment` summarises such files and merges a sharded run's.
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// Solve only every N-th position (of --random's draw or the --scramble list),
        /// starting at the K-th (from 0): N processes (a Slurm array:
        /// scripts/slurm/submit-puzzles.sh) share an experiment with no coordinator, and `stats
        /// experiment --merged` puts their --csv files together.
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
    },
}

/// Runs a `cubelab puzzle` command.
pub fn run_puzzle(command: PuzzleCommand) -> Result<bool, String> {
    match command {
        PuzzleCommand::Gods {
            what,
            threads,
            checkpoint,
            antipodes,
            chart,
            json,
        } => {
            if let Some(n) = threads {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build_global()
                    .map_err(|e| format!("cannot start {n} threads: {e}"))?;
            }
            let request = what.request()?;
            let output = Output {
                chart,
                json,
                antipodes,
            };
            run_gods(&what.data_dir, &what.puzzle, &request, checkpoint, &output)
        }
        PuzzleCommand::Solve {
            what,
            scramble,
            random,
            seed,
            all,
            table_states,
            no_save,
            max_length,
            timeout,
            json,
            csv,
            shard,
        } => {
            let request = SolverRequest {
                space: what.request()?,
                per_table: table_states,
                tables: (!no_save).then(|| what.data_dir.clone()),
                build_at_most: None,
            };
            let timeout = match timeout {
                Some(s) if !(s.is_finite() && s > 0.0) => {
                    return Err(format!("--timeout {s}: give a number of seconds above 0"));
                }
                s => s.map(std::time::Duration::from_secs_f64),
            };
            let limits = PuzzleLimits {
                all,
                max_length,
                timeout,
            };
            let output = SolveOutput {
                json,
                csv,
                shard: shard.unwrap_or(Shard::WHOLE),
                metric: what.metric,
            };
            run_solve(
                &what.data_dir,
                &what.puzzle,
                &request,
                &scramble,
                random.map(|n| (n, seed)),
                &limits,
                &output,
            )
        }
    }
}

/// What `puzzle solve` writes, and which positions it solves.
struct SolveOutput {
    json: bool,
    csv: Option<PathBuf>,
    shard: Shard,
    metric: PuzzleMetric,
}

fn run_solve(
    data_dir: &Path,
    puzzle: &str,
    request: &SolverRequest,
    scrambles: &[String],
    random: Option<(usize, u64)>,
    limits: &PuzzleLimits,
    output: &SolveOutput,
) -> Result<bool, String> {
    let json = output.json;
    let opened = open_definition(data_dir, puzzle).map_err(|e| e.to_string())?;
    let definition = &opened.definition;
    // The file is opened before any table is built: a path that cannot be written is said at
    // once.
    let mut csv = match &output.csv {
        Some(path) => Some(ExperimentWriter::append(path).map_err(|e| e.to_string())?),
        None => None,
    };
    // Every scramble is read before any table is built.
    for scramble in scrambles {
        definition
            .transformation_of(scramble)
            .map_err(|e| format!("--scramble '{scramble}': {e}"))?;
    }
    let bar = progress_bar(0, "pattern databases");
    let started = std::time::Instant::now();
    let solver = open_solver(definition, request, &bar);
    bar.finish_and_clear();
    let OpenedSolver { solver, sources } = solver.map_err(|e| e.to_string())?;
    if !json {
        eprintln!(
            "{}: {} pattern database(s) in {:.2} s:",
            definition.name(),
            solver.projections().len(),
            started.elapsed().as_secs_f64()
        );
        for (p, source) in solver.projections().iter().zip(&sources) {
            let source = match source {
                TableSource::Built => "built in memory".to_string(),
                TableSource::Written(path) => format!("built, written to {}", path.display()),
                TableSource::Read(path) => format!("read from {}", path.display()),
            };
            eprintln!(
                "  {}: {} states in {}, deepest {}; {source}",
                p.name(),
                thousands(p.states()),
                human_bytes(p.table_bytes()),
                p.deepest()
            );
        }
    }
    let scrambles = match random {
        Some((count, seed)) => random_scrambles(&solver, count, seed),
        None => scrambles.to_vec(),
    };
    // What identifies the experiment in its rows: the shards of one run agree on it.
    let metric = match output.metric {
        PuzzleMetric::Htm => "htm",
        PuzzleMetric::Qtm => "qtm",
    };
    let moves = solver.generators().classes().join(",");
    let source = match random {
        Some((_, seed)) => format!("random {} <{moves}> seed {seed}", definition.name()),
        None => format!("scrambles {} <{moves}>", definition.name()),
    };
    let mut all_optimal = true;
    for (index, scramble) in scrambles.iter().enumerate() {
        if !output.shard.keeps(index as u64) {
            continue;
        }
        let solved =
            solve_scramble(&solver, definition, scramble, limits).map_err(|e| e.to_string())?;
        all_optimal &= solved.optimal;
        if let Some(csv) = &mut csv {
            let row = ExperimentRow {
                input: scramble.clone(),
                puzzle: row_puzzle_name(definition.name()),
                metric: metric.to_string(),
                status: solved.status.to_string(),
                length: solved.length,
                lower_bound: None,
                nodes: Some(solved.nodes),
                seconds: solved.seconds,
                solution: solved.solution.clone().unwrap_or_default(),
                iterations: String::new(),
                index: Some(index as u64),
                total: Some(scrambles.len() as u64),
                source: Some(source.clone()),
                method: Some("optimal".to_string()),
            };
            csv.write(&row).map_err(|e| e.to_string())?;
        }
        if json {
            let line = serde_json::to_string(&solved).map_err(|e| e.to_string())?;
            crate::outln!("{line}")?;
        } else {
            print_solution(&solved, random.is_some())?;
        }
    }
    Ok(all_optimal)
}

fn print_solution(solved: &PuzzleSolution, random: bool) -> Result<(), String> {
    let shown = if random {
        format!(
            "random position ({} moves)",
            solved.scramble.split(' ').count()
        )
    } else {
        solved.scramble.clone()
    };
    match (&solved.solution, solved.length) {
        (Some(solution), Some(length)) => {
            let status = if solved.optimal {
                "optimal"
            } else {
                "not proven optimal"
            };
            crate::outln!(
                "{shown}: {} ({length}, {status}; {} nodes, {:.3} s)",
                if solution.is_empty() {
                    "(solved)"
                } else {
                    solution
                },
                thousands(solved.nodes),
                solved.seconds
            )?;
            if let Some(all) = &solved.solutions {
                crate::outln!("  {} optimal solutions:", all.len())?;
                for s in all {
                    crate::outln!("  {s}")?;
                }
            }
        }
        _ => crate::outln!(
            "{shown}: no solution within the limits ({} nodes, {:.3} s)",
            thousands(solved.nodes),
            solved.seconds
        )?,
    }
    Ok(())
}

/// What a run prints and draws.
struct Output {
    chart: Option<PathBuf>,
    json: bool,
    antipodes: usize,
}

fn run_gods(
    data_dir: &Path,
    puzzle: &str,
    request: &SpaceRequest,
    checkpoint: Option<PathBuf>,
    output: &Output,
) -> Result<bool, String> {
    // A chart's format is checked before the run, not after it.
    let chart_format = output
        .chart
        .as_deref()
        .map(ChartFormat::of_path)
        .transpose()
        .map_err(|e| e.to_string())?;
    let json = output.json;
    let opened = open_definition(data_dir, puzzle).map_err(|e| e.to_string())?;
    let name = opened.definition.name().to_string();
    let space = PuzzleSpace::new(&opened.definition, request).map_err(|e| e.to_string())?;
    // Said before the run, with --json too (on standard error, beside the JSON).
    let (table, moves, bits) = gods_memory(&space.space);
    eprintln!(
        "{name}: {} ranks ({}), {} moves; about {} of memory ({bits}-bit entries, {} of move tables)",
        thousands(space.space.ranks()),
        space.space.describe(),
        space.space.moves(),
        human_bytes(table + moves),
        human_bytes(moves)
    );
    let bar = progress_bar(0, &format!("{name} positions"));
    let options = GodsOptions {
        checkpoint,
        antipodes: output.antipodes,
        memory: None,
    };
    let answer = gods(&space, &name, &options, &bar);
    bar.finish_and_clear();
    let answer = answer.map_err(|e| e.to_string())?;
    if json {
        let line = serde_json::to_string(&answer).map_err(|e| e.to_string())?;
        crate::outln!("{line}")?;
    } else {
        print_answer(&answer)?;
    }
    if let (Some(path), Some(format)) = (&output.chart, chart_format) {
        let title = format!(
            "{} under <{}>: {} positions",
            answer.puzzle,
            request.moves,
            thousands(answer.total)
        );
        let labels = Labels {
            title: &title,
            x: &format!("distance ({})", answer.metric),
            y: "positions",
        };
        let bars = [Bars {
            name: "cubelab".to_string(),
            values: answer.counts.iter().map(|&c| c as f64).collect(),
            intervals: vec![None; answer.counts.len()],
        }];
        bars_and_marks(path, format, &labels, &bars, &[], Scale::LogCount)
            .map_err(|e| e.to_string())?;
        if !json {
            crate::outln!("drew {}", path.display())?;
        }
    }
    Ok(true)
}

fn print_answer(answer: &GodsAnswer) -> Result<(), String> {
    crate::outln!(
        "{} under <{}> ({}): {} positions, God's number {}, {:.2} s{}",
        answer.puzzle,
        answer.moves.join(", "),
        answer.metric,
        thousands(answer.total),
        answer.diameter,
        answer.seconds,
        if answer.resumed {
            " (resumed from a checkpoint)"
        } else {
            ""
        }
    )?;
    crate::out!("{}", histogram_table(&answer.counts))?;
    let shown = if answer.antipodes_sampled {
        format!(
            "{} of the {} antipodes",
            answer.antipodes.len(),
            thousands(answer.counts[answer.diameter])
        )
    } else {
        format!("the {} antipodes", answer.antipodes.len())
    };
    crate::outln!("{shown}, each as an algorithm that makes it:")?;
    for antipode in &answer.antipodes {
        crate::outln!("  {antipode}")?;
    }
    Ok(())
}
