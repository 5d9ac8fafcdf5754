//! The `h48` coset tables (reduced by all 48 symmetries) and the solver that reads them once
//! for the position and once for its inverse: the table against nissy-core's published counts,
//! as a distance function on positions, and its solutions against an independent search.

use crate::common;
use std::path::Path;

use common::random_scrambles;
use cubelab::catalogue::scan::checked_histogram;
use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::{Cube3, Face, Metric};
use cubelab::packing::based::{Based, Spot};
use cubelab::packing::nibble;
use cubelab::search::heuristic::{AnyHeuristic, H48Heuristic, Heuristic};
use cubelab::search::ida::Solver;
use cubelab::space::h48::{H48Coord, H48Flips, H48Space};
use cubelab::table::Verify;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

const KIND: TableKind = TableKind::H48Parity;

fn data_dir() -> &'static Path {
    common::h48_parity_dir()
}

fn solver(metric: Metric) -> Solver {
    Solver::new(AnyHeuristic::open(data_dir(), metric, KIND).unwrap())
}

/// The table's exact distances from the engine's row pass, in both metrics: the file's
/// histogram and based entries agree with them; they are distances of cosets (neighbours differ
/// by at most one, a positive entry has a neighbour one closer, the subgroup's positions read
/// 0); and forgetting the flip parities (the smallest distance over the four cosets an `H0`
/// coset holds) gives nissy-core's counts for its `h0` table with base 8 (`expected_h48[0]` in
/// its `src/solvers/h48/checkdata.h`): entries at most 8, 9, 10, and 11 or more.
#[test]
fn entries_are_coset_distances_and_give_nissys_h0_counts() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(51);
    for metric in Metric::BOTH {
        let space = H48Space::new(H48Flips::Parity, metric);
        let exact = common::h48_parity_exact(metric);
        let file = TableId::new(KIND, metric)
            .open(data_dir(), Verify::Always)
            .unwrap();
        assert_eq!(file.header().histogram, exact.histogram);
        assert!(checked_histogram(&file).problems.is_empty());
        let based = Based::new(file.payload()).unwrap();
        let index = |cube: &Cube3| space.index(H48Coord::of(cube));
        let value = |cube: &Cube3| nibble(&exact.packed, index(cube));
        let moves = metric.generators(&Face::ALL);
        let mut cubes: Vec<Cube3> = (0..3000).map(|_| Cube3::random(&mut rng)).collect();
        cubes.extend(random_scrambles(metric, 3000, 9, 52));
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
        for text in ["", "U2", "R2 L2 F2", "U2 D2 F2 B2 L2 R2"] {
            let cube = Cube3::from_moves(&cubelab::model::notation::parse_moves(text).unwrap());
            assert_eq!(value(&cube), 0, "{metric} {text}");
        }
        if metric == Metric::Htm {
            assert_eq!(
                h0_counts(&exact.packed),
                [5_473_562, 34_776_317, 68_566_704, 8_750_867]
            );
        }
    }
}

/// The `h0` table's entries with base 8, from a parity table's exact entries: per `H0` coset,
/// the smallest of its four parities' distances, counted as at most 8, 9, 10, or 11 and more.
fn h0_counts(exact: &[u8]) -> [u64; 4] {
    let parities = u64::from(H48Flips::Parity.values());
    let mut counts = [0u64; 4];
    for coset in 0..H48Flips::Parity.entries() / parities {
        let h0 = (0..parities)
            .map(|kept| nibble(exact, coset * parities + kept))
            .min()
            .unwrap_or(0);
        counts[usize::from(h0.saturating_sub(8).min(3))] += 1;
    }
    counts
}

#[test]
fn lengths_equal_an_independent_search() {
    common::check_lengths_against_independent_search(
        solver,
        &[(Metric::Htm, 10, 53), (Metric::Qtm, 11, 54)],
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
        &[(Metric::Htm, 55), (Metric::Qtm, 56)],
    );
}

/// A child reached by a half turn inherits its parent's inverse value; it equals the value
/// read afresh.
#[test]
fn children_inherit_inverse_values_across_half_turns() {
    for metric in Metric::BOTH {
        let heuristic = H48Heuristic::open(data_dir(), metric, KIND).unwrap();
        for parent in random_scrambles(metric, 100, 30, 57) {
            assert!(common::check_inherited_dual(&heuristic, &parent));
        }
    }
}

/// A flipped bit in the base of a copied table (its stamp copied too) is refused as damaged.
#[test]
fn a_damaged_base_is_refused() {
    common::check_damaged_base_is_refused(data_dir(), KIND, |dir| {
        H48Heuristic::open(dir, Metric::Htm, KIND).err()
    });
}

/// The position's symmetries: one solution per class of symmetric images, in both metrics.
#[test]
fn symmetric_positions_are_solved_once_per_class() {
    for (metric, seed) in [(Metric::Htm, 58), (Metric::Qtm, 59)] {
        common::check_symmetry_classes(&solver(metric), &common::symmetric_positions(9, seed));
    }
}

/// The `h48-flips` ladder in `$CUBELAB_DATA` (default `data/`), built by
/// `gen-tables h48-flips h48-flips7 ... h48-flips3` (15 GB of memory, 16 minutes here): every
/// rung bounds 500 positions up to 9 turns from solved by at most their true distance (a
/// meet-in-the-middle search), a finer rung's bound is at least the coarser one's on nine
/// positions in ten or more (not on all: a 0 read falls back to a line minimum, and lines hold
/// other entries in each rung), and the solver on each rung finds the lengths of the
/// independent search. Run by `scripts/check-tables.sh h48`.
#[test]
#[ignore = "needs the h48-flips ladder built; run by scripts/check-tables.sh h48"]
fn the_flips_ladder_bounds_and_solves() {
    let dir: std::path::PathBuf =
        std::env::var_os("CUBELAB_DATA").map_or_else(|| "data".into(), Into::into);
    let ladder = [
        TableKind::H48Flips,
        TableKind::H48Flips7,
        TableKind::H48Flips6,
        TableKind::H48Flips5,
        TableKind::H48Flips4,
        TableKind::H48Flips3,
    ];
    let near = common::NearSolved::shared(Metric::Htm, 5);
    let positions = random_scrambles(Metric::Htm, 500, 9, 60);
    let truth: Vec<u8> = positions
        .iter()
        .map(|p| near.distance(p).expect("within 9"))
        .collect();
    let mut finer: Option<Vec<u8>> = None;
    for kind in ladder {
        let heuristic = H48Heuristic::open(&dir, Metric::Htm, kind).unwrap();
        let bounds: Vec<u8> = positions.iter().map(|p| heuristic.value(p)).collect();
        for (bound, d) in bounds.iter().zip(&truth) {
            assert!(
                bound <= d,
                "{}: bound {bound} over distance {d}",
                kind.name()
            );
        }
        if let Some(finer) = &finer {
            let at_least = bounds.iter().zip(finer).filter(|(c, f)| f >= c).count();
            assert!(at_least * 10 >= bounds.len() * 9, "{}", kind.name());
        }
        finer = Some(bounds);
        let solver = Solver::new(AnyHeuristic::open(&dir, Metric::Htm, kind).unwrap());
        for position in random_scrambles(Metric::Htm, 6, 10, 61) {
            let truth = u32::from(near.distance(&position).expect("within 11"));
            assert_eq!(
                common::optimal_length(&solver, &position, true),
                truth,
                "{}",
                kind.name()
            );
        }
    }
}
