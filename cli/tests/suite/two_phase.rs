//! The two-phase tables against published counts and independent searches, and the two-phase
//! solver's answers: every one applied and checked, optimal where it says so.

use crate::common;
use std::path::Path;

use common::{NearSolved, random_scrambles};
use cubelab::catalogue::scan::checked_histogram;
use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::{Cube3, Metric};
use cubelab::search::twophase::{TwoPhaseLimits, TwoPhaseSolver, TwoPhaseStatus};
use cubelab::space::twophase::{
    SymProduct, corner_permutation, layer_edges, phase2_moves, slice_order,
};
use cubelab::table::Verify;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::OnceLock;
use std::time::Duration;

fn data_dir() -> &'static Path {
    common::shared(&TableKind::TWO_PHASE, &[Metric::Htm])
}

fn solver() -> &'static TwoPhaseSolver {
    static SOLVER: OnceLock<TwoPhaseSolver> = OnceLock::new();
    SOLVER.get_or_init(|| TwoPhaseSolver::open(data_dir()).unwrap())
}

/// The phase-1 table, its entries weighted by the positions each stands for, has the published
/// phase-1 distribution (Winter, Reid); every table's entries agree with its build histogram.
#[test]
fn tables_match_their_histograms_and_the_published_counts() {
    for kind in TableKind::TWO_PHASE {
        let table = TableId::new(kind, Metric::Htm)
            .open(data_dir(), Verify::Always)
            .unwrap();
        let checked = checked_histogram(&table);
        assert!(
            checked.problems.is_empty(),
            "{kind:?}: {:?}",
            checked.problems
        );
        assert_eq!(checked.published, kind == TableKind::Phase1Sym, "{kind:?}");
    }
    let table = TableId::new(TableKind::Phase1Sym, Metric::Htm)
        .open(data_dir(), Verify::IfNew)
        .unwrap();
    let positions = SymProduct::phase1().positions_by_depth(|i| table.nibble(i));
    assert_eq!(positions, common::reference_histogram("phase1_htm.csv"));
}

