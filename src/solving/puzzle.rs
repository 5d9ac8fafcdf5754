//! Any twisty puzzle from its KPuzzle definition through the one door: the definition found by
//! path or name, its space under the generator moves asked for, and God's algorithm over the
//! whole space by the one breadth-first engine (resumable, its memory stated and checked before
//! it starts).

use crate::bfs::{BfsError, Checkpoint, RunOptions, StateSpace, breadth_first_rows_with};
use crate::catalogue::puzzle::{self as puzzle_tables, ProjectionKey, PuzzleTableError};
use crate::model::kpuzzle::{
    DefinitionError, Generators, GeneratorsError, KPuzzleDefinition, Metric, Pattern,
};
use crate::packing::Encoding;
use crate::search::puzzle::{Projection, PuzzleSolveError};
pub use crate::search::puzzle::{PuzzleLimits, PuzzleSolver};
use crate::space::MoveSpace;
use crate::space::defined::{DefinedSpace, DefinedSpaceError};
use crate::support::units::{human_bytes, thousands};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The folder under a data directory where `scripts/kpuzzle-definitions.mjs` writes cubing.js's
/// definitions, one `NAME.kpuzzle.json` a puzzle.
pub const DEFINITIONS: &str = "puzzles";

/// Why a puzzle's question cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleError {
    #[error(
        "no puzzle definition '{name}': give a KPuzzle JSON file, or a name of {}{}",
        dir.display(),
        known_names(dir)
    )]
    UnknownPuzzle { name: String, dir: PathBuf },
    #[error("{} is not a regular file: give a KPuzzle JSON file", .0.display())]
    NotAFile(PathBuf),
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Definition {
        path: PathBuf,
        source: Box<DefinitionError>,
    },
    #[error("--moves: {0}")]
    Moves(#[from] Box<GeneratorsError>),
    #[error("--ignore-orientation: the definition has no orbit '{0}' (its orbits: {1})")]
    UnknownOrbit(String, String),
    #[error(transparent)]
    Space(#[from] DefinedSpaceError),
    #[error(
        "God's algorithm over {} states needs about {} of memory ({} for the table at {bits} bits a state, {} for the move tables), and {} is available, enough for about {} states: free memory, ignore an orbit's orientation or make pieces identical in a --goal to shrink the space, or run it on a machine with at least {}",
        thousands(*.states),
        human_bytes(.table + .moves),
        human_bytes(*.table),
        human_bytes(*.moves),
        human_bytes(*.available),
        thousands(*.fits),
        human_bytes(.table + .moves)
    )]
    NotEnoughMemory {
        states: u64,
        /// Bytes of the table and of the move tables.
        table: u64,
        moves: u64,
        bits: u32,
        available: u64,
        /// About how many states the available memory holds beside the move tables.
        fits: u64,
    },
    #[error(transparent)]
    Search(#[from] BfsError),
    #[error(
        "the search reached {reached} states where the group has {expected}: the ranking of this definition is wrong (a defect; please report it with the definition)"
    )]
    CountDiffers { reached: u64, expected: u64 },
    #[error(
        "no projection of this puzzle fits {per_table} states a table: give a larger --table-states, or ignore an orbit's orientation"
    )]
    NoProjection { per_table: String },
    #[error(
        "the pattern databases need about {needed} (four states a byte) and {available} is available: give a smaller --table-states"
    )]
    TablesTooLarge { needed: String, available: String },
    #[error(transparent)]
    Table(#[from] PuzzleTableError),
    #[error(
        "the pattern database of {name} ({states} states) is larger than the {most} built here, and is not kept ({reason}): build it once with `cubelab puzzle solve` and the same puzzle, moves and options"
    )]
    NotBuilt {
        name: String,
        states: String,
        most: String,
        reason: String,
    },
    #[error("--goal: {0}")]
    Goal(Box<DefinitionError>),
    #[error("scramble '{0}': {1}")]
    Scramble(String, String),
    #[error(
        "'{0}' makes a position these moves cannot solve: give a scramble in the generator moves, or moves that generate it"
    )]
    Unsolvable(String),
    #[error(
        "the solution '{solution}' found for '{scramble}' does not solve it in the length the search proved (a defect; please report it with the definition)"
    )]
    WrongSolution { scramble: String, solution: String },
}

