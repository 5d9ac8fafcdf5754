//! The depth-first search of a few subtrees within an IDA* iteration, walked together a batch
//! of nodes at a time.
//!
//! The latency of the table reads bounds the node rate. A node alone has too few reads to hide
//! it: its children's entries, then its kept children's inverses' entries, two rounds of
//! requests that each wait on memory, with about eleven requests in the first and two or three
//! in the second. So the walk expands up to [`BATCH`] nodes of one depth together, in rounds
//! over the whole batch. Where a face's two quarter turns share their children's inverse
//! (`h48`, see [`rule_out_by_pairs`]), the first round locates that inverse for each face and
//! prefetches its entry, and reads it: it may rule out the quarter turns, the face or the node
//! before any child is made. Then: generate each node's child by the first turn of each face
//! and prefetch its entry; read those entries and generate the other turns of the faces they
//! leave possible (an entry may rule out its child's whole face, see [`Rule`]), and prefetch
//! theirs; read the entries, keep the children within the bound, locate their inverses and
//! prefetch those (unless the first round read them); read the inverses' entries and list the
//! children that pass at the next depth. Where the budget is too large for any entry to rule
//! out a face, the two rounds of direct lookups are one. Each round's requests are made back
//! to back, hundreds of them (see [`prefetch_all`]), so that their misses overlap and a round waits
//! on memory about once.
//!
//! Looking a face's first turn up first spares a quarter of the children and of the table
//! reads (position 10 of benches/peers.txt: 28.9 M children to 21.5 M), for the cost of one
//! more round; the entries of a node's children are gathered into bit masks without a branch
//! a child (see [`Verdicts`]), as whether a child is kept follows no pattern a predictor could
//! learn (reports/performance-log.md).
//!
//! The children listed at the next depth are walked a batch at a time before the next batch of
//! this depth: depth first over batches. A batch lists its children in canonical order (node
//! by node, each node's by turn), and each batch's subtrees are walked before the next batch's,
//! so the leaves are reached in canonical order and the first solution found is the one a walk
//! of one node at a time finds first. The bounds' decisions are the same, and so are the nodes
//! of a complete iteration; an iteration that stops at a solution has also expanded the rest of
//! each batch on the solution's path. A bound that rules out its child's face rules out the
//! turns of the face listed before it too, whichever round made them.
//! A node's path is not kept as it is walked: each node records its parent's place in the depth
//! above, and the paths of solutions and prefixes are read back through those.

use super::canonical::Canonical;
use super::heuristic::Heuristic;
use super::symmetry::{DepthTies, PositionSymmetry};
use crate::model::cube::{CubePair, Move};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// Most nodes of one depth expanded together. Their children's requests (about eleven a node)
/// are made in one round, so the first line of a round has arrived by the time the last is
/// prefetched; 32 and 128 measure the same as 64 (reports/performance-log.md, "The walk a batch at
/// a time").
const BATCH: usize = 64;

/// The faces of the cube.
const FACES: usize = 6;

/// Every face, as a bit mask over face indices.
const ALL_FACES: u32 = (1 << FACES) - 1;

/// Nodes between two looks at the clock and at the other threads.
const CHECK_INTERVAL: u64 = 1 << 16;

/// A generated child: the turn that reaches it and its coordinates, whose table entries are
/// located (and prefetched by [`prefetch_all`] with the rest of its batch's).
#[derive(Clone, Copy, Default)]
pub struct Child<C> {
    turn: u8,
    coords: C,
}

/// A node that the direct lookup keeps: what expanding it needs.
///
/// A node may be turned around (see [`Heuristic::turn_around`]): its coordinates, cubies and
/// next moves are then those of the inverse position, and the moves that follow it extend the
/// solution at its other end.
#[derive(Clone, Copy, Default)]
pub struct Node<C, D> {
    turn: u8,
    /// Which of the walk's roots (see [`Walk::search`]) the node lies below.
    root: u16,
    /// The end of the solution `turn` extended: true for the far end (the solution ends with
    /// the inverses of those turns, last first).
    end: bool,
    /// Whether the node has been turned around an odd number of times: its children extend
    /// the far end.
    flipped: bool,
    coords: C,
    /// Its cubies and its inverse's, where the search tracks them (see [`Shared::cubies`]).
    cubes: CubePair,
    /// The canonical history of the end its children extend, and of the other end.
    history: usize,
    other_history: usize,
    /// The moves that may follow it.
    allowed: u32,
    /// The moves that may begin the other end: its canonical moves, narrowed by every tight
    /// bound met since that end was last extended (see [`narrow_other_end`]).
    other_allowed: u32,
    /// What its dual lookup hands down.
    dual: D,
}

/// The bit of a path entry that marks a turn of the far end (see [`Node::end`]).
pub const FAR_END: u8 = 0x80;

type ChildOf<H> = Child<<H as Heuristic>::Coords>;
pub type NodeOf<H> = Node<<H as Heuristic>::Coords, <H as Heuristic>::Dual>;

impl<C: Copy, D: Copy> Node<C, D> {
    /// The canonical history of the end its children extend.
    pub fn history(&self) -> usize {
        self.history
    }

    /// How many moves may follow the node.
    pub fn branching(&self) -> u32 {
        self.allowed.count_ones()
    }

    /// The root of a search, with its coordinates and dual values.
    pub fn root(coords: C, cubes: CubePair, allowed: u32, dual: D) -> Node<C, D> {
        Node {
            turn: 0,
            root: 0,
            end: false,
            flipped: false,
            coords,
            cubes,
            history: Canonical::ROOT,
            other_history: Canonical::ROOT,
            allowed,
            other_allowed: allowed,
            dual,
        }
    }
}

