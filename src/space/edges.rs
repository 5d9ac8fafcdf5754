//! Subsets of the 3x3x3 edges: where `k` chosen edges are and how they are flipped, the others
//! ignored. 6 edges: 12!/6! x 2^6 = 42,577,920 states; 7 edges: 12!/5! x 2^7 = 510,935,040.
//!
//! Index = rank of the arrangement of the tracked edges' slots << k | their flips (first tracked
//! edge most significant). The flip a move gives a piece depends on the slot it lands in, so the
//! move table for the slot part also carries, per entry, the mask of flips to apply:
//! `entry = new slot rank << 7 | flip mask`. All `2^k` flip values of one slot arrangement share a
//! move-table row and land in one block of `2^k` entries, which keeps the search cache-friendly.
//!
//! The table holds the 12 quarter turns only and a half turn is two of them: for 7 edges that is
//! 192 MB instead of 287 MB, which keeps every build within 1.5 x its table + 200 MB.
//!
//! The solver needs two sets that together cover all twelve edges. The whole-cube rotation `x2`
//! maps the tracked set onto a set that covers the rest, so the second set is looked up in the
//! same table through [`EdgeSet::rank_mirrored`] (conjugation by `x2`), with no second table.

use super::move_table;
use crate::coord::{arrangements, rank_arrangement, rank_digits, unrank_arrangement};
use crate::model::cube::{Cube3, Edges, Face, Metric, Move, Rotation};
use crate::space::{MoveSpace, StateSpace};

/// A choice of tracked edges, in the order the coordinate lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeSet {
    pieces: &'static [u8],
}

/// UR UF UL UB FR FL: `x2` maps them onto DR DB DL DF BR BL, the other six.
pub const EDGES6: EdgeSet = EdgeSet {
    pieces: &[0, 1, 2, 3, 8, 9],
};
/// [`EDGES6`] and DR; with its `x2` image it covers all twelve edges.
pub const EDGES7: EdgeSet = EdgeSet {
    pieces: &[0, 1, 2, 3, 4, 8, 9],
};

const FLIP_BITS: u32 = 7;

impl EdgeSet {
    pub fn pieces(&self) -> &[u8] {
        self.pieces
    }

    pub const fn len(&self) -> usize {
        self.pieces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Number of slot arrangements, `12! / (12-k)!`.
    pub const fn arrangements(&self) -> u64 {
        arrangements(12, self.len() as u32)
    }

    pub const fn states(&self) -> u64 {
        self.arrangements() << self.len()
    }

    /// The rotation whose conjugation maps the edges outside this set into it.
    pub fn mirror() -> Rotation {
        Rotation::x().power(2)
    }

    /// The index of the tracked edges of `edges`.
    pub fn rank(&self, edges: &Edges) -> u64 {
        self.placement(locate_in(edges)).index()
    }

    /// `self.rank(&inverse.edges)` for the inverse of the position `edges` belongs to, read
    /// straight from `edges` ([`locate_in_inverse`]).
    pub fn rank_of_inverse(&self, edges: &Edges) -> u64 {
        self.placement(locate_in_inverse(edges)).index()
    }

    /// The tracked pieces' placement, given for each piece the slot it occupies and its flip.
    fn placement(&self, locate: impl Fn(u8) -> (u8, u8)) -> Placement {
        let mut placement = Placement::new(self.len());
        for (i, &piece) in self.pieces.iter().enumerate() {
            (placement.slots[i], placement.flips[i]) = locate(piece);
        }
        placement
    }

    /// The index of the edges *outside* a symmetric copy of this set: the tracked set of `cube`
    /// seen through [`EdgeSet::mirror`]. Distances in the table apply unchanged, and a turn `X` of
    /// `cube` is turn `EdgeSet::mirror().map_move(X)` of the mirrored position.
    pub fn rank_mirrored(&self, cube: &Cube3) -> u64 {
        self.rank(&EdgeSet::mirror().conjugate(cube).edges)
    }

    /// A placement of all twelve edges whose tracked edges have index `index` (the untracked
    /// ones fill the remaining slots in order, unflipped).
    pub fn unrank(&self, index: u64) -> Edges {
        let k = self.len();
        let mut slots = [0u8; 12];
        unrank_arrangement(index >> k, 12, &mut slots[..k]);
        let mut edges = Edges::SOLVED;
        let mut free = (0..12u8).filter(|s| !slots[..k].contains(s));
        let mut others = (0..12u8).filter(|p| !self.pieces.contains(p));
        edges.ori = [0; 12];
        for slot in 0..12u8 {
            if let Some(i) = slots[..k].iter().position(|&s| s == slot) {
                edges.perm[slot as usize] = self.pieces[i];
                edges.ori[slot as usize] = ((index >> (k - 1 - i)) & 1) as u8;
            }
        }
        for (slot, piece) in free.by_ref().zip(others.by_ref()) {
            edges.perm[slot as usize] = piece;
        }
        edges
    }
}

/// For each piece, the slot it occupies in `edges` and its flip there.
fn locate_in(edges: &Edges) -> impl Fn(u8) -> (u8, u8) + '_ {
    let mut where_is = [0u8; 12];
    for (slot, &piece) in edges.perm.iter().enumerate() {
        where_is[piece as usize] = slot as u8;
    }
    move |piece| {
        let slot = where_is[piece as usize];
        (slot, edges.ori[slot as usize])
    }
}

