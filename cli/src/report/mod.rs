//! Results for people: charts of distributions and pictures of positions.

pub mod chart;
pub mod picture;
