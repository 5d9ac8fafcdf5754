//! The devil's algorithm: one move sequence that, repeated from any position of a group,
//! passes through every position exactly once before it returns. It is a Hamiltonian circuit
//! of the group's Cayley graph; turning is multiplying on the right, so multiplying on the
//! left maps the graph onto itself, and the circuit found from the solved state serves every
//! starting position.
//!
//! **Turns in pairs.** Every quarter turn changes the parity of the corner permutation, so a
//! circuit alternates between even and odd positions. The circuit built here alternates the
//! kind of turn too: an *opening* turn `p` (a quarter turn of any face but one), then the
//! *closing* turn `q`, the clockwise turn of that one face, always. The even positions then
//! form a circuit of their own under the paired moves `p·q`, and the odd ones are each
//! visited once in between (the odd position before `x` is `x·q⁻¹`, one for each `x`). Half
//! the states, and a simpler graph.
//!
//! **Cycles, then joins.** Give every even position `x` an opening turn `choice(x)` so that
//! the successors `x·choice(x)·q` are all different: the choices then split the even positions
//! into disjoint cycles. At first every position takes the same turn `p`, and the cycles are
//! the orbits of `p·q`. Two positions `x` and `y = x·p²` that both take `p` can both take
//! `p⁻¹` instead: `x·p⁻¹ = y·p`, so each takes the other's successor, a transposition, which
//! joins their cycles if they lie on different ones (and splits one if not). Such pairs join
//! the cycles of `p·q` into the orbits of `⟨p·q, p²⟩`; a spanning tree of joins, found with a
//! union-find over the cycles, leaves one cycle per orbit. For the 2x2's `⟨U, R⟩` that is the
//! whole (even part of the) group: a circuit with no more work.
//!
//! **More faces.** With a third face the orbits of `⟨p·q, p²⟩` are cosets of a subgroup
//! (126 of `⟨U, R⟩` in the 2x2). Switching a position from `p` to another face's `r` takes the
//! successor of `x·r·p⁻¹`, which must switch too, and so on around the orbit of `r·p⁻¹`: if all
//! of an orbit's positions take `p`, switching them all to `r` rotates their successors among
//! them, and the cycles through them are cut and rejoined across cosets. Such switches are
//! taken, greedily, while they touch more than one component of the cycles joined by the pairs
//! available; when the pairs join everything, their spanning tree leaves one cycle.
//!
//! The rejected alternatives: a depth-first search for a Hamiltonian path (Warnsdorff's rule,
//! backtracking) is exponential in the worst case and on millions of states runs out of luck
//! or time; merging cycles of single turns (every position taking `U`, switching orbits of
//! `U·R⁻¹` and the like) stalls with dozens of cycles left, because the only short switches
//! among single turns (`U` and `U'` around `U²`) join positions that lie on one cycle already.

use crate::bfs::{BfsError, UNREACHED_BYTE, breadth_first};
use crate::model::cube::Move;
use crate::model::notation::{format_moves, parse_moves};
use crate::model::position::Puzzle;
use crate::packing::Encoding;
use crate::space::group::{GroupMetric, GroupSpace, GroupSpec, Sizes};
use crate::support::named::named;
use crate::support::units::thousands;
use crate::table::TableError;
use indicatif::ProgressBar;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// Why no circuit was built, or why a move sequence is not a circuit of the group.
#[derive(Debug, thiserror::Error)]
pub enum CircuitError {
    #[error(
        "circuits are built for quarter-turn generators of at least two faces, with their \
         inverses (--group-metric qtm, generators or htm): {0}"
    )]
    Unsupported(String),
    #[error("the circuit has {found} moves; the group has {expected} positions")]
    Length { found: u64, expected: u64 },
    #[error("the circuit has more moves than the group's {expected} positions (by line {line})")]
    TooLong { expected: u128, line: usize },
    #[error("move {at} ({turn}) is not a move of the group")]
    NoSuchMove { at: u64, turn: String },
    #[error("move {at} returns to the position first reached after move {first}")]
    Revisits { at: u64, first: u64 },
    #[error("after the last move the position is not the one the circuit started from")]
    NotClosed,
    #[error("the cycles could not all be joined: {cycles} remain after {rounds} rounds")]
    Stuck { cycles: u64, rounds: usize },
    #[error("{path}: {message}")]
    Format { path: PathBuf, message: String },
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Bfs(#[from] BfsError),
}

