//! cubelab: Rubik's-cube state spaces, pattern databases and optimal search.

pub mod cube;
pub mod facelet;
pub mod notation;
