//! Optimal solutions for any puzzle from its definition: IDA* over the largest of several
//! pattern databases, each the exact distances of one projection of the puzzle.
//!
//! A projection tells only some pieces apart (the others become alike) and may forget some
//! orbits' twists ([`Projection`]). Its states are a [`DefinedSpace`] over a relabelled goal,
//! filled whole by the breadth-first engine. Any move sequence that solves the puzzle solves
//! each projection, so a projection's distance is a lower bound on the puzzle's, and so is the
//! largest of them: the search never passes over a shorter solution.
//!
//! A table holds each state's distance mod 3 in 2 bits, four states a byte
//! ([`PROJECTION_ENCODING`]): the search moves by single steps whose inverses are steps too, so
//! a child's distance differs from its parent's by at most one, and the residue says which of
//! the three it is.
//! A node carries each projection's exact distance, found for the start by walking down the
//! table to the goal. Byte entries would hold a quarter of the states in the same memory; the
//! Master Tetraminx's 14-move position of the benchmark searches 408 thousand nodes over tables
//! of 690 million states (172 MB), and 41 million over the 385 million states that a byte a
//! state fitted in about as much memory.
//!
//! A node carries each projection's rank and moves it by the projection's move tables (one
//! look-up a part), so the search never touches a whole pattern until every bound reads 0;
//! then it applies the path to the start pattern by the definition's own transformations and
//! accepts it only if that pattern matches the goal. The moves searched are canonical
//! ([`MoveOrder`]): no two of one generator in a row where each power is a move of its own,
//! no move followed by its inverse, and of two generators that commute, one order only.

use crate::bfs::{BfsError, breadth_first_rows};
use crate::catalogue::puzzle::PROJECTION_ENCODING;
use crate::model::kpuzzle::{Generators, Pattern};
use crate::search::descent::exact_distance;
use crate::space::StateSpace;
use crate::space::defined::{DefinedSpace, DefinedSpaceError};
use crate::table::Table;
use indicatif::ProgressBar;
use std::time::{Duration, Instant};

/// A table entry that no state has.
const UNREACHED: u8 = 3;

/// A pattern database: the distances of a projection of the puzzle, mod 3.
pub struct Projection {
    space: DefinedSpace,
    /// Per orbit, per piece value of the puzzle: its value in the projection.
    relabel: Vec<Vec<u16>>,
    /// Two bits a rank: the distance mod 3, or [`UNREACHED`] for ranks no state has.
    distances: Distances,
    deepest: u8,
    name: String,
}

/// Where a projection's distances are: filled in memory, or mapped from a table file.
pub enum Distances {
    Built(Vec<u8>),
    Mapped(Table),
}

impl Distances {
    #[inline]
    fn bytes(&self) -> &[u8] {
        match self {
            Distances::Built(bytes) => bytes,
            Distances::Mapped(table) => table.payload(),
        }
    }
}

impl Projection {
    /// The projection over `space` (of the goal relabelled by `relabel`), its distances
    /// filled by the engine in memory.
    pub fn build(
        space: DefinedSpace,
        relabel: Vec<Vec<u16>>,
        name: String,
        progress: &ProgressBar,
    ) -> Result<Projection, BfsError> {
        let outcome = breadth_first_rows(&space, PROJECTION_ENCODING, progress)?;
        let deepest = outcome.histogram.len().saturating_sub(1) as u8;
        Ok(Projection {
            space,
            relabel,
            distances: Distances::Built(outcome.packed),
            deepest,
            name,
        })
    }

    /// The projection over `space` (of the goal relabelled by `relabel`) whose distances
    /// `table` holds in [`PROJECTION_ENCODING`] (as [`crate::catalogue::puzzle`] writes them).
    pub fn mapped(
        space: DefinedSpace,
        relabel: Vec<Vec<u16>>,
        table: Table,
        name: String,
    ) -> Projection {
        let deepest = table.header().histogram.len().saturating_sub(1) as u8;
        Projection {
            space,
            relabel,
            distances: Distances::Mapped(table),
            deepest,
            name,
        }
    }

