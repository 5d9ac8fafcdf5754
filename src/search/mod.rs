//! Searches over the tables.

pub mod descent;
