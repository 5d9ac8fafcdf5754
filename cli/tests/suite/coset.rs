//! The coset search against the published distances of H itself and against independent
//! distances of positions of another coset, both ways: each position reached at a depth is
//! exactly that far, and each position not reached is farther.

use crate::common::{self, NearSolved};
use cubelab::bfs::breadth_first_near;
use cubelab::catalogue::TableKind;
use cubelab::model::cube::{Cube3, Metric, Move, Rotation};
use cubelab::model::notation::parse_moves;
use cubelab::search::coset_finish;
use cubelab::search::cosets::{CosetList, name_of};
use cubelab::search::into_h::{DistanceIntoH, Turns};
use cubelab::search::twophase::TwoPhaseSolver;
use cubelab::solving::coset::{CosetLimits, CosetProgress, CosetResult, CosetSolver};
use cubelab::space::coset::{CosetSpace, in_subgroup};
use cubelab::space::phase1::{Phase1Coord, Phase1Space};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

fn data_dir() -> &'static Path {
    common::shared(&TableKind::TWO_PHASE, &[Metric::Htm])
}

fn solver() -> &'static CosetSolver {
    static SOLVER: OnceLock<CosetSolver> = OnceLock::new();
    SOLVER.get_or_init(|| {
        CosetSolver::new(DistanceIntoH::open(data_dir(), Metric::Htm).unwrap()).unwrap()
    })
}

/// The tables of a quarter-turn coset search (the same directory as [`data_dir`]'s).
fn qtm_data_dir() -> &'static Path {
    common::shared(&[TableKind::Phase1Sym], &[Metric::Qtm])
}

fn qtm_solver() -> &'static CosetSolver {
    static SOLVER: OnceLock<CosetSolver> = OnceLock::new();
    SOLVER.get_or_init(|| {
        CosetSolver::new(DistanceIntoH::open(qtm_data_dir(), Metric::Qtm).unwrap()).unwrap()
    })
}

fn solver_in(metric: Metric) -> &'static CosetSolver {
    match metric {
        Metric::Htm => solver(),
        Metric::Qtm => qtm_solver(),
    }
}

/// Held by each run: a run maps two 3.25 GB sets, so the tests take turns rather than ask for
/// four of them beside the rest of the suite.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn exact(representative: &Cube3, max_depth: u32, watch: &[Cube3]) -> CosetResult {
    run(representative, &CosetLimits::exact(max_depth), watch)
}

fn run(representative: &Cube3, limits: &CosetLimits, watch: &[Cube3]) -> CosetResult {
    run_in(Metric::Htm, representative, limits, watch)
}

fn run_in(
    metric: Metric,
    representative: &Cube3,
    limits: &CosetLimits,
    watch: &[Cube3],
) -> CosetResult {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let progress = CosetProgress {
        watch,
        on_depth: &mut |_| {},
        stop: &AtomicBool::new(false),
        on_finish: &|_, _| {},
    };
    solver_in(metric)
        .run(representative, limits, progress)
        .unwrap()
}

/// The elements of H at each quarter-turn distance up to `depth`, by a breadth-first search
/// of the whole cube: the cube's graph in quarter turns has two colours (each turn changes
/// the corners' parity), so a level's neighbours lie in the levels before and after it.
fn identity_coset_qtm(depth: u8) -> Vec<u64> {
    use std::collections::HashSet;
    let moves = Metric::Qtm.generators(&cubelab::model::cube::Face::ALL);
    let (mut before, mut level) = (HashSet::new(), HashSet::from([Cube3::SOLVED]));
    let mut counts = vec![1];
    for _ in 0..depth {
        let next: HashSet<Cube3> = level
            .iter()
            .flat_map(|cube| moves.iter().map(move |&m| cube.apply(m)))
            .filter(|cube| !before.contains(cube))
            .collect();
        counts.push(next.iter().filter(|cube| in_subgroup(cube)).count() as u64);
        before = std::mem::replace(&mut level, next);
    }
    counts
}

fn cube(moves: &str) -> Cube3 {
    Cube3::from_moves(&parse_moves(moves).unwrap())
}

/// The published distances of the elements of H with all 18 moves (Rokicki), from
/// tests/data/coset_identity_htm.csv's `all_moves` column.
fn published_identity_coset() -> Vec<u64> {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tests/data/coset_identity_htm.csv");
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
    let result = both_ways(Metric::Htm, &representative, 29, 10, 7, 4);
    assert!(
        result.0 > 100 && result.1 > 20,
        "{result:?} reached, farther"
    );
}

