//! cubelab: Rubik's-cube state spaces, pattern databases and optimal search.
//!
//! The library is built in layers, each a folder (or file) here, each importing only from the
//! layers above it in this list (`tests/suite/layers.rs` checks it):
//!
//! | layer | owns |
//! |---|---|
//! | [`support`] | numbers written for people, progress bars |
//! | [`model`] | cubies, moves, metrics, symmetries, notation, stickers, positions |
//! | [`coord`] | rankings of pieces, symmetry classes, group orders |
//! | [`space`] | what a search walks: the puzzles, coordinates' spaces, subgroups, cosets |
//! | [`packing`] | how distances are packed into bytes (the engine's output) |
//! | [`bfs`] | the one breadth-first engine |
//! | [`table`] | the one file format: header, mapping, checksums (entries opaque to it) |
//! | [`catalogue`] | which tables exist, how each is built, named, checked and rebuilt |
//! | [`search`] | IDA*, heuristics, the walk, two-phase, layers |
//! | [`solving`] | the one API every front end calls |
//! | [`experiment`] | the files experiments write and read: `solve --csv` rows, shards, merging, summaries; coset runs, goal samples, scramble lists |
//!
//! This crate is the core: it depends on nothing a front end needs (no async runtime, HTTP,
//! charts or argument parser; the `clap` feature only derives the command line's value enums).
//! The front ends are crates on top of it, each reaching it through [`solving`]: `cubelab-cli`
//! (the binaries, reports and charts), `cubelab-server` (the HTTP API) and the Python module.

pub mod support;

pub mod model;

pub mod coord;

pub mod space;

pub mod packing;

pub mod bfs;

pub mod table;

pub mod catalogue;

pub mod search;

pub mod solving;

pub mod experiment;
