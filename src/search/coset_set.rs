//! The coset search's sets of elements of H, a block of cells per corner permutation, the
//! blocks drawn from one pool of memory.
//!
//! A prepass reads one set and writes the next. Two whole sets would hold 6.5 GB, and the
//! second one's pages would be cleared by the kernel on first touch: in a virtual machine
//! that first touch costs more than the prepass itself (2–3 s a set on the project's machine,
//! reports/coset.md). So the sets share a pool of blocks: the prepass fills the orbits of
//! blocks in an order that lets it give each block of the old set back as soon as the last
//! block that reads it is written, and takes the new set's blocks from those given back
//! (Rokicki's hcoset recycles its pages the same way). A run holds one set and the blocks
//! still waiting for a reader, about a tenth of a set more (see
//! [`crate::space::coset::CosetSpace::orbits`]).

use super::coset::CosetError;
use crate::space::coset::{CELLS, PERMUTATIONS};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, Ordering::Relaxed};

/// Bytes of one set: a 16-bit word per cell.
pub const SET_BYTES: u64 = CELLS as u64 * 2;

/// Room for the blocks of two whole sets, in one anonymous mapping asked to be backed by
/// 2 MiB pages; only the blocks ever handed out are touched, so its resident part is one
/// set and the prepass's window. Handing out the blocks given back first keeps it so.
pub struct BlockPool {
    map: memmap2::MmapMut,
    /// The blocks free to hand out, the next one last.
    free: Mutex<Vec<u32>>,
}

/// No block: a set's corner permutation that has none yet.
const NO_BLOCK: u32 = u32::MAX;

impl BlockPool {
    pub fn new() -> Result<BlockPool, CosetError> {
        let map =
            memmap2::MmapMut::map_anon(2 * SET_BYTES as usize).map_err(CosetError::Allocation)?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        // Blocks in order of address, the lowest handed out first.
        let free = (0..2 * PERMUTATIONS as u32).rev().collect();
        Ok(BlockPool {
            map,
            free: Mutex::new(free),
        })
    }

    /// The words of block `block`.
    #[inline(always)]
    fn block(&self, block: u32) -> &[AtomicU16] {
        // SAFETY: the mapping is page-aligned and `2 * SET_BYTES` long, two bytes a cell and
        // `2 * PERMUTATIONS` blocks of `PERMUTATIONS` cells, and lives as long as `self`;
        // `AtomicU16` has the size and alignment of `u16`, and every access to the mapping
        // goes through such a view while it is shared. `block` comes from `take`, below the
        // pool's count.
        unsafe {
            std::slice::from_raw_parts(
                self.map
                    .as_ptr()
                    .cast::<AtomicU16>()
                    .add(block as usize * PERMUTATIONS),
                PERMUTATIONS,
            )
        }
    }

    /// A block to fill; its words are whatever its last set left there.
    fn take(&self) -> u32 {
        self.free
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop()
            .expect("the pool holds two sets' blocks")
    }

    fn give_back(&self, block: u32) {
        self.free
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(block);
    }
}

/// A set of elements of H: per corner permutation, a block of the pool (a word per cell) or
/// none, and whether anything in it is marked.
pub struct CellSet<'p> {
    pool: &'p BlockPool,
    blocks: Vec<AtomicU32>,
    /// Per corner permutation: whether any of its cells is marked, so that the prepass skips
    /// empty sources (nearly all of them at the first depths).
    occupied: Vec<AtomicBool>,
}

impl<'p> CellSet<'p> {
    /// A set with no blocks, for a prepass to fill.
    pub fn without_blocks(pool: &'p BlockPool) -> CellSet<'p> {
        CellSet {
            pool,
            blocks: (0..PERMUTATIONS)
                .map(|_| AtomicU32::new(NO_BLOCK))
                .collect(),
            occupied: (0..PERMUTATIONS).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// The empty set, every block taken from a pool that has handed out none (so cleared by
    /// the system).
    pub fn empty(pool: &'p BlockPool) -> CellSet<'p> {
        let set = CellSet::without_blocks(pool);
        for block in &set.blocks {
            let taken = pool.take();
            assert!(
                taken < PERMUTATIONS as u32,
                "an empty set comes first from its pool"
            );
            block.store(taken, Relaxed);
        }
        set
    }

    /// The cells of corner permutation `corners`; it has a block.
    #[inline(always)]
    pub fn block(&self, corners: usize) -> &[AtomicU16] {
        let block = self.blocks[corners].load(Relaxed);
        debug_assert_ne!(block, NO_BLOCK, "corner permutation {corners} has a block");
        self.pool.block(block)
    }

    /// The word of cell `cell`; its block is there.
    #[inline(always)]
    pub fn word(&self, cell: u32) -> &AtomicU16 {
        let cell = cell as usize;
        &self.block(cell / PERMUTATIONS)[cell % PERMUTATIONS]
    }

    /// Asks for the cache line of cell `cell`'s word; its block is there.
    #[inline(always)]
    pub fn prefetch(&self, cell: u32) {
        let cell = cell as usize;
        crate::support::prefetch(self.block(cell / PERMUTATIONS), cell % PERMUTATIONS);
    }

    /// Every cell's word, in order of cell.
    pub fn words(&self) -> impl Iterator<Item = &AtomicU16> {
        (0..PERMUTATIONS).flat_map(|corners| self.block(corners))
    }

    /// Gives corner permutation `corners` a block from the pool, to be filled whole.
    pub fn take_block(&self, corners: usize) -> &[AtomicU16] {
        let block = self.pool.take();
        let before = self.blocks[corners].swap(block, Relaxed);
        assert_eq!(before, NO_BLOCK, "a block is taken once a set");
        self.pool.block(block)
    }

    /// Gives the block of `corners` back to the pool: nothing reads it any more.
    pub fn give_back(&self, corners: usize) {
        let block = self.blocks[corners].swap(NO_BLOCK, Relaxed);
        assert_ne!(block, NO_BLOCK, "a block is given back once");
        self.pool.give_back(block);
    }

    pub fn is_occupied(&self, corners: usize) -> bool {
        self.occupied[corners].load(Relaxed)
    }

    /// Records whether `corners` has anything marked.
    pub fn set_occupied(&self, corners: usize, occupied: bool) {
        if self.occupied[corners].load(Relaxed) != occupied {
            self.occupied[corners].store(occupied, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks given back are handed out again before fresh ones, and a set's words are its
    /// blocks' words.
    #[test]
    fn blocks_go_round() {
        let pool = BlockPool::new().expect("room for the mapping's addresses");
        let old = CellSet::empty(&pool);
        old.word(5).store(7, Relaxed);
        assert_eq!(old.block(0)[5].load(Relaxed), 7);
        let new = CellSet::without_blocks(&pool);
        let first = new.take_block(3).as_ptr();
        old.give_back(0);
        let reused = new.take_block(4);
        assert_eq!(
            reused[5].load(Relaxed),
            7,
            "the block given back, as it was left"
        );
        assert_ne!(first, reused.as_ptr());
        assert_eq!(new.word((4 * PERMUTATIONS + 5) as u32).load(Relaxed), 7);
    }
}