/// Runs the coset of `representative` in `metric` to exact depth `max_depth`, watching 300
/// random positions of it (elements of H of up to `h_moves - 1` of H's moves put before it,
/// from `seed`): each reached is at the distance a meet-in-the-middle search of `radius` finds,
/// each not reached is farther. Returns how many were reached and how many not.
fn both_ways(
    metric: Metric,
    representative: &Cube3,
    seed: u64,
    h_moves_at_most: usize,
    max_depth: u32,
    radius: u8,
) -> (usize, usize) {
    let h_moves = CosetSpace::moves();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let positions: Vec<Cube3> = (0..300)
        .map(|i| {
            let h: Vec<Move> = (0..i % h_moves_at_most)
                .map(|_| h_moves[rng.random_range(0..h_moves.len())])
                .collect();
            Cube3::from_moves(&h).then(representative)
        })
        .collect();
    let limits = CosetLimits::exact(max_depth);
    let result = run_in(metric, representative, &limits, &positions);
    let near = NearSolved::shared(metric, radius);
    let (mut reached, mut farther) = (0, 0);
    for (position, depth) in positions.iter().zip(&result.watched) {
        let distance = near.distance(position).map(u32::from);
        match depth {
            Some(d) => {
                assert_eq!(Some(*d), distance, "{metric} {position:?}");
                reached += 1;
            }
            None => {
                let farther_than = |d: u32| d > max_depth;
                assert!(
                    distance.is_none_or(farther_than),
                    "{position:?}: {distance:?}"
                );
                farther += 1;
            }
        }
    }
    // The counts agree with the watched positions' depths being the first ones.
    let total: u64 = result.depths.iter().map(|d| d.count).sum();
    assert_eq!(total, result.depths.last().unwrap().total);
    (reached, farther)
}

/// With the prepass at every depth (and with it Rokicki's rule, which leaves to the prepass
/// the nodes near H with a little to spare), the counts are those of phase 1 alone, and H's
/// are the published ones.
#[test]
fn the_prepass_counts_as_phase_one_alone() {
    let identity = with_prepass(Metric::Htm, &Cube3::SOLVED, 9, 0);
    assert_eq!(identity, published_identity_coset()[..=9]);
    let r = cube("R F' U L2 B");
    let depth = solver().reach(&r) + 4;
    assert_eq!(
        with_prepass(Metric::Htm, &r, depth, 0),
        with_prepass(Metric::Htm, &r, depth, u64::MAX)
    );
}

/// The exact counts of a run in `metric` whose prepass starts above `prepass_from` elements.
fn with_prepass(metric: Metric, r: &Cube3, depth: u32, prepass_from: u64) -> Vec<u64> {
    let limits = CosetLimits {
        prepass_from,
        ..CosetLimits::exact(depth)
    };
    let result = run_in(metric, r, &limits, &[]);
    assert!(result.depths.iter().all(|d| d.exact));
    result.depths.iter().map(|d| d.count).collect()
}

/// In quarter turns: H's counts are those of a breadth-first search of the whole cube, and
/// with the prepass at every depth (moving only the elements of the parity a depth reaches,
/// and leaving `R R` endings to it) the counts are those of phase 1 alone, on H and on a coset
/// of either corner parity.
#[test]
fn quarter_turn_counts_are_those_of_phase_one_alone() {
    let alone = with_prepass(Metric::Qtm, &Cube3::SOLVED, 10, u64::MAX);
    assert_eq!(alone[..=6], identity_coset_qtm(6));
    assert_eq!(with_prepass(Metric::Qtm, &Cube3::SOLVED, 10, 0), alone);
    for r in [cube("R F' U L2 B"), cube("R F' U L B")] {
        let depth = qtm_solver().reach(&r) + 5;
        let alone = with_prepass(Metric::Qtm, &r, depth, u64::MAX);
        assert!(alone.iter().sum::<u64>() > 1000, "{alone:?}");
        assert_eq!(with_prepass(Metric::Qtm, &r, depth, 0), alone);
    }
}

/// Positions of the coset of `R F'` in quarter turns, both ways: the depth each is first
/// reached at equals its quarter-turn distance by an independent meet-in-the-middle search,
/// and those not reached by depth 8 are farther.
#[test]
fn quarter_turn_depths_are_exact_distances_both_ways() {
    let representative = cube("R F'");
    let result = both_ways(Metric::Qtm, &representative, 31, 8, 8, 5);
    assert!(
        result.0 > 50 && result.1 > 20,
        "{result:?} reached, farther"
    );
}

