//! Move application and ranking: the operations every table build and search repeats.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cubelab::coord::{rank_arrangement, unrank_arrangement};
use cubelab::model::cube::{Cube3, Move};
use cubelab::space::pocket;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::hint::black_box;

fn moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("cubie model");
    let cube = Cube3::random(&mut Xoshiro256PlusPlus::seed_from_u64(1));
    group.throughput(Throughput::Elements(18));
    group.bench_function("apply each of 18 moves to a 3x3", |b| {
        b.iter(|| {
            for m in Move::all() {
                black_box(black_box(&cube).apply(m));
            }
        })
    });
    group.finish();
}

fn ranking(c: &mut Criterion) {
    let mut group = c.benchmark_group("ranking");
    group.throughput(Throughput::Elements(1));
    let items = [7u8, 2, 10, 0, 5, 11, 3];
    group.bench_function("rank 7 of 12", |b| {
        b.iter(|| rank_arrangement(black_box(&items), 12))
    });
    let mut out = [0u8; 7];
    group.bench_function("unrank 7 of 12", |b| {
        b.iter(|| unrank_arrangement(black_box(1_234_567), 12, &mut out))
    });
    let cube = pocket::unrank(1_234_567);
    group.bench_function("2x2 rank", |b| b.iter(|| pocket::rank(black_box(&cube))));
    group.finish();
}

criterion_group!(benches, moves, ranking);
criterion_main!(benches);
