//! gen-tables: build cubelab's distance tables into a data directory.
//! The program is [`cubelab_cli::commands::gen_tables`]; this only parses and dispatches.

use clap::Parser;
use cubelab_cli::cli::{check_processor, set_signal_handlers};
use cubelab_cli::commands::gen_tables::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    check_processor();
    set_signal_handlers();
    run(Args::parse())
}
