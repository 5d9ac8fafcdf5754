//! Any puzzle from its KPuzzle definition as a ranked state space, for the one breadth-first
//! engine: the same engine and table format as the cube's own spaces, one more space.
//!
//! A state is ranked as a product of parts, one or two an orbit: where the pieces are (a
//! multiset permutation over the slots some move changes, identical pieces as the goal pattern
//! marks them: see [`crate::coord::multiset`]) and how they are twisted (one base-`m` digit a
//! slot, `m` the orbit's orientation modulus). Both parts follow a move on their own, since a
//! definition's moves act on slots: the piece now in slot `i` is the one that was in
//! `permutation[i]`, twisted by `orientationDelta[i]`, whichever piece it is. So each part has
//! a move table of its own (part value x moves), and a move of the whole is a look-up a part.
//!
//! What the ranking leaves out:
//! - slots no move changes, which keep the goal's piece and twist;
//! - an orbit's twist where it is ignored (`--ignore-orientation`, or a definition whose
//!   pattern knows it only mod 1, as cubing.js's 3x3x3 centres);
//! - the last twist digit of an orbit where every move keeps the twists' sum: it follows
//!   from the others.
//!
//! Other constraints (permutation parity, parities coupled across orbits) are not ranked out:
//! the table is then a documented superset of the reachable states, its other entries never
//! reached and never counted. [`DefinedSpace::reachable`] is the group's order by
//! Schreier–Sims where the state is a group element (no identical pieces), so that the search
//! stops once it has them and a count that differs is a defect, not a result.
//!
//! The last part in rank order is the one a row of the engine's row pass holds (a multiple of
//! four values), so that each move maps a whole row into one row.

use crate::coord::multiset::Multiset;
use crate::coord::order::{Perm, group_order};
use crate::model::kpuzzle::{
    GeneratorMove, Generators, KPuzzleDefinition, OrbitTransformation, Pattern,
};
use crate::space::{MoveSpace, RowSpace, StateSpace};

/// The most entries one part's move table may hold (4 bytes each: 1 GiB).
pub const MAX_TABLE_ENTRIES: u64 = 1 << 28;

/// Why a definition's space cannot be ranked as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DefinedSpaceError {
    #[error(
        "orbit {orbit} mixes orientation moduli (orientationMod): one modulus an orbit is ranked; ignore its orientation with --ignore-orientation {orbit}"
    )]
    MixedOrientationMod { orbit: String },
    #[error(
        "orbit {orbit}'s {part} take {values} values, and their move table would hold {entries} entries (at most {MAX_TABLE_ENTRIES}): {}",
        if *part == "twists" {
            format!("ignore its orientation (--ignore-orientation {orbit}) to shrink it")
        } else {
            "make some of its pieces identical in a goal (--goal) to shrink it, or project the puzzle onto fewer of them".to_string()
        }
    )]
    PartTooLarge {
        orbit: String,
        part: &'static str,
        values: u128,
        entries: u128,
    },
    #[error(
        "the space has {states} states, more than a table can index (2^64); make pieces identical in the goal or ignore orientations"
    )]
    TooLarge { states: u128 },
    #[error("the moves are empty: give at least one generator")]
    NoMoves,
    #[error(
        "the pattern differs from the goal in slot {slot} of orbit {orbit}, which no move changes: no sequence of these moves solves it"
    )]
    Unreachable { orbit: String, slot: usize },
}

/// What one part of the rank holds.
#[derive(Clone, Debug)]
enum PartKind {
    /// Which piece (by its value's class) is in each slot.
    Pieces(Multiset),
    /// Distinct pieces that every move permutes evenly: an arrangement of all but the last
    /// two (their order follows from the parity, `even` or odd as the goal's).
    EvenPieces { even: bool },
    /// Each slot's twist, base `modulus`; with `sum`, the last digit is the one that makes the
    /// twists add up to it (mod `modulus`).
    Twists { modulus: u8, sum: Option<u8> },
}

