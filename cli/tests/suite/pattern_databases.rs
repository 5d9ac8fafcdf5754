//! The 3x3x3 pattern databases: published counts, an independent reference search, and
//! admissibility against true distances.
//!
//! The tests that need the 7-edge tables (510 million entries) are `#[ignore]`d here and run by
//! `scripts/check-tables.sh` over the tables in `$CUBELAB_DATA` (default `data/`).

use crate::common;

use common::NearSolved;
use cubelab::bfs::breadth_first;
use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::{Cube3, Face, Metric, Move};
use cubelab::packing::{Encoding, nibble};
use cubelab::space::StateSpace;
use cubelab::space::corners::{self, CornerSpace};
use cubelab::space::edges::{EDGES6, EDGES7, EdgeSet, EdgeSpace};
use cubelab::table::{Table, Verify};
use indicatif::ProgressBar;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use std::collections::VecDeque;
use std::sync::OnceLock;

/// A table built in memory: its packed 4-bit entries and histogram.
struct Built {
    packed: Vec<u8>,
    histogram: Vec<u64>,
}

fn build(space: &impl StateSpace) -> Built {
    let outcome = breadth_first(space, Encoding::Nibble, &ProgressBar::hidden()).unwrap();
    Built {
        packed: outcome.packed,
        histogram: outcome.histogram,
    }
}

fn corners_table(metric: Metric) -> &'static Built {
    static TABLES: [OnceLock<Built>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[metric as usize].get_or_init(|| build(&CornerSpace::new(metric)))
}

fn edges6_table(metric: Metric) -> &'static Built {
    static TABLES: [OnceLock<Built>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[metric as usize].get_or_init(|| build(&EdgeSpace::new(EDGES6, metric)))
}

#[test]
fn corners_htm_matches_the_published_distribution() {
    let built = corners_table(Metric::Htm);
    assert_eq!(
        built.histogram,
        common::reference_histogram("corners_htm.csv")
    );
    assert_eq!(built.histogram.iter().sum::<u64>(), corners::STATES);
}

#[test]
fn corners_qtm_reaches_every_state() {
    let built = corners_table(Metric::Qtm);
    assert_eq!(built.histogram.iter().sum::<u64>(), corners::STATES);
    // Quarter turns change corner permutation parity and twist together: odd depths hold odd
    // permutations only, so exactly half the states lie at odd depths.
    let odd: u64 = built.histogram.iter().skip(1).step_by(2).sum();
    assert_eq!(odd, corners::STATES / 2);
}

/// A corner state's distance is its word length in the corner group, which its inverse shares;
/// the solver's dual lookup relies on this to skip the inverse's corner entry.
#[test]
fn corner_distances_of_a_state_and_its_inverse_agree() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    for metric in Metric::BOTH {
        let built = corners_table(metric);
        for _ in 0..100_000 {
            let c = corners::unrank(rng.random_range(0..corners::STATES));
            let (d, d_inverse) = (
                nibble(&built.packed, corners::rank(&c)),
                nibble(&built.packed, corners::rank(&c.inverse())),
            );
            assert_eq!(d, d_inverse, "{metric}");
        }
    }
}

/// Textbook breadth-first search: a FIFO queue and a byte per state, one thread. It shares only
/// the coordinate (the space's moves) with the engine under test. (States fit in u32: the
/// largest space has 510,935,040.)
fn reference_bfs(space: &impl StateSpace) -> Vec<u8> {
    let mut distance = vec![u8::MAX; space.size() as usize];
    let mut queue: VecDeque<u32> = VecDeque::new();
    for goal in space.goals() {
        distance[goal as usize] = 0;
        queue.push_back(goal as u32);
    }
    while let Some(state) = queue.pop_front() {
        let next = distance[state as usize] + 1;
        for turn in 0..space.move_count() {
            let n = space.apply(u64::from(state), turn) as usize;
            if distance[n] == u8::MAX {
                distance[n] = next;
                queue.push_back(n as u32);
            }
        }
    }
    distance
}

fn histogram_of(distances: &[u8]) -> Vec<u64> {
    let mut histogram = Vec::new();
    for &d in distances {
        assert_ne!(d, u8::MAX, "every state is reached");
        if histogram.len() <= d as usize {
            histogram.resize(d as usize + 1, 0);
        }
        histogram[d as usize] += 1;
    }
    histogram
}

/// The engine's table equals the reference search entry by entry, so its histogram does too.
fn check_against_reference(space: &impl StateSpace, engine: &[u8], engine_histogram: &[u64]) {
    let reference = reference_bfs(space);
    assert_eq!(histogram_of(&reference), engine_histogram);
    let mismatches = reference
        .par_iter()
        .enumerate()
        .filter(|&(i, &d)| nibble(engine, i as u64) != d)
        .count();
    assert_eq!(mismatches, 0);
}

/// Each reference search takes a minute of one core, so both run in scripts/check-tables.sh;
/// the suite checks the same engine against independent counts elsewhere (the 2x2 and corner
/// distributions, phase 1, the subgroups, and a full cubie search of the phase-2 slice table).
#[test]
#[ignore = "a minute of reference search; run by scripts/check-tables.sh"]
fn edges6_htm_matches_a_reference_search() {
    let built = edges6_table(Metric::Htm);
    check_against_reference(
        &EdgeSpace::new(EDGES6, Metric::Htm),
        &built.packed,
        &built.histogram,
    );
}