/// The nodes of one depth that the batch of the depth above being expanded entered, in
/// canonical order.
struct Frame<H: Heuristic> {
    nodes: Vec<NodeOf<H>>,
    /// Each node's parent: its index in the depth above's `nodes`.
    parents: Vec<u32>,
    /// For a cyclic position, each node's ties (see [`Walk::judge_batch`]).
    ties: DepthTies,
}

/// The working storage of one batch's expansion, reused by every batch.
struct Scratch<H: Heuristic> {
    /// The children of the batch's nodes, node by node; node `i`'s end at `ends[i]`.
    children: Vec<ChildOf<H>>,
    ends: Vec<u32>,
    /// Whether each node's last run lets a turn on another axis follow (see
    /// [`Walk::judge_batch`]).
    other_axes_lead: Vec<bool>,
    /// The moves of the path being judged.
    path: Vec<Move>,
    /// The inverse positions' coordinates of the children the direct lookup listed, for the
    /// dual lookup.
    inverses: Vec<H::Inverse>,
    /// Where a face's quarter turns share their children's inverse (see
    /// [`rule_out_by_pairs`]): that inverse's coordinates, `[node * FACES + face]`, and the
    /// turns each node's were located from (its first quarter turn of each face).
    pairs: Vec<H::Inverse>,
    pair_turns: Vec<u32>,
    /// The moves each node's children may be made by.
    allowed: Vec<u32>,
    /// The moves each node's children in `children` were made by: the first turn of each
    /// face where an entry can rule out a whole face, else all of `allowed`.
    masks: Vec<u32>,
    /// Where an entry can rule out a whole face: the verdicts of each node's first turns, and
    /// the children made once they were known (see [`make_the_rest`]), node by node, by the
    /// moves in `late_masks`; node `i`'s end at `late_ends[i]`.
    verdicts: Vec<Verdicts>,
    late: Vec<ChildOf<H>>,
    late_ends: Vec<u32>,
    late_masks: Vec<u32>,
}

/// A walk's working storage, one frame per depth and one batch's scratch, made once per thread
/// and handed from subtree to subtree, so that a walk allocates only while its lists grow.
pub struct Frames<H: Heuristic> {
    depths: Vec<Frame<H>>,
    scratch: Scratch<H>,
}

impl<H: Heuristic> Frames<H> {
    /// Storage for walks of depths `0..depths`.
    pub fn new(depths: usize) -> Frames<H> {
        Frames {
            depths: (0..depths)
                .map(|_| Frame {
                    nodes: Vec::new(),
                    parents: Vec::new(),
                    ties: DepthTies::default(),
                })
                .collect(),
            scratch: Scratch {
                children: Vec::new(),
                ends: Vec::new(),
                other_axes_lead: Vec::new(),
                path: Vec::new(),
                inverses: Vec::new(),
                pairs: Vec::new(),
                pair_turns: Vec::new(),
                allowed: Vec::new(),
                masks: Vec::new(),
                verdicts: Vec::new(),
                late: Vec::new(),
                late_ends: Vec::new(),
                late_masks: Vec::new(),
            },
        }
    }
}

impl<H: Heuristic> Default for Frames<H> {
    fn default() -> Self {
        Frames::new(0)
    }
}

/// Shared by all subtrees of one iteration.
pub struct Shared {
    pub bound: u8,
    /// Find every solution, not just one.
    pub all: bool,
    /// Stop at the first solution in canonical order (the lowest-numbered subtree that has
    /// one) rather than at the first any thread finds.
    pub deterministic: bool,
    pub dual: bool,
    /// Whether kept nodes may be turned around (with the dual lookup, for one solution).
    pub turn_around: bool,
    /// Whether prefixes are extended at the near end only, so that a prefix is the start of
    /// every solution below it (what the position's symmetry judges prefixes by).
    pub forward_prefixes: bool,
    /// Whether nodes carry their cubie state: for the dual lookup, and to recognise the goal
    /// when the coordinates do not determine the position.
    pub cubies: bool,
    /// The symmetries of a cyclic position (see [`PositionSymmetry::is_cyclic`]), whose paths
    /// are judged at every complete run; `None` for every other position. Such iterations
    /// turn no node around (`turn_around` is false), so that paths are solutions' beginnings.
    pub shifts: Option<PositionSymmetry>,
    /// Lowest subtree number that found a solution.
    pub first_found: AtomicUsize,
    pub aborted: AtomicBool,
    pub deadline: Option<Instant>,
    /// Set from outside to stop the search as at the deadline.
    pub cancel: Option<std::sync::Arc<AtomicBool>>,
}

/// A partial path from the root: where a subtree searched in parallel starts.
pub struct Prefix<H: Heuristic> {
    pub node: NodeOf<H>,
    pub path: Vec<u8>,
}

/// Generates the children of `nodes` by the moves in `masks` (one mask a node) into
/// `children`, node by node, their entries located but not yet prefetched (see [`prefetch_all`]);
/// `ends` receives where each node's children end. Kept out of line: inlined into the walk,
/// where the rest of a batch's expansion holds registers too, `h48-eo6`'s walk counted 1.2%
/// more instructions (not measured on the other tables).
#[inline(never)]
fn generate<H: Heuristic>(
    heuristic: &H,
    nodes: &[NodeOf<H>],
    masks: &[u32],
    children: &mut Vec<ChildOf<H>>,
    ends: &mut Vec<u32>,
) {
    children.clear();
    ends.clear();
    for (node, &mask) in nodes.iter().zip(masks) {
        let mut mask = mask;
        while mask != 0 {
            let turn = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            children.push(Child {
                turn: turn as u8,
                coords: heuristic.child(&node.coords, turn),
            });
        }
        ends.push(children.len() as u32);
    }
    for child in children.iter_mut() {
        heuristic.locate_entries(&mut child.coords);
    }
}