/// One part of the rank: an orbit's pieces or twists over the slots the moves change.
#[derive(Clone, Debug)]
struct Part {
    orbit: usize,
    /// The slots ranked, in order; every move maps them among themselves.
    slots: Vec<usize>,
    kind: PartKind,
    /// The classes of piece values, for [`PartKind::Pieces`]: value -> class.
    classes: Vec<(u16, u8)>,
    values: u64,
    /// `table[value x moves + turn]`: the value after move `turn`.
    table: Vec<u32>,
}

/// A puzzle's states under its generator moves, ranked (see the module's documentation).
#[derive(Clone, Debug)]
pub struct DefinedSpace {
    /// In rank order, most significant first.
    parts: Vec<Part>,
    moves: usize,
    size: u64,
    reachable: Option<u64>,
    goal: u64,
    goal_pattern: Pattern,
    orbit_names: Vec<String>,
    /// The generator move (an index into the generators' list) of each move of the search.
    graph: Vec<usize>,
    /// The search's move that undoes each.
    inverses: Vec<usize>,
}

impl DefinedSpace {
    /// The space of `goal` (the definition's default pattern, or a sub-goal) under the moves of
    /// `generators`, with the twists of the orbits in `ignored` (indices) left out.
    pub fn new(
        definition: &KPuzzleDefinition,
        generators: &Generators,
        goal: &Pattern,
        ignored: &[usize],
    ) -> Result<DefinedSpace, DefinedSpaceError> {
        if generators.is_empty() {
            return Err(DefinedSpaceError::NoMoves);
        }
        let Plan {
            goal,
            orbit_names,
            graph,
            graph_moves,
            mut parts,
            alike,
        } = Plan::new(definition, generators, goal, ignored)?;
        let moves = &graph_moves[..];
        for part in &parts {
            let entries = u128::from(part.values) * moves.len() as u128;
            if entries > u128::from(MAX_TABLE_ENTRIES) || part.values > u64::from(u32::MAX) {
                return Err(DefinedSpaceError::PartTooLarge {
                    orbit: orbit_names[part.orbit].clone(),
                    part: match part.kind {
                        PartKind::Twists { .. } => "twists",
                        _ => "pieces",
                    },
                    values: u128::from(part.values),
                    entries,
                });
            }
        }
        let states = parts
            .iter()
            .fold(1u128, |n, p| n.saturating_mul(u128::from(p.values)));
        let size = u64::try_from(states).map_err(|_| DefinedSpaceError::TooLarge { states })?;
        // The row pass wants the last part's values a multiple of four: the largest such part.
        if let Some(last) = (0..parts.len())
            .filter(|&i| parts[i].values.is_multiple_of(4))
            .max_by_key(|&i| parts[i].values)
        {
            let part = parts.remove(last);
            parts.push(part);
        }
        for part in &mut parts {
            part.table = part.move_table(moves);
        }
        // Identical pieces make a state a coset of the group, not an element: no count then.
        let distinct = !alike
            && parts.iter().all(|p| match &p.kind {
                PartKind::Pieces(_) => p.classes.len() == p.slots.len(),
                _ => true,
            });
        let reachable = distinct.then(|| group_states(moves, &parts)).flatten();
        let mut space = DefinedSpace {
            parts,
            moves: moves.len(),
            inverses: moves
                .iter()
                .map(|m| graph.iter().position(|&g| g == m.inverse()).unwrap_or(0))
                .collect(),
            graph,
            size,
            reachable,
            goal: 0,
            goal_pattern: goal.clone(),
            orbit_names,
        };
        space.goal = space.index(&goal)?;
        Ok(space)
    }

    /// How many ranks the space of [`DefinedSpace::new`] with these arguments would have,
    /// without making its move tables: for choosing among spaces before building one.
    pub fn states_of(
        definition: &KPuzzleDefinition,
        generators: &Generators,
        goal: &Pattern,
        ignored: &[usize],
    ) -> Result<u128, DefinedSpaceError> {
        let plan = Plan::new(definition, generators, goal, ignored)?;
        Ok(plan
            .parts
            .iter()
            .fold(1u128, |n, p| n.saturating_mul(u128::from(p.values))))
    }

