//! Patterns: which piece sits in each slot, and how it is twisted.
//!
//! A pattern records piece *values*, not indices: a definition's `defaultPattern`
//! whose `pieces` repeat a value makes those pieces interchangeable, and comparing
//! values (never where a piece came from) is what lets such pieces swap unnoticed.

use super::transformation::Transformation;

/// One orbit of a [`Pattern`].
///
/// Invariants: `pieces`, `orientation` and `orientation_mod` have one entry per
/// slot; `orientation_mod[i]` is 0 (the orientation is fully known) or a divisor
/// `m < num_orientations` of `num_orientations` (it is known only mod `m`), and
/// `orientation[i]` is below the effective modulus (`m`, or `num_orientations` for 0).
/// An `orientationMod` entry equal to `numOrientations` reads as 0, which means the
/// same, so equal knowledge has one representation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PatternOrbit {
    pieces: Vec<u16>,
    orientation: Vec<u8>,
    orientation_mod: Vec<u8>,
    num_orientations: u8,
}

impl PatternOrbit {
    /// Builds an orbit pattern whose invariants the caller has checked.
    pub(super) fn from_parts(
        pieces: Vec<u16>,
        orientation: Vec<u8>,
        orientation_mod: Vec<u8>,
        num_orientations: u8,
    ) -> Self {
        debug_assert_eq!(pieces.len(), orientation.len());
        debug_assert_eq!(pieces.len(), orientation_mod.len());
        Self {
            pieces,
            orientation,
            orientation_mod,
            num_orientations,
        }
    }

    /// The piece value in each slot (equal values are interchangeable pieces).
    pub fn pieces(&self) -> &[u16] {
        &self.pieces
    }

    /// The orientation of the piece in each slot, reduced by its `orientation_mod`.
    pub fn orientation(&self) -> &[u8] {
        &self.orientation
    }

    /// Per slot, the modulus the orientation is known by: 0 means fully known
    /// (mod `num_orientations`), `m > 0` means known only mod `m`. The modulus
    /// belongs to the piece and travels with it.
    pub fn orientation_mod(&self) -> &[u8] {
        &self.orientation_mod
    }

    /// The orientations a piece of this orbit can have.
    pub fn num_orientations(&self) -> u8 {
        self.num_orientations
    }

    /// The modulus the orientation in `slot` is known by (1 means not at all).
    pub fn effective_mod(&self, slot: usize) -> u8 {
        match self.orientation_mod[slot] {
            0 => self.num_orientations,
            m => m,
        }
    }

    /// Whether no orientation of this orbit is observable: the orbit has one
    /// orientation, or every piece's orientation is known only mod 1 (as the
    /// 3x3x3's centers are in cubing.js's definition).
    pub fn orientation_ignored(&self) -> bool {
        (0..self.pieces.len()).all(|slot| self.effective_mod(slot) == 1)
    }

    fn apply(&self, t: &super::transformation::OrbitTransformation) -> Self {
        let mut pieces = Vec::with_capacity(self.pieces.len());
        let mut orientation = Vec::with_capacity(self.pieces.len());
        let mut orientation_mod = Vec::with_capacity(self.pieces.len());
        for (&from, &delta) in t.permutation().iter().zip(t.orientation_delta()) {
            let from = usize::from(from);
            pieces.push(self.pieces[from]);
            orientation_mod.push(self.orientation_mod[from]);
            let modulus = u16::from(self.effective_mod(from));
            let sum = u16::from(self.orientation[from]) + u16::from(delta);
            orientation.push((sum % modulus) as u8);
        }
        Self::from_parts(pieces, orientation, orientation_mod, self.num_orientations)
    }

    fn matches(&self, goal: &Self) -> bool {
        (0..self.pieces.len()).all(|slot| {
            let modulus = gcd(self.effective_mod(slot), goal.effective_mod(slot));
            self.pieces[slot] == goal.pieces[slot]
                && self.orientation[slot] % modulus == goal.orientation[slot] % modulus
        })
    }

