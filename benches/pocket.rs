//! The 2x2 path end to end: building both tables, mapping one, and solving a batch.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cubelab::catalogue;
use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::{Cube2, Metric};
use cubelab::search::pocket::PocketSolver;
use cubelab::table::Verify;
use indicatif::ProgressBar;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::time::Duration;

fn build(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut group = c.benchmark_group("2x2 tables");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("build both metrics (BFS + write)", |b| {
        b.iter(|| {
            for metric in Metric::BOTH {
                let id = TableId::new(TableKind::Pocket, metric);
                catalogue::build(id, dir.path(), &ProgressBar::hidden()).expect("build");
            }
        })
    });
    let id = TableId::new(TableKind::Pocket, Metric::Htm);
    group.bench_function("map and check header (verified before)", |b| {
        b.iter(|| id.open(dir.path(), Verify::IfNew).expect("open"))
    });
    group.bench_function("map and recompute checksum", |b| {
        b.iter(|| id.open(dir.path(), Verify::Always).expect("open"))
    });
    group.finish();

    let solver = PocketSolver::open(dir.path(), Metric::Htm).expect("solver");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let positions: Vec<Cube2> = (0..10_000).map(|_| Cube2::random(&mut rng)).collect();
    let mut group = c.benchmark_group("2x2 solving");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("10,000 random positions, verified (rayon)", |b| {
        b.iter(|| {
            positions
                .par_iter()
                .map(|p| solver.solve(p).expect("solves").len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, build);
criterion_main!(benches);
