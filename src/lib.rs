//! cubelab: Rubik's-cube state spaces, pattern databases and optimal search.

pub mod bfs;
pub mod cli;
pub mod coord;
pub mod cube;
pub mod facelet;
pub mod group;
pub mod notation;
pub mod pdb;
pub mod position;
pub mod report;
pub mod search;
pub mod serve;
pub mod solving;
pub mod space;
pub mod table;
