//! stats: distance distributions of the tables and summaries of experiments.

use clap::{Parser, Subcommand};
use cubelab::cube::Metric;
use cubelab::pdb::catalogue;
use cubelab::report::chart::{ChartFormat, Series, distribution_chart};
use cubelab::report::experiment::{read_experiment, summarise};
use cubelab::report::scan::checked_histogram;
use cubelab::report::{histogram_table, human_bytes, max_depth, mean_depth, thousands};
use cubelab::table::{Encoding, Table, TableId, TableKind, Verify};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Distance distributions of the tables and summaries of experiments.
#[derive(Parser, Debug)]
#[command(name = "stats", version)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// For every present table: entries, size, and the count and share at every depth, counted
    /// from the table's own entries and checked against published counts where known.
    Tables {
        /// Directory holding the tables.
        #[arg(long, default_value = "data")]
        data_dir: PathBuf,
        /// One JSON object per table per line instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Summary of an experiment file written by `solve --csv`: positions by status, and nodes
    /// and time per optimal length.
    Experiment {
        /// The CSV file.
        file: PathBuf,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Charts of every present table's distance distribution (both metrics side by side, on a
    /// linear and on a logarithmic count axis), written into a directory.
    Plot {
        /// Directory holding the tables.
        #[arg(long, default_value = "data")]
        data_dir: PathBuf,
        /// Directory the charts are written to.
        #[arg(long, default_value = "reports/figures")]
        out: PathBuf,
        /// Image format.
        #[arg(long, value_enum, default_value_t = ChartFormat::Png)]
        format: ChartFormat,
    },
}

fn main() -> ExitCode {
    let result = match Args::parse().command {
        Command::Tables { data_dir, json } => tables(&data_dir, json),
        Command::Experiment { file, json } => experiment(&file, json),
        Command::Plot {
            data_dir,
            out,
            format,
        } => plot(&data_dir, &out, format),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("stats: error: {message}");
            ExitCode::from(2)
        }
    }
}

fn tables(dir: &std::path::Path, json: bool) -> Result<bool, String> {
    let mut ok = true;
    let mut found = 0;
    let ids = catalogue()
        .into_iter()
        .flat_map(|id| [id, id.with_encoding(Encoding::Mod3)]);
    for id in ids {
        let path = id.path(dir);
        if !path.exists() {
            continue;
        }
        found += 1;
        let start = Instant::now();
        let table = Table::open(dir, id, Verify::IfNew).map_err(|e| e.to_string())?;
        let scanned = checked_histogram(&table);
        let seconds = start.elapsed().as_secs_f64();
        ok &= scanned.problems.is_empty();
        let hist = &scanned.histogram;
        let checked = scanned.published;
        if json {
            let line = serde_json::json!({
                "table": id.name(),
                "entries": table.header().entries,
                "bytes": table.file_bytes(),
                "encoding": id.encoding.name(),
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
                id.name(),
                thousands(table.header().entries),
                human_bytes(table.file_bytes())
            );
            if id.encoding == Encoding::Mod3 {
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

fn experiment(file: &std::path::Path, json: bool) -> Result<bool, String> {
    let rows = read_experiment(file).map_err(|e| e.to_string())?;
    let summary = summarise(&rows);
    if json {
        println!(
            "{}",
            serde_json::to_string(&summary).map_err(|e| e.to_string())?
        );
        return Ok(true);
    }
    println!("{}: {} positions", file.display(), summary.positions);
    for (status, n) in &summary.by_status {
        println!("  {status}: {n}");
    }
    println!();
    println!("  length  positions      mean nodes    median nodes   mean s  median s");
    for s in &summary.by_length {
        let nodes = |v: Option<f64>| v.map_or("-".to_string(), |n| thousands(n.round() as u64));
        println!(
            "  {:>6} {:>10} {:>15} {:>15} {:>8.3} {:>9.3}",
            s.length,
            s.positions,
            nodes(s.mean_nodes),
            nodes(s.median_nodes),
            s.mean_seconds,
            s.median_seconds
        );
    }
    Ok(true)
}

/// What a table kind's chart is called and says.
fn chart_title(kind: TableKind) -> (&'static str, String) {
    let entries = thousands(cubelab::pdb::entries(kind));
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
    }
}

fn plot(dir: &std::path::Path, out: &std::path::Path, format: ChartFormat) -> Result<bool, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut ok = true;
    let mut written = 0;
    for kind in TableKind::ALL {
        let mut series = Vec::new();
        for metric in Metric::BOTH {
            // The exact table if present, else a 2-bit one (whose depths were counted at build).
            let id = [Encoding::Nibble, Encoding::Mod3]
                .map(|e| TableId::new(kind, metric).with_encoding(e))
                .into_iter()
                .find(|id| id.path(dir).exists());
            let Some(id) = id else { continue };
            let table = Table::open(dir, id, Verify::IfNew).map_err(|e| e.to_string())?;
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
        for (suffix, log) in [("", false), ("-log", true)] {
            let path = out.join(format!(
                "{stem}-distribution{suffix}.{}",
                format.extension()
            ));
            distribution_chart(&path, format, &title, &series, log).map_err(|e| e.to_string())?;
            println!("{}", path.display());
            written += 1;
        }
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
