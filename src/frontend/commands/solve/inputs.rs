//! The input pipeline: positions from the arguments, a file, random draws or standard input,
//! each read only when the one before it is answered, and the experiment they belong to.

use super::*;

/// One position to solve: its number among all the positions given (for --shard and the CSV's
/// `index`), how it is shown in the output, and its text or why it has none.
pub(super) struct Input {
    pub(super) index: u64,
    pub(super) shown: String,
    pub(super) text: Result<String, String>,
}

impl Input {
    pub(super) fn of(text: String) -> Input {
        Input {
            index: 0,
            shown: text.clone(),
            text: Ok(text),
        }
    }

    pub(super) fn of_line(line: Line) -> Input {
        match line.text {
            Ok(text) => Input::of(text),
            Err(e) => Input {
                index: 0,
                shown: format!("line {}", line.number),
                text: Err(e.to_string()),
            },
        }
    }
}

/// What the CSV rows say of the experiment as a whole, the same in every shard.
pub(super) struct Experiment {
    /// How many positions in all (over every shard); unknown for standard input.
    pub(super) total: Option<u64>,
    /// Where they come from, e.g. `file positions.txt + random 3x3 seed 1`.
    pub(super) source: String,
}

impl Experiment {
    pub(super) fn of(args: &Args) -> Result<Experiment, String> {
        let mut total = Some(args.positions.len() as u64);
        let mut sources = Vec::new();
        if !args.positions.is_empty() {
            sources.push("arguments".to_string());
        }
        if let Some(path) = &args.file {
            let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let lines = PositionLines::new(std::io::BufReader::new(file)).count();
            total = total.map(|t| t + lines as u64);
            sources.push(format!("file {}", path.display()));
        }
        if let Some(count) = args.random {
            let puzzle = args.puzzle.unwrap_or(Puzzle::Cube);
            total = total.map(|t| t + count);
            sources.push(format!("random {puzzle} seed {}", args.seed));
        }
        if sources.is_empty() {
            total = None;
            sources.push("standard input".to_string());
        }
        Ok(Experiment {
            total,
            source: sources.join(" + "),
        })
    }
}

pub(super) type Inputs = Box<dyn Iterator<Item = Result<Input, String>>>;

/// Positions from the arguments, --file and --random, or else from standard input, each read
/// or drawn only when the one before it has been answered.
pub(super) fn inputs(args: &Args) -> Result<Inputs, String> {
    let mut inputs: Inputs = Box::new(args.positions.clone().into_iter().map(|t| Ok(Input::of(t))));
    if let Some(path) = &args.file {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let shown = path.display().to_string();
        let lines = PositionLines::new(std::io::BufReader::new(file)).map(move |line| {
            line.map(Input::of_line)
                .map_err(|e| format!("{shown}: {e}"))
        });
        inputs = Box::new(inputs.chain(lines));
    }
    if let Some(count) = args.random {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
        let puzzle = args.puzzle.unwrap_or(Puzzle::Cube);
        let drawn =
            (0..count).map(move |_| Ok(Input::of(Position::random(puzzle, &mut rng).stickers())));
        inputs = Box::new(inputs.chain(drawn));
    }
    if args.positions.is_empty() && args.file.is_none() && args.random.is_none() {
        let stdin = std::io::stdin();
        if stdin.is_terminal() {
            eprintln!("solve: reading positions from standard input, one per line (Ctrl-D ends)");
        }
        let lines = PositionLines::new(stdin.lock()).map(|line| {
            line.map(Input::of_line)
                .map_err(|e| format!("standard input: {e}"))
        });
        inputs = Box::new(inputs.chain(lines));
    }
    // Numbered over all the positions, then this shard's kept: a read error ends every shard.
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let numbered = inputs
        .enumerate()
        .filter_map(move |(number, input)| match input {
            Ok(input) => shard.keeps(number as u64).then_some(Ok(Input {
                index: number as u64,
                ..input
            })),
            Err(e) => Some(Err(e)),
        });
    Ok(Box::new(numbered))
}