/// The names of the definitions in `data_dir`'s puzzles/ (those `open_definition` finds by
/// name), sorted.
pub fn definition_names(data_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(data_dir.join(DEFINITIONS))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".kpuzzle.json")
                .map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// The names of the definitions in `dir` (a puzzles/ folder), for an error message.
fn known_names(dir: &Path) -> String {
    let names = dir.parent().map(definition_names).unwrap_or_default();
    if names.is_empty() {
        format!(
            " (none there yet: write cubing.js's with `npm ci --prefix web && node scripts/kpuzzle-definitions.mjs {}`)",
            dir.display()
        )
    } else {
        format!(" ({})", names.join(", "))
    }
}

/// A definition read, and where from.
pub struct OpenedDefinition {
    pub definition: KPuzzleDefinition,
    pub path: PathBuf,
}

/// The definition `name_or_path` names: a file, or `NAME` in `data_dir/puzzles/`.
pub fn open_definition(
    data_dir: &Path,
    name_or_path: &str,
) -> Result<OpenedDefinition, PuzzleError> {
    let as_path = PathBuf::from(name_or_path);
    let path = if as_path.is_file() {
        as_path
    } else if as_path.exists() {
        // A FIFO, a device or a folder: never opened, so never waited on.
        return Err(PuzzleError::NotAFile(as_path));
    } else {
        let dir = data_dir.join(DEFINITIONS);
        let named = dir.join(format!("{name_or_path}.kpuzzle.json"));
        if !named.is_file() {
            return Err(PuzzleError::UnknownPuzzle {
                name: name_or_path.to_string(),
                dir,
            });
        }
        named
    };
    let text = std::fs::read_to_string(&path).map_err(|source| PuzzleError::Read {
        path: path.clone(),
        source,
    })?;
    let definition =
        KPuzzleDefinition::from_json_str(&text).map_err(|source| PuzzleError::Definition {
            path: path.clone(),
            source: Box::new(source),
        })?;
    Ok(OpenedDefinition { definition, path })
}

/// What is asked of a puzzle's space.
#[derive(Clone, Debug)]
pub struct SpaceRequest {
    /// Generator moves as twips takes them: `U,F,R` (every power of each is one move).
    pub moves: String,
    pub metric: Metric,
    /// Orbits whose orientation is left out, by name.
    pub ignore_orientation: Vec<String>,
    /// A goal other than the solved pattern, as cubing.js's pattern JSON
    /// (`{"ORBIT": {"pieces": [...], "orientation": [...], "orientationMod"?: [...]}}`): pieces
    /// given one value are alike, so only the pieces that matter are solved (a sub-goal).
    pub goal: Option<String>,
}

/// What a request asks, read: the generator moves, the orbits (indices) whose orientation it
/// leaves out, and the goal.
struct Parsed {
    generators: Generators,
    ignored: Vec<usize>,
    goal: Pattern,
}

/// Reads `request` against `definition`.
fn parse_request(
    definition: &KPuzzleDefinition,
    request: &SpaceRequest,
) -> Result<Parsed, PuzzleError> {
    let generators =
        Generators::parse(definition, &request.moves, request.metric).map_err(Box::new)?;
    let ignored = request
        .ignore_orientation
        .iter()
        .map(|name| {
            definition.orbit_index(name).ok_or_else(|| {
                let names: Vec<&str> = definition.orbits().iter().map(|o| o.name()).collect();
                PuzzleError::UnknownOrbit(name.clone(), names.join(", "))
            })
        })
        .collect::<Result<Vec<usize>, _>>()?;
    let goal = match &request.goal {
        Some(text) => definition
            .pattern_from_json_str(text)
            .map_err(|e| PuzzleError::Goal(Box::new(e)))?,
        None => definition.default_pattern().clone(),
    };
    Ok(Parsed {
        generators,
        ignored,
        goal,
    })
}

