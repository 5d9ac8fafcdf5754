//! Transformations: what a move or an algorithm does to each orbit of a puzzle.
//!
//! The conventions are cubing.js's (`src/cubing/kpuzzle/combine.ts` and
//! `calculate.ts`), so a transformation read from a KPuzzle definition means here
//! what it means there:
//!
//! * Applying a transformation `T` to a pattern `P` gives, for each orbit and slot
//!   `i`, `pieces'[i] = P.pieces[T.permutation[i]]` and
//!   `orientation'[i] = (P.orientation[T.permutation[i]] + T.orientationDelta[i]) mod n`
//!   (`applyTransformationDataToKPatternData`). `T.permutation[i]` is the slot whose
//!   piece moves into slot `i` ("is replaced by").
//! * `A` then `B` (the transformation of the move sequence `A B`) is `B`'s rule
//!   applied to `A` read as a pattern: `permutation[i] = A.permutation[B.permutation[i]]`,
//!   `orientationDelta[i] = (A.orientationDelta[B.permutation[i]] + B.orientationDelta[i]) mod n`
//!   (`combineTransformationData`).
//! * The inverse puts `i` at `permutation[i]` with delta `(n - orientationDelta[i]) mod n`
//!   (`invertTransformation`).

/// What one transformation does to one orbit.
///
/// Invariants: `permutation` is a permutation of `0..num_pieces`, every
/// `orientation_delta` entry is below `num_orientations`, and both vectors have
/// `num_pieces` entries. Entries are `u16` so that orbits of up to 65,535 pieces
/// fit (puzzle-geometry puzzles go past 256 pieces in an orbit, so `u8` would not
/// do in general); orientations are `u8` because cubing.js orbits have at most a
/// few dozen orientations (the clock's 12 is the largest among cubing.js's puzzles).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrbitTransformation {
    permutation: Vec<u16>,
    orientation_delta: Vec<u8>,
    num_orientations: u8,
}

impl OrbitTransformation {
    /// Builds an orbit transformation whose invariants the caller has checked.
    pub(super) fn from_parts(
        permutation: Vec<u16>,
        orientation_delta: Vec<u8>,
        num_orientations: u8,
    ) -> Self {
        debug_assert_eq!(permutation.len(), orientation_delta.len());
        debug_assert!(num_orientations > 0);
        debug_assert!(orientation_delta.iter().all(|&d| d < num_orientations));
        Self {
            permutation,
            orientation_delta,
            num_orientations,
        }
    }

    /// The identity on an orbit of `num_pieces` pieces with `num_orientations` orientations.
    pub(super) fn identity(num_pieces: usize, num_orientations: u8) -> Self {
        // `num_pieces` is at most `u16::MAX` (the definition checks it), so the cast is exact.
        let permutation = (0..num_pieces).map(|i| i as u16).collect();
        Self::from_parts(permutation, vec![0; num_pieces], num_orientations)
    }

    /// For each slot `i`, the slot whose piece moves into `i`.
    pub fn permutation(&self) -> &[u16] {
        &self.permutation
    }

    /// For each slot `i`, the twist added to the piece that arrives in `i`.
    pub fn orientation_delta(&self) -> &[u8] {
        &self.orientation_delta
    }

    /// The number of pieces (slots) in the orbit.
    pub fn num_pieces(&self) -> usize {
        self.permutation.len()
    }

    /// The orientations a piece of this orbit can have.
    pub fn num_orientations(&self) -> u8 {
        self.num_orientations
    }

    /// Whether every piece stays in its slot untwisted.
    pub fn is_identity(&self) -> bool {
        self.permutation
            .iter()
            .enumerate()
            .all(|(i, &p)| usize::from(p) == i)
            && self.orientation_delta.iter().all(|&d| d == 0)
    }

    fn then(&self, next: &Self) -> Self {
        assert_eq!(
            (self.num_pieces(), self.num_orientations),
            (next.num_pieces(), next.num_orientations),
            "orbit transformations of different shapes"
        );
        let n = u16::from(self.num_orientations);
        let mut permutation = Vec::with_capacity(self.num_pieces());
        let mut orientation_delta = Vec::with_capacity(self.num_pieces());
        for (&from, &delta) in next.permutation.iter().zip(&next.orientation_delta) {
            let from = usize::from(from);
            permutation.push(self.permutation[from]);
            // Both terms are below n <= 255, so the sum fits u16 and the result fits u8.
            let sum = u16::from(self.orientation_delta[from]) + u16::from(delta);
            orientation_delta.push((sum % n) as u8);
        }
        Self::from_parts(permutation, orientation_delta, self.num_orientations)
    }

