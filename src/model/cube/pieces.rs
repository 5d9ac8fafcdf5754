//! A set of `N` pieces described by where each piece sits and how it is twisted.
//!
//! This one type models corners (`N = 8`, orientation mod 3) and edges (`N = 12`, orientation
//! mod 2), so composition, inversion and validity checks exist exactly once.

/// A placement of `N` pieces: `perm[slot]` is the piece in `slot`, `ori[slot]` its orientation
/// (`0..MOD`) relative to that slot.
///
/// Invariant for values built by this crate: `perm` is a permutation of `0..N` and every
/// `ori[i] < MOD`. [`Pieces::check`] tests these for values assembled from outside input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pieces<const N: usize, const MOD: u8> {
    pub perm: [u8; N],
    pub ori: [u8; N],
}

/// What [`Pieces::check`] found wrong, as piece indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PiecesFault {
    /// A piece index of `N` or more.
    OutOfRange(u8),
    /// `duplicated` appears in two slots, so `missing` appears in none.
    Duplicated { duplicated: u8, missing: u8 },
    /// An orientation value of `MOD` or more.
    BadOrientation(u8),
}

impl<const N: usize, const MOD: u8> Pieces<N, MOD> {
    /// Every piece home and untwisted.
    pub const SOLVED: Self = {
        let mut perm = [0u8; N];
        let mut i = 0;
        while i < N {
            perm[i] = i as u8;
            i += 1;
        }
        Self { perm, ori: [0; N] }
    };

    /// The state reached by doing `self` and then `other` (`other` read as a move applied to
    /// the state `self`): the piece that `other` brings to slot `i` from slot `other.perm[i]`.
    pub const fn then(&self, other: &Self) -> Self {
        let mut out = Self::SOLVED;
        let mut i = 0;
        while i < N {
            let from = other.perm[i] as usize;
            out.perm[i] = self.perm[from];
            out.ori[i] = (self.ori[from] + other.ori[i]) % MOD;
            i += 1;
        }
        out
    }

    /// The state `x` with `self.then(x) == SOLVED`.
    pub const fn inverse(&self) -> Self {
        let mut out = Self::SOLVED;
        let mut i = 0;
        while i < N {
            let piece = self.perm[i] as usize;
            out.perm[piece] = i as u8;
            out.ori[piece] = (MOD - self.ori[i]) % MOD;
            i += 1;
        }
        out
    }

    pub fn is_solved(&self) -> bool {
        *self == Self::SOLVED
    }

    /// Sum of orientations mod `MOD`; zero for every reachable state.
    pub fn orientation_sum(&self) -> u8 {
        (self.ori.iter().map(|&o| u32::from(o)).sum::<u32>() % u32::from(MOD)) as u8
    }

    /// Permutation parity: `true` when odd.
    pub fn is_odd(&self) -> bool {
        let mut seen = [false; N];
        let mut transpositions = 0;
        for start in 0..N {
            let mut len = 0;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = self.perm[i] as usize;
                len += 1;
            }
            if len > 0 {
                transpositions += len - 1;
            }
        }
        transpositions % 2 == 1
    }

    /// Checks that `perm` is a permutation and every orientation is in range.
    pub fn check(&self) -> Result<(), PiecesFault> {
        let mut count = [0u8; N];
        for &p in &self.perm {
            let slot = count
                .get_mut(p as usize)
                .ok_or(PiecesFault::OutOfRange(p))?;
            *slot += 1;
        }
        if let Some(dup) = count.iter().position(|&c| c > 1) {
            let missing = count.iter().position(|&c| c == 0).unwrap_or(dup);
            return Err(PiecesFault::Duplicated {
                duplicated: dup as u8,
                missing: missing as u8,
            });
        }
        match self.ori.iter().find(|&&o| o >= MOD) {
            Some(&o) => Err(PiecesFault::BadOrientation(o)),
            None => Ok(()),
        }
    }
}

/// A placement that moves at most four pieces, kept as the slots it changes: a face turn moves
/// four corners and four edges, so [`Pieces::then_turn`] rewrites those slots alone where
/// [`Pieces::then`] rebuilds all of them (a quarter of the work, in the search's inner loop).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FourMoved<const N: usize, const MOD: u8> {
    /// The changed slots; where fewer than four change, the rest repeat an unchanged slot
    /// (`from` equal to it, `ori` 0), which rewrites it as it was.
    slots: [u8; 4],
    /// Where each changed slot's new piece comes from.
    from: [u8; 4],
    /// The twist each changed slot's piece gains.
    ori: [u8; 4],
}

impl<const N: usize, const MOD: u8> FourMoved<N, MOD> {
    /// The slots `p` changes; panics (at compile time where `p` is a constant) if it changes
    /// more than four or none is left unchanged.
    pub const fn of(p: &Pieces<N, MOD>) -> Self {
        let mut out = FourMoved {
            slots: [0; 4],
            from: [0; 4],
            ori: [0; 4],
        };
        let (mut count, mut still) = (0, N);
        let mut i = 0;
        while i < N {
            if p.perm[i] as usize != i || p.ori[i] != 0 {
                assert!(count < 4, "more than four pieces move");
                out.slots[count] = i as u8;
                out.from[count] = p.perm[i];
                out.ori[count] = p.ori[i];
                count += 1;
            } else {
                still = i;
            }
            i += 1;
        }
        assert!(still < N || count == 4, "no piece stays to pad with");
        while count < 4 {
            out.slots[count] = still as u8;
            out.from[count] = still as u8;
            count += 1;
        }
        out
    }
}

impl<const N: usize, const MOD: u8> Pieces<N, MOD> {
    /// `self.then(p)` for the placement `p` that `moved` was made from, where every
    /// orientation of `self` is below `MOD` (as in every value this crate builds, see
    /// [`Pieces`]).
    #[inline]
    pub fn then_turn(&self, moved: &FourMoved<N, MOD>) -> Self {
        let mut out = *self;
        for k in 0..4 {
            let (slot, from) = (usize::from(moved.slots[k]), usize::from(moved.from[k]));
            out.perm[slot] = self.perm[from];
            // Both below `MOD`: one subtraction reduces the sum.
            debug_assert!(self.ori[from] < MOD);
            let sum = self.ori[from] + moved.ori[k];
            out.ori[slot] = if sum >= MOD { sum - MOD } else { sum };
        }
        out
    }
}

/// The 8 corners, twisted mod 3.
pub type Corners = Pieces<8, 3>;
/// The 12 edges, flipped mod 2.
pub type Edges = Pieces<12, 2>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solved_is_neutral_and_its_own_inverse() {
        assert!(Corners::SOLVED.then(&Corners::SOLVED).is_solved());
        assert!(Edges::SOLVED.inverse().is_solved());
    }

    #[test]
    fn check_names_the_duplicate_and_the_missing_piece() {
        let mut c = Corners::SOLVED;
        c.perm[3] = 5;
        assert_eq!(
            c.check(),
            Err(PiecesFault::Duplicated {
                duplicated: 5,
                missing: 3
            })
        );
        c.perm[3] = 9;
        assert_eq!(c.check(), Err(PiecesFault::OutOfRange(9)));
    }

    #[test]
    fn a_transposition_is_odd() {
        let mut e = Edges::SOLVED;
        e.perm.swap(0, 1);
        assert!(e.is_odd());
        e.perm.swap(2, 3);
        assert!(!e.is_odd());
    }
}