/// The moves of a group as the construction uses them.
struct Turns {
    /// The closing turn `q`.
    close: usize,
    /// The opening turns: every quarter turn of the other faces.
    open: Vec<usize>,
    /// `[m]`: the move that undoes move `m`.
    inverse: Vec<usize>,
    /// `[m]`: the face of move `m`.
    face: Vec<usize>,
}

impl Turns {
    /// The turns of `spec`'s moves: every move must be one face turn, a quarter turn with its
    /// inverse, but for the half turns the half-turn metric adds, which a circuit of quarter
    /// turns does not need (it is a circuit in that metric too).
    fn of(spec: &GroupSpec) -> Result<Turns, CircuitError> {
        let unsupported = || CircuitError::Unsupported(spec.to_string());
        if !spec.metric.has_inverses() {
            return Err(unsupported());
        }
        let moves = spec.moves();
        let mut turns = Vec::with_capacity(moves.len());
        for m in &moves {
            match m.turns[..] {
                [turn] if turn.quarter_turns() != 2 || spec.metric == GroupMetric::Htm => {
                    turns.push(turn)
                }
                _ => return Err(unsupported()),
            }
        }
        let quarter = |m: usize| turns[m].quarter_turns() != 2;
        let index = |t: Move| turns.iter().position(|&u| u == t);
        let inverse = (0..turns.len())
            .map(|m| match quarter(m) {
                true => index(turns[m].inverse()).ok_or_else(unsupported),
                false => Ok(m),
            })
            .collect::<Result<Vec<usize>, _>>()?;
        let first = turns
            .iter()
            .find(|t| t.quarter_turns() != 2)
            .ok_or_else(unsupported)?;
        let close = index(Move::new(first.face(), 1)).ok_or_else(unsupported)?;
        let open: Vec<usize> = (0..turns.len())
            .filter(|&m| quarter(m) && turns[m].face() != first.face())
            .collect();
        if open.is_empty() {
            return Err(unsupported());
        }
        let face = turns.iter().map(|t| t.face().index()).collect();
        Ok(Turns {
            close,
            open,
            inverse,
            face,
        })
    }
}

/// A union-find over `0..n` with path halving.
struct Components {
    parent: Vec<u32>,
    count: u64,
}

impl Components {
    fn new(n: usize) -> Components {
        Components {
            parent: (0..n as u32).collect(),
            count: n as u64,
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let up = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = up;
            x = up;
        }
        x
    }

    /// Joins the components of `a` and `b`; false if they were one already.
    fn join(&mut self, a: u32, b: u32) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        self.parent[a as usize] = b;
        self.count -= 1;
        true
    }
}

/// The construction's state: every even position's opening turn.
struct Builder<'a> {
    space: &'a GroupSpace,
    turns: Turns,
    /// `[x]`: the opening turn of even position `x` (unused for odd ones).
    choice: Vec<u8>,
    even: Vec<bool>,
}

/// "No cycle yet" in [`Builder::cycles`].
const UNLABELLED: u32 = u32::MAX;