    fn invert(&self) -> Self {
        let n = self.num_orientations;
        let mut permutation = vec![0u16; self.num_pieces()];
        let mut orientation_delta = vec![0u8; self.num_pieces()];
        for (i, (&from, &delta)) in self
            .permutation
            .iter()
            .zip(&self.orientation_delta)
            .enumerate()
        {
            let from = usize::from(from);
            permutation[from] = i as u16;
            orientation_delta[from] = (n - delta) % n;
        }
        Self::from_parts(permutation, orientation_delta, n)
    }

    /// The least common multiple of the orders of the cycles, or `None` past `u64::MAX`.
    ///
    /// A cycle of length `L` whose deltas sum to `s` returns every piece to its slot
    /// twisted by `s` after `L` steps, so it has order `L * n / gcd(n, s mod n)`
    /// (cubing.js's `transformationRepetitionOrder`).
    fn order(&self) -> Option<u64> {
        let n = u64::from(self.num_orientations);
        let mut seen = vec![false; self.num_pieces()];
        let mut order = 1u64;
        for start in 0..self.num_pieces() {
            if seen[start] {
                continue;
            }
            let mut length = 0u64;
            let mut twist = 0u64;
            let mut current = start;
            loop {
                seen[current] = true;
                length += 1;
                twist += u64::from(self.orientation_delta[current]);
                current = usize::from(self.permutation[current]);
                if current == start {
                    break;
                }
            }
            let cycle_order = length.checked_mul(n / gcd(n, twist % n))?;
            order = lcm(order, cycle_order)?;
        }
        Some(order)
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: u64, b: u64) -> Option<u64> {
    (a / gcd(a, b)).checked_mul(b)
}

/// What a move or algorithm does to the whole puzzle: one [`OrbitTransformation`]
/// per orbit, in the order of the definition's `orbits`.
///
/// Equality is exact equality of every permutation and orientation delta, as in
/// cubing.js's `isTransformationDataIdentical`. Transformations combine only with
/// transformations of the same definition; mixing definitions is a programming
/// error and panics.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transformation {
    orbits: Vec<OrbitTransformation>,
}

impl Transformation {
    pub(super) fn from_orbits(orbits: Vec<OrbitTransformation>) -> Self {
        Self { orbits }
    }

    /// The per-orbit parts, in the order of the definition's orbits.
    pub fn orbits(&self) -> &[OrbitTransformation] {
        &self.orbits
    }

    /// The identity of the same shape as `self`.
    pub fn identity_like(&self) -> Self {
        Self::from_orbits(
            self.orbits
                .iter()
                .map(|o| OrbitTransformation::identity(o.num_pieces(), o.num_orientations))
                .collect(),
        )
    }

    /// Whether this transformation moves and twists nothing.
    pub fn is_identity(&self) -> bool {
        self.orbits.iter().all(OrbitTransformation::is_identity)
    }

    /// `self` followed by `next`: the transformation of the sequence `self next`.
    ///
    /// # Panics
    /// When `next` belongs to a definition with other orbits.
    pub fn then(&self, next: &Transformation) -> Transformation {
        assert_eq!(
            self.orbits.len(),
            next.orbits.len(),
            "transformations of different definitions"
        );
        Self::from_orbits(
            self.orbits
                .iter()
                .zip(&next.orbits)
                .map(|(a, b)| a.then(b))
                .collect(),
        )
    }

    /// The transformation that undoes `self`: `self.then(&self.invert())` is the identity.
    pub fn invert(&self) -> Transformation {
        Self::from_orbits(
            self.orbits
                .iter()
                .map(OrbitTransformation::invert)
                .collect(),
        )
    }

    /// `self` repeated `exponent` times; a negative exponent repeats the inverse and
    /// 0 gives the identity. Uses repeated squaring (powers of one element commute).
    pub fn power(&self, exponent: i64) -> Transformation {
        let mut base = if exponent < 0 {
            self.invert()
        } else {
            self.clone()
        };
        let mut remaining = exponent.unsigned_abs();
        let mut result = self.identity_like();
        while remaining > 0 {
            if remaining & 1 == 1 {
                result = result.then(&base);
            }
            remaining >>= 1;
            if remaining > 0 {
                base = base.then(&base);
            }
        }
        result
    }

    /// The smallest `k > 0` with `self.power(k)` the identity, or `None` when it
    /// exceeds `u64::MAX` (possible only for transformations of hundreds of pieces).
    pub fn order(&self) -> Option<u64> {
        self.orbits
            .iter()
            .try_fold(1u64, |acc, orbit| lcm(acc, orbit.order()?))
    }
}
