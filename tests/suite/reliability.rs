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
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).lines().count(),
        2,
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_fifo_of_positions_is_read_not_waited_on() {
    let dir = built_dir();
    let fifo = dir.path().join("positions.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available here");
        return;
    }
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
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).lines().count(),
        2,
        "{}",
        text(&out.stdout)
    );
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
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full here");
        return;
    };
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
