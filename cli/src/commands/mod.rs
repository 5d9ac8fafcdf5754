//! The programs behind the binaries: each module holds one program's arguments (clap) and its
//! run, so that `src/bin` only parses and dispatches and everything here can be tested and
//! reused.

pub mod coset;
pub mod cubelab;
pub mod gen_tables;
pub mod puzzle;
pub mod solve;
pub mod stats;