/// A puzzle's space as asked: the definition, its moves and the ranked states.
pub struct PuzzleSpace {
    pub generators: Generators,
    pub goal: Pattern,
    pub space: DefinedSpace,
}

impl PuzzleSpace {
    /// The space of the goal (the definition's solved pattern unless `request` gives one)
    /// under the moves of `request`.
    pub fn new(
        definition: &KPuzzleDefinition,
        request: &SpaceRequest,
    ) -> Result<PuzzleSpace, PuzzleError> {
        let Parsed {
            generators,
            ignored,
            goal,
        } = parse_request(definition, request)?;
        let space = DefinedSpace::new(definition, &generators, &goal, &ignored)?;
        Ok(PuzzleSpace {
            generators,
            goal,
            space,
        })
    }

    /// The moves as names, `R U R'`.
    pub fn format(&self, turns: &[usize]) -> String {
        turns
            .iter()
            .map(|&t| {
                let generator = self.space.generator_of(t);
                self.generators.moves()[generator].name().to_string()
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The algorithm that makes the position a solution `turns` solves: the inverse sequence.
    pub fn scramble_of(&self, turns: &[usize]) -> String {
        let inverse: Vec<usize> = turns
            .iter()
            .rev()
            .map(|&t| self.space.inverse_of(t))
            .collect();
        self.format(&inverse)
    }
}

/// A table's entries, read as the encoding stores them.
struct Entries<'a> {
    packed: &'a [u8],
    encoding: Encoding,
}

impl Entries<'_> {
    fn raw(&self, state: u64) -> u8 {
        let per_byte = u64::from(8 / self.encoding.bits());
        let byte = self.packed[(state / per_byte) as usize];
        let shift = (state % per_byte) * u64::from(self.encoding.bits());
        (byte >> shift) & ((1u16 << self.encoding.bits()) - 1) as u8
    }

    /// Whether `state` lies one move closer to the goal than a state at `distance`.
    fn is_one_closer(&self, state: u64, distance: usize) -> bool {
        let raw = usize::from(self.raw(state));
        match self.encoding {
            Encoding::Mod3 => raw != 3 && raw == (distance + 2) % 3,
            _ => distance > 0 && raw == distance - 1,
        }
    }
}

/// What God's algorithm found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GodsAnswer {
    pub puzzle: String,
    /// The generators as listed (`U,F,R` gives `["U", "F", "R"]`).
    pub generators: Vec<String>,
    /// Every move of the search: each generator's powers.
    pub moves: Vec<String>,
    pub metric: &'static str,
    /// Positions at each distance, index = distance.
    pub counts: Vec<u64>,
    pub total: u64,
    /// The greatest distance: God's number for these moves.
    pub diameter: usize,
    /// Positions at the greatest distance, each as an algorithm that makes it (the inverse
    /// of a shortest solution): all of them, or a sample of `antipodes_sampled` of
    /// `counts[diameter]`.
    pub antipodes: Vec<String>,
    pub antipodes_sampled: bool,
    /// Ranks in the table: the reachable positions, or a superset (see `exact_ranking`).
    pub ranks: u64,
    /// Whether every rank is a reachable position; `null` where the order is not known
    /// beforehand (identical pieces).
    pub exact_ranking: Option<bool>,
    /// How the rank is made.
    pub ranking: String,
    pub encoding: &'static str,
    pub table_bytes: u64,
    pub move_table_bytes: u64,
    pub seconds: f64,
    /// Whether the run went on from a checkpoint of an earlier one.
    pub resumed: bool,
    /// Seconds per depth.
    pub passes: Vec<f64>,
}