    /// The rank of `pattern`, or the error naming a slot it differs from the goal in that no
    /// move changes.
    pub fn index(&self, pattern: &Pattern) -> Result<u64, DefinedSpaceError> {
        for (orbit, (goal, given)) in self
            .goal_pattern
            .orbits()
            .iter()
            .zip(pattern.orbits())
            .enumerate()
        {
            let ranked = |slot: &usize| {
                self.parts
                    .iter()
                    .any(|p| p.orbit == orbit && p.slots.contains(slot))
            };
            for slot in 0..goal.pieces().len() {
                let modulus = goal.effective_mod(slot);
                let same = goal.pieces()[slot] == given.pieces()[slot]
                    && goal.orientation()[slot] % modulus == given.orientation()[slot] % modulus;
                if !same && !ranked(&slot) {
                    return Err(DefinedSpaceError::Unreachable {
                        orbit: self.orbit_names[orbit].clone(),
                        slot,
                    });
                }
            }
        }
        Ok(self.parts.iter().fold(0u64, |rank, part| {
            rank * part.values + part.rank_of(pattern)
        }))
    }

    /// The generator move (an index into [`Generators::moves`]) that the search's move `turn`
    /// is.
    pub fn generator_of(&self, turn: usize) -> usize {
        self.graph[turn]
    }

    /// How many moves the search has: the generators' powers of cost 1.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// The search's move that undoes move `turn`.
    pub fn inverse_of(&self, turn: usize) -> usize {
        self.inverses[turn]
    }

    /// How many parts a rank is made of.
    pub fn part_count(&self) -> usize {
        self.parts.len()
    }

    /// How many values part `part` takes.
    pub fn part_values(&self, part: usize) -> u64 {
        self.parts[part].values
    }

    /// The values of the parts of rank `rank`, most significant first.
    pub fn split_rank(&self, rank: u64, out: &mut [u32]) {
        let mut rest = rank;
        for (part, value) in self.parts.iter().zip(out.iter_mut()).rev() {
            *value = (rest % part.values) as u32;
            rest /= part.values;
        }
    }

    /// The move table of part `part`: `table[value x moves + turn]` is the value after move
    /// `turn`.
    pub fn part_table(&self, part: usize) -> &[u32] {
        &self.parts[part].table
    }

    /// How many ranks there are (the table's entries).
    pub fn ranks(&self) -> u64 {
        self.size
    }

    /// The goal's rank.
    pub fn goal(&self) -> u64 {
        self.goal
    }

    /// How the rank is made, for people: `EDGES pieces 360 x EDGES twists 32 x ...`.
    pub fn describe(&self) -> String {
        self.parts
            .iter()
            .map(|p| {
                let what = match p.kind {
                    PartKind::Pieces(_) => "pieces",
                    PartKind::EvenPieces { .. } => "pieces (even)",
                    PartKind::Twists { .. } => "twists",
                };
                format!("{} {what} {}", self.orbit_names[p.orbit], p.values)
            })
            .collect::<Vec<_>>()
            .join(" x ")
    }

    /// Bytes of the parts' move tables.
    pub fn table_bytes(&self) -> u64 {
        self.parts.iter().map(|p| p.table.len() as u64 * 4).sum()
    }

    /// Whether the ranks are exactly the reachable states (else a superset whose other entries
    /// are never reached), where that is known.
    pub fn is_exact(&self) -> Option<bool> {
        self.reachable.map(|r| r == self.size)
    }

    /// The reachable states where the group's order gives them (no identical pieces).
    pub fn known_reachable(&self) -> Option<u64> {
        self.reachable
    }
}

/// What a space is made of before its move tables: the goal with the ignored twists
/// forgotten, the orbits' names, the search graph's moves (the generators' powers of cost 1:
/// in a quarter-turn-style metric a power that costs more is that many of them, so the
/// distances are the metric's) and the parts that rank the states.
struct Plan {
    goal: Pattern,
    orbit_names: Vec<String>,
    /// The generator move (an index into the generators' list) of each graph move.
    graph: Vec<usize>,
    graph_moves: Vec<GeneratorMove>,
    parts: Vec<Part>,
    /// Whether some set of slots holds pieces all alike.
    alike: bool,
}

