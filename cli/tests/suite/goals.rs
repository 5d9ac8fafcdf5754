//! Partial goals: the whole-space distributions against published and independent counts,
//! the larger goals' optimal lengths against a plain IDA* over cubies, and the binaries as a
//! user runs them.

use crate::cli::{json_lines, run, solve, text};
use crate::common;
use cubelab::catalogue::goal::{Goal, GoalTables, Orientations, Places};
use cubelab::model::cube::{Cube3, Face, Metric, Move};
use cubelab::model::goal_mask::GoalMask;
use cubelab::search::goal::GoalSolver;
use indicatif::ProgressBar;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::hash::Hash;

fn stats(args: &[&str]) -> std::process::Output {
    run(env!("CARGO_BIN_EXE_stats"), args, None)
}

fn goal_solver(dir: &std::path::Path, goal: &str) -> GoalSolver {
    solver_of(dir, Goal::parse(goal).unwrap())
}

fn solver_of(dir: &std::path::Path, goal: Goal) -> GoalSolver {
    let hidden = |_: &GoalMask| ProgressBar::hidden();
    let tables = GoalTables::open_or_build(dir, &goal, Metric::Htm, &hidden);
    GoalSolver::new(goal, tables.unwrap(), Orientations::Fixed)
}

/// The slots and turns of some pieces: a key for a search over cubies.
fn pieces_key(edges: &'static [u8], corners: &'static [u8]) -> impl Fn(&Cube3) -> Vec<u8> + Clone {
    move |cube: &Cube3| {
        let mut key = Vec::with_capacity(2 * (edges.len() + corners.len()));
        for &e in edges {
            let slot = cube.edges.perm.iter().position(|&p| p == e).unwrap();
            key.extend([slot as u8, cube.edges.ori[slot]]);
        }
        for &c in corners {
            let slot = cube.corners.perm.iter().position(|&p| p == c).unwrap();
            key.extend([slot as u8, cube.corners.ori[slot]]);
        }
        key
    }
}

/// A lower bound on a goal's distance.
type Bound<'a> = Box<dyn Fn(&Cube3) -> u8 + 'a>;

/// A lower bound read from distances a plain search over cubies found.
struct CubieBound<K> {
    key: Box<dyn Fn(&Cube3) -> K>,
    distance: rustc_hash::FxHashMap<K, u8>,
}

impl<K: Hash + Eq> CubieBound<K> {
    fn new(key: impl Fn(&Cube3) -> K + Clone + 'static) -> CubieBound<K> {
        let moves = Metric::Htm.generators(&Face::ALL);
        // The goal's pieces move with the moves alone, so distances from solved are distances
        // to solved.
        let distance = common::distances_by_cubies(&moves, key.clone(), u8::MAX);
        CubieBound {
            key: Box::new(key),
            distance,
        }
    }

    fn bound(&self, cube: &Cube3) -> u8 {
        self.distance[&(self.key)(cube)]
    }
}

/// Optimal length to `mask` by iterative deepening over cubies, bounded by `bounds`: shares
/// nothing with the goal tables but the cube model.
fn plain_ida(cube: &Cube3, mask: &GoalMask, bounds: &dyn Fn(&Cube3) -> u8) -> u8 {
    plain_ida_to(cube, &|c: &Cube3| mask.is_reached(c), bounds)
}

/// [`plain_ida`] to whatever `reached` says.
fn plain_ida_to(
    cube: &Cube3,
    reached: &dyn Fn(&Cube3) -> bool,
    bounds: &dyn Fn(&Cube3) -> u8,
) -> u8 {
    fn search(
        cube: &Cube3,
        depth: u8,
        last: Option<Face>,
        reached: &dyn Fn(&Cube3) -> bool,
        bounds: &dyn Fn(&Cube3) -> u8,
    ) -> bool {
        if depth == 0 {
            return reached(cube);
        }
        if bounds(cube) > depth {
            return false;
        }
        Move::all().any(|m| {
            last != Some(m.face())
                && search(&cube.apply(m), depth - 1, Some(m.face()), reached, bounds)
        })
    }
    (0..=20)
        .find(|&depth| search(cube, depth, None, reached, bounds))
        .expect("a goal within 20 moves")
}

