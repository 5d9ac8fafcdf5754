//! cubelab: the HTTP API and web editor, and a load test for it.
//! The program is [`cubelab::frontend::commands::cubelab`]; this only parses and dispatches.

use clap::Parser;
use cubelab::frontend::cli::end_quietly_on_closed_pipe;
use cubelab::frontend::commands::cubelab::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    end_quietly_on_closed_pipe();
    run(Args::parse())
}