impl Plan {
    fn new(
        definition: &KPuzzleDefinition,
        generators: &Generators,
        goal: &Pattern,
        ignored: &[usize],
    ) -> Result<Plan, DefinedSpaceError> {
        let mut goal = goal.clone();
        for &orbit in ignored {
            goal.ignore_orientation(orbit);
        }
        let orbit_names: Vec<String> = definition
            .orbits()
            .iter()
            .map(|o| o.name().to_string())
            .collect();
        let graph: Vec<usize> = (0..generators.len())
            .filter(|&i| generators.moves()[i].cost() == 1)
            .collect();
        let graph_moves: Vec<GeneratorMove> = graph
            .iter()
            .map(|&i| generators.moves()[i].clone())
            .collect();
        let (parts, alike) = plan_parts(&orbit_names, &graph_moves, &goal)?;
        Ok(Plan {
            goal,
            orbit_names,
            graph,
            graph_moves,
            parts,
            alike,
        })
    }
}

/// The parts that rank `goal`'s states under `moves` (their move tables not yet made), and
/// whether some set of slots holds pieces all alike (left out of the rank).
fn plan_parts(
    orbit_names: &[String],
    moves: &[GeneratorMove],
    goal: &Pattern,
) -> Result<(Vec<Part>, bool), DefinedSpaceError> {
    let mut parts = Vec::new();
    let mut alike = false;
    for (orbit, name) in orbit_names.iter().enumerate() {
        let pattern = &goal.orbits()[orbit];
        let slots = pattern.pieces().len();
        let modulus = pattern.effective_mod(0);
        if (0..slots).any(|s| pattern.effective_mod(s) != modulus) {
            return Err(DefinedSpaceError::MixedOrientationMod {
                orbit: name.clone(),
            });
        }
        let of = |m: &GeneratorMove| m.transformation().orbits()[orbit].clone();
        let transforms: Vec<OrbitTransformation> = moves.iter().map(of).collect();
        let twists = |i: usize| {
            modulus > 1
                && transforms
                    .iter()
                    .any(|t| t.orientation_delta()[i] % modulus != 0)
        };
        let mut loose = Vec::new();
        for component in components(slots, &transforms) {
            if component.len() == 1 {
                // A slot no move takes a piece out of: its twist alone can change.
                if twists(component[0]) {
                    loose.push(component[0]);
                }
                continue;
            }
            match pieces_part(orbit, name, &component, pattern, &transforms)? {
                Some(part) => parts.push(part),
                None => alike = true,
            }
            if modulus > 1 {
                parts.push(twists_part(orbit, component, pattern, &transforms, modulus));
            }
        }
        if !loose.is_empty() {
            parts.push(twists_part(orbit, loose, pattern, &transforms, modulus));
        }
    }
    Ok((parts, alike))
}

/// The slots of an orbit split into the sets the moves keep apart: two slots are in one set
/// where some move takes a piece from one to the other (the orbits of the group the moves
/// generate on the slots). Each set is ranked on its own: the Skewb's four corners that only
/// twist never change places with the four that move.
fn components(slots: usize, transforms: &[OrbitTransformation]) -> Vec<Vec<usize>> {
    let mut root: Vec<usize> = (0..slots).collect();
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    for t in transforms {
        for (i, &from) in t.permutation().iter().enumerate() {
            let (a, b) = (find(&mut root, i), find(&mut root, usize::from(from)));
            root[a.max(b)] = a.min(b);
        }
    }
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for i in 0..slots {
        let r = find(&mut root, i);
        match sets.iter_mut().find(|set| set[0] == r) {
            Some(set) => set.push(i),
            None => sets.push(vec![i]),
        }
    }
    sets
}

/// Whether every move permutes `slots` evenly.
fn all_even(slots: &[usize], transforms: &[OrbitTransformation]) -> bool {
    transforms.iter().all(|t| {
        let images: Vec<usize> = slots
            .iter()
            .map(|&s| {
                slots
                    .iter()
                    .position(|&x| x == usize::from(t.permutation()[s]))
                    .unwrap_or(0)
            })
            .collect();
        is_even(&images)
    })
}