/// The cross's whole-space distribution is the published one (190,080 positions, at most 8
/// moves; e.g. Lars Vandenbergh's and every cross solver's table), read from `stats goal --json`.
#[test]
fn the_cross_distribution_is_the_published_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let out = stats(&[
        "--data-dir",
        data,
        "goal",
        "cross",
        "--metric",
        "htm",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line = &json_lines(&out)[0];
    let histogram: Vec<u64> = serde_json::from_value(line["histogram"].clone()).unwrap();
    assert_eq!(
        histogram,
        [1, 15, 158, 1_394, 9_809, 46_381, 97_254, 34_966, 102]
    );
}

/// The larger goals' lengths, from their tables, against a plain IDA* over cubies on sampled
/// positions: the xcross in one place (bounded by the cross and the pair, each found by a
/// search over cubies), Roux's first block (its edges, its corners) and EOCross (the cross).
#[test]
fn larger_goals_agree_with_a_plain_ida_star_over_cubies() {
    let dir = tempfile::tempdir().unwrap();
    let cross = CubieBound::new(pieces_key(&[4, 5, 6, 7], &[]));
    let pair = CubieBound::new(pieces_key(&[8], &[4]));
    let block_edges = CubieBound::new(pieces_key(&[6, 9, 10], &[]));
    let block_corners = CubieBound::new(pieces_key(&[], &[5, 6]));
    let flips = CubieBound::new(|c: &Cube3| c.edges.ori);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(32);
    let cases: [(&str, Bound); 3] = [
        (
            "DF DR DB DL FR DFR",
            Box::new(|c: &Cube3| cross.bound(c).max(pair.bound(c))),
        ),
        (
            "roux-fb",
            Box::new(|c: &Cube3| block_edges.bound(c).max(block_corners.bound(c))),
        ),
        (
            "eocross",
            Box::new(|c: &Cube3| cross.bound(c).max(flips.bound(c))),
        ),
    ];
    for (goal, bound) in &cases {
        let solver = goal_solver(dir.path(), goal);
        for _ in 0..4 {
            let cube = Cube3::random(&mut rng);
            let expected = plain_ida(&cube, &solver.goal().mask, bound.as_ref());
            assert_eq!(solver.length(&cube), expected, "{goal}");
        }
    }
}

/// The xxcross (the cross and any two pairs at once), found by search over the xcross table,
/// against a plain IDA* over cubies on short scrambles: its goal test is read off the cubies
/// and its bound is the cross and the second smallest pair bound, each from a search over
/// cubies.
#[test]
fn the_xxcross_search_agrees_with_a_plain_ida_star_over_cubies() {
    let dir = tempfile::tempdir().unwrap();
    let solver = goal_solver(dir.path(), "xxcross");
    let cross = CubieBound::new(pieces_key(&[4, 5, 6, 7], &[]));
    // The four pairs: FR with DFR, FL with DLF, BL with DBL, BR with DRB.
    let pairs = [
        CubieBound::new(pieces_key(&[8], &[4])),
        CubieBound::new(pieces_key(&[9], &[5])),
        CubieBound::new(pieces_key(&[10], &[6])),
        CubieBound::new(pieces_key(&[11], &[7])),
    ];
    let pair_home = |c: &Cube3, k: usize| {
        c.edges.perm[8 + k] == 8 + k as u8
            && c.edges.ori[8 + k] == 0
            && c.corners.perm[4 + k] == 4 + k as u8
            && c.corners.ori[4 + k] == 0
    };
    let reached = |c: &Cube3| {
        GoalMask::parse("DF DR DB DL").unwrap().is_reached(c)
            && (0..4).filter(|&k| pair_home(c, k)).count() >= 2
    };
    let bound = |c: &Cube3| {
        let mut p: Vec<u8> = pairs.iter().map(|b| b.bound(c)).collect();
        p.sort_unstable();
        cross.bound(c).max(p[1])
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(22);
    for _ in 0..6 {
        let scramble: Vec<Move> = (0..7)
            .map(|_| Move::from_index(rand::RngExt::random_range(&mut rng, 0..18)).unwrap())
            .collect();
        let cube = Cube3::from_moves(&scramble);
        let expected = plain_ida_to(&cube, &reached, &bound);
        assert_eq!(solver.length(&cube), expected);
        let report = solver.report(&cube, true, 100).unwrap();
        assert_eq!(u32::from(report.length), u32::from(expected));
    }
}

/// A searched goal with a helper, as `f2l` is (the xcross in all four places, bounded also by
/// the four 2x2x3 blocks), on tables small enough for the suite: all four pairs at once,
/// bounded also by the two back pairs in each of their four places, against a plain IDA* over
/// cubies on short scrambles (the goal read off the cubies, bounded by each pair's distance).
#[test]
fn a_searched_goal_with_a_helper_agrees_with_a_plain_ida_star_over_cubies() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal {
        name: "four pairs".into(),
        mask: GoalMask::parse("FR DFR").unwrap(),
        places: Places::AtOnce(4),
        helpers: vec![GoalMask::parse("BL BR DBL DRB").unwrap()],
    };
    let solver = solver_of(dir.path(), goal);
    let pairs = [
        CubieBound::new(pieces_key(&[8], &[4])),
        CubieBound::new(pieces_key(&[9], &[5])),
        CubieBound::new(pieces_key(&[10], &[6])),
        CubieBound::new(pieces_key(&[11], &[7])),
    ];
    let pairs_home = GoalMask::parse("FR FL BL BR DFR DLF DBL DRB").unwrap();
    let reached = |c: &Cube3| pairs_home.is_reached(c);
    let bound = |c: &Cube3| pairs.iter().map(|b| b.bound(c)).max().unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
    for length in [3, 5, 7, 8, 8, 9] {
        let scramble: Vec<Move> = (0..length)
            .map(|_| Move::from_index(rand::RngExt::random_range(&mut rng, 0..18)).unwrap())
            .collect();
        let cube = Cube3::from_moves(&scramble);
        let expected = plain_ida_to(&cube, &reached, &bound);
        assert_eq!(solver.length(&cube), expected, "{scramble:?}");
        let report = solver.report(&cube, true, 100).unwrap();
        assert_eq!(u32::from(report.length), u32::from(expected));
    }
}

#[test]
fn solve_goal_prints_checked_solutions_and_the_face_it_used() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let out = solve(
        &["--data-dir", data, "--goal", "cross", "D", "R U F D2 L B'"],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = text(&out.stdout);
    assert!(lines.contains("D: cross 1 htm (on D): D'"), "{lines}");
    assert!(
        lines.contains("R U F D2 L B': cross 3 htm (on D): "),
        "{lines}"
    );
    // Colour neutral: after D the U cross is solved.
    let out = solve(
        &[
            "--data-dir",
            data,
            "--goal",
            "cross",
            "--orientations",
            "6",
            "--json",
            "D",
        ],
        None,
    );
    let answer = &json_lines(&out)[0];
    assert_eq!(answer["length"], 0);
    assert_eq!(answer["bottom"], "U");
    // Every optimal solution, each of the length reported.
    let out = solve(
        &[
            "--data-dir",
            data,
            "--goal",
            "xcross",
            "--all",
            "--json",
            "R U F D2 L B' R2 U F'",
        ],
        None,
    );
    let answer = &json_lines(&out)[0];
    let length = answer["length"].as_u64().unwrap();
    let solutions = answer["solutions"].as_array().unwrap();
    assert!(!solutions.is_empty());
    let mut seen = std::collections::HashSet::new();
    for s in solutions {
        let moves = cubelab::model::notation::parse_moves(s.as_str().unwrap()).unwrap();
        assert_eq!(moves.len() as u64, length);
        assert!(seen.insert(moves), "a solution listed twice");
    }
}

#[test]
fn bad_goals_masks_and_scrambles_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let out = solve(&["--data-dir", data, "--goal", "xcros", "R"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`xcros` is not a goal: name one of cross, xcross"));
    let out = solve(&["--data-dir", data, "--goal", "DF FD", "R"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("names DF twice"),
        "{}",
        text(&out.stderr)
    );
    let out = solve(&["--data-dir", data, "--goal", ",", "R"], None);
    assert!(
        text(&out.stderr).contains("names no piece"),
        "{}",
        text(&out.stderr)
    );
    // A scramble file with a bad line: the line is named, and no CSV or table is written.
    let scrambles = dir.path().join("scrambles.txt");
    std::fs::write(&scrambles, "R U\nR Q2\n").unwrap();
    let csv = dir.path().join("out.csv");
    let out = stats(&[
        "--data-dir",
        data,
        "goal",
        "cross",
        "--scrambles",
        scrambles.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 2: `R Q2`"),
        "{}",
        text(&out.stderr)
    );
    assert!(!csv.exists());
    let tables: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("goal-"))
        .collect();
    assert!(tables.is_empty());
    // The CSV may not be the scramble file it reads, by its own name or through a link: the
    // scrambles are left as they were.
    std::fs::write(&scrambles, "R U\nF2 D\n").unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&scrambles, &link).unwrap();
    for output in [&scrambles, &link] {
        let out = stats(&[
            "--data-dir",
            data,
            "goal",
            "cross",
            "--scrambles",
            scrambles.to_str().unwrap(),
            "--csv",
            output.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("is the file --scrambles reads"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(std::fs::read_to_string(&scrambles).unwrap(), "R U\nF2 D\n");
    }
}

/// A sample's lengths per neutrality: neutrality never lengthens a solution, the fixed column
/// agrees with the exact shares, and the CSV holds a row per scramble.
#[test]
fn stats_goal_over_a_sample_sets_neutralities_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let csv = dir.path().join("cross.csv");
    let chart = dir.path().join("cross.svg");
    let out = stats(&[
        "--data-dir",
        data,
        "goal",
        "cross",
        "--random",
        "20000",
        "--orientations",
        "fixed,dual,6",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
        "--chart",
        chart.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    let means: Vec<f64> = line["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["mean"].as_f64().unwrap())
        .collect();
    assert_eq!(means.len(), 3);
    assert!(means[0] > means[1] && means[1] > means[2], "{means:?}");
    let rows = line["fixed_vs_exact"].as_array().unwrap();
    let off = rows.iter().filter(|r| r["agrees"] == false).count();
    // Nine lengths at 95% each: more than two outside would be a defect, not chance.
    assert!(off <= 2, "{rows:?}");
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv_text.lines().count(), 20_001);
    assert!(csv_text.starts_with("index,total,source,goal,metric,scramble,fixed,dual,6\n"));
    for row in csv_text.lines().skip(1).take(100) {
        let fields: Vec<&str> = row.rsplitn(4, ',').collect();
        let (six, dual, fixed): (u8, u8, u8) = (
            fields[0].parse().unwrap(),
            fields[1].parse().unwrap(),
            fields[2].parse().unwrap(),
        );
        assert!(six <= dual && dual <= fixed, "{row}");
    }
    assert!(std::fs::read_to_string(&chart).unwrap().contains("<svg"));
}

/// A sample answered in shards (`--shard K/N --csv`) and merged (`--merge`) is the sample
/// answered whole; a merge that lacks a shard says so and exits 1.
#[test]
fn goal_samples_split_into_shards_merge_into_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let shards = dir.path().join("shards");
    std::fs::create_dir(&shards).unwrap();
    let sample = [
        "--random",
        "2000",
        "--seed",
        "9",
        "--orientations",
        "fixed,6",
    ];
    for k in 0..3 {
        let csv = shards.join(format!("shard-{k}.csv"));
        let shard = format!("{k}/3");
        let mut args = vec!["--data-dir", data, "goal", "xcross"];
        args.extend(sample);
        args.extend(["--shard", &shard, "--csv", csv.to_str().unwrap()]);
        let out = stats(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let shards_arg = shards.to_str().unwrap();
    let merged = stats(&[
        "--data-dir",
        data,
        "goal",
        "xcross",
        "--merge",
        shards_arg,
        "--json",
    ]);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let mut whole_args = vec!["--data-dir", data, "goal", "xcross", "--json"];
    whole_args.extend(sample);
    let whole = stats(&whole_args);
    let columns = |out: &std::process::Output| json_lines(out)[0]["columns"].clone();
    assert_eq!(columns(&merged), columns(&whole));
    assert_eq!(json_lines(&merged)[0]["positions"], 2000);
    // Two rows of a shard with their scrambles swapped (rows the merge computes again: even
    // indices, of 2,000) are refused, and so is a length no goal has.
    let shard_0 = shards.join("shard-0.csv");
    let original = std::fs::read_to_string(&shard_0).unwrap();
    let mut lines: Vec<Vec<String>> = original
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let even: Vec<usize> = (1..lines.len())
        .filter(|&i| lines[i][0].parse::<u64>().unwrap() % 2 == 0)
        .collect();
    let (a, b) = even
        .iter()
        .flat_map(|&a| even.iter().map(move |&b| (a, b)))
        .find(|&(a, b)| lines[a][6..] != lines[b][6..])
        .unwrap();
    let scramble = lines[a][5].clone();
    lines[a][5] = lines[b][5].clone();
    lines[b][5] = scramble;
    let joined =
        |lines: &[Vec<String>]| lines.iter().map(|l| l.join(",") + "\n").collect::<String>();
    std::fs::write(&shard_0, joined(&lines)).unwrap();
    let swapped = stats(&["--data-dir", data, "goal", "xcross", "--merge", shards_arg]);
    assert_eq!(swapped.status.code(), Some(2), "{}", text(&swapped.stdout));
    assert!(
        text(&swapped.stderr).contains("says lengths"),
        "{}",
        text(&swapped.stderr)
    );
    let mut impossible = original.lines().map(str::to_string).collect::<Vec<_>>();
    impossible[1] = impossible[1].rsplit_once(',').unwrap().0.to_string() + ",99";
    std::fs::write(&shard_0, impossible.join("\n") + "\n").unwrap();
    let long = stats(&["--data-dir", data, "goal", "xcross", "--merge", shards_arg]);
    assert_eq!(long.status.code(), Some(2));
    assert!(
        text(&long.stderr).contains("length 99 is longer"),
        "{}",
        text(&long.stderr)
    );
    std::fs::write(&shard_0, original).unwrap();
    std::fs::remove_file(shards.join("shard-1.csv")).unwrap();
    let partial = stats(&["--data-dir", data, "goal", "xcross", "--merge", shards_arg]);
    assert_eq!(partial.status.code(), Some(1));
    assert!(
        text(&partial.stderr).contains("positions missing"),
        "{}",
        text(&partial.stderr)
    );
}

/// `solve --goal ll`: a last-layer position's optimal solution (the optimal solver's, checked
/// on cubies), the face its first two layers are on, and a clear error for a position whose
/// first two layers are not solved.
#[test]
fn the_last_layer_is_solved_optimally_from_the_first_two_layers() {
    use cubelab::catalogue::TableKind;
    let data = common::shared(&[TableKind::UdF4], &[Metric::Htm]);
    let data = data.to_str().unwrap();
    let sune = "R U R' U R U2 R'";
    // The T permutation, 14 moves as usually written, 13 optimally.
    let t_perm = "F R U' R' U' R U R' F' R U R' U' R' F R F'";
    let out = solve(
        &[
            "--data-dir",
            data,
            "--tables",
            "ud-f4",
            "--goal",
            "ll",
            "--json",
            sune,
            t_perm,
            "z2 R U R' U R U2 R'",
        ],
        None,
    );
    // The third position's first two layers are on U: with the colour fixed, an error (exit 1).
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2, "{}", text(&out.stdout));
    assert_eq!(lines[0]["length"], 7);
    assert_eq!(lines[1]["length"], 13);
    let solution = lines[1]["solutions"][0].as_str().unwrap();
    let after = Cube3::from_moves(&cubelab::model::notation::parse_moves(t_perm).unwrap())
        .apply_all(&cubelab::model::notation::parse_moves(solution).unwrap());
    assert!(after.is_solved());
    let error = text(&out.stderr);
    assert!(
        error.contains("the first two layers are not solved (on D)"),
        "{error}"
    );
    let dual = solve(
        &[
            "--data-dir",
            data,
            "--tables",
            "ud-f4",
            "--goal",
            "ll",
            "--orientations",
            "dual",
            "--json",
            "z2 R U R' U R U2 R'",
        ],
        None,
    );
    assert!(dual.status.success(), "{}", text(&dual.stderr));
    assert_eq!(json_lines(&dual)[0]["bottom"], "U");
    assert_eq!(json_lines(&dual)[0]["length"], 7);
}
