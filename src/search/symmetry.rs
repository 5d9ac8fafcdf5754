//! The symmetries of the position being solved, and the searching they save.
//!
//! If a symmetry `s` keeps the position (`s·x·s⁻¹ = x`), it maps every solution of `x` to a
//! solution of `x` of the same length, move by move ([`Symmetry::map_move_of`]). The optimal
//! solutions then fall into classes of images, and one solution of each class says everything:
//! the first of its class in canonical order, its *leader*. A leader's first moves are
//! themselves first among their images, so the search drops every subtree whose first moves
//! some symmetry maps to a smaller sequence. For the superflip, which all 48 symmetries keep,
//! that leaves about one subtree in 40.
//!
//! Two canonical sequences are compared move by move in move-index order, which is the order
//! in which the search numbers its subtrees. The first optimal solution in canonical order is
//! then a leader, so the symmetry never changes the answer of a `--deterministic` search.
//!
//! The image of a canonical sequence is canonical once each run of turns on one axis is put
//! back in face order (`D U` becomes `U D`; the two commute), and in QTM `U' U'` is spelled
//! `U U`. A run is the unit that keeps its place: a symmetry maps a run to a run of the same
//! length on some axis, and two runs in a row stay on different axes. A prefix's last run may
//! go on past the prefix, so it is compared only when no turn on its axis may follow.
//!
//! A position that commutes with every face turn (the superflip; the solved cube is the only
//! other one, the centre of the cube group) has more: if `s₁…sₙ` solves `x`, so does
//! `s₂…sₙ s₁`, which spells `s₁⁻¹·x·s₁ = x`. Every cyclic shift of a solution solves it,
//! and a class holds the images of all shifts. The search then judges the path at every depth,
//! not just its first moves: each complete run starts a shift that must not be smaller than the
//! path's own beginning under any symmetry ([`PositionSymmetry::judge_run`]). Few shifts stay
//! level with the beginning beyond a run or two, so following them costs little.

use crate::model::cube::{Cube3, Face, Move, Symmetry};
use std::cmp::Ordering;

/// The symmetries that keep one position, by number (see [`Symmetry::nth`]), the identity
/// first, and whether the position's solutions may be shifted cyclically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSymmetry {
    symmetries: Vec<u8>,
    /// Whether every face turn commutes with the position, so that every cyclic shift of a
    /// solution solves it too.
    cyclic: bool,
    /// `[m][first]`: the symmetries (bit `i` for `symmetries[i]`) that map turn `m` to `first`
    /// or below. A symmetry outside it maps a run that holds `m` to an image that begins above
    /// `first`, so judging a run tries these alone: four of the 48 for a quarter turn against a
    /// path that begins with `U`, none for a half turn.
    at_most: [[u64; Move::COUNT]; Move::COUNT],
}

/// A shifted image of the path that is still level with the path's beginning: the shift that
/// starts at move `start` (0: none), seen through symmetry number `symmetry`. Only such images
/// can decide at a later run whether the path may lead its class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tie {
    start: u8,
    symmetry: u8,
}

/// Most turns in one run: `U U D D` in QTM.
const MAX_RUN: usize = 4;

impl PositionSymmetry {
    /// The symmetries of `cube` among the 48.
    pub fn of(cube: &Cube3) -> PositionSymmetry {
        let symmetries = (0..48u8)
            .filter(|&s| Symmetry::nth(s).conjugate(cube) == *cube)
            .collect();
        let cyclic = Move::all().all(|m| {
            let turn = Cube3::of_move(m);
            cube.then(&turn) == turn.then(cube)
        });
        PositionSymmetry::new(symmetries, cyclic)
    }

    /// The identity alone: every solution is a class of its own.
    pub fn none() -> PositionSymmetry {
        PositionSymmetry::new(vec![0], false)
    }

    fn new(symmetries: Vec<u8>, cyclic: bool) -> PositionSymmetry {
        let mut at_most = [[0; Move::COUNT]; Move::COUNT];
        for m in Move::all() {
            for first in Move::all() {
                at_most[m.index()][first.index()] = symmetries
                    .iter()
                    .enumerate()
                    .filter(|&(_, &s)| Symmetry::map_move_of(s, m) <= first)
                    .fold(0, |bits, (i, _)| bits | 1 << i);
            }
        }
        PositionSymmetry {
            symmetries,
            cyclic,
            at_most,
        }
    }

