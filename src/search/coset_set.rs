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
//!
//! The pool keeps the blocks known to be all zero (never handed out, or given back empty)
//! apart from the rest, so that a prepass gives a destination with nothing to gather a zero
//! block without writing it: in the first depths nearly every block is empty.

use crate::space::coset::{CELLS, PERMUTATIONS};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};

/// Bytes of one set: a 16-bit word per cell.
pub const SET_BYTES: u64 = CELLS as u64 * 2;

/// Blocks a prepass may hold beside a whole set: at most a tenth of a set's written while one
/// of their sources waits for another reader, in the order of
/// [`crate::space::coset::CosetSpace::orbits`] (tested there), and an orbit's (16) for each
/// thread filling one out of that order.
const WAITING: usize = PERMUTATIONS / 10;

/// Blocks of an orbit, which a thread of the prepass fills together.
const ORBIT_BLOCKS: usize = 16;

/// Room for the blocks of one set and those a prepass keeps waiting for a reader, in one
/// anonymous mapping asked to be backed by 2 MiB pages.
pub struct BlockPool {
    map: memmap2::MmapMut,
    /// The blocks the mapping holds.
    capacity: u32,
    free: Mutex<FreeBlocks>,
}

/// The blocks free to hand out, the next one last in each list.
struct FreeBlocks {
    /// All zero: never handed out (the system clears fresh pages), or given back empty.
    zero: Vec<u32>,
    /// Holding what their last set left.
    used: Vec<u32>,
}

/// No block: a set's corner permutation that has none yet.
const NO_BLOCK: u32 = u32::MAX;

impl BlockPool {
    /// The pool of a run whose prepasses fill blocks on `threads` threads; the error is the
    /// system's refusal of the memory.
    pub fn new(threads: usize) -> Result<BlockPool, std::io::Error> {
        let capacity = BlockPool::blocks(threads);
        let map = memmap2::MmapMut::map_anon(capacity * PERMUTATIONS * 2)?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let capacity = u32::try_from(capacity).expect("fewer blocks than 2^32");
        // In order of address, the lowest handed out first.
        let zero = (0..capacity).rev().collect();
        Ok(BlockPool {
            map,
            capacity,
            free: Mutex::new(FreeBlocks {
                zero,
                used: Vec::new(),
            }),
        })
    }

    /// Whether this pool holds the blocks a run on `threads` threads needs.
    pub fn fits(&self, threads: usize) -> bool {
        self.capacity as usize == BlockPool::blocks(threads)
    }

    /// Makes every block free and zero again, for another run: the blocks not known to be
    /// zero are cleared, in parallel. In a virtual machine, clearing memory a process already
    /// holds costs a fraction of the first touch of fresh pages (the kernel's clearing of a
    /// new set's 3.6 GB took 14 s of the 30 s of CPU of a coset run to depth 9 here), so a
    /// solver that runs many cosets keeps one pool. No set borrows the pool (`&mut self`), so
    /// a block some set still held when it was dropped is simply cleared.
    pub fn reset(&mut self) {
        let free = self
            .free
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut zero = vec![false; self.capacity as usize];
        for &block in &free.zero {
            zero[block as usize] = true;
        }
        use rayon::prelude::*;
        self.map
            .par_chunks_mut(PERMUTATIONS * 2)
            .zip(zero)
            .filter(|(_, zero)| !zero)
            .for_each(|(block, _)| block.fill(0));
        free.zero = (0..self.capacity).rev().collect();
        free.used.clear();
    }

    /// The blocks a pool for `threads` threads holds.
    fn blocks(threads: usize) -> usize {
        PERMUTATIONS + WAITING + ORBIT_BLOCKS * threads.max(1)
    }

    /// The bytes a pool for `threads` threads maps.
    pub fn bytes(threads: usize) -> u64 {
        (BlockPool::blocks(threads) * PERMUTATIONS * 2) as u64
    }