/// The turns the search walks by (a coordinate's distance into H and which turns lower or keep
/// it, stored for a class's representative and renamed through a symmetry) are those read off
/// the distances of the position and its children, for every coordinate within four moves of H
/// (many of them symmetric) and for random ones.
#[test]
fn the_phase_one_turns_are_the_children_distances() {
    for metric in [Metric::Htm, Metric::Qtm] {
        let turns = solver_in(metric).turns();
        let into_h = turns.distances();
        let phase1 = Phase1Space::new(metric);
        let (near, _) = breadth_first_near(&phase1, 4, &indicatif::ProgressBar::hidden());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(30);
        let random = (0..20_000).map(|_| Phase1Coord::of(&Cube3::random(&mut rng)));
        let coords: Vec<Phase1Coord> = near
            .keys()
            .map(|&index| Phase1Coord::from_index(index))
            .chain(random)
            .collect();
        // In QTM a face's two turns may raise and lower the distance (U and U' are two moves
        // apart), which the entries must hold too: count the faces that do.
        let mut rises_and_falls = 0;
        for c in coords {
            let expected = Turns::of(into_h.distance(c), phase1.moves().len(), |turn| {
                into_h.distance(phase1.apply_coord(c, turn))
            });
            assert_eq!(turns.turns(c), expected, "{metric} {c:?}");
            let rises = !(expected.lowers | expected.keeps);
            let both = |face: usize| {
                expected.lowers >> (2 * face) & 3 != 0 && rises >> (2 * face) & 3 != 0
            };
            if metric == Metric::Qtm {
                rises_and_falls += (0..6).filter(|&face| both(face)).count();
            }
        }
        if metric == Metric::Qtm {
            assert!(rises_and_falls > 0, "no face both raises and lowers");
        }
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

/// Finishing proves positions within 20 moves and leaves those it cannot prove: farther than
/// the bound, or not tried once stopped.
#[test]
fn finishing_proves_what_it_can() {
    let two_phase = TwoPhaseSolver::open(data_dir()).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20);
    let random: Vec<Cube3> = (0..20).map(|_| Cube3::random(&mut rng)).collect();
    let proven = AtomicU64::new(0);
    let on_proven = |n| {
        proven.fetch_max(n, Relaxed);
    };
    let run = |bound, stop| {
        coset_finish::prove_within(
            &two_phase,
            random.clone(),
            bound,
            0,
            &AtomicBool::new(stop),
            &on_proven,
        )
    };
    let all = run(20, false);
    assert_eq!((all.proven, all.left.len()), (20, 0));
    assert_eq!(proven.load(Relaxed), 20);
    // No random position is within 5 moves of solved (distances into H alone exceed it).
    let none = run(5, false);
    assert_eq!((none.proven, none.left), (0, random.clone()));
    let stopped = run(20, true);
    assert_eq!((stopped.proven, stopped.left.len()), (0, 20));
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
    let progress = CosetProgress {
        watch: &[cube("F")],
        on_depth: &mut |_| {},
        stop: &AtomicBool::new(false),
        on_finish: &|_, _| {},
    };
    let limits = CosetLimits::exact(2);
    let error = solver().run(&r, &limits, progress).unwrap_err();
    assert!(error.to_string().contains("not in this coset"), "{error}");
}

/// `cubelab coset`: JSON counts, a bound that fails with status 1, clear errors.
#[test]
fn the_coset_command_counts_and_refuses_bad_input() {
    // H·R's counts by the library, before this test takes its turn (a run takes it too).
    let alone: Vec<u64> = exact(&cube("R"), 5, &[])
        .depths
        .iter()
        .map(|d| d.count)
        .collect();
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cubelab"))
            .arg("coset")
            .args(["--data-dir", data_dir().to_str().unwrap()])
            .args(args)
            .output()
            .unwrap()
    };
    // A list of two cosets (H itself, named by two of its moves, and H·R), run by one
    // process: one JSON line each, each as the coset's own run gives it.
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("cosets.txt");
    std::fs::write(&list, "# H, then H R\nU D2\n\n  R\n").unwrap();
    let list_path = list.to_str().unwrap();
    let out = run(&["--exact", "--max-depth", "5", "--json", "--file", list_path]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let json = &lines[0];
    assert_eq!(json["coset"], "U D2");
    let counts: Vec<u64> = serde_json::from_value(json["counts"].clone()).unwrap();
    assert_eq!(counts, published_identity_coset()[..=5]);
    let second: Vec<u64> = serde_json::from_value(lines[1]["counts"].clone()).unwrap();
    assert_eq!(lines[1]["coset"], "R");
    assert_eq!(second, alone);
    assert!(second.iter().sum::<u64>() > 0, "{second:?}");
    assert_eq!(json["bound"], serde_json::Value::Null);
    // H is a class of its own.
    let identity = CosetList::new().number_of(Phase1Coord::of(&Cube3::SOLVED));
    assert_eq!(json["class"], identity);
    assert_eq!(json["class_cosets"], 1);
    // Within 3 moves is not every position of H: status 1, the unreached counted.
    let out = run(&["--bound", "3", "--csv", "U"]);
    assert_eq!(out.status.code(), Some(1));
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(
        csv.starts_with("depth,count,total,exact,sequences,seconds,prepass_seconds\n0,1,1,true"),
        "{csv}"
    );
    // A list is read whole before any run: a bad line is named, an empty list refused.
    std::fs::write(&list, "U\nR Q\n").unwrap();
    let bad_line = list_path;
    let nothing = dir.path().join("nothing.txt");
    std::fs::write(&nothing, "# no coset\n\n").unwrap();
    // A FIFO is refused before it is opened (opening it would wait for a writer).
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let fifo_path = fifo.to_str().unwrap();
    for (args, message) in [
        (vec!["--file", bad_line], "coset 2 of the list (R Q)"),
        (vec!["--file", nothing.to_str().unwrap()], "names no coset"),
        (vec!["--file", bad_line, "U"], "cannot be used with"),
        (vec!["--file", fifo_path], "not a regular file"),
        (
            vec!["--exact", "--max-depth", "0", "R"],
            "below the coset's distance",
        ),
        (vec!["R", "Q"], "cannot read the coset"),
        (vec!["--finish", "99999999999", "R"], "--finish"),
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
    // Only the half-turn table there: a quarter-turn run names the one it lacks.
    let half_turns_only = tempfile::tempdir().unwrap();
    std::fs::copy(
        data_dir().join("phase1-sym-htm.tbl"),
        half_turns_only.path().join("phase1-sym-htm.tbl"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cubelab"))
        .args(["coset", "--metric", "qtm", "--data-dir"])
        .arg(half_turns_only.path())
        .arg("U")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--metric qtm") && stderr.contains("phase1-sym"),
        "{stderr}"
    );
}

/// `cubelab coset --metric qtm`: H's counts in quarter turns, by the breadth-first search of the
/// whole cube, and the metric in the JSON object.
#[test]
fn the_coset_command_counts_quarter_turns() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = Command::new(env!("CARGO_BIN_EXE_cubelab"))
        .args([
            "coset",
            "--metric",
            "qtm",
            "--exact",
            "--max-depth",
            "5",
            "--json",
        ])
        .arg("--data-dir")
        .arg(qtm_data_dir())
        .arg("U")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let counts: Vec<u64> = serde_json::from_value(json["counts"].clone()).unwrap();
    assert_eq!(counts, identity_coset_qtm(5));
    assert_eq!(json["metric"], "qtm");
}

/// Each listed class is named by a shortest sequence into its coset: the sequence's phase-1
/// coordinate is the class's, and its length the coset's distance into H.
#[test]
fn listed_cosets_are_named_by_shortest_sequences() {
    let into_h = solver().turns().distances();
    let phase1 = Phase1Space::new(Metric::Htm);
    let list = CosetList::new();
    let step = list.len() / 499;
    for number in (0..list.len()).step_by(step as usize).chain([1, 2, 3]) {
        let c = list.coordinate(number).unwrap();
        let name = name_of(c, &phase1, into_h).unwrap();
        assert_eq!(
            Phase1Coord::of(&Cube3::from_moves(&name)),
            c,
            "class {number}"
        );
        assert_eq!(
            name.len(),
            usize::from(into_h.distance(c)),
            "class {number}"
        );
        assert_eq!(list.number_of(c), number);
    }
    let identity = list.number_of(Phase1Coord::of(&Cube3::SOLVED));
    let named = name_of(list.coordinate(identity).unwrap(), &phase1, into_h).unwrap();
    assert!(named.is_empty());
}

/// `cubelab cosets`: the count, a slice of the list as names `cubelab coset` reads back into
/// the same classes, and a clear error past the end.
#[test]
fn the_cosets_command_counts_and_lists() {
    let cosets = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cubelab"))
            .arg("cosets")
            .args(["--data-dir", data_dir().to_str().unwrap()])
            .args(args)
            .output()
            .unwrap()
    };
    let out = cosets(&["--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["distinct"], 138_639_780);
    assert_eq!(json["cosets"], 2_217_093_120u64);
    let out = cosets(&["--from", "1000000", "--count", "4", "--csv"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "class,moves,cosets,distance");
    assert_eq!(rows.len(), 5, "{csv}");
    let list = CosetList::new();
    for (row, number) in rows[1..].iter().zip(1_000_000u64..) {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields[0], number.to_string());
        let named = Phase1Coord::of(&cube(fields[1]));
        assert_eq!(list.number_of(named), number, "{row}");
        assert_eq!(fields[2], list.cosets_in(number).unwrap().to_string());
    }
    // H, whose shortest name is empty, is named by a move of H.
    let identity = list.number_of(Phase1Coord::of(&Cube3::SOLVED)).to_string();
    let out = cosets(&["--from", &identity, "--count", "1"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "U\n");
    let out = cosets(&["--from", "138639780", "--count", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("past the last class (138639779)"));
}

/// `stats cosets`: runs merged, a reference matched at its start, a chart drawn; a class run
/// twice or counts that differ from the reference exit 1, a file that holds no run exits 2.
#[test]
fn the_stats_cosets_command_merges_and_compares() {
    use cubelab::solving::coset::{COSET_POSITIONS, Class, representative};
    let dir = tempfile::tempdir().unwrap();
    // A run as `cubelab coset --json` writes it: the coset's own class, and every position
    // of it counted once (the rest unreached).
    let list = CosetList::new();
    let run = |coset: &str, counts: &[u64]| {
        let class = Class::in_list(&list, &representative(coset).unwrap());
        let unsolved = COSET_POSITIONS - counts.iter().sum::<u64>();
        serde_json::json!({"coset": coset, "class": class.number, "class_cosets": class.cosets,
            "counts": counts, "reached": counts, "bound": null, "unsolved": unsolved,
            "seconds": 2.0})
        .to_string()
    };
    let runs = dir.path().join("runs.jsonl");
    std::fs::write(
        &runs,
        format!("{}\n{}\n", run("U", &[1, 10]), run("R F", &[0, 0, 67])),
    )
    .unwrap();
    let reference = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tests/data/coset_identity_htm.csv");
    let chart = dir.path().join("chart.svg");
    let stats = |args: &[&std::ffi::OsStr]| {
        Command::new(env!("CARGO_BIN_EXE_stats"))
            .arg("cosets")
            .args(args)
            .output()
            .unwrap()
    };
    let out = stats(&[
        runs.as_os_str(),
        "--reference".as_ref(),
        reference.as_os_str(),
        "--chart".as_ref(),
        chart.as_os_str(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout
            .contains("equal the reference's at depths 0 to 1 (the reference's last depth is 18)"),
        "{stdout}"
    );
    assert!(std::fs::read_to_string(&chart).unwrap().contains("<svg"));
    // H's class twice, and counts that are not the reference's.
    std::fs::write(
        &runs,
        format!("{}\n{}\n", run("U", &[1, 10]), run("D2", &[1, 11])),
    )
    .unwrap();
    let out = stats(&[runs.as_os_str(), "--json".as_ref()]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let h = Class::in_list(&list, &Cube3::SOLVED).number;
    assert_eq!(json["repeated"], serde_json::json!([h]));
    // H's run with its class edited is refused, not merged as another coset.
    let mut edited: serde_json::Value = serde_json::from_str(&run("U", &[1, 10])).unwrap();
    edited["class"] = (h - 1).into();
    std::fs::write(&runs, format!("{}\n{edited}\n", run("U", &[1, 10]))).unwrap();
    let out = stats(&[runs.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 2: the run of 'U' cannot be right"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(&runs, run("U", &[1, 11])).unwrap();
    let out = stats(&[
        runs.as_os_str(),
        "--reference".as_ref(),
        reference.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("DIFFER from the reference, first at depth 1")
    );
    std::fs::write(&runs, "{\"not\": \"a run\"}\n").unwrap();
    let out = stats(&[runs.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("line 1: not a run of `cubelab coset --json`")
    );
}
