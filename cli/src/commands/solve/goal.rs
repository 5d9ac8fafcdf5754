//! solve --goal: optimal solutions for a partial goal (the cross, an xcross, EOLine, a block,
//! any piece mask), from the goal's table, under a colour neutrality.

use super::inputs::{Input, PositionFile, inputs};
use super::{Args, output_ended};
use cubelab::model::cube::Cube3;
use cubelab::model::position::{Form, Position, parse_position};
use cubelab::solving::goal::{GoalAnswerer, GoalReport, goal_answerer};
use cubelab::support::units::{progress_bar, quoted};
use std::io::Write;

/// The most solutions `--all` prints for one position.
pub(super) const MAX_SOLUTIONS: usize = 10_000;

/// One position's answer, as printed: the position as given, and the goal's report.
#[derive(serde::Serialize)]
struct Answer {
    position: String,
    #[serde(flatten)]
    report: GoalReport,
}

pub(super) fn execute_goal(args: &Args, text: &str) -> Result<bool, String> {
    if args.puzzle == Some(cubelab::model::position::Puzzle::Pocket) {
        return Err("--goal is for the 3x3 (a 2x2 is solved whole, instantly, without it)".into());
    }
    let file = args.file.as_deref().map(PositionFile::open).transpose()?;
    if let Some(file) = &file {
        file.check_not_stdout()?;
        if let Some(csv) = &args.csv {
            file.check_not_output(csv, "--csv")?;
        }
    }
    let bar = |mask: &_| {
        progress_bar(
            u64::try_from(cubelab::space::goal::GoalSpace::entries(mask)).unwrap_or(u64::MAX),
            &format!("goal {mask} {}", args.metric),
        )
    };
    let solver = goal_answerer(
        &args.data_dir,
        text,
        args.metric,
        args.orientations,
        args.tables,
        &bar,
    )
    .map_err(|e| e.to_string())?;
    let mut csv = args.csv.as_deref().map(open_csv).transpose()?;
    let form = match (args.moves, args.stickers) {
        (true, _) => Form::Moves,
        (_, true) => Form::Stickers,
        _ => args.format,
    };
    let mut all_solved = true;
    for input in inputs(args, file) {
        let Input { index, shown, text } = input?;
        let cube = text.and_then(|t| match parse_position(&t, args.puzzle, form) {
            Ok(Position::Cube(cube)) => Ok(cube),
            Ok(Position::Pocket(_)) => Err("a 2x2 position; --goal is for the 3x3".into()),
            Err(e) => Err(e.to_string()),
        });
        let cube = match cube {
            Ok(cube) => cube,
            Err(message) => {
                eprintln!("solve: error: {}: {message}", quoted(&shown, 80));
                all_solved = false;
                continue;
            }
        };
        let answer = match answer(&solver, args, &shown, &cube)? {
            Ok(answer) => answer,
            Err(message) => {
                eprintln!("solve: error: {}: {message}", quoted(&shown, 80));
                all_solved = false;
                continue;
            }
        };
        if let Some(csv) = csv.as_mut() {
            write_csv_row(csv, index, &answer)?;
        }
        let mut out = std::io::stdout().lock();
        let written = if args.json {
            serde_json::to_string(&answer)
                .map_err(std::io::Error::other)
                .and_then(|line| writeln!(out, "{line}"))
        } else {
            write_text(&mut out, &answer, args.all)
        };
        if let Some(end) = output_ended(written.and_then(|()| out.flush())) {
            return end.map(|()| all_solved);
        }
    }
    if let Some(mut csv) = csv {
        csv.flush()
            .map_err(|e| format!("cannot write the CSV: {e}"))?;
    }
    Ok(all_solved)
}

/// Solves one position and checks every solution on cubies: the answer, or what is wrong with
/// this position; an error stops every position (a defect).
fn answer(
    solver: &GoalAnswerer,
    args: &Args,
    shown: &str,
    cube: &Cube3,
) -> Result<Result<Answer, String>, String> {
    let report = match solver.report(cube, args.all, MAX_SOLUTIONS)? {
        Ok(report) => report,
        Err(message) => return Ok(Err(message)),
    };
    Ok(Ok(Answer {
        position: shown.to_string(),
        report,
    }))
}

fn write_text(out: &mut impl Write, answer: &Answer, all: bool) -> std::io::Result<()> {
    let position = &answer.position;
    let answer = &answer.report;
    let on = format!("on {}", answer.bottom);
    let head = format!(
        "{}: {} {} {} ({on})",
        position, answer.goal, answer.length, answer.metric
    );
    let shown = |s: &String| {
        if s.is_empty() {
            "(reached)".to_string()
        } else {
            s.clone()
        }
    };
    if all {
        let count = answer.solutions.len();
        let capped = if count >= MAX_SOLUTIONS {
            format!(" (at most {MAX_SOLUTIONS} are listed)")
        } else {
            String::new()
        };
        writeln!(
            out,
            "{}: {count} optimal {} solutions{capped} of length {} {}",
            position, answer.goal, answer.length, answer.metric
        )?;
        answer
            .solutions
            .iter()
            .zip(&answer.on)
            .try_for_each(|(s, on)| writeln!(out, "  {} (on {on})", shown(s)))
    } else {
        let first = answer.solutions.first().map(shown).unwrap_or_default();
        writeln!(out, "{head}: {first}")
    }
}

fn open_csv(path: &std::path::Path) -> Result<std::io::BufWriter<std::fs::File>, String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let new = !path.exists()
        || std::fs::metadata(path)
            .map(|m| m.len() == 0)
            .unwrap_or(true);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(fail)?;
    let mut out = std::io::BufWriter::new(file);
    if new {
        writeln!(
            out,
            "index,position,goal,metric,orientations,length,bottom,solution"
        )
        .map_err(fail)?;
    }
    Ok(out)
}

fn write_csv_row(
    out: &mut std::io::BufWriter<std::fs::File>,
    index: u64,
    a: &Answer,
) -> Result<(), String> {
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let (position, a) = (&a.position, &a.report);
    writeln!(
        out,
        "{index},{},{},{},{},{},{},{}",
        quote(position),
        quote(&a.goal),
        a.metric,
        a.orientations,
        a.length,
        a.bottom,
        quote(a.solutions.first().map_or("", String::as_str))
    )
    .map_err(|e| format!("cannot write the CSV: {e}"))
}