#[test]
#[ignore = "a minute of reference search; run by scripts/check-tables.sh"]
fn edges6_qtm_matches_a_reference_search() {
    let built = edges6_table(Metric::Qtm);
    check_against_reference(
        &EdgeSpace::new(EDGES6, Metric::Qtm),
        &built.packed,
        &built.histogram,
    );
}

/// Random positions a random 0..=8 turns from solved, with their true distances.
fn near_positions(metric: Metric, count: usize, seed: u64) -> Vec<(Cube3, u8)> {
    let near = NearSolved::shared(metric, 4);
    let moves = metric.generators(&Face::ALL);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let scrambles: Vec<Vec<Move>> = (0..count)
        .map(|_| {
            let len = rng.random_range(0..=8);
            (0..len)
                .map(|_| moves[rng.random_range(0..moves.len())])
                .collect()
        })
        .collect();
    scrambles
        .par_iter()
        .map(|s| {
            let cube = Cube3::from_moves(s);
            let d = near.distance(&cube).expect("within 8 of solved");
            assert!(usize::from(d) <= s.len());
            (cube, d)
        })
        .collect()
}

/// Every lookup is at most the true distance; an unsolved position gets at least 1 from some
/// table (corners plus two edge sets that cover all twelve edges see every piece).
/// A named table lookup for a position.
type Lookup<'a> = (&'a str, &'a dyn Fn(&Cube3) -> u8);

fn check_admissible(positions: &[(Cube3, u8)], lookups: &[Lookup]) {
    let mut at_distance_one = 0;
    for (cube, d) in positions {
        let values: Vec<u8> = lookups.iter().map(|(_, h)| h(cube)).collect();
        for ((name, _), &h) in lookups.iter().zip(&values) {
            assert!(
                h <= *d,
                "{name} gives {h} for a position at distance {d}: {cube:?}"
            );
        }
        let best = values.iter().copied().max().unwrap_or(0);
        assert_eq!(best == 0, *d == 0, "{cube:?}");
        if *d == 1 {
            at_distance_one += 1;
        }
    }
    assert!(
        at_distance_one > 0,
        "the sample includes positions one move away"
    );
}

fn lookup_tables(metric: Metric, positions: usize, seed: u64) {
    let corners = corners_table(metric);
    let edges = edges6_table(metric);
    let by_corners = |c: &Cube3| nibble(&corners.packed, corners::rank(&c.corners));
    let by_edges = |c: &Cube3| nibble(&edges.packed, EDGES6.rank(&c.edges));
    let by_mirrored = |c: &Cube3| nibble(&edges.packed, EDGES6.rank_mirrored(c));
    check_admissible(
        &near_positions(metric, positions, seed),
        &[
            ("corners", &by_corners),
            ("edges6", &by_edges),
            ("edges6 mirrored", &by_mirrored),
        ],
    );
}

#[test]
fn htm_tables_are_admissible() {
    lookup_tables(Metric::Htm, 2000, 11);
}

#[test]
fn qtm_tables_are_admissible() {
    lookup_tables(Metric::Qtm, 2000, 12);
}

// ---- The 7-edge tables, from built files (scripts/check-tables.sh) ----

fn data_dir() -> std::path::PathBuf {
    std::env::var_os("CUBELAB_DATA").map_or_else(|| "data".into(), Into::into)
}

fn open_edges7(metric: Metric) -> Table {
    let id = TableId::new(TableKind::Edges7, metric);
    id.open(&data_dir(), Verify::IfNew)
        .unwrap_or_else(|e| panic!("{e} (scripts/check-tables.sh builds the tables first)"))
}

fn edges7_matches_reference(metric: Metric) {
    let table = open_edges7(metric);
    let space = EdgeSpace::new(EDGES7, metric);
    check_against_reference(&space, table.payload(), &table.header().histogram);
}

#[test]
#[ignore = "needs the 7-edge table built; run by scripts/check-tables.sh"]
fn edges7_htm_matches_a_reference_search() {
    edges7_matches_reference(Metric::Htm);
}

#[test]
#[ignore = "needs the 7-edge table built; run by scripts/check-tables.sh"]
fn edges7_qtm_matches_a_reference_search() {
    edges7_matches_reference(Metric::Qtm);
}

fn edges7_admissible(metric: Metric, seed: u64) {
    let table = open_edges7(metric);
    let set: EdgeSet = EDGES7;
    let by_edges = |c: &Cube3| table.nibble(set.rank(&c.edges));
    let by_mirrored = |c: &Cube3| table.nibble(set.rank_mirrored(c));
    let corners = corners_table(metric);
    let by_corners = |c: &Cube3| nibble(&corners.packed, corners::rank(&c.corners));
    check_admissible(
        &near_positions(metric, 3000, seed),
        &[
            ("corners", &by_corners),
            ("edges7", &by_edges),
            ("edges7 mirrored", &by_mirrored),
        ],
    );
}

#[test]
#[ignore = "needs the 7-edge table built; run by scripts/check-tables.sh"]
fn edges7_htm_is_admissible() {
    edges7_admissible(Metric::Htm, 21);
}

#[test]
#[ignore = "needs the 7-edge table built; run by scripts/check-tables.sh"]
fn edges7_qtm_is_admissible() {
    edges7_admissible(Metric::Qtm, 22);
}
