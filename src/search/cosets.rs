//! The cosets of H = <U, D, R2, L2, F2, B2> up to symmetry: how many a whole-cube run must
//! solve, which ones, and a short move sequence naming each.
//!
//! A coset H·r is the set of positions with `r`'s phase-1 coordinate, so the 2,217,093,120
//! cosets are the phase-1 coordinates. A symmetry `s` of the cube that keeps the U-D axis maps
//! H onto itself, so it maps the coset H·r onto the coset H·(s·r·s⁻¹), position by position,
//! keeping every distance: the two cosets have the same distribution, and a run solves one of
//! them. The 16 such symmetries leave 138,639,780 classes (Rokicki, *Twenty-Five Moves
//! Suffice*, 2008). The other 32 symmetries and inversion do not help: they take a coset of H
//! to a coset of another subgroup (H's conjugate about another axis) or to a left coset,
//! neither of which is a coset of H. The 55,882,296 cosets of the proof that God's number is 20
//! are fewer again by set covering (cube20.org: cosets whose positions others' solutions
//! already covered), a choice of that run, not a property of the cube.
//!
//! The classes are those of the `phase1-sym` table's index ([`SymProduct::phase1`]): an entry is
//! a class of flip-and-slice values and a twist seen through the symmetry that took the
//! flip-and-slice part to its class's representative, so conjugate coordinates share an entry
//! but for a representative fixed by some symmetries, whose entries the same symmetries permute.
//! A class of cosets is the smallest of its entries; they are listed in the order of their
//! entries, numbered from 0.

use super::into_h::DistanceIntoH;
use crate::model::cube::Move;
use crate::space::phase1::{FLIPS, Phase1Coord, Phase1Space};
use crate::space::twophase::{SymProduct, flip_slice};
use rayon::prelude::*;

/// All cosets of H in the group: its 2,217,093,120 phase-1 coordinates.
pub const COSETS: u64 = crate::space::phase1::STATES;

/// The cosets up to the 16 symmetries that keep H, as published (Rokicki 2008).
pub const DISTINCT_COSETS: u64 = 138_639_780;

/// The symmetry-distinct cosets, numbered: a bit per entry of the `phase1-sym` index (set for
/// the smallest entry of each class) and, per 64 entries, how many bits come before.
pub struct CosetList {
    product: SymProduct,
    kept: Vec<u64>,
    before: Vec<u64>,
}

impl CosetList {
    /// Numbers the classes (a pass over the 140,908,410 entries: about a second).
    pub fn new() -> CosetList {
        let product = SymProduct::phase1();
        let entries = product.entries();
        let kept: Vec<u64> = (0..entries.div_ceil(64))
            .into_par_iter()
            .map(|word| {
                (0..64)
                    .map(|bit| word * 64 + bit)
                    .filter(|&index| index < entries && product.representative(index) == index)
                    .fold(0u64, |bits, index| bits | 1 << (index % 64))
            })
            .collect();
        let before = kept
            .iter()
            .scan(0u64, |sum, word| {
                let here = *sum;
                *sum += u64::from(word.count_ones());
                Some(here)
            })
            .collect();
        CosetList {
            product,
            kept,
            before,
        }
    }

    /// How many symmetry-distinct cosets there are.
    pub fn len(&self) -> u64 {
        self.before.last().copied().unwrap_or(0)
            + u64::from(self.kept.last().map_or(0, |w| w.count_ones()))
    }

    /// Never: H has cosets.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entry of class `number`, if there is one.
    fn entry(&self, number: u64) -> Option<u64> {
        if number >= self.len() {
            return None;
        }
        // The last word whose count before it is at most `number`.
        let word = self.before.partition_point(|&b| b <= number) - 1;
        let mut bits = self.kept[word];
        for _ in 0..number - self.before[word] {
            bits &= bits - 1;
        }
        Some(word as u64 * 64 + u64::from(bits.trailing_zeros()))
    }

    /// The phase-1 coordinate that represents class `number` (a coset of it).
    pub fn coordinate(&self, number: u64) -> Option<Phase1Coord> {
        let (first, twist) = self.product.values_at(self.entry(number)?);
        Some(Phase1Coord {
            slice: (first / FLIPS as u32) as u16,
            flip: (first % FLIPS as u32) as u16,
            twist: twist as u16,
        })
    }

    /// The number of the class of the coset with phase-1 coordinate `c`.
    pub fn number_of(&self, c: Phase1Coord) -> u64 {
        let index = self
            .product
            .representative(self.product.index(flip_slice(c), c.twist.into()));
        let word = (index / 64) as usize;
        let below = self.kept[word] & ((1u64 << (index % 64)) - 1);
        self.before[word] + u64::from(below.count_ones())
    }

    /// How many cosets class `number` stands for: its coordinate's distinct conjugates (1 to
    /// 16). Over all classes they sum to [`COSETS`].
    pub fn cosets_in(&self, number: u64) -> Option<u64> {
        Some(self.product.orbit_size(self.entry(number)?))
    }
}

