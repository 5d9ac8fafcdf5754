//! Ranked state spaces: what the breadth-first engine fills tables over and searches walk. The
//! traits are here; each module below is one family of spaces over the model's coordinates.

pub mod corner_classes;
pub mod corners;
pub mod coset;
pub mod defined;
pub mod edges;
pub mod goal;
pub mod group;
pub mod h48;
pub mod masks;
pub mod phase1;
pub mod pocket;
pub mod stages;
pub mod sym_rows;
pub mod twisted;
pub mod twophase;
pub mod ud;

use crate::model::cube::Move;

/// States ranked `0..`, with numbered moves between them. The move set is closed under inverses,
/// so the neighbours of a state are also the states it can be reached from, and a distance table
/// over the space changes by at most one along any move.
pub trait MoveSpace {
    fn move_count(&self) -> usize;
    /// The state reached from `state` by move number `turn` (`turn < move_count()`).
    fn apply(&self, state: u64, turn: usize) -> u64;
}

/// A whole space to enumerate: its size and where distance 0 is.
pub trait StateSpace: MoveSpace + Sync {
    /// Number of states; ranks are `0..size()`.
    fn size(&self) -> u64;
    /// The states at distance 0.
    fn goals(&self) -> Vec<u64>;

    /// How many states the search reaches: all of them, unless the space encloses a smaller
    /// set (a subgroup inside the product of its images). The search stops once it has them.
    fn reachable(&self) -> u64 {
        self.size()
    }

    /// Whether a pass may scan the unreached states for a neighbour on the frontier instead of
    /// expanding the frontier (see [`crate::bfs`]). That needs every move's inverse to be a
    /// move (a state's neighbours are then the states it is reached from), and pays only where
    /// nearly every state is reached in the end.
    fn may_search_backward(&self) -> bool {
        true
    }

    /// Whether nine ranks in ten or more are reachable states: where fewer are, a backward
    /// pass would scan the never-reached ranks at every pass (the rule of the spaces whose
    /// ranking is a superset: partial goals, definitions).
    fn nearly_all_reachable(&self) -> bool {
        self.reachable() as f64 >= 0.9 * self.size() as f64
    }

    /// Whether some states are the same state under another rank (see
    /// [`StateSpace::representative`]).
    fn has_duplicates(&self) -> bool {
        false
    }

    /// The rank that stands for `state`: `state` itself unless the space ranks one state
    /// several ways (a symmetry-reduced space whose representative is fixed by a symmetry),
    /// then the smallest of them. [`MoveSpace::apply`] returns representatives only.
    fn representative(&self, state: u64) -> u64 {
        state
    }
}

/// A space laid out in rows of equal length, in which every move takes a whole row into one row
/// and moves the positions of the row by a map that a [`RowSpace::Step`] describes. The
/// breadth-first engine then works a row at a time: it finds the row's frontier once, and each
/// move writes into one destination row, which stays in cache, instead of decoding every state
/// and jumping across the whole table (see [`crate::bfs::breadth_first_rows`]).
///
/// State `row x row_len() + position` is position `position` of row `row`, and stepping must
/// agree with [`MoveSpace::apply`]: `apply(row x len + p, turn) == dest x len +
/// position(step, p)` where `(dest, step) = step(row, turn)`, representatives included.
pub trait RowSpace: StateSpace {
    /// What a move does to the positions of one row.
    type Step: Copy;
    /// Positions per row; `size()` is a multiple of it, and it fits in a `u32`. The row pass
    /// needs a multiple of four, so that no byte of a table holds two rows.
    fn row_len(&self) -> u64;
    /// The row move `turn` takes row `row` to, and how it moves the positions.
    fn step(&self, row: u64, turn: usize) -> (u64, Self::Step);
    /// Where position `position` lands in the destination row of `step` (a representative).
    fn position(&self, step: Self::Step, position: u32) -> u32;

    /// Whether some positions of row `row` are not representatives (see
    /// [`StateSpace::representative`]).
    fn row_has_duplicates(&self, _row: u64) -> bool {
        false
    }

    /// [`StateSpace::representative`] of position `position` of row `row`, as a position of
    /// the same row.
    fn row_representative(&self, _row: u64, position: u32) -> u32 {
        position
    }
}

pub use crate::support::prefetch;

/// A move table for one part of a coordinate: entry `part * moves.len() + turn` is the part's
/// value after move `turn` from a state whose part is `part`. `state_of` builds a representative
/// state for a part value, `value_of` reads the part (and any data the table carries) back.
/// Built in parallel: the 7-edge table has 72 million entries.
pub(crate) fn move_table<S, T>(
    parts: u64,
    moves: &[Move],
    state_of: impl Fn(u64) -> S + Sync,
    apply: impl Fn(&S, Move) -> S + Sync,
    value_of: impl Fn(&S) -> u64 + Sync,
) -> Vec<T>
where
    T: TryFrom<u64> + Send + Default + Copy,
{
    use rayon::prelude::*;
    let mut table = vec![T::default(); parts as usize * moves.len()];
    table
        .par_chunks_mut(moves.len())
        .enumerate()
        .for_each(|(part, row)| {
            let state = state_of(part as u64);
            for (slot, &m) in row.iter_mut().zip(moves) {
                let value = value_of(&apply(&state, m));
                *slot = T::try_from(value)
                    .unwrap_or_else(|_| panic!("move table value {value} does not fit"));
            }
        });
    table
}