impl Builder<'_> {
    fn successor(&self, x: u64) -> u64 {
        let opened = self.space.step(x, usize::from(self.choice[x as usize]));
        self.space.step(opened, self.turns.close)
    }

    /// The partner of `x` in a transposition: `x·p²` for its opening turn `p`, if that takes
    /// `p` too.
    fn partner(&self, x: u64) -> Option<u64> {
        let p = usize::from(self.choice[x as usize]);
        let y = self.space.step(self.space.step(x, p), p);
        (usize::from(self.choice[y as usize]) == p).then_some(y)
    }

    /// Every even position's cycle number, and how many cycles there are.
    fn cycles(&self) -> (Vec<u32>, u32) {
        let mut label = vec![UNLABELLED; self.choice.len()];
        let mut count = 0;
        for start in 0..self.choice.len() as u64 {
            if !self.even[start as usize] || label[start as usize] != UNLABELLED {
                continue;
            }
            let mut x = start;
            while label[x as usize] == UNLABELLED {
                label[x as usize] = count;
                x = self.successor(x);
            }
            count += 1;
        }
        (label, count)
    }

    /// The components of the cycles joined by every transposition available.
    fn joined_by_pairs(&self, label: &[u32], count: u32) -> Components {
        let mut components = Components::new(count as usize);
        for x in 0..self.choice.len() as u64 {
            if self.even[x as usize]
                && let Some(y) = self.partner(x)
            {
                components.join(label[x as usize], label[y as usize]);
            }
        }
        components
    }

    /// Switches whole orbits from one opening turn to another face's, greedily, where an
    /// orbit touches more than one component; returns how many were switched.
    fn switch_orbits(&mut self, label: &[u32], components: &mut Components) -> u64 {
        let mut switched = 0;
        let open = self.turns.open.clone();
        let mut orbit = Vec::new();
        for &from in &open {
            for &to in &open {
                if self.turns.face[from] == self.turns.face[to] {
                    continue;
                }
                let back = self.turns.inverse[from];
                for start in 0..self.choice.len() as u64 {
                    if components.count == 1 {
                        return switched;
                    }
                    if !self.even[start as usize]
                        || usize::from(self.choice[start as usize]) != from
                    {
                        continue;
                    }
                    // The orbit of `to·from⁻¹`, whole, if every position on it takes `from`;
                    // taken once, from its least position.
                    orbit.clear();
                    let mut x = start;
                    let whole = loop {
                        orbit.push(x);
                        x = self.space.step(self.space.step(x, to), back);
                        if x == start {
                            break true;
                        }
                        if x < start || usize::from(self.choice[x as usize]) != from {
                            break false;
                        }
                    };
                    if !whole {
                        continue;
                    }
                    let mut joined = false;
                    for pair in orbit.windows(2) {
                        let (a, b) = (label[pair[0] as usize], label[pair[1] as usize]);
                        joined |= components.join(a, b);
                    }
                    if joined {
                        for &x in &orbit {
                            self.choice[x as usize] = to as u8;
                        }
                        switched += 1;
                    }
                }
            }
        }
        switched
    }

    /// Takes every transposition that joins two cycles (a spanning tree of the cycles joined
    /// by pairs); returns the cycles left.
    fn join_by_pairs(&mut self) -> u64 {
        let (label, count) = self.cycles();
        let mut components = Components::new(count as usize);
        for x in 0..self.choice.len() as u64 {
            if !self.even[x as usize] {
                continue;
            }
            if let Some(y) = self.partner(x)
                && components.join(label[x as usize], label[y as usize])
            {
                let p = usize::from(self.choice[x as usize]);
                let turned = self.turns.inverse[p] as u8;
                self.choice[x as usize] = turned;
                self.choice[y as usize] = turned;
            }
        }
        components.count
    }
}

/// Which states of the space are positions of the group: all of them where the space is the
/// group, else those the breadth-first engine reaches from solved (for the 3x3's `<U, R>` the
/// product of corner and edge images is twice the group, and the other half must not be
/// toured).
fn members(space: &GroupSpace) -> Result<Vec<bool>, BfsError> {
    use crate::space::StateSpace;
    if space.size() == space.reachable() {
        return Ok(vec![true; space.size() as usize]);
    }
    let outcome = breadth_first(space, Encoding::Byte, &ProgressBar::hidden())?;
    Ok(outcome
        .packed
        .iter()
        .map(|&entry| entry != UNREACHED_BYTE)
        .collect())
}

/// Whether circuits of `spec`'s group can be built: its generators must be quarter turns of
/// two or more faces, with their inverses. Asked before the positions are numbered.
pub fn check_supported(spec: &GroupSpec) -> Result<(), CircuitError> {
    Turns::of(spec).map(|_| ())
}

