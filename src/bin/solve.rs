//! solve: find optimal (or short, or human) solutions for cube positions.
//! The program is [`cubelab::frontend::commands::solve`]; this only parses and dispatches.

use clap::Parser;
use cubelab::frontend::cli::end_quietly_on_closed_pipe;
use cubelab::frontend::commands::solve::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    end_quietly_on_closed_pipe();
    run(Args::parse())
}