/// How God's algorithm runs.
#[derive(Clone, Debug, Default)]
pub struct GodsOptions {
    /// Where the run saves its finished depths and resumes from (removed once it is done).
    pub checkpoint: Option<PathBuf>,
    /// The most antipodes to list.
    pub antipodes: usize,
    /// The memory the run may take; `None` for what the system has available.
    pub memory: Option<u64>,
}

/// The encoding God's algorithm fills: exact bytes while the table is at most a GiB, 2 bits
/// (depth mod 3) beyond.
fn gods_encoding(states: u64) -> Encoding {
    if states <= 1 << 30 {
        Encoding::Byte
    } else {
        Encoding::Mod3
    }
}

/// The memory a run over `space` needs: its table and its move tables, with the row pass's
/// records (16 bytes a row), and the bits a state.
pub fn gods_memory(space: &DefinedSpace) -> (u64, u64, u32) {
    let encoding = gods_encoding(space.size());
    let table = encoding.payload_bytes(space.size());
    let rows = space.size() / crate::space::RowSpace::row_len(space).max(1);
    (table + rows * 16, space.table_bytes(), encoding.bits())
}

/// God's algorithm over the whole space of `puzzle`: every position's distance by the one
/// engine, on all cores; the run is refused before it starts if its memory is more than there
/// is.
pub fn gods(
    puzzle: &PuzzleSpace,
    name: &str,
    options: &GodsOptions,
    progress: &ProgressBar,
) -> Result<GodsAnswer, PuzzleError> {
    let space = &puzzle.space;
    let (table, moves, bits) = gods_memory(space);
    let available = options
        .memory
        .or_else(crate::support::memory::available_memory);
    if let Some(available) = available
        && table + moves > available
    {
        let per_state = (table as f64 / space.size().max(1) as f64).max(f64::MIN_POSITIVE);
        return Err(PuzzleError::NotEnoughMemory {
            states: space.size(),
            table,
            moves,
            bits,
            available,
            fits: (available.saturating_sub(moves) as f64 / per_state) as u64,
        });
    }
    let encoding = gods_encoding(space.size());
    let checkpoint = options
        .checkpoint
        .as_ref()
        .map(|path| Checkpoint::new(path.clone(), fingerprint(name, puzzle)));
    let resumed = checkpoint.as_ref().filter(|c| c.exists()).is_some();
    let start = Instant::now();
    let run = RunOptions {
        deepest: options.antipodes,
        checkpoint: checkpoint.as_ref(),
        max_depth: None,
    };
    let outcome = breadth_first_rows_with(space, encoding, progress, &run)?;
    let seconds = start.elapsed().as_secs_f64();
    let total: u64 = outcome.histogram.iter().sum();
    if let Some(expected) = space.known_reachable()
        && total != expected
    {
        return Err(PuzzleError::CountDiffers {
            reached: total,
            expected,
        });
    }
    let diameter = outcome.histogram.len().saturating_sub(1);
    let entries = Entries {
        packed: &outcome.packed,
        encoding,
    };
    let antipodes = outcome
        .deepest
        .iter()
        .map(|&state| {
            let solution = descend_from(puzzle, &entries, state, diameter);
            puzzle.scramble_of(&solution)
        })
        .collect::<Vec<_>>();
    if let Some(checkpoint) = &checkpoint {
        checkpoint.remove().map_err(BfsError::from)?;
    }
    Ok(GodsAnswer {
        puzzle: name.to_string(),
        generators: puzzle.generators.classes().to_vec(),
        moves: (0..space.move_count())
            .map(|turn| {
                let generator = space.generator_of(turn);
                puzzle.generators.moves()[generator].name().to_string()
            })
            .collect(),
        metric: match puzzle.generators.metric() {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
        },
        antipodes_sampled: (antipodes.len() as u64) < outcome.histogram[diameter],
        antipodes,
        counts: outcome.histogram.clone(),
        total,
        diameter,
        ranks: space.size(),
        exact_ranking: space.is_exact(),
        ranking: space.describe(),
        encoding: encoding.name(),
        table_bytes: encoding.payload_bytes(space.size()),
        move_table_bytes: space.table_bytes(),
        seconds,
        resumed,
        passes: outcome.passes.iter().map(|p| p.seconds).collect(),
    })
}

