//! cubelab's command line: the parts the binaries share ([`cli`]: exit status, output,
//! `--generate`), each binary's command ([`commands`]), and reports and charts ([`report`]).
//! Everything here reaches the core through `cubelab::solving` and the catalogue; the
//! binaries (`src/bin`) only parse and dispatch.

pub mod cli;
pub mod commands;
pub mod report;
