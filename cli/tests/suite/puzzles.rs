//! Any puzzle from its definition: `cubelab puzzle gods` against published and independent
//! counts.
//!
//! A 2x2x2 written here by hand from the standard cubie numbering runs everywhere. cubing.js's
//! own definitions (written by `scripts/kpuzzle-definitions.mjs` from the `cubing` npm package,
//! never copied into the repository) are needed by the tests marked ignored, which
//! `scripts/test.sh` runs once it has written them into `$CUBELAB_KPUZZLE`.

use cubelab::catalogue::published::published_histogram;
use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::Metric;
use std::path::{Path, PathBuf};
use std::process::Command;

const CUBELAB: &str = env!("CARGO_BIN_EXE_cubelab");

/// A 2x2x2 as a KPuzzle definition, written from the standard cubie numbering (URF UFL ULB UBR
/// DFR DLF DBL DRB; a slot's new corner comes from `permutation[slot]`, twisted by
/// `orientationDelta[slot]`). DBL never moves under U, R, F.
const HAND_2X2: &str = r#"{
  "name": "hand 2x2x2",
  "orbits": [{"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3}],
  "defaultPattern": {"CORNERS": {"pieces": [0,1,2,3,4,5,6,7], "orientation": [0,0,0,0,0,0,0,0]}},
  "moves": {
    "U": {"CORNERS": {"permutation": [3,0,1,2,4,5,6,7], "orientationDelta": [0,0,0,0,0,0,0,0]}},
    "R": {"CORNERS": {"permutation": [4,1,2,0,7,5,6,3], "orientationDelta": [2,0,0,1,1,0,0,2]}},
    "F": {"CORNERS": {"permutation": [1,5,2,3,0,4,6,7], "orientationDelta": [1,2,0,0,2,1,0,0]}}
  }
}"#;

/// The standard output of `cubelab puzzle SUBCOMMAND --json --data-dir DIR ARGS...`, which
/// must succeed.
fn run_json(subcommand: &str, dir: &Path, args: &[&str]) -> String {
    let out = Command::new(CUBELAB)
        .args(["puzzle", subcommand, "--json", "--data-dir"])
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{subcommand} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn gods(dir: &Path, args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&run_json("gods", dir, args)).unwrap()
}

fn counts(answer: &serde_json::Value) -> Vec<u64> {
    answer["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect()
}

/// Each antipode listed, applied to the solved pattern by the definition's own algebra (not the
/// search's move tables), is a position its listed length away: unsolved, and as long as the
/// diameter.
fn check_antipodes(definition: &str, answer: &serde_json::Value) {
    use cubelab::model::kpuzzle::KPuzzleDefinition;
    let definition = KPuzzleDefinition::from_json_str(definition).unwrap();
    let diameter = answer["diameter"].as_u64().unwrap() as usize;
    let antipodes = answer["antipodes"].as_array().unwrap();
    assert!(!antipodes.is_empty());
    let solved = definition.default_pattern();
    for antipode in antipodes {
        let alg = antipode.as_str().unwrap();
        assert_eq!(alg.split_whitespace().count(), diameter, "{alg}");
        let made = solved.apply(&definition.transformation_of(alg).unwrap());
        assert!(!made.matches(solved), "{alg} leaves the puzzle solved");
    }
}

#[test]
fn a_hand_written_2x2_has_the_published_distances_in_both_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hand.kpuzzle.json");
    std::fs::write(&file, HAND_2X2).unwrap();
    for (metric, published) in [("htm", Metric::Htm), ("qtm", Metric::Qtm)] {
        let answer = gods(
            dir.path(),
            &[
                file.to_str().unwrap(),
                "--moves",
                "U,R,F",
                "--metric",
                metric,
            ],
        );
        let expected = published_histogram(TableId::new(TableKind::Pocket, published)).unwrap();
        assert_eq!(counts(&answer), expected, "{metric}");
        assert_eq!(answer["total"], 3_674_160);
        assert_eq!(answer["exact_ranking"], true);
        check_antipodes(HAND_2X2, &answer);
    }
}

#[test]
fn a_named_puzzle_is_found_in_the_data_directory_or_the_error_says_how_to_get_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(CUBELAB)
        .args(["puzzle", "gods", "pyraminx", "--moves", "r", "--data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("kpuzzle-definitions.mjs"), "{stderr}");
    std::fs::create_dir(dir.path().join("puzzles")).unwrap();
    std::fs::write(dir.path().join("puzzles/hand.kpuzzle.json"), HAND_2X2).unwrap();
    let answer = gods(dir.path(), &["hand", "--moves", "U,R,F"]);
    assert_eq!(answer["total"], 3_674_160);
}

#[test]
fn bad_input_is_refused_before_any_work_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &str); 5] = [
        ("not json", "U", "line 1"),
        (HAND_2X2, "U,Q", "Q"),
        (
            &HAND_2X2.replace("[3,0,1,2,4,5,6,7]", "[3,3,1,2,4,5,6,7]"),
            "U",
            "moves.U.CORNERS.permutation",
        ),
        (
            &HAND_2X2.replace("[2,0,0,1,1,0,0,2]", "[2,0,0,1,1,0,0,5]"),
            "R",
            "orientationDelta",
        ),
        (HAND_2X2, "", "--moves"),
    ];
    for (text, moves, named) in cases {
        let file = dir.path().join("bad.kpuzzle.json");
        std::fs::write(&file, text).unwrap();
        let out = Command::new(CUBELAB)
            .args(["puzzle", "gods"])
            .arg(&file)
            .args(["--moves", moves, "--data-dir"])
            .arg(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{moves}: {stderr}");
        assert!(stderr.contains(named), "{named}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Where `scripts/test.sh` writes cubing.js's definitions.
fn definitions() -> PathBuf {
    let dir = std::env::var_os("CUBELAB_KPUZZLE")
        .map(PathBuf::from)
        .expect(
            "CUBELAB_KPUZZLE names the folder of cubing.js's definitions (scripts/test.sh sets it)",
        );
    assert!(
        dir.join("pyraminx.kpuzzle.json").is_file(),
        "no definitions in {}: write them with `node scripts/kpuzzle-definitions.mjs {}`",
        dir.display(),
        dir.display()
    );
    dir
}

fn gods_of(puzzle: &str, args: &[&str]) -> serde_json::Value {
    let dir = definitions();
    let file = dir.join(format!("{puzzle}.kpuzzle.json"));
    let mut all = vec![file.to_str().unwrap()];
    all.extend_from_slice(args);
    gods(&dir, &all)
}

#[test]
#[ignore = "needs cubing.js's definitions: scripts/test.sh writes them and runs this"]
fn cubings_2x2_equals_the_cubes_own_table_in_both_metrics() {
    for (metric, published) in [("htm", Metric::Htm), ("qtm", Metric::Qtm)] {
        let answer = gods_of("2x2x2", &["--moves", "U,F,R", "--metric", metric]);
        let expected = published_histogram(TableId::new(TableKind::Pocket, published)).unwrap();
        assert_eq!(counts(&answer), expected, "{metric}");
    }
}

#[test]
#[ignore = "needs cubing.js's definitions: scripts/test.sh writes them and runs this"]
fn the_pyraminx_without_tips_has_933120_positions_and_gods_number_11() {
    // The two-layer turns leave the tips (CORNERS2) where they are.
    let answer = gods_of("pyraminx", &["--moves", "2r,2l,2b,2u"]);
    assert_eq!(answer["total"], 933_120);
    assert_eq!(answer["diameter"], 11);
}

#[test]
#[ignore = "needs cubing.js's definitions: scripts/test.sh writes them and runs this"]
fn the_skewb_has_3149280_positions_and_gods_number_11() {
    let answer = gods_of(
        "skewb",
        &["--moves", "U,L,R,B", "--ignore-orientation", "CENTERS"],
    );
    assert_eq!(answer["total"], 3_149_280);
    assert_eq!(answer["diameter"], 11);
}

fn solve(dir: &Path, args: &[&str]) -> Vec<serde_json::Value> {
    run_json("solve", dir, args)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Each printed solution, applied to its position by the definition's own algebra (not the
/// solver's tables), solves it, in as many moves as the printed length.
fn check_solutions(definition: &str, answers: &[serde_json::Value]) {
    use cubelab::model::kpuzzle::KPuzzleDefinition;
    let definition = KPuzzleDefinition::from_json_str(definition).unwrap();
    let solved = definition.default_pattern();
    for answer in answers {
        let scramble = answer["scramble"].as_str().unwrap();
        let solution = answer["solution"].as_str().unwrap();
        let start = solved.apply(&definition.transformation_of(scramble).unwrap());
        let end = start.apply(&definition.transformation_of(solution).unwrap());
        assert!(end.matches(solved), "{solution} does not solve {scramble}");
        assert_eq!(answer["optimal"], true);
    }
}

/// The hand-written 2x2x2 solved with pattern databases too small to hold it whole (pieces
/// and twists apart): the lengths equal the distances `gods` finds, in both metrics, and a
/// position's distance is as long as its scramble's shortest form (`R U2 F'`: 3, 4 in QTM).
#[test]
fn a_hand_written_2x2_is_solved_optimally_with_projections() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hand.kpuzzle.json");
    std::fs::write(&file, HAND_2X2).unwrap();
    let file = file.to_str().unwrap();
    for (metric, length) in [("htm", 3), ("qtm", 4)] {
        let answers = solve(
            dir.path(),
            &[
                file,
                "--moves",
                "U,R,F",
                "--metric",
                metric,
                "--table-states",
                "100000",
            ]
            .into_iter()
            .chain(["--scramble", "R U2 F'", "--scramble", ""])
            .collect::<Vec<_>>(),
        );
        assert_eq!(answers.len(), 2);
        assert_eq!(answers[0]["length"], length, "{metric}");
        assert_eq!(answers[1]["length"], 0, "{metric}");
        check_solutions(HAND_2X2, &answers);
        let random = solve(
            dir.path(),
            &[
                file,
                "--moves",
                "U,R,F",
                "--metric",
                metric,
                "--table-states",
                "100000",
                "--random",
                "12",
                "--seed",
                "5",
            ],
        );
        assert_eq!(random.len(), 12);
        check_solutions(HAND_2X2, &random);
        // The lengths are the distances of God's algorithm: none beyond its diameter, and
        // the deepest ones common.
        let gods = gods(dir.path(), &[file, "--moves", "U,R,F", "--metric", metric]);
        let diameter = gods["diameter"].as_u64().unwrap();
        assert!(
            random
                .iter()
                .all(|a| a["length"].as_u64().unwrap() <= diameter)
        );
        assert!(
            random
                .iter()
                .any(|a| a["length"].as_u64().unwrap() + 2 >= diameter)
        );
    }
}

/// The Pyraminx with its tips solved from cubing.js's definition: every solution checked by
/// the definition's algebra, and every length within God's number of the same moves.
#[test]
#[ignore = "needs cubing.js's definitions: scripts/test.sh writes them and runs this"]
fn the_pyraminx_is_solved_optimally() {
    let dir = definitions();
    let file = dir.join("pyraminx.kpuzzle.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let file = file.to_str().unwrap();
    let moves = "r,l,b,u,2r,2l,2b,2u";
    let answers = solve(
        &dir,
        &[
            file,
            "--moves",
            moves,
            "--table-states",
            "2000000",
            "--random",
            "20",
        ],
    );
    check_solutions(&text, &answers);
    let gods = gods_of("pyraminx", &["--moves", moves]);
    let diameter = gods["diameter"].as_u64().unwrap();
    assert!(
        answers
            .iter()
            .all(|a| a["length"].as_u64().unwrap() <= diameter)
    );
}