/// A shortest solution of `state` at `distance`, down the table.
fn descend_from(
    puzzle: &PuzzleSpace,
    entries: &Entries,
    state: u64,
    distance: usize,
) -> Vec<usize> {
    let space = &puzzle.space;
    let mut path = Vec::new();
    let mut here = state;
    let mut left = distance;
    while left > 0 {
        let Some((turn, there)) = (0..space.move_count()).find_map(|turn| {
            let there = space.apply(here, turn);
            entries.is_one_closer(there, left).then_some((turn, there))
        }) else {
            break;
        };
        path.push(turn);
        here = there;
        left -= 1;
    }
    path
}

/// What decides a run's ranks and moves, hashed: a checkpoint of another run is refused.
fn fingerprint(name: &str, puzzle: &PuzzleSpace) -> u64 {
    let text = format!(
        "{name}|{}|{:?}|{}|{:?}",
        puzzle.space.describe(),
        puzzle.goal,
        puzzle
            .generators
            .moves()
            .iter()
            .map(|m| m.name())
            .collect::<Vec<_>>()
            .join(","),
        puzzle.generators.metric()
    );
    xxhash_rust::xxh3::xxh3_64(text.as_bytes())
}

/// Which pieces and twists a projection keeps: per orbit, the piece values it tells apart
/// (the others become one blank value) and whether it keeps the orbit's twists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectionSpec {
    pub keep: Vec<Vec<u16>>,
    pub twists: Vec<bool>,
}

/// The value every piece a projection does not tell apart takes.
const BLANK: u16 = u16::MAX;

impl ProjectionSpec {
    /// Per orbit, per piece value of `goal`: its value in the projection.
    fn relabel(&self, goal: &Pattern) -> Vec<Vec<u16>> {
        goal.orbits()
            .iter()
            .zip(&self.keep)
            .map(|(orbit, keep)| {
                let top = orbit.pieces().iter().copied().max().unwrap_or(0);
                (0..=top)
                    .map(|v| if keep.contains(&v) { v } else { BLANK })
                    .collect()
            })
            .collect()
    }

    fn ignored(&self) -> Vec<usize> {
        (0..self.twists.len())
            .filter(|&o| !self.twists[o])
            .collect()
    }

    /// What this projection sees of `goal` and the orbits whose twists it forgets (its own
    /// and `ignored`): the goal and orbits its [`DefinedSpace`] is made of.
    fn projected(&self, goal: &Pattern, ignored: &[usize]) -> (Pattern, Vec<usize>) {
        let mut all_ignored = self.ignored();
        all_ignored.extend_from_slice(ignored);
        (goal.relabelled(&self.relabel(goal)), all_ignored)
    }

    /// Both projections' pieces and twists.
    fn union(&self, other: &ProjectionSpec) -> ProjectionSpec {
        ProjectionSpec {
            keep: self
                .keep
                .iter()
                .zip(&other.keep)
                .map(|(a, b)| {
                    let mut both = a.clone();
                    both.extend(b.iter().filter(|v| !a.contains(v)));
                    both.sort_unstable();
                    both
                })
                .collect(),
            twists: self
                .twists
                .iter()
                .zip(&other.twists)
                .map(|(a, b)| *a || *b)
                .collect(),
        }
    }

