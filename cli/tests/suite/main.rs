//! The integration tests, in one binary: one link instead of one per file, and one pool of test
//! threads across every file, so a long test in one file no longer leaves a core idle while the
//! others wait their turn. Each module is one concern; `common` holds what they share.

mod common;

mod architecture;
mod cli;
mod coset;
mod cube_laws;
mod cube_solver;
mod goals;
mod groups;
mod h48_eo;
mod h48_solver;
mod input_fuzz;
mod layers;
mod pattern_databases;
mod phase1_solver;
mod pocket_solver;
mod pocket_tables;
mod puzzles;
mod readme_examples;
mod reliability;
mod serve;
mod table_format;
mod two_phase;
mod ud_solver;
