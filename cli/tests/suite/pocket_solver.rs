//! 2x2 solving: the table is exact (proved state by state), agrees with an independent search,
//! and every printed solution solves its position in the optimal number of turns.

use crate::common;

use cubelab::catalogue::TableKind;
use cubelab::model::cube::{Cube2, Face, Metric, Move, Rotation};
use cubelab::model::notation::parse_moves;
use cubelab::packing::nibble;
use cubelab::search::descent::MoveSpace;
use cubelab::search::pocket::PocketSolver;
use cubelab::space::pocket;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::path::Path;

/// Both 2x2 tables, in the suite's shared directory.
fn data_dir() -> &'static Path {
    common::shared(&[TableKind::Pocket], &Metric::BOTH)
}

fn solver(metric: Metric) -> PocketSolver {
    PocketSolver::open(data_dir(), metric).unwrap()
}

/// A table is the exact distance iff the goal alone is at 0, every other state has a neighbour
/// one closer, and no move changes the distance by more than one.
#[test]
fn the_tables_are_exact_state_by_state() {
    for metric in Metric::BOTH {
        let solver = solver(metric);
        let table =
            (cubelab::catalogue::TableId::new(cubelab::catalogue::TableKind::Pocket, metric))
                .open(data_dir(), cubelab::table::Verify::Always)
                .unwrap();
        let space = pocket::PocketSpace::new(metric);
        let packed = table.payload();
        let goal = pocket::rank(&Cube2::SOLVED);
        for state in 0..pocket::STATES {
            let d = nibble(packed, state);
            assert!(d <= 14, "{metric}: state {state} unreached");
            assert_eq!(d == 0, state == goal);
            let mut closer = false;
            for turn in 0..space.move_count() {
                let n = nibble(packed, space.apply(state, turn));
                assert!(n.abs_diff(d) <= 1, "{metric}: {state} -> {n} from {d}");
                closer |= n + 1 == d;
            }
            assert!(d == 0 || closer, "{metric}: state {state} has no way down");
        }
        drop(solver);
    }
}

