//! The examples of README.md and docs/guide.md run as written.
//!
//! The README's first steps show each command's output in a `text` block after it: each runs
//! against the suite's shared tables and prints exactly what the README shows, the timings
//! aside. Every other command line of the two files' `sh` blocks that calls a binary is run in a
//! scratch directory with the 2x2 tables built: examples that need only those must succeed, and
//! those that need the 3x3 tables (too large for the test suite) must fail cleanly with the
//! command that builds them. An example whose flags have drifted from the binaries fails this
//! test.

use crate::common;
use cubelab::catalogue::TableKind;
use cubelab::model::cube::Metric;
use std::path::Path;
use std::process::Command;

const README: &str = include_str!("../../../README.md");
const GUIDE: &str = include_str!("../../../docs/guide.md");

/// The command lines of `text`'s `sh` blocks that run a binary, comments removed.
fn readme_commands(text: &str) -> Vec<String> {
    let mut in_sh = false;
    let mut commands = Vec::new();
    for line in text.lines() {
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
    /// cubing.js's puzzle definitions, which `scripts/puzzle-definitions.sh` writes (npm); the
    /// suite's `puzzles` tests run such commands on definitions of their own.
    Definitions,
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
    if command.contains("puzzle-definitions.sh") || command.contains("my-puzzle.json") {
        // Fetches from npm, or names a file of the reader's own.
        return Needs::Covered;
    }
    if command.contains("cubelab puzzle") {
        return Needs::Definitions;
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
    let commands = readme_commands(GUIDE);
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
            Needs::Definitions => {
                assert_eq!(out.status.code(), Some(2), "{command}: {stdout} {stderr}");
                assert!(
                    stderr.contains("kpuzzle-definitions.mjs"),
                    "{command}: {stderr}"
                );
            }
            Needs::LargeBuild | Needs::Covered => {}
        }
    }
    assert!(ran >= 15, "ran only {ran} of {commands:?}");
}

/// Each `sh` block of `text` that a `text` block follows: its command lines and the output
/// shown.
fn shown_outputs(text: &str) -> Vec<(Vec<String>, String)> {
    let mut blocks: Vec<(String, String)> = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(kind)) => open = Some((kind.to_string(), String::new())),
            (Some(_), Some("")) => blocks.extend(open.take()),
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) if !line.trim().is_empty() => blocks.push(("prose".into(), String::new())),
            (None, None) => {}
        }
    }
    blocks
        .windows(2)
        .filter(|pair| pair[0].0 == "sh" && pair[1].0 == "text")
        .map(|pair| {
            let commands = pair[0]
                .1
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .map(str::to_string)
                .collect();
            (commands, pair[1].1.clone())
        })
        .collect()
}

/// `text` with every duration (`0.004 s`, `12.5 s`) written as `_ s` and every node count
/// (`7352 nodes`) as `_ nodes`: the parts of an output that differ from run to run or with
/// the table that bounds the search.
fn without_timings(text: &str) -> String {
    let mut out = String::new();
    let words: Vec<&str> = text.split(' ').collect();
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let unit = |name: &str| {
            words.get(i + 1).is_some_and(|w| {
                w.strip_prefix(name)
                    .is_some_and(|rest| !rest.starts_with(char::is_alphanumeric))
            })
        };
        let number = !word.is_empty() && word.chars().all(|c| c.is_ascii_digit() || c == '.');
        out.push_str(if number && (unit("s") || unit("nodes")) {
            "_"
        } else {
            word
        });
    }
    out
}

#[test]
fn readme_shown_outputs_are_printed() {
    let shown = shown_outputs(README);
    assert!(shown.len() >= 4, "found only {shown:?}");
    // The default table (h48-eo6, 1.9 GB, over a minute to build) is too large for the suite; the first optimal
    // solution in canonical order does not depend on the table that bounds the search, so the
    // optimal example reads the smallest coset table instead.
    common::shared(&[TableKind::Pocket], &Metric::BOTH);
    common::shared(&TableKind::TWO_PHASE, &[Metric::Htm]);
    let data = common::shared(&[TableKind::UdF4], &[Metric::Htm]);
    let work = tempfile::tempdir().unwrap();
    for (commands, expected) in &shown {
        let mut printed = String::new();
        for command in commands {
            assert!(
                command.starts_with("target/release/"),
                "{command}: a shown example runs a binary of the first command"
            );
            let optimal_3x3 = command.contains("release/solve")
                && !command.contains("--puzzle 2x2")
                && !command.contains("--method")
                && !command.contains("--print-state");
            let command = if optimal_3x3 {
                command.replacen("release/solve", "release/solve --tables ud-f4", 1)
            } else {
                command.clone()
            };
            let out = run(&command, work.path(), data);
            assert!(out.status.success(), "{command}: {out:?}");
            printed.push_str(&String::from_utf8_lossy(&out.stdout));
        }
        // A code block cannot end in a blank line: trailing blank lines are not compared.
        assert_eq!(
            without_timings(printed.trim_end()),
            without_timings(expected.trim_end()),
            "{commands:?} printed another output than the README shows"
        );
    }
}

#[test]
fn timings_are_the_only_thing_set_aside() {
    assert_eq!(
        without_timings("R U: U' R' (2 htm; 0.000 s)\nsolved in 12.5 s, 3 s\n"),
        "R U: U' R' (2 htm; _ s)\nsolved in _ s, _ s\n"
    );
    assert_eq!(
        without_timings("(11 htm; 172979 nodes, 0.065 s)"),
        "(11 htm; _ nodes, _ s)"
    );
    assert_eq!(without_timings("20 stages 3 sides"), "20 stages 3 sides");
    let blocks = shown_outputs("x\n```sh\na --b\n```\n\n```text\nout\n```\n```sh\nc\n```\n");
    assert_eq!(blocks, [(vec!["a --b".to_string()], "out\n".to_string())]);
}
