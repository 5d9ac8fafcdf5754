//! Ranked state spaces: what the breadth-first engine fills tables over and searches walk.

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

/// Hints that `items[index]` will be read soon, so a search can overlap memory latencies. A hint
/// only: it never changes a result. The index is not checked (the search prefetches several
/// entries per node, and a prefetch of any address is harmless).
#[inline]
pub fn prefetch<T>(items: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let address = items.as_ptr().wrapping_add(index);
        // SAFETY: a prefetch never faults and reads nothing, whatever the address.
        unsafe {
            std::arch::x86_64::_mm_prefetch(address.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, index);
}