    /// The table file the distances are mapped from, if they are.
    pub fn file(&self) -> Option<&std::path::Path> {
        match &self.distances {
            Distances::Built(_) => None,
            Distances::Mapped(table) => Some(table.path()),
        }
    }

    /// The rank of what this projection sees of `pattern`.
    pub fn rank_of(&self, pattern: &Pattern) -> Result<u64, DefinedSpaceError> {
        self.space.index(&pattern.relabelled(&self.relabel))
    }

    /// The entry of rank `rank`: its distance mod 3, or [`UNREACHED`].
    #[inline]
    fn residue(&self, rank: u64) -> u8 {
        crate::packing::entry(PROJECTION_ENCODING, self.distances.bytes(), rank)
    }

    /// Asks for the byte [`Projection::residue`] reads for `rank`.
    #[inline]
    fn prefetch(&self, rank: u64) {
        crate::support::prefetch(self.distances.bytes(), (rank / 4) as usize);
    }

    /// The exact distance of rank `rank`, or `None` where no state has it: the table walked
    /// down to the goal ([`exact_distance`]).
    pub fn distance(&self, rank: u64) -> Option<u8> {
        if self.residue(rank) == UNREACHED {
            return None;
        }
        let bytes = self.distances.bytes();
        exact_distance(
            &self.space,
            PROJECTION_ENCODING,
            bytes,
            rank,
            self.space.goal(),
        )
    }

    /// What the projection keeps, for people.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many states the table holds.
    pub fn states(&self) -> u64 {
        self.space.size()
    }

    /// The bytes its table takes.
    pub fn table_bytes(&self) -> u64 {
        self.distances.bytes().len() as u64
    }

    /// The deepest distance in the table.
    pub fn deepest(&self) -> u8 {
        self.deepest
    }

    /// The projection's space.
    pub fn space(&self) -> &DefinedSpace {
        &self.space
    }
}

/// Which moves may follow which: the canonical sequences the search walks.
#[derive(Clone, Debug)]
pub struct MoveOrder {
    /// Per move (or none, the last entry): the moves that may follow, as a bit mask.
    follows: Vec<u128>,
}

impl MoveOrder {
    /// The order for the search moves of `space` over `generators`: where every power of a
    /// generator is a move, no two moves of one generator in a row; where only the powers
    /// of cost one are (a metric that counts amounts), a run of one generator's moves stays
    /// in one direction and shorter than half its order; never a move then its inverse; and
    /// of two generators that commute, the lower-numbered first.
    pub fn new(space: &DefinedSpace, generators: &Generators) -> MoveOrder {
        let n = space.moves();
        assert!(n <= 128, "at most 128 search moves");
        let class = |turn: usize| generators.moves()[space.generator_of(turn)].class();
        let transformation =
            |turn: usize| generators.moves()[space.generator_of(turn)].transformation();
        let commute = |a: usize, b: usize| {
            let (ta, tb) = (transformation(a), transformation(b));
            ta.then(tb) == tb.then(ta)
        };
        let every_power = (0..n).all(|turn| {
            generators
                .moves()
                .iter()
                .filter(|m| m.class() == class(turn))
                .all(|m| m.cost() == 1)
        });
        let mut follows = vec![0u128; n + 1];
        follows[n] = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        for (a, mask) in follows.iter_mut().enumerate().take(n) {
            for b in 0..n {
                let allowed = if class(a) == class(b) {
                    // One generator's run: in the every-power graph never; else one
                    // direction, and (checked by the walk's run length) short.
                    !every_power && a == b && space.inverse_of(a) != b
                } else {
                    !(class(b) < class(a) && commute(a, b))
                };
                if allowed {
                    *mask |= 1 << b;
                }
            }
        }
        MoveOrder { follows }
    }

    /// The moves that may follow `last` (`None`: the first move).
    #[inline]
    pub fn after(&self, last: Option<usize>) -> u128 {
        self.follows[last.unwrap_or(self.follows.len() - 1)]
    }
}

