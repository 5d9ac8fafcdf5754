//! Ranking of arrangements with repeated values (multiset permutations): the placement of
//! pieces some of which are identical, as a puzzle definition's pattern marks them.
//!
//! The values `0..k` appear `counts[v]` times each among `n = sum(counts)` slots; there are
//! `n! / (counts[0]! ... counts[k-1]!)` arrangements, ranked in lexicographic order. The rank
//! sums, slot by slot, the arrangements that put a smaller value in that slot with the earlier
//! slots as they are: for the remaining counts `r` over `m` slots, putting `v` first leaves
//! `M(r) * r[v] / m` arrangements (`M` the multinomial), so each term follows from the one
//! count before without a factorial. With every count 1 this is the permutation rank of
//! [`super::rank_arrangement`].

/// The number of arrangements of a multiset with these value counts, or `None` past `u64`.
pub fn multiset_arrangements(counts: &[u32]) -> Option<u64> {
    let mut total = 1u128;
    let mut placed = 0u32;
    for &count in counts {
        for i in 1..=count {
            placed += 1;
            // total * placed / i stays an integer: it is C(placed, i) times the rest.
            total = total.checked_mul(u128::from(placed))? / u128::from(i);
            if total > u128::from(u64::MAX) {
                return None;
            }
        }
    }
    u64::try_from(total).ok()
}

/// A multiset's value counts, with the multinomial of the whole, ready to rank arrangements
/// of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Multiset {
    counts: Vec<u32>,
    slots: u32,
    arrangements: u64,
}

impl Multiset {
    /// The multiset with `counts[v]` copies of value `v`; `None` if its arrangements pass
    /// `u64` or it has more distinct values than a byte holds.
    pub fn new(counts: Vec<u32>) -> Option<Multiset> {
        if counts.len() > 256 {
            return None;
        }
        let arrangements = multiset_arrangements(&counts)?;
        Some(Multiset {
            slots: counts.iter().sum(),
            counts,
            arrangements,
        })
    }

    /// How many arrangements there are: ranks are `0..arrangements()`.
    pub fn arrangements(&self) -> u64 {
        self.arrangements
    }

    /// How many slots an arrangement fills.
    pub fn slots(&self) -> usize {
        self.slots as usize
    }

    /// The rank of `values` (each below the number of distinct values, each value as often as
    /// its count says).
    ///
    /// The arrangements that put any smaller value in a slot are summed in one term: each
    /// value's share `remaining * count / slots` is a whole number, so their sum is the
    /// remaining arrangements times the smaller values' counts over the slots. Two divisions a
    /// slot, in 64 bits where the products fit (a puzzle solver's move tables rank every value
    /// of every part: one division per smaller value, in 128 bits, took three quarters of a
    /// Master Tetraminx solve's setup).
    pub fn rank(&self, values: &[u8]) -> u64 {
        debug_assert_eq!(values.len(), self.slots());
        // The counts left, on the stack where they are few (as a projection's are).
        let (mut few, mut many) = ([0u32; 16], Vec::new());
        let left: &mut [u32] = if self.counts.len() <= few.len() {
            few[..self.counts.len()].copy_from_slice(&self.counts);
            &mut few[..self.counts.len()]
        } else {
            many.extend_from_slice(&self.counts);
            &mut many
        };
        if self
            .arrangements
            .checked_mul(u64::from(self.slots))
            .is_some()
        {
            rank_in::<u64>(self.arrangements, self.slots, left, values)
        } else {
            rank_in::<u128>(self.arrangements, self.slots, left, values) as u64
        }
    }

    /// The arrangement of rank `rank` (below [`Multiset::arrangements`]), into `values`.
    pub fn unrank(&self, mut rank: u64, values: &mut [u8]) {
        debug_assert_eq!(values.len(), self.slots());
        let mut left = self.counts.clone();
        let mut remaining = u128::from(self.arrangements);
        let mut slots = u128::from(self.slots);
        for slot in values.iter_mut() {
            for (value, count) in left.iter_mut().enumerate() {
                let starting_here = remaining * u128::from(*count) / slots;
                if u128::from(rank) < starting_here {
                    *slot = value as u8;
                    remaining = starting_here;
                    *count -= 1;
                    break;
                }
                rank -= starting_here as u64;
            }
            slots -= 1;
        }
    }
}

