//! The optimal 3x3 solver: node rate and time to solve a fixed set of positions whose optimal
//! lengths are 12 to 16 (HTM), with the default tables (corners and two 7-edge sets).
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

/// Fixed positions and their optimal HTM lengths (as found by this solver and stable across
/// runs; the tests prove the solver optimal on shorter positions).
pub const POSITIONS: [(&str, u32); 5] = [
    ("R2 U' F L2 D B' R U2 F' D2 L U", 12),
    ("F L' D2 R U' B2 L F' U2 R' D B2 L'", 13),
    ("U F' R2 D' L B U2 R' F D2 L' B' U R2", 14),
    ("B2 R' U F2 L' D R2 B' U' L2 F D' R U2 B", 15),
    ("L U2 F' R D2 B L' U R2 F' D B2 L U' R F2", 16),
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
    for (text, _) in POSITIONS {
        let cube = Cube3::from_moves(&parse_moves(text).expect("valid"));
        let result = solver
            .solve(&cube, SearchLimits::default(), |_| {})
            .expect("solves");
        let length = result.solutions[0].len();
        group.throughput(Throughput::Elements(result.nodes()));
        group.bench_function(format!("optimal length {length}: {text}"), |b| {
            b.iter(|| {
                solver
                    .solve(&cube, SearchLimits::default(), |_| {})
                    .expect("solves")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solver_benches);
criterion_main!(benches);