/// Whether a permutation (given as images) is even, by its cycles.
fn is_even(images: &[usize]) -> bool {
    let mut seen = vec![false; images.len()];
    let mut transpositions = 0;
    for start in 0..images.len() {
        let mut i = start;
        let mut length = 0;
        while !seen[i] {
            seen[i] = true;
            i = images[i];
            length += 1;
        }
        transpositions += length.max(1) - 1;
    }
    transpositions % 2 == 0
}

/// The pieces part of one set of slots, or none where its pieces are all alike.
fn pieces_part(
    orbit: usize,
    name: &str,
    slots: &[usize],
    pattern: &crate::model::kpuzzle::PatternOrbit,
    transforms: &[OrbitTransformation],
) -> Result<Option<Part>, DefinedSpaceError> {
    let mut values: Vec<u16> = slots.iter().map(|&s| pattern.pieces()[s]).collect();
    values.sort_unstable();
    values.dedup();
    if values.len() < 2 {
        return Ok(None);
    }
    let classes: Vec<(u16, u8)> = values
        .iter()
        .enumerate()
        .map(|(class, &v)| (v, class as u8))
        .collect();
    let distinct = values.len() == slots.len();
    let kind = if distinct && slots.len() <= 32 && all_even(slots, transforms) {
        // The goal's own arrangement fixes which parity every reachable one has.
        let goal: Vec<usize> = slots
            .iter()
            .map(|&s| {
                values
                    .iter()
                    .position(|&v| v == pattern.pieces()[s])
                    .unwrap_or(0)
            })
            .collect();
        PartKind::EvenPieces {
            even: is_even(&goal),
        }
    } else {
        let counts = values
            .iter()
            .map(|v| slots.iter().filter(|&&s| pattern.pieces()[s] == *v).count() as u32)
            .collect();
        let set = Multiset::new(counts).ok_or_else(|| DefinedSpaceError::PartTooLarge {
            orbit: name.to_string(),
            part: "pieces",
            values: u128::MAX,
            entries: u128::MAX,
        })?;
        PartKind::Pieces(set)
    };
    let values = match &kind {
        PartKind::Pieces(set) => set.arrangements(),
        _ => crate::coord::arrangements(slots.len() as u32, slots.len() as u32 - 2).max(1),
    };
    Ok(Some(Part {
        orbit,
        slots: slots.to_vec(),
        kind,
        classes,
        values,
        table: Vec::new(),
    }))
}

/// The twists part of one set of slots; where every move keeps their sum, the last digit is
/// left to it.
fn twists_part(
    orbit: usize,
    slots: Vec<usize>,
    pattern: &crate::model::kpuzzle::PatternOrbit,
    transforms: &[OrbitTransformation],
    modulus: u8,
) -> Part {
    let m = u32::from(modulus);
    let keeps_sum = transforms.iter().all(|t| {
        slots
            .iter()
            .map(|&s| u32::from(t.orientation_delta()[s]))
            .sum::<u32>()
            % m
            == 0
    });
    let sum = keeps_sum.then(|| {
        let total: u32 = slots
            .iter()
            .map(|&s| u32::from(pattern.orientation()[s]))
            .sum();
        (total % m) as u8
    });
    let digits = slots.len() - usize::from(sum.is_some());
    let values = u128::from(modulus).pow(digits as u32);
    Part {
        orbit,
        slots,
        values: u64::try_from(values).unwrap_or(u64::MAX),
        kind: PartKind::Twists { modulus, sum },
        classes: Vec::new(),
        table: Vec::new(),
    }
}

impl Part {
    /// This part's value in `pattern`.
    fn rank_of(&self, pattern: &Pattern) -> u64 {
        let orbit = &pattern.orbits()[self.orbit];
        let contents: Vec<u8> = self
            .slots
            .iter()
            .map(|&s| match self.kind {
                PartKind::Twists { modulus, .. } => orbit.orientation()[s] % modulus,
                _ => self.class_of(orbit.pieces()[s]),
            })
            .collect();
        self.rank(&contents)
    }

    fn class_of(&self, value: u16) -> u8 {
        self.classes
            .iter()
            .find(|(v, _)| *v == value)
            .map_or(u8::MAX, |&(_, class)| class)
    }

