//! The 48 symmetries of the cube: the 24 rotations, each alone or followed by the mirror image
//! through the plane between L and R.
//!
//! A symmetry acts on positions by conjugation, `s·x·s⁻¹`: the position seen in a mirror or
//! from another side. Conjugation keeps distances (a solution of `x` conjugated is a solution of
//! the conjugate, move for move, with the same metric cost), so a table needs one entry per
//! *symmetry class* of a coordinate instead of one per value: the basis of every
//! symmetry-reduced table. The 16 symmetries that keep the U-D axis ([`Symmetry::ud`]) are the
//! ones that map the phase-1 subgroup and its relatives onto themselves.
//!
//! A mirror image is no position of the real cube (it turns clockwise twists into
//! counter-clockwise ones), but the conjugate by one is: conjugation applies the mirror twice.
//! So the mirror is never stored as cubies; [`mirror`] conjugates by it directly.

use super::cube3::Cube3;
use super::moves::{Face, Move};
use super::pieces::Pieces;
use super::rotation::Rotation;
use std::sync::LazyLock;

/// The mirror through the plane between L and R, as slot maps: the slot each slot is reflected
/// to (an involution). URF and UFL trade places, as do UBR and ULB, DFR and DLF, DRB and DBL.
const MIRROR_CORNERS: [u8; 8] = [1, 0, 3, 2, 5, 4, 7, 6];
/// UR and UL, DR and DL, FR and FL, BR and BL trade places; UF UB DF DB stay.
const MIRROR_EDGES: [u8; 12] = [2, 1, 0, 3, 6, 5, 4, 7, 9, 8, 11, 10];

/// `M·p·M` for one piece set, `M` the L-R mirror: the piece in each slot is reflected and moved
/// to the reflected slot. A reflection reverses the sense of every twist; an edge's reference
/// sticker (U/D, else F/B) stays on a reference face, so flips are kept.
fn mirror_pieces<const N: usize, const MOD: u8>(
    p: &Pieces<N, MOD>,
    map: &[u8; N],
    reverse_twist: bool,
) -> Pieces<N, MOD> {
    let mut out = *p;
    for slot in 0..N {
        let from = usize::from(map[slot]);
        out.perm[slot] = map[usize::from(p.perm[from])];
        out.ori[slot] = if reverse_twist {
            (MOD - p.ori[from]) % MOD
        } else {
            p.ori[from]
        };
    }
    out
}

/// A position seen in the L-R mirror: its conjugate by the reflection.
pub fn mirror(cube: &Cube3) -> Cube3 {
    Cube3 {
        corners: mirror_pieces(&cube.corners, &MIRROR_CORNERS, true),
        edges: mirror_pieces(&cube.edges, &MIRROR_EDGES, false),
    }
}

/// One of the 48 symmetries: a rotation, then the L-R mirror when `mirrored`.
///
/// Numbered `0..48` by [`Symmetry::all`]; the identity is number 0. Its action on positions is
/// [`Symmetry::conjugate`], on moves [`Symmetry::map_move`], and the two agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    rotation: Rotation,
    mirrored: bool,
}

/// The symmetries with their products, inverses and move maps, computed once.
struct Group {
    all: Vec<Symmetry>,
    /// `product[a][b]`: the number of "`a`, then `b`" (conjugating by `a` and then by `b`).
    product: Vec<[u8; 48]>,
    inverse: Vec<u8>,
    /// `moves[s][m]`: the move that `s` turns move `m` into.
    moves: Vec<[Move; Move::COUNT]>,
    /// The numbers of the 16 symmetries that keep the U-D axis, the identity first.
    ud: Vec<u8>,
}

/// A position with no symmetry (its 48 conjugates differ), so that a symmetry is known by what
/// it does to it.
fn probe() -> Cube3 {
    let moves = [
        (Face::U, 1),
        (Face::R, 2),
        (Face::F, 1),
        (Face::L, 3),
        (Face::B, 1),
    ];
    moves
        .iter()
        .fold(Cube3::SOLVED, |c, &(f, q)| c.apply(Move::new(f, q)))
        .apply(Move::new(Face::D, 1))
        .apply(Move::new(Face::R, 1))
}

static GROUP: LazyLock<Group> = LazyLock::new(|| {
    let all: Vec<Symmetry> = Rotation::all()
        .iter()
        .flat_map(|&rotation| [false, true].map(|mirrored| Symmetry { rotation, mirrored }))
        .collect();
    let probe = probe();
    let images: Vec<Cube3> = all.iter().map(|s| s.conjugate(&probe)).collect();
    let number_of = |image: &Cube3| {
        images
            .iter()
            .position(|i| i == image)
            .expect("conjugation by symmetries is closed") as u8
    };
    let product: Vec<[u8; 48]> = all
        .iter()
        .map(|a| std::array::from_fn(|b| number_of(&all[b].conjugate(&a.conjugate(&probe)))))
        .collect();
    let inverse = (0..48)
        .map(|a| product[a].iter().position(|&p| p == 0).expect("a group") as u8)
        .collect();
    let move_cubes: Vec<Cube3> = Move::all().map(Cube3::of_move).collect();
    let moves = all
        .iter()
        .map(|s| {
            std::array::from_fn(|m| {
                let image = s.conjugate(&move_cubes[m]);
                let found = move_cubes.iter().position(|c| *c == image);
                Move::from_index(found.expect("a symmetry maps turns to turns"))
                    .expect("a move index")
            })
        })
        .collect::<Vec<[Move; Move::COUNT]>>();
    let ud = (0..48u8)
        .filter(|&s| matches!(moves[usize::from(s)][0].face(), Face::U | Face::D))
        .collect();
    Group {
        all,
        product,
        inverse,
        moves,
        ud,
    }
});

