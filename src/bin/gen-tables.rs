//! gen-tables: build cubelab's distance tables into a data directory.
//! The program is [`cubelab::frontend::commands::gen_tables`]; this only parses and dispatches.

use clap::Parser;
use cubelab::frontend::cli::{check_processor, set_signal_handlers};
use cubelab::frontend::commands::gen_tables::{Args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    check_processor();
    set_signal_handlers();
    run(Args::parse())
}