/// For each piece, its slot and flip in the inverse of the position `edges` belongs to: in
/// `s⁻¹`, piece `p` sits in slot `s.perm[p]` with flip `s.ori[p]`.
fn locate_in_inverse(edges: &Edges) -> impl Fn(u8) -> (u8, u8) + '_ {
    |piece| (edges.perm[piece as usize], edges.ori[piece as usize])
}

/// Where the tracked pieces of an edge set are: for each, in the set's order, its slot and its
/// flip there: what the index is ranked from.
#[derive(Clone, Copy, Debug)]
struct Placement {
    len: usize,
    slots: [u8; 12],
    flips: [u8; 12],
}

impl Placement {
    fn new(len: usize) -> Placement {
        Placement {
            len,
            slots: [0; 12],
            flips: [0; 12],
        }
    }

    /// The table index: the slots' arrangement rank, then one flip bit per piece.
    fn index(&self) -> u64 {
        let k = self.len;
        rank_arrangement(&self.slots[..k], 12) << k | rank_digits(&self.flips[..k], 2)
    }
}

/// The set's index in a position conjugated by a rotation `g` (for `g` = x2,
/// [`EdgeSet::rank_mirrored`]), with the conjugation worked out once: in `c = g·s·g⁻¹` the piece
/// `p` sits in slot `g(j)`, where `j` is the slot of piece `g⁻¹(p)` in `s`, with flip
/// `g.flip[g⁻¹(p)] + s.flip[j] + g⁻¹.flip[g(j)]`. So only the tracked pieces are gathered, never
/// a whole cube conjugated: the search ranks inverse positions with it at every kept node.
pub struct ConjugateRanker {
    set: EdgeSet,
    /// For each tracked piece `p`: `g⁻¹(p)`, the piece of `s` that plays it.
    source: [u8; 12],
    /// `g.flip[g⁻¹(p)]` for each tracked piece.
    piece_flip: [u8; 12],
    /// Slot `j` of `s` becomes slot `g(j)`...
    slot: [u8; 12],
    /// ... and adds `g⁻¹.flip[g(j)]`.
    slot_flip: [u8; 12],
}

impl ConjugateRanker {
    pub fn new(set: EdgeSet, rotation: &Rotation) -> ConjugateRanker {
        let g = rotation.cubies().edges;
        let inv = g.inverse();
        let mut ranker = ConjugateRanker {
            set,
            source: [0; 12],
            piece_flip: [0; 12],
            slot: [0; 12],
            slot_flip: [0; 12],
        };
        for (i, &p) in set.pieces.iter().enumerate() {
            // g.perm maps slots to pieces as a permutation; its inverse function is inv.perm.
            let source = inv.perm[p as usize];
            ranker.source[i] = source;
            ranker.piece_flip[i] = g.ori[source as usize];
        }
        for j in 0..12 {
            let image = g.perm[j];
            ranker.slot[j] = image;
            ranker.slot_flip[j] = inv.ori[image as usize];
        }
        ranker
    }

    /// Equals `self.set.rank(&rotation.conjugate(cube).edges)`.
    pub fn rank(&self, edges: &Edges) -> u64 {
        self.placement(locate_in(edges)).index()
    }

    /// `self.rank` of the inverse of the position `edges` belongs to, read from `edges` (see
    /// [`EdgeSet::rank_of_inverse`]).
    pub fn rank_of_inverse(&self, edges: &Edges) -> u64 {
        self.placement(locate_in_inverse(edges)).index()
    }

    /// The placement in the conjugated position, given for each piece of the unconjugated one
    /// its slot and flip.
    #[inline]
    fn placement(&self, locate: impl Fn(u8) -> (u8, u8)) -> Placement {
        let mut placement = Placement::new(self.set.len());
        for i in 0..self.set.len() {
            let (j, flip) = locate(self.source[i]);
            placement.slots[i] = self.slot[j as usize];
            placement.flips[i] = (self.piece_flip[i] + flip + self.slot_flip[j as usize]) & 1;
        }
        placement
    }
}