    /// Whether every cyclic shift of a solution solves the position (it commutes with every
    /// face turn). The search then extends solutions at their start only and judges every
    /// complete run ([`PositionSymmetry::judge_run`]).
    pub fn is_cyclic(&self) -> bool {
        self.cyclic
    }

    /// How many symmetries keep the position (1 to 48; a divisor of 48).
    pub fn order(&self) -> usize {
        self.symmetries.len()
    }

    /// The images of a canonical solution, each made canonical, the solution among them: under
    /// the symmetries, and for a cyclic position those of every spelling of its cyclic word
    /// too ([`cyclic_spellings`]).
    fn images<'a>(&'a self, moves: &'a [Move]) -> impl Iterator<Item = Vec<Move>> + 'a {
        let spellings = if self.cyclic {
            cyclic_spellings(moves)
        } else {
            vec![moves.to_vec()]
        };
        spellings.into_iter().flat_map(move |spelling| {
            self.symmetries.iter().map(move |&s| {
                let mut image = Vec::with_capacity(spelling.len());
                image_into(s, &spelling, &mut image);
                image
            })
        })
    }

    /// Whether some symmetry maps the canonical sequence `moves` to a smaller one (in move-index
    /// order, [`Move`]'s own). One buffer serves every image: the search asks this of each of
    /// hundreds of thousands of prefixes per iteration.
    fn has_smaller_image(&self, moves: &[Move]) -> bool {
        let mut image = Vec::with_capacity(moves.len());
        self.symmetries[1..].iter().any(|&s| {
            image_into(s, moves, &mut image);
            image.as_slice() < moves
        })
    }

    /// Whether some solution that begins with `prefix` (canonical) may lead its class: no
    /// symmetry maps the prefix's complete runs to a smaller sequence. False means that every
    /// solution below the prefix has a smaller image, which the search finds elsewhere.
    /// `last_run_complete` says that no turn on the last turn's axis may follow (after `D` in
    /// HTM); otherwise the last run may grow and is not compared.
    pub fn may_lead(&self, prefix: &[Move], last_run_complete: bool) -> bool {
        let complete = if last_run_complete {
            prefix.len()
        } else {
            last_run_start(prefix)
        };
        !self.has_smaller_image(&prefix[..complete])
    }

    /// Whether a canonical solution is the leader of its class.
    pub fn leads(&self, solution: &[Move]) -> bool {
        !self
            .images(solution)
            .any(|image| image.as_slice() < solution)
    }

    /// Judges the last run of `moves`, a canonical path of a cyclic position whose last run is
    /// complete (a turn on another axis follows), against the path's own beginning. `ties` are
    /// the images level with the beginning before that run (see [`Tie`]); those still level
    /// after it are written to `out`, and the shifts that start within the run join them.
    /// False means that some image of every solution that begins with `moves` is smaller, so
    /// that none of them leads its class.
    pub fn judge_run(&self, moves: &[Move], ties: &[Tie], out: &mut Vec<Tie>) -> bool {
        out.clear();
        let run = last_run_start(moves);
        for &tie in ties {
            let aligned = &moves[run - usize::from(tie.start)..];
            match compare_image(tie.symmetry, &moves[run..], aligned) {
                Ordering::Less => return false,
                Ordering::Equal => out.push(tie),
                Ordering::Greater => {}
            }
        }
        // The shifts that start within the run: each begins with some of its turns (a head,
        // `U`, `D` or `U D` of `U D`; in QTM `U` of `U U` too), the others go to its end.
        let (first, end) = (moves[0].index(), moves.len());
        let (near, far) = split_run(&moves[run..]);
        for (n, f) in (0..=near.len()).flat_map(|n| (0..=far.len()).map(move |f| (n, f))) {
            if n + f == 0 {
                continue;
            }
            let mut head = [Move::new(Face::U, 1); MAX_RUN];
            head[..n].copy_from_slice(&near[..n]);
            head[n..n + f].copy_from_slice(&far[..f]);
            let head = &head[..n + f];
            let mut candidates = head
                .iter()
                .fold(0, |bits, m| bits | self.at_most[m.index()][first]);
            if head.len() == end {
                // Unshifted: under the identity, the path itself.
                candidates &= !1;
            }
            while candidates != 0 {
                let s = self.symmetries[candidates.trailing_zeros() as usize];
                candidates &= candidates - 1;
                match compare_image(s, head, moves) {
                    Ordering::Less => return false,
                    Ordering::Equal => out.push(Tie {
                        start: (end - head.len()) as u8,
                        symmetry: s,
                    }),
                    Ordering::Greater => {}
                }
            }
        }
        true
    }

