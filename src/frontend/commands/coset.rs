//! `cubelab coset`: every position of a coset of H = <U, D, R2, L2, F2, B2> at once (see
//! [`crate::search::coset`]).

use crate::catalogue::TableKind;
use crate::model::cube::Cube3;
use crate::model::cube::Metric;
use crate::model::notation::format_moves;
use crate::model::position::{Form, Position, Puzzle, parse_position};
use crate::search::coset::{CosetLimits, CosetResult, CosetSolver, DepthCount, Progress};
use crate::search::cosets::{COSETS, CosetList, DISTINCT_COSETS, name_of};
use crate::search::heuristic::missing_tables_of;
use crate::search::into_h::DistanceIntoH;
use crate::search::twophase::TwoPhaseSolver;
use crate::space::phase1::{Phase1Coord, Phase1Space};
use crate::support::units::thousands;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What to compute for one coset.
#[derive(Clone, Debug)]
pub struct CosetArgs {
    /// The coset's name: a move sequence or a position (the coset H·position).
    pub name: String,
    /// The metric whose moves the distances count.
    pub metric: Metric,
    pub limits: CosetLimits,
    pub json: bool,
    pub csv: bool,
}

/// Runs the search on one coset and prints its counts; `Ok(false)` if a bound was asked and
/// some position is not within it.
pub fn run_coset(data_dir: &Path, args: &CosetArgs, want_bound: bool) -> Result<bool, String> {
    let representative = representative(&args.name)?;
    let finish = finishes(args.metric, &args.limits);
    missing_tables(data_dir, args.metric, finish)?;
    let started = Instant::now();
    let spinner = crate::support::units::spinner("coset");
    spinner.set_message("symmetry class");
    let class = Class::of(&representative);
    spinner.set_message("phase-1 turns");
    let solver = open_solver(data_dir, args.metric, finish)?;
    solver
        .check(&representative, &args.limits)
        .map_err(|e| e.to_string())?;
    spinner.set_message(format!("depth {}", solver.reach(&representative)));
    let stop = AtomicBool::new(false);
    let table = !args.json && !args.csv;
    if table {
        print_header(&args.name, args.metric, &class)?;
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
                on_finish: &|proven, left| {
                    spinner.set_message(format!(
                        "proving the last {} positions one at a time: {} done",
                        thousands(left),
                        thousands(proven)
                    ))
                },
            },
        )
        .map_err(|e| e.to_string())?;
    spinner.finish_and_clear();
    written?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        crate::outln!(
            "{}",
            json(&args.name, args.metric, &class, &result, seconds)
        )?;
    } else if args.csv {
        print_csv(&result)?;
    } else {
        print_ending(&result, seconds)?;
    }
    Ok(!want_bound || result.bound.is_some())
}

/// Whether a run in `metric` within `limits` proves its last positions one at a time (see
/// [`CosetLimits::finishes`]): in HTM only, the two-phase search's metric.
pub fn finishes(metric: Metric, limits: &CosetLimits) -> bool {
    metric == Metric::Htm && limits.finishes()
}

