//! Kociemba's subgroup H = <U, D, R2, L2, F2, B2> as the cells of a bit set: the layout a coset
//! search marks its elements in (see [`crate::search::coset`]).
//!
//! An element of H is a permutation of the corners (8! = 40,320), of the eight U- and D-layer
//! edges among their slots (40,320) and of the four E-slice edges among theirs (4! = 24), with
//! the parity of the slice edges' order fixed by the other two (corners and all edges have one
//! parity): 40,320 x 40,320 x 12 = 19,508,428,800 elements.
//!
//! ```text
//! cell   = corner permutation x 40,320 + layer rank              (1,625,702,400 cells, u16 each)
//! layer  = chunk x 576 + U order x 24 + D order                  (a chunk: 576 cells, 1,152 bytes)
//! chunk  = which four of the eight layer slots hold the U-layer edges (70)
//! bit    = the slice order's place among the 12 orders of its parity (bits 0..12 of the cell)
//! ```
//!
//! A cell is a 16-bit word so that a move of H acts on whole words: the six turns of U and D
//! leave the slice edges in place, so the word moves unchanged to its new cell; each of R2,
//! L2, F2 and B2 swaps two slice edges, so the word's twelve bits are permuted by one lookup in
//! a 4,096-entry table. Packing the cells' 12 bits without the 4 spare ones (as Rokicki's
//! hcoset does, 2.44 GB a set) would save a quarter of the memory at the cost of unaligned
//! three-byte groups; at 3.25 GB a set, a run holds one set and a tenth of another (the
//! prepass's recycled blocks, `search::coset_set`) well within the 8 GB it is allowed.
//!
//! The layer edges are ranked as hcoset ranks them, by chunks, so that a move of H takes a
//! whole chunk onto one chunk: a move permutes the eight slots, so where the U-layer edges go
//! depends on where they are (the chunk) alone, and their order after it on the chunk and
//! their order before, and the same for the D-layer edges. A prepass then fills a chunk from
//! ten source chunks through two 24-entry tables each ([`ChunkMove`]), all of it in the first
//! level of cache; with the layer edges ranked as one arrangement of eight, each move needed a
//! 40,320-entry table of where every cell comes from, ten of them (800 KB) read beside the
//! data, and the prepass took 5.3 s a depth against hcoset's 2.4 s (reports/coset.md).

use crate::coord::{rank_arrangement, rank_combination, unrank_arrangement, unrank_combination};
use crate::model::cube::{Cube3, Move};
use crate::space::twophase::{
    corner_permutation, phase2_moves, slice_order, slice_order_of, with_corner_permutation,
    with_slice_order,
};

/// Corner permutations; also the layer-edge permutations.
pub const PERMUTATIONS: usize = 40_320;
/// Cells of a set: one per corner and layer-edge permutation.
pub const CELLS: usize = PERMUTATIONS * PERMUTATIONS;
/// Slice orders of one parity: the bits of a cell.
pub const BITS_PER_CELL: u32 = 12;
/// The elements of H.
pub const ELEMENTS: u64 = CELLS as u64 * BITS_PER_CELL as u64;
/// H's ten moves (U U2 U' R2 F2 D D2 D' L2 B2, as [`phase2_moves`]).
pub const MOVES: usize = 10;
/// Orders of four edges: of the U-layer edges among the slots they hold, and of the D-layer's.
pub const ORDERS: usize = 24;
/// Chunks of a block: the sets of four of the eight layer slots that hold the U-layer edges.
pub const CHUNKS: usize = 70;
/// Cells of a chunk: a U order and a D order each.
pub const CHUNK: usize = ORDERS * ORDERS;

/// The U-layer edges (in H they sit in the eight layer slots, the first four of which are the
/// U layer's, with the D-layer edges 4 to 7).
const U_EDGES: u8 = 4;

/// Where each piece of a position is, without its twist or flip: all that names an element of
/// H, and all that composing moves' permutations needs. Phase 1 of a coset search carries
/// these to its sequences' ends in place of whole positions: a move is twenty byte copies,
/// where a position's also adds twists and flips modulo 3 and 2 (a seventh of a search's
/// time, reports/coset.md). Slots 0 to 7 hold corners, 8 to 19 edges (each numbered 0 to 7
/// and 0 to 11, as in [`Cube3`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arrangement {
    pieces: [u8; 20],
}