/// An optimal solver for one puzzle, goal and move set.
pub struct PuzzleSolver {
    projections: Vec<Projection>,
    order: MoveOrder,
    /// Per search move: the generator move it is.
    generator: Vec<usize>,
    /// Per search move: the longest run of it that the search walks (half its order).
    longest_run: Vec<u32>,
    goal: Pattern,
    generators: Generators,
}

/// Limits on one search.
#[derive(Clone, Debug, Default)]
pub struct PuzzleLimits {
    /// Every optimal solution, not only the first.
    pub all: bool,
    /// Give up rather than search beyond this many moves.
    pub max_length: Option<u32>,
    /// Give up after this long.
    pub timeout: Option<Duration>,
}

/// What one search found.
#[derive(Clone, Debug)]
pub struct PuzzleSearch {
    /// Solutions as generator moves (indices into [`Generators::moves`]), runs of one
    /// generator merged into its power; each checked against the definition.
    pub solutions: Vec<Vec<usize>>,
    /// The solutions' cost in the metric.
    pub length: Option<u32>,
    /// Whether the solutions are proven optimal (else a limit stopped the search).
    pub optimal: bool,
    /// Whether the time limit stopped the search (else, where nothing is proven, the length
    /// limit did).
    pub timed_out: bool,
    pub nodes: u64,
    pub seconds: f64,
}

/// Why a position cannot be solved.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleSolveError {
    #[error(transparent)]
    Space(#[from] DefinedSpaceError),
    #[error(
        "no sequence of these moves solves this position (a projection never reaches it): give moves that generate it, or a position they reach"
    )]
    Unsolvable,
}

impl PuzzleSolver {
    /// A solver over `projections` (every one built with `generators` and `goal`).
    pub fn new(projections: Vec<Projection>, generators: Generators, goal: Pattern) -> Self {
        let space = projections[0].space();
        let order = MoveOrder::new(space, &generators);
        let generator: Vec<usize> = (0..space.moves()).map(|t| space.generator_of(t)).collect();
        let longest_run = generator
            .iter()
            .map(|&g| {
                let order = generators.moves()[g].transformation().order().unwrap_or(2);
                (order / 2).clamp(1, 64) as u32
            })
            .collect();
        PuzzleSolver {
            projections,
            order,
            generator,
            longest_run,
            goal,
            generators,
        }
    }

    pub fn projections(&self) -> &[Projection] {
        &self.projections
    }

    /// The pattern the solutions reach.
    pub fn goal(&self) -> &Pattern {
        &self.goal
    }

    pub fn generators(&self) -> &Generators {
        &self.generators
    }

    /// Optimal solutions of `start`, by IDA* (see the module's documentation).
    pub fn solve(
        &self,
        start: &Pattern,
        limits: &PuzzleLimits,
    ) -> Result<PuzzleSearch, PuzzleSolveError> {
        let began = Instant::now();
        let mut walk = Walk::new(self, start, limits, began)?;
        let first = walk.root_bound();
        let mut bound = u32::from(first);
        loop {
            if limits.max_length.is_some_and(|max| bound > max) {
                break;
            }
            walk.dig(0, bound, None, 0, first);
            if !walk.found.is_empty() || walk.stopped {
                break;
            }
            bound += 1;
        }
        let optimal = !walk.found.is_empty() && !walk.timed_out;
        let solutions: Vec<Vec<usize>> = walk.found.iter().map(|p| self.merged(p)).collect();
        Ok(PuzzleSearch {
            length: (!walk.found.is_empty()).then_some(bound),
            solutions,
            optimal,
            timed_out: walk.timed_out,
            nodes: walk.nodes,
            seconds: began.elapsed().as_secs_f64(),
        })
    }