/// Breadth-first search over cubie states in a hash map, independent of ranking and move tables.
fn plain_bfs(metric: Metric, max_depth: u8) -> HashMap<Cube2, u8> {
    let moves = metric.generators(&pocket::FACES);
    let mut seen = HashMap::from([(Cube2::SOLVED, 0u8)]);
    let mut frontier = vec![Cube2::SOLVED];
    for depth in 1..=max_depth {
        let mut next = Vec::new();
        for cube in &frontier {
            for &m in &moves {
                let n = cube.apply(m);
                if let std::collections::hash_map::Entry::Vacant(slot) = seen.entry(n) {
                    slot.insert(depth);
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    seen
}

#[test]
fn near_states_agree_with_an_independent_search() {
    for (metric, depth, reference) in [
        (Metric::Htm, 6, "pocket_htm.csv"),
        (Metric::Qtm, 8, "pocket_qtm.csv"),
    ] {
        let solver = solver(metric);
        let near = plain_bfs(metric, depth);
        let published = common::reference_histogram(reference);
        assert_eq!(
            near.len() as u64,
            published[..=depth as usize].iter().sum::<u64>()
        );
        for (cube, &d) in &near {
            assert_eq!(solver.distance(cube), d, "{metric} {cube:?}");
        }
    }
}

#[test]
fn random_positions_get_verified_optimal_solutions_in_the_frame_they_are_held() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    for metric in Metric::BOTH {
        let solver = solver(metric);
        for i in 0..300 {
            // Hold each random state in one of the 24 ways.
            let rotation = Rotation::all()[i % 24];
            let cube = Cube2 {
                corners: Cube2::random(&mut rng).corners.then(rotation.corners()),
            };
            let solution = solver.solve(&cube).unwrap();
            assert!(cube.apply_all(&solution).is_solved());
            assert_eq!(metric.length(&solution), u32::from(solver.distance(&cube)));
        }
    }
}

#[test]
fn all_optimal_solutions_are_distinct_and_optimal() {
    let solver = solver(Metric::Htm);
    let cube = Cube2::from_moves(&parse_moves("R U R' U' F2 U").unwrap());
    let all = solver.solve_all(&cube).unwrap();
    let d = u32::from(solver.distance(&cube));
    assert!(all.len() > 1);
    for s in &all {
        assert!(cube.apply_all(s).is_solved());
        assert_eq!(Metric::Htm.length(s), d);
    }
    let mut unique = all.clone();
    unique.dedup();
    assert_eq!(unique.len(), all.len());
    // Every first move that goes down by one begins some solution.
    let firsts: std::collections::BTreeSet<Move> = all.iter().map(|s| s[0]).collect();
    assert!(!firsts.is_empty());
}

#[test]
fn known_short_positions() {
    let htm = solver(Metric::Htm);
    let qtm = solver(Metric::Qtm);
    let cases = [
        ("R U R' U'", 4, 4),
        ("R U2", 2, 3),
        ("D", 1, 1),
        ("R L'", 0, 0),
        ("L x", 1, 1),
        ("F2 B2", 0, 0),
        ("F2 U2", 2, 4),
    ];
    for (text, in_htm, in_qtm) in cases {
        let cube = Cube2::from_moves(&parse_moves(text).unwrap());
        assert_eq!(htm.distance(&cube), in_htm, "{text} htm");
        assert_eq!(qtm.distance(&cube), in_qtm, "{text} qtm");
        let s = htm.solve(&cube).unwrap();
        assert!(cube.apply_all(&s).is_solved());
    }
    // A solved cube held upside down needs no turns.
    let held = Cube2 {
        corners: *Rotation::about(Face::R).power(2).corners(),
    };
    assert_eq!(htm.solve(&held).unwrap(), vec![]);
}

/// The random positions every experiment samples are uniform: the corners of a random 3x3
/// position (after the swap that matches its edges' parity) are a uniform 2x2 state, so their
/// 2x2 distances follow the whole space's published counts; and its corner and edge
/// permutations are uniform, so the pieces left in place follow the rencontres numbers. Each
/// is a chi-square test over 200,000 seeded positions against the 0.1% critical value for its
/// degrees of freedom. Orientations drawn from two of three values, or a shuffle that draws
/// only cycles (Sattolo's, `0..i` for `0..=i`), fail it.
#[test]
fn random_positions_are_uniform() {
    use cubelab::catalogue::{TableId, TableKind, published::published_histogram};
    use cubelab::model::cube::Cube3;
    let solver = solver(Metric::Htm);
    let samples = 200_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(27);
    let cubes: Vec<Cube3> = (0..samples).map(|_| Cube3::random(&mut rng)).collect();
    assert!(cubes.iter().all(|cube| cube.validate().is_ok()));

    // 2x2 distances 0-5 pooled (under 5 positions expected), then 6 to 11: 6 degrees of freedom.
    let published = published_histogram(TableId::new(TableKind::Pocket, Metric::Htm)).unwrap();
    let by_distance = |distance: usize| distance.saturating_sub(5);
    let distances = cubes.iter().map(|cube| {
        let corners = Cube2 {
            corners: cube.corners,
        };
        by_distance(usize::from(solver.distance(&corners)))
    });
    let chi = chi_square(distances, &shares(&published, 7, by_distance));
    assert!(
        chi < 22.46,
        "2x2 distances of the corners: chi-square {chi:.1}"
    );

    // Pieces in place, 4 or more pooled: 4 degrees of freedom.
    let by_count = |fixed: usize| fixed.min(4);
    let in_place = |perm: &[u8]| {
        (0..perm.len())
            .filter(|&i| usize::from(perm[i]) == i)
            .count()
    };
    let corners = cubes
        .iter()
        .map(|cube| by_count(in_place(&cube.corners.perm)));
    let chi = chi_square(corners, &shares(&rencontres(8), 5, by_count));
    assert!(chi < 18.47, "corners in place: chi-square {chi:.1}");
    let edges = cubes
        .iter()
        .map(|cube| by_count(in_place(&cube.edges.perm)));
    let chi = chi_square(edges, &shares(&rencontres(12), 5, by_count));
    assert!(chi < 18.47, "edges in place: chi-square {chi:.1}");
}

/// Permutations of `n` things by how many they leave in place: C(n, k) x derangements(n - k).
fn rencontres(n: usize) -> Vec<u64> {
    let mut derangements = vec![1u64, 0];
    for m in 2..=n {
        derangements.push((m as u64 - 1) * (derangements[m - 1] + derangements[m - 2]));
    }
    (0..=n)
        .map(|k| cubelab::coord::binomial(n as u32, k as u32) * derangements[n - k])
        .collect()
}

/// The share of each of `bins` bins, `counts` giving how many states have each value and
/// `bin` placing a value.
fn shares(counts: &[u64], bins: usize, bin: impl Fn(usize) -> usize) -> Vec<f64> {
    let total: u64 = counts.iter().sum();
    let mut shares = vec![0.0; bins];
    for (value, &count) in counts.iter().enumerate() {
        shares[bin(value)] += count as f64 / total as f64;
    }
    shares
}

/// Pearson's statistic of the observed bins against the expected `shares`.
fn chi_square(observed: impl Iterator<Item = usize>, shares: &[f64]) -> f64 {
    let mut seen = vec![0u64; shares.len()];
    for bin in observed {
        seen[bin] += 1;
    }
    let samples: u64 = seen.iter().sum();
    seen.iter()
        .zip(shares)
        .map(|(&o, &share)| {
            let expected = share * samples as f64;
            (o as f64 - expected).powi(2) / expected
        })
        .sum()
}
