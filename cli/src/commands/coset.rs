//! `cubelab coset`: every position of a coset of H = <U, D, R2, L2, F2, B2> at once (see
//! [`cubelab::search::coset`]).

use cubelab::model::cube::Metric;
use cubelab::solving::coset::{
    COSETS, Class, CosetLimits, CosetList, CosetNames, CosetProgress, CosetResult, DISTINCT_COSETS,
    DepthCount, coset_name, finishes, json, missing_tables, open_solver, representative,
};
use cubelab::support::units::thousands;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What to compute for each coset.
#[derive(Clone, Debug)]
pub struct CosetArgs {
    /// Whether the names come from a file (`--file`): CSV rows then start with the coset.
    pub from_file: bool,
    /// The metric whose moves the distances count.
    pub metric: Metric,
    pub limits: CosetLimits,
    pub json: bool,
    pub csv: bool,
}

/// The most a `--file` list may hold: a coset takes seconds to hours, so a longer list is a
/// mistaken file rather than a run.
const LIST_LIMIT: u64 = 64 << 20;

/// The coset names of `path` (`-`: standard input), one a line, blank lines and `#` comments
/// skipped.
pub fn read_names(path: &Path) -> Result<Vec<String>, String> {
    use std::io::Read;
    let shown = path.display();
    let mut text = String::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin()
            .take(LIST_LIMIT + 1)
            .read_to_string(&mut text)
    } else {
        // Looked at before it is opened: opening a FIFO waits for a writer that may never come.
        let metadata = std::fs::metadata(path).map_err(|e| format!("--file {shown}: {e}"))?;
        if !metadata.is_file() {
            return Err(format!(
                "--file {shown} is not a regular file; it takes a file of coset names, one a \
                 line (`cubelab cosets --count N > FILE` writes one), or - for standard input"
            ));
        }
        let file = std::fs::File::open(path).map_err(|e| format!("--file {shown}: {e}"))?;
        file.take(LIST_LIMIT + 1).read_to_string(&mut text)
    };
    read.map_err(|e| format!("--file {shown}: {e} (it takes text, one coset name a line)"))?;
    if text.len() as u64 > LIST_LIMIT {
        return Err(format!(
            "--file {shown} is over {} MiB: split the list and run its parts",
            LIST_LIMIT >> 20
        ));
    }
    let names: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_string)
        .collect();
    if names.is_empty() {
        return Err(format!(
            "--file {shown} names no coset (one move sequence or position a line; \
             `cubelab cosets --count N` lists some)"
        ));
    }
    Ok(names)
}

/// Runs the search on each coset of `names` in turn and prints its counts; `Ok(false)` if a
/// bound was asked and some position of some coset is not within it. Every name is read
/// before the first run, so that a mistake on the last line costs no run; the solver is
/// opened once for all of them.
pub fn run_coset(
    data_dir: &Path,
    names: &[String],
    args: &CosetArgs,
    want_bound: bool,
) -> Result<bool, String> {
    let cosets = names
        .iter()
        .enumerate()
        .map(|(line, name)| {
            representative(name).map_err(|e| {
                if args.from_file {
                    format!("coset {} of the list ({name}): {e}", line + 1)
                } else {
                    e.to_string()
                }
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let finish = finishes(args.metric, &args.limits);
    missing_tables(data_dir, args.metric, finish).map_err(|e| e.to_string())?;
    let spinner = cubelab::support::units::spinner("coset");
    spinner.set_message("phase-1 turns");
    let solver =
        open_solver(data_dir, args.metric, &args.limits, &cosets).map_err(|e| e.to_string())?;
    if args.csv {
        let coset = if args.from_file { "coset," } else { "" };
        crate::outln!("{coset}depth,count,total,exact,sequences,seconds,prepass_seconds")?;
    }
    // Numbering the classes takes a second: once for the whole list.
    spinner.set_message("symmetry classes");
    let list = CosetList::new();
    let mut all_bounded = true;
    for (index, (name, representative)) in names.iter().zip(&cosets).enumerate() {
        let started = Instant::now();
        let which = if cosets.len() > 1 {
            format!("coset {} of {}: ", index + 1, cosets.len())
        } else {
            String::new()
        };
        let class = Class::in_list(&list, representative);
        spinner.set_message(format!("{which}depth {}", solver.reach(representative)));
        let stop = AtomicBool::new(false);
        let table = !args.json && !args.csv;
        if table {
            if index > 0 {
                crate::outln!()?;
            }
            print_header(name, args.metric, &class)?;
        }
        // The table's rows are printed as their depths end (a deep run takes minutes a
        // depth); a failed write stops the run after the depth it failed at.
        let mut written: Result<(), String> = Ok(());
        let mut on_depth = |d: &DepthCount| {
            spinner.set_message(format!(
                "{which}depth {} done ({} positions), next {}",
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
                representative,
                &args.limits,
                CosetProgress {
                    watch: &[],
                    on_depth: &mut on_depth,
                    stop: &stop,
                    on_finish: &|proven, left| {
                        spinner.set_message(format!(
                            "{which}proving the last {} positions one at a time: {} done",
                            thousands(left),
                            thousands(proven)
                        ))
                    },
                },
            )
            .map_err(|e| e.to_string())?;
        written?;
        let seconds = started.elapsed().as_secs_f64();
        spinner.suspend(|| {
            if args.json {
                crate::outln!("{}", json(name, args.metric, &class, &result, seconds))
            } else if args.csv {
                let coset = if args.from_file {
                    format!("{},", csv_field(name))
                } else {
                    String::new()
                };
                print_csv(&coset, &result)
            } else {
                print_ending(&result, seconds)
            }
        })?;
        all_bounded &= result.bound.is_some();
    }
    spinner.finish_and_clear();
    Ok(!want_bound || all_bounded)
}

/// `name` as one CSV field: quoted when it holds a comma or a quote (a position in Reid's
/// notation or a sticker string with separators may).
fn csv_field(name: &str) -> String {
    if name.contains([',', '"']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}

/// The rows of one coset, each after `coset` (its name and a comma, or nothing).
fn print_csv(coset: &str, result: &CosetResult) -> Result<(), String> {
    for d in &result.depths {
        crate::outln!(
            "{coset}{},{},{},{},{},{:.3},{:.3}",
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
    let names = CosetNames::open(data_dir).map_err(|e| e.to_string())?;
    let list = names.list();
    if args.from >= list.len() {
        return Err(format!(
            "--from {} is past the last class ({}): the classes are numbered 0 to {}",
            args.from,
            list.len() - 1,
            list.len() - 1
        ));
    }
    let end = args.from.saturating_add(count).min(list.len());
    if args.csv {
        crate::outln!("class,moves,cosets,distance")?;
    }
    let bar = cubelab::support::units::progress_bar(end - args.from, "cosets");
    // Named in parallel a chunk at a time, printed in order.
    const CHUNK: u64 = 1 << 14;
    for chunk in (args.from..end).step_by(CHUNK as usize) {
        let rows: Vec<ListedCoset> = (chunk..(chunk + CHUNK).min(end))
            .into_par_iter()
            .map(|number| ListedCoset::of(&names, number))
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
    fn of(names: &CosetNames, number: u64) -> Result<ListedCoset, String> {
        let unknown = || format!("class {number} has no coordinate (the list is shorter)");
        let moves = names
            .moves_of(number)
            .map_err(|e| e.to_string())?
            .ok_or_else(unknown)?;
        Ok(ListedCoset {
            number,
            distance: moves.len(),
            moves: coset_name(&moves),
            cosets: names.list().cosets_in(number).ok_or_else(unknown)?,
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
