//! The coset search against the published distances of H itself and against independent
//! distances of positions of another coset, both ways: each position reached at a depth is
//! exactly that far, and each position not reached is farther.

use crate::common::{self, NearSolved};
use cubelab::bfs::breadth_first_near;
use cubelab::catalogue::TableKind;
use cubelab::model::cube::{Cube3, Metric, Move, Rotation};
use cubelab::model::notation::parse_moves;
use cubelab::search::coset::{CosetLimits, CosetResult, CosetSolver, Progress};
use cubelab::search::into_h::{DistanceIntoH, Turns};
use cubelab::space::coset::{CosetSpace, in_subgroup};
use cubelab::space::phase1::{Phase1Coord, Phase1Space};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

fn data_dir() -> &'static Path {
    common::shared(&TableKind::TWO_PHASE, &[Metric::Htm])
}

fn solver() -> &'static CosetSolver {
    static SOLVER: OnceLock<CosetSolver> = OnceLock::new();
    SOLVER.get_or_init(|| CosetSolver::new(DistanceIntoH::open(data_dir()).unwrap()).unwrap())
}

/// Held by each run: a run maps two 3.25 GB sets, so the tests take turns rather than ask for
/// four of them beside the rest of the suite.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn exact(representative: &Cube3, max_depth: u32, watch: &[Cube3]) -> CosetResult {
    run(representative, &CosetLimits::exact(max_depth), watch)
}

fn run(representative: &Cube3, limits: &CosetLimits, watch: &[Cube3]) -> CosetResult {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let progress = Progress {
        watch,
        on_depth: &mut |_| {},
        stop: &AtomicBool::new(false),
    };
    solver().run(representative, limits, progress).unwrap()
}

fn cube(moves: &str) -> Cube3 {
    Cube3::from_moves(&parse_moves(moves).unwrap())
}

/// The published distances of the elements of H with all 18 moves (Rokicki), from
/// tests/data/coset_identity_htm.csv's `all_moves` column.
fn published_identity_coset() -> Vec<u64> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/coset_identity_htm.csv");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth"))
        .map(|l| l.split(',').nth(1).unwrap().trim().parse().unwrap())
        .collect()
}

/// H itself, the coset of the solved cube, depth by depth to 9 (28.9 million positions): the
/// published counts, each one exact.
#[test]
fn the_identity_coset_has_the_published_distances() {
    let result = exact(&Cube3::SOLVED, 9, &[]);
    let counts: Vec<u64> = result.depths.iter().map(|d| d.count).collect();
    assert_eq!(counts, published_identity_coset()[..=9]);
    assert!(result.depths.iter().all(|d| d.exact));
    assert_eq!(result.bound, None);
    let published: u64 = published_identity_coset().iter().sum();
    assert_eq!(published, cubelab::space::coset::ELEMENTS);
}

/// Positions of the coset of `R F'` (random elements of H, up to 9 of H's moves, put before
/// it): the depth each is first reached at equals its distance by an independent
/// meet-in-the-middle search, and those not reached by depth 7 are farther.
#[test]
fn reached_depths_are_exact_distances_both_ways() {
    let representative = cube("R F'");
    let h_moves = CosetSpace::moves();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(29);
    let positions: Vec<Cube3> = (0..300)
        .map(|i| {
            let length = i % 10;
            let h: Vec<Move> = (0..length)
                .map(|_| h_moves[rng.random_range(0..h_moves.len())])
                .collect();
            Cube3::from_moves(&h).then(&representative)
        })
        .collect();
    let result = exact(&representative, 7, &positions);
    let near = NearSolved::new(Metric::Htm, 4);
    let (mut reached, mut farther) = (0, 0);
    for (position, depth) in positions.iter().zip(&result.watched) {
        let distance = near.distance(position).map(u32::from);
        match depth {
            Some(d) => {
                assert_eq!(Some(*d), distance, "{position:?}");
                reached += 1;
            }
            None => {
                assert!(distance.is_none_or(|d| d > 7), "{position:?}: {distance:?}");
                farther += 1;
            }
        }
    }
    assert!(
        reached > 100 && farther > 20,
        "{reached} reached, {farther} farther"
    );
    // The counts agree with the watched positions' depths being the first ones.
    let total: u64 = result.depths.iter().map(|d| d.count).sum();
    assert_eq!(total, result.depths.last().unwrap().total);
}

