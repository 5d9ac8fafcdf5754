//! One chunk of the coset search's prepass: the union of a chunk's sources under H's moves.
//!
//! The prepass (see [`super::coset`]) fills each chunk of the new set (576 cells, one set of
//! slots for the U-layer edges; [`crate::space::coset`]) from its sources in the old one: the
//! ten chunks that H's moves take onto it, each through a [`ChunkMove`]. A destination row (the
//! 24 cells of one U order) comes from one row of each source, its cells taken in the order of
//! the move's D-order table; a half turn of R, L, F or B also permutes each cell's twelve bits,
//! in one of two ways by the cell's slice parity.
//!
//! Two kernels do this and give the same words. The portable one moves a cell at a time, the
//! bits by a 4,096-entry table. Where the processor has AVX-512 (BW), a row is one register of
//! 32 sixteen-bit lanes: a source row is loaded (24 lanes, masked) and put in the
//! destination's order by one permutation instruction, and a half turn's bits are moved by
//! three more, one a nibble, each looking up the nibble's image in a 32-entry table held in a
//! register (16 images for each parity; a lane's parity picks its half). The portable kernel
//! makes about twelve instructions a cell and source, the vector one about a twentieth of
//! that (reports/coset.md measures both).

use crate::space::coset::{CHUNK, ChunkMove, MOVES, ORDERS};
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

/// What a half turn does to a cell's twelve bits, by the source cell's slice parity.
pub struct BitMoves<'a> {
    /// `[parity]`: the destination bits of every source word.
    pub tables: [&'a [u16; 4096]; 2],
    /// `[nibble][parity * 16 + value]`: the image of nibble `nibble` of value `value`; a word's
    /// image is the union of its three nibbles'.
    pub nibbles: &'a [[u16; 32]; 3],
}

/// One source of a destination chunk.
pub struct Source<'a> {
    /// The source chunk's cells (576).
    pub cells: &'a [AtomicU16],
    pub step: &'a ChunkMove,
    /// For a half turn, how it moves the bits; `None` for a turn of U or D, which keeps them.
    pub bits: Option<BitMoves<'a>>,
}

/// Which destination cells' sources have slice parity 1 under a half turn: the cell at U
/// order `u` and D order `d` where `base ^ order_parity[u] ^ order_parity[d]` is 1.
#[derive(Clone, Copy)]
pub struct Parities<'a> {
    pub base: u8,
    pub order_parity: &'a [u8; ORDERS],
}

impl Parities<'_> {
    #[inline(always)]
    fn of(&self, up: usize, down: usize) -> usize {
        usize::from((self.base ^ self.order_parity[up] ^ self.order_parity[down]) & 1)
    }
}

/// The images of each nibble of a word under `tables` (see [`BitMoves::nibbles`]).
pub fn nibble_images(tables: [&[u16; 4096]; 2]) -> [[u16; 32]; 3] {
    std::array::from_fn(|nibble| std::array::from_fn(|i| tables[i / 16][(i % 16) << (4 * nibble)]))
}

/// Which kernel the processor runs. Only [`Kernel::detect`] makes one that names the vector
/// kernel, so a safe call can never reach AVX-512 instructions on a processor without them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// AVX-512 F and BW, found at run time.
    avx512: bool,
}

impl Kernel {
    /// The portable kernel, which every processor runs.
    pub const PORTABLE: Kernel = Kernel { avx512: false };

    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            return Kernel { avx512: true };
        }
        Kernel::PORTABLE
    }

    /// Writes into `target` (a chunk's 576 cells) the union of `own` (the chunk's old cells,
    /// if they are a source) and each source moved; returns the elements written.
    pub fn gather(
        self,
        target: &[AtomicU16],
        own: Option<&[AtomicU16]>,
        sources: &[Source<'_>],
        parities: Parities<'_>,
    ) -> u64 {
        assert!(target.len() == CHUNK && own.is_none_or(|own| own.len() == CHUNK));
        assert!(sources.len() <= MOVES && sources.iter().all(|s| s.cells.len() == CHUNK));
        #[cfg(target_arch = "x86_64")]
        if self.avx512 {
            // SAFETY: `avx512` is only set by `detect`, where the processor was found to have
            // AVX-512 F and BW; the lengths were checked above.
            return unsafe { avx512::gather(target, own, sources, parities) };
        }
        gather_portable(target, own, sources, parities)
    }
}