/// The second round where an entry can rule out a whole face: reads the entries of the first
/// turns (`scratch.children`, made by `scratch.masks`), keeps their verdicts, and makes the
/// other turns of the faces those leave possible, none where they rule out the parent
/// (cube48opt's order: a face ruled out by an earlier turn's entry is never generated), into
/// `scratch.late`; prefetches the new children's entries. Returns how many it made.
#[inline(never)]
fn make_the_rest<H: Heuristic>(
    heuristic: &H,
    canonical: &Canonical,
    nodes: &[NodeOf<H>],
    budget: u8,
    scratch: &mut Scratch<H>,
) -> u64 {
    scratch.verdicts.clear();
    scratch.late_masks.clear();
    let mut begin = 0;
    let firsts = scratch.ends.iter().zip(&scratch.masks);
    for ((&end, &first_turns), &allowed) in firsts.zip(&scratch.allowed) {
        let siblings = &scratch.children[begin..end as usize];
        begin = end as usize;
        let verdicts = Verdicts::of(heuristic, canonical, siblings, budget);
        let dead = canonical.turns_of_faces(verdicts.dead_faces());
        scratch.verdicts.push(verdicts);
        scratch.late_masks.push(allowed & !first_turns & !dead);
    }
    let (masks, late) = (&scratch.late_masks, &mut scratch.late);
    generate(heuristic, nodes, masks, late, &mut scratch.late_ends);
    prefetch_all(heuristic, &scratch.late);
    scratch.late.len() as u64
}

/// The round before the direct lookup where a face's two quarter turns share their children's
/// inverse ([`Heuristic::SHARED_INVERSES_FIRST`]): locates each face's shared inverse
/// from its first quarter turn and prefetches its entries, every face of every node of the batch
/// together; then reads them and narrows `scratch.allowed` by what they rule out (by the
/// [`Rule`]: the value bounds both quarter turns' children, so a value over the budget rules
/// them out, one over `budget + sibling distance` the half turn too, and `budget + 3` the
/// node). The inverses are kept in `scratch.pairs` for the dual lookup of the children kept,
/// which then reads them again from the cache. One read thus stands in for two children's: in
/// a complete iteration of positions 3 and 10 of benches/peers.txt, 0.69 of the reads the
/// direct lookup first made. Each shared inverse looked up counts as a node, in
/// `nodes_below` by root; returns how many.
#[inline(never)]
fn rule_out_by_pairs<H: Heuristic>(
    heuristic: &H,
    canonical: &Canonical,
    nodes: &[NodeOf<H>],
    budget: u8,
    scratch: &mut Scratch<H>,
    nodes_below: &mut [u64],
) -> u64 {
    let mut looked_up = 0;
    let moves = heuristic.moves();
    scratch.pairs.clear();
    scratch
        .pairs
        .resize(nodes.len() * FACES, H::Inverse::default());
    scratch.pair_turns.clear();
    for (b, (node, &allowed)) in nodes.iter().zip(&scratch.allowed).enumerate() {
        let turns = canonical.first_of_each_face(allowed & canonical.quarter_turns());
        scratch.pair_turns.push(turns);
        let count = u64::from(turns.count_ones());
        nodes_below[usize::from(node.root)] += count;
        looked_up += count;
        for turn in bits(turns) {
            let inverse = node.cubes.inverse.preturn(moves[usize::from(turn)]);
            let inverse = heuristic.inverse(&inverse, turn);
            scratch.pairs[b * FACES + usize::from(canonical.face(turn))] = inverse;
        }
    }
    // Located once every inverse's first read is on its way, and prefetched back to back (see
    // `prefetch_all`): prefetched as each was located, the walk spent a tenth more time.
    let (turns, pairs) = (&scratch.pair_turns, &mut scratch.pairs);
    each_pair(canonical, turns, pairs, |pair, turn| {
        heuristic.locate_inverse(pair, turn)
    });
    each_pair(canonical, turns, pairs, |pair, turn| {
        heuristic.prefetch_inverse(pair, turn)
    });
    let rule = Rule::new(canonical, budget);
    let pairs = scratch.allowed.iter_mut().zip(&scratch.pair_turns);
    for (b, (node, (allowed, &turns))) in nodes.iter().zip(pairs).enumerate() {
        // Gathered into masks without a branch a face, as in `Verdicts`.
        let (mut quarters_out, mut faces_out, mut parent_out) = (0u32, 0u32, false);
        for turn in bits(turns) {
            let face = canonical.face(turn);
            let pair = &scratch.pairs[b * FACES + usize::from(face)];
            let bound = heuristic.dual_bound(pair, turn, &node.dual, budget);
            quarters_out |= u32::from(rule.child_out(bound)) << face;
            faces_out |= u32::from(rule.face_out(bound)) << face;
            parent_out |= rule.parent_out(bound);
        }
        let out = canonical.turns_of_faces(quarters_out) & canonical.quarter_turns()
            | canonical.turns_of_faces(faces_out);
        *allowed = if parent_out { 0 } else { *allowed & !out };
    }
    looked_up
}

