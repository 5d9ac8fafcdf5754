//! Ranking: a bijection between piece placements and `0..count`, so that a table can be a flat
//! array indexed by state.
//!
//! One ranking serves every table: an *arrangement* is an ordered selection of `k` distinct values
//! from `0..n` (a whole permutation is the case `k == n`), ranked in lexicographic order by its
//! Lehmer code. Orientations are ranked as base-`b` digits.

pub mod classes;
pub mod multiset;
pub mod order;

/// Number of arrangements of `k` values out of `n`: `n! / (n-k)!`.
pub const fn arrangements(n: u32, k: u32) -> u64 {
    let mut count = 1u64;
    let mut i = 0;
    while i < k {
        count *= (n - i) as u64;
        i += 1;
    }
    count
}

/// Rank of `items` (distinct values below `n`, `n <= 32`) among all arrangements of
/// `items.len()` values out of `n`, in lexicographic order.
///
/// The Lehmer digit `c_i` (unused values below `items[i]`) has weight `(n-1-i)! / (n-k)!`, and
/// consecutive weights differ by the factor `n-1-i`, so the rank is the Horner sum
/// `((c_0 (n-1) + c_1)(n-2) + c_2) ...`.
pub fn rank_arrangement(items: &[u8], n: u32) -> u64 {
    let mut used = 0u32;
    let mut rank = 0u64;
    for (i, &item) in items.iter().enumerate() {
        let smaller_unused = ((1u32 << item) - 1) & !used;
        rank = rank * u64::from(n - i as u32) + u64::from(smaller_unused.count_ones());
        used |= 1 << item;
    }
    rank
}

/// Inverse of [`rank_arrangement`]: fills `items` with the arrangement of rank `rank`.
pub fn unrank_arrangement(mut rank: u64, n: u32, items: &mut [u8]) {
    let k = items.len();
    // The Lehmer digits, last first: digit i is in base n - i.
    let mut digits = [0u32; 32];
    for i in (0..k).rev() {
        let base = u64::from(n - i as u32);
        digits[i] = (rank % base) as u32;
        rank /= base;
    }
    let mut unused: u32 = if n == 32 { u32::MAX } else { (1 << n) - 1 };
    for (item, &digit) in items.iter_mut().zip(&digits) {
        let mut bits = unused;
        for _ in 0..digit {
            bits &= bits - 1;
        }
        let value = bits.trailing_zeros();
        *item = value as u8;
        unused &= !(1 << value);
    }
}

/// Rank of `digits` read as a base-`base` number, first digit most significant.
pub fn rank_digits(digits: &[u8], base: u8) -> u64 {
    digits
        .iter()
        .fold(0u64, |acc, &d| acc * u64::from(base) + u64::from(d))
}

/// Inverse of [`rank_digits`].
pub fn unrank_digits(mut rank: u64, base: u8, digits: &mut [u8]) {
    for d in digits.iter_mut().rev() {
        *d = (rank % u64::from(base)) as u8;
        rank /= u64::from(base);
    }
}

/// Binomial coefficient `C(n, k)` (zero when `k > n`).
pub const fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let mut result = 1u64;
    let mut i = 0;
    while i < k {
        result = result * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    result
}

/// Largest set size [`rank_combination`] takes values from: `C(n, k)` for `n, k <= 16` is
/// read from a table, as the search ranks combinations at every node it keeps.
pub const MAX_COMBINATION_VALUES: u32 = 16;

const BINOMIALS: [[u32; 17]; 17] = {
    let mut table = [[0u32; 17]; 17];
    let mut n = 0;
    while n <= 16 {
        let mut k = 0;
        while k <= 16 {
            table[n][k] = binomial(n as u32, k as u32) as u32;
            k += 1;
        }
        n += 1;
    }
    table
};

/// Rank of the `k`-element set of values whose bits are set in `mask` (values below
/// [`MAX_COMBINATION_VALUES`]), among all `k`-element subsets of `0..n`, in colexicographic
/// order: with the members `v_0 < v_1 < ...`, the rank is `sum C(v_i, i + 1)` (the
/// combinatorial number system), so `{0, .., k-1}` is 0 and the highest `k` values rank last.
#[inline]
pub const fn rank_combination(mask: u32) -> u64 {
    debug_assert!(mask < 1 << MAX_COMBINATION_VALUES);
    let mut rank = 0;
    let mut rest = mask;
    let mut i = 0;
    while rest != 0 {
        let value = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        i += 1;
        rank += BINOMIALS[value][i];
    }
    rank as u64
}

/// Inverse of [`rank_combination`]: the mask of the `k`-element subset of rank `rank`.
pub fn unrank_combination(mut rank: u64, k: u32) -> u32 {
    let mut mask = 0;
    for i in (1..=k).rev() {
        // The largest value v with C(v, i) <= rank is the i-th smallest member.
        let mut value = i - 1;
        while binomial(value + 1, i) <= rank {
            value += 1;
        }
        rank -= binomial(value, i);
        mask |= 1 << value;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrangement_counts() {
        assert_eq!(arrangements(8, 8), 40320);
        assert_eq!(arrangements(12, 6), 665_280);
        assert_eq!(arrangements(12, 7), 3_991_680);
        assert_eq!(arrangements(5, 0), 1);
    }

    /// Every rank in range unranks to a distinct valid arrangement that ranks back to itself.
    #[test]
    fn ranking_is_a_bijection() {
        for (n, k) in [(4, 4), (7, 7), (6, 3), (8, 2)] {
            let total = arrangements(n, k);
            let mut seen = std::collections::HashSet::new();
            let mut items = vec![0u8; k as usize];
            for rank in 0..total {
                unrank_arrangement(rank, n, &mut items);
                assert!(items.iter().all(|&v| u32::from(v) < n));
                assert!(seen.insert(items.clone()), "duplicate {items:?}");
                assert_eq!(rank_arrangement(&items, n), rank);
            }
        }
    }

    #[test]
    fn order_is_lexicographic() {
        assert_eq!(rank_arrangement(&[0, 1, 2], 3), 0);
        assert_eq!(rank_arrangement(&[2, 1, 0], 3), 5);
        assert_eq!(rank_arrangement(&[1, 0], 4), 3);
    }

    /// All `C(n, k)` subsets get distinct ranks `0..C(n, k)` and unrank back.
    #[test]
    fn combination_ranking_is_a_bijection() {
        for (n, k) in [(12u32, 4u32), (8, 4), (5, 0), (6, 6)] {
            let mut ranks: Vec<u64> = (0u32..1 << n)
                .filter(|m| m.count_ones() == k)
                .map(|m| {
                    let rank = rank_combination(m);
                    assert_eq!(unrank_combination(rank, k), m);
                    rank
                })
                .collect();
            ranks.sort_unstable();
            assert_eq!(ranks, (0..binomial(n, k)).collect::<Vec<_>>());
        }
        assert_eq!(binomial(12, 4), 495);
        assert_eq!(rank_combination(0b1111_0000_0000), 494);
    }

    #[test]
    fn digits_round_trip() {
        let mut d = [0u8; 6];
        for rank in 0..729 {
            unrank_digits(rank, 3, &mut d);
            assert_eq!(rank_digits(&d, 3), rank);
        }
    }
}
