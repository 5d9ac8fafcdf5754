//! The `ud` coset tables and the solver that reads them along three axes: the smallest shape
//! (`ud-f4`, 78.6 million entries) as a distance function on positions, and its solutions
//! against an independent search. (The reduced table equals an unreduced search of the same
//! cosets: a unit test in `pdb::ud`.)

use crate::common;
use std::path::Path;

use common::{random_scrambles, solve};
use cubelab::bfs::breadth_first;
use cubelab::catalogue::scan::checked_histogram;
use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::{Cube3, Face, Metric};
use cubelab::model::notation::parse_moves;
use cubelab::packing::based::{Based, Spot};
use cubelab::packing::{Encoding, nibble};
use cubelab::search::heuristic::{AnyHeuristic, UdHeuristic};
use cubelab::search::ida::{SearchLimits, Solver};
use cubelab::space::ud::{UdCoord, UdSpace};
use cubelab::table::Verify;
use indicatif::ProgressBar;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

fn data_dir() -> &'static Path {
    common::shared(&[TableKind::UdF4], &Metric::BOTH)
}

fn solver(metric: Metric) -> Solver {
    Solver::new(AnyHeuristic::open(data_dir(), metric, TableKind::UdF4).unwrap())
}

#[test]
fn entries_are_coset_distances_of_positions() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    for metric in Metric::BOTH {
        let shape = TableKind::UdF4.ud_shape().unwrap();
        let space = UdSpace::new(shape, metric);
        let exact = breadth_first(&space, Encoding::Nibble, &ProgressBar::hidden()).unwrap();
        let id = TableId::new(TableKind::UdF4, metric);
        let file = id.open(data_dir(), Verify::Always).unwrap();
        assert_eq!(file.header().histogram, exact.histogram);
        assert!(checked_histogram(&file).problems.is_empty());
        let based = Based::new(file.payload()).unwrap();
        let index = |cube: &Cube3| space.index(UdCoord::of(cube, shape));
        let value = |cube: &Cube3| nibble(&exact.packed, index(cube));
        let moves = metric.generators(&Face::ALL);
        let mut cubes: Vec<Cube3> = (0..3000).map(|_| Cube3::random(&mut rng)).collect();
        cubes.extend(random_scrambles(metric, 3000, 9, 32));
        for cube in &cubes {
            let d = value(cube);
            let around: Vec<u8> = moves.iter().map(|&m| value(&cube.apply(m))).collect();
            assert!(around.iter().all(|n| n.abs_diff(d) <= 1), "{metric}");
            assert!(d == 0 || around.contains(&(d - 1)), "{metric}");
            let stored = based.value_at(Spot::of(index(cube)));
            if d > based.base() {
                assert_eq!(stored, d.min(based.base() + 3), "{metric}");
            } else {
                assert!(stored <= d, "{metric}");
            }
        }
        for text in ["", "U", "D2 U'", "U D U2"] {
            assert_eq!(value(&Cube3::from_moves(&parse_moves(text).unwrap())), 0);
        }
        assert_eq!(value(&Cube3::from_moves(&parse_moves("R").unwrap())), 1);
    }
}

#[test]
fn lengths_equal_an_independent_search() {
    common::check_lengths_against_independent_search(
        solver,
        &[(Metric::Htm, 10, 33), (Metric::Qtm, 11, 34)],
    );
}

#[test]
fn known_positions() {
    common::check_known_positions(&solver(Metric::Htm), &solver(Metric::Qtm));
}

#[test]
fn the_dual_lookup_keeps_every_optimal_solution() {
    common::check_dual_keeps_every_optimal_solution(
        solver,
        &[(Metric::Htm, 35), (Metric::Qtm, 36)],
    );
}

/// Inherited values equal those read afresh; and a face's quarter turns do not share their
/// children's inverse here (the subgroup holds U and D but not the other half turns), which is
/// why `UdHeuristic` leaves `SHARED_INVERSES_FIRST` off.
#[test]
fn children_inherit_inverse_values_along_their_turns_axes() {
    for metric in Metric::BOTH {
        let heuristic = UdHeuristic::open(data_dir(), metric, TableKind::UdF4).unwrap();
        let mut shared = 0;
        for parent in random_scrambles(metric, 100, 30, 37) {
            shared += usize::from(common::check_inherited_dual(&heuristic, &parent));
        }
        assert!(shared < 100, "{metric}: every face's quarter turns shared");
    }
}

/// Any thread's first solution and the canonical first one are both optimal; the canonical
/// one is the same on every run.
#[test]
fn deterministic_and_first_found_solutions() {
    let solver = solver(Metric::Htm);
    for position in random_scrambles(Metric::Htm, 4, 12, 38) {
        let limits = |deterministic| SearchLimits {
            dual: true,
            deterministic,
            ..SearchLimits::default()
        };
        let first = solve(&solver, &position, limits(false));
        let canonical = solve(&solver, &position, limits(true));
        assert_eq!(first[0].len(), canonical[0].len());
        assert_eq!(solve(&solver, &position, limits(true)), canonical);
    }
}

/// A flipped bit in the base of a copied table, its `.ok` stamp copied too (so the checksum is
/// not recomputed): the solver refuses the table instead of reading a bound that may be too
/// high.
#[test]
fn a_damaged_base_is_refused() {
    common::check_damaged_base_is_refused(data_dir(), TableKind::UdF4, |dir| {
        UdHeuristic::open(dir, Metric::Htm, TableKind::UdF4).err()
    });
}

/// The position's symmetries: one solution per class of symmetric images, the classes exactly
/// the solutions a search without them finds, in both metrics.
#[test]
fn symmetric_positions_are_solved_once_per_class() {
    for (metric, seed) in [(Metric::Htm, 41), (Metric::Qtm, 42)] {
        common::check_symmetry_classes(&solver(metric), &common::symmetric_positions(9, seed));
    }
}