/// What a move does to an [`Arrangement`]: slot `i` receives the piece of slot `from[i]`.
#[derive(Clone, Copy, Debug)]
pub struct SlotMove {
    from: [u8; 20],
}

impl SlotMove {
    pub fn of(m: Move) -> SlotMove {
        let cube = Cube3::SOLVED.apply(m);
        let mut from = [0u8; 20];
        from[..8].copy_from_slice(&cube.corners.perm);
        for (slot, &edge) in from[8..].iter_mut().zip(&cube.edges.perm) {
            *slot = edge + 8;
        }
        SlotMove { from }
    }
}

impl Arrangement {
    pub fn of(cube: &Cube3) -> Arrangement {
        let mut pieces = [0u8; 20];
        pieces[..8].copy_from_slice(&cube.corners.perm);
        pieces[8..].copy_from_slice(&cube.edges.perm);
        Arrangement { pieces }
    }

    /// The arrangement after `turn`.
    #[inline(always)]
    pub fn then(&self, turn: &SlotMove) -> Arrangement {
        Arrangement {
            pieces: std::array::from_fn(|slot| self.pieces[usize::from(turn.from[slot])]),
        }
    }
}

/// What a move of H does to a chunk of cells: the cell at U order `u` and D order `d` of the
/// destination chunk comes from `source`'s cell at U order `up[u]` and D order `down[d]`.
#[derive(Clone, Copy, Debug)]
pub struct ChunkMove {
    pub source: u8,
    pub up: [u8; ORDERS],
    pub down: [u8; ORDERS],
}

/// The rank of the layer edges of `cube`, an element of H (see the module's layout).
pub fn layer_rank(cube: &Cube3) -> u32 {
    layer_rank_of(&cube.edges.perm[..8], &|order| {
        rank_arrangement(&order, 4) as u8
    })
}

/// [`layer_rank`] of the edges in the eight layer slots, `slots`, each layer's order ranked
/// by `rank_order` from its four edges (numbered 0 to 3) in slot order. Without branches: in
/// a coset search whether an edge is the U layer's is a coin toss.
#[inline(always)]
fn layer_rank_of(slots: &[u8], rank_order: &impl Fn([u8; 4]) -> u8) -> u32 {
    let mut mask = 0u32;
    // Room for a write past the fourth edge of a layer, which the next edge overwrites or
    // nothing reads.
    let (mut up, mut down) = ([0u8; 8], [0u8; 8]);
    let (mut u, mut d) = (0, 0);
    for (slot, &edge) in slots[..8].iter().enumerate() {
        let is_up = edge < U_EDGES;
        up[u] = edge;
        down[d] = edge.wrapping_sub(U_EDGES);
        u += usize::from(is_up);
        d += usize::from(!is_up);
        mask |= u32::from(is_up) << slot;
    }
    let first_four = |edges: [u8; 8]| [edges[0], edges[1], edges[2], edges[3]];
    let chunk = rank_combination(mask) as u32;
    let (up, down) = (
        u32::from(rank_order(first_four(up))),
        u32::from(rank_order(first_four(down))),
    );
    (chunk * ORDERS as u32 + up) * ORDERS as u32 + down
}

/// A solved cube but for the layer edges of rank `rank` (see [`layer_rank`]).
pub fn with_layer_rank(rank: u32) -> Cube3 {
    let (chunk, up, down) = (
        rank / CHUNK as u32,
        rank / ORDERS as u32 % ORDERS as u32,
        rank % ORDERS as u32,
    );
    let mask = unrank_combination(u64::from(chunk), 4);
    let (mut ups, mut downs) = ([0u8; 4], [0u8; 4]);
    unrank_arrangement(u64::from(up), 4, &mut ups);
    unrank_arrangement(u64::from(down), 4, &mut downs);
    let mut cube = Cube3::default();
    let (mut u, mut d) = (0, 0);
    for slot in 0..8 {
        if mask >> slot & 1 == 1 {
            cube.edges.perm[slot] = ups[u];
            u += 1;
        } else {
            cube.edges.perm[slot] = downs[d] + U_EDGES;
            d += 1;
        }
    }
    cube
}

/// Where an element of H lives in a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub cell: u32,
    pub bit: u8,
}