    /// A path of search moves as generator moves, each run of one generator's move merged
    /// into the power it makes.
    fn merged(&self, path: &[usize]) -> Vec<usize> {
        let moves = self.generators.moves();
        let mut out: Vec<usize> = Vec::new();
        let mut i = 0;
        while i < path.len() {
            let mut j = i + 1;
            while j < path.len() && path[j] == path[i] {
                j += 1;
            }
            let single = self.generator[path[i]];
            let power = moves[single].transformation().power((j - i) as i64);
            let named = (0..moves.len())
                .find(|&m| {
                    moves[m].class() == moves[single].class() && *moves[m].transformation() == power
                })
                .unwrap_or(single);
            if named == single && j - i > 1 {
                out.extend(std::iter::repeat_n(single, j - i));
            } else {
                out.push(named);
            }
            i = j;
        }
        out
    }

    /// Whether `moves` (generator moves) take `start` to the goal, by the definition's
    /// transformations alone.
    pub fn solves(&self, start: &Pattern, moves: &[usize]) -> bool {
        let end = moves.iter().fold(start.clone(), |p, &m| {
            p.apply(self.generators.moves()[m].transformation())
        });
        end.matches(&self.goal)
    }

    /// The cost of generator moves in the metric.
    pub fn cost(&self, moves: &[usize]) -> u32 {
        moves
            .iter()
            .map(|&m| self.generators.moves()[m].cost())
            .sum()
    }
}

/// Tables of at most this many bytes stay in the processor's caches while the walk reads them.
const CACHED_TABLE: usize = 1 << 21;

/// One IDA* search. A node is the values of every projection's parts, side by side; a
/// child's are one move-table look-up a part, and a projection's rank is their mixed-radix
/// number, so the walk divides nothing.
struct Walk<'a> {
    solver: &'a PuzzleSolver,
    start: &'a Pattern,
    limits: &'a PuzzleLimits,
    began: Instant,
    /// Per part (all projections' in order): its move table and its number of values.
    tables: Vec<&'a [u32]>,
    sizes: Vec<u64>,
    /// Per projection: its first part and its number of parts.
    spans: Vec<(usize, usize)>,
    /// The projections whose tables stay in the processor's caches (read while the children
    /// are listed, cutting a child before any large table is asked for it), and the others
    /// (asked for while listing, read after).
    cached: Vec<usize>,
    large: Vec<usize>,
    moves: usize,
    /// The node at each depth: `nodes_at[depth x parts..]`.
    nodes_at: Vec<u32>,
    /// Each projection's exact distance of the node at each depth: `distances_at[depth x
    /// projections..]`.
    distances_at: Vec<u8>,
    /// The children of the node at each depth, as the walk lists them before reading any:
    /// their moves, parts' values and ranks.
    child_turns: Vec<usize>,
    child_values: Vec<u32>,
    child_ranks: Vec<u64>,
    /// Each projection's exact distance, per child (the cached ones' when listed).
    child_distances: Vec<u8>,
    /// The largest distance of the cached tables, per child.
    child_bounds: Vec<u8>,
    path: Vec<usize>,
    found: Vec<Vec<usize>>,
    nodes: u64,
    /// Whether to walk no further: a solution found (where one is enough) or the time up.
    stopped: bool,
    /// Whether the time ran out.
    timed_out: bool,
}

