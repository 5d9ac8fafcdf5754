//! The default 3x3x3 solver: the phase-1 table against its published distribution and as an
//! exact distance function, and solutions with the corner and phase-1 heuristic against an
//! independent search, with and without the dual lookup's move restriction.
//!
//! Builds the raw phase-1 tables (2.2 billion entries each, about 80 s per metric on two
//! cores), so every test here is `#[ignore]`d and run by `scripts/check-tables.sh`: the suite
//! keeps under its time budget, and the same distances are checked there in the
//! symmetry-reduced `phase1-sym` table (tests/two_phase.rs: the published distribution), the
//! search machinery with the Korf and coset tables.

use crate::common;

use common::{BuiltTables, random_scrambles};
use cubelab::catalogue::scan::exact_histogram;
use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::{Cube3, Metric};
use cubelab::search::heuristic::{AnyHeuristic, Phase1Heuristic};
use cubelab::search::ida::Solver;
use cubelab::space::MoveSpace;
use cubelab::space::phase1;
use cubelab::table::{Table, Verify};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::path::PathBuf;
use std::sync::OnceLock;

/// Corner and phase-1 tables of `metric`, built once per metric for this test binary.
fn data_dir(metric: Metric) -> &'static PathBuf {
    static TABLES: [OnceLock<BuiltTables>; 2] = [OnceLock::new(), OnceLock::new()];
    let built = &TABLES[usize::from(metric == Metric::Qtm)];
    &built
        .get_or_init(|| BuiltTables::build_in(&[TableKind::Corners, TableKind::Phase1], &[metric]))
        .path
}

fn solver(metric: Metric) -> Solver {
    Solver::new(AnyHeuristic::open(data_dir(metric), metric, TableKind::Phase1).unwrap())
}

fn table(metric: Metric) -> Table {
    TableId::new(TableKind::Phase1, metric)
        .open(data_dir(metric), Verify::Always)
        .unwrap()
}

fn published_distribution(metric: Metric) {
    let table = table(metric);
    let name = format!("phase1_{}.csv", metric.name());
    let counted = exact_histogram(&table).expect("every entry reached");
    assert_eq!(counted, common::reference_histogram(&name), "{metric}");
    assert_eq!(table.header().histogram, counted, "{metric}");
}

/// A table is the exact distance to the goal if the goal alone holds 0 and every other entry
/// has all neighbours within one of it and one neighbour exactly one below. Checked on a
/// random sample of entries.
fn exact_distances(metric: Metric) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let table = table(metric);
    let space = phase1::Phase1Space::new(metric);
    let goal = phase1::Phase1Coord::of(&Cube3::SOLVED).index();
    assert_eq!(table.nibble(goal), 0);
    for _ in 0..200_000 {
        let state = rng.random_range(0..phase1::STATES);
        let d = table.nibble(state);
        let neighbours: Vec<u8> = (0..space.move_count())
            .map(|turn| table.nibble(space.apply(state, turn)))
            .collect();
        assert!(neighbours.iter().all(|&n| n.abs_diff(d) <= 1), "{state}");
        if state != goal {
            assert!(d > 0 && neighbours.contains(&(d - 1)), "{state}");
        }
    }
}

/// The dual lookup takes a child's inverse phase-1 value along an axis from its parent where the
/// child's turn lies in that axis's subgroup: the values it hands down must equal those read
/// afresh for the child.
fn inherited_inverse_values(metric: Metric) {
    let heuristic = Phase1Heuristic::open(data_dir(metric), metric).unwrap();
    for parent in random_scrambles(metric, 200, 30, 10) {
        assert!(common::check_inherited_dual(&heuristic, &parent));
    }
}

#[test]
#[ignore = "builds the raw phase-1 table (80 s); run by scripts/check-tables.sh"]
fn phase1_htm_matches_the_published_distribution() {
    published_distribution(Metric::Htm);
}

#[test]
#[ignore = "builds the QTM phase-1 table (80 s); run by scripts/check-tables.sh"]
fn phase1_qtm_matches_the_published_distribution() {
    published_distribution(Metric::Qtm);
}

#[test]
#[ignore = "builds the raw phase-1 table (80 s); run by scripts/check-tables.sh"]
fn phase1_htm_entries_are_exact_distances() {
    exact_distances(Metric::Htm);
}

#[test]
#[ignore = "builds the QTM phase-1 table (80 s); run by scripts/check-tables.sh"]
fn phase1_qtm_entries_are_exact_distances() {
    exact_distances(Metric::Qtm);
}

#[test]
#[ignore = "builds the raw phase-1 table (80 s); run by scripts/check-tables.sh"]
fn htm_lengths_equal_an_independent_search() {
    common::check_lengths_against_independent_search(solver, &[(Metric::Htm, 10, 5)]);
}

#[test]
#[ignore = "builds the QTM phase-1 table (80 s); run by scripts/check-tables.sh"]
fn qtm_lengths_equal_an_independent_search() {
    common::check_lengths_against_independent_search(solver, &[(Metric::Qtm, 11, 6)]);
}

#[test]
#[ignore = "builds the QTM phase-1 table (80 s); run by scripts/check-tables.sh"]
fn known_positions() {
    common::check_known_positions(&solver(Metric::Htm), &solver(Metric::Qtm));
}

#[test]
#[ignore = "builds the raw phase-1 table (80 s); run by scripts/check-tables.sh"]
fn the_dual_move_restriction_keeps_every_optimal_htm_solution() {
    common::check_dual_keeps_every_optimal_solution(solver, &[(Metric::Htm, 8)]);
}

#[test]
#[ignore = "builds the QTM phase-1 table (80 s); run by scripts/check-tables.sh"]
fn the_dual_move_restriction_keeps_every_optimal_qtm_solution() {
    common::check_dual_keeps_every_optimal_solution(solver, &[(Metric::Qtm, 9)]);
}

#[test]
#[ignore = "builds the raw phase-1 table (80 s); run by scripts/check-tables.sh"]
fn children_inherit_inverse_htm_values_along_their_turns_axes() {
    inherited_inverse_values(Metric::Htm);
}

#[test]
#[ignore = "builds the QTM phase-1 table (80 s); run by scripts/check-tables.sh"]
fn children_inherit_inverse_qtm_values_along_their_turns_axes() {
    inherited_inverse_values(Metric::Qtm);
}
