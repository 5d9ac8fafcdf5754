//! Helpers every layer may use: numbers written for people, progress bars, a sample's
//! intervals, and the hint that memory will be read soon.

pub mod memory;
pub mod named;
pub mod sample;
pub mod units;

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
