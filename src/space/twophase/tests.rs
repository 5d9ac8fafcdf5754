use super::*;
use crate::bfs::breadth_first;
use crate::packing::Encoding;
use indicatif::ProgressBar;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// A random position of H: a random sequence of its moves.
fn random_in_h(rng: &mut impl rand::RngExt, length: usize) -> Cube3 {
    let moves = phase2_moves();
    (0..length).fold(Cube3::SOLVED, |cube, _| {
        cube.apply(moves[rng.random_range(0..moves.len())])
    })
}

#[test]
fn rankings_round_trip() {
    for ranking in [
        FLIP_SLICE,
        TWIST,
        CORNER_PERMUTATION,
        LAYER_EDGES,
        SLICE_ORDER,
    ] {
        for value in (0..ranking.values).step_by(97).chain([ranking.values - 1]) {
            assert_eq!((ranking.value_of)(&(ranking.cube_of)(value)), value);
        }
    }
}

#[test]
fn class_counts_are_kociembas() {
    let phase1 = SymProduct::phase1();
    assert_eq!(phase1.classes.count() as u32, FLIP_SLICE_CLASSES);
    assert_eq!(phase1.entries(), PHASE1_ENTRIES);
    let phase2 = SymProduct::phase2();
    assert_eq!(phase2.classes.count() as u32, CORNER_CLASSES);
    assert_eq!(phase2.entries(), PHASE2_ENTRIES);
}

/// Conjugates by the U-D symmetries share an index once each is taken to the smallest of
/// its position's indices, and the weights of all entries sum to the unreduced
/// coordinate's size.
#[test]
fn symmetric_positions_share_an_index() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let phase1 = SymProduct::phase1();
    let phase2 = SymProduct::phase2();
    for _ in 0..200 {
        let cube = Cube3::random(&mut rng);
        let inside = random_in_h(&mut rng, 30);
        let index1 = |c: &Cube3| {
            let coord = Phase1Coord::of(c);
            phase1.representative(phase1.index(flip_slice(coord), coord.twist.into()))
        };
        let index2 =
            |c: &Cube3| phase2.representative(phase2.index(corner_permutation(c), layer_edges(c)));
        for &s in Symmetry::ud() {
            let symmetry = Symmetry::nth(s);
            assert_eq!(index1(&symmetry.conjugate(&cube)), index1(&cube));
            assert_eq!(index2(&symmetry.conjugate(&inside)), index2(&inside));
        }
    }
    let weights = |p: &SymProduct| {
        (0..p.classes.count() as u32)
            .map(|c| p.class_weight(c) * u64::from(p.second_values))
            .sum::<u64>()
    };
    assert_eq!(weights(&phase1), u64::from(FLIP_SLICES) * u64::from(TWISTS));
    assert_eq!(
        weights(&phase2),
        u64::from(PERMUTATIONS) * u64::from(PERMUTATIONS)
    );
}

/// The position a state of a product space stands for: the class's representative for the
/// first coordinate, the second as stored; `join` puts the two parts' pieces together.
fn position_of(
    product: &SymProduct,
    (first, second): (Ranking, Ranking),
    join: fn(Cube3, Cube3) -> Cube3,
    state: u64,
) -> Cube3 {
    let per_class = u64::from(product.second_values);
    let rep = product.classes.representative((state / per_class) as u32);
    join(
        (first.cube_of)(rep),
        (second.cube_of)((state % per_class) as u32),
    )
}

/// The spaces' moves agree with moving cubies: the state a move leads to is the index of
/// the position the state stands for, moved.
#[test]
fn moves_agree_with_cubies() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let spaces = [
        (
            SymProductSpace::phase1(Metric::Htm),
            (FLIP_SLICE, TWIST),
            (|f: Cube3, s: Cube3| Cube3 {
                corners: s.corners,
                edges: f.edges,
            }) as fn(_, _) -> _,
        ),
        (
            SymProductSpace::phase2(),
            (CORNER_PERMUTATION, LAYER_EDGES),
            |f: Cube3, s: Cube3| Cube3 {
                corners: f.corners,
                edges: s.edges,
            },
        ),
    ];
    for (space, rankings, join) in &spaces {
        for _ in 0..300 {
            let state = space.representative(rng.random_range(0..space.size()));
            let cube = position_of(space.product(), *rankings, *join, state);
            let (first, second) = *rankings;
            assert_eq!(
                space
                    .product()
                    .index((first.value_of)(&cube), (second.value_of)(&cube)),
                state
            );
            for (turn, &m) in space.moves.iter().enumerate() {
                let moved = cube.apply(m);
                let index = space
                    .product()
                    .index((first.value_of)(&moved), (second.value_of)(&moved));
                assert_eq!(space.apply(state, turn), space.representative(index));
            }
        }
    }
    let slice = Phase2SliceSpace::new();
    for _ in 0..300 {
        let cube = random_in_h(&mut rng, 25);
        let index = Phase2SliceSpace::index(corner_permutation(&cube), slice_order(&cube));
        for (turn, &m) in phase2_moves().iter().enumerate() {
            let moved = cube.apply(m);
            assert_eq!(
                slice.apply(index, turn),
                Phase2SliceSpace::index(corner_permutation(&moved), slice_order(&moved))
            );
        }
    }
}

/// The corner-and-slice table against a breadth-first search of cubies of its own (a hash
/// map of the two parts): the same distance for every state.
#[test]
fn phase2_slice_distances_match_a_search_of_cubies() {
    let space = Phase2SliceSpace::new();
    let table = breadth_first(&space, Encoding::Nibble, &ProgressBar::hidden()).unwrap();
    let moves = phase2_moves();
    let mut seen = std::collections::HashMap::new();
    let key = |c: &Cube3| (c.corners.perm, slice_order(c));
    seen.insert(key(&Cube3::SOLVED), 0u8);
    let mut frontier = vec![Cube3::SOLVED];
    let mut depth = 0u8;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for cube in &frontier {
            for &m in &moves {
                let moved = cube.apply(m);
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(key(&moved)) {
                    e.insert(depth);
                    next.push(moved);
                }
            }
        }
        frontier = next;
    }
    assert_eq!(seen.len() as u64, PHASE2_SLICE_ENTRIES);
    for (&(perm, slice), &distance) in seen.iter().step_by(37) {
        let corners = rank_arrangement(&perm, 8) as u32;
        let index = Phase2SliceSpace::index(corners, slice);
        assert_eq!(crate::packing::nibble(&table.packed, index), distance);
    }
}
