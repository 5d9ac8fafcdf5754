//! The binaries as a user runs them: output formats, exit codes, clear errors and no panics.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

pub(super) fn run(bin: &str, args: &[&str], stdin: Option<&str>) -> Output {
    run_bytes(bin, args, stdin.map(str::as_bytes))
}

pub(super) fn run_bytes(bin: &str, args: &[&str], stdin: Option<&[u8]>) -> Output {
    use std::io::Write;
    let mut child = Command::new(bin)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    if let Some(text) = stdin {
        child.stdin.take().unwrap().write_all(text).unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{bin} panicked: {stderr}");
    out
}

pub(super) fn gen_tables(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_gen-tables"), args, None)
}

pub(super) fn solve(args: &[&str], stdin: Option<&str>) -> Output {
    run(env!("CARGO_BIN_EXE_solve"), args, stdin)
}

pub(super) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Standard output as JSON lines, one object per line.
pub(super) fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

pub(super) fn built_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = gen_tables(&["--data-dir", dir.path().to_str().unwrap(), "2x2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    dir
}

pub(super) fn data(dir: &Path) -> &str {
    dir.to_str().unwrap()
}

#[test]
fn gen_tables_json_prints_the_published_histograms_then_reuses() {
    let dir = tempfile::tempdir().unwrap();
    let out = gen_tables(&["--data-dir", data(dir.path()), "--json", "2x2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    for (line, (name, reference, max)) in lines.iter().zip([
        ("2x2-htm", "pocket_htm.csv", 11),
        ("2x2-qtm", "pocket_qtm.csv", 14),
    ]) {
        assert_eq!(line["table"], name);
        assert_eq!(line["entries"], 3_674_160);
        assert_eq!(line["max_depth"], max);
        assert_eq!(line["status"], "built");
        let histogram: Vec<u64> = serde_json::from_value(line["histogram"].clone()).unwrap();
        assert_eq!(histogram, common::reference_histogram(reference));
        assert!(line["seconds"].as_f64().is_some());
        assert!(Path::new(line["path"].as_str().unwrap()).exists());
    }
    let again = gen_tables(&[
        "--data-dir",
        data(dir.path()),
        "--json",
        "--metric",
        "htm",
        "2x2",
    ]);
    let line: serde_json::Value = serde_json::from_str(text(&again.stdout).trim()).unwrap();
    assert_eq!(line["status"], "reused");
}

#[test]
fn gen_tables_list_and_verify_report_damage() {
    let dir = built_dir();
    let list = text(&gen_tables(&["--data-dir", data(dir.path()), "--list"]).stdout);
    assert!(list.contains("2x2-htm") && list.contains("valid"), "{list}");
    let path = dir.path().join("2x2-qtm.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[5000] ^= 0xFF;
    std::fs::write(&path, bytes).unwrap();
    let out = gen_tables(&["--data-dir", data(dir.path()), "--verify"]);
    assert!(!out.status.success());
    let report = text(&out.stdout);
    assert!(report.contains("2x2-htm: valid"), "{report}");
    assert!(
        report.contains("checksum") && report.contains("gen-tables"),
        "{report}"
    );
    // Building again notices the damage and rebuilds that table.
    let out = gen_tables(&["--data-dir", data(dir.path()), "--json", "2x2"]);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("\"built\""));
    assert!(text(&out.stderr).contains("rebuilding"));
}

#[test]
fn solve_prints_a_verified_optimal_2x2_solution() {
    let dir = built_dir();
    let out = solve(
        &[
            "--data-dir",
            data(dir.path()),
            "--puzzle",
            "2x2",
            "R U R' U'",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.contains("(4 htm; "), "{printed}");
    let solution = printed
        .split(": ")
        .nth(1)
        .unwrap()
        .split(" (")
        .next()
        .unwrap();
    let cube = cubelab::model::cube::Cube2::from_moves(
        &cubelab::model::notation::parse_moves("R U R' U'").unwrap(),
    );
    let moves = cubelab::model::notation::parse_moves(solution).unwrap();
    assert!(cube.apply_all(&moves).is_solved());
}

#[test]
fn solve_json_batch_from_stdin_carries_on_past_invalid_positions() {
    let dir = built_dir();
    let input = "R U2 F'\nUUUURRRRFFFFDDDDLLLLBBBX\n# a comment\n\nRFUBLDUFRDBLRUFDLBFRUDLB\nF R";
    let out = solve(
        &[
            "--data-dir",
            data(dir.path()),
            "--puzzle",
            "2x2",
            "--json",
            "--metric",
            "qtm",
        ],
        Some(input),
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "an invalid position makes the exit non-zero"
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["status"], "optimal");
    assert_eq!(lines[0]["length"], 4);
    let scrambled = cubelab::model::cube::Cube2::from_moves(
        &cubelab::model::notation::parse_moves("R U2 F'").unwrap(),
    );
    let moves =
        cubelab::model::notation::parse_moves(lines[0]["solution"].as_str().unwrap()).unwrap();
    assert!(scrambled.apply_all(&moves).is_solved());
    assert_eq!(lines[1]["status"], "invalid");
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("'X' at position 24")
    );
    assert_eq!(lines[2]["status"], "invalid");
    assert!(
        lines[2]["error"]
            .as_str()
            .unwrap()
            .contains("UFL corner slot form no real corner")
    );
    assert_eq!(lines[3]["status"], "optimal");
    assert_eq!(lines[3]["length"], 2);
}

#[test]
fn solve_random_batch_and_all_solutions() {
    let dir = built_dir();
    let seeded = [
        "--data-dir",
        data(dir.path()),
        "--puzzle",
        "2x2",
        "--random",
        "50",
        "--seed",
        "3",
        "--json",
    ];
    let out = solve(&seeded, None);
    assert!(out.status.success());
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 50);
    for line in &lines {
        let cube =
            cubelab::model::cube::Cube2::from_facelets(line["input"].as_str().unwrap()).unwrap();
        let moves =
            cubelab::model::notation::parse_moves(line["solution"].as_str().unwrap()).unwrap();
        assert!(cube.apply_all(&moves).is_solved());
    }
    let same = solve(&seeded, None);
    let inputs = |o: &Output| {
        json_lines(o)
            .into_iter()
            .map(|l| l["input"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        inputs(&out),
        inputs(&same),
        "a seed gives the same positions"
    );
    let all = solve(
        &[
            "--data-dir",
            data(dir.path()),
            "--puzzle",
            "2x2",
            "--all",
            "--json",
            "R U F",
        ],
        None,
    );
    let line: serde_json::Value = serde_json::from_str(text(&all.stdout).trim()).unwrap();
    assert_eq!(line["solutions"].as_array().unwrap().len(), 1);
    assert_eq!(line["solutions"][0], "F' U' R'");
}

#[test]
fn solve_without_tables_names_the_command_that_builds_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(
        &["--data-dir", data(dir.path()), "--puzzle", "2x2", "R"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let message = text(&out.stderr);
    assert!(
        message.contains("gen-tables") && message.contains("2x2"),
        "{message}"
    );
}

#[test]
fn solve_with_a_truncated_table_is_an_error_not_a_wrong_answer() {
    let dir = built_dir();
    let path = dir.path().join("2x2-htm.tbl");
    let len = std::fs::metadata(&path).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let out = solve(
        &["--data-dir", data(dir.path()), "--puzzle", "2x2", "R U"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("truncated"));
    assert!(text(&out.stdout).is_empty());
}

#[test]
fn bad_arguments_get_usage_errors() {
    let out = solve(&["--metric", "ftm", "R"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("htm"));
    let out = gen_tables(&["3x3x3"]);
    assert_eq!(out.status.code(), Some(2));
    let help = gen_tables(&["--help"]);
    assert!(text(&help.stdout).contains("--data-dir"));
    let stats = run(env!("CARGO_BIN_EXE_stats"), &[], None);
    assert_eq!(stats.status.code(), Some(2));
    assert!(text(&stats.stderr).contains("tables"));
    // Limits nothing would obey are refused (#31: they were silently ignored).
    for (args, message) in [
        (
            &["--puzzle", "2x2", "--max-length", "3", "R"][..],
            "--max-length is for 3x3 searches",
        ),
        (
            &["--method", "layers", "--timeout", "1", "R"][..],
            "--timeout is for --method optimal and two-phase",
        ),
    ] {
        let out = solve(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

pub(super) fn stats(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_stats"), args, None)
}

#[test]
fn stats_tables_counts_from_the_entries_and_checks_published_counts() {
    let dir = built_dir();
    let out = stats(&["tables", "--data-dir", data(dir.path()), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    for (line, reference) in lines.iter().zip(["pocket_htm.csv", "pocket_qtm.csv"]) {
        let histogram: Vec<u64> = serde_json::from_value(line["histogram"].clone()).unwrap();
        assert_eq!(histogram, common::reference_histogram(reference));
        assert_eq!(line["published"], true);
    }
    // Rewrite the HTM table with one entry changed but a valid checksum and the original
    // histogram in its header: only counting the entries can notice.
    let id = cubelab::catalogue::TableId::new(
        cubelab::catalogue::TableKind::Pocket,
        cubelab::model::cube::Metric::Htm,
    );
    let table = id.open(dir.path(), cubelab::table::Verify::Always).unwrap();
    let header = table.header().clone();
    let mut payload = table.payload().to_vec();
    drop(table);
    payload[1000] = (payload[1000] & 0xF0) | ((payload[1000] + 1) & 0x0F);
    id.write(dir.path(), header.encoding, header.histogram, &payload)
        .unwrap();
    let out = stats(&["tables", "--data-dir", data(dir.path())]);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    assert!(
        report.contains("MISMATCH: its entries disagree"),
        "{report}"
    );
    assert!(
        report.contains("MISMATCH: its distribution differs from the published one"),
        "{report}"
    );
    let empty = tempfile::tempdir().unwrap();
    let out = stats(&["tables", "--data-dir", data(empty.path())]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("gen-tables"));
}

#[test]
fn stats_experiment_summarises_and_names_the_bad_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.csv");
    std::fs::write(
        &good,
        "input,puzzle,metric,status,length,lower_bound,nodes,seconds,solution,iterations\n\
         R U,3x3,htm,optimal,2,,40,0.5,U' R',1:3:0.1 2:37:0.4\n\
         R U F,3x3,htm,optimal,3,,100,1.5,F' U' R',3:100:1.5\n\
         R F U,3x3,htm,optimal,3,,300,2.5,U' F' R',3:300:2.5\n\
         x,3x3,htm,timeout,,17,9,9.0,,16:9:9.0\n\
         R U,2x2,htm,optimal,2,,,0.0000042,U' R',\n",
    )
    .unwrap();
    let out = stats(&["experiment", good.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(summary["positions"], 5);
    // Puzzles are summarised apart: 2x2 first.
    let (pocket, cube) = (&summary["groups"][0], &summary["groups"][1]);
    assert_eq!(pocket["puzzle"], "2x2");
    assert_eq!(pocket["by_length"][0]["nodes"], serde_json::Value::Null);
    assert_eq!(cube["positions"], 4);
    assert_eq!(cube["by_status"]["timeout"], 1);
    assert_eq!(cube["lower_bounds"][0], 17);
    let three = &cube["by_length"][1];
    assert_eq!(three["length"], 3);
    assert_eq!(three["positions"], 2);
    assert_eq!(three["nodes"]["median"], 200.0);
    assert_eq!(three["nodes"]["min"], 100.0);
    assert_eq!(three["nodes"]["max"], 300.0);
    assert!((three["nodes"]["std"].as_f64().unwrap() - 141.42).abs() < 0.01);
    assert_eq!(three["seconds"]["mean"], 2.0);
    let out = stats(&["experiment", good.to_str().unwrap(), "--markdown"]);
    let markdown = text(&out.stdout);
    assert!(markdown.contains("### 2x2 htm: 1 positions"), "{markdown}");
    assert!(
        markdown.contains("| 3 | 2 | 200 | 200 | 100 | 300 | 141 |"),
        "{markdown}"
    );
    // Microseconds, not 0.000 s.
    assert!(markdown.contains("4.2 µs"), "{markdown}");
    let out = stats(&["experiment", good.to_str().unwrap()]);
    assert!(
        text(&out.stdout).contains("4.2 µs"),
        "{}",
        text(&out.stdout)
    );
    let bad = dir.path().join("bad.csv");
    std::fs::write(
        &bad,
        "input,puzzle,metric,status,length,lower_bound,nodes,seconds,solution,iterations\n\
         R U,3x3,htm,optimal,2,,40,0.5,U' R',2:40:0.5\n\
         R U F,3x3,htm,optimal,three,,100,1.5,F' U' R',3:100:1.5\n",
    )
    .unwrap();
    let out = stats(&["experiment", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 3"),
        "{}",
        text(&out.stderr)
    );
    std::fs::write(&bad, "input,status\nR U,optimal,extra\n").unwrap();
    let out = stats(&["experiment", bad.to_str().unwrap()]);
    assert!(
        text(&out.stderr).contains("line 2"),
        "{}",
        text(&out.stderr)
    );
}

/// Corners and 6-edge tables (HTM), which `solve --tables edges6` reads: the suite's shared
/// ones, for reading only.
fn built_3x3_dir() -> &'static Path {
    use cubelab::catalogue::TableKind;
    common::shared(
        &[TableKind::Corners, TableKind::Edges6],
        &[cubelab::model::cube::Metric::Htm],
    )
}

#[test]
fn solve_3x3_json_and_csv_with_invalid_positions_in_the_batch() {
    let dir = built_3x3_dir();
    let scratch = tempfile::tempdir().unwrap();
    let csv_path = scratch.path().join("experiment.csv");
    let mut flipped: Vec<char> = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
        .chars()
        .collect();
    flipped.swap(7, 19);
    let flipped: String = flipped.into_iter().collect();
    let out = solve(
        &[
            "--data-dir",
            data(dir),
            "--tables",
            "edges6",
            "--json",
            "--csv",
            csv_path.to_str().unwrap(),
            "R U R' U' F2",
            "R U X",
            &flipped,
            "D2 B' L",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["status"], "optimal");
    assert_eq!(lines[0]["puzzle"], "3x3");
    assert_eq!(lines[0]["length"], 5);
    assert!(lines[0]["nodes"].as_u64().unwrap() > 0);
    assert!(lines[0]["iterations"].as_array().unwrap().last().unwrap()["bound"] == 5);
    let position = cubelab::model::cube::Cube3::from_moves(
        &cubelab::model::notation::parse_moves("R U R' U' F2").unwrap(),
    );
    let moves =
        cubelab::model::notation::parse_moves(lines[0]["solution"].as_str().unwrap()).unwrap();
    assert!(position.apply_all(&moves).is_solved());
    assert_eq!(lines[1]["status"], "invalid");
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("'X' at column 5")
    );
    assert_eq!(lines[2]["status"], "invalid");
    assert!(lines[2]["error"].as_str().unwrap().contains("flipped"));
    assert_eq!(lines[3]["solution"], "L' B D2");
    // The CSV has a header and one row per position, quoted where needed.
    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(reader.headers().unwrap().get(0), Some("input"));
    assert_eq!(rows.len(), 4);
    assert_eq!(&rows[0][0], "R U R' U' F2");
    assert_eq!(&rows[0][3], "optimal");
    assert_eq!(&rows[0][4], "5");
    assert_eq!(
        &rows[0][5], "",
        "a lower bound only where no solution was found"
    );
    assert_eq!(&rows[1][3], "invalid");
    assert!(rows[0][9].starts_with("5:") || rows[0][9].contains(" 5:"));
}

#[test]
fn solve_3x3_limits_and_missing_tables() {
    let dir = built_3x3_dir();
    let out = solve(
        &[
            "--data-dir",
            data(dir),
            "--tables",
            "edges6",
            "--json",
            "--max-length",
            "3",
            "R U F D",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let line: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(line["status"], "max-length");
    assert!(line.get("solution").is_none());
    // R U F D is 4 moves: no solution within 3, so at least 4 is proven.
    assert_eq!(line["lower_bound"], 4);
    // The text says what the JSON says, for either way of giving up.
    for limit in [["--max-length", "3"], ["--timeout", "0"]] {
        let out = solve(
            &[
                "--data-dir",
                data(dir),
                "--tables",
                "edges6",
                limit[0],
                limit[1],
                "R U F D",
            ],
            None,
        );
        let said = text(&out.stdout);
        assert!(
            said.contains("every solution has at least 4 moves"),
            "{said}"
        );
    }
    let empty = tempfile::tempdir().unwrap();
    let out = solve(&["--data-dir", data(empty.path()), "R U"], None);
    assert_eq!(out.status.code(), Some(2));
    let message = text(&out.stderr);
    assert!(
        message.contains("gen-tables") && message.contains("h48-eo6"),
        "{message}"
    );
    // The cheaper way: the smallest coset table, seconds to build, with its own command ...
    assert!(
        message.contains("--metric htm ud-f4` and solve with --tables ud-f4"),
        "{message}"
    );
    // ... or, where other tables are present, a search with those now (a directory holding
    // just the corner and 6-edge tables: the shared one may hold others by now). Linked
    // symbolically: a hard link changes the shared file's change time, which the tables' own
    // identity checks, so other tests reading it at that moment would see it changed.
    let only = tempfile::tempdir().unwrap();
    for name in ["corners-htm.tbl", "edges6-htm.tbl"] {
        std::os::unix::fs::symlink(dir.join(name), only.path().join(name)).unwrap();
    }
    let out = solve(&["--data-dir", data(only.path()), "R U"], None);
    let message = text(&out.stderr);
    assert!(
        message.contains("or search now with the tables present: --tables edges6"),
        "{message}"
    );
    // Every missing table at once, with its size and build time, and one command for all.
    let out = solve(
        &[
            "--data-dir",
            data(empty.path()),
            "--metric",
            "qtm",
            "--tables",
            "phase1",
            "R U",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let message = text(&out.stderr);
    for part in [
        "corners-qtm (",
        "phase1-qtm (",
        "to build",
        "--metric qtm corners phase1",
    ] {
        assert!(message.contains(part), "{part}: {message}");
    }
}

#[test]
fn stats_plot_draws_tables_and_experiments() {
    let dir = built_dir();
    let out_dir = dir.path().join("figures");
    let experiment = dir.path().join("runs.csv");
    std::fs::write(
        &experiment,
        "input,puzzle,metric,status,length,lower_bound,nodes,seconds,solution,iterations\n\
         R U,3x3,htm,optimal,2,,40,0.5,U' R',1:3:0.1 2:37:0.4\n\
         R U F,3x3,htm,optimal,3,,100,1.5,F' U' R',2:20:0.5 3:80:1.0\n",
    )
    .unwrap();
    let out = stats(&[
        "plot",
        "--data-dir",
        data(dir.path()),
        "--out",
        out_dir.to_str().unwrap(),
        "--experiment",
        experiment.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = [
        "2x2-distribution.png",
        "2x2-distribution-log.png",
        "runs-lengths.png",
        "runs-nodes.png",
        "runs-seconds.png",
        "runs-iterations.png",
    ];
    for name in expected {
        let bytes = std::fs::read(out_dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&bytes[1..4], b"PNG", "{name}");
        assert!(bytes.len() > 10_000, "{name} has content");
    }
    assert_eq!(text(&out.stdout).lines().count(), expected.len());
    let out = stats(&[
        "plot",
        "--data-dir",
        data(dir.path()),
        "--format",
        "svg",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let svg = std::fs::read_to_string(out_dir.join("2x2-distribution.svg")).unwrap();
    assert!(svg.contains("2x2x2: positions at each distance"));
    // No default directory: the committed reports/figures is never rewritten unasked.
    let out = stats(&["plot", "--data-dir", data(dir.path())]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--out"));
}

/// A coset table through every binary: built by `gen-tables` in its own 2-bit encoding (a
/// first version refused it for want of `--encoding`), checked by `stats tables`, listed as
/// valid, and read by `solve --tables`.
#[test]
fn ud_tables_build_check_and_solve() {
    let dir = tempfile::tempdir().unwrap();
    let out = gen_tables(&["--data-dir", data(dir.path()), "ud-f4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let list = text(&gen_tables(&["--data-dir", data(dir.path()), "--list"]).stdout);
    assert!(
        list.lines()
            .any(|l| l.starts_with("ud-f4-htm") && l.ends_with("valid"))
    );
    let stats = run(
        env!("CARGO_BIN_EXE_stats"),
        &["tables", "--data-dir", data(dir.path())],
        None,
    );
    assert!(stats.status.success(), "{}", text(&stats.stdout));
    assert!(!text(&stats.stdout).contains("MISMATCH"));
    let t_perm = "R U R' U' R' F R2 U' R' U' R U R' F'";
    let out = solve(
        &[
            "--data-dir",
            data(dir.path()),
            "--tables",
            "ud-f4",
            "--json",
            t_perm,
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(json_lines(&out)[0]["length"], 11);
}

#[test]
fn solve_carries_on_past_a_line_that_is_not_utf8_and_ignores_a_byte_order_mark() {
    let dir = built_dir();
    let input = b"\xEF\xBB\xBFR U\n\xFF\xFE\nF\r\n";
    let out = run_bytes(
        env!("CARGO_BIN_EXE_solve"),
        &["--data-dir", data(dir.path()), "--puzzle", "2x2", "--json"],
        Some(input),
    );
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(
        (&lines[0]["input"], &lines[0]["length"]),
        (&"R U".into(), &2.into())
    );
    assert_eq!(lines[1]["status"], "invalid");
    assert_eq!(lines[1]["input"], "line 2");
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("not valid UTF-8")
    );
    assert_eq!(
        (&lines[2]["input"], &lines[2]["length"]),
        (&"F".into(), &1.into())
    );
}

#[test]
fn numeric_options_out_of_range_are_usage_errors() {
    for (option, value) in [
        ("--timeout", "-1"),
        ("--timeout", "nan"),
        ("--timeout", "inf"),
        ("--timeout", "1e20"),
        ("--threads", "0"),
        ("--threads", "100000"),
        ("--random", "-3"),
        ("--random", "18446744073709551616"),
    ] {
        let out = solve(&[&format!("{option}={value}"), "R"], None);
        assert_eq!(out.status.code(), Some(2), "{option} {value}");
        let message = text(&out.stderr);
        assert!(message.contains(value), "{option} {value}: {message}");
    }
}

/// Spawns `solve` with piped standard streams.
fn spawn_solve(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("solve runs")
}

/// Reads one line of `reader` on a thread, giving up after a minute (a reader that waits for
/// the end of its input would otherwise hang the test).
fn line_within_a_minute(reader: impl std::io::Read + Send + 'static) -> Option<String> {
    use std::io::BufRead;
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(reader).read_line(&mut line);
        let _ = send.send(line);
    });
    receive
        .recv_timeout(std::time::Duration::from_secs(60))
        .ok()
}

#[test]
fn solve_answers_each_line_of_standard_input_as_it_arrives() {
    use std::io::Write;
    let dir = built_dir();
    let mut child = spawn_solve(&["--data-dir", data(dir.path()), "--puzzle", "2x2"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"R U\n").unwrap();
    stdin.flush().unwrap();
    // Standard input stays open: the answer must come before its end.
    let answer = line_within_a_minute(child.stdout.take().unwrap());
    drop(stdin);
    let _ = child.wait();
    let answer = answer.expect("the line is answered before the input ends");
    assert!(answer.starts_with("R U: U' R'"), "{answer}");
}

#[test]
fn a_closed_pipe_ends_solve_quietly_even_mid_stream() {
    let dir = built_dir();
    let mut child = spawn_solve(&[
        "--data-dir",
        data(dir.path()),
        "--puzzle",
        "2x2",
        "--random",
        "18446744073709551615",
    ]);
    let first = line_within_a_minute(child.stdout.take().unwrap());
    assert!(
        first.is_some_and(|l| l.contains("htm")),
        "positions stream out"
    );
    // The reader has gone: the next write ends solve, without a panic.
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(stderr.is_empty(), "{stderr}");
    assert!(ended_by_closed_pipe(status), "{status:?}");
}

/// Whether a process ended as writers into a closed pipe conventionally do: killed by SIGPIPE.
fn ended_by_closed_pipe(status: std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    status.signal() == Some(13)
}

#[test]
fn every_binary_ends_quietly_when_its_output_pipe_is_closed() {
    let dir = built_dir();
    let runs: [(&str, Vec<&str>); 3] = [
        (env!("CARGO_BIN_EXE_gen-tables"), vec!["--list"]),
        (env!("CARGO_BIN_EXE_stats"), vec!["tables"]),
        (env!("CARGO_BIN_EXE_solve"), vec!["--puzzle", "2x2", "R"]),
    ];
    for (bin, args) in runs {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(bin)
            .args(&args)
            .args(["--data-dir", data(dir.path())])
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        assert!(out.stderr.is_empty(), "{bin}: {}", text(&out.stderr));
        assert!(ended_by_closed_pipe(out.status), "{bin}: {:?}", out.status);
    }
}

#[test]
fn letters_that_are_no_sticker_string_are_not_searched_as_moves() {
    let dir = built_dir();
    let args = ["--data-dir", data(dir.path()), "--puzzle", "2x2", "--json"];
    let out = solve(&args, Some("UUUURRRRFFFFDDDDLLLLBBB\n"));
    assert_eq!(out.status.code(), Some(1));
    let line = &json_lines(&out)[0];
    assert_eq!(line["status"], "invalid");
    assert!(line["error"].as_str().unwrap().contains("--moves"));
    // Said to be moves, the same letters are 23 turns.
    let moves = solve(
        &[&args[..], &["--moves"]].concat(),
        Some("UUUURRRRFFFFDDDDLLLLBBB\n"),
    );
    assert_eq!(json_lines(&moves)[0]["status"], "optimal");
    let reid = "UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR";
    let out = solve(&args, Some(reid));
    assert!(
        json_lines(&out)[0]["error"]
            .as_str()
            .unwrap()
            .contains("Reid")
    );
}

#[test]
fn print_state_needs_no_tables_and_inverse_rebuilds_the_position() {
    let empty = tempfile::tempdir().unwrap();
    let out = solve(
        &[
            "--data-dir",
            data(empty.path()),
            "--print-state",
            "--json",
            "U",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line = &json_lines(&out)[0];
    assert_eq!(
        line["reid"],
        "UR UB UL UF DF DR DB DL FR FL BR BL URB UBL ULF UFR DRF DFL DLB DBR"
    );
    let stickers = line["stickers"].as_str().unwrap();
    let turned = cubelab::model::cube::Cube3::from_moves(
        &cubelab::model::notation::parse_moves("U").unwrap(),
    );
    assert_eq!(stickers, turned.to_facelets());
    // Not a terminal: the net is plain letters, nine rows for a 3x3.
    let out = solve(&["--print-state", "--puzzle", "2x2", "R"], None);
    let shown = text(&out.stdout);
    assert!(
        !shown.contains('\x1b') && shown.contains("stickers:"),
        "{shown}"
    );
    assert_eq!(shown.lines().filter(|l| l.starts_with("    ")).count(), 4);
    // --color always paints in the scheme, --colours names it; bad colours are refused.
    let painted = text(&solve(&["--print-state", "--color", "always", "R"], None).stdout);
    assert!(
        painted.contains("\x1b[48;2;255;255;255m"),
        "white U: {painted}"
    );
    let custom = solve(
        &[
            "--print-state",
            "--color",
            "always",
            "--colours",
            "black red green yellow orange #102030",
            "R",
        ],
        None,
    );
    let custom = text(&custom.stdout);
    assert!(
        custom.contains("\x1b[48;2;0;0;0m\x1b[38;2;255;255;255mU "),
        "{custom}"
    );
    assert!(custom.contains("\x1b[48;2;16;32;48m"), "{custom}");
    let bad = solve(&["--print-state", "--colours", "red green", "R"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("six colours"),
        "{}",
        text(&bad.stderr)
    );
    // A random state's inverted solution, applied to a solved cube, is that state.
    let dir = built_dir();
    let out = solve(
        &[
            "--data-dir",
            data(dir.path()),
            "--puzzle",
            "2x2",
            "--random",
            "5",
            "--inverse",
            "--json",
        ],
        None,
    );
    for line in json_lines(&out) {
        let state =
            cubelab::model::cube::Cube2::from_facelets(line["input"].as_str().unwrap()).unwrap();
        let scramble =
            cubelab::model::notation::parse_moves(line["inverse"].as_str().unwrap()).unwrap();
        assert_eq!(
            cubelab::model::cube::Cube2::from_moves(&scramble).normalised(),
            state.normalised()
        );
    }
}

/// A table changed behind its stamp, its times set back as `touch -r` would, must be caught:
/// it once answered "optimal" with a longer solution.
#[test]
fn a_table_changed_behind_its_stamp_is_verified_again_and_rebuilt() {
    use std::io::{Read, Seek, SeekFrom, Write};
    let dir = built_dir();
    let path = dir.path().join("2x2-htm.tbl");
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    let at = file.metadata().unwrap().len() - 1000;
    let mut byte = [0u8];
    file.seek(SeekFrom::Start(at)).unwrap();
    file.read_exact(&mut byte).unwrap();
    file.seek(SeekFrom::Start(at)).unwrap();
    file.write_all(&[byte[0] ^ 0x11]).unwrap();
    file.set_modified(modified).unwrap();
    drop(file);
    let out = solve(
        &[
            "--data-dir",
            data(dir.path()),
            "--puzzle",
            "2x2",
            "R2 U2 F2",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let message = text(&out.stderr);
    assert!(message.contains("gen-tables"), "{message}");
    // The rebuild command the message names does rebuild, and the answers are right again.
    let rebuilt = gen_tables(&["--data-dir", data(dir.path()), "--json", "2x2"]);
    assert_eq!(json_lines(&rebuilt)[0]["status"], "built");
    let out = solve(
        &[
            "--data-dir",
            data(dir.path()),
            "--puzzle",
            "2x2",
            "--json",
            "R2 U2 F2",
        ],
        None,
    );
    assert_eq!(json_lines(&out)[0]["length"], 3);
}

/// Runs `bin` in the working directory `cwd` with `vars` set and CUBELAB_DATA unset unless
/// given.
fn run_in(bin: &str, cwd: &Path, vars: &[(&str, &Path)], args: &[&str]) -> Output {
    let mut command = Command::new(bin);
    command
        .current_dir(cwd)
        .args(args)
        .env_remove("CUBELAB_DATA");
    for (name, value) in vars {
        command.env(name, value);
    }
    let out = command.output().unwrap();
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
    out
}

#[test]
fn tables_are_found_from_any_directory() {
    let (home, elsewhere) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let user = [("XDG_DATA_HOME", home.path()), ("HOME", home.path())];
    // No --data-dir, no CUBELAB_DATA, no ./data: gen-tables writes to the per-user directory…
    let built = run_in(
        env!("CARGO_BIN_EXE_gen-tables"),
        elsewhere.path(),
        &user,
        &["2x2"],
    );
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert!(home.path().join("cubelab").join("2x2-htm.tbl").is_file());
    // …and solve, run from elsewhere, reads them there.
    let solved = run_in(
        env!("CARGO_BIN_EXE_solve"),
        elsewhere.path(),
        &user,
        &["--puzzle", "2x2", "R U"],
    );
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    // CUBELAB_DATA comes first.
    let empty = tempfile::tempdir().unwrap();
    let vars = [user[0], user[1], ("CUBELAB_DATA", empty.path())];
    let missing = run_in(
        env!("CARGO_BIN_EXE_solve"),
        elsewhere.path(),
        &vars,
        &["--puzzle", "2x2", "R U"],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains(empty.path().to_str().unwrap()));
}

/// A FIFO in a table's place once hung every binary; a directory or a device gave "No such
/// device" without a rebuild command.
#[test]
fn odd_files_in_a_tables_place_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("2x2-htm.tbl");
    for make in ["fifo", "dir", "devnull"] {
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_dir(&path);
        match make {
            "fifo" => {
                let made = Command::new("mkfifo").arg(&path).status().unwrap();
                assert!(made.success());
            }
            "dir" => std::fs::create_dir(&path).unwrap(),
            _ => std::os::unix::fs::symlink("/dev/null", &path).unwrap(),
        }
        let (send, receive) = std::sync::mpsc::channel();
        let data_dir = data(dir.path()).to_string();
        std::thread::spawn(move || {
            let _ = send.send(solve(
                &["--data-dir", &data_dir, "--puzzle", "2x2", "R"],
                None,
            ));
        });
        let out = receive
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("{make}: solve hangs"));
        assert_eq!(out.status.code(), Some(2), "{make}");
        let message = text(&out.stderr);
        assert!(
            message.contains("not a regular file") && message.contains("gen-tables"),
            "{make}: {message}"
        );
    }
    // A link to nothing, or to itself, is named as such (#31: "does not exist", with the
    // advice to build a table whose write would replace the link).
    for target in [dir.path().join("gone.tbl"), path.clone()] {
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_dir(&path);
        std::os::unix::fs::symlink(&target, &path).unwrap();
        let out = solve(
            &["--data-dir", data(dir.path()), "--puzzle", "2x2", "R"],
            None,
        );
        assert_eq!(out.status.code(), Some(2));
        let message = text(&out.stderr);
        assert!(
            message.contains("is a symbolic link to nothing"),
            "{target:?}: {message}"
        );
    }
}

/// A second build into a directory that one is building into is refused with the ways out,
/// and a build removes the temporary files that killed builds left behind.
#[test]
fn builds_take_their_directory_and_sweep_up_after_killed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let held = cubelab::table::BuildLock::acquire(dir.path()).unwrap();
    let out = gen_tables(&["--data-dir", data(dir.path()), "2x2"]);
    assert!(!out.status.success());
    let message = text(&out.stderr);
    assert!(
        message.contains("another gen-tables") && message.contains("--data-dir"),
        "{message}"
    );
    drop(held);
    // A process that has ended: its number names no process now.
    let mut ended = std::process::Command::new("true").spawn().unwrap();
    ended.wait().unwrap();
    let stale = dir.path().join(format!("2x2-htm.tmp{}", ended.id()));
    std::fs::write(&stale, vec![0u8; 4096]).unwrap();
    let out = gen_tables(&["--data-dir", data(dir.path()), "2x2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!stale.exists());
    assert!(text(&out.stderr).contains("interrupted build"));
    // A file of the user's that only looks like a temporary stays.
    let theirs = dir.path().join(format!("notes.tmp{}", ended.id()));
    std::fs::write(&theirs, b"mine").unwrap();
    let out = gen_tables(&["--data-dir", data(dir.path()), "2x2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(theirs.exists());
}

/// A table whose payload is wrong behind a valid checksum (rewritten with one entry set to 0)
/// leads the 2x2 descent to a sequence that does not solve the position: that is reported as
/// a damaged table with the commands that find and rebuild it, never printed as a solution.
#[test]
fn a_solution_that_fails_its_check_is_reported_as_table_damage() {
    use cubelab::catalogue::{TableId, TableKind};
    use cubelab::model::cube::{Cube2, Metric};
    use cubelab::table::Verify;
    let dir = built_dir();
    let id = TableId::new(TableKind::Pocket, Metric::Htm);
    let table = id.open(dir.path(), Verify::Always).unwrap();
    let header = table.header().clone();
    let mut payload = table.payload().to_vec();
    drop(table);
    let position = Cube2::from_moves(&cubelab::model::notation::parse_moves("R U").unwrap());
    let index = cubelab::space::pocket::rank(&position.normalised()) as usize;
    payload[index / 2] &= if index.is_multiple_of(2) { 0xF0 } else { 0x0F };
    id.write(dir.path(), header.encoding, header.histogram, &payload)
        .unwrap();
    let out = solve(
        &["--data-dir", data(dir.path()), "--puzzle", "2x2", "R U"],
        None,
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
    let message = text(&out.stderr);
    assert!(
        message.contains("a table is damaged") && message.contains("gen-tables --verify"),
        "{message}"
    );
}

/// Each binary writes its shell completions and man page from its own argument definitions.
#[test]
fn completions_and_man_pages_come_from_the_argument_definitions() {
    for (bin, flag) in [
        (env!("CARGO_BIN_EXE_solve"), "deterministic"),
        (env!("CARGO_BIN_EXE_gen-tables"), "force"),
        (env!("CARGO_BIN_EXE_stats"), "experiment"),
    ] {
        for what in ["bash", "zsh", "fish", "elvish", "powershell", "man"] {
            let out = run(bin, &["--generate", what], None);
            assert!(out.status.success(), "{bin} {what}: {}", text(&out.stderr));
            let script = text(&out.stdout);
            assert!(script.contains(flag), "{bin} {what}");
        }
        let man = text(&run(bin, &["--generate", "man"], None).stdout);
        assert!(man.starts_with(".ie") && man.contains(".TH"), "{man}");
    }
    let out = run(env!("CARGO_BIN_EXE_solve"), &["--generate", "tcsh"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn subgroups_build_solve_and_refuse_what_does_not_fit() {
    let dir = tempfile::tempdir().unwrap();
    let d = data(dir.path());
    // The squares group: its histogram is the published one, and a second run reuses it.
    let squares = [
        "--data-dir",
        d,
        "--generators",
        "U2 D2 F2 B2 L2 R2",
        "--json",
    ];
    let out = gen_tables(&squares);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line = &json_lines(&out)[0];
    assert_eq!(line["status"], "built");
    assert_eq!(line["histogram"].as_array().unwrap().len(), 16);
    assert_eq!(line["entries"], 663_552);
    assert_eq!(json_lines(&gen_tables(&squares))[0]["status"], "reused");
    // Solved within the group, checked, with a position outside it named as such.
    let out = solve(
        &[
            "--data-dir",
            d,
            "--generators",
            "U2 D2 F2 B2 L2 R2",
            "--json",
        ],
        Some("U2 R2 F2 L2\nU\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert_eq!(lines[0]["solution"], "L2 F2 R2 U2");
    assert_eq!(lines[0]["length"], 4);
    assert_eq!(lines[1]["status"], "invalid");
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("not in the group")
    );
    // Directed 2x2: clockwise turns only, so the position U makes takes three to undo.
    let directed = ["--data-dir", d, "--puzzle", "2x2", "--generators", "U R F"];
    let out = gen_tables(&[&directed[..], &["--group-metric", "directed"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = solve(
        &[&directed[..], &["--group-metric", "directed", "U"]].concat(),
        None,
    );
    assert!(
        text(&out.stdout).contains("U: U U U (3 directed in the group"),
        "{}",
        text(&out.stdout)
    );
    // Too large: refused before anything is allocated, with the group's size.
    let out = gen_tables(&["--data-dir", d, "--generators", "U R F"]);
    assert_eq!(out.status.code(), Some(1));
    let error = text(&out.stderr);
    assert!(
        error.contains("positions") && error.contains("available"),
        "{error}"
    );
    // A generator that moves the 2x2's fixed corner, and a table not built: clear errors.
    let out = gen_tables(&["--data-dir", d, "--puzzle", "2x2", "--generators", "U L"]);
    assert!(text(&out.stderr).contains("DBL corner"));
    let out = solve(&["--data-dir", d, "--generators", "U R", "R"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("gen-tables --data-dir"));
}

/// A picture that cannot be written (its file a link to /dev/full, which refuses every write)
/// is an error, whatever its size and format: small pictures once stayed in a buffer whose
/// last flush nobody checked, and were reported drawn.
#[test]
#[cfg(target_os = "linux")]
fn a_picture_that_cannot_be_written_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str]); 5] = [
        ("net.png", &["R"]),
        ("net.svg", &["R"]),
        ("pocket.png", &["--puzzle", "2x2", "R"]),
        ("cube.svg", &["--view", "3d", "R"]),
        ("both.png", &["--view", "3d-both", "--puzzle", "2x2", "R"]),
    ];
    for (name, args) in cases {
        let full = dir.path().join(name);
        std::os::unix::fs::symlink("/dev/full", &full).unwrap();
        let mut all = vec!["draw"];
        all.extend_from_slice(args);
        all.extend(["--out", full.to_str().unwrap()]);
        let out = stats(&all);
        assert!(!out.status.success(), "{name}: {}", text(&out.stdout));
        assert!(!text(&out.stdout).contains("drew"), "{name}");
        assert!(
            text(&out.stderr).contains("No space left"),
            "{name}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn positions_are_drawn_as_nets() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("superflip.png");
    let superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
    let out = stats(&["draw", superflip, "--out", png.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    // 12 x 9 stickers of 40 pixels, a 20-pixel margin.
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (520, 400));
    // A 2x2 in SVG, in colours of one's own: 24 stickers, each on a black square.
    let svg = dir.path().join("pocket.svg");
    let colours = "white #ff00ff green yellow orange blue";
    let args = [
        "draw",
        "--puzzle",
        "2x2",
        "R",
        "--out",
        svg.to_str().unwrap(),
        "--colours",
        colours,
    ];
    assert!(stats(&args).status.success());
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(picture.matches("<rect").count(), 1 + 2 * 24);
    assert!(
        picture.to_ascii_uppercase().contains("#FF00FF"),
        "R's colour used"
    );
    // --view 3d: the cube in isometric projection, its size set by the puzzle's side.
    let cube = dir.path().join("cube.png");
    let out = stats(&[
        "draw",
        "--view",
        "3d",
        superflip,
        "--out",
        cube.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(&cube).unwrap();
    let size = |b: &[u8]| {
        (
            u32::from_be_bytes(b[16..20].try_into().unwrap()),
            u32::from_be_bytes(b[20..24].try_into().unwrap()),
        )
    };
    // 3 cubies of 56 pixels: 2 · 3 · 56 · cos 30° wide, 2 · 3 · 56 high, 20-pixel margins.
    assert_eq!(size(&bytes), (330, 376));
    let pocket = dir.path().join("pocket.png");
    let args = [
        "draw",
        "--view",
        "3d",
        "--puzzle",
        "2x2",
        "R",
        "--out",
        pocket.to_str().unwrap(),
    ];
    assert!(stats(&args).status.success());
    assert_eq!(size(&std::fs::read(&pocket).unwrap()), (233, 264));
    // Errors name what is wrong.
    let jpg = dir.path().join("x.jpg");
    let out = stats(&["draw", "R", "--out", jpg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(".png or a .svg"));
    let out = stats(&[
        "draw",
        "R",
        "--out",
        svg.to_str().unwrap(),
        "--colours",
        "red pink",
    ]);
    assert!(text(&out.stderr).contains("six colours"));
    // solve --show draws the position under its solution.
    let tables = built_dir();
    let out = solve(
        &[
            "--data-dir",
            data(tables.path()),
            "--puzzle",
            "2x2",
            "--show",
            "R",
        ],
        None,
    );
    let shown = text(&out.stdout);
    assert!(shown.contains("R: R' (1 htm"), "{shown}");
    assert!(
        shown.lines().any(|l| l.trim() == "U F"),
        "the U face after R: {shown}"
    );
}

/// `gen-tables --circuit` writes a devil's algorithm that `stats circuit` passes; a damaged
/// copy is named as no circuit (exit 1), an unreadable file is an error (exit 2), and
/// generators no circuit is built for are refused before any work.
#[test]
fn circuits_are_built_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let built = gen_tables(&[
        "--data-dir",
        data(dir.path()),
        "--puzzle",
        "2x2",
        "--generators",
        "U R",
        "--group-metric",
        "qtm",
        "--circuit",
        "--json",
    ]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    let line = &json_lines(&built)[0];
    assert_eq!(line["moves"], 29_160);
    let path = dir.path().join("circuit-2x2-U.R-qtm.txt.zst");
    assert_eq!(line["path"], path.to_str().unwrap());
    let checked = stats(&["circuit", path.to_str().unwrap()]);
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    assert!(text(&checked.stdout).contains("a circuit of 2x2 <U, R> in qtm: 29,160 moves"));

    let (spec, moves) = cubelab::catalogue::circuit::read_circuit(&path).unwrap();
    let mut indices = cubelab::catalogue::circuit::move_indices(&spec, &moves).unwrap();
    indices.swap(100, 101);
    let damaged = dir.path().join("damaged.txt.zst");
    cubelab::catalogue::circuit::write_circuit(&damaged, &spec, &indices).unwrap();
    let out = stats(&["circuit", "--json", damaged.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let line = &json_lines(&out)[0];
    assert_eq!(line["circuit"], false);
    assert!(line["error"].as_str().unwrap().contains("move"), "{line}");

    // One flipped bit of the compressed file: refused (a line that no longer parses, or the
    // checksum at the end of the stream), never misread.
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    let flipped = dir.path().join("flipped.txt.zst");
    std::fs::write(&flipped, bytes).unwrap();
    let out = stats(&["circuit", flipped.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("flipped.txt.zst"),
        "{}",
        text(&out.stderr)
    );

    // More moves than the group has positions: refused as they are read.
    indices.swap(100, 101);
    let mut longer = indices.clone();
    longer.extend_from_slice(&indices[..10]);
    let long = dir.path().join("long.txt.zst");
    cubelab::catalogue::circuit::write_circuit(&long, &spec, &longer).unwrap();
    let out = stats(&["circuit", long.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("more moves than the group's 29160"),
        "{}",
        text(&out.stderr)
    );

    let garbage = dir.path().join("garbage.txt.zst");
    std::fs::write(&garbage, b"not compressed").unwrap();
    let out = stats(&["circuit", garbage.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("garbage.txt.zst"),
        "{}",
        text(&out.stderr)
    );

    let refused = gen_tables(&[
        "--data-dir",
        data(dir.path()),
        "--puzzle",
        "2x2",
        "--generators",
        "U R F",
        "--group-metric",
        "directed",
        "--circuit",
    ]);
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("quarter-turn generators"),
        "{}",
        text(&refused.stderr)
    );
}

/// The committed devil's algorithm of the 2x2 passes `stats circuit`.
#[test]
fn the_committed_circuit_passes_stats_circuit() {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("data/circuit-2x2-U.R.F-qtm.txt.zst");
    let out = stats(&["circuit", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("a circuit of 2x2 <U, R, F> in qtm: 3,674,160 moves"),
        "{}",
        text(&out.stdout)
    );
}

/// The two-phase solver from the command line: its tables built by name, random positions
/// solved in parallel within 20 moves (each answer applied here again), a budget that improves
/// and proves, and the options it does not take refused.
#[test]
fn two_phase_solves_within_the_maximum_and_improves_with_a_budget() {
    use cubelab::model::cube::Cube3;
    use cubelab::model::notation::parse_moves;
    let dir = tempfile::tempdir().unwrap();
    let d = data(dir.path());
    let missing = solve(&["--data-dir", d, "--method", "two-phase", "R U"], None);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        text(&missing.stderr).contains("phase1-sym phase2 phase2-slice"),
        "{}",
        text(&missing.stderr)
    );
    let qtm = gen_tables(&["--data-dir", d, "--metric", "qtm", "phase2"]);
    assert!(!qtm.status.success());
    assert!(
        text(&qtm.stderr).contains("--metric htm"),
        "{}",
        text(&qtm.stderr)
    );

    // Solving reads the suite's shared tables (gen-tables builds them like any other).
    let d = data(common::shared(
        &cubelab::catalogue::TableKind::TWO_PHASE,
        &[cubelab::model::cube::Metric::Htm],
    ));
    let out = solve(
        &[
            "--data-dir",
            d,
            "--method",
            "two-phase",
            "--random",
            "40",
            "--seed",
            "5",
            "--json",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 40);
    for line in &lines {
        assert_eq!(line["status"], "found");
        assert_eq!(line["method"], "two-phase");
        let cube = Cube3::from_facelets(line["input"].as_str().unwrap()).unwrap();
        let solution = parse_moves(line["solution"].as_str().unwrap()).unwrap();
        assert_eq!(line["length"], solution.len());
        assert!(solution.len() <= 20);
        assert!(cube.apply_all(&solution).is_solved());
    }
    // In the order given, though solved in parallel.
    let again = solve(
        &[
            "--data-dir",
            d,
            "--method",
            "two-phase",
            "--random",
            "40",
            "--seed",
            "5",
            "--json",
        ],
        None,
    );
    let inputs = |out: &Output| -> Vec<String> {
        json_lines(out)
            .iter()
            .map(|l| l["input"].to_string())
            .collect()
    };
    assert_eq!(inputs(&out), inputs(&again));

    let scramble = "R U F D L B R2 U2 F2 D' B'";
    let out = solve(
        &[
            "--data-dir",
            d,
            "--method",
            "two-phase",
            "--budget",
            "60",
            "-v",
            scramble,
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("moves (phase 1:"), "{stdout}");
    assert!(
        stdout.contains("(11 htm, two-phase, proven optimal;"),
        "{stdout}"
    );

    let short = solve(
        &[
            "--data-dir",
            d,
            "--method",
            "two-phase",
            "--max-length",
            "9",
            "--json",
            scramble,
        ],
        None,
    );
    assert_eq!(short.status.code(), Some(1));
    assert_eq!(json_lines(&short)[0]["status"], "max-length");

    for refused in [
        vec!["--method", "two-phase", "--all", "R U"],
        vec!["--method", "two-phase", "--metric", "qtm", "R U"],
        vec!["--budget", "1", "R U"],
    ] {
        let out = solve(&[&["--data-dir", d][..], &refused].concat(), None);
        assert_eq!(out.status.code(), Some(2), "{refused:?}");
        assert!(
            text(&out.stderr).contains("is for --method"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// The layer method from the command line: named stages with their moves (text and JSON), the
/// position after each stage with --show, and the tables it needs named when missing.
#[test]
fn layers_prints_named_stages_and_draws_each() {
    use cubelab::model::cube::Cube3;
    use cubelab::model::notation::parse_moves;
    let dir = tempfile::tempdir().unwrap();
    let d = data(dir.path());
    let scramble = "R U F D L B R2 U2 F2 D' B' L'";
    let missing = solve(&["--data-dir", d, "--method", "layers", scramble], None);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        text(&missing.stderr).contains("corners"),
        "{}",
        text(&missing.stderr)
    );
    use cubelab::catalogue::TableKind;
    let d = data(common::shared(
        &[TableKind::Corners, TableKind::UdF4],
        &[cubelab::model::cube::Metric::Htm],
    ));
    let args = ["--data-dir", d, "--method", "layers", "--tables", "ud-f4"];

    let out = solve(&[&args[..], &["--json", scramble]].concat(), None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line = &json_lines(&out)[0];
    assert_eq!(line["status"], "solved");
    assert_eq!(line["method"], "layers");
    let stages = line["stages"].as_array().unwrap();
    assert_eq!(stages[0]["stage"], "cross");
    assert_eq!(stages.last().unwrap()["stage"], "last-layer permutation");
    let mut total = Vec::new();
    for stage in stages {
        let moves = parse_moves(stage["moves"].as_str().unwrap()).unwrap();
        assert_eq!(stage["length"], moves.len());
        total.extend(moves);
    }
    // The whole solution merges turns of one face that meet at a stage's boundary.
    let merged = cubelab::model::cube::merge_same_face(&total);
    assert_eq!(line["length"], merged.len());
    assert_eq!(
        parse_moves(line["solution"].as_str().unwrap()).unwrap(),
        merged
    );
    let cube = Cube3::from_moves(&parse_moves(scramble).unwrap());
    assert!(cube.apply_all(&total).is_solved());

    let shown = solve(
        &[&args[..], &["--show", "--color", "never", scramble]].concat(),
        None,
    );
    assert!(shown.status.success(), "{}", text(&shown.stderr));
    let stdout = text(&shown.stdout);
    for stage in [
        "cross",
        "first-layer corners",
        "second layer",
        "last-layer cross",
        "last-layer orientation",
        "last-layer permutation",
    ] {
        assert!(stdout.contains(&format!("after {stage}:")), "{stdout}");
    }
    // The text gives the same whole solution as JSON, merged where the steps join.
    assert!(
        stdout.contains(&format!(
            "{scramble}: {} ({} htm, layers;",
            line["solution"].as_str().unwrap(),
            merged.len()
        )),
        "{stdout}"
    );

    // --draw: a 3D picture of the position and of the cube after each stage, the last solved.
    let pictures = dir.path().join("stages");
    let drawn = solve(
        &[
            &args[..],
            &[
                "--draw",
                pictures.to_str().unwrap(),
                "--draw-format",
                "svg",
                scramble,
            ],
        ]
        .concat(),
        None,
    );
    assert!(drawn.status.success(), "{}", text(&drawn.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&pictures)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "0-0-position.svg",
            "0-1-cross.svg",
            "0-2-first-layer-corners.svg",
            "0-3-second-layer.svg",
            "0-4-last-layer-cross.svg",
            "0-5-last-layer-orientation.svg",
            "0-6-last-layer-permutation.svg",
        ]
    );
    assert!(
        text(&drawn.stderr).contains("drew "),
        "{}",
        text(&drawn.stderr)
    );
    // The solved cube shows one colour per face: three colours (shaded), against more before.
    let colours = |name: &str| {
        let svg = std::fs::read_to_string(pictures.join(name)).unwrap();
        let mut fills: Vec<&str> = svg
            .split("fill=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .filter(|f| !f.eq_ignore_ascii_case("#000000") && !f.eq_ignore_ascii_case("#ffffff"))
            .collect();
        fills.sort_unstable();
        fills.dedup();
        fills.len()
    };
    assert_eq!(
        colours("0-6-last-layer-permutation.svg"),
        3,
        "U is white; F, R and D (from below) each one shade"
    );
    assert!(colours("0-0-position.svg") > 3);
    // --draw naming a file, not a folder: said so, with the way out.
    let file = dir.path().join("a-file.svg");
    std::fs::write(&file, "").unwrap();
    let refused = solve(
        &[&args[..], &["--draw", file.to_str().unwrap(), scramble]].concat(),
        None,
    );
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("not a folder"),
        "{}",
        text(&refused.stderr)
    );
}

#[test]
fn shards_solve_every_position_once_and_stats_merges_them() {
    let dir = built_dir();
    let shards = dir.path().join("shards");
    std::fs::create_dir(&shards).unwrap();
    let experiment = |seed: &str, extra: &[&str], csv: &Path| {
        let mut args = vec![
            "--data-dir",
            data(dir.path()),
            "--puzzle",
            "2x2",
            "--random",
            "30",
            "--seed",
            seed,
            "--csv",
            csv.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = solve(&args, None);
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    for k in 0..3 {
        let shard = format!("{k}/3");
        experiment("5", &["--shard", &shard], &shards.join(format!("{k}.csv")));
    }
    let whole = dir.path().join("whole.csv");
    experiment("5", &[], &whole);
    let merged = dir.path().join("merged.csv");
    let out = stats(&[
        "experiment",
        "--json",
        "--merged",
        merged.to_str().unwrap(),
        shards.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(summary["positions"], 30);
    assert_eq!(summary["total"], 30);
    assert_eq!(summary["missing"], 0);
    // The merged file is the one-process run, row for row, but for the times.
    let rows = |path: &Path| -> Vec<Vec<String>> {
        let mut reader = csv::Reader::from_path(path).unwrap();
        let headers = reader.headers().unwrap().clone();
        let keep: Vec<usize> = (0..headers.len())
            .filter(|&i| &headers[i] != "seconds")
            .collect();
        reader
            .records()
            .map(|r| {
                let r = r.unwrap();
                keep.iter().map(|&i| r[i].to_string()).collect()
            })
            .collect()
    };
    assert_eq!(rows(&merged), rows(&whole));
    assert_eq!(rows(&whole)[7][9], "7", "rows carry their index");

    // A lost shard and a shard run twice are named, and the exit status says so.
    std::fs::remove_file(shards.join("1.csv")).unwrap();
    std::fs::copy(shards.join("2.csv"), shards.join("2-again.csv")).unwrap();
    let out = stats(&["experiment", shards.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let errors = text(&out.stderr);
    assert!(
        errors.contains(
            "10 of the experiment's 30 positions were not solved by any file (indices 1, 4, 7"
        ),
        "{errors}"
    );
    assert!(
        errors.contains("10 positions were answered more than once (indices 2 (2 times)"),
        "{errors}"
    );
    // Shards of another experiment do not merge.
    experiment("6", &["--shard", "1/3"], &shards.join("1.csv"));
    let out = stats(&["experiment", shards.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("different experiments"),
        "{}",
        text(&out.stderr)
    );
    for bad in ["3/3", "1", "a/b", "0/0"] {
        let out = solve(&["--shard", bad, "--random", "1"], None);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(text(&out.stderr).contains("K/N"), "{}", text(&out.stderr));
    }
}

/// A table present only as its `.tbl.zst` copy is listed as packed, not unpacked by
/// `gen-tables --list` (#31: 1.4 GB written for the default table), and `stats tables` says
/// it leaves it out rather than ignore it.
#[test]
fn a_packed_table_is_listed_not_unpacked() {
    let dir = tempfile::tempdir().unwrap();
    let out = gen_tables(&["--data-dir", data(dir.path()), "--compress", "2x2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = dir.path().join("2x2-htm.tbl");
    std::fs::remove_file(&table).unwrap();
    assert!(dir.path().join("2x2-htm.tbl.zst").exists());
    let out = gen_tables(&["--data-dir", data(dir.path()), "--list"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listing = text(&out.stdout);
    let line = listing.lines().find(|l| l.starts_with("2x2-htm")).unwrap();
    assert!(line.contains("packed (.tbl.zst"), "{line}");
    assert!(!table.exists(), "--list unpacked the table");
    let out = stats(&["tables", "--data-dir", data(dir.path())]);
    assert!(
        text(&out.stderr).contains("2x2-htm is only packed"),
        "{}",
        text(&out.stderr)
    );
    assert!(!table.exists(), "stats tables unpacked the table");
}
