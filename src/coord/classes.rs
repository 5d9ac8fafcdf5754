//! Symmetry classes of a coordinate: which values are the same up to a symmetry of the cube.
//!
//! A coordinate here is *raw*: a rank `0..size` of some property of positions (the corner
//! twists, where the E-slice edges are, ...). When the property is mapped onto itself by a
//! group of symmetries (conjugating two positions with the same value gives two positions with
//! the same value), the symmetries act on the values, and the values fall into classes. A
//! symmetry-reduced table stores one entry per class: its *representative*, here the smallest
//! value of the class, reached from any value by a known symmetry.

use crate::model::cube::Symmetry;

/// The classes of a raw coordinate under a group of symmetries.
///
/// Invariant: for every value `v`, conjugating by `syms[to_representative(v)]` takes `v` to the
/// representative of `class_of(v)`; the representative is the smallest value of its class.
pub struct SymClasses {
    class: Vec<u32>,
    to_rep: Vec<u8>,
    reps: Vec<u32>,
    /// Per class, the symmetries (bit `i` for `syms[i]`) that fix its representative.
    stabilizers: Vec<u64>,
}

impl SymClasses {
    /// Classifies the values `0..size` under the symmetries numbered `syms` (a group, the
    /// identity first), where `conjugate(v, s)` is the value of the conjugate by symmetry number
    /// `s` of any position whose value is `v`.
    pub fn new(size: u32, syms: &[u8], conjugate: impl Fn(u32, u8) -> u32) -> SymClasses {
        assert!(syms.len() <= 64 && syms.first() == Some(&0));
        let position = |s: u8| {
            syms.iter()
                .position(|&x| x == s)
                .expect("the symmetries form a group") as u8
        };
        let inverse: Vec<u8> = syms
            .iter()
            .map(|&s| position(Symmetry::inverse_of(s)))
            .collect();
        const UNSET: u32 = u32::MAX;
        let mut class = vec![UNSET; size as usize];
        let mut to_rep = vec![0u8; size as usize];
        let (mut reps, mut stabilizers) = (Vec::new(), Vec::new());
        for value in 0..size {
            if class[value as usize] != UNSET {
                continue;
            }
            let number = reps.len() as u32;
            let mut stabilizer = 0u64;
            for (i, &s) in syms.iter().enumerate() {
                let image = conjugate(value, s);
                if image == value {
                    stabilizer |= 1 << i;
                }
                let slot = &mut class[image as usize];
                if *slot == UNSET {
                    *slot = number;
                    // `value` conjugated by syms[i] is `image`, so the inverse takes it back.
                    to_rep[image as usize] = inverse[i];
                }
            }
            reps.push(value);
            stabilizers.push(stabilizer);
        }
        SymClasses {
            class,
            to_rep,
            reps,
            stabilizers,
        }
    }

    /// Number of classes.
    pub fn count(&self) -> usize {
        self.reps.len()
    }

    #[inline]
    pub fn class_of(&self, value: u32) -> u32 {
        self.class[value as usize]
    }

    /// Asks for what [`SymClasses::class_of`] and [`SymClasses::to_representative`] read for
    /// `value`, so that a search can overlap the misses of several values.
    #[inline]
    pub fn prefetch(&self, value: u32) {
        crate::support::prefetch(&self.class, value as usize);
        crate::support::prefetch(&self.to_rep, value as usize);
    }

    /// The index, in the list of symmetries the classes were made with, of a symmetry that
    /// takes `value` to its class's representative.
    #[inline]
    pub fn to_representative(&self, value: u32) -> u8 {
        self.to_rep[value as usize]
    }

    pub fn representative(&self, class: u32) -> u32 {
        self.reps[class as usize]
    }

    /// The symmetries (bit `i` for the `i`th of the list) that fix the representative of
    /// `class`: more
    /// than the identity for the self-symmetric classes, whose other coordinates a table must
    /// treat with care (the same position has several indices there).
    pub fn stabilizer(&self, class: u32) -> u64 {
        self.stabilizers[class as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::{rank_arrangement, unrank_arrangement};
    use crate::model::cube::{Corners, Cube3};

    fn corner_permutation(rank: u32) -> Cube3 {
        let mut corners = Corners::SOLVED;
        unrank_arrangement(u64::from(rank), 8, &mut corners.perm);
        Cube3 {
            corners,
            ..Cube3::SOLVED
        }
    }

    fn classes_of_corner_permutations(syms: &[u8]) -> SymClasses {
        SymClasses::new(40_320, syms, |rank, s| {
            let image = Symmetry::nth(s).conjugate(&corner_permutation(rank));
            rank_arrangement(&image.corners.perm, 8) as u32
        })
    }

    /// Kociemba's counts: 2,768 corner-permutation classes under the 16 U-D symmetries, 984
    /// under all 48.
    #[test]
    fn corner_permutation_classes() {
        let ud = classes_of_corner_permutations(Symmetry::ud());
        assert_eq!(ud.count(), 2_768);
        let all: Vec<u8> = (0..48).collect();
        assert_eq!(classes_of_corner_permutations(&all).count(), 984);
    }

    /// Every value reaches its representative by the recorded symmetry, representatives are
    /// the smallest of their class, and stabilizers fix them.
    #[test]
    fn representatives_are_reached_and_fixed() {
        let syms = Symmetry::ud();
        let classes = classes_of_corner_permutations(syms);
        let conjugate = |rank: u32, s: u8| {
            let image = Symmetry::nth(s).conjugate(&corner_permutation(rank));
            rank_arrangement(&image.corners.perm, 8) as u32
        };
        for value in (0..40_320).step_by(7) {
            let class = classes.class_of(value);
            let rep = classes.representative(class);
            let s = syms[usize::from(classes.to_representative(value))];
            assert_eq!(conjugate(value, s), rep);
            assert!(rep <= value);
        }
        for class in 0..classes.count() as u32 {
            let rep = classes.representative(class);
            let stabilizer = classes.stabilizer(class);
            assert_eq!(stabilizer & 1, 1);
            for (i, &s) in syms.iter().enumerate() {
                assert_eq!(stabilizer >> i & 1 == 1, conjugate(rep, s) == rep);
            }
        }
    }
}