/// How the slots of `pieces` tracked edges move: per slot arrangement and per column move, the
/// new arrangement and the flips the pieces gain, `entry = new arrangement << 7 | flip mask`
/// (the flip a move gives a piece depends on the slot it lands in). A state of the part is
/// `arrangement << pieces | flips`, so all `2^pieces` flip values of an arrangement share a row.
struct SlotMoves {
    pieces: usize,
    columns: usize,
    table: Vec<u32>,
}

impl SlotMoves {
    fn new(pieces: usize, columns: &[Move]) -> SlotMoves {
        // A move only needs to act on the tracked pieces: `lands[m][s]` is the slot the piece in
        // slot `s` moves to, `flips[m][s]` the flip it gains landing in slot `s`.
        let mut lands = [[0u8; 12]; Move::COUNT];
        let mut flips = [[0u8; 12]; Move::COUNT];
        for m in Move::all() {
            let edges = Cube3::of_move(m).edges;
            for (to, &from) in edges.perm.iter().enumerate() {
                lands[m.index()][from as usize] = to as u8;
            }
            flips[m.index()] = edges.ori;
        }
        // State: the tracked pieces' slots and flips, starting unflipped so that the flips
        // after a move are exactly the entry's mask.
        let table = move_table(
            arrangements(12, pieces as u32),
            columns,
            |a| {
                let mut placement = Placement::new(pieces);
                unrank_arrangement(a, 12, &mut placement.slots[..pieces]);
                placement
            },
            |from: &Placement, m: Move| {
                let mut moved = Placement::new(pieces);
                for i in 0..pieces {
                    let to = lands[m.index()][from.slots[i] as usize];
                    moved.slots[i] = to;
                    moved.flips[i] = flips[m.index()][to as usize];
                }
                moved
            },
            |moved| {
                rank_arrangement(&moved.slots[..pieces], 12) << FLIP_BITS
                    | rank_digits(&moved.flips[..pieces], 2)
            },
        );
        SlotMoves {
            pieces,
            columns: columns.len(),
            table,
        }
    }

    #[inline]
    fn prefetch_row(&self, state: u64) {
        crate::space::prefetch(&self.table, (state >> self.pieces) as usize * self.columns);
    }

    /// The part state reached from `state` by the move of column `column`.
    #[inline]
    fn apply(&self, state: u64, column: usize) -> u64 {
        let k = self.pieces;
        let entry = self.table[(state >> k) as usize * self.columns + column];
        let flips = state & ((1 << k) - 1);
        u64::from(entry >> FLIP_BITS) << k | (flips ^ u64::from(entry & ((1 << FLIP_BITS) - 1)))
    }
}

/// One edge set's space under one metric's face turns.
pub struct EdgeSpace {
    set: EdgeSet,
    moves: Vec<Move>,
    /// For each move of `moves`: its column in the slot move table, and whether that column's
    /// turn is done twice (a half turn in a table of quarter turns).
    plan: Vec<(usize, bool)>,
    slots: SlotMoves,
}

impl EdgeSpace {
    /// The compact form: a table of the 12 quarter turns, half turns done as two (for 7 edges,
    /// 192 MB instead of 287 MB). The table builds use it to stay within their memory goal.
    pub fn new(set: EdgeSet, metric: Metric) -> EdgeSpace {
        EdgeSpace::with_columns(set, metric, Metric::Qtm.generators(&Face::ALL))
    }

    /// The fast form: a column for every move of `metric`, so each move is one lookup and all
    /// children of a state read the same row.
    pub fn with_every_move(set: EdgeSet, metric: Metric) -> EdgeSpace {
        EdgeSpace::with_columns(set, metric, metric.generators(&Face::ALL))
    }

    /// `columns` must hold each move of `metric`, or its quarter turn clockwise.
    fn with_columns(set: EdgeSet, metric: Metric, columns: Vec<Move>) -> EdgeSpace {
        let moves = metric.generators(&Face::ALL);
        let plan = moves
            .iter()
            .map(|&m| match columns.iter().position(|&c| c == m) {
                Some(column) => (column, false),
                None => {
                    let quarter = Move::new(m.face(), 1);
                    let column = columns.iter().position(|&c| c == quarter).unwrap_or(0);
                    (column, true)
                }
            })
            .collect();
        EdgeSpace {
            set,
            moves,
            plan,
            slots: SlotMoves::new(set.len(), &columns),
        }
    }

    pub fn set(&self) -> EdgeSet {
        self.set
    }

    /// [`MoveSpace::apply`] for a space made by [`EdgeSpace::with_every_move`], whose move
    /// `turn` is column `turn`: the search's form, with no plan to consult.
    #[inline]
    pub fn apply_every(&self, state: u64, turn: usize) -> u64 {
        debug_assert_eq!(self.slots.columns, self.moves.len());
        self.slots.apply(state, turn)
    }