    /// What it keeps, for people: `CORNERS pieces 0-7 + twists, EDGES twists`.
    pub fn describe(&self, definition: &KPuzzleDefinition, goal: &Pattern) -> String {
        let mut out = Vec::new();
        for (o, orbit) in definition.orbits().iter().enumerate() {
            let values = distinct_values(goal, o);
            let pieces = match self.keep[o].len() {
                0 => None,
                n if n == values.len() => Some("pieces".to_string()),
                _ => Some(format!("pieces {}", ranges(&self.keep[o]))),
            };
            let twists = self.twists[o].then(|| "twists".to_string());
            let what: Vec<String> = pieces.into_iter().chain(twists).collect();
            if !what.is_empty() {
                out.push(format!("{} {}", orbit.name(), what.join(" + ")));
            }
        }
        if out.is_empty() {
            "nothing".to_string()
        } else {
            out.join(", ")
        }
    }
}

/// `0-3,7` for 0 1 2 3 7.
fn ranges(values: &[u16]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let mut j = i;
        while j + 1 < values.len() && values[j + 1] == values[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            values[i].to_string()
        } else {
            format!("{}-{}", values[i], values[j])
        });
        i = j + 1;
    }
    out.join(",")
}

/// The distinct piece values of orbit `orbit` in `goal`, sorted.
fn distinct_values(goal: &Pattern, orbit: usize) -> Vec<u16> {
    let mut values = goal.orbits()[orbit].pieces().to_vec();
    values.sort_unstable();
    values.dedup();
    values
}

/// The projections a solver uses by default, each of at most `per_table` states: the whole
/// puzzle where it fits (the search is then a walk down one exact table); else, orbit by
/// orbit, its pieces and twists together, or as many of its pieces as fit with the twists
/// (the pieces split into groups of that size, one projection a group), or the pieces and
/// the twists apart; then the smallest two merged while their union fits. Orbits in
/// `ignored` keep no twists anywhere.
pub fn default_projections(
    definition: &KPuzzleDefinition,
    generators: &Generators,
    goal: &Pattern,
    ignored: &[usize],
    per_table: u64,
) -> Vec<ProjectionSpec> {
    let orbits = definition.orbits().len();
    let states = |spec: &ProjectionSpec| -> Option<u64> {
        let (projected, all_ignored) = spec.projected(goal, ignored);
        DefinedSpace::states_of(definition, generators, &projected, &all_ignored)
            .ok()
            .and_then(|n| u64::try_from(n).ok())
    };
    let fits = |spec: &ProjectionSpec| states(spec).is_some_and(|n| n <= per_table);
    let twists_matter = |o: usize| !ignored.contains(&o) && !goal.orbits()[o].orientation_ignored();
    let empty = ProjectionSpec {
        keep: vec![Vec::new(); orbits],
        twists: vec![false; orbits],
    };
    let whole = ProjectionSpec {
        keep: (0..orbits).map(|o| distinct_values(goal, o)).collect(),
        twists: (0..orbits).map(twists_matter).collect(),
    };
    if fits(&whole) {
        return vec![whole];
    }
    let mut specs: Vec<ProjectionSpec> = Vec::new();
    for o in 0..orbits {
        let values = distinct_values(goal, o);
        let with = |keep: &[u16], twists: bool| {
            let mut spec = empty.clone();
            spec.keep[o] = keep.to_vec();
            spec.twists[o] = twists && twists_matter(o);
            spec
        };
        // Pieces in groups as large as fit, with the twists if they fit too.
        let twisted = twists_matter(o);
        let mut placed = false;
        for twists in [true, false] {
            if !twists && !twisted {
                break;
            }
            if let Some(k) = (1..=values.len())
                .rev()
                .find(|&k| fits(&with(&values[..k], twists)))
            {
                if values.len() > 1 || twists {
                    specs.extend(values.chunks(k).map(|group| with(group, twists)));
                }
                if !twists && twisted {
                    let alone = with(&[], true);
                    if fits(&alone) {
                        specs.push(alone);
                    }
                }
                placed = true;
                break;
            }
        }
        if !placed && twisted {
            let alone = with(&[], true);
            if fits(&alone) {
                specs.push(alone);
            }
        }
    }
    // A projection that tells nothing apart bounds nothing.
    specs.retain(|spec| states(spec).is_some_and(|n| n > 1));
    // Merge the two smallest while their union fits.
    loop {
        specs.sort_by_key(|spec| states(spec).unwrap_or(u64::MAX));
        let merged = (1..specs.len()).find_map(|j| {
            let union = specs[0].union(&specs[j]);
            fits(&union).then_some((j, union))
        });
        match merged {
            Some((j, union)) => {
                specs.remove(j);
                specs[0] = union;
            }
            None => break,
        }
    }
    specs
}