/// The error naming the command that builds a missing table of the coset search: the
/// phase-1 table of `metric`, and with `finish` (see [`finishes`]) the two-phase search's.
pub fn missing_tables(data_dir: &Path, metric: Metric, finish: bool) -> Result<(), String> {
    missing_tables_of(data_dir, metric, &[TableKind::Phase1Sym]).map_err(|e| e.to_string())?;
    if finish {
        missing_tables_of(data_dir, Metric::Htm, &TableKind::TWO_PHASE)
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The coset solver over the tables of `metric` in `data_dir` (its phase-1 turns built: a
/// few seconds), with `finish` also the two-phase search that proves a bound run's last
/// positions.
pub fn open_solver(data_dir: &Path, metric: Metric, finish: bool) -> Result<CosetSolver, String> {
    let into_h = DistanceIntoH::open(data_dir, metric).map_err(|e| e.to_string())?;
    let solver = CosetSolver::new(into_h).map_err(|e| e.to_string())?;
    if !finish {
        return Ok(solver);
    }
    let two_phase = TwoPhaseSolver::open(data_dir).map_err(|e| e.to_string())?;
    Ok(solver.with_two_phase(two_phase))
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

/// A coset's symmetry class (see [`crate::search::cosets`]).
pub struct Class {
    /// Its number among the symmetry-distinct cosets.
    pub number: u64,
    /// How many cosets it stands for.
    pub cosets: u64,
}

impl Class {
    /// The class of the coset of `representative` (numbering the classes takes a second).
    pub fn of(representative: &Cube3) -> Class {
        let list = CosetList::new();
        let number = list.number_of(Phase1Coord::of(representative));
        Class {
            number,
            cosets: list.cosets_in(number).unwrap_or(1),
        }
    }
}

/// The run as one JSON object: `counts` holds the exact counts (index = depth) for the depths
/// phase 1 searched, `reached` the positions first reached at every depth run; `class` and
/// `class_cosets` say which symmetry class the coset is in and how many cosets that class
/// stands for (the weight of its counts in a whole-cube merge).
pub fn json(
    name: &str,
    metric: Metric,
    class: &Class,
    result: &CosetResult,
    seconds: f64,
) -> serde_json::Value {
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
        "metric": metric,
        "class": class.number,
        "class_cosets": class.cosets,
        "counts": exact,
        "reached": result.depths.iter().map(|d| d.count).collect::<Vec<_>>(),
        "depths": result.depths,
        "bound": result.bound,
        "unsolved": result.unsolved,
        "finished": result.finished,
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

fn print_header(name: &str, metric: Metric, class: &Class) -> Result<(), String> {
    crate::outln!(
        "coset of H·({name}) in {}: symmetry class {} of {}, standing for {} coset{}",
        metric.name().to_uppercase(),
        thousands(class.number),
        thousands(DISTINCT_COSETS),
        class.cosets,
        if class.cosets == 1 { "" } else { "s" }
    )?;
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
        Some(bound) if result.finished > 0 => crate::outln!(
            "every position of the coset is within {bound} moves ({:.1} s; the last {} proven one \
             at a time by the two-phase search)",
            seconds,
            thousands(result.finished)
        ),
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

/// What `cubelab cosets` prints.
#[derive(Clone, Copy, Debug)]
pub struct ListArgs {
    /// The first class listed.
    pub from: u64,
    /// How many classes to list; `None` prints the count of classes instead.
    pub count: Option<u64>,
    pub json: bool,
    pub csv: bool,
}

/// `cubelab cosets`: the symmetry-distinct cosets of H, counted or listed (each named by a
/// shortest move sequence, which `cubelab coset` takes).
pub fn run_cosets(data_dir: &Path, args: &ListArgs) -> Result<(), String> {
    let Some(count) = args.count else {
        return print_count(&CosetList::new(), args);
    };
    missing_tables(data_dir, Metric::Htm, false)?;
    let into_h = DistanceIntoH::open(data_dir, Metric::Htm).map_err(|e| e.to_string())?;
    let list = CosetList::new();
    if args.from >= list.len() {
        return Err(format!(
            "--from {} is past the last class ({}): the classes are numbered 0 to {}",
            args.from,
            list.len() - 1,
            list.len() - 1
        ));
    }
    let end = args.from.saturating_add(count).min(list.len());
    let phase1 = Phase1Space::new(Metric::Htm);
    if args.csv {
        crate::outln!("class,moves,cosets,distance")?;
    }
    let bar = crate::support::units::progress_bar(end - args.from, "cosets");
    // Named in parallel a chunk at a time, printed in order.
    const CHUNK: u64 = 1 << 14;
    for chunk in (args.from..end).step_by(CHUNK as usize) {
        let rows: Vec<ListedCoset> = (chunk..(chunk + CHUNK).min(end))
            .into_par_iter()
            .map(|number| ListedCoset::of(&list, number, &phase1, &into_h))
            .collect::<Result<_, _>>()?;
        for row in &rows {
            bar.suspend(|| row.print(args))?;
        }
        bar.inc(rows.len() as u64);
    }
    bar.finish_and_clear();
    Ok(())
}

fn print_count(list: &CosetList, args: &ListArgs) -> Result<(), String> {
    let distinct = list.len();
    if args.json {
        crate::outln!(
            "{}",
            serde_json::json!({"cosets": COSETS, "distinct": distinct, "published": DISTINCT_COSETS})
        )
    } else if args.csv {
        crate::outln!("cosets,distinct\n{COSETS},{distinct}")
    } else {
        crate::outln!(
            "{} cosets of H, {} up to the 16 symmetries that keep H (published: {}); \
             list them with --count N [--from K]",
            thousands(COSETS),
            thousands(distinct),
            thousands(DISTINCT_COSETS)
        )
    }
}

/// One class of the list.
struct ListedCoset {
    number: u64,
    moves: String,
    cosets: u64,
    distance: usize,
}

impl ListedCoset {
    fn of(
        list: &CosetList,
        number: u64,
        phase1: &Phase1Space,
        into_h: &DistanceIntoH,
    ) -> Result<ListedCoset, String> {
        let unknown = || format!("class {number} has no coordinate (the list is shorter)");
        let c = list.coordinate(number).ok_or_else(unknown)?;
        let moves = name_of(c, phase1, into_h).ok_or_else(|| {
            "the phase1-sym table is not exact (a coordinate has no turn closer to H); \
             rebuild it with `gen-tables --force phase1-sym`"
                .to_string()
        })?;
        Ok(ListedCoset {
            number,
            distance: moves.len(),
            moves: coset_name(&moves),
            cosets: list.cosets_in(number).ok_or_else(unknown)?,
        })
    }

    fn print(&self, args: &ListArgs) -> Result<(), String> {
        if args.json {
            crate::outln!(
                "{}",
                serde_json::json!({"class": self.number, "moves": self.moves,
                    "cosets": self.cosets, "distance": self.distance})
            )
        } else if args.csv {
            crate::outln!(
                "{},{},{},{}",
                self.number,
                self.moves,
                self.cosets,
                self.distance
            )
        } else {
            crate::outln!("{}", self.moves)
        }
    }
}

/// A coset's name as `cubelab coset` reads it: the moves, or `U` (a move of H) for H itself,
/// whose shortest name is empty.
pub fn coset_name(moves: &[crate::model::cube::Move]) -> String {
    if moves.is_empty() {
        "U".to_string()
    } else {
        format_moves(moves)
    }
}