/// With the prepass at every depth (and with it Rokicki's rule, which leaves to the prepass
/// the nodes near H with a little to spare), the counts are those of phase 1 alone, and H's
/// are the published ones.
#[test]
fn the_prepass_counts_as_phase_one_alone() {
    let with_prepass = |r: &Cube3, depth: u32, prepass_from: u64| -> Vec<u64> {
        let limits = CosetLimits {
            prepass_from,
            ..CosetLimits::exact(depth)
        };
        let result = run(r, &limits, &[]);
        assert!(result.depths.iter().all(|d| d.exact));
        result.depths.iter().map(|d| d.count).collect()
    };
    let identity = with_prepass(&Cube3::SOLVED, 9, 0);
    assert_eq!(identity, published_identity_coset()[..=9]);
    let r = cube("R F' U L2 B");
    let depth = solver().reach(&r) + 4;
    assert_eq!(
        with_prepass(&r, depth, 0),
        with_prepass(&r, depth, u64::MAX)
    );
}

/// The turns the search walks by (a coordinate's distance into H and which turns lower or keep
/// it, stored for a class's representative and renamed through a symmetry) are those read off
/// the distances of the position and its children, for every coordinate within four moves of H
/// (many of them symmetric) and for random ones.
#[test]
fn the_phase_one_turns_are_the_children_distances() {
    let turns = solver().turns();
    let into_h = turns.distances();
    let phase1 = Phase1Space::new(Metric::Htm);
    let (near, _) = breadth_first_near(&phase1, 4, &indicatif::ProgressBar::hidden());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(30);
    let random = (0..20_000).map(|_| Phase1Coord::of(&Cube3::random(&mut rng)));
    let coords: Vec<Phase1Coord> = near
        .keys()
        .map(|&index| Phase1Coord::from_index(index))
        .chain(random)
        .collect();
    for c in coords {
        let expected = Turns::of(into_h.distance(c), |turn| {
            into_h.distance(phase1.apply_coord(c, turn))
        });
        assert_eq!(turns.turns(c), expected, "{c:?}");
    }
}

/// Conjugating the representative by a symmetry that keeps the U-D axis maps H onto itself and
/// the coset onto the coset of the conjugate, distance for distance.
#[test]
fn conjugate_cosets_have_equal_counts() {
    let representative = cube("R U F' L D2 B");
    let depth = solver().reach(&representative) + 3;
    let counts = |r: &Cube3| -> Vec<u64> {
        exact(r, depth, &[])
            .depths
            .iter()
            .map(|d| d.count)
            .collect()
    };
    let original = counts(&representative);
    assert!(original.iter().sum::<u64>() > 0);
    let turned = Rotation::y().conjugate(&representative);
    assert_ne!(turned, representative);
    assert_eq!(counts(&turned), original);
}

/// A representative in H names H; a watched position outside the coset is refused, as is a
/// depth below the coset's reach.
#[test]
fn cosets_are_named_and_checked() {
    assert!(in_subgroup(&cube("U R2 D' F2")));
    assert!(!in_subgroup(&cube("R")));
    let r = cube("R");
    let too_deep = solver().check(&r, &CosetLimits::exact(300)).unwrap_err();
    assert!(
        too_deep.to_string().contains("at most 30 moves deep"),
        "{too_deep}"
    );
    let limits = CosetLimits::exact(0);
    let error = solver().check(&r, &limits).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("below the coset's distance into H (1)")
    );
    let progress = Progress {
        watch: &[cube("F")],
        on_depth: &mut |_| {},
        stop: &AtomicBool::new(false),
    };
    let limits = CosetLimits::exact(2);
    let error = solver().run(&r, &limits, progress).unwrap_err();
    assert!(error.to_string().contains("not in this coset"), "{error}");
}

/// `cubelab coset`: JSON counts, a bound that fails with status 1, clear errors.
#[test]
fn the_coset_command_counts_and_refuses_bad_input() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cubelab"))
            .arg("coset")
            .args(["--data-dir", data_dir().to_str().unwrap()])
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["--exact", "--max-depth", "5", "--json", "U", "D2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let counts: Vec<u64> = serde_json::from_value(json["counts"].clone()).unwrap();
    assert_eq!(counts, published_identity_coset()[..=5]);
    assert_eq!(json["bound"], serde_json::Value::Null);
    // Within 3 moves is not every position of H: status 1, the unreached counted.
    let out = run(&["--bound", "3", "--csv", "U"]);
    assert_eq!(out.status.code(), Some(1));
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(
        csv.starts_with("depth,count,total,exact,sequences,seconds,prepass_seconds\n0,1,1,true"),
        "{csv}"
    );
    for (args, message) in [
        (
            vec!["--exact", "--max-depth", "0", "R"],
            "below the coset's distance",
        ),
        (vec!["R", "Q"], "cannot read the coset"),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let empty = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cubelab"))
        .args(["coset", "--data-dir", empty.path().to_str().unwrap(), "U"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gen-tables"));
}
