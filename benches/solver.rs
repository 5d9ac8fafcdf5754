//! The optimal 3x3 solver: node rate and time to solve fixed positions of optimal lengths 12 to
//! 16 (HTM), with the default tables (corners and the phase-1 table along three axes), with and
//! without the dual lookup, and the node rate with Korf's tables (corners and two 6-edge sets,
//! direct lookup; lengths 12 to 15, as 16 takes minutes). scripts/bench-solver.sh times the same
//! positions as whole runs in more configurations.
//!
//! Reads the tables from `$CUBELAB_DATA` (default `data/`); build them first with
//! `cargo run --release --bin gen-tables`. Without them the benchmark says so and measures
//! nothing.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cubelab::catalogue::TableKind;
use cubelab::model::cube::{Cube3, Metric};
use cubelab::model::notation::parse_moves;
use cubelab::search::heuristic::AnyHeuristic;
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
    bench_tables(
        c,
        TableKind::Phase1,
        "corners + 3 x phase1",
        &POSITIONS,
        &[true, false],
    );
    bench_tables(
        c,
        TableKind::Edges6,
        "corners + 2 x edges6",
        &POSITIONS[..4],
        &[false],
    );
}

/// Benchmarks the solver with `tables` on `positions`, with the dual lookup on or off as listed.
fn bench_tables(
    c: &mut Criterion,
    tables: TableKind,
    name: &str,
    positions: &[&str],
    duals: &[bool],
) {
    let dir =
        std::env::var_os("CUBELAB_DATA").map_or_else(|| "data".into(), std::path::PathBuf::from);
    let heuristic = match AnyHeuristic::open(&dir, Metric::Htm, tables) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("solver benchmark skipped: {e}");
            return;
        }
    };
    let solver = Solver::new(heuristic);
    let mut group = c.benchmark_group(format!("3x3 optimal solving (HTM, {name})"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for &text in positions {
        let cube = Cube3::from_moves(&parse_moves(text).expect("valid"));
        for &dual in duals {
            let limits = SearchLimits {
                dual,
                ..SearchLimits::default()
            };
            let result = solver.solve(&cube, limits.clone(), |_| {}).expect("solves");
            let length = result.solutions[0].len();
            let lookup = if dual { "dual" } else { "direct only" };
            group.throughput(Throughput::Elements(result.nodes()));
            group.bench_function(format!("length {length}, {lookup}: {text}"), |b| {
                b.iter(|| solver.solve(&cube, limits.clone(), |_| {}).expect("solves"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, solver_benches);
criterion_main!(benches);