/// [`Multiset::rank`]'s sum in `T`, wide enough for the arrangements times the slots;
/// `left` holds the value counts and is used up.
#[inline]
fn rank_in<T>(arrangements: u64, slots: u32, left: &mut [u32], values: &[u8]) -> T
where
    T: Copy
        + From<u32>
        + From<u64>
        + std::ops::Add<Output = T>
        + std::ops::Mul<Output = T>
        + std::ops::Div<Output = T>,
{
    let (mut remaining, mut slots, mut rank) = (T::from(arrangements), slots, T::from(0u32));
    for &value in values {
        let value = usize::from(value);
        let smaller: u32 = left[..value].iter().sum();
        rank = rank + remaining * T::from(smaller) / T::from(slots);
        remaining = remaining * T::from(left[value]) / T::from(slots);
        left[value] -= 1;
        slots -= 1;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::{arrangements, rank_arrangement};

    /// Every arrangement of `counts`, in lexicographic order, by brute force.
    fn all_in_order(counts: &[u32]) -> Vec<Vec<u8>> {
        let mut values: Vec<u8> = counts
            .iter()
            .enumerate()
            .flat_map(|(v, &c)| std::iter::repeat_n(v as u8, c as usize))
            .collect();
        let mut out = vec![values.clone()];
        // The next permutation in lexicographic order, repeated values taken once.
        loop {
            let Some(i) = (1..values.len()).rev().find(|&i| values[i - 1] < values[i]) else {
                return out;
            };
            let j = (i..values.len())
                .rev()
                .find(|&j| values[j] > values[i - 1])
                .unwrap();
            values.swap(i - 1, j);
            values[i..].reverse();
            out.push(values.clone());
        }
    }

    #[test]
    fn ranks_are_the_lexicographic_order_and_unrank_inverts_them() {
        for counts in [
            vec![1, 1, 1, 1],
            vec![2, 2],
            vec![3, 1, 2],
            vec![4],
            vec![1, 0, 2],
        ] {
            let set = Multiset::new(counts.clone()).unwrap();
            let all = all_in_order(&counts);
            assert_eq!(set.arrangements(), all.len() as u64, "{counts:?}");
            let mut back = vec![0u8; set.slots()];
            for (rank, values) in all.iter().enumerate() {
                assert_eq!(set.rank(values), rank as u64, "{counts:?} {values:?}");
                set.unrank(rank as u64, &mut back);
                assert_eq!(&back, values);
            }
        }
    }

    #[test]
    fn distinct_values_rank_as_permutations() {
        let set = Multiset::new(vec![1; 6]).unwrap();
        assert_eq!(set.arrangements(), arrangements(6, 6));
        for values in all_in_order(&[1; 6]).iter().step_by(37) {
            assert_eq!(set.rank(values), rank_arrangement(values, 6));
        }
    }

    #[test]
    fn the_count_is_the_multinomial_or_none_past_u64() {
        // The 4x4's 24 centres, four of each colour: 24! / 4!^6.
        assert_eq!(multiset_arrangements(&[4; 6]), Some(3_246_670_537_110_000));
        // 21! passes u64.
        assert_eq!(multiset_arrangements(&[1; 21]), None);
        assert_eq!(
            multiset_arrangements(&[1; 20]),
            Some(2_432_902_008_176_640_000)
        );
    }

    /// Where the products pass 64 bits (twenty slots, two alike: 20!/2 arrangements times 20
    /// slots), ranks are still the inverse of unranking, and distinct values still rank as
    /// permutations.
    #[test]
    fn large_multisets_rank_in_128_bits() {
        let mut counts = vec![1; 18];
        counts.push(2);
        let pair = Multiset::new(counts).unwrap();
        assert!(pair.arrangements().checked_mul(20).is_none());
        let mut values = vec![0u8; 20];
        for rank in [
            0,
            1,
            12_345_678_901,
            pair.arrangements() / 3,
            pair.arrangements() - 1,
        ] {
            pair.unrank(rank, &mut values);
            assert_eq!(pair.rank(&values), rank);
        }
        let twenty = Multiset::new(vec![1; 20]).unwrap();
        let values: Vec<u8> = (0..20).rev().collect();
        assert_eq!(twenty.rank(&values), twenty.arrangements() - 1);
        assert_eq!(twenty.rank(&values), rank_arrangement(&values, 20));
        assert!(Multiset::new(vec![0; 257]).is_none());
    }
}