impl Place {
    /// The element as a mask of its cell's word.
    pub fn mask(self) -> u16 {
        1 << self.bit
    }
}

/// What H's moves do to cells and bits, and where an element of H lives.
pub struct CosetSpace {
    /// Per move and corner permutation: the corner permutation after the move's inverse
    /// (`[turn * PERMUTATIONS + c]`), what a gather over a move's sources reads.
    corners_back: Vec<u16>,
    /// Per move and chunk (`[turn * CHUNKS + chunk]`): where its cells come from.
    chunk_moves: Vec<ChunkMove>,
    /// Per corner permutation rank: its parity.
    parity: Vec<u8>,
    /// Per chunk: the parity of its layer edges with both orders 0; an order's own parity
    /// adds to it (see [`CosetSpace::layer_parity`]).
    chunk_parity: [u8; CHUNKS],
    /// Per order of four edges: its parity.
    order_parity: [u8; ORDERS],
    /// Per four edges numbered 0 to 3 in slot order, two bits each (the first lowest): the
    /// rank of their order (entries that are no order are unused).
    order_rank: [u8; 256],
    /// Per slice order (0..24): its parity and its bit among the orders of that parity.
    slice_bit: [(u8, u8); 24],
    /// Per move, whether it keeps the slice edges in place (the turns of U and D).
    keeps_slice: [bool; MOVES],
    /// The corner permutations, those one orbit under the turns of U and D apart (16 each)
    /// next to each other: see [`CosetSpace::orbits`].
    orbits: Vec<u16>,
    /// Per move and the source's slice parity: the 12 bits of a source word moved to the
    /// destination's bits, by the word's value (`[(turn * 2 + parity) * 4096 + word]`).
    remap: Vec<u16>,
}

impl Default for CosetSpace {
    fn default() -> Self {
        CosetSpace::new()
    }
}

impl CosetSpace {
    pub fn new() -> CosetSpace {
        let moves = phase2_moves();
        let parity: Vec<u8> = (0..PERMUTATIONS as u32)
            .map(|r| u8::from(with_corner_permutation(r).corners.is_odd()))
            .collect();
        let layer_parity = |rank: u32| u8::from(with_layer_rank(rank).edges.is_odd());
        let chunk_parity = std::array::from_fn(|chunk| layer_parity((chunk * CHUNK) as u32));
        let order_parity = std::array::from_fn(|order| layer_parity(order as u32));
        let mut slice_bit = [(0u8, 0u8); 24];
        let mut of_parity = [0u8; 2];
        for (order, entry) in slice_bit.iter_mut().enumerate() {
            let p = u8::from(with_slice_order(order as u32).edges.is_odd());
            *entry = (p, of_parity[usize::from(p)]);
            of_parity[usize::from(p)] += 1;
        }
        let mut corners_back = vec![0u16; MOVES * PERMUTATIONS];
        for (turn, m) in moves.iter().enumerate() {
            for value in 0..PERMUTATIONS {
                let moved = with_corner_permutation(value as u32).apply(m.inverse());
                corners_back[turn * PERMUTATIONS + value] = corner_permutation(&moved) as u16;
            }
        }
        let chunk_moves = chunk_moves(&moves);
        let keeps_slice = std::array::from_fn(|turn| {
            (0..24).all(|order| slice_order(&with_slice_order(order).apply(moves[turn])) == order)
        });
        let mut remap = vec![0u16; MOVES * 2 * 4096];
        for (turn, m) in moves.iter().enumerate() {
            for parity in 0..2u8 {
                // The image of each single bit, then of every word as the union of its bits'.
                let mut single = [0u16; 12];
                for order in 0..24u32 {
                    let (p, bit) = slice_bit[order as usize];
                    if p == parity {
                        let after = slice_order(&with_slice_order(order).apply(*m));
                        single[usize::from(bit)] = 1 << slice_bit[after as usize].1;
                    }
                }
                let table = &mut remap[(turn * 2 + usize::from(parity)) * 4096..][..4096];
                for (word, image) in table.iter_mut().enumerate() {
                    *image = (0..12)
                        .filter(|b| word >> b & 1 == 1)
                        .fold(0, |acc, b| acc | single[b]);
                }
            }
        }
        let orbits = orbits(&corners_back, &keeps_slice);
        let order_rank = std::array::from_fn(|code| {
            let order: [u8; 4] = std::array::from_fn(|i| (code >> (2 * i) & 3) as u8);
            let distinct = (0..4).all(|i| (0..i).all(|j| order[i] != order[j]));
            if distinct {
                rank_arrangement(&order, 4) as u8
            } else {
                0
            }
        });
        CosetSpace {
            order_rank,
            orbits,
            corners_back,
            chunk_moves,
            parity,
            chunk_parity,
            order_parity,
            slice_bit,
            keeps_slice,
            remap,
        }
    }

