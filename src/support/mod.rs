//! Helpers every layer may use: numbers written for people and progress bars.

pub mod units;