/// Calls `f` on each face's shared inverse in `pairs` (`[node * FACES + face]`) with the turn
/// it was located from, the nodes' first quarter turns in `turns` (one mask a node).
#[inline(always)]
fn each_pair<I>(
    canonical: &Canonical,
    turns: &[u32],
    pairs: &mut [I],
    mut f: impl FnMut(&mut I, u8),
) {
    for (b, &turns) in turns.iter().enumerate() {
        for turn in bits(turns) {
            f(
                &mut pairs[b * FACES + usize::from(canonical.face(turn))],
                turn,
            );
        }
    }
}

/// The set bits of `mask`, lowest first.
#[inline(always)]
fn bits(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            bit
        })
    })
}

/// Prefetches the entries of generated `children` ([`Heuristic::prefetch_entries`]). The requests of a whole
/// batch are made together: a prefetch here retires only once its line is on its way, so
/// requests spread among the work of locating the lines would each hold the processor up in
/// turn, where requests made back to back wait together (reports/performance-log.md).
#[inline]
fn prefetch_all<H: Heuristic>(heuristic: &H, children: &[ChildOf<H>]) {
    for child in children {
        heuristic.prefetch_entries(&child.coords);
    }
}

/// What a child's bound (of the child or of its inverse, the same distance) rules out with
/// `budget` moves left after the child: the one rule every round judges by. The bound is not
/// consistent: it may exceed the budget by more than one step. A child is one move from its
/// parent, so at `budget + 3` the parent itself is out of reach (bidirectional pathmax). It is
/// one move (two quarter turns) from the other turns of its face, so at `budget + 2` (`+ 3`)
/// those are out of reach too.
#[derive(Clone, Copy)]
struct Rule {
    budget: u8,
    face_out_above: u8,
}

impl Rule {
    #[inline(always)]
    fn new(canonical: &Canonical, budget: u8) -> Rule {
        Rule {
            budget,
            face_out_above: budget + canonical.sibling_distance(),
        }
    }

    /// Whether `bound` rules out the child itself.
    #[inline(always)]
    fn child_out(self, bound: u8) -> bool {
        bound > self.budget
    }

    /// Whether `bound` rules out every turn of the child's face.
    #[inline(always)]
    fn face_out(self, bound: u8) -> bool {
        bound > self.face_out_above
    }

    /// Whether `bound` rules out the child's parent.
    #[inline(always)]
    fn parent_out(self, bound: u8) -> bool {
        bound >= self.budget + 3
    }
}

/// What the entries of one node's children rule out by the [`Rule`], as bit masks.
#[derive(Clone, Copy)]
struct Verdicts {
    /// The turns whose children are within the budget by their own bounds.
    within: u32,
    /// The faces (a bit mask over face indices) a child's bound rules out.
    faces_out: u32,
    /// Whether a child's bound rules out the node itself.
    parent_out: bool,
}

impl Verdicts {
    /// What these verdicts and `other`'s, on other children of the same node, rule out.
    #[inline(always)]
    fn with(self, other: Verdicts) -> Verdicts {
        Verdicts {
            within: self.within | other.within,
            faces_out: self.faces_out | other.faces_out,
            parent_out: self.parent_out | other.parent_out,
        }
    }

    /// The verdicts of the entries of `siblings`, one node's children, with `budget` moves
    /// left after them. Gathered into masks without a branch a child: whether a child is kept
    /// follows no pattern that a predictor could learn.
    #[inline(always)]
    fn of<H: Heuristic>(
        heuristic: &H,
        canonical: &Canonical,
        siblings: &[ChildOf<H>],
        budget: u8,
    ) -> Verdicts {
        let (mut within, mut faces_out, mut parent_out) = (0u32, 0u32, false);
        let rule = Rule::new(canonical, budget);
        for child in siblings {
            let bound = heuristic.bound_above(&child.coords, budget);
            within |= u32::from(!rule.child_out(bound)) << child.turn;
            faces_out |= u32::from(rule.face_out(bound)) << canonical.face(child.turn);
            parent_out |= rule.parent_out(bound);
        }
        Verdicts {
            within,
            faces_out,
            parent_out,
        }
    }

    /// The faces ruled out: all six where the node itself is.
    #[inline(always)]
    fn dead_faces(self) -> u32 {
        if self.parent_out {
            ALL_FACES
        } else {
            self.faces_out
        }
    }

    /// The turns whose children are kept, or `None` where the node itself is ruled out. A
    /// bound that rules out its face rules out every turn of it, the ones listed before it too.
    #[inline(always)]
    fn kept(self, canonical: &Canonical) -> Option<u32> {
        (!self.parent_out).then(|| self.within & !canonical.turns_of_faces(self.faces_out))
    }
}

/// The depth-first search of a few subtrees together, or the enumeration of the prefixes below
/// the root.
pub struct Walk<'a, H: Heuristic> {
    heuristic: &'a H,
    canonical: &'a Canonical,
    shared: &'a Shared,
    /// The subtrees walked together, in the order their leaves are reached: each one's number
    /// in canonical order.
    roots: Vec<usize>,
    /// The length of the paths to the roots: the depth the walk starts at.
    top: u8,
    /// The roots' paths, one after another.
    root_paths: Vec<u8>,
    /// The lowest number among the roots.
    lowest: usize,
    pub nodes: u64,
    /// The nodes generated below each root, in the order of [`Walk::search`]'s roots.
    pub nodes_below: Vec<u64>,
    next_check: u64,
    /// The solutions found, each with the number of the subtree that holds it.
    pub solutions: Vec<(usize, Vec<u8>)>,
    pub frames: Frames<H>,
    /// While enumerating prefixes: their length, which to keep, and those kept so far.
    split: Option<Split<'a, H>>,
}

