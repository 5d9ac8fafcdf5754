//! stats: distance distributions, experiments, charts and pictures.
//! The program is [`cubelab_cli::commands::stats`]; this only parses and dispatches.

use clap::Parser;
use cubelab_cli::cli::{check_processor, set_signal_handlers};
use cubelab_cli::commands::stats::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    check_processor();
    set_signal_handlers();
    run(Args::parse())
}
