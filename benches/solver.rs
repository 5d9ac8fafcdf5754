//! The optimal 3x3 solver: node rate and time to solve fixed positions of optimal lengths 12 to
//! 16 (HTM), with the default tables (corners and the phase-1 table along three axes), with and
//! without the dual lookup. scripts/bench-solver.sh times the same positions as whole runs and
//! compares the heuristics.
//!
//! Reads the tables from `$CUBELAB_DATA` (default `data/`); build them first with
//! `cargo run --release --bin gen-tables`. Without them the benchmark says so and measures
//! nothing.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cubelab::cube::{Cube3, Metric};
use cubelab::notation::parse_moves;
use cubelab::search::heuristic::{Heuristic, HeuristicTables};
use cubelab::search::ida::{SearchLimits, Solver};
use std::time::Duration;

/// Scrambles whose optimal lengths measured 12 to 16 (the benchmark prints each length it
/// finds, so a change shows).
const POSITIONS: [&str; 5] = [
    "R2 U' F L2 D B' R U2 F' D2 L U",
    "F L' D2 R U' B2 L F' U2 R' D B2 L'",
    "U F' R2 D' L B U2 R' F D2 L' B' U R2",
    "B2 R' U F2 L' D R2 B' U' L2 F D' R U2 B",
    "R U' F2 D L' B R2 U F' L D2 B' R U2 F D'",
];

fn solver_benches(c: &mut Criterion) {
    let dir =
        std::env::var_os("CUBELAB_DATA").map_or_else(|| "data".into(), std::path::PathBuf::from);
    let heuristic = match Heuristic::open(&dir, Metric::Htm, HeuristicTables::Phase1) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("solver benchmark skipped: {e}");
            return;
        }
    };
    let solver = Solver::new(heuristic);
    let mut group = c.benchmark_group("3x3 optimal solving (HTM, corners + 3 x phase1)");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for text in POSITIONS {
        let cube = Cube3::from_moves(&parse_moves(text).expect("valid"));
        for dual in [true, false] {
            let limits = SearchLimits {
                dual,
                ..SearchLimits::default()
            };
            let result = solver.solve(&cube, limits, |_| {}).expect("solves");
            let length = result.solutions[0].len();
            let lookup = if dual { "dual" } else { "direct only" };
            group.throughput(Throughput::Elements(result.nodes()));
            group.bench_function(format!("length {length}, {lookup}: {text}"), |b| {
                b.iter(|| solver.solve(&cube, limits, |_| {}).expect("solves"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, solver_benches);
criterion_main!(benches);
