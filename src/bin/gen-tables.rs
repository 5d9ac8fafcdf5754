//! gen-tables: build cubelab's distance tables into a data directory.
//! The program is [`cubelab::frontend::commands::gen_tables`]; this only parses and dispatches.

use clap::Parser;
use cubelab::frontend::cli::end_quietly_on_closed_pipe;
use cubelab::frontend::commands::gen_tables::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    end_quietly_on_closed_pipe();
    run(Args::parse())
}