    /// Where `cube`, an element of H, lives.
    #[inline]
    pub fn place(&self, cube: &Cube3) -> Place {
        self.place_of(&Arrangement::of(cube))
    }

    /// Where the element of H whose pieces lie as `pieces` lives.
    #[inline(always)]
    pub fn place_of(&self, pieces: &Arrangement) -> Place {
        let pieces = &pieces.pieces;
        let c = rank_arrangement(&pieces[..8], 8) as u32;
        let u = layer_rank_of(&pieces[8..16], &|order| {
            self.order_rank[usize::from(order[0] | order[1] << 2 | order[2] << 4 | order[3] << 6)]
        });
        let (_, bit) = self.slice_bit[slice_order_of(&pieces[16..]) as usize];
        Place {
            cell: c * PERMUTATIONS as u32 + u,
            bit,
        }
    }

    /// The element of H at `place` (its bit within range for the cell's parity).
    pub fn element(&self, place: Place) -> Cube3 {
        let (c, u) = (
            place.cell / PERMUTATIONS as u32,
            place.cell % PERMUTATIONS as u32,
        );
        let parity = self.parity[c as usize] ^ self.layer_parity(u as usize);
        let order = (0..24)
            .find(|&o| self.slice_bit[o] == (parity, place.bit))
            .unwrap_or(0);
        let mut cube = with_corner_permutation(c);
        cube.edges = with_layer_rank(u).edges;
        cube.edges.perm[8..].copy_from_slice(&with_slice_order(order as u32).edges.perm[8..]);
        cube
    }

    /// The corner permutation that move `turn` takes to `corners`.
    #[inline(always)]
    pub fn corners_before(&self, turn: usize, corners: usize) -> usize {
        usize::from(self.corners_back[turn * PERMUTATIONS + corners])
    }

    /// Where move `turn` takes the cells of chunk `chunk` from (in the block
    /// [`CosetSpace::corners_before`] names).
    #[inline(always)]
    pub fn chunk_move(&self, turn: usize, chunk: usize) -> &ChunkMove {
        &self.chunk_moves[turn * CHUNKS + chunk]
    }

    /// The parity of layer rank `rank`.
    #[inline(always)]
    pub fn layer_parity(&self, rank: usize) -> u8 {
        self.chunk_parity(rank / CHUNK)
            ^ self.order_parity(rank / ORDERS % ORDERS)
            ^ self.order_parity(rank % ORDERS)
    }

    /// The parity of a chunk's layer edges with both orders 0.
    #[inline(always)]
    pub fn chunk_parity(&self, chunk: usize) -> u8 {
        self.chunk_parity[chunk]
    }

    /// The parity of an order of four edges (the U or the D order of a layer rank).
    #[inline(always)]
    pub fn order_parity(&self, order: usize) -> u8 {
        self.order_parity[order]
    }

    /// The corner permutations in groups of 16, each group an orbit under the turns of U and
    /// D, in the order a prepass fills them. Six of a block's ten sources under H's moves lie
    /// in its own orbit, so a prepass that fills an orbit's blocks one after another reads
    /// those sources from cache. The order lets a prepass give each source block back soon:
    /// each next orbit is the one whose filling leaves the most source blocks with no reader
    /// to come (ties to a breadth-first order of the orbits' graph), which keeps at most
    /// 3,676 blocks (a tenth of a set) written while their sources wait for another reader;
    /// in the order of the ranks, 24,576 (see `search::coset_set`).
    pub fn orbits(&self) -> impl Iterator<Item = &[u16]> {
        self.orbits.chunks(ORBIT)
    }

