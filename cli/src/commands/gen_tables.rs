//! gen-tables: build cubelab's distance tables into a data directory.

use clap::{Parser, ValueEnum};
use cubelab::bfs::Pass;
use cubelab::catalogue::circuit;
use cubelab::catalogue::group::{self, GroupError, GroupTable, available_memory};
use cubelab::catalogue::{self, Built, catalogue, default_metrics};
use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::Metric;
use cubelab::model::position::Puzzle;
use cubelab::packing::Encoding;
use cubelab::space::group::{GroupMetric, GroupSpace, GroupSpec, Sizes};
use cubelab::support::units::{
    histogram_table, human_bytes, max_depth, mean_depth, progress_bar, rough_duration, spinner,
    thousands,
};
use cubelab::table::{self, BuildLock, TableHeader, Verify};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum MetricChoice {
    Htm,
    Qtm,
    Both,
}

/// Build cubelab's distance tables (breadth-first search of each state space) into a data
/// directory. Valid tables already there are reused unless --force is given.
#[derive(Parser, Debug)]
#[command(
    name = "gen-tables",
    version,
    after_help = "Examples:\n  gen-tables                  build every table the solvers use by default\n  gen-tables --metric both    the same, plus the quarter-turn tables\n  gen-tables --json 2x2       the 2x2 tables, one JSON object per table\n  gen-tables --list           what is present and valid\n  gen-tables --generators \"U R\" --group-metric qtm\n                              the 3x3 <U, R> group in quarter turns\n  gen-tables --generators \"U2 D2 F2 B2 L2 R2\"\n                              the squares group\n  gen-tables --puzzle 2x2 --generators \"U R F\" --group-metric directed\n                              the 2x2 with clockwise quarter turns only\n  gen-tables --generators \"R U R' U', D\"\n                              two generators, one a sequence (commas separate them)\n  gen-tables --puzzle 2x2 --generators \"U R F\" --group-metric qtm --circuit\n                              the devil's algorithm of the 2x2: every position once"
)]
pub struct Args {
    /// Print this program's shell completions (bash, zsh, fish, elvish, powershell) or its man
    /// page (man) to standard output, and exit.
    #[arg(long, value_enum, value_name = "WHAT", exclusive = true)]
    generate: Option<crate::cli::Generated>,
    /// Tables to build (see --list); default: every table the solvers use by default.
    #[arg(value_enum)]
    tables: Vec<TableKind>,
    /// Directory holding the tables. Default: $CUBELAB_DATA if set, else ./data if it exists,
    /// else the per-user data directory (on Linux ~/.local/share/cubelab).
    #[arg(long, default_value_os_t = cubelab::table::default_data_dir())]
    data_dir: PathBuf,
    /// Metric(s) to build; default: each table's default (2x2: both).
    #[arg(long, value_enum)]
    metric: Option<MetricChoice>,
    /// Rebuild tables even if a valid one exists.
    #[arg(long)]
    force: bool,
    /// One JSON object per table per line instead of text.
    #[arg(long)]
    json: bool,
    /// List every known table, its size and whether it is present and valid; build nothing.
    #[arg(long, conflicts_with_all = ["force", "verify", "compress"])]
    list: bool,
    /// Recompute the checksum of every present table; build nothing.
    #[arg(long, conflicts_with_all = ["force", "compress"])]
    verify: bool,
    /// Also write a zstd-compressed copy (<table>.tbl.zst) of each table, for shipping.
    #[arg(long)]
    compress: bool,
    /// How entries are packed: exact distances in 4 bits, or distance mod 3 in 2 bits (half the
    /// size; the search recovers exact values). 2-bit tables are named <table>-mod3.
    #[arg(long, value_enum, default_value_t = Encoding::Nibble)]
    encoding: Encoding,
    /// Also print each depth's pass of a build: its direction, states found and seconds.
    #[arg(short, long)]
    verbose: bool,
    /// Build the distance table of the subgroup these generators generate instead of named
    /// tables. Commas separate generators, each a move sequence ("R U R' U', D"); without a
    /// comma each move is a generator ("U R"). The group's size is computed first, and a group
    /// whose table does not fit in memory is refused.
    #[arg(long, value_name = "GENERATORS", conflicts_with_all = ["tables", "list", "verify", "metric", "encoding"])]
    generators: Option<String>,
    /// The puzzle the generators turn (with --generators).
    #[arg(long, value_enum, default_value_t = Puzzle::Cube, requires = "generators")]
    puzzle: Puzzle,
    /// How the subgroup's distances count (with --generators): generators (each generator and
    /// its inverse cost 1), htm (also the half turn of a quarter-turn generator), qtm (quarter-
    /// turn generators only) or directed (the generators as given, without inverses).
    #[arg(long, value_enum, default_value_t = GroupMetric::Generators, requires = "generators")]
    group_metric: GroupMetric,
    /// With --generators: build a devil's algorithm instead of the distance table, a move
    /// sequence that passes through every position of the group once and returns (a
    /// Hamiltonian circuit), into circuit-<group>.txt.zst. Generators must be quarter turns of
    /// two or more faces. `stats circuit FILE` checks one.
    #[arg(long, requires = "generators", conflicts_with = "compress")]
    circuit: bool,
    /// Build the table of a partial goal (a name such as cross or xcross, or a piece mask;
    /// see solve --help under --goal) instead of named tables, in --metric (default both).
    /// `solve --goal` and `stats goal` build it on first use; this builds it ahead, or again
    /// with --force.
    #[arg(long, value_name = "GOAL", conflicts_with_all = ["tables", "list", "verify", "encoding", "generators"])]
    goal: Option<String>,
}

