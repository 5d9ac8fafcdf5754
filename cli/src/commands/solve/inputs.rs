//! The input pipeline: positions from the arguments, a file, random draws or standard input,
//! each read only when the one before it is answered, and the experiment they belong to.

use super::*;
use std::path::Path;

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
    /// The experiment of `args`, whose --file (if any) is `file`.
    pub(super) fn of(args: &Args, file: Option<&PositionFile>) -> Experiment {
        let mut total = Some(args.positions.len() as u64);
        let mut sources = Vec::new();
        if !args.positions.is_empty() {
            sources.push("arguments".to_string());
        }
        if let Some(file) = file {
            total = total.zip(file.lines).map(|(t, lines)| t + lines);
            sources.push(format!("file {}", file.path.display()));
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
        Experiment {
            total,
            source: sources.join(" + "),
        }
    }
}

/// The file of positions (--file), opened once: reading it twice (to count it, then to solve
/// it) read nothing the second time from a pipe or `/dev/stdin`, and waited forever on a FIFO.
pub(super) struct PositionFile {
    path: PathBuf,
    file: std::fs::File,
    /// How many position lines it holds, where that is known without consuming it: a regular
    /// file is counted and rewound; a pipe or a FIFO is not (its experiment's total is then
    /// unknown, as for standard input).
    lines: Option<u64>,
    /// Its device and inode, to tell it from an output file.
    #[cfg(unix)]
    identity: (u64, u64),
}

impl PositionFile {
    pub(super) fn open(path: &Path) -> Result<PositionFile, String> {
        use std::io::Seek;
        let shown = path.display();
        let mut file = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
        let metadata = file.metadata().map_err(|e| format!("{shown}: {e}"))?;
        if metadata.is_dir() {
            return Err(format!(
                "{shown} is a directory; --file takes a file of positions, one a line"
            ));
        }
        let lines = if metadata.is_file() {
            let count = PositionLines::new(std::io::BufReader::new(&file)).count() as u64;
            file.rewind().map_err(|e| format!("{shown}: {e}"))?;
            Some(count)
        } else {
            None
        };
        Ok(PositionFile {
            path: path.to_path_buf(),
            file,
            lines,
            #[cfg(unix)]
            identity: identity(&metadata),
        })
    }

    /// Refuses an output at `output` (named by `option`) that is this file, by whatever path:
    /// appending rows to the file being read would read them back as positions until the disk
    /// is full.
    pub(super) fn check_not_output(&self, output: &Path, option: &str) -> Result<(), String> {
        #[cfg(unix)]
        if let Ok(metadata) = std::fs::metadata(output)
            && identity(&metadata) == self.identity
        {
            return Err(format!(
                "{option} {} is the file of positions being read ({}); write to another file",
                output.display(),
                self.path.display()
            ));
        }
        Ok(())
    }

    /// Refuses a standard output that is this file (`solve --file x >> x`), for the same reason.
    pub(super) fn check_not_stdout(&self) -> Result<(), String> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let stdout = std::io::stdout();
            let same = stdout
                .as_fd()
                .try_clone_to_owned()
                .map(std::fs::File::from)
                .and_then(|f| f.metadata())
                .is_ok_and(|m| m.is_file() && identity(&m) == self.identity);
            if same {
                return Err(format!(
                    "standard output is the file of positions being read ({}); write to another file",
                    self.path.display()
                ));
            }
        }
        Ok(())
    }
}

/// A file's device and inode: the same for every path that names it.
#[cfg(unix)]
fn identity(metadata: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (metadata.dev(), metadata.ino())
}

pub(super) type Inputs = Box<dyn Iterator<Item = Result<Input, String>>>;

/// Positions from the arguments, --file and --random, or else from standard input, each read
/// or drawn only when the one before it has been answered.
pub(super) fn inputs(args: &Args, file: Option<PositionFile>) -> Inputs {
    let mut inputs: Inputs = Box::new(args.positions.clone().into_iter().map(|t| Ok(Input::of(t))));
    if let Some(PositionFile { path, file, .. }) = file {
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
    Box::new(numbered)
}
