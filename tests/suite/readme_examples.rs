//! The examples in README.md run as written. Every command line of its `sh` blocks that calls
//! a binary is run in a scratch directory with the 2x2 tables built: examples that need only
//! those must succeed, and those that need the 3x3 tables (too large for the test suite) must
//! fail cleanly with the command that builds them. An example whose flags have drifted from
//! the binaries fails this test.

use std::path::Path;
use std::process::Command;

/// The command lines of README.md's `sh` blocks that run a binary, comments removed.
fn readme_commands() -> Vec<String> {
    let readme = include_str!("../../README.md");
    let mut in_sh = false;
    let mut commands = Vec::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line == "```sh";
            continue;
        }
        let command = line.split(" #").next().unwrap_or("").trim();
        let runs_binary =
            command.contains("target/release/") || command.contains("--bin gen-tables");
        if in_sh && runs_binary {
            commands.push(command.to_string());
        }
    }
    commands
}

/// What an example needs beyond the 2x2 tables, if anything: the 3x3 tables, or tables too
/// large to build here.
enum Needs {
    TwoByTwo,
    CubeTables,
    LargeBuild,
    /// Run by tests of their own: the devil's algorithm's build and check (25 s together).
    /// `cli::circuits_are_built_and_checked` runs these options on a smaller group,
    /// `groups::the_committed_2x2_circuit_is_one_and_is_rebuilt_identically` rebuilds this
    /// circuit and `cli::the_committed_circuit_passes_stats_circuit` checks it.
    Covered,
}

fn needs(command: &str) -> Needs {
    if command.contains("--circuit") || command.contains("stats circuit") {
        return Needs::Covered;
    }
    // Subgroup tables are small (the README's largest, <U, R>, builds in seconds), and so are
    // the goal tables the examples name, built on first use.
    // The last layer is the optimal solver's, which reads the 3x3 tables.
    if command.contains("--goal ll") {
        return Needs::CubeTables;
    }
    if command.contains("--generators") || command.contains("--goal") {
        return Needs::TwoByTwo;
    }
    if command.contains("gen-tables") {
        let small = ["2x2", "--list", "--verify"];
        if small.iter().any(|word| command.contains(word)) {
            Needs::TwoByTwo
        } else {
            Needs::LargeBuild
        }
    } else if command.contains("release/cubelab coset") {
        // The coset search's phase1-sym table is not among the 2x2 tables.
        Needs::CubeTables
    } else if command.contains("release/solve")
        && !command.contains("--puzzle 2x2")
        && !command.contains("--print-state")
        && !command.contains("--generate")
    {
        Needs::CubeTables
    } else {
        Needs::TwoByTwo
    }
}

/// The line with the binaries of this build in place of `target/release/…` and `cargo run`.
fn with_binaries(command: &str) -> String {
    command
        .replace(
            "cargo run --release --bin gen-tables --",
            "target/release/gen-tables",
        )
        .replace(
            "cargo run --release --bin gen-tables",
            "target/release/gen-tables",
        )
        .replace(
            "target/release/gen-tables",
            env!("CARGO_BIN_EXE_gen-tables"),
        )
        .replace("target/release/solve", env!("CARGO_BIN_EXE_solve"))
        .replace("target/release/stats", env!("CARGO_BIN_EXE_stats"))
        .replace("target/release/cubelab", env!("CARGO_BIN_EXE_cubelab"))
}

fn run(command: &str, dir: &Path, data: &Path) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(with_binaries(command))
        .current_dir(dir)
        .env("CUBELAB_DATA", data)
        .env_remove("CUBELAB_THREADS")
        .output()
        .expect("sh runs")
}

#[test]
fn readme_examples_run_as_written() {
    let commands = readme_commands();
    assert!(commands.len() >= 20, "found only {commands:?}");
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    std::fs::create_dir(&data).unwrap();
    // The files the examples read: positions, one per line with a comment, and an experiment
    // log written by a 2x2 run.
    std::fs::write(
        work.path().join("positions.txt"),
        "# two positions\nR U R' U'\nR U2 F'\n",
    )
    .unwrap();
    let built = run(
        "target/release/gen-tables 2x2 && target/release/solve --puzzle 2x2 --csv runs.csv --file positions.txt",
        work.path(),
        &data,
    );
    assert!(built.status.success(), "{built:?}");
    let mut ran = 0;
    for command in &commands {
        let needs = needs(command);
        if matches!(needs, Needs::LargeBuild | Needs::Covered) {
            continue;
        }
        let out = run(command, work.path(), &data);
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(!stderr.contains("panicked"), "{command}: {stderr}");
        match needs {
            Needs::TwoByTwo => {
                assert!(out.status.success(), "{command}: {stderr}");
                let wrote = work.path().join("solutions.jsonl").exists();
                assert!(!stdout.is_empty() || wrote, "{command}: no output");
                ran += 1;
            }
            Needs::CubeTables => {
                assert_eq!(out.status.code(), Some(2), "{command}: {stdout} {stderr}");
                assert!(stderr.contains("gen-tables"), "{command}: {stderr}");
            }
            Needs::LargeBuild | Needs::Covered => {}
        }
    }
    assert!(ran >= 15, "ran only {ran} of {commands:?}");
}