    /// The ties after the complete runs of a cyclic position's path (all but its last run),
    /// judged one after the other; `None` if one of them is judged smaller.
    pub fn judge_runs(&self, moves: &[Move]) -> Option<Vec<Tie>> {
        let (mut ties, mut next) = (Vec::new(), Vec::new());
        for end in 1..=last_run_start(moves) {
            if !same_axis(moves[end - 1], moves[end]) {
                if !self.judge_run(&moves[..end], &ties, &mut next) {
                    return None;
                }
                std::mem::swap(&mut ties, &mut next);
            }
        }
        Some(ties)
    }

    /// How many distinct solutions the class of `solution` holds.
    pub fn class_size(&self, solution: &[Move]) -> usize {
        let mut class: Vec<Vec<Move>> = self.images(solution).collect();
        class.push(solution.to_vec());
        class.sort_unstable();
        class.dedup();
        class.len()
    }
}

/// The judging of a walk's paths at every complete run, for a cyclic position: the ties of the
/// nodes of one depth, in one list. Each node has the ties before its last run and, once that
/// run is judged ([`DepthTies::judge`]), those after it. A child that continues its parent's run
/// starts from the parent's ties before, one on another axis from those after
/// ([`DepthTies::push_child`]). The walk expands a batch of nodes of a depth at a time, so each
/// node keeps its own ties rather than the path being judged one node at a time.
#[derive(Default)]
pub struct DepthTies {
    ties: Vec<Tie>,
    /// Per node, where its ties before its last run and after it lie in `ties`.
    nodes: Vec<NodeTies>,
    /// The last judging's ties after, before they join `ties` (kept to reuse its storage).
    judged: Vec<Tie>,
}

#[derive(Clone, Copy)]
struct NodeTies {
    before: (u32, u32),
    after: (u32, u32),
}

impl DepthTies {
    pub fn clear(&mut self) {
        self.ties.clear();
        self.nodes.clear();
    }

    /// The ties of node `i` before its last run.
    pub fn before(&self, i: usize) -> &[Tie] {
        let (start, end) = self.nodes[i].before;
        &self.ties[start as usize..end as usize]
    }

    fn after(&self, i: usize) -> &[Tie] {
        let (start, end) = self.nodes[i].after;
        &self.ties[start as usize..end as usize]
    }

    /// Adds the root of a walk, the node that `path` reaches: its ties before its last run are
    /// those after the path's complete runs (none if one of them is judged smaller, which only
    /// weakens the judging, never makes it wrong; such a prefix is not listed).
    pub fn push_root(&mut self, symmetry: &PositionSymmetry, path: &[Move]) {
        let ties = symmetry.judge_runs(path).unwrap_or_default();
        self.push(&ties);
    }

    /// Adds the node reached by `turn` from node `parent` of the depth above (`above`), whose
    /// own last turn was `parent_turn` (`None` for the empty path).
    pub fn push_child(
        &mut self,
        above: &DepthTies,
        parent: usize,
        parent_turn: Option<Move>,
        turn: Move,
    ) {
        let continues = parent_turn.is_none_or(|last| same_axis(last, turn));
        let start = self.ties.len() as u32;
        if continues {
            self.ties.extend_from_slice(above.before(parent));
        } else {
            self.ties.extend_from_slice(above.after(parent));
        }
        let end = self.ties.len() as u32;
        self.nodes.push(NodeTies {
            before: (start, end),
            after: (end, end),
        });
    }

    fn push(&mut self, ties: &[Tie]) {
        let start = self.ties.len() as u32;
        self.ties.extend_from_slice(ties);
        let end = self.ties.len() as u32;
        self.nodes.push(NodeTies {
            before: (start, end),
            after: (end, end),
        });
    }

    /// Judges the last run of node `i`, the last one added, whose path is `moves` (at least
    /// one move), and records its ties after it: false if no solution that continues it on
    /// another axis leads its class.
    pub fn judge(&mut self, i: usize, symmetry: &PositionSymmetry, moves: &[Move]) -> bool {
        debug_assert_eq!(i + 1, self.nodes.len(), "judged out of order");
        let (start, end) = self.nodes[i].before;
        let before = &self.ties[start as usize..end as usize];
        let passed = symmetry.judge_run(moves, before, &mut self.judged);
        let start = self.ties.len() as u32;
        self.ties.extend_from_slice(&self.judged);
        self.nodes[i].after = (start, self.ties.len() as u32);
        passed
    }
}