    /// The corner permutations whose blocks the prepass reads to fill that of `corners`
    /// (itself, and its sources under H's moves), some perhaps twice.
    pub fn sources_of(&self, corners: usize) -> impl Iterator<Item = usize> + '_ {
        // H's moves are closed under inverses: a block's readers are its sources.
        std::iter::once(corners)
            .chain((0..MOVES).map(move |turn| self.corners_before(turn, corners)))
    }

    /// Whether move `turn` leaves every word's bits as they are.
    #[inline(always)]
    pub fn keeps_slice(&self, turn: usize) -> bool {
        self.keeps_slice[turn]
    }

    /// The parity of a corner permutation rank.
    #[inline(always)]
    pub fn parity(&self, rank: usize) -> u8 {
        self.parity[rank]
    }

    /// The twelve bits of a source word of slice parity `parity` after move `turn`, by the
    /// source word's.
    #[inline(always)]
    pub fn remap_table(&self, turn: usize, parity: u8) -> &[u16; 4096] {
        let start = (turn * 2 + usize::from(parity & 1)) * 4096;
        self.remap[start..start + 4096]
            .try_into()
            .expect("4096 entries per move and parity")
    }

    /// H's moves, in the order `turn` numbers refer to.
    pub fn moves() -> Vec<Move> {
        phase2_moves()
    }
}

/// What each move does to each chunk (see [`ChunkMove`]), found by moving every layer rank,
/// and checked to be a chunk-to-chunk map that moves the two orders independently.
fn chunk_moves(moves: &[Move]) -> Vec<ChunkMove> {
    let mut table = Vec::with_capacity(MOVES * CHUNKS);
    for m in moves {
        for chunk in 0..CHUNKS {
            let mut entry = ChunkMove {
                source: 0,
                up: [0; ORDERS],
                down: [0; ORDERS],
            };
            for up in 0..ORDERS {
                for down in 0..ORDERS {
                    let rank = (chunk * CHUNK + up * ORDERS + down) as u32;
                    let before = layer_rank(&with_layer_rank(rank).apply(m.inverse())) as usize;
                    let (source, from_up, from_down) =
                        (before / CHUNK, before / ORDERS % ORDERS, before % ORDERS);
                    if up == 0 && down == 0 {
                        entry.source = source as u8;
                    }
                    if down == 0 {
                        entry.up[up] = from_up as u8;
                    }
                    if up == 0 {
                        entry.down[down] = from_down as u8;
                    }
                    assert_eq!(
                        (source, from_up, from_down),
                        (
                            usize::from(entry.source),
                            usize::from(entry.up[up]),
                            usize::from(entry.down[down])
                        ),
                        "a move of H takes a chunk onto one chunk, each order on its own"
                    );
                }
            }
            table.push(entry);
        }
    }
    table
}

/// Corner permutations in an orbit of the turns of U and D.
const ORBIT: usize = 16;

/// The corner permutations orbit by orbit under the moves that keep the slice (U and D),
/// the orbits in the order [`CosetSpace::orbits`] describes.
fn orbits(corners_back: &[u16], keeps_slice: &[bool; MOVES]) -> Vec<u16> {
    let neighbours =
        |c: usize| (0..MOVES).map(move |turn| usize::from(corners_back[turn * PERMUTATIONS + c]));
    let mut orbit_of = vec![u16::MAX; PERMUTATIONS];
    let mut members = Vec::with_capacity(PERMUTATIONS);
    for start in 0..PERMUTATIONS {
        if orbit_of[start] != u16::MAX {
            continue;
        }
        let orbit = (members.len() / ORBIT) as u16;
        let first = members.len();
        orbit_of[start] = orbit;
        members.push(start as u16);
        let mut next = first;
        while next < members.len() {
            let c = usize::from(members[next]);
            next += 1;
            for (turn, d) in neighbours(c).enumerate() {
                if keeps_slice[turn] && orbit_of[d] == u16::MAX {
                    orbit_of[d] = orbit;
                    members.push(d as u16);
                }
            }
        }
        assert_eq!(
            members.len() - first,
            ORBIT,
            "an orbit of <U, D> on the corners"
        );
    }
    let readers = |c: usize| {
        let mut orbits: Vec<u16> = std::iter::once(c)
            .chain(neighbours(c))
            .map(|d| orbit_of[d])
            .collect();
        orbits.sort_unstable();
        orbits.dedup();
        orbits
    };
    let order = fill_order(&orbit_of, &readers);
    order
        .iter()
        .flat_map(|&orbit| &members[usize::from(orbit) * ORBIT..][..ORBIT])
        .copied()
        .collect()
}