/// The most states one projection's table holds unless asked otherwise: 800 million, 200 MB
/// at four states a byte.
pub const DEFAULT_TABLE_STATES: u64 = 800_000_000;

/// What a solver is asked for.
#[derive(Clone, Debug)]
pub struct SolverRequest {
    pub space: SpaceRequest,
    /// The most states (four a byte) one projection's table may hold.
    pub per_table: u64,
    /// Where the projections' tables are kept between runs (mapped when there, built and
    /// written when not); `None` builds them in memory for this solver alone.
    pub tables: Option<PathBuf>,
    /// The most states a table this solver builds may hold; a larger one must be there
    /// already (a server builds small tables in a request, not large ones). `None`: any.
    pub build_at_most: Option<u64>,
}

/// A projection's table as the solver got it.
#[derive(Clone, Debug)]
pub enum TableSource {
    /// Filled in memory.
    Built,
    /// Filled and written to this file.
    Written(PathBuf),
    /// Mapped from this file, written by an earlier run.
    Read(PathBuf),
}

/// A solver and where each of its projections' tables came from (in the solver's order).
pub struct OpenedSolver {
    pub solver: PuzzleSolver,
    pub sources: Vec<TableSource>,
}

/// A puzzle's optimal solver: its projections' tables filled by the engine, or mapped from
/// the files an earlier run wrote (see [`SolverRequest::tables`]).
pub fn open_solver(
    definition: &KPuzzleDefinition,
    request: &SolverRequest,
    progress: &ProgressBar,
) -> Result<OpenedSolver, PuzzleError> {
    let Parsed {
        generators,
        ignored,
        goal,
    } = parse_request(definition, &request.space)?;
    let specs = default_projections(definition, &generators, &goal, &ignored, request.per_table);
    if specs.is_empty() {
        return Err(PuzzleError::NoProjection {
            per_table: thousands(request.per_table),
        });
    }
    // Four states a byte, refused before any table is made where the system has less.
    let states: u128 = specs
        .iter()
        .map(|spec| {
            let (projected, all_ignored) = spec.projected(&goal, &ignored);
            DefinedSpace::states_of(definition, &generators, &projected, &all_ignored)
                .unwrap_or(u128::MAX)
        })
        .fold(0u128, u128::saturating_add);
    let bytes = states.div_ceil(4);
    if let Some(available) = crate::support::memory::available_memory()
        && bytes > u128::from(available)
    {
        return Err(PuzzleError::TablesTooLarge {
            needed: human_bytes(u64::try_from(bytes).unwrap_or(u64::MAX)),
            available: human_bytes(available),
        });
    }
    let mut projections = Vec::new();
    let mut sources = Vec::new();
    for spec in &specs {
        let name = spec.describe(definition, &goal);
        progress.set_message(format!("table of {name}"));
        let relabel = spec.relabel(&goal);
        let (projected, all_ignored) = spec.projected(&goal, &ignored);
        let space = DefinedSpace::new(definition, &generators, &projected, &all_ignored)?;
        let (projection, source) = match &request.tables {
            Some(dir) => {
                // The orbits and the generators' transformations, not the whole definition:
                // its moves by name (and a hash map in it) decide nothing here.
                let decided_by = format!(
                    "{:?}|{generators:?}|{goal:?}|{relabel:?}|{all_ignored:?}",
                    definition.orbits()
                );
                let key =
                    ProjectionKey::new(definition.name(), generators.metric(), &decided_by, &space);
                let opened = match request.build_at_most {
                    Some(most) if space.size() > most => puzzle_tables::Opened {
                        table: puzzle_tables::open(dir, &key, &space).map_err(|e| {
                            PuzzleError::NotBuilt {
                                name: name.clone(),
                                states: thousands(space.size()),
                                most: thousands(most),
                                reason: e.to_string(),
                            }
                        })?,
                        built: false,
                    },
                    _ => puzzle_tables::open_or_build(dir, &key, &space, progress)?,
                };
                let path = key.path(dir);
                let source = match opened.built {
                    true => TableSource::Written(path),
                    false => TableSource::Read(path),
                };
                (
                    Projection::mapped(space, relabel, opened.table, name),
                    source,
                )
            }
            None => (
                Projection::build(space, relabel, name, progress)?,
                TableSource::Built,
            ),
        };
        projections.push(projection);
        sources.push(source);
    }
    Ok(OpenedSolver {
        solver: PuzzleSolver::new(projections, generators, goal),
        sources,
    })
}

