//! stats: distance distributions and experiment charts (not built yet).

use std::process::ExitCode;

fn main() -> ExitCode {
    let wants_help = std::env::args().skip(1).any(|a| a == "--help" || a == "-h");
    let text = "stats: distance distributions and experiment charts from the tables.\n\
                It is not built yet. Meanwhile `gen-tables --list` and `gen-tables --json` \
                print each table's size and distance histogram.";
    if wants_help {
        println!("{text}");
        ExitCode::SUCCESS
    } else {
        eprintln!("{text}");
        ExitCode::from(2)
    }
}