impl<'a> Walk<'a> {
    fn new(
        solver: &'a PuzzleSolver,
        start: &'a Pattern,
        limits: &'a PuzzleLimits,
        began: Instant,
    ) -> Result<Walk<'a>, PuzzleSolveError> {
        let mut tables = Vec::new();
        let mut sizes = Vec::new();
        let mut spans = Vec::new();
        let mut root = Vec::new();
        let mut root_distances = Vec::new();
        for p in &solver.projections {
            let space = &p.space;
            spans.push((tables.len(), space.part_count()));
            let mut values = vec![0u32; space.part_count()];
            let rank = p.rank_of(start)?;
            space.split_rank(rank, &mut values);
            root.extend_from_slice(&values);
            root_distances.push(p.distance(rank).ok_or(PuzzleSolveError::Unsolvable)?);
            for part in 0..space.part_count() {
                tables.push(space.part_table(part));
                sizes.push(space.part_values(part));
            }
        }
        Ok(Walk {
            solver,
            start,
            limits,
            began,
            tables,
            sizes,
            spans,
            cached: (0..solver.projections.len())
                .filter(|&p| solver.projections[p].table_bytes() as usize <= CACHED_TABLE)
                .collect(),
            large: (0..solver.projections.len())
                .filter(|&p| solver.projections[p].table_bytes() as usize > CACHED_TABLE)
                .collect(),
            moves: solver.generator.len(),
            nodes_at: root,
            distances_at: root_distances,
            child_turns: Vec::new(),
            child_values: Vec::new(),
            child_ranks: Vec::new(),
            child_distances: Vec::new(),
            child_bounds: Vec::new(),
            path: Vec::new(),
            found: Vec::new(),
            nodes: 0,
            stopped: false,
            timed_out: false,
        })
    }

    /// Projection `p`'s rank of the part values `values` (every projection's).
    #[inline(always)]
    fn rank(&self, p: usize, values: &[u32]) -> u64 {
        let (first, count) = self.spans[p];
        (first..first + count).fold(0u64, |rank, k| rank * self.sizes[k] + u64::from(values[k]))
    }

    /// The root's bound: the largest of its projections' distances.
    fn root_bound(&self) -> u8 {
        self.distances_at.iter().copied().max().unwrap_or(0)
    }

    /// Searches below the node at `depth` (bound `h`, within `bound` already) for solutions
    /// of `bound` moves in all; `run` is how many times the last move repeats.
    fn dig(&mut self, depth: u32, bound: u32, last: Option<usize>, run: u32, h: u8) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1 << 16)
            && self
                .limits
                .timeout
                .is_some_and(|t| self.began.elapsed() > t)
        {
            self.stopped = true;
            self.timed_out = true;
        }
        if self.stopped {
            return;
        }
        let solver = self.solver;
        if depth == bound {
            let moves: Vec<usize> = self.path.iter().map(|&t| solver.generator[t]).collect();
            if h == 0 && solver.solves(self.start, &moves) {
                self.found.push(self.path.clone());
                if !self.limits.all {
                    self.stopped = true;
                }
            }
            return;
        }
        let (parts, count) = (self.tables.len(), solver.projections.len());
        let d = depth as usize;
        let (moves, node) = (self.moves, d * parts);
        let kids = d * moves;
        let needed = (d + 1) * moves;
        if self.child_turns.len() < needed {
            self.child_turns.resize(needed, 0);
            self.child_values.resize(needed * parts, 0);
            self.child_ranks.resize(needed * count, 0);
            self.child_distances.resize(needed * count, 0);
            self.child_bounds.resize(needed, 0);
        }
        let here = d * count;
        // Stage 1: list the children; read their cached tables' entries, and ask for the
        // large tables' entries of those these let through.
        let mut listed = 0;
        let mut allowed = solver.order.after(last);
        'children: while allowed != 0 {
            let turn = allowed.trailing_zeros() as usize;
            allowed &= allowed - 1;
            let next_run = if Some(turn) == last { run + 1 } else { 1 };
            if next_run > solver.longest_run[turn] {
                continue;
            }
            let at = kids + listed;
            for k in 0..parts {
                let value = self.nodes_at[node + k] as usize;
                self.child_values[at * parts + k] = self.tables[k][value * moves + turn];
            }
            let values = &self.child_values[at * parts..(at + 1) * parts];
            let mut bound_here = 0u8;
            for &p in &self.cached {
                let residue = solver.projections[p].residue(self.rank(p, values));
                let Some(distance) = next_distance(self.distances_at[here + p], residue) else {
                    continue 'children;
                };
                if depth + 1 + u32::from(distance) > bound {
                    continue 'children;
                }
                self.child_distances[at * count + p] = distance;
                bound_here = bound_here.max(distance);
            }
            for &p in &self.large {
                let rank = self.rank(p, values);
                solver.projections[p].prefetch(rank);
                self.child_ranks[at * count + p] = rank;
            }
            self.child_turns[at] = turn;
            self.child_bounds[at] = bound_here;
            listed += 1;
        }
        // Stage 2: read the large tables' entries and walk down the children they let through.
        for c in 0..listed {
            let at = kids + c;
            let mut bound_here = self.child_bounds[at];
            let mut cut = false;
            for &p in &self.large {
                let residue = solver.projections[p].residue(self.child_ranks[at * count + p]);
                match next_distance(self.distances_at[here + p], residue) {
                    Some(distance) if depth + 1 + u32::from(distance) <= bound => {
                        self.child_distances[at * count + p] = distance;
                        bound_here = bound_here.max(distance);
                    }
                    _ => {
                        cut = true;
                        break;
                    }
                }
            }
            if cut {
                continue;
            }
            let turn = self.child_turns[at];
            let next_run = if Some(turn) == last { run + 1 } else { 1 };
            self.nodes_at.truncate(node + parts);
            let start = at * parts;
            for k in 0..parts {
                let value = self.child_values[start + k];
                self.nodes_at.push(value);
            }
            self.distances_at.truncate(here + count);
            for p in 0..count {
                let distance = self.child_distances[at * count + p];
                self.distances_at.push(distance);
            }
            self.path.push(turn);
            self.dig(depth + 1, bound, Some(turn), next_run, bound_here);
            self.path.pop();
            if self.stopped {
                return;
            }
        }
    }
}