/// Builds a circuit of `spec`'s group (see the module's description): the moves, as indices
/// into `spec.moves()`, from the solved position back to it.
pub fn build_circuit(
    space: &GroupSpace,
    spec: &GroupSpec,
    progress: &ProgressBar,
) -> Result<Vec<u8>, CircuitError> {
    use crate::space::StateSpace;
    let turns = Turns::of(spec)?;
    let states = space.size() as usize;
    progress.set_message("finding the group's positions");
    let even: Vec<bool> = members(space)?
        .into_iter()
        .enumerate()
        .map(|(x, member)| member && !space.is_odd(x as u64))
        .collect();
    let first = turns.open[0] as u8;
    let mut builder = Builder {
        space,
        turns,
        choice: vec![first; states],
        even,
    };
    const ROUNDS: usize = 20;
    for round in 1..=ROUNDS {
        progress.set_message(format!("round {round}: following the cycles"));
        let (label, count) = builder.cycles();
        let mut components = builder.joined_by_pairs(&label, count);
        if components.count > 1 {
            progress.set_message(format!(
                "round {round}: {} cycles in {} components; switching orbits",
                thousands(count),
                thousands(components.count)
            ));
            builder.switch_orbits(&label, &mut components);
            continue;
        }
        progress.set_message(format!(
            "round {round}: joining {} cycles",
            thousands(count)
        ));
        let left = builder.join_by_pairs();
        if left != 1 {
            return Err(CircuitError::Stuck {
                cycles: left,
                rounds: round,
            });
        }
        return Ok(builder.sequence());
    }
    let (_, count) = builder.cycles();
    Err(CircuitError::Stuck {
        cycles: u64::from(count),
        rounds: ROUNDS,
    })
}

impl Builder<'_> {
    /// The circuit from the solved position: opening and closing turns in turn.
    fn sequence(&self) -> Vec<u8> {
        let half = self.even.iter().filter(|&&e| e).count();
        let mut moves = Vec::with_capacity(2 * half);
        let mut x = 0;
        for _ in 0..half {
            moves.push(self.choice[x as usize]);
            moves.push(self.turns.close as u8);
            x = self.successor(x);
        }
        moves
    }
}

/// Checks that `moves` (indices into the group's moves) is a circuit: from the solved
/// position, every position of the group once, then the solved position again.
pub fn check_circuit(space: &GroupSpace, moves: &[u8]) -> Result<(), CircuitError> {
    use crate::space::{MoveSpace, StateSpace};
    let expected = space.reachable();
    if moves.len() as u64 != expected {
        return Err(CircuitError::Length {
            found: moves.len() as u64,
            expected,
        });
    }
    let mut first_seen = vec![u32::MAX; space.size() as usize];
    let mut x = 0u64;
    for (at, &m) in moves.iter().enumerate() {
        if usize::from(m) >= space.move_count() {
            return Err(CircuitError::NoSuchMove {
                at: at as u64 + 1,
                turn: m.to_string(),
            });
        }
        let seen = &mut first_seen[x as usize];
        if *seen != u32::MAX {
            return Err(CircuitError::Revisits {
                at: at as u64,
                first: u64::from(*seen),
            });
        }
        *seen = at as u32;
        x = space.step(x, usize::from(m));
    }
    if x != 0 {
        return Err(CircuitError::NotClosed);
    }
    Ok(())
}

/// Where the circuit of `spec`'s group is written: `circuit-<group>.txt.zst` in `dir`.
pub fn circuit_path(dir: &Path, spec: &GroupSpec) -> PathBuf {
    dir.join(format!("circuit-{}.txt.zst", spec.stem()))
}

/// How many moves a line of a circuit file holds.
const MOVES_PER_LINE: usize = 30;

/// The zstd level of circuit files: the 2x2's takes 1 s and 250 KB; level 19 would save a
/// fifth of that for nine seconds more, level 3 take 0.03 s for two and a half times the size.
const LEVEL: i32 = 15;

/// Writes a circuit as text in the usual notation, zstd-compressed: a header of `# key: value`
/// lines naming the group (what [`read_circuit`] needs to check it), then the moves.
pub fn write_circuit(path: &Path, spec: &GroupSpec, moves: &[u8]) -> Result<(), CircuitError> {
    let turns: Vec<Move> = spec.moves().iter().map(|m| m.turns[0]).collect();
    let generators: Vec<String> = spec.generators.iter().map(|g| format_moves(g)).collect();
    crate::table::atomic_write(path, |out| {
        let mut z = zstd::stream::write::Encoder::new(out, LEVEL)?;
        // A damaged file then fails to decompress instead of reading as other moves.
        z.include_checksum(true)?;
        writeln!(
            z,
            "# cubelab circuit: every position of the group once, then back"
        )?;
        writeln!(z, "# puzzle: {}", spec.puzzle)?;
        writeln!(z, "# generators: {}", generators.join(", "))?;
        writeln!(z, "# metric: {}", spec.metric.name())?;
        writeln!(z, "# moves: {}", moves.len())?;
        for line in moves.chunks(MOVES_PER_LINE) {
            let line: Vec<Move> = line.iter().map(|&m| turns[usize::from(m)]).collect();
            writeln!(z, "{}", format_moves(&line))?;
        }
        z.finish()?;
        Ok(())
    })?;
    Ok(())
}