    /// Where each ranked slot's content comes from under a move: `from[i]` is the index (in
    /// `slots`) of the slot whose content moves to slot `slots[i]`, with the twist it gains.
    fn sources(&self, moves: &[GeneratorMove], turn: usize) -> Vec<(usize, u8)> {
        let t = &moves[turn].transformation().orbits()[self.orbit];
        self.slots
            .iter()
            .map(|&slot| {
                let from = usize::from(t.permutation()[slot]);
                let index = self
                    .slots
                    .iter()
                    .position(|&s| s == from)
                    .expect("a move maps the ranked slots among themselves");
                (index, t.orientation_delta()[slot])
            })
            .collect()
    }

    /// The move table, every value in parallel.
    fn move_table(&self, graph: &[GeneratorMove]) -> Vec<u32> {
        use rayon::prelude::*;
        let moves = graph.len();
        let sources: Vec<Vec<(usize, u8)>> =
            (0..moves).map(|turn| self.sources(graph, turn)).collect();
        let n = self.slots.len();
        let mut table = vec![0u32; self.values as usize * moves];
        table.par_chunks_mut(moves).enumerate().for_each_init(
            || (vec![0u8; n], vec![0u8; n]),
            |(now, next), (value, row)| {
                self.unrank(value as u64, now);
                for (slot, from) in row.iter_mut().zip(&sources) {
                    for (i, &(source, twist)) in from.iter().enumerate() {
                        next[i] = match self.kind {
                            PartKind::Pieces(_) | PartKind::EvenPieces { .. } => now[source],
                            PartKind::Twists { modulus, .. } => {
                                ((u16::from(now[source]) + u16::from(twist)) % u16::from(modulus))
                                    as u8
                            }
                        };
                    }
                    *slot = self.rank(next) as u32;
                }
            },
        );
        table
    }

    /// The slot contents (classes or twists) of `value`, every slot filled.
    fn unrank(&self, value: u64, out: &mut [u8]) {
        match &self.kind {
            PartKind::Pieces(set) => set.unrank(value, out),
            PartKind::EvenPieces { even } => {
                let n = out.len();
                crate::coord::unrank_arrangement(value, n as u32, &mut out[..n - 2]);
                let mut missing = (0..n as u8).filter(|v| !out[..n - 2].contains(v));
                let (a, b) = (missing.next().unwrap_or(0), missing.next().unwrap_or(0));
                (out[n - 2], out[n - 1]) = (a, b);
                let images: Vec<usize> = out.iter().map(|&v| usize::from(v)).collect();
                if is_even(&images) != *even {
                    out.swap(n - 2, n - 1);
                }
            }
            PartKind::Twists { modulus, sum } => {
                let digits = out.len() - usize::from(sum.is_some());
                let mut rest = value;
                for d in out[..digits].iter_mut().rev() {
                    *d = (rest % u64::from(*modulus)) as u8;
                    rest /= u64::from(*modulus);
                }
                if let Some(sum) = sum {
                    let m = u32::from(*modulus);
                    let others: u32 = out[..digits].iter().map(|&d| u32::from(d)).sum();
                    out[digits] = ((u32::from(*sum) + m * 64 - others % (m * 64)) % m) as u8;
                }
            }
        }
    }

    /// The value of slot contents (classes or twists).
    fn rank(&self, contents: &[u8]) -> u64 {
        match &self.kind {
            PartKind::Pieces(set) => set.rank(contents),
            PartKind::EvenPieces { .. } => {
                let n = contents.len();
                crate::coord::rank_arrangement(&contents[..n - 2], n as u32)
            }
            PartKind::Twists { modulus, sum } => {
                let digits = contents.len() - usize::from(sum.is_some());
                contents[..digits]
                    .iter()
                    .fold(0u64, |r, &d| r * u64::from(*modulus) + u64::from(d))
            }
        }
    }
}