/// A cell at a time, a row of each source after another; the row's words stay in registers.
fn gather_portable(
    target: &[AtomicU16],
    own: Option<&[AtomicU16]>,
    sources: &[Source<'_>],
    parities: Parities<'_>,
) -> u64 {
    let mut count = 0u64;
    let mut row = [0u16; ORDERS];
    for up in 0..ORDERS {
        let cells = up * ORDERS..(up + 1) * ORDERS;
        match own {
            Some(own) => {
                for (word, cell) in row.iter_mut().zip(&own[cells.clone()]) {
                    *word = cell.load(Relaxed);
                }
            }
            None => row.fill(0),
        }
        for source in sources {
            let from = &source.cells[usize::from(source.step.up[up]) * ORDERS..][..ORDERS];
            let down = &source.step.down;
            match &source.bits {
                None => {
                    for (word, &d) in row.iter_mut().zip(down) {
                        *word |= from[usize::from(d)].load(Relaxed);
                    }
                }
                Some(bits) => {
                    for (i, (word, &d)) in row.iter_mut().zip(down).enumerate() {
                        let table = bits.tables[parities.of(up, i)];
                        *word |= table[usize::from(from[usize::from(d)].load(Relaxed) & 0xfff)];
                    }
                }
            }
        }
        for (cell, &word) in target[cells].iter().zip(&row) {
            cell.store(word, Relaxed);
            count += u64::from(word.count_ones());
        }
    }
    count
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{CHUNK, MOVES, ORDERS, Parities, Source};
    use std::arch::x86_64::*;
    use std::sync::atomic::AtomicU16;

    /// The 24 lanes of a row.
    const ROW: __mmask32 = (1 << ORDERS) - 1;

    /// A source made ready for a chunk: its D-order table as lane indices, and a half turn's
    /// nibble tables in registers.
    struct Ready {
        cells: *const u16,
        up: [u8; ORDERS],
        down: __m512i,
        nibbles: Option<[__m512i; 3]>,
    }

    /// [`super::gather_portable`], a row in a register.
    ///
    /// # Safety
    /// The processor has AVX-512 F and BW; `target`, `own` and every source hold [`CHUNK`]
    /// cells. While this runs no thread writes the sources or `own`, and none but the caller
    /// touches `target` (the prepass reads the old set only, gives an old block back to the
    /// pool only once every block that reads it is written, its reader count ordering those
    /// reads first, and fills each block of the new one on one thread).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn gather(
        target: &[AtomicU16],
        own: Option<&[AtomicU16]>,
        sources: &[Source<'_>],
        parities: Parities<'_>,
    ) -> u64 {
        debug_assert!(target.len() == CHUNK);
        let mut ready = [const { None }; MOVES];
        for (slot, s) in ready.iter_mut().zip(sources) {
            *slot = Some(Ready {
                cells: s.cells.as_ptr().cast::<u16>(),
                up: s.step.up,
                // SAFETY: 24 bytes of `down` are read, the mask's lanes.
                down: _mm512_cvtepu8_epi16(unsafe {
                    _mm256_maskz_loadu_epi8(ROW, s.step.down.as_ptr().cast())
                }),
                nibbles: s.bits.as_ref().map(|b| {
                    // SAFETY: each table is 32 sixteen-bit values, one register.
                    b.nibbles
                        .map(|table| unsafe { _mm512_loadu_si512(table.as_ptr().cast()) })
                }),
            });
        }
        let ready = &ready[..sources.len()];
        // Per lane (D order), 16 where its order is odd: the upper half of a nibble table.
        let odd_downs: [u16; 32] = std::array::from_fn(|d| {
            if d < ORDERS {
                u16::from(parities.order_parity[d] & 1) * 16
            } else {
                0
            }
        });
        // SAFETY: 32 values, one register.
        let odd_downs = unsafe { _mm512_loadu_si512(odd_downs.as_ptr().cast()) };
        let (low_nibble, sixteen) = (_mm512_set1_epi16(0xf), _mm512_set1_epi16(16));
        let target = target.as_ptr().cast::<u16>().cast_mut();
        let own = own.map(|own| own.as_ptr().cast::<u16>());
        let mut count = _mm512_setzero_si512();
        for up in 0..ORDERS {
            let offset = up * ORDERS;
            let mut row = match own {
                // SAFETY: row `up` of a chunk, 24 lanes in its bounds.
                Some(own) => unsafe { _mm512_maskz_loadu_epi16(ROW, own.add(offset).cast()) },
                None => _mm512_setzero_si512(),
            };
            let odd_row = (parities.base ^ parities.order_parity[up]) & 1 == 1;
            let halves = if odd_row {
                _mm512_xor_si512(odd_downs, sixteen)
            } else {
                odd_downs
            };
            for source in ready.iter().flatten() {
                let from = usize::from(source.up[up]) * ORDERS;
                // SAFETY: row `up[up]` (below 24) of a source chunk, 24 lanes in its bounds.
                let cells = unsafe { _mm512_maskz_loadu_epi16(ROW, source.cells.add(from).cast()) };
                let mut moved = _mm512_permutexvar_epi16(source.down, cells);
                if let Some(nibbles) = &source.nibbles {
                    let mut bits = _mm512_setzero_si512();
                    for (k, table) in nibbles.iter().enumerate() {
                        let shifted = _mm512_srlv_epi16(moved, _mm512_set1_epi16(4 * k as i16));
                        let index = _mm512_or_si512(_mm512_and_si512(shifted, low_nibble), halves);
                        bits = _mm512_or_si512(bits, _mm512_permutexvar_epi16(index, *table));
                    }
                    moved = bits;
                }
                row = _mm512_or_si512(row, moved);
            }
            // SAFETY: row `up` of the target chunk, 24 lanes in its bounds; nothing else
            // touches the target meanwhile (see the function's contract).
            unsafe { _mm512_mask_storeu_epi16(target.add(offset).cast(), ROW, row) };
            count = _mm512_add_epi64(count, popcount_bytes(_mm512_maskz_mov_epi16(ROW, row)));
        }
        _mm512_reduce_add_epi64(count) as u64
    }

    /// The bits set in each group of eight bytes, as eight 64-bit lanes (a nibble table in
    /// each 128-bit lane, then the bytes summed).
    #[target_feature(enable = "avx512f,avx512bw")]
    fn popcount_bytes(v: __m512i) -> __m512i {
        let table = _mm512_broadcast_i32x4(_mm_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
        ));
        let low = _mm512_set1_epi8(0x0f);
        let lo = _mm512_shuffle_epi8(table, _mm512_and_si512(v, low));
        let hi = _mm512_shuffle_epi8(table, _mm512_and_si512(_mm512_srli_epi16(v, 4), low));
        _mm512_sad_epu8(_mm512_add_epi8(lo, hi), _mm512_setzero_si512())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::coset::{CHUNKS, CosetSpace, MOVES};

    /// A small deterministic generator (xorshift), so the test needs no seed crate.
    fn words(seed: &mut u64, n: usize, density: u32) -> Vec<AtomicU16> {
        (0..n)
            .map(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                let word = (*seed & 0xfff) as u16;
                AtomicU16::new(if (*seed >> 20) as u32 % 4 < density {
                    word
                } else {
                    0
                })
            })
            .collect()
    }

    #[test]
    fn the_kernels_write_the_same_words() {
        let kernel = Kernel::detect();
        if kernel == Kernel::PORTABLE {
            eprintln!("no AVX-512 here: only the portable kernel runs");
        }
        let space = CosetSpace::new();
        let order_parity: [u8; ORDERS] = std::array::from_fn(|o| space.order_parity(o));
        let nibbles: Vec<[[u16; 32]; 3]> = (0..MOVES)
            .map(|turn| nibble_images([space.remap_table(turn, 0), space.remap_table(turn, 1)]))
            .collect();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for trial in 0..40 {
            let chunk = trial * 7 % CHUNKS;
            let density = 1 + trial as u32 % 4;
            let blocks: Vec<Vec<AtomicU16>> = (0..MOVES)
                .map(|_| words(&mut seed, CHUNK, density))
                .collect();
            let own = words(&mut seed, CHUNK, density);
            let sources: Vec<Source> = (0..MOVES)
                .filter(|turn| (trial + turn) % 3 != 0)
                .map(|turn| Source {
                    cells: &blocks[turn],
                    step: space.chunk_move(turn, chunk),
                    bits: (!space.keeps_slice(turn)).then(|| BitMoves {
                        tables: [space.remap_table(turn, 0), space.remap_table(turn, 1)],
                        nibbles: &nibbles[turn],
                    }),
                })
                .collect();
            let parities = Parities {
                base: trial as u8 & 1,
                order_parity: &order_parity,
            };
            let own = (trial % 2 == 0).then_some(&own[..]);
            let expected = words(&mut 1, CHUNK, 0);
            let got = words(&mut 1, CHUNK, 0);
            let n = gather_portable(&expected, own, &sources, parities);
            let m = kernel.gather(&got, own, &sources, parities);
            let (expected, got): (Vec<u16>, Vec<u16>) = (
                expected.iter().map(|c| c.load(Relaxed)).collect(),
                got.iter().map(|c| c.load(Relaxed)).collect(),
            );
            assert_eq!(expected, got, "trial {trial}");
            assert_eq!(n, m, "trial {trial}");
            assert_eq!(
                n,
                expected
                    .iter()
                    .map(|w| u64::from(w.count_ones()))
                    .sum::<u64>()
            );
            assert!(n > 0);
        }
    }

    #[test]
    fn nibble_images_move_words_as_the_tables_do() {
        let space = CosetSpace::new();
        for turn in (0..MOVES).filter(|&t| !space.keeps_slice(t)) {
            let tables = [space.remap_table(turn, 0), space.remap_table(turn, 1)];
            let nibbles = nibble_images(tables);
            for parity in 0..2 {
                for word in 0..4096usize {
                    let image = (0..3).fold(0, |acc, k| {
                        acc | nibbles[k][parity * 16 + (word >> (4 * k) & 0xf)]
                    });
                    assert_eq!(image, tables[parity][word]);
                }
            }
        }
    }
}