    /// Prefetches the move-table row that moves from `state` read.
    #[inline]
    pub fn prefetch_row(&self, state: u64) {
        self.slots.prefetch_row(state);
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
}

impl MoveSpace for EdgeSpace {
    fn move_count(&self) -> usize {
        self.moves.len()
    }

    #[inline]
    fn apply(&self, state: u64, turn: usize) -> u64 {
        let (column, twice) = self.plan[turn];
        let once = self.slots.apply(state, column);
        if twice {
            self.slots.apply(once, column)
        } else {
            once
        }
    }
}

impl StateSpace for EdgeSpace {
    fn size(&self) -> u64 {
        self.set.states()
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.set.rank(&Edges::SOLVED)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::notation::parse_moves;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    #[test]
    fn the_conjugate_ranker_equals_conjugating() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        for r in Rotation::all() {
            let ranker = ConjugateRanker::new(EDGES7, r);
            for _ in 0..100 {
                let cube = Cube3::random(&mut rng);
                let conjugated = r.conjugate(&cube);
                assert_eq!(ranker.rank(&cube.edges), EDGES7.rank(&conjugated.edges));
                let inverse = r.conjugate(&cube.inverse());
                assert_eq!(
                    ranker.rank_of_inverse(&cube.edges),
                    EDGES7.rank(&inverse.edges)
                );
            }
        }
        for set in [EDGES6, EDGES7] {
            let ranker = ConjugateRanker::new(set, &EdgeSet::mirror());
            for _ in 0..2000 {
                let cube = Cube3::random(&mut rng);
                assert_eq!(ranker.rank(&cube.edges), set.rank_mirrored(&cube));
                let inverse = cube.inverse();
                assert_eq!(
                    ranker.rank_of_inverse(&cube.edges),
                    set.rank_mirrored(&inverse)
                );
                assert_eq!(set.rank_of_inverse(&cube.edges), set.rank(&inverse.edges));
            }
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(EDGES6.states(), 42_577_920);
        assert_eq!(EDGES7.states(), 510_935_040);
    }

    #[test]
    fn ranking_round_trips_and_moves_agree_with_cubies() {
        let spaces = [
            EdgeSpace::new(EDGES6, Metric::Htm),
            EdgeSpace::with_every_move(EDGES6, Metric::Htm),
            EdgeSpace::new(EDGES6, Metric::Qtm),
            EdgeSpace::with_every_move(EDGES6, Metric::Qtm),
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for _ in 0..500 {
            let cube = Cube3::random(&mut rng);
            let index = EDGES6.rank(&cube.edges);
            assert_eq!(EDGES6.rank(&EDGES6.unrank(index)), index);
            for (i, space) in spaces.iter().enumerate() {
                for (turn, &m) in space.moves().iter().enumerate() {
                    let expected = EDGES6.rank(&cube.apply(m).edges);
                    assert_eq!(space.apply(index, turn), expected, "{m}");
                    if i % 2 == 1 {
                        assert_eq!(space.apply_every(index, turn), expected, "{m}");
                    }
                }
            }
        }
    }

    /// The mirrored lookup sees exactly the edges outside the set: they are solved in a
    /// position iff the mirrored index is the solved one, and turns map as documented.
    #[test]
    fn the_mirror_covers_the_other_edges() {
        for set in [EDGES6, EDGES7] {
            let mirrored: Vec<u8> = set
                .pieces()
                .iter()
                .map(|&p| {
                    let r = EdgeSet::mirror();
                    let slot = r.cubies().edges.perm.iter().position(|&q| q == p).unwrap();
                    slot as u8
                })
                .collect();
            let covered = (0..12u8).all(|e| set.pieces().contains(&e) || mirrored.contains(&e));
            assert!(covered, "{set:?} and its mirror cover all edges");
        }
        let solved = EDGES6.rank(&Edges::SOLVED);
        // U turns never touch DR DB DL DF BR BL; D turns never touch the tracked six.
        let only_u = Cube3::from_moves(&parse_moves("U2 U' U").unwrap());
        assert_eq!(EDGES6.rank_mirrored(&only_u), solved);
        let only_d = Cube3::from_moves(&parse_moves("D").unwrap());
        assert_ne!(EDGES6.rank_mirrored(&only_d), solved);
        assert_eq!(EDGES6.rank(&only_d.edges), solved);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mirror = EdgeSet::mirror();
        for _ in 0..500 {
            let cube = Cube3::random(&mut rng);
            for m in Move::all() {
                assert_eq!(
                    EDGES7.rank_mirrored(&cube.apply(m)),
                    EDGES7.rank(&mirror.conjugate(&cube).apply(mirror.map_move(m)).edges)
                );
            }
        }
    }
}