/// Whether two turns are on one axis (one face, or opposite faces).
fn same_axis(a: Move, b: Move) -> bool {
    a.face() == b.face() || a.face() == b.face().opposite()
}

/// Where the last run of turns on one axis begins (0 for no turns).
fn last_run_start(moves: &[Move]) -> usize {
    let mut start = moves.len().saturating_sub(1);
    while start > 0 && same_axis(moves[start - 1], moves[start]) {
        start -= 1;
    }
    start
}

/// A canonical run split by face: the turns of its first face, then those of the other.
fn split_run(run: &[Move]) -> (&[Move], &[Move]) {
    let faces = run.iter().position(|m| m.face() != run[0].face());
    run.split_at(faces.unwrap_or(run.len()))
}

/// Every spelling of the cyclic word of canonical `moves` as a canonical sequence, `moves`
/// among them: cut anywhere, and where the cut falls within a run, its turns shared out
/// between the two ends in every way (they commute; the part at the end keeps its place
/// after the turns that precede it there).
fn cyclic_spellings(moves: &[Move]) -> Vec<Vec<Move>> {
    let n = moves.len();
    // Start the word where a run starts, so that no run crosses the seam.
    let Some(k) = (0..n).find(|&k| !same_axis(moves[(k + n - 1) % n], moves[k])) else {
        return vec![moves.to_vec()];
    };
    let word: Vec<Move> = moves[k..].iter().chain(&moves[..k]).copied().collect();
    let starts: Vec<usize> = (0..n)
        .filter(|&i| i == 0 || !same_axis(word[i - 1], word[i]))
        .collect();
    let mut spellings = Vec::new();
    for (r, &start) in starts.iter().enumerate() {
        let end = starts.get(r + 1).copied().unwrap_or(n);
        let mut run = word[start..end].to_vec();
        make_canonical(&mut run);
        let (near, far) = split_run(&run);
        for n_head in 0..=near.len() {
            for f_head in 0..=far.len() {
                if n_head + f_head == 0 {
                    continue;
                }
                let mut spelling: Vec<Move> = near[..n_head].to_vec();
                spelling.extend(&far[..f_head]);
                spelling.extend(&word[end..]);
                spelling.extend(&word[..start]);
                spelling.extend(&near[n_head..]);
                spelling.extend(&far[f_head..]);
                make_canonical(&mut spelling);
                spellings.push(spelling);
            }
        }
    }
    spellings.sort_unstable();
    spellings.dedup();
    spellings
}

/// The image of canonical `moves` under symmetry number `s`, written canonically into `image`:
/// each run put back in face order (a turn moved back past the opposite face's turns before
/// it; the two commute), and a QTM half turn spelled `U U` (a mirror makes it `U' U'`).
fn image_into(s: u8, moves: &[Move], image: &mut Vec<Move>) {
    image.clear();
    image.extend(moves.iter().map(|&m| Symmetry::map_move_of(s, m)));
    make_canonical(image);
}

/// Compares the canonical image of `run`, one run of turns on one axis, under symmetry number
/// `s` with as many moves at the start of `with`.
fn compare_image(s: u8, run: &[Move], with: &[Move]) -> Ordering {
    let mut image = [Move::new(Face::U, 1); MAX_RUN];
    let image = &mut image[..run.len()];
    for (to, &m) in image.iter_mut().zip(run) {
        *to = Symmetry::map_move_of(s, m);
    }
    make_canonical(image);
    (*image).cmp(&with[..run.len()])
}

/// Puts the runs of a sequence of turns back in canonical order (see [`image_into`]).
fn make_canonical(image: &mut [Move]) {
    for i in 1..image.len() {
        let mut j = i;
        while j > 0
            && image[j].face() == image[j - 1].face().opposite()
            && image[j].face().index() < image[j - 1].face().index()
        {
            image.swap(j, j - 1);
            j -= 1;
        }
    }
    for i in 1..image.len() {
        if image[i].face() == image[i - 1].face() {
            let clockwise = Move::new(image[i].face(), 1);
            (image[i - 1], image[i]) = (clockwise, clockwise);
        }
    }
}

#[cfg(test)]
mod tests;