    /// The words of block `block`.
    #[inline(always)]
    fn block(&self, block: u32) -> &[AtomicU16] {
        assert!(block < self.capacity, "a block of the pool");
        // SAFETY: the mapping is page-aligned and holds `capacity` blocks of `PERMUTATIONS`
        // cells, two bytes a cell, and lives as long as `self`; `block` is one of them.
        // `AtomicU16` has the size and alignment of `u16`, and every access to the mapping
        // goes through such a view while it is shared.
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

    fn free(&self) -> MutexGuard<'_, FreeBlocks> {
        self.free
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A block to fill whole: a used one where there is one, to keep the zero ones.
    fn take(&self) -> u32 {
        let mut free = self.free();
        free.used
            .pop()
            .or_else(|| free.zero.pop())
            .expect("the pool holds a set and a prepass's waiting blocks")
    }

    /// A block of zeros: one known to be, or else a used one cleared.
    fn take_zero(&self) -> u32 {
        let mut free = self.free();
        if let Some(block) = free.zero.pop() {
            return block;
        }
        let block = free
            .used
            .pop()
            .expect("the pool holds a set and a prepass's waiting blocks");
        drop(free);
        for word in self.block(block) {
            word.store(0, Relaxed);
        }
        block
    }

    /// Gives `block` back, among the zero ones if `zero`.
    fn give_back(&self, block: u32, zero: bool) {
        let mut free = self.free();
        if zero {
            free.zero.push(block);
        } else {
            free.used.push(block);
        }
    }
}

/// A set of elements of H: per corner permutation, a block of the pool (a word per cell) or
/// none, and whether anything in it is marked.
pub struct CellSet<'p> {
    pool: &'p BlockPool,
    blocks: Vec<AtomicU32>,
    /// Per corner permutation: whether any of its cells is marked, so that the prepass skips
    /// empty sources (nearly all of them at the first depths). A block with nothing marked
    /// is all zero.
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

    /// The empty set.
    pub fn empty(pool: &'p BlockPool) -> CellSet<'p> {
        let set = CellSet::without_blocks(pool);
        for block in &set.blocks {
            block.store(pool.take_zero(), Relaxed);
        }
        set
    }

    /// The cells of corner permutation `corners`; it has a block.
    #[inline(always)]
    pub fn block(&self, corners: usize) -> &[AtomicU16] {
        self.pool.block(self.blocks[corners].load(Relaxed))
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
        self.place_block(corners, self.pool.take())
    }

    /// Gives corner permutation `corners` a block of zeros from the pool: nothing marked.
    pub fn take_empty_block(&self, corners: usize) {
        self.place_block(corners, self.pool.take_zero());
        self.set_occupied(corners, false);
    }

    fn place_block(&self, corners: usize, block: u32) -> &[AtomicU16] {
        let before = self.blocks[corners].swap(block, Relaxed);
        assert_eq!(before, NO_BLOCK, "a block is taken once a set");
        self.pool.block(block)
    }

    /// Gives the block of `corners` back to the pool: nothing reads it any more. The caller
    /// has ordered every read of it before this (the prepass's reader counts).
    pub fn give_back(&self, corners: usize) {
        let block = self.blocks[corners].swap(NO_BLOCK, Relaxed);
        assert_ne!(block, NO_BLOCK, "a block is given back once");
        self.pool.give_back(block, !self.is_occupied(corners));
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

    /// Blocks given back are handed out again before fresh ones, a set's words are its
    /// blocks' words, and a destination that needs zeros gets a zero block, given back empty
    /// or cleared.
    #[test]
    fn blocks_go_round() {
        let pool = BlockPool::new(1).expect("room for the mapping");
        let old = CellSet::empty(&pool);
        old.word(5).store(7, Relaxed);
        old.set_occupied(0, true);
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
        let empty = old.block(1).as_ptr();
        old.give_back(1);
        new.take_empty_block(5);
        assert_eq!(
            new.block(5).as_ptr(),
            empty,
            "an empty block, among the zero ones"
        );
        new.set_occupied(4, true);
        new.give_back(4);
        pool.free().zero.clear();
        new.take_empty_block(6);
        assert_eq!(new.block(6).as_ptr(), reused.as_ptr());
        assert!(new.block(6).iter().all(|word| word.load(Relaxed) == 0));
    }

    /// A pool reset after a run (its sets dropped holding blocks, some written) hands out
    /// every block again, each all zero.
    #[test]
    fn a_reset_pool_is_all_zero_again() {
        let mut pool = BlockPool::new(1).expect("room for the mapping");
        {
            let set = CellSet::empty(&pool);
            set.word(9).store(3, Relaxed);
            set.set_occupied(0, true);
            set.give_back(0);
            let other = CellSet::without_blocks(&pool);
            other.take_block(2)[7].store(5, Relaxed);
        }
        pool.reset();
        assert!(pool.fits(1));
        let free = pool.free();
        assert_eq!(free.zero.len(), pool.capacity as usize);
        assert!(free.used.is_empty());
        drop(free);
        let set = CellSet::empty(&pool);
        assert!(set.words().all(|word| word.load(Relaxed) == 0));
    }
}
