//! Results for people: charts of distributions, pictures of positions, and experiments (files
//! of solved positions and their summaries).

pub mod chart;
pub mod cosets;

pub mod goal_sample;
pub mod picture;
pub mod scrambles;