/// Which prefixes to keep: a test of the path and the node it reaches.
pub type KeepPrefix<'a, H> = &'a dyn Fn(&[u8], &NodeOf<H>) -> bool;

/// The enumeration of the prefixes of one length.
struct Split<'a, H: Heuristic> {
    length: u8,
    keep: KeepPrefix<'a, H>,
    found: Vec<Prefix<H>>,
}

impl<'a, H: Heuristic> Walk<'a, H> {
    /// A walk with `frames` for at least the depths `0..=bound`.
    pub fn new(
        heuristic: &'a H,
        canonical: &'a Canonical,
        shared: &'a Shared,
        frames: Frames<H>,
    ) -> Walk<'a, H> {
        Walk {
            heuristic,
            canonical,
            shared,
            roots: Vec::new(),
            top: 0,
            root_paths: Vec::new(),
            lowest: 0,
            nodes: 0,
            nodes_below: Vec::new(),
            next_check: 0,
            solutions: Vec::new(),
            frames,
            split: None,
        }
    }

    /// The canonical prefixes of `length` moves below `root` that the bounds and `keep` keep,
    /// in canonical order, found by the same expansion as the search itself. `keep` is asked
    /// as each is reached, so the ones it drops are never stored.
    pub fn prefixes(
        &mut self,
        root: &NodeOf<H>,
        length: u8,
        keep: KeepPrefix<'a, H>,
    ) -> Vec<Prefix<H>> {
        self.split = Some(Split {
            length,
            keep,
            found: Vec::new(),
        });
        let whole = Prefix {
            node: *root,
            path: Vec::new(),
        };
        self.search(&[(0, &whole)]);
        self.split
            .take()
            .map(|split| split.found)
            .unwrap_or_default()
    }

    /// Searches the subtrees below `roots` (each with its number in canonical order), whose
    /// paths are all of one length, together; true once it is done (a solution found and one
    /// is enough). Their leaves are reached root by root in the order given, each root's in
    /// canonical order, so that the first solution found is the first a walk of the roots one
    /// after another finds. Walked together, the subtrees' nodes fill the batches near their
    /// roots, where a subtree alone has a few nodes to a depth and its requests to memory wait
    /// one round after another (reports/performance-log.md).
    pub fn search(&mut self, roots: &[(usize, &Prefix<H>)]) -> bool {
        let top = roots.first().map_or(0, |(_, prefix)| prefix.path.len());
        debug_assert!(roots.iter().all(|(_, prefix)| prefix.path.len() == top));
        // A node names its root in a `u16`.
        assert!(
            roots.len() <= usize::from(u16::MAX) + 1,
            "{} roots",
            roots.len()
        );
        self.top = top as u8;
        self.lowest = roots.iter().map(|&(index, _)| index).min().unwrap_or(0);
        self.roots.clear();
        self.roots.extend(roots.iter().map(|&(index, _)| index));
        self.root_paths.clear();
        for (_, prefix) in roots {
            self.root_paths.extend_from_slice(&prefix.path);
        }
        self.nodes_below.clear();
        self.nodes_below.resize(roots.len(), 0);
        let frame = &mut self.frames.depths[top];
        frame.nodes.clear();
        frame.parents.clear();
        frame.ties.clear();
        for (k, (_, prefix)) in roots.iter().enumerate() {
            frame.nodes.push(Node {
                root: k as u16,
                ..prefix.node
            });
            frame.parents.push(k as u32);
        }
        if let Some(symmetry) = self.judging() {
            let mut moves = Vec::new();
            for k in 0..roots.len() {
                self.moves_to(self.top, k, &mut moves);
                self.frames.depths[top].ties.push_root(symmetry, &moves);
            }
        }
        self.walk_depth(self.top)
    }

    /// Walks the nodes listed at depth `g`, a batch at a time, each batch's subtrees before the
    /// next batch; true once done. The list is cut into batches of about equal size, so that
    /// 70 nodes are two batches of 35 rather than 64 and a lone 6.
    fn walk_depth(&mut self, g: u8) -> bool {
        if self.split.as_ref().is_some_and(|split| g == split.length) {
            self.keep_prefixes(g);
            return false;
        }
        if g == self.shared.bound {
            return self.found(g);
        }
        let count = self.frames.depths[usize::from(g)].nodes.len();
        let batches = count.div_ceil(BATCH);
        let mut start = 0;
        for b in 1..=batches {
            let end = count * b / batches;
            if !self.expand(g, start..end) {
                return false;
            }
            if self.walk_depth(g + 1) {
                return true;
            }
            if self.stopped() {
                return false;
            }
            start = end;
        }
        false
    }

    /// Whether a face's quarter turns are ruled out by their shared inverse before any child is
    /// made (see [`rule_out_by_pairs`]).
    fn pairs_first(&self) -> bool {
        H::SHARED_INVERSES_FIRST && self.shared.dual
    }

    fn stopped(&self) -> bool {
        let shared = self.shared;
        shared.aborted.load(Relaxed)
            || (!shared.all && {
                let first = shared.first_found.load(Relaxed);
                first < self.lowest || (!shared.deterministic && first != usize::MAX)
            })
    }

    /// The path to node `i` of depth `g`, read back through the nodes' parents.
    fn path_to(&self, g: u8, i: usize) -> Vec<u8> {
        let mut path = Vec::new();
        self.read_path(g, i, &mut path, |entry| entry);
        path
    }

    /// The path to node `i` of depth `g` into `out`, each entry (a turn, with [`FAR_END`] for
    /// the far end's) as `of` makes it; returns which root the node lies below.
    fn read_path<T: Copy>(
        &self,
        g: u8,
        mut i: usize,
        out: &mut Vec<T>,
        of: impl Fn(u8) -> T,
    ) -> usize {
        out.clear();
        out.resize(usize::from(g), of(0));
        for depth in (usize::from(self.top) + 1..=usize::from(g)).rev() {
            let frame = &self.frames.depths[depth];
            let node = &frame.nodes[i];
            out[depth - 1] = of(node.turn | if node.end { FAR_END } else { 0 });
            i = frame.parents[i] as usize;
        }
        let top = usize::from(self.top);
        for (slot, &entry) in out.iter_mut().zip(&self.root_paths[i * top..(i + 1) * top]) {
            *slot = of(entry);
        }
        i
    }

    /// Offers each prefix listed at depth `g` to the split's test, keeping those it passes.
    fn keep_prefixes(&mut self, g: u8) {
        for i in 0..self.frames.depths[usize::from(g)].nodes.len() {
            let path = self.path_to(g, i);
            let node = self.frames.depths[usize::from(g)].nodes[i];
            if let Some(split) = &mut self.split
                && (split.keep)(&path, &node)
            {
                split.found.push(Prefix { node, path });
            }
        }
    }

    /// Whether `node`, at the bound, is the solved position.
    fn is_goal(&self, node: &NodeOf<H>) -> bool {
        self.heuristic.is_goal(&node.coords) && (!self.shared.cubies || node.cubes.is_solved())
    }

    /// Records the solutions among the nodes listed at depth `g`, the bound, in order; true
    /// once the search is done.
    fn found(&mut self, g: u8) -> bool {
        for i in 0..self.frames.depths[usize::from(g)].nodes.len() {
            if self.is_goal(&self.frames.depths[usize::from(g)].nodes[i]) {
                let mut path = Vec::new();
                let root = self.read_path(g, i, &mut path, |entry| entry);
                self.solutions.push((self.roots[root], path));
                if !self.shared.all {
                    return true;
                }
            }
        }
        false
    }

    /// Expands the nodes `batch` of depth `g` below the bound in three rounds over the batch,
    /// listing at depth `g + 1` the children they enter; false if the search is stopped
    /// (the deadline, a cancel, or a solution that ends it found by another thread).
    fn expand(&mut self, g: u8, batch: Range<usize>) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_INTERVAL;
            if self.check_deadline() {
                return false;
            }
        }
        self.judge_batch(g, batch.clone());
        let (heuristic, canonical) = (self.heuristic, self.canonical);
        let budget = self.shared.bound - g - 1;
        // Whether an entry can rule out its child's whole face (see [`Rule`]).
        let faces_first = heuristic.largest_bound() > budget + canonical.sibling_distance();
        let pairs_first = self.pairs_first();
        let Frames { depths, scratch } = &mut self.frames;
        let nodes = &depths[usize::from(g)].nodes[batch.clone()];
        scratch.allowed.clear();
        for (node, &other_axes_lead) in nodes.iter().zip(&scratch.other_axes_lead) {
            let mut allowed = node.allowed;
            if !other_axes_lead {
                allowed &= canonical.on_axis_of(node.turn);
            }
            scratch.allowed.push(allowed);
        }
        if pairs_first {
            let below = &mut self.nodes_below;
            self.nodes += rule_out_by_pairs(heuristic, canonical, nodes, budget, scratch, below);
        }
        scratch.masks.clear();
        for &allowed in &scratch.allowed {
            scratch.masks.push(match faces_first {
                true => canonical.first_of_each_face(allowed),
                false => allowed,
            });
        }
        let (masks, children) = (&scratch.masks, &mut scratch.children);
        generate(heuristic, nodes, masks, children, &mut scratch.ends);
        prefetch_all(heuristic, &scratch.children);
        self.nodes += scratch.children.len() as u64;
        if faces_first {
            self.nodes += make_the_rest(heuristic, canonical, nodes, budget, scratch);
        } else {
            scratch.late.clear();
            scratch.late_ends.clear();
            scratch.late_ends.resize(nodes.len(), 0);
            scratch.late_masks.clear();
            scratch.late_masks.resize(nodes.len(), 0);
        }
        self.direct_lookups(g, batch.start, faces_first);
        self.enter(g);
        true
    }

    /// For a cyclic position, judges the last run of each node of `batch` at depth `g`, which
    /// a turn on another axis completes: false where no solution that continues on another
    /// axis leads its class (see [`super::symmetry`]). Each node's ties before its run come
    /// from its parent's. Nodes whose children are at the bound are not judged (finding those
    /// costs less than judging), nor the root of the empty path, nor prefixes.
    fn judge_batch(&mut self, g: u8, batch: Range<usize>) {
        self.frames.scratch.other_axes_lead.clear();
        // Nodes whose children are at the bound are neither judged nor hand ties down.
        let Some(symmetry) = self.judging().filter(|_| g + 1 < self.shared.bound) else {
            let lead = &mut self.frames.scratch.other_axes_lead;
            lead.resize(batch.len(), true);
            return;
        };
        let (depth, moves) = (usize::from(g), self.heuristic.moves());
        let mut path = std::mem::take(&mut self.frames.scratch.path);
        for i in batch {
            if depth > usize::from(self.top) {
                let (above, here) = self.frames.depths.split_at_mut(depth);
                let (above, here) = (&above[depth - 1], &mut here[0]);
                let parent = here.parents[i] as usize;
                let parent_turn = (depth > 1).then(|| moves[usize::from(above.nodes[parent].turn)]);
                let turn = moves[usize::from(here.nodes[i].turn)];
                here.ties.push_child(&above.ties, parent, parent_turn, turn);
            }
            let passed = g == 0 || {
                self.moves_to(g, i, &mut path);
                self.frames.depths[depth].ties.judge(i, symmetry, &path)
            };
            self.frames.scratch.other_axes_lead.push(passed);
        }
        self.frames.scratch.path = path;
    }

    /// The moves of the path to node `i` of depth `g`, into `out` (no turn of the far end:
    /// cyclic positions turn no node around).
    fn moves_to(&self, g: u8, i: usize, out: &mut Vec<Move>) {
        let moves = self.heuristic.moves();
        self.read_path(g, i, out, |entry| moves[usize::from(entry & !FAR_END)]);
    }

    /// The position's symmetry where paths are judged at every run: a cyclic position's, in
    /// the search proper (prefixes are judged by their caller).
    fn judging(&self) -> Option<&'a PositionSymmetry> {
        self.shared.shifts.as_ref().filter(|_| self.split.is_none())
    }

    /// The direct lookup: reads the children's entries and lists those within the bound at
    /// depth `g + 1`, a node at a time (a bound may rule out a child's whole face or its
    /// parent, see [`Rule`]); locates the listed children's inverses and prefetches their
    /// entries together. The batch's nodes start at index `first` of depth `g`.
    fn direct_lookups(&mut self, g: u8, first: usize, faces_first: bool) {
        let pairs_first = self.pairs_first();
        let (heuristic, canonical, shared) = (self.heuristic, self.canonical, self.shared);
        let budget = shared.bound - g - 1;
        let Frames { depths, scratch } = &mut self.frames;
        let (above, below) = depths.split_at_mut(usize::from(g) + 1);
        let (nodes, next) = (&above[usize::from(g)].nodes, &mut below[0]);
        next.nodes.clear();
        next.parents.clear();
        next.ties.clear();
        scratch.inverses.clear();
        let (mut begin, mut late_begin) = (0, 0);
        for b in 0..scratch.ends.len() {
            let (parent, node) = (first + b, &nodes[first + b]);
            let (end, late_end) = (scratch.ends[b] as usize, scratch.late_ends[b] as usize);
            let firsts = &scratch.children[begin..end];
            let late = &scratch.late[late_begin..late_end];
            self.nodes_below[usize::from(node.root)] += (firsts.len() + late.len()) as u64;
            (begin, late_begin) = (end, late_end);
            let verdicts = match faces_first {
                true => scratch.verdicts[b].with(Verdicts::of(heuristic, canonical, late, budget)),
                false => Verdicts::of(heuristic, canonical, firsts, budget),
            };
            let Some(mut kept) = verdicts.kept(canonical) else {
                continue;
            };
            let (first_turns, late_turns) = (scratch.masks[b], scratch.late_masks[b]);
            while kept != 0 {
                let turn = kept.trailing_zeros();
                kept &= kept - 1;
                // Each list holds its node's children by the turns of its mask, in order.
                let before = (1u32 << turn) - 1;
                let child = if first_turns >> turn & 1 == 1 {
                    &firsts[(first_turns & before).count_ones() as usize]
                } else {
                    &late[(late_turns & before).count_ones() as usize]
                };
                let child = child_node(heuristic, canonical, shared, node, child);
                if shared.dual {
                    let quarter = canonical.quarter_turns() >> turn & 1 == 1;
                    let inverse = if pairs_first && quarter {
                        scratch.pairs[b * FACES + usize::from(canonical.face(child.turn))]
                    } else {
                        let mut inverse = heuristic.inverse(&child.cubes.inverse, child.turn);
                        heuristic.locate_inverse(&mut inverse, child.turn);
                        inverse
                    };
                    scratch.inverses.push(inverse);
                }
                heuristic.prefetch_moves(&child.coords);
                next.nodes.push(child);
                next.parents.push(parent as u32);
            }
        }
        // With the pairs read first, a quarter turn's inverse has been read already and a half
        // turn's is its parent's.
        if shared.dual && !pairs_first {
            for (inverse, child) in scratch.inverses.iter().zip(&next.nodes) {
                heuristic.prefetch_inverse(inverse, child.turn);
            }
        }
    }

    /// The last round, over the children the direct lookup listed at depth `g + 1`: the dual
    /// lookup drops some or narrows their next moves, a parent's children at a time. A
    /// child's inverse is as far as the child, and one move from its siblings' inverses,
    /// whichever end the node extends: its bound rules out siblings and the parent as the
    /// direct one does (see [`Rule`]). Each child left is turned around where its other
    /// end has fewer moves to try. The list is compacted in place: a child moves only to close
    /// a gap the dropped ones left.
    fn enter(&mut self, g: u8) {
        let (heuristic, canonical, shared) = (self.heuristic, self.canonical, self.shared);
        let budget = shared.bound - g - 1;
        let turn_around = H::BIDIRECTIONAL && shared.turn_around;
        // Turning a node around reads its inverse's cubies (`Heuristic::turn_around`).
        debug_assert!(
            !turn_around || shared.cubies,
            "turned around without cubies"
        );
        let forward_only = shared.forward_prefixes && self.split.is_some();
        let Frames { depths, scratch } = &mut self.frames;
        let next = &mut depths[usize::from(g) + 1];
        let listed = next.nodes.len();
        let (mut begin, mut kept) = (0, 0);
        while begin < listed {
            let parent = next.parents[begin];
            let mut end = begin + 1;
            while end < listed && next.parents[end] == parent {
                end += 1;
            }
            let siblings = begin..end;
            begin = end;
            let mut passed = (1u32 << siblings.len()) - 1;
            if shared.dual {
                // Gathered into masks without a branch a child, as in `Verdicts`.
                let (mut dead_faces, mut parent_out) = (0u32, false);
                let rule = Rule::new(canonical, budget);
                for k in siblings.clone() {
                    let child = &mut next.nodes[k];
                    let inverse = &scratch.inverses[k];
                    let verdict = heuristic.dual(inverse, child.turn, &mut child.dual, budget);
                    child.allowed &= verdict.unwrap_or(u32::MAX);
                    let bound = verdict.err().unwrap_or(0);
                    passed &= !(u32::from(verdict.is_err()) << (k - siblings.start));
                    dead_faces |= u32::from(rule.face_out(bound)) << canonical.face(child.turn);
                    parent_out |= rule.parent_out(bound);
                }
                if parent_out {
                    continue;
                }
                // Rarely any: most nodes skip the pass over their children.
                if dead_faces != 0 {
                    for k in siblings.clone() {
                        let face = canonical.face(next.nodes[k].turn);
                        passed &= !((dead_faces >> face & 1) << (k - siblings.start));
                    }
                }
            }
            while passed != 0 {
                let k = siblings.start + passed.trailing_zeros() as usize;
                passed &= passed - 1;
                let child = &mut next.nodes[k];
                if turn_around {
                    narrow_other_end(heuristic, child, budget);
                    if !forward_only {
                        choose_end(heuristic, child);
                    }
                }
                if kept != k {
                    next.nodes[kept] = next.nodes[k];
                    next.parents[kept] = parent;
                }
                kept += 1;
            }
        }
        next.nodes.truncate(kept);
        next.parents.truncate(kept);
    }

    fn check_deadline(&self) -> bool {
        let shared = self.shared;
        let cancelled = shared.cancel.as_ref().is_some_and(|c| c.load(Relaxed));
        if cancelled
            || shared
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
        {
            shared.aborted.store(true, Relaxed);
        }
        self.stopped()
    }
}

