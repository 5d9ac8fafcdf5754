//! Breadth-first builds of the 3x3 pattern databases that fit a benchmark loop (in memory, no
//! file written). The 7-edge tables are timed as whole runs by scripts/bench-tables.sh.

use criterion::{Criterion, criterion_group, criterion_main};
use cubelab::bfs::breadth_first;
use cubelab::model::cube::Metric;
use cubelab::packing::Encoding;
use cubelab::space::corners::CornerSpace;
use cubelab::space::edges::{EDGES6, EDGES7, EdgeSpace};
use indicatif::ProgressBar;
use std::time::Duration;

fn builds(c: &mut Criterion) {
    let mut group = c.benchmark_group("3x3 pattern databases");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(40));
    let corners = CornerSpace::new(Metric::Htm);
    group.bench_function("corners htm BFS (88,179,840 states)", |b| {
        b.iter(|| breadth_first(&corners, Encoding::Nibble, &ProgressBar::hidden()))
    });
    let edges = EdgeSpace::new(EDGES6, Metric::Htm);
    group.bench_function("edges6 htm BFS (42,577,920 states)", |b| {
        b.iter(|| breadth_first(&edges, Encoding::Nibble, &ProgressBar::hidden()))
    });
    group.bench_function("edges6 htm BFS, 2-bit", |b| {
        b.iter(|| breadth_first(&edges, Encoding::Mod3, &ProgressBar::hidden()))
    });
    group.bench_function("edges7 move table (3,991,680 x 12)", |b| {
        b.iter(|| EdgeSpace::new(EDGES7, Metric::Htm))
    });
    group.finish();
}

criterion_group!(benches, builds);
criterion_main!(benches);
