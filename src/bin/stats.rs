//! stats: distance distributions of the tables and summaries of experiments.

use clap::{Parser, Subcommand};
use cubelab::pdb::catalogue;
use cubelab::report::experiment::{read_experiment, summarise};
use cubelab::report::published::published_histogram;
use cubelab::report::scan::{exact_histogram, fold_mod3, value_counts};
use cubelab::report::{histogram_table, human_bytes, max_depth, mean_depth, thousands};
use cubelab::table::{Encoding, Table, TableId, Verify};
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
    /// Charts of the distributions and experiments (not built yet).
    Plot,
}

fn main() -> ExitCode {
    let result = match Args::parse().command {
        Command::Tables { data_dir, json } => tables(&data_dir, json),
        Command::Experiment { file, json } => experiment(&file, json),
        Command::Plot => Err("`stats plot` is not built yet; `stats tables` and `stats experiment` print the numbers".into()),
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

/// What a table's entries say, and whether that agrees with what is known about it.
struct Scanned {
    histogram: Vec<u64>,
    problems: Vec<String>,
}

fn scan(table: &Table, id: TableId) -> Scanned {
    let header = &table.header().histogram;
    let mut problems = Vec::new();
    let histogram = match id.encoding {
        Encoding::Nibble => match exact_histogram(table) {
            Ok(h) => h,
            Err(unreached) => {
                problems.push(format!("{unreached} entries were never reached"));
                Vec::new()
            }
        },
        Encoding::Mod3 => {
            let counts = value_counts(table);
            if counts[3] > 0 {
                problems.push(format!("{} entries were never reached", counts[3]));
            }
            if counts[..3] != fold_mod3(header) {
                problems.push("its residues disagree with its build histogram folded mod 3".into());
            }
            // A 2-bit table holds residues only; the depths are those counted at build time.
            header.clone()
        }
    };
    if id.encoding == Encoding::Nibble && !histogram.is_empty() && histogram != *header {
        problems.push("its entries disagree with the histogram recorded when it was built".into());
    }
    if let Some(published) = published_histogram(id) {
        if histogram != published {
            problems.push("its distribution differs from the published one".into());
        }
    }
    Scanned {
        histogram,
        problems,
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
        let scanned = scan(&table, id);
        let seconds = start.elapsed().as_secs_f64();
        ok &= scanned.problems.is_empty();
        let hist = &scanned.histogram;
        let checked = published_histogram(id).is_some();
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
