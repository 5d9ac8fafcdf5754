//! cubelab: the HTTP API and web editor, and a load test for it.
//! The program is [`cubelab_cli::commands::cubelab`]; this only parses and dispatches.

use clap::Parser;
use cubelab_cli::cli::{check_processor, set_signal_handlers};
use cubelab_cli::commands::cubelab::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    check_processor();
    set_signal_handlers();
    run(Args::parse())
}
