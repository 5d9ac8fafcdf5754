//! Optimal 3x3x3 solving: lengths equal an independent search's distances, every solution
//! solves its position, and the limits end a search cleanly.
//!
//! The heuristic here is Korf's, corners and the 6-edge sets (quick to build); the default
//! phase-1 heuristic has its own tests in `phase1_solver.rs`.

use crate::common;
use std::path::Path;

use common::{NearSolved, random_scrambles};
use cubelab::catalogue::TableKind;
use cubelab::model::cube::{Cube3, Metric};
use cubelab::model::notation::parse_moves;
use cubelab::search::heuristic::AnyHeuristic;
use cubelab::search::ida::{SearchLimits, SearchStatus, Solver};
use std::time::Duration;

/// Corners and 6-edge tables in both metrics, built once for this test binary.
fn data_dir() -> &'static Path {
    common::shared(&[TableKind::Corners, TableKind::Edges6], &Metric::BOTH)
}

fn solver(metric: Metric) -> Solver {
    Solver::new(AnyHeuristic::open(data_dir(), metric, TableKind::Edges6).unwrap())
}

fn cube(text: &str) -> Cube3 {
    Cube3::from_moves(&parse_moves(text).unwrap())
}

/// Solves optimally and checks the answer against the position and the expected length.
fn optimal_length(solver: &Solver, cube: &Cube3) -> u32 {
    let result = solver.solve(cube, SearchLimits::default(), |_| {}).unwrap();
    assert_eq!(result.status, SearchStatus::Optimal);
    assert_eq!(result.solutions.len(), 1);
    let solution = &result.solutions[0];
    assert!(cube.apply_all(solution).is_solved());
    solver.metric().length(solution)
}

#[test]
fn htm_lengths_equal_an_independent_search() {
    let near = NearSolved::shared(Metric::Htm, 5);
    let solver = solver(Metric::Htm);
    for position in random_scrambles(Metric::Htm, 12, 10, 3) {
        let truth = near.distance(&position).expect("within 11");
        assert_eq!(optimal_length(&solver, &position), u32::from(truth));
    }
}

#[test]
fn qtm_lengths_equal_an_independent_search() {
    let near = NearSolved::shared(Metric::Qtm, 5);
    let solver = solver(Metric::Qtm);
    for position in random_scrambles(Metric::Qtm, 12, 11, 4) {
        let truth = near.distance(&position).expect("within 11");
        assert_eq!(optimal_length(&solver, &position), u32::from(truth));
    }
}

#[test]
fn known_positions() {
    let htm = solver(Metric::Htm);
    let qtm = solver(Metric::Qtm);
    // The T-permutation's usual 14-move algorithm is not optimal: 11 face turns suffice, which
    // the independent search confirms.
    let t_perm = cube("R U R' U' R' F R2 U' R' U' R U R' F'");
    assert_eq!(
        NearSolved::shared(Metric::Htm, 5).distance(&t_perm),
        Some(11)
    );
    assert_eq!(optimal_length(&htm, &t_perm), 11);
    // Pons asinorum (the checkerboard): 6 half turns, 12 quarter turns.
    let checkerboard = cube("U2 D2 F2 B2 L2 R2");
    assert_eq!(optimal_length(&htm, &checkerboard), 6);
    assert_eq!(optimal_length(&qtm, &checkerboard), 12);
    // Sexy move and Sune.
    assert_eq!(optimal_length(&htm, &cube("R U R' U'")), 4);
    assert_eq!(optimal_length(&htm, &cube("R U R' U R U2 R'")), 7);
    assert_eq!(optimal_length(&htm, &Cube3::SOLVED), 0);
}

#[test]
fn every_optimal_solution_once() {
    let solver = solver(Metric::Htm);
    let position = cube("R U F D");
    let all = SearchLimits {
        all: true,
        ..SearchLimits::default()
    };
    let result = solver.solve(&position, all.clone(), |_| {}).unwrap();
    assert!(!result.solutions.is_empty());
    for s in &result.solutions {
        assert!(position.apply_all(s).is_solved());
        assert_eq!(s.len(), 4);
    }
    let mut unique = result.solutions.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), result.solutions.len());
    // R and L commute: R L has exactly one canonical optimal solution.
    let result = solver.solve(&cube("R L"), all, |_| {}).unwrap();
    assert_eq!(result.solutions, vec![parse_moves("R' L'").unwrap()]);
}

#[test]
fn the_answer_does_not_depend_on_thread_timing() {
    let solver = solver(Metric::Htm);
    let position = cube("F2 L' U2 B R' D2 F U'");
    let first = solver
        .solve(&position, SearchLimits::default(), |_| {})
        .unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let single = pool.install(|| {
        solver
            .solve(&position, SearchLimits::default(), |_| {})
            .unwrap()
    });
    assert_eq!(first.solutions, single.solutions);
    assert_eq!(first.iterations.len(), single.iterations.len());
}

#[test]
fn limits_end_a_search_with_a_status() {
    let solver = solver(Metric::Htm);
    let position = cube("R U F D L B");
    let short = SearchLimits {
        max_length: Some(3),
        ..SearchLimits::default()
    };
    let result = solver.solve(&position, short, |_| {}).unwrap();
    assert_eq!(result.status, SearchStatus::MaxLength);
    assert!(result.solutions.is_empty());
    // Proven: more than 3 moves, and never more than the true distance, 6.
    assert!(
        (4..=6).contains(&result.lower_bound),
        "{}",
        result.lower_bound
    );
    let hard = cube("F U' F2 D' B U R' F' L D' R' U' L U B' D2 R' F U2 D2");
    let quick = SearchLimits {
        timeout: Some(Duration::from_millis(50)),
        ..SearchLimits::default()
    };
    let result = solver.solve(&hard, quick, |_| {}).unwrap();
    assert_eq!(result.status, SearchStatus::Timeout);
    assert!(result.solutions.is_empty());
    let unfinished = result.iterations.last().unwrap().bound;
    assert_eq!(result.lower_bound, unfinished);
}

#[test]
fn iterations_are_reported_in_order() {
    let solver = solver(Metric::Htm);
    let mut seen = Vec::new();
    let result = solver
        .solve(&cube("R2 U F' L D2"), SearchLimits::default(), |it| {
            seen.push(it.bound)
        })
        .unwrap();
    assert_eq!(
        seen,
        result
            .iterations
            .iter()
            .map(|i| i.bound)
            .collect::<Vec<_>>()
    );
    assert!(seen.windows(2).all(|w| w[1] == w[0] + 1));
    assert_eq!(*seen.last().unwrap(), 5);
    assert!(result.nodes() > 0);
}

/// Korf's heuristic with the position's symmetries (see `common::check_symmetry_classes`).
#[test]
fn symmetric_positions_are_solved_once_per_class() {
    let positions = common::symmetric_positions(6, 43);
    common::check_symmetry_classes(&solver(Metric::Htm), &positions);
}