/// The distance of a neighbour of a state at `parent` whose entry is `residue` (neighbours
/// differ by at most one, so the residue says which), or `None` where no state has the entry.
#[inline(always)]
fn next_distance(parent: u8, residue: u8) -> Option<u8> {
    if residue == UNREACHED {
        return None;
    }
    // The residue less the parent's, mod 3: the same, one farther, one closer.
    match (residue + 3 - parent % 3) % 3 {
        0 => Some(parent),
        1 => Some(parent + 1),
        _ => Some(parent.saturating_sub(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::breadth_first_rows;
    use crate::model::kpuzzle::Metric;
    use crate::model::kpuzzle::tests::toy;
    use crate::packing::Encoding;
    use crate::space::MoveSpace;

    /// The projection of `definition`'s solved pattern relabelled by `relabel`, the twists of
    /// `ignored` forgotten, filled in memory.
    fn projection(
        definition: &crate::model::kpuzzle::KPuzzleDefinition,
        generators: &Generators,
        relabel: Vec<Vec<u16>>,
        ignored: &[usize],
    ) -> Projection {
        let goal = definition.default_pattern().relabelled(&relabel);
        let space = DefinedSpace::new(definition, generators, &goal, ignored).unwrap();
        Projection::build(space, relabel, "projection".into(), &ProgressBar::hidden()).unwrap()
    }

    /// The 2x2x2 definition's pieces and twists apart (neither table alone is the whole
    /// puzzle), in both metrics: each solution solves its position by the definition's own
    /// transformations, and its length is the position's distance in the whole space's table
    /// (the engine's, over every position), for every position of a random sample.
    #[test]
    fn lengths_equal_the_whole_spaces_distances() {
        use rand::{RngExt, SeedableRng};
        let definition = toy();
        let goal = definition.default_pattern().clone();
        for metric in [Metric::Htm, Metric::Qtm] {
            let generators = Generators::parse(&definition, "U,R,F", metric).unwrap();
            let whole = DefinedSpace::new(&definition, &generators, &goal, &[]).unwrap();
            let exact = breadth_first_rows(&whole, Encoding::Byte, &ProgressBar::hidden()).unwrap();
            let values: Vec<u16> = goal.orbits()[0].pieces().to_vec();
            let all_blank = vec![u16::MAX; values.len()];
            let pieces = projection(
                &definition,
                &generators,
                vec![(0..values.len() as u16).collect()],
                &[0],
            );
            let twists = projection(&definition, &generators, vec![all_blank], &[]);
            assert!(pieces.states() < whole.size() && twists.states() < whole.size());
            let solver = PuzzleSolver::new(vec![pieces, twists], generators.clone(), goal.clone());
            let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
            let mut lengths = std::collections::BTreeSet::new();
            for _ in 0..40 {
                let start = (0..200).fold(goal.clone(), |p, _| {
                    let m = &generators.moves()[rng.random_range(0..generators.len())];
                    p.apply(m.transformation())
                });
                let search = solver.solve(&start, &PuzzleLimits::default()).unwrap();
                let distance = exact.packed[whole.index(&start).unwrap() as usize];
                assert!(search.optimal);
                assert_eq!(search.length, Some(u32::from(distance)), "{metric:?}");
                let solution = &search.solutions[0];
                assert!(solver.solves(&start, solution));
                assert_eq!(solver.cost(solution), u32::from(distance));
                lengths.insert(distance);
            }
            assert!(lengths.len() >= 3, "{lengths:?}");
        }
    }

    /// Every optimal solution, on request: each distinct, each solving the position in the
    /// optimal length, the length the whole puzzle's table gives, and as many as the table's
    /// shortest paths.
    #[test]
    fn all_optimal_solutions_are_distinct_and_solve() {
        let definition = toy();
        let goal = definition.default_pattern().clone();
        let generators = Generators::parse(&definition, "U,R,F", Metric::Htm).unwrap();
        let whole = projection(&definition, &generators, vec![Vec::new()], &[]);
        let solver = PuzzleSolver::new(vec![whole], generators.clone(), goal.clone());
        let start = goal.apply(&definition.transformation_of("R U2 F' R2 U").unwrap());
        let limits = PuzzleLimits {
            all: true,
            ..PuzzleLimits::default()
        };
        let whole = &solver.projections()[0];
        let distance = u32::from(whole.distance(whole.rank_of(&start).unwrap()).unwrap());
        let search = solver.solve(&start, &limits).unwrap();
        assert!(distance >= 4);
        assert_eq!(search.length, Some(distance));
        assert!(search.solutions.len() >= 2, "{:?}", search.solutions);
        // No two of U, R and F commute, so every shortest path is canonical: as many
        // solutions as the table has paths down to the goal.
        fn paths(whole: &Projection, rank: u64) -> u64 {
            let d = whole.distance(rank).unwrap();
            if d == 0 {
                return 1;
            }
            (0..whole.space().moves())
                .map(|turn| whole.space().apply(rank, turn))
                .filter(|&next| whole.distance(next) == Some(d - 1))
                .map(|next| paths(whole, next))
                .sum()
        }
        assert_eq!(
            search.solutions.len() as u64,
            paths(whole, whole.rank_of(&start).unwrap())
        );
        let mut seen = std::collections::HashSet::new();
        for solution in &search.solutions {
            assert!(solver.solves(&start, solution));
            assert_eq!(solver.cost(solution), distance);
            assert!(seen.insert(solution.clone()));
        }
    }

    /// A projection's table holds distances mod 3: walked down, every state's distance is the
    /// one a byte a state holds (the engine's exact fill), in both metrics, and a neighbour's
    /// distance follows from its parent's and its residue.
    #[test]
    fn residues_give_the_exact_distances() {
        let definition = toy();
        let goal = definition.default_pattern().clone();
        for metric in [Metric::Htm, Metric::Qtm] {
            let generators = Generators::parse(&definition, "U,R", metric).unwrap();
            let space = DefinedSpace::new(&definition, &generators, &goal, &[]).unwrap();
            let exact = breadth_first_rows(&space, Encoding::Byte, &ProgressBar::hidden()).unwrap();
            let whole = projection(&definition, &generators, vec![Vec::new()], &[]);
            assert_eq!(whole.table_bytes(), whole.states().div_ceil(4));
            let mut reached = 0;
            for rank in 0..space.size() {
                let byte = exact.packed[rank as usize];
                let distance = whole.distance(rank);
                if byte == crate::bfs::UNREACHED_BYTE {
                    assert_eq!(distance, None);
                    continue;
                }
                reached += 1;
                assert_eq!(distance, Some(byte), "{metric:?} rank {rank}");
                for turn in 0..space.moves() {
                    let next = space.apply(rank, turn);
                    assert_eq!(
                        next_distance(byte, whole.residue(next)),
                        Some(exact.packed[next as usize])
                    );
                }
            }
            assert_eq!(reached, 29_160);
        }
    }
}
