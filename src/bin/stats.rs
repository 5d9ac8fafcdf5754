//! stats: distance distributions, experiments, charts and pictures.
//! The program is [`cubelab::frontend::commands::stats`]; this only parses and dispatches.

use clap::Parser;
use cubelab::frontend::cli::end_quietly_on_closed_pipe;
use cubelab::frontend::commands::stats::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    end_quietly_on_closed_pipe();
    run(Args::parse())
}