/// Longest line a circuit file may have (ours hold 30 moves, under 100 bytes): a file that is
/// one endless line is refused rather than read into memory.
const MAX_LINE: u64 = 1 << 16;

/// Reads a circuit file: the group its header names, and its moves. The header comes first;
/// the moves are counted against the group's order as they are read, so that a file of more
/// moves than the group has positions is refused without holding them all.
pub fn read_circuit(path: &Path) -> Result<(GroupSpec, Vec<Move>), CircuitError> {
    let format = |message: String| CircuitError::Format {
        path: path.to_path_buf(),
        message,
    };
    let io = |source| {
        CircuitError::Table(TableError::Io {
            path: path.to_path_buf(),
            source,
        })
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut reader = BufReader::new(zstd::stream::read::Decoder::new(file).map_err(io)?);
    let (mut puzzle, mut generators, mut metric) = (None, None, None);
    let mut group: Option<(GroupSpec, u128)> = None;
    let mut moves = Vec::new();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE)
            .read_until(b'\n', &mut line)
            .map_err(|e| format(format!("not a zstd-compressed file, or damaged ({e})")))?;
        if read == 0 {
            break;
        }
        if line.last() != Some(&b'\n') && read as u64 == MAX_LINE {
            return Err(format(format!(
                "line {number} is longer than {MAX_LINE} bytes"
            )));
        }
        let text = std::str::from_utf8(&line)
            .map_err(|_| format(format!("line {number} is not UTF-8 text")))?
            .trim();
        if let Some(header) = text.strip_prefix('#') {
            if let Some((key, value)) = header.split_once(':') {
                let value = Some(value.trim().to_string());
                match key.trim() {
                    "puzzle" => puzzle = value,
                    "generators" => generators = value,
                    "metric" => metric = value,
                    _ => {}
                }
            }
            continue;
        }
        let (_, order) = match &group {
            Some(known) => known,
            None => {
                let spec = header_group(&puzzle, &generators, &metric).map_err(&format)?;
                let order = Sizes::of(&spec).order;
                group.insert((spec, order))
            }
        };
        let turns = parse_moves(text).map_err(|e| format(format!("line {number}: {e}")))?;
        moves.extend(turns);
        if moves.len() as u128 > *order {
            return Err(CircuitError::TooLong {
                expected: *order,
                line: number,
            });
        }
    }
    let spec = match group {
        Some((spec, _)) => spec,
        None => header_group(&puzzle, &generators, &metric).map_err(&format)?,
    };
    Ok((spec, moves))
}

/// The group a circuit file's header names, or what is wrong with the header.
fn header_group(
    puzzle: &Option<String>,
    generators: &Option<String>,
    metric: &Option<String>,
) -> Result<GroupSpec, String> {
    let missing =
        |key: &str| format!("the header names no {key} (a `# {key}:` line before the moves)");
    let puzzle = puzzle.as_ref().ok_or_else(|| missing("puzzle"))?;
    let puzzle: Puzzle = named("puzzle", puzzle).map_err(|e| e.to_string())?;
    let metric = metric.as_ref().ok_or_else(|| missing("metric"))?;
    let metric: GroupMetric = named("metric", metric).map_err(|e| e.to_string())?;
    let generators = generators.as_ref().ok_or_else(|| missing("generators"))?;
    GroupSpec::parse(puzzle, generators, metric)
        .map_err(|e| format!("generators {generators}: {e}"))
}

/// The moves of a circuit as indices into `spec.moves()`; an error names the first move that
/// is not one of them.
pub fn move_indices(spec: &GroupSpec, moves: &[Move]) -> Result<Vec<u8>, CircuitError> {
    let turns: Vec<Vec<Move>> = spec.moves().into_iter().map(|m| m.turns).collect();
    moves
        .iter()
        .enumerate()
        .map(|(at, &m)| {
            turns
                .iter()
                .position(|t| t[..] == [m])
                .map(|i| i as u8)
                .ok_or_else(|| CircuitError::NoSuchMove {
                    at: at as u64 + 1,
                    turn: format_moves(&[m]),
                })
        })
        .collect()
}

#[cfg(test)]
mod tests;
