//! `cubelab coset`: every position of a coset of H = <U, D, R2, L2, F2, B2> at once (see
//! [`crate::search::coset`]).

use crate::catalogue::TableKind;
use crate::model::cube::Cube3;
use crate::model::cube::Metric;
use crate::model::position::{Form, Position, Puzzle, parse_position};
use crate::search::coset::{CosetLimits, CosetResult, CosetSolver, DepthCount, Progress};
use crate::search::heuristic::missing_tables_of;
use crate::search::into_h::DistanceIntoH;
use crate::support::units::thousands;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What to compute for one coset.
#[derive(Clone, Debug)]
pub struct CosetArgs {
    /// The coset's name: a move sequence or a position (the coset H·position).
    pub name: String,
    pub limits: CosetLimits,
    pub json: bool,
    pub csv: bool,
}

/// Runs the search on one coset and prints its counts; `Ok(false)` if a bound was asked and
/// some position is not within it.
pub fn run_coset(data_dir: &Path, args: &CosetArgs, want_bound: bool) -> Result<bool, String> {
    let representative = representative(&args.name)?;
    missing_tables(data_dir)?;
    let started = Instant::now();
    let spinner = crate::support::units::spinner("coset");
    spinner.set_message("phase-1 turns");
    let solver = open_solver(data_dir)?;
    solver
        .check(&representative, &args.limits)
        .map_err(|e| e.to_string())?;
    spinner.set_message(format!("depth {}", solver.reach(&representative)));
    let stop = AtomicBool::new(false);
    let table = !args.json && !args.csv;
    if table {
        print_header(&args.name)?;
    }
    // The table's rows are printed as their depths end (a deep run takes minutes a depth); a
    // failed write stops the run after the depth it failed at.
    let mut written: Result<(), String> = Ok(());
    let mut on_depth = |d: &DepthCount| {
        spinner.set_message(format!(
            "depth {} done ({} positions), next {}",
            d.depth,
            thousands(d.total),
            d.depth + 1
        ));
        if table && written.is_ok() {
            written = spinner.suspend(|| print_row(d));
            if written.is_err() {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
    };
    let result = solver
        .run(
            &representative,
            &args.limits,
            Progress {
                watch: &[],
                on_depth: &mut on_depth,
                stop: &stop,
            },
        )
        .map_err(|e| e.to_string())?;
    spinner.finish_and_clear();
    written?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        crate::outln!("{}", json(&args.name, &result, seconds))?;
    } else if args.csv {
        print_csv(&result)?;
    } else {
        print_ending(&result, seconds)?;
    }
    Ok(!want_bound || result.bound.is_some())
}

/// The error naming the command that builds the coset search's table, if it is missing.
pub fn missing_tables(data_dir: &Path) -> Result<(), String> {
    missing_tables_of(data_dir, Metric::Htm, &[TableKind::Phase1Sym]).map_err(|e| e.to_string())
}

/// The coset solver over the tables in `data_dir` (its phase-1 turns built: a few seconds).
pub fn open_solver(data_dir: &Path) -> Result<CosetSolver, String> {
    let into_h = DistanceIntoH::open(data_dir).map_err(|e| e.to_string())?;
    CosetSolver::new(into_h).map_err(|e| e.to_string())
}

/// The position whose coset `name` names: a move sequence or a 3x3 position.
pub fn representative(name: &str) -> Result<Cube3, String> {
    match parse_position(name, Some(Puzzle::Cube), Form::Auto) {
        Ok(Position::Cube(cube)) => Ok(cube),
        Ok(Position::Pocket(_)) => Err(format!(
            "'{name}' is a 2x2 position; a coset of H is named by a 3x3 move sequence or position"
        )),
        Err(e) => Err(format!("cannot read the coset '{name}': {e}")),
    }
}

/// The run as one JSON object: `counts` holds the exact counts (index = depth) for the depths
/// phase 1 searched, `reached` the positions first reached at every depth run.
pub fn json(name: &str, result: &CosetResult, seconds: f64) -> serde_json::Value {
    let exact: Vec<u64> = result
        .depths
        .iter()
        .filter(|d| d.exact)
        .map(|d| d.count)
        .collect();
    let unsolved: Vec<String> = result
        .unsolved_positions
        .iter()
        .map(|c| Position::Cube(*c).stickers())
        .collect();
    serde_json::json!({
        "coset": name,
        "counts": exact,
        "reached": result.depths.iter().map(|d| d.count).collect::<Vec<_>>(),
        "depths": result.depths,
        "bound": result.bound,
        "unsolved": result.unsolved,
        "unsolved_positions": unsolved,
        "seconds": seconds,
    })
}

fn print_csv(result: &CosetResult) -> Result<(), String> {
    crate::outln!("depth,count,total,exact,sequences,seconds,prepass_seconds")?;
    for d in &result.depths {
        crate::outln!(
            "{},{},{},{},{},{:.3},{:.3}",
            d.depth,
            d.count,
            d.total,
            d.exact,
            d.sequences,
            d.seconds,
            d.prepass_seconds
        )?;
    }
    Ok(())
}

fn print_header(name: &str) -> Result<(), String> {
    crate::outln!("coset of H·({name})")?;
    crate::outln!(
        "{:>5}  {:>15}  {:>16}  {:>15}  {:>9}  {:>9}",
        "depth",
        "new positions",
        "within depth",
        "phase-1 seqs",
        "seconds",
        "prepass"
    )
}

/// One depth's row; "(within)" marks a depth phase 1 did not search, whose new positions are
/// within it but not necessarily that far.
fn print_row(d: &DepthCount) -> Result<(), String> {
    let mark = if d.exact { "" } else { " (within)" };
    crate::outln!(
        "{:>5}  {:>15}  {:>16}  {:>15}  {:>9.2}  {:>9.2}{mark}",
        d.depth,
        thousands(d.count),
        thousands(d.total),
        thousands(d.sequences),
        d.seconds,
        d.prepass_seconds
    )
}

fn print_ending(result: &CosetResult, seconds: f64) -> Result<(), String> {
    match result.bound {
        Some(bound) => crate::outln!(
            "every position of the coset is within {bound} moves ({:.1} s)",
            seconds
        ),
        None => crate::outln!(
            "{} positions not reached ({:.1} s)",
            thousands(result.unsolved),
            seconds
        ),
    }
}