impl Default for CosetList {
    fn default() -> Self {
        CosetList::new()
    }
}

/// A shortest sequence that takes a position with phase-1 coordinate `c` into H: at each step
/// the first turn that brings it a move closer; `None` if the table has no such turn somewhere
/// (it is not the exact table it claims to be).
pub fn route_into_h(
    c: Phase1Coord,
    phase1: &Phase1Space,
    distances: &DistanceIntoH,
) -> Option<Vec<Move>> {
    let mut route = Vec::new();
    let mut here = c;
    let mut distance = distances.distance(here);
    while distance > 0 {
        let (turn, next) = (0..phase1.moves().len())
            .map(|turn| (turn, phase1.apply_coord(here, turn)))
            .find(|&(_, next)| distances.distance(next) + 1 == distance)?;
        route.push(phase1.moves()[turn]);
        here = next;
        distance -= 1;
    }
    Some(route)
}

/// A shortest move sequence whose coset is the one with phase-1 coordinate `c`: the inverse of
/// a route into H (a position `r` with `r·route` in H is `h·route⁻¹` for some `h` in H).
pub fn name_of(
    c: Phase1Coord,
    phase1: &Phase1Space,
    distances: &DistanceIntoH,
) -> Option<Vec<Move>> {
    let route = route_into_h(c, phase1, distances)?;
    Some(route.iter().rev().map(|m| m.inverse()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cube::{Cube3, Symmetry};
    use crate::space::phase1::{corners_with_twist, edges_with_flip, edges_with_slice};
    use std::sync::OnceLock;

    fn list() -> &'static CosetList {
        static LIST: OnceLock<CosetList> = OnceLock::new();
        LIST.get_or_init(CosetList::new)
    }

    /// Burnside's count of the classes, from the raw coordinates alone: the mean, over the 16
    /// symmetries, of the coordinates each fixes. Conjugation acts on the twist and on the
    /// flip-and-slice part separately, so a symmetry fixes the product of what it fixes of each.
    fn burnside() -> u64 {
        let twist_of = |t: u64| Cube3 {
            corners: corners_with_twist(t),
            ..Cube3::SOLVED
        };
        let flip_slice_of = |v: u64| {
            let mut edges = edges_with_slice(v / FLIPS);
            edges.ori = edges_with_flip(v % FLIPS).ori;
            Cube3 {
                edges,
                ..Cube3::SOLVED
            }
        };
        let fixed: u64 = Symmetry::ud()
            .par_iter()
            .map(|&s| {
                let sym = Symmetry::nth(s);
                let coord = |cube: &Cube3| Phase1Coord::of(&sym.conjugate(cube));
                let twists = (0..crate::space::phase1::TWISTS)
                    .filter(|&t| u64::from(coord(&twist_of(t)).twist) == t)
                    .count() as u64;
                let flip_slices = (0..FLIPS * crate::space::phase1::SLICES)
                    .filter(|&v| {
                        let c = coord(&flip_slice_of(v));
                        u64::from(c.slice) * FLIPS + u64::from(c.flip) == v
                    })
                    .count() as u64;
                twists * flip_slices
            })
            .sum();
        fixed / Symmetry::ud().len() as u64
    }

    #[test]
    fn the_classes_are_the_published_count_and_burnsides() {
        assert_eq!(list().len(), DISTINCT_COSETS);
        assert_eq!(burnside(), DISTINCT_COSETS);
    }

    #[test]
    fn the_classes_stand_for_every_coset_once() {
        let list = list();
        let total: u64 = (0..list.len())
            .into_par_iter()
            .map(|n| list.cosets_in(n).unwrap())
            .sum();
        assert_eq!(total, COSETS);
        assert_eq!(list.cosets_in(list.len()), None);
        assert_eq!(list.coordinate(list.len()), None);
    }

    /// A class's coordinate is numbered back to it, and every conjugate of a coordinate is in
    /// its class: a sample spread over the list, the first and last classes among it.
    #[test]
    fn numbers_and_coordinates_agree_under_every_symmetry() {
        let list = list();
        let step = list.len() / 997;
        for number in (0..list.len())
            .step_by(step as usize)
            .chain([list.len() - 1])
        {
            let c = list.coordinate(number).unwrap();
            assert_eq!(list.number_of(c), number);
            let cube = Cube3 {
                corners: corners_with_twist(c.twist.into()),
                edges: {
                    let mut edges = edges_with_slice(c.slice.into());
                    edges.ori = edges_with_flip(c.flip.into()).ori;
                    edges
                },
            };
            assert_eq!(Phase1Coord::of(&cube), c);
            let images: std::collections::HashSet<Phase1Coord> = Symmetry::ud()
                .iter()
                .map(|&s| Phase1Coord::of(&Symmetry::nth(s).conjugate(&cube)))
                .collect();
            for image in &images {
                assert_eq!(list.number_of(*image), number);
            }
            assert_eq!(images.len() as u64, list.cosets_in(number).unwrap());
        }
    }
}