/// Runs what the arguments ask for; the exit status follows [`crate::cli::exit_status`].
pub fn run(args: Args) -> ExitCode {
    if let Some(what) = args.generate {
        return crate::cli::print_generated(what, <Args as clap::CommandFactory>::command());
    }
    let ok = if let Some(goal) = &args.goal {
        Ok(build_goal(&args, goal))
    } else if let Some(generators) = &args.generators {
        if args.circuit {
            Ok(build_circuit(&args, generators))
        } else {
            Ok(build_group(&args, generators))
        }
    } else if args.list {
        list(&args)
    } else if args.verify {
        verify(&args)
    } else {
        Ok(build_all(&args))
    };
    crate::cli::exit_status("gen-tables", ok)
}

/// The tables the arguments ask for.
fn selection(args: &Args) -> Vec<TableId> {
    let kinds: Vec<TableKind> = if args.tables.is_empty() {
        TableKind::DEFAULT.to_vec()
    } else {
        args.tables.clone()
    };
    let mut ids = Vec::new();
    for kind in kinds {
        let metrics: &[Metric] = match args.metric {
            Some(MetricChoice::Htm) => &[Metric::Htm],
            Some(MetricChoice::Qtm) => &[Metric::Qtm],
            Some(MetricChoice::Both) => &Metric::BOTH,
            None => default_metrics(kind),
        };
        // A kind named without a metric it has is an error when built; the default set and
        // `--metric both` just leave those out (the phase-2 tables have no QTM form).
        let named = !args.tables.is_empty() && args.metric != Some(MetricChoice::Both);
        for &metric in metrics.iter().filter(|&&m| named || kind.has_metric(m)) {
            // A kind's own encoding (based for the coset tables), unless mod 3 is asked for.
            let id = TableId::new(kind, metric);
            let id = if args.encoding == Encoding::Mod3 {
                id.with_encoding(Encoding::Mod3)
            } else {
                id
            };
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids
}

fn build_all(args: &Args) -> bool {
    let _lock = match BuildLock::acquire(&args.data_dir) {
        Ok(lock) => lock,
        Err(e) => {
            eprintln!("gen-tables: error: {e}");
            return false;
        }
    };
    for (path, bytes) in catalogue::remove_stale_temporaries(&args.data_dir) {
        eprintln!(
            "gen-tables: removed {} ({}), left by an interrupted build",
            path.display(),
            human_bytes(bytes)
        );
    }
    let mut ok = true;
    let selection = selection(args);
    let mut done: Vec<TableId> = Vec::new();
    for &id in &selection {
        if done.contains(&id) {
            continue;
        }
        // `h48` tables of one member come from one search: those still to build go together.
        let together: Vec<TableId> = if id.kind.h48_table().is_some() && !reusable(args, id) {
            let pending = |&other: &TableId| {
                other == id
                    || (same_search(id, other) && !done.contains(&other) && !reusable(args, other))
            };
            selection.iter().copied().filter(pending).collect()
        } else {
            vec![id]
        };
        done.extend(&together);
        let result = if together.len() > 1 {
            build_together(args, &together)
        } else {
            build_one(args, id)
        };
        if let Err(message) = result {
            eprintln!("gen-tables: error: {}: {message}", id.name());
            ok = false;
        }
    }
    ok
}

/// Whether tables `a` and `b` are read off the same breadth-first search (`h48` tables of one
/// member and metric; an `h48-eo*` table is filled on its own).
fn same_search(a: TableId, b: TableId) -> bool {
    if a.kind.is_h48_eo() || b.kind.is_h48_eo() {
        return false;
    }
    match (a.kind.h48_table(), b.kind.h48_table()) {
        (Some(x), Some(y)) => x.flips == y.flips && a.metric == b.metric,
        _ => false,
    }
}

/// Whether table `id` is in the data directory, valid, and not to be rebuilt.
fn reusable(args: &Args, id: TableId) -> bool {
    !args.force && present(args, id) && id.open(&args.data_dir, Verify::IfNew).is_ok()
}

/// Builds `ids` from one search (see [`catalogue::build_h48`]) and reports each.
fn build_together(args: &Args, ids: &[TableId]) -> Result<(), String> {
    let start = Instant::now();
    let names: Vec<String> = ids.iter().map(TableId::name).collect();
    let bar = progress_bar(catalogue::searched_entries(ids[0].kind), &names.join(", "));
    let built = catalogue::build_h48(ids, &args.data_dir, &bar).map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    for (&id, built) in ids.iter().zip(&built) {
        report_built(args, id, built, seconds)?;
    }
    Ok(())
}

/// Compresses a table just built if asked, and prints it.
fn report_built(args: &Args, id: TableId, built: &Built, seconds: f64) -> Result<(), String> {
    let path = id.path(&args.data_dir);
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    compress_if_asked(args, &path)?;
    print_table(
        args,
        &id.name(),
        &built.header,
        "built",
        seconds,
        &path,
        bytes,
        &built.passes,
    )
}

/// Whether a subgroup job succeeded; its error, if any, printed.
fn succeeded<E: std::fmt::Display>(result: Result<(), E>) -> bool {
    result
        .inspect_err(|e| eprintln!("gen-tables: error: {e}"))
        .is_ok()
}

/// Builds the devil's algorithm of the subgroup `generators` generate and checks it.
fn build_circuit(args: &Args, generators: &str) -> bool {
    let result = (|| -> Result<(), GroupError> {
        let spec = GroupSpec::parse(args.puzzle, generators, args.group_metric)?;
        circuit::check_supported(&spec)?;
        let sizes = Sizes::of(&spec);
        sizes.check_fits(&spec, available_memory())?;
        let path = circuit::circuit_path(&args.data_dir, &spec);
        let start = Instant::now();
        let bar = spinner(&format!("circuit of {spec}"));
        bar.set_message("numbering the positions");
        let space = GroupSpace::new(&spec);
        let moves = circuit::build_circuit(&space, &spec, &bar)?;
        let built = start.elapsed().as_secs_f64();
        bar.set_message("checking it");
        circuit::check_circuit(&space, &moves)?;
        bar.set_message("writing it");
        circuit::write_circuit(&path, &spec, &moves)?;
        bar.finish_and_clear();
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if args.json {
            let line = serde_json::json!({
                "circuit": spec.to_string(),
                "moves": moves.len(),
                "positions": u64::try_from(sizes.order).unwrap_or(u64::MAX),
                "checked": true,
                "build_seconds": built,
                "seconds": start.elapsed().as_secs_f64(),
                "bytes": bytes,
                "path": path,
            });
            crate::outln!("{line}").map_err(GroupError::Other)?;
        } else {
            crate::outln!(
                "circuit of {spec}: {} moves through all {} positions, built in {built:.1} s and checked; {} ({})",
                thousands(moves.len() as u128),
                thousands(sizes.order),
                path.display(),
                human_bytes(u128::from(bytes))
            ).map_err(GroupError::Other)?;
        }
        Ok(())
    })();
    succeeded(result)
}

/// Builds (or reuses) the table of the subgroup `generators` generate.
fn build_group(args: &Args, generators: &str) -> bool {
    let result = (|| -> Result<(), GroupError> {
        let spec = GroupSpec::parse(args.puzzle, generators, args.group_metric)?;
        let name = format!("{}-{}", TableKind::Group.name(), spec.stem());
        let sizes = Sizes::of(&spec);
        sizes.check_fits(&spec, available_memory())?;
        let dir = &args.data_dir;
        let start = Instant::now();
        if !args.force && group::table_path(dir, &spec).exists() {
            match GroupTable::open(dir, &spec) {
                Ok(table) => {
                    let path = group::table_path(dir, &spec);
                    compress_if_asked(args, &path).map_err(GroupError::Other)?;
                    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                    let seconds = start.elapsed().as_secs_f64();
                    let header = table.header();
                    print_table(args, &name, header, "reused", seconds, &path, bytes, &[])
                        .map_err(GroupError::Other)?;
                    return Ok(());
                }
                Err(e) => eprintln!("gen-tables: {name}: {e}; rebuilding it"),
            }
        }
        let _lock = BuildLock::acquire(dir)?;
        if !args.json {
            crate::outln!(
                "{spec}: {} positions; {} corner x {} edge states = {} entries, about {} to build",
                thousands(sizes.order),
                thousands(sizes.corner_image),
                thousands(sizes.edge_image),
                thousands(sizes.entries()),
                human_bytes(sizes.build_bytes())
            )
            .map_err(GroupError::Other)?;
        }
        let bar = progress_bar(u64::try_from(sizes.order).unwrap_or(u64::MAX), &name);
        let built = group::build(dir, &spec, &bar)?;
        let seconds = start.elapsed().as_secs_f64();
        let bytes = std::fs::metadata(&built.path).map(|m| m.len()).unwrap_or(0);
        compress_if_asked(args, &built.path).map_err(GroupError::Other)?;
        let passes = &built.outcome.passes;
        print_table(
            args,
            &name,
            &built.header,
            "built",
            seconds,
            &built.path,
            bytes,
            passes,
        )
        .map_err(GroupError::Other)
    })();
    succeeded(result)
}

/// Builds a goal's table in each metric asked (both by default), reusing a valid one unless
/// --force.
fn build_goal(args: &Args, text: &str) -> bool {
    use cubelab::catalogue::goal::{self as goals, Goal, GoalTable};
    let result = (|| -> Result<(), String> {
        let goal = Goal::parse(text).map_err(|e| e.to_string())?;
        let metrics = match args.metric {
            Some(MetricChoice::Htm) => vec![Metric::Htm],
            Some(MetricChoice::Qtm) => vec![Metric::Qtm],
            _ => Metric::BOTH.to_vec(),
        };
        let dir = &args.data_dir;
        // A searched goal reads its helpers' tables too: they are built with it.
        for (metric, mask) in metrics
            .into_iter()
            .flat_map(|m| goal.masks().into_iter().map(move |mask| (m, mask)))
        {
            let name = format!("goal {mask} {metric}");
            let path = goals::table_path(dir, &mask, metric);
            let start = Instant::now();
            if !args.force && path.exists() {
                match GoalTable::open(dir, &mask, metric) {
                    Ok(table) => {
                        compress_if_asked(args, &path)?;
                        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                        let seconds = start.elapsed().as_secs_f64();
                        print_table(
                            args,
                            &name,
                            table.header(),
                            "reused",
                            seconds,
                            &path,
                            bytes,
                            &[],
                        )?;
                        continue;
                    }
                    Err(e) => eprintln!("gen-tables: {name}: {e}; rebuilding it"),
                }
            }
            let _lock = BuildLock::acquire(dir).map_err(|e| e.to_string())?;
            let entries = cubelab::space::goal::GoalSpace::entries(&mask);
            let bar = progress_bar(u64::try_from(entries).unwrap_or(u64::MAX), &name);
            let header = goals::build(dir, &mask, metric, &bar).map_err(|e| e.to_string())?;
            bar.finish_and_clear();
            let seconds = start.elapsed().as_secs_f64();
            compress_if_asked(args, &path)?;
            let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            print_table(args, &name, &header, "built", seconds, &path, bytes, &[])?;
        }
        Ok(())
    })();
    succeeded(result)
}

fn build_one(args: &Args, id: TableId) -> Result<(), String> {
    let dir = &args.data_dir;
    let start = Instant::now();
    if !args.force && present(args, id) {
        match id.open(dir, Verify::IfNew) {
            Ok(table) => {
                let seconds = start.elapsed().as_secs_f64();
                compress_if_asked(args, table.path())?;
                print_table(
                    args,
                    &id.name(),
                    table.header(),
                    "reused",
                    seconds,
                    table.path(),
                    table.file_bytes(),
                    &[],
                )?;
                return Ok(());
            }
            Err(e) => eprintln!("gen-tables: {}: {e}; rebuilding it", id.name()),
        }
    }
    let bar = progress_bar(catalogue::searched_entries(id.kind), &id.name());
    let built = catalogue::build(id, dir, &bar).map_err(|e| e.to_string())?;
    report_built(args, id, &built, start.elapsed().as_secs_f64())
}

fn compress_if_asked(args: &Args, path: &Path) -> Result<(), String> {
    if args.compress {
        let zst = table::export_zst(path, 9).map_err(|e| e.to_string())?;
        if !args.json {
            let bytes = std::fs::metadata(&zst).map(|m| m.len()).unwrap_or(0);
            crate::outln!(
                "  compressed copy: {} ({})",
                zst.display(),
                human_bytes(bytes)
            )?;
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn print_table(
    args: &Args,
    name: &str,
    header: &TableHeader,
    status: &str,
    seconds: f64,
    path: &Path,
    bytes: u64,
    passes: &[Pass],
) -> Result<(), String> {
    let hist = &header.histogram;
    if args.json {
        let line = serde_json::json!({
            "table": name,
            "status": status,
            "entries": header.entries,
            "max_depth": max_depth(hist),
            "mean_depth": mean_depth(hist),
            "histogram": hist,
            "seconds": seconds,
            "bytes": bytes,
            "path": path,
            "passes": passes,
        });
        crate::outln!("{line}")?;
    } else {
        if args.verbose {
            for pass in passes {
                let direction = if pass.backward { "backward" } else { "forward" };
                crate::outln!(
                    "  depth {:>2}: {direction:<8} {:>15} found in {:.2} s",
                    pass.depth,
                    thousands(pass.found),
                    pass.seconds
                )?;
            }
        }
        crate::outln!(
            "{}: {status} in {seconds:.2} s, {} entries, {}, {}",
            name,
            thousands(header.entries),
            human_bytes(bytes),
            path.display()
        )?;
        crate::out!("{}", histogram_table(hist))?;
        crate::outln!("  max {}, mean {:.4}\n", max_depth(hist), mean_depth(hist))?;
    }
    Ok(())
}

/// Every 4-bit table, and the 2-bit ones that are present (or asked for with --encoding mod3).
fn listed(args: &Args) -> Vec<TableId> {
    let mut ids = catalogue();
    for id in catalogue() {
        let mod3 = id.with_encoding(Encoding::Mod3);
        if args.encoding == Encoding::Mod3 || present(args, mod3) {
            ids.push(mod3);
        }
    }
    ids
}

fn present(args: &Args, id: TableId) -> bool {
    id.is_present(&args.data_dir)
}

fn list(args: &Args) -> Result<bool, String> {
    if !args.json {
        crate::outln!(
            "{:<16} {:>14} {:>10} {:>12} {:>11}  status",
            "table",
            "entries",
            "size",
            "build memory",
            "build time"
        )?;
    }
    let cores = rayon::current_num_threads() as f64;
    for id in listed(args) {
        let bytes = catalogue::file_bytes(id);
        let (memory, core_seconds) = catalogue::build_cost(id.kind);
        let seconds = core_seconds / cores;
        let status = if !present(args, id) {
            "missing".to_string()
        } else if id.only_packed(&args.data_dir) {
            // Listing must not unpack (1.4 GB for the default table): the first use does.
            "packed (.tbl.zst; unpacked and checked on first use)".to_string()
        } else {
            match id.open(&args.data_dir, Verify::IfNew) {
                Ok(_) => "valid".to_string(),
                Err(e) => format!("damaged: {e}"),
            }
        };
        if args.json {
            let line = serde_json::json!({
                "table": id.name(),
                "entries": catalogue::entries(id.kind),
                "bytes": bytes,
                "build_memory_bytes": memory,
                "build_seconds_estimate": (seconds * 10.0).round() / 10.0,
                "status": status,
                "path": id.path(&args.data_dir),
            });
            crate::outln!("{line}")?;
        } else {
            crate::outln!(
                "{:<16} {:>14} {:>10} {:>12} {:>11}  {status}",
                id.name(),
                thousands(catalogue::entries(id.kind)),
                human_bytes(bytes),
                human_bytes(memory),
                rough_duration(seconds)
            )?;
        }
    }
    for (name, path, result) in present_groups(args, Verify::IfNew) {
        let status = match result {
            Ok(()) => "valid".to_string(),
            Err(e) => format!("damaged: {e}"),
        };
        let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        if args.json {
            let line = serde_json::json!({
                "table": name,
                "bytes": bytes,
                "status": status,
                "path": path,
            });
            crate::outln!("{line}")?;
        } else {
            crate::outln!(
                "{name:<16} {:>14} {:>10} {:>12} {:>11}  {status}",
                "",
                human_bytes(bytes),
                "",
                ""
            )?;
        }
    }
    Ok(true)
}

/// The subgroup tables in the data directory (`group-*.tbl`), each by name and path, opened
/// and checked as `verify` says.
fn present_groups(
    args: &Args,
    verify: Verify,
) -> Vec<(String, std::path::PathBuf, Result<(), GroupError>)> {
    group::present_tables(&args.data_dir)
        .into_iter()
        .map(|path| {
            let name = path
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            let result = GroupTable::open_present(&path, verify).map(|_| ());
            (name, path, result)
        })
        .collect()
}

fn verify(args: &Args) -> Result<bool, String> {
    let mut ok = true;
    let mut checked = 0;
    for id in listed(args) {
        if !present(args, id) {
            continue;
        }
        checked += 1;
        let start = Instant::now();
        let result = id.open(&args.data_dir, Verify::Always);
        let seconds = start.elapsed().as_secs_f64();
        if args.json {
            let line = serde_json::json!({
                "table": id.name(),
                "valid": result.is_ok(),
                "error": result.as_ref().err().map(ToString::to_string),
                "seconds": seconds,
            });
            crate::outln!("{line}")?;
        } else {
            match &result {
                Ok(_) => crate::outln!("{}: valid ({seconds:.2} s)", id.name())?,
                Err(e) => crate::outln!("{}: {e}", id.name())?,
            }
        }
        ok &= result.is_ok();
    }
    for (name, _, result) in present_groups(args, Verify::Always) {
        checked += 1;
        if args.json {
            let line = serde_json::json!({
                "table": name,
                "valid": result.is_ok(),
                "error": result.as_ref().err().map(ToString::to_string),
            });
            crate::outln!("{line}")?;
        } else {
            match &result {
                Ok(()) => crate::outln!("{name}: valid")?,
                Err(e) => crate::outln!("{name}: {e}")?,
            }
        }
        ok &= result.is_ok();
    }
    if checked == 0 && !args.json {
        crate::outln!("no tables in {}", args.data_dir.display())?;
    }
    Ok(ok)
}