    fn ignore_orientation(&mut self) {
        self.orientation.fill(0);
        let all = if self.num_orientations == 1 { 0 } else { 1 };
        self.orientation_mod.fill(all);
    }
}

fn gcd(mut a: u8, mut b: u8) -> u8 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A state of the puzzle: one [`PatternOrbit`] per orbit, in the order of the
/// definition's `orbits`.
///
/// `==` is cubing.js's `isPatternDataIdentical`: same pieces, orientations and
/// orientation moduli in every slot. [`Pattern::matches`] is the looser "is this
/// solved" comparison.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    orbits: Vec<PatternOrbit>,
}

impl Pattern {
    pub(super) fn from_orbits(orbits: Vec<PatternOrbit>) -> Self {
        Self { orbits }
    }

    /// The per-orbit parts, in the order of the definition's orbits.
    pub fn orbits(&self) -> &[PatternOrbit] {
        &self.orbits
    }

    /// The pattern after transformation `t`, by cubing.js's rule
    /// (`applyTransformationDataToKPatternData`): for each slot `i`,
    /// `pieces'[i] = pieces[p[i]]`, the piece's orientation modulus comes along, and
    /// `orientation'[i] = (orientation[p[i]] + delta[i]) mod m` where `m` is that
    /// piece's modulus (`numOrientations` unless `orientationMod` narrows it).
    ///
    /// # Panics
    /// When `t` belongs to a definition with other orbits.
    pub fn apply(&self, t: &Transformation) -> Pattern {
        assert_eq!(
            self.orbits.len(),
            t.orbits().len(),
            "pattern and transformation of different definitions"
        );
        Self::from_orbits(
            self.orbits
                .iter()
                .zip(t.orbits())
                .map(|(p, t)| p.apply(t))
                .collect(),
        )
    }

    /// Whether `self` looks like `goal`: every slot holds a piece of the same value
    /// (so interchangeable pieces may have swapped) with the same orientation modulo
    /// what both patterns know of it (the gcd of the two slots' moduli; a goal orbit
    /// with [`Pattern::ignore_orientation`] accepts any orientation).
    ///
    /// # Panics
    /// When `goal` belongs to a definition with other orbits.
    pub fn matches(&self, goal: &Pattern) -> bool {
        assert_eq!(
            self.orbits.len(),
            goal.orbits.len(),
            "patterns of different definitions"
        );
        self.orbits
            .iter()
            .zip(&goal.orbits)
            .all(|(a, b)| a.matches(b))
    }

    /// Forgets the orientation of every piece in orbit `orbit` (known mod 1 from now on).
    /// Whether to do this is the caller's choice, e.g. for centers of a plain 3x3x3.
    ///
    /// # Panics
    /// When `orbit` is not an orbit index of the definition.
    pub fn ignore_orientation(&mut self, orbit: usize) {
        self.orbits[orbit].ignore_orientation();
    }

    /// Whether orbit `orbit`'s orientation is unobservable in this pattern; see
    /// [`PatternOrbit::orientation_ignored`].
    ///
    /// # Panics
    /// When `orbit` is not an orbit index of the definition.
    pub fn orientation_ignored(&self, orbit: usize) -> bool {
        self.orbits[orbit].orientation_ignored()
    }

    /// The pattern with every piece value `v` of orbit `o` replaced by `relabel[o][v]` (a
    /// value past the end of `relabel[o]` is kept): pieces given one value become alike.
    /// What a projection of the puzzle sees of a state.
    pub fn relabelled(&self, relabel: &[Vec<u16>]) -> Pattern {
        Self::from_orbits(
            self.orbits
                .iter()
                .zip(relabel)
                .map(|(orbit, map)| {
                    let pieces = orbit
                        .pieces
                        .iter()
                        .map(|&v| map.get(usize::from(v)).copied().unwrap_or(v))
                        .collect();
                    PatternOrbit::from_parts(
                        pieces,
                        orbit.orientation.clone(),
                        orbit.orientation_mod.clone(),
                        orbit.num_orientations,
                    )
                })
                .collect(),
        )
    }
}