/// The orbits in the order that frees the most blocks soonest (greedy): `readers(c)` names
/// the orbits that read block `c`, which is free once all of them are filled. Ties go to a
/// breadth-first order of the orbits' graph, so that the order stays near what it filled.
/// That tie-break is the queue's order of visits (Cuthill and McKee's ordering of a graph),
/// which the breadth-first engine (`crate::bfs`) does not keep: it gives distances, and ties
/// by distance then index leave 4,628 blocks waiting in a model of this graph (3,676 by the
/// visits; by index alone 20,232), so the few lines of queue here stay.
fn fill_order(orbit_of: &[u16], readers: &dyn Fn(usize) -> Vec<u16>) -> Vec<u16> {
    let orbits = PERMUTATIONS / ORBIT;
    let block_readers: Vec<Vec<u16>> = (0..PERMUTATIONS).map(readers).collect();
    let mut reads: Vec<Vec<u32>> = vec![Vec::new(); orbits];
    let mut graph: Vec<Vec<u16>> = vec![Vec::new(); orbits];
    for (block, readers) in block_readers.iter().enumerate() {
        for &orbit in readers {
            reads[usize::from(orbit)].push(block as u32);
            graph[usize::from(orbit_of[block])].push(orbit);
        }
    }
    let mut breadth_first = vec![u32::MAX; orbits];
    let mut queue = std::collections::VecDeque::from([0u16]);
    breadth_first[0] = 0;
    let mut placed = 1;
    while let Some(orbit) = queue.pop_front() {
        let mut next = graph[usize::from(orbit)].clone();
        next.sort_unstable();
        for neighbour in next {
            if breadth_first[usize::from(neighbour)] == u32::MAX {
                breadth_first[usize::from(neighbour)] = placed;
                placed += 1;
                queue.push_back(neighbour);
            }
        }
    }
    assert_eq!(
        placed as usize, orbits,
        "H's moves connect the corner permutations"
    );
    let mut left: Vec<u8> = block_readers.iter().map(|r| r.len() as u8).collect();
    let mut freeing = vec![0u32; orbits];
    let mut done = vec![false; orbits];
    let mut heap: std::collections::BinaryHeap<(u32, std::cmp::Reverse<u32>, u16)> = (0..orbits)
        .map(|o| (0, std::cmp::Reverse(breadth_first[o]), o as u16))
        .collect();
    let mut order = Vec::with_capacity(orbits);
    while let Some((frees, _, orbit)) = heap.pop() {
        let o = usize::from(orbit);
        if done[o] || frees != freeing[o] {
            continue;
        }
        done[o] = true;
        order.push(orbit);
        for &block in &reads[o] {
            let block = block as usize;
            left[block] -= 1;
            if left[block] == 1 {
                let last = block_readers[block]
                    .iter()
                    .copied()
                    .find(|&r| !done[usize::from(r)])
                    .expect("one reader left");
                let l = usize::from(last);
                freeing[l] += 1;
                heap.push((freeing[l], std::cmp::Reverse(breadth_first[l]), last));
            }
        }
    }
    order
}

