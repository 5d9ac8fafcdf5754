//! stats: distance distributions, experiments, charts and pictures.
//! The program is [`cubelab::frontend::commands::stats`]; this only parses and dispatches.

use clap::Parser;
use cubelab::frontend::cli::{check_processor, set_signal_handlers};
use cubelab::frontend::commands::stats::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    check_processor();
    set_signal_handlers();
    run(Args::parse())
}