/// `child` of `parent` as a node of its own, once the direct lookup keeps it: its canonical
/// next moves, its parent's dual values (for the dual lookup to update) and its cubies. When
/// nothing reads the cubies the parent's are passed along unchanged rather than computed at
/// every node.
#[inline]
fn child_node<H: Heuristic>(
    heuristic: &H,
    canonical: &Canonical,
    shared: &Shared,
    parent: &NodeOf<H>,
    child: &ChildOf<H>,
) -> NodeOf<H> {
    let cubes = if shared.cubies {
        parent
            .cubes
            .turn(heuristic.moves()[usize::from(child.turn)])
    } else {
        parent.cubes
    };
    let history = Canonical::after(parent.history, usize::from(child.turn));
    Node {
        turn: child.turn,
        root: parent.root,
        end: parent.flipped,
        flipped: parent.flipped,
        coords: child.coords,
        cubes,
        history,
        other_history: parent.other_history,
        allowed: canonical.allowed(history),
        other_allowed: parent.other_allowed,
        dual: parent.dual,
    }
}

/// Narrows the moves that may begin the other end of `node` by its own tight bounds: the
/// solution from it cannot end with a move of a tight bound's subgroup, and its last move is
/// the other end's next one. The narrowing holds until that end is extended, whatever is added
/// at this end meanwhile (the remaining solution's last move stays the same), so each node
/// keeps its ancestors' narrowing too (as H48's solver keeps its inverse move mask).
#[inline]
fn narrow_other_end<H: Heuristic>(heuristic: &H, node: &mut NodeOf<H>, budget: u8) {
    node.other_allowed &= heuristic.other_end_moves(&node.coords, budget);
}

