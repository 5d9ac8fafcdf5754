//! The writers: each answer as text, JSON or a CSV row, and the position as stickers and nets.

use super::*;

/// Prints a position's sticker string, Reid's notation and net (JSON: the first two), or why it
/// cannot be read.
pub(super) fn write_state(
    out: &mut impl Write,
    args: &Args,
    palette: Option<&Palette>,
    shown: &str,
    position: &Result<Position, String>,
) -> std::io::Result<()> {
    let (stickers, reid) = match position {
        Err(message) => {
            return if args.json {
                let line =
                    serde_json::json!({"input": shown, "status": "invalid", "error": message});
                writeln!(out, "{line}")
            } else {
                eprintln!("solve: error: {shown}: {message}");
                Ok(())
            };
        }
        Ok(Position::Pocket(c)) => (c.to_facelets(), None),
        Ok(Position::Cube(c)) => (c.to_facelets(), Some(c.to_reid())),
    };
    let puzzle = position.as_ref().map(Position::puzzle).ok();
    if args.json {
        let mut line = serde_json::json!({
            "input": shown,
            "puzzle": puzzle.map(Puzzle::name),
            "stickers": stickers,
        });
        if let Some(reid) = &reid {
            line["reid"] = reid.as_str().into();
        }
        return writeln!(out, "{line}");
    }
    writeln!(out, "{shown}")?;
    writeln!(out, "  stickers: {stickers}")?;
    if let Some(reid) = &reid {
        writeln!(out, "  reid:     {reid}")?;
    }
    write_net(out, palette, &stickers)
}

/// A sticker string as the unfolded cube, indented, painted in `palette` if given.
pub(super) fn write_net(
    out: &mut impl Write,
    palette: Option<&Palette>,
    stickers: &str,
) -> std::io::Result<()> {
    for line in net(stickers, palette).lines() {
        writeln!(out, "  {line}")?;
    }
    writeln!(out)
}

/// A staged solution: the whole, then each step with its stage, piece and move count.
pub(super) fn write_steps(
    out: &mut impl Write,
    input: &str,
    effort: &str,
    steps: &[Step],
) -> std::io::Result<()> {
    // The whole solution as JSON gives it: turns of one face that meet where steps join are
    // merged or cancelled, so its length can be less than the steps' sum.
    let all = cubelab::solving::whole_solution(steps);
    writeln!(
        out,
        "{input}: {} ({} htm, layers; {effort})",
        format_moves(&all),
        all.len()
    )?;
    for step in steps {
        let name = match step.piece {
            Some(piece) => format!("{} {piece}", step.stage),
            None => step.stage.to_string(),
        };
        let moves = if step.moves.is_empty() {
            "(already done)".to_string()
        } else {
            format_moves(&step.moves)
        };
        writeln!(out, "  {name:<34} {:>2}  {moves}", step.moves.len())?;
    }
    Ok(())
}

/// The position after each stage of a staged solution, as nets (for --show).
pub(super) fn write_stage_nets(
    out: &mut impl Write,
    palette: Option<&Palette>,
    cube: &Cube3,
    steps: &[Step],
) -> std::io::Result<()> {
    for (stage, position) in stage_positions(cube, steps) {
        writeln!(out, "  after {stage}:")?;
        write_net(out, palette, &position.to_facelets())?;
    }
    Ok(())
}

/// The cube after each stage of a layer solution (a stage's steps together), in order.
pub(super) fn stage_positions(cube: &Cube3, steps: &[Step]) -> Vec<(&'static str, Cube3)> {
    let mut position = *cube;
    let mut after = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        position = position.apply_all(&step.moves);
        if steps.get(i + 1).is_none_or(|next| next.stage != step.stage) {
            after.push((step.stage, position));
        }
    }
    after
}

/// The sequence that undoes `moves`.
pub(super) fn inverse(moves: &[Move]) -> Vec<Move> {
    moves.iter().rev().map(|m| m.inverse()).collect()
}

