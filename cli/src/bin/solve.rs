//! solve: find optimal (or short, or human) solutions for cube positions.
//! The program is [`cubelab_cli::commands::solve`]; this only parses and dispatches.

use clap::Parser;
use cubelab_cli::cli::{check_processor, set_signal_handlers};
use cubelab_cli::commands::solve::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    check_processor();
    set_signal_handlers();
    run(Args::parse())
}
