//! Inputs and outputs that once lost data or hung (issue #31): each case here failed on the code
//! before its fix. A read input is read once; a failed write is an error with a non-zero exit,
//! never a panic and never a success; an output is never the input being read.

use super::cli::{built_dir, data, text};

use std::process::{Command, Output, Stdio};

const SOLVE: &str = env!("CARGO_BIN_EXE_solve");

/// Runs `bin` with `args`, its standard output sent to `stdout`, within a minute.
fn run_into(bin: &str, args: &[&str], stdout: impl Into<Stdio>) -> Output {
    let child = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    within_a_minute(child, &format!("{bin} {args:?}"))
}

/// The output of `child`, which must end within a minute: these cases used to hang or spin, and
/// a test that waits forever reports nothing.
fn within_a_minute(mut child: std::process::Child, what: &str) -> Output {
    let started = std::time::Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed().as_secs() > 60 {
            child.kill().expect("kills");
            panic!("{what} is still running after a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

#[test]
fn a_file_of_positions_that_can_be_read_once_is_solved_whole() {
    let dir = built_dir();
    // A pipe named by a path (as `<(...)` and `/dev/stdin` are): counting its lines first
    // used to leave nothing for the solving.
    let mut child = Command::new(SOLVE)
        .args(["--data-dir", data(dir.path()), "--puzzle", "2x2", "--json"])
        .args(["--file", "/dev/stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"R U\nF2\n").unwrap();
    let out = within_a_minute(child, "solve --file /dev/stdin");
    assert_answered_lines(&out, 2);
}

#[test]
fn a_fifo_of_positions_is_read_not_waited_on() {
    let dir = built_dir();
    let fifo = dir.path().join("positions.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(
        made.is_ok_and(|s| s.success()),
        "mkfifo (coreutils) could not make {}: this test needs it",
        fifo.display()
    );
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || std::fs::write(writer_path, "R\nU2\n"));
    let fifo_path = fifo.to_str().unwrap();
    let args = [
        "--data-dir",
        data(dir.path()),
        "--puzzle",
        "2x2",
        "--file",
        fifo_path,
    ];
    let out = run_into(SOLVE, &args, Stdio::piped());
    writer.join().unwrap().unwrap();
    assert_answered_lines(&out, 2);
}

#[test]
fn a_directory_or_unreadable_file_of_positions_is_an_error_not_a_spin() {
    let dir = built_dir();
    for path in [dir.path().to_str().unwrap(), "/proc/self/mem"] {
        if !std::path::Path::new(path).exists() {
            continue;
        }
        let args = [
            "--data-dir",
            data(dir.path()),
            "--puzzle",
            "2x2",
            "--file",
            path,
        ];
        let out = run_into(SOLVE, &args, Stdio::piped());
        assert_eq!(out.status.code(), Some(2), "{path}");
        assert!(text(&out.stderr).contains(path), "{}", text(&out.stderr));
    }
}

#[test]
fn an_output_that_is_the_input_is_refused_by_any_path() {
    let dir = built_dir();
    let input = dir.path().join("positions.txt");
    std::fs::write(&input, "R U\nF2\n").unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    let out = run_into(
        SOLVE,
        &[
            "--data-dir",
            data(dir.path()),
            "--puzzle",
            "2x2",
            "--file",
            input.to_str().unwrap(),
            "--csv",
            link.to_str().unwrap(),
        ],
        Stdio::piped(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--csv"), "{}", text(&out.stderr));
    // Standard output appended to the input (`solve --file x >> x`).
    let appended = std::fs::OpenOptions::new()
        .append(true)
        .open(&input)
        .unwrap();
    let out = run_into(
        SOLVE,
        &[
            "--data-dir",
            data(dir.path()),
            "--puzzle",
            "2x2",
            "--file",
            input.to_str().unwrap(),
        ],
        appended,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("standard output"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "R U\nF2\n");
}

#[test]
fn a_failed_write_to_standard_output_is_an_error_in_every_binary() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("this test needs /dev/full (Linux), the device every write to fails on");
    let dir = built_dir();
    let data = data(dir.path());
    let runs: [(&str, Vec<&str>); 7] = [
        (SOLVE, vec!["--data-dir", data, "--puzzle", "2x2", "R"]),
        (
            SOLVE,
            vec![
                "--data-dir",
                data,
                "--puzzle",
                "2x2",
                "--random",
                "50",
                "--json",
            ],
        ),
        (SOLVE, vec!["--generate", "man"]),
        (
            env!("CARGO_BIN_EXE_gen-tables"),
            vec!["--data-dir", data, "--list"],
        ),
        (
            env!("CARGO_BIN_EXE_gen-tables"),
            vec!["--data-dir", data, "--verify"],
        ),
        (
            env!("CARGO_BIN_EXE_stats"),
            vec!["--data-dir", data, "tables"],
        ),
        (env!("CARGO_BIN_EXE_cubelab"), vec!["--generate", "bash"]),
    ];
    for (bin, args) in runs {
        let out = run_into(bin, &args, full.try_clone().unwrap());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bin} {args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output") && !stderr.contains("panicked"),
            "{bin} {args:?}: {stderr}"
        );
    }
}

const HEADER: &str = "input,puzzle,metric,status,length,lower_bound,nodes,seconds,solution,iterations,index,total,source,method";
const GOOD_ROW: &str = "R,2x2,htm,optimal,1,,,0.1,R',,0,3,x,optimal";

/// `stats experiment` and `stats plot --experiment` on one file: both refuse it with exit 2,
/// naming the line; returns the message.
fn refused_experiment(contents: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("experiment.csv");
    std::fs::write(&file, contents).unwrap();
    let file = file.to_str().unwrap();
    let stats = env!("CARGO_BIN_EXE_stats");
    let out = run_into(stats, &["experiment", file], Stdio::piped());
    assert_eq!(
        out.status.code(),
        Some(2),
        "{contents:?}: {}",
        text(&out.stdout)
    );
    let plot_dir = dir.path().join("charts");
    let plot_dir = plot_dir.to_str().unwrap();
    let args = [
        "--data-dir",
        plot_dir,
        "plot",
        "--out",
        plot_dir,
        "--experiment",
        file,
    ];
    let plotted = run_into(stats, &args, Stdio::piped());
    assert_eq!(plotted.status.code(), Some(2), "plot of {contents:?}");
    text(&out.stderr)
}

#[test]
fn a_malformed_experiment_row_is_named_by_its_own_line() {
    let bad = "U,2x2,htm,optimal,abc,,,0.1,U',,1,3,x,optimal";
    // With `\r\n` endings and after a blank line csv's own count ran one line low.
    for (contents, line) in [
        (format!("{HEADER}\n{GOOD_ROW}\n{bad}\n"), 3),
        (format!("{HEADER}\r\n{GOOD_ROW}\r\n{bad}\r\n"), 3),
        (format!("{HEADER}\n{GOOD_ROW}\n\n{bad}\n"), 4),
        (format!("{HEADER}\n{GOOD_ROW}\n\nU,2x2,htm,optimal,1\n"), 4),
    ] {
        let message = refused_experiment(&contents);
        assert!(
            message.contains(&format!("line {line}:")),
            "{contents:?}: {message}"
        );
    }
}

#[test]
fn experiment_values_outside_their_meaning_are_refused() {
    for (field, row) in [
        ("seconds", "R,2x2,htm,optimal,1,,,NaN,R',,0,3,x,optimal"),
        ("seconds", "R,2x2,htm,optimal,1,,,inf,R',,0,3,x,optimal"),
        ("seconds", "R,2x2,htm,optimal,1,,,-1,R',,0,3,x,optimal"),
        ("status", "R,2x2,htm,weird,1,,,1,R',,0,3,x,optimal"),
        // Any definition's name is a puzzle (`cubelab puzzle solve --csv`); a space is in none.
        ("puzzle", "R,4x4 cube,htm,optimal,1,,,1,R',,0,3,x,optimal"),
        // A length that once had the chart allocate per move up to it.
        (
            "length",
            "R,3x3,htm,optimal,4294967295,,,1,R',,0,3,x,optimal",
        ),
        (
            "iterations",
            "R,3x3,htm,optimal,1,,,1,R',4294967295:1:1,0,3,x,optimal",
        ),
    ] {
        let message = refused_experiment(&format!("{HEADER}\n{GOOD_ROW}\n{row}\n"));
        assert!(
            message.contains("line 3:") && message.contains(field),
            "{row}: {message}"
        );
    }
}

#[test]
fn an_error_quotes_a_long_input_by_its_start_and_length() {
    let dir = built_dir();
    let long = "R U X ".repeat(5000);
    let out = super::cli::solve(
        &["--data-dir", data(dir.path()), "--puzzle", "2x2"],
        Some(&long),
    );
    assert_eq!(out.status.code(), Some(1));
    let message = text(&out.stderr);
    assert!(message.len() < 300, "{} bytes: {message}", message.len());
    assert!(message.contains("29,999 characters)") && message.contains("unknown move 'X'"));
}

#[test]
fn verify_and_list_check_subgroup_tables_too() {
    let dir = tempfile::tempdir().unwrap();
    let data = data(dir.path());
    let gen_tables = env!("CARGO_BIN_EXE_gen-tables");
    let built = run_into(
        gen_tables,
        &["--data-dir", data, "--puzzle", "2x2", "--generators", "U,R"],
        Stdio::piped(),
    );
    assert!(built.status.success(), "{}", text(&built.stderr));
    let verify = || {
        run_into(
            gen_tables,
            &["--data-dir", data, "--verify"],
            Stdio::piped(),
        )
    };
    let out = verify();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("group-2x2-U.R-generators: valid"));
    let path = dir.path().join("group-2x2-U.R-generators.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 100;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let out = verify();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("checksum"),
        "{}",
        text(&out.stdout)
    );
    let listed = run_into(gen_tables, &["--data-dir", data, "--list"], Stdio::piped());
    let listing = text(&listed.stdout);
    let line = listing
        .lines()
        .find(|l| l.starts_with("group-2x2-U.R-generators"))
        .expect("the subgroup table is listed");
    assert!(line.contains("damaged"), "{line}");
    // A table under another group's name is not that group's.
    bytes[last] ^= 1;
    std::fs::remove_file(&path).unwrap();
    std::fs::write(dir.path().join("group-2x2-U.F-generators.tbl"), &bytes).unwrap();
    let out = verify();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("another group"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_scramble_length_past_its_meaning_is_a_usage_error() {
    let cubelab = env!("CARGO_BIN_EXE_cubelab");
    for value in ["101", "100000000"] {
        let args = ["load-test", "--scramble-length", value];
        let out = run_into(cubelab, &args, Stdio::piped());
        assert_eq!(out.status.code(), Some(2), "{value}");
        assert!(
            text(&out.stderr).contains("0..=100"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// A long-lived holder of tables (the server, a Python session) answers nothing from a table
/// written in place under it: the change is seen before the answer, and the table opened again.
#[test]
fn a_table_written_in_place_under_a_holder_is_not_answered_from() {
    use cubelab::catalogue::{TableId, TableKind};
    use cubelab::model::cube::{Cube2, Metric};
    use cubelab::model::notation::parse_outer_moves;
    use cubelab::model::position::Position;
    use cubelab::solving::{Request, Solvers, SolvingError};
    use cubelab::table::TableError;
    let tables = super::common::BuiltTables::build_in(&[TableKind::Pocket], &Metric::BOTH);
    let solvers = Solvers::new(&tables.path);
    let position = Position::Pocket(Cube2::from_moves(&parse_outer_moves("R U2 F'").unwrap()));
    let request = Request::default();
    let length = |outcome: &cubelab::solving::Outcome| outcome.solutions()[0].len();
    assert_eq!(
        length(&solvers.solve(&position, &request, &mut |_| {}).unwrap()),
        3
    );
    // The QTM table's bytes copied onto the HTM table's file, as `cp` does: same size,
    // another table. It once answered with lengths labelled optimal that were not.
    let htm = TableId::new(TableKind::Pocket, Metric::Htm).path(&tables.path);
    let qtm = TableId::new(TableKind::Pocket, Metric::Qtm).path(&tables.path);
    let original = std::fs::read(&htm).unwrap();
    std::io::Write::write_all(
        &mut std::fs::OpenOptions::new().write(true).open(&htm).unwrap(),
        &std::fs::read(&qtm).unwrap(),
    )
    .unwrap();
    match solvers.solve(&position, &request, &mut |_| {}) {
        Err(SolvingError::Table(TableError::WrongKind { .. })) => {}
        other => panic!(
            "answered from a rewritten table: {:?}",
            other.map(|o| o.status())
        ),
    }
    // Written back, it is opened again and answers.
    std::fs::write(&htm, &original).unwrap();
    assert_eq!(
        length(&solvers.solve(&position, &request, &mut |_| {}).unwrap()),
        3
    );
}

/// A table cut short under a running search ends it with a message and status 2, not a bare
/// SIGBUS.
#[test]
fn a_table_cut_short_under_a_search_ends_it_with_a_message() {
    use cubelab::catalogue::{TableId, TableKind};
    use cubelab::model::cube::Metric;
    let tables = super::common::BuiltTables::build_in(&[TableKind::UdF4], &[Metric::Htm]);
    let path = TableId::new(TableKind::UdF4, Metric::Htm).path(&tables.path);
    // An 18-move position: minutes with this small table.
    let position = "L2 B2 L2 D2 L' D' B2 U' R U' D' L' R2 D' B U2 F L' F R B R' D' L' D2";
    let child = Command::new(SOLVE)
        .args([
            "--data-dir",
            tables.path.to_str().unwrap(),
            "--tables",
            "ud-f4",
        ])
        .args(["--threads", "1", position])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(1 << 20).unwrap();
    let out = within_a_minute(child, "solve on a table cut short");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("cut short"),
        "{}",
        text(&out.stderr)
    );
}

/// The program succeeded and printed `count` lines (one per position).
fn assert_answered_lines(out: &std::process::Output, count: usize) {
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert_eq!(printed.lines().count(), count, "{printed}");
}