/// The number of reachable states, where each is one element of the group the moves generate
/// (every ranked piece distinct): the group's order as permutations of (slot, twist) points.
/// `None` where the points pass what [`group_order`] takes.
fn group_states(moves: &[GeneratorMove], parts: &[Part]) -> Option<u64> {
    // Points: (orbit, slot, twist) for the slots of a twists part, (orbit, slot, 0) for the
    // other slots of a pieces part.
    let mut points: Vec<(usize, usize, u8)> = Vec::new();
    for part in parts {
        if let PartKind::Twists { modulus, .. } = part.kind {
            for &slot in &part.slots {
                points.extend((0..modulus).map(|twist| (part.orbit, slot, twist)));
            }
        }
    }
    for part in parts {
        if !matches!(part.kind, PartKind::Twists { .. }) {
            for &slot in &part.slots {
                if !points.iter().any(|p| p.0 == part.orbit && p.1 == slot) {
                    points.push((part.orbit, slot, 0));
                }
            }
        }
    }
    if points.is_empty() || points.len() > 255 {
        return None;
    }
    let index_of = |key: (usize, usize, u8)| points.iter().position(|&p| p == key);
    let mut perms = Vec::new();
    for m in moves {
        let mut image = vec![0u8; points.len()];
        for &(orbit, slot, first) in &points {
            if first != 0 {
                continue; // one (orbit, slot) at a time, from its twist 0
            }
            let t = &m.transformation().orbits()[orbit];
            // The content of slot `from` moves to `slot`, gaining the slot's twist.
            let from = usize::from(t.permutation()[slot]);
            let modulus = points
                .iter()
                .filter(|p| p.0 == orbit && p.1 == slot)
                .count() as u16;
            for twist in 0..modulus as u8 {
                let source = index_of((orbit, from, twist))?;
                let target =
                    ((u16::from(twist) + u16::from(t.orientation_delta()[slot])) % modulus) as u8;
                image[source] = index_of((orbit, slot, target))? as u8;
            }
        }
        perms.push(Perm::new(image)?);
    }
    u64::try_from(group_order(&perms)).ok()
}

impl MoveSpace for DefinedSpace {
    fn move_count(&self) -> usize {
        self.moves
    }

    fn apply(&self, state: u64, turn: usize) -> u64 {
        let mut rest = state;
        let mut weight = 1u64;
        let mut out = 0u64;
        for part in self.parts.iter().rev() {
            let value = rest % part.values;
            rest /= part.values;
            let moved = u64::from(part.table[value as usize * self.moves + turn]);
            out += moved * weight;
            weight *= part.values;
        }
        out
    }
}

impl StateSpace for DefinedSpace {
    fn size(&self) -> u64 {
        self.size
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.goal]
    }

    fn reachable(&self) -> u64 {
        self.reachable.unwrap_or(self.size)
    }

    /// Only where nearly every rank is a reachable state: a backward pass scans every rank
    /// not yet reached, and in a superset those never reached stay so at every pass (the
    /// Skewb with its centres' twists ranks 29 G where 101 M are reachable: its last depths
    /// ran for minutes each backwards, seconds forwards).
    fn may_search_backward(&self) -> bool {
        self.nearly_all_reachable()
    }
}

impl RowSpace for DefinedSpace {
    type Step = usize;

    fn row_len(&self) -> u64 {
        self.parts.last().map_or(1, |p| p.values)
    }

    fn step(&self, row: u64, turn: usize) -> (u64, usize) {
        let len = self.row_len();
        (self.apply(row * len, turn) / len, turn)
    }