pub(super) fn write_text(
    out: &mut impl Write,
    args: &Args,
    input: &str,
    outcome: &Outcome,
) -> std::io::Result<()> {
    if let Outcome::Invalid(message) = outcome {
        let input = cubelab::support::units::quoted(input, 80);
        eprintln!("solve: error: {input}: {message}");
        return Ok(());
    }
    let metric = metric_name(args, outcome);
    let mut effort = format!("{:.3} s", outcome.seconds());
    if let Some(nodes) = outcome.nodes() {
        effort = format!("{nodes} nodes, {effort}");
    }
    let solutions = outcome.solutions();
    // Two-phase solutions say how they were found, and whether the search proved them optimal.
    let method = match outcome {
        Outcome::TwoPhase { result, .. } if result.status == TwoPhaseStatus::Optimal => {
            ", two-phase, proven optimal"
        }
        Outcome::TwoPhase { .. } => ", two-phase",
        _ => "",
    };
    match outcome.status() {
        "optimal" | "found" => {
            let length = solutions
                .first()
                .map_or(0, |s| outcome.length(args.metric, s));
            // A lone class of several symmetric solutions is listed with its count.
            let in_all = outcome.symmetry().map_or(solutions.len(), |(_, n)| n);
            if solutions.len() == 1 && in_all == 1 {
                let text = if length == 0 {
                    "(solved)".to_string()
                } else {
                    format_moves(&solutions[0])
                };
                let inverted = if args.inverse && length > 0 {
                    format!(" inverse: {}", format_moves(&inverse(&solutions[0])))
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "{input}: {text} ({length} {metric}{method}; {effort}){inverted}"
                )
            } else {
                let classes = match outcome.symmetry() {
                    Some((symmetries, in_all)) if symmetries > 1 => {
                        format!(" up to the position's {symmetries} symmetries ({in_all} in all)")
                    }
                    _ => String::new(),
                };
                let count = solutions.len();
                let plural = if count == 1 { "" } else { "s" };
                writeln!(
                    out,
                    "{input}: {count} optimal solution{plural} of length {length}{classes} ({metric}; {effort})"
                )?;
                solutions.iter().try_for_each(|s| {
                    if args.inverse {
                        let inverted = format_moves(&inverse(s));
                        writeln!(out, "  {} (inverse: {inverted})", format_moves(s))
                    } else {
                        writeln!(out, "  {}", format_moves(s))
                    }
                })
            }
        }
        "solved" => match outcome {
            Outcome::Layers { steps, .. } => write_steps(out, input, &effort, steps),
            _ => Ok(()),
        },
        status => {
            // What the search proved, as the JSON's `lower_bound` says it.
            let at_least = outcome.lower_bound().unwrap_or(0);
            writeln!(
                out,
                "{input}: gave up ({status}): every solution has at least {at_least} moves ({metric}; {effort})"
            )
        }
    }
}

pub(super) fn write_json(
    out: &mut impl Write,
    args: &Args,
    input: &str,
    puzzle: Option<Puzzle>,
    outcome: &Outcome,
) -> std::io::Result<()> {
    let shape = JsonShape {
        metric: metric_name(args, outcome),
        length_metric: args.metric,
        all: args.all,
        inverse: args.inverse,
    };
    writeln!(out, "{}", outcome.to_json(input, puzzle, &shape))
}

/// The `--csv` row of one position: `iterations` is `bound:nodes:seconds` per IDA* iteration,
/// separated by spaces.
pub(super) fn csv_row(
    args: &Args,
    experiment: &Experiment,
    index: u64,
    input: &str,
    puzzle: Option<Puzzle>,
    outcome: &Outcome,
) -> ExperimentRow {
    let first = outcome.solutions().first();
    let iterations: Vec<String> = outcome
        .iterations()
        .iter()
        .map(|i| format!("{}:{}:{:.6}", i.bound, i.nodes, i.seconds))
        .collect();
    let method = outcome.method().unwrap_or(args.method);
    ExperimentRow {
        input: input.to_string(),
        puzzle: puzzle.map_or("", Puzzle::name).to_string(),
        metric: metric_name(args, outcome),
        status: outcome.status().to_string(),
        length: first.map(|s| outcome.length(args.metric, s)),
        lower_bound: outcome.lower_bound().filter(|_| first.is_none()),
        nodes: outcome.nodes(),
        seconds: outcome.seconds(),
        solution: first.map(|s| format_moves(s)).unwrap_or_default(),
        iterations: iterations.join(" "),
        index: Some(index),
        total: experiment.total,
        source: Some(experiment.source.clone()),
        method: Some(method.name().to_string()),
    }
}