impl Symmetry {
    /// The 48 symmetries in their numbering, the identity first.
    pub fn all() -> &'static [Symmetry] {
        &GROUP.all
    }

    /// The symmetry numbered `number` (`0..48`).
    pub fn nth(number: u8) -> Symmetry {
        GROUP.all[usize::from(number)]
    }

    /// The numbers of the 16 symmetries that keep the U-D axis (U and D go to U or D), the
    /// identity first.
    pub fn ud() -> &'static [u8] {
        &GROUP.ud
    }

    /// The number of "conjugate by `a`, then by `b`".
    pub fn product(a: u8, b: u8) -> u8 {
        GROUP.product[usize::from(a)][usize::from(b)]
    }

    /// The number of the symmetry that undoes `a`.
    pub fn inverse_of(a: u8) -> u8 {
        GROUP.inverse[usize::from(a)]
    }

    /// The move that symmetry number `s` turns `m` into: conjugating the position after `m`
    /// gives the conjugated position after this move.
    pub fn map_move_of(s: u8, m: Move) -> Move {
        GROUP.moves[usize::from(s)][m.index()]
    }

    pub fn is_mirrored(&self) -> bool {
        self.mirrored
    }

    /// The position seen through this symmetry: `s·x·s⁻¹`.
    pub fn conjugate(&self, cube: &Cube3) -> Cube3 {
        let rotated = self.rotation.conjugate(cube);
        if self.mirrored {
            mirror(&rotated)
        } else {
            rotated
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    #[test]
    fn the_mirror_turns_r_into_l_prime_and_keeps_u_reversed() {
        let turn = |f, q| Cube3::of_move(Move::new(f, q));
        assert_eq!(mirror(&turn(Face::R, 1)), turn(Face::L, 3));
        assert_eq!(mirror(&turn(Face::U, 1)), turn(Face::U, 3));
        assert_eq!(mirror(&turn(Face::F, 2)), turn(Face::F, 2));
        assert_eq!(mirror(&mirror(&probe())), probe());
    }

    #[test]
    fn there_are_48_symmetries_and_16_keep_the_ud_axis() {
        let all = Symmetry::all();
        assert_eq!(all.len(), 48);
        assert_eq!(all.iter().filter(|s| s.is_mirrored()).count(), 24);
        assert_eq!(Symmetry::ud().len(), 16);
        assert_eq!(Symmetry::ud()[0], 0);
        assert_eq!(Symmetry::nth(0).conjugate(&probe()), probe());
    }

    /// Products and inverses agree with conjugating twice, on random positions (the tables were
    /// built from one probe position only).
    #[test]
    fn products_and_inverses_compose_conjugations() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let cubes: Vec<Cube3> = (0..5).map(|_| Cube3::random(&mut rng)).collect();
        for a in 0..48u8 {
            let inverse = Symmetry::nth(Symmetry::inverse_of(a));
            for cube in &cubes {
                let there = Symmetry::nth(a).conjugate(cube);
                assert_eq!(inverse.conjugate(&there), *cube);
                for b in 0..48u8 {
                    let ab = Symmetry::nth(Symmetry::product(a, b));
                    assert_eq!(ab.conjugate(cube), Symmetry::nth(b).conjugate(&there));
                }
            }
        }
    }

    /// Conjugation is a homomorphism that maps each turn to a turn: the conjugate of a sequence
    /// is the sequence of mapped turns, so lengths are kept in both metrics.
    #[test]
    fn conjugates_of_sequences_are_mapped_sequences() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for _ in 0..20 {
            let moves: Vec<Move> = (0..15)
                .map(|_| Move::from_index(rand::RngExt::random_range(&mut rng, 0..18)).unwrap())
                .collect();
            let cube = Cube3::from_moves(&moves);
            for s in 0..48u8 {
                let mapped: Vec<Move> =
                    moves.iter().map(|&m| Symmetry::map_move_of(s, m)).collect();
                assert_eq!(
                    Symmetry::nth(s).conjugate(&cube),
                    Cube3::from_moves(&mapped)
                );
                for (&m, &n) in moves.iter().zip(&mapped) {
                    assert_eq!(m.quarter_turns() == 2, n.quarter_turns() == 2);
                }
            }
        }
    }

    /// Mirrored symmetries reverse the sense of turns, rotations keep it; the U-D ones map U and
    /// D among themselves.
    #[test]
    fn mirrors_reverse_turns() {
        for (s, sym) in Symmetry::all().iter().enumerate() {
            let u = Symmetry::map_move_of(s as u8, Move::new(Face::U, 1));
            let reversed = u.quarter_turns() == 3;
            assert_eq!(reversed, sym.is_mirrored(), "symmetry {s}");
            let ud = Symmetry::ud().contains(&(s as u8));
            assert_eq!(ud, matches!(u.face(), Face::U | Face::D));
        }
    }

    #[test]
    fn conjugates_of_positions_are_positions() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for _ in 0..50 {
            let cube = Cube3::random(&mut rng);
            for s in Symmetry::all() {
                assert_eq!(s.conjugate(&cube).validate(), Ok(()));
            }
        }
    }
}