/// Turns `node` around where the other end of the solution has fewer moves to try next
/// (nxopt's and vcube's choice of direction): the tight bounds of the inverse narrow the moves
/// at this end, those of the position the moves at the other end.
#[inline]
fn choose_end<H: Heuristic>(heuristic: &H, node: &mut NodeOf<H>) {
    let (there, here) = (node.other_allowed.count_ones(), node.allowed.count_ones());
    if there < here || (there == here && heuristic.prefers_other_end(&node.coords, &node.dual)) {
        let (coords, dual) = heuristic.turn_around(&node.coords, &node.dual, &node.cubes);
        *node = Node {
            coords,
            dual,
            cubes: node.cubes.swapped(),
            history: node.other_history,
            other_history: node.history,
            allowed: node.other_allowed,
            other_allowed: node.allowed,
            flipped: !node.flipped,
            ..*node
        };
    }
}

#[cfg(test)]
mod tests {
    use super::NodeOf;
    use crate::search::heuristic::H48Heuristic;

    /// A node of the `h48` walk, copied for every kept child, fits 128 bytes: larger ones were
    /// copied by a call to `memcpy`.
    #[test]
    fn an_h48_node_fits_128_bytes() {
        let size = std::mem::size_of::<NodeOf<H48Heuristic>>();
        assert!(size <= 128, "{size} bytes");
    }
}
