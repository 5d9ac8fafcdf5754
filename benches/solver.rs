//! The optimal 3x3 solver: node rate and time to solve fixed positions of optimal lengths 12 to
//! 15 (HTM), with the default tables (corners and two 7-edge sets), with and without the dual
//! lookup. Depth 16 takes tens of seconds a solve, too long for criterion's ten samples:
//! scripts/bench-solver.sh times it as whole runs.
//!
//! Reads the tables from `$CUBELAB_DATA` (default `data/`); build them first with
//! `cargo run --release --bin gen-tables`. Without them the benchmark says so and measures
//! nothing.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cubelab::cube::{Cube3, Metric};
use cubelab::notation::parse_moves;
use cubelab::search::heuristic::{EdgeTables, Heuristic};
use cubelab::search::ida::{SearchLimits, Solver};
use std::time::Duration;

/// Scrambles whose optimal lengths measured 12, 13, 14 and 15 (the benchmark prints each length
/// it finds, so a change shows).
const POSITIONS: [&str; 4] = [
    "R2 U' F L2 D B' R U2 F' D2 L U",
    "F L' D2 R U' B2 L F' U2 R' D B2 L'",
    "U F' R2 D' L B U2 R' F D2 L' B' U R2",
    "B2 R' U F2 L' D R2 B' U' L2 F D' R U2 B",
];

fn solver_benches(c: &mut Criterion) {
    let dir =
        std::env::var_os("CUBELAB_DATA").map_or_else(|| "data".into(), std::path::PathBuf::from);
    let heuristic = match Heuristic::open(&dir, Metric::Htm, EdgeTables::Edges7) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("solver benchmark skipped: {e}");
            return;
        }
    };
    let solver = Solver::new(heuristic);
    let mut group = c.benchmark_group("3x3 optimal solving (HTM, corners + 2 x edges7)");
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