/// Whether `cube` lies in H: every piece oriented, the E-slice edges in the E slice.
pub fn in_subgroup(cube: &Cube3) -> bool {
    cube.corners.ori.iter().all(|&o| o == 0)
        && cube.edges.ori.iter().all(|&o| o == 0)
        && cube.edges.perm[8..].iter().all(|&p| p >= 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::notation::parse_moves;

    fn element(moves: &str) -> Cube3 {
        Cube3::from_moves(&parse_moves(moves).expect("moves"))
    }

    /// The orbits hold every corner permutation once, each closed under the turns of U and D,
    /// and their order keeps few blocks waiting for a reader: filled in this order, at most a
    /// tenth of a set's blocks are written while a source of theirs still waits for another
    /// reader (the pool of blocks in `search::coset_set` holds them beside one set).
    #[test]
    fn the_orbits_fill_in_an_order_that_frees_blocks_soon() {
        let space = CosetSpace::new();
        let mut position = vec![usize::MAX; PERMUTATIONS];
        for (k, orbit) in space.orbits().enumerate() {
            assert_eq!(orbit.len(), ORBIT);
            for &c in orbit {
                assert_eq!(
                    std::mem::replace(&mut position[usize::from(c)], k),
                    usize::MAX
                );
            }
        }
        for c in 0..PERMUTATIONS {
            for turn in (0..MOVES).filter(|&t| space.keeps_slice(t)) {
                assert_eq!(position[space.corners_before(turn, c)], position[c]);
            }
        }
        let orbits = PERMUTATIONS / ORBIT;
        let mut freed_after = vec![0usize; orbits];
        for c in 0..PERMUTATIONS {
            let last = space.sources_of(c).map(|r| position[r]).max().unwrap_or(0);
            freed_after[last] += 1;
        }
        let (mut freed, mut waiting) = (0, 0);
        for (k, freed_now) in freed_after.iter().enumerate() {
            freed += freed_now;
            waiting = waiting.max((k + 1) * ORBIT - freed);
        }
        assert!(waiting <= PERMUTATIONS / 10, "{waiting} blocks waiting");
    }

    #[test]
    fn places_and_elements_are_inverse() {
        let space = CosetSpace::new();
        for moves in [
            "",
            "U",
            "R2 U D' F2",
            "U R2 D2 B2 L2 U' F2 D R2",
            "F2 U2 B2 D L2",
        ] {
            let cube = element(moves);
            assert!(in_subgroup(&cube), "{moves}");
            let place = space.place(&cube);
            assert!(place.bit < 12);
            assert_eq!(space.element(place), cube, "{moves}");
        }
    }

    /// Arrangements move as positions do, and name the places positions name: over 2,000
    /// elements of H along a walk of its moves, and every move of every position of a walk of
    /// all moves.
    #[test]
    fn arrangements_move_and_place_as_positions_do() {
        let space = CosetSpace::new();
        let (mut cube, mut element) = (Cube3::SOLVED, Cube3::SOLVED);
        let h = phase2_moves();
        for step in 0..2_000usize {
            for m in Move::all() {
                let moved = cube.apply(m);
                assert_eq!(
                    Arrangement::of(&cube).then(&SlotMove::of(m)),
                    Arrangement::of(&moved)
                );
            }
            cube = cube.apply(Move::from_index(step * 7 % Move::COUNT).expect("a move"));
            element = element.apply(h[step * step % h.len()]);
            let place = space.place_of(&Arrangement::of(&element));
            let c = corner_permutation(&element);
            assert_eq!(place.cell, c * PERMUTATIONS as u32 + layer_rank(&element));
            assert_eq!(space.element(place), element);
        }
    }

    #[test]
    fn layer_ranks_are_a_bijection_with_their_parities() {
        let space = CosetSpace::new();
        let mut seen = vec![false; PERMUTATIONS];
        for rank in 0..PERMUTATIONS as u32 {
            let cube = with_layer_rank(rank);
            assert_eq!(layer_rank(&cube), rank);
            assert!(!std::mem::replace(&mut seen[rank as usize], true));
            assert_eq!(
                space.layer_parity(rank as usize),
                u8::from(cube.edges.is_odd()),
                "{rank}"
            );
        }
    }

    #[test]
    fn moving_a_word_moves_each_element() {
        let space = CosetSpace::new();
        let moves = CosetSpace::moves();
        for start in ["", "R2 U F2", "U' L2 D B2 R2 D2"] {
            let cube = element(start);
            let from = space.place(&cube);
            for (turn, m) in moves.iter().enumerate() {
                let to = space.place(&cube.apply(*m));
                let (c, u) = (
                    to.cell as usize / PERMUTATIONS,
                    to.cell as usize % PERMUTATIONS,
                );
                let source_c = space.corners_before(turn, c);
                let step = space.chunk_move(turn, u / CHUNK);
                let source_u = usize::from(step.source) * CHUNK
                    + usize::from(step.up[u / ORDERS % ORDERS]) * ORDERS
                    + usize::from(step.down[u % ORDERS]);
                assert_eq!(source_c * PERMUTATIONS + source_u, from.cell as usize);
                let parity = space.parity(source_c) ^ space.layer_parity(source_u);
                let word = if space.keeps_slice(turn) {
                    from.mask()
                } else {
                    space.remap_table(turn, parity)[usize::from(from.mask())]
                };
                assert_eq!(word, to.mask(), "{start} then {m:?}");
            }
        }
    }
}