    fn position(&self, turn: usize, position: u32) -> u32 {
        let last = self.parts.last().expect("a row space has parts");
        last.table[position as usize * self.moves + turn]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::{Checkpoint, RunOptions, breadth_first_rows, breadth_first_rows_with};
    use crate::catalogue::published;
    use crate::model::kpuzzle::tests::toy;
    use crate::packing::Encoding;
    use indicatif::ProgressBar;

    fn toy_space(moves: &str, metric: Metric) -> DefinedSpace {
        let definition = toy();
        let generators = Generators::parse(&definition, moves, metric).unwrap();
        DefinedSpace::new(&definition, &generators, definition.default_pattern(), &[]).unwrap()
    }

    use crate::model::kpuzzle::Metric;

    /// The 2x2x2 written as a definition, under <U, R, F>: DBL never moves, so the ranks are
    /// the 7! x 3^6 positions exactly, and the distances are the published ones (both metrics),
    /// as the cube's own 2x2 space gives them.
    #[test]
    fn the_2x2_definition_gives_the_published_distances() {
        use crate::catalogue::{TableId, TableKind};
        use crate::model::cube::Metric as CubeMetric;
        let pocket =
            |metric| published::published_histogram(TableId::new(TableKind::Pocket, metric));
        for (metric, published) in [
            (Metric::Htm, pocket(CubeMetric::Htm).unwrap()),
            (Metric::Qtm, pocket(CubeMetric::Qtm).unwrap()),
        ] {
            let space = toy_space("U,R,F", metric);
            assert_eq!(space.size(), 3_674_160);
            assert_eq!(space.known_reachable(), Some(3_674_160));
            assert_eq!(space.is_exact(), Some(true));
            let outcome =
                breadth_first_rows(&space, Encoding::Byte, &ProgressBar::hidden()).unwrap();
            assert_eq!(outcome.histogram, published, "{metric:?}");
        }
    }

    /// Every move's table entry is the rank of the moved pattern, and a move then its inverse
    /// is the identity, on a sample of ranks.
    #[test]
    fn moves_agree_with_the_definitions_patterns() {
        let definition = toy();
        let generators = Generators::parse(&definition, "U,R,F", Metric::Htm).unwrap();
        let space = toy_space("U,R,F", Metric::Htm);
        let mut pattern = definition.default_pattern().clone();
        for step in 0..200usize {
            let turn = (step * 7 + step / 3) % space.move_count();
            let before = space.index(&pattern).unwrap();
            let generator = &generators.moves()[space.generator_of(turn)];
            pattern = pattern.apply(generator.transformation());
            let after = space.index(&pattern).unwrap();
            assert_eq!(space.apply(before, turn), after);
            assert_eq!(space.apply(after, space.inverse_of(turn)), before);
        }
    }

    /// A run stopped after a depth and started again from its checkpoint ends with the table
    /// and counts of a run never stopped.
    #[test]
    fn a_stopped_run_resumes_to_the_same_table() {
        let space = toy_space("U,R,F", Metric::Htm);
        let run = |checkpoint: &Checkpoint, deepest: usize, max_depth: Option<usize>| {
            let options = RunOptions {
                deepest,
                checkpoint: Some(checkpoint),
                max_depth,
            };
            breadth_first_rows_with(&space, Encoding::Byte, &ProgressBar::hidden(), &options)
        };
        let whole = breadth_first_rows(&space, Encoding::Byte, &ProgressBar::hidden()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let checkpoint = Checkpoint::new(dir.path().join("run.bfs"), 7);
        let stopped = run(&checkpoint, 10, Some(6)).unwrap();
        assert_eq!(stopped.histogram, whole.histogram[..7]);
        assert!(checkpoint.exists());
        let resumed = run(&checkpoint, 10, None).unwrap();
        assert_eq!(resumed.histogram, whole.histogram);
        assert_eq!(resumed.packed, whole.packed);
        assert_eq!(resumed.passes.len(), whole.passes.len());
        // The deepest states are at the last depth, and all of them are kept when few.
        let last = whole.histogram.len() - 1;
        assert_eq!(resumed.deepest.len() as u64, whole.histogram[last].min(10));
        for &state in &resumed.deepest {
            assert_eq!(usize::from(resumed.packed[state as usize]), last);
        }
        // A checkpoint of another space is refused, not resumed from.
        let other = Checkpoint::new(dir.path().join("run.bfs"), 8);
        let refused = run(&other, 0, None);
        assert!(matches!(refused, Err(crate::bfs::BfsError::Checkpoint(_))));
        // A bit flipped in the saved counts (not only the table) is found.
        let mut bytes = std::fs::read(dir.path().join("run.bfs")).unwrap();
        bytes[16 + 8 * 4 + 8 * 3] ^= 1;
        std::fs::write(dir.path().join("run.bfs"), bytes).unwrap();
        let damaged = run(&checkpoint, 0, None);
        assert!(matches!(damaged, Err(crate::bfs::BfsError::Checkpoint(_))));
    }
}