/// One position solved, for printing.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PuzzleSolution {
    /// The position, as the algorithm that makes it.
    pub scramble: String,
    pub solution: Option<String>,
    /// Every optimal solution, where all were asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<Vec<String>>,
    pub count: usize,
    pub length: Option<u32>,
    pub optimal: bool,
    /// `optimal`, or what stopped the search: `timeout` or `max-length` (the statuses of
    /// `solve`'s experiment rows).
    pub status: &'static str,
    pub nodes: u64,
    pub seconds: f64,
}

/// Solves the position that `scramble` (an algorithm in the definition's moves) makes from the
/// solver's goal, and checks every solution by applying it to that position with the
/// definition's moves: the result must match the goal.
pub fn solve_scramble(
    solver: &PuzzleSolver,
    definition: &KPuzzleDefinition,
    scramble: &str,
    limits: &PuzzleLimits,
) -> Result<PuzzleSolution, PuzzleError> {
    let t = definition
        .transformation_of(scramble)
        .map_err(|e| PuzzleError::Scramble(scramble.to_string(), e.to_string()))?;
    let start = solver.goal().apply(&t);
    let search = solver.solve(&start, limits).map_err(|e| match e {
        // The solver's space refuses the position, not the question.
        PuzzleSolveError::Space(e) => PuzzleError::Scramble(scramble.to_string(), e.to_string()),
        PuzzleSolveError::Unsolvable => PuzzleError::Unsolvable(scramble.to_string()),
    })?;
    let names = |moves: &[usize]| {
        moves
            .iter()
            .map(|&m| solver.generators().moves()[m].name())
            .collect::<Vec<_>>()
            .join(" ")
    };
    for moves in &search.solutions {
        if !solver.solves(&start, moves) || Some(solver.cost(moves)) != search.length {
            return Err(PuzzleError::WrongSolution {
                scramble: scramble.to_string(),
                solution: names(moves),
            });
        }
    }
    Ok(PuzzleSolution {
        scramble: scramble.to_string(),
        solution: search.solutions.first().map(|m| names(m)),
        solutions: limits
            .all
            .then(|| search.solutions.iter().map(|m| names(m)).collect()),
        count: search.solutions.len(),
        length: search.length,
        optimal: search.optimal,
        status: match (search.optimal, search.timed_out) {
            (true, _) => "optimal",
            (false, true) => "timeout",
            (false, false) => "max-length",
        },
        nodes: search.nodes,
        seconds: search.seconds,
    })
}

/// `count` random positions as algorithms: each a walk of 1,000 random moves from the goal,
/// drawn from `seed`.
pub fn random_scrambles(solver: &PuzzleSolver, count: usize, seed: u64) -> Vec<String> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    let moves = solver.generators().moves();
    (0..count)
        .map(|_| {
            (0..1000)
                .map(|_| moves[rng.random_range(0..moves.len())].name())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}