/// Within H, the phase-2 table's entry of a position is its distance in H's moves ignoring the
/// E-slice edges' order: checked against a breadth-first search of cubies out to depth 6, and
/// along random walks (neighbours differ by at most one; something leads one closer).
#[test]
fn phase2_entries_are_distances_within_h() {
    let table = TableId::new(TableKind::Phase2, Metric::Htm)
        .open(data_dir(), Verify::IfNew)
        .unwrap();
    let index = SymProduct::phase2();
    let entry = |c: &Cube3| table.entry(index.index(corner_permutation(c), layer_edges(c)));
    let moves = phase2_moves();
    let key = |c: &Cube3| (c.corners.perm, c.edges.perm[..8].to_vec());
    let near = common::distances_by_cubies(&moves, key, 6);
    for depth in 0..=6u8 {
        let at = near.iter().filter(|&(_, &d)| d == depth).count();
        assert!(at > 0, "depth {depth}");
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(40);
    for _ in 0..2_000 {
        use rand::RngExt;
        let length = rng.random_range(0..=6);
        let cube = (0..length).fold(Cube3::SOLVED, |c, _| {
            c.apply(moves[rng.random_range(0..moves.len())])
        });
        assert_eq!(entry(&cube), near[&key(&cube)]);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let mut cube = Cube3::SOLVED;
    for _ in 0..20_000 {
        use rand::RngExt;
        cube = cube.apply(moves[rng.random_range(0..moves.len())]);
        let d = entry(&cube);
        let around: Vec<u8> = moves.iter().map(|&m| entry(&cube.apply(m))).collect();
        assert!(around.iter().all(|n| n.abs_diff(d) <= 1));
        assert!(d == 0 || around.contains(&(d - 1)));
        assert!(slice_order(&cube) < 24);
    }
}

/// Random positions: a solution of at most 20 moves, which solves the position.
#[test]
fn random_positions_are_solved_within_twenty() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
    for _ in 0..300 {
        let cube = Cube3::random(&mut rng);
        let result = solver()
            .solve(&cube, TwoPhaseLimits::default(), &mut |_| {})
            .unwrap();
        assert_eq!(result.status, TwoPhaseStatus::Found);
        let solution = result.solution.unwrap();
        assert!(solution.len() <= 20);
        assert!(cube.apply_all(&solution).is_solved());
        assert_eq!(result.improvements.len(), 1);
    }
}

/// Given time, the search runs to its end and its answer is optimal: lengths equal an
/// independent search's, in both the position's and the inverse's directions.
#[test]
fn a_finished_search_is_optimal() {
    let near = NearSolved::shared(Metric::Htm, 3);
    let limits = TwoPhaseLimits {
        max_length: 20,
        budget: Some(Duration::from_secs(600)),
        timeout: None,
        fruitless_ud_phase1: None,
    };
    for cube in random_scrambles(Metric::Htm, 60, 7, 8) {
        let mut lengths = Vec::new();
        let result = solver()
            .solve(&cube, limits, &mut |found| lengths.push(found.length))
            .unwrap();
        assert_eq!(result.status, TwoPhaseStatus::Optimal);
        let solution = result.solution.unwrap();
        assert!(cube.apply_all(&solution).is_solved());
        assert_eq!(Some(solution.len() as u8), near.distance(&cube));
        assert!(lengths.windows(2).all(|w| w[1] < w[0]), "{lengths:?}");
        assert_eq!(lengths.last(), Some(&(solution.len() as u32)));
    }
}

/// Every solution splits into a phase-1 and a phase-2 part along each of the three axes, so
/// skipping the phase-1 parts along the position's own U-D axis (as a coset run's finishing
/// does for the parts it has shown fruitless) loses no length: skipping them all, every
/// position is still solved optimally, along the other axes.
#[test]
fn skipping_the_ud_axis_loses_no_solution() {
    let near = NearSolved::shared(Metric::Htm, 3);
    for cube in random_scrambles(Metric::Htm, 40, 6, 33) {
        let Some(distance) = near.distance(&cube) else {
            continue;
        };
        let limits = TwoPhaseLimits {
            max_length: u32::from(distance),
            fruitless_ud_phase1: Some(u32::from(distance)),
            ..TwoPhaseLimits::default()
        };
        let result = solver().solve(&cube, limits, &mut |_| {}).unwrap();
        let solution = result.solution.expect("solved along another axis");
        assert_eq!(solution.len(), usize::from(distance));
        assert!(cube.apply_all(&solution).is_solved());
    }
    // And skipping changes the search: a random position's phase 1 walks other nodes.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(33);
    let cube = Cube3::random(&mut rng);
    let nodes = |fruitless_ud_phase1| {
        let limits = TwoPhaseLimits {
            fruitless_ud_phase1,
            ..TwoPhaseLimits::default()
        };
        let result = solver().solve(&cube, limits, &mut |_| {}).unwrap();
        assert!(cube.apply_all(&result.solution.unwrap()).is_solved());
        result.phase1_nodes
    };
    assert_ne!(nodes(None), nodes(Some(20)));
}

/// A maximum below the optimal length ends the search with no solution (max-length), and a
/// timeout ends one that cannot finish in time.
#[test]
fn limits_end_a_search_with_a_status() {
    let cube = random_scrambles(Metric::Htm, 1, 7, 9)[0];
    let near = NearSolved::shared(Metric::Htm, 3);
    let optimal = u32::from(near.distance(&cube).unwrap());
    let short = TwoPhaseLimits {
        max_length: optimal - 1,
        ..TwoPhaseLimits::default()
    };
    let result = solver().solve(&cube, short, &mut |_| {}).unwrap();
    assert_eq!(result.status, TwoPhaseStatus::MaxLength);
    assert!(result.solution.is_none());

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let hard = Cube3::random(&mut rng);
    let hopeless = TwoPhaseLimits {
        max_length: 15,
        budget: None,
        timeout: Some(Duration::from_millis(200)),
        fruitless_ud_phase1: None,
    };
    let result = solver().solve(&hard, hopeless, &mut |_| {}).unwrap();
    assert_eq!(result.status, TwoPhaseStatus::Timeout);
    assert!(result.solution.is_none());
}
