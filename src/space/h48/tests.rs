use super::*;
use crate::model::cube::{Metric, Symmetry};
use crate::space::{MoveSpace, RowSpace, StateSpace};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::LazyLock;

static SPACE: LazyLock<H48Space> = LazyLock::new(|| H48Space::new(H48Flips::Parity, Metric::Htm));
static FLIPS: LazyLock<H48Space> =
    LazyLock::new(|| H48Space::new(H48Flips::SliceFlips, Metric::Htm));

fn spaces() -> [&'static H48Space; 2] {
    [&SPACE, &FLIPS]
}

/// Kept flips read back from the flips they stand for, and linear in the flips.
#[test]
fn kept_flips_round_trip_and_are_linear() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(40);
    for flips_kind in [H48Flips::Parity, H48Flips::SliceFlips] {
        for _ in 0..200 {
            let c = H48Coord::of(&Cube3::random(&mut rng));
            let (m, s) = (u32::from(c.m), u32::from(c.s));
            for kept in 0..flips_kind.values() {
                assert_eq!(flips_kind.kept(flips_kind.flips_of(kept, m, s), m, s), kept);
            }
            let other = H48Coord::of(&Cube3::random(&mut rng)).flips;
            let (a, b) = (u32::from(c.flips), u32::from(other));
            let kept = |f| flips_kind.kept(f, m, s);
            assert_eq!(kept(a ^ b), kept(a) ^ kept(b));
        }
    }
}

/// The coordinate of a packed cube is its cubies' coordinate.
#[test]
fn the_packed_coordinate_is_the_cubies() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
    for _ in 0..2_000 {
        let cube = Cube3::random(&mut rng);
        assert_eq!(
            H48Coord::of_packed(&PackedCube::of(&cube)),
            H48Coord::of(&cube)
        );
    }
    for m in crate::model::cube::Move::all() {
        let cube = Cube3::of_move(m);
        assert_eq!(
            H48Coord::of_packed(&PackedCube::of(&cube)),
            H48Coord::of(&cube)
        );
    }
}

/// Moving the coordinate by tables agrees with moving the cubies.
#[test]
fn moves_agree_with_cubies() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
    for _ in 0..200 {
        let cube = Cube3::random(&mut rng);
        let c = H48Coord::of(&cube);
        for (turn, &m) in SPACE.moves().iter().enumerate() {
            assert_eq!(SPACE.apply_coord(c, turn), H48Coord::of(&cube.apply(m)));
        }
    }
}

/// The symmetries act on the edge masks as conjugating the cubies does, flips included.
#[test]
fn symmetries_agree_with_cubies() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
    for _ in 0..100 {
        let cube = Cube3::random(&mut rng);
        let c = H48Coord::of(&cube);
        for sym in 0..SYMS {
            let image = H48Coord::of(&Symmetry::nth(sym as u8).conjugate(&cube));
            let (m, s, flips) = SPACE.conjugate_edges(&c, sym);
            assert_eq!(
                (m, s, flips),
                (image.m.into(), image.s.into(), image.flips.into()),
                "{sym}"
            );
        }
    }
}

/// Positions of one coset share an index whatever stands for them: changing a position by an
/// element of the subgroup (applied first) changes no index. The subgroup's elements used are
/// the half turns, a flip of all four M-slice edges, and for `Parity` a flip of two of them.
#[test]
fn the_index_is_a_coset_coordinate() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(43);
    let flipped = |slots: &[usize]| {
        let mut cube = Cube3::SOLVED;
        for &slot in slots {
            cube.edges.ori[slot] = 1;
        }
        cube
    };
    for space in spaces() {
        let mut elements: Vec<Cube3> = space
            .moves()
            .iter()
            .filter(|m| m.quarter_turns() == 2)
            .map(|&m| Cube3::of_move(m))
            .collect();
        elements.push(flipped(&[1, 3, 5, 7]));
        if space.flips() == H48Flips::Parity {
            elements.push(flipped(&[1, 3]));
        }
        for _ in 0..200 {
            let cube = Cube3::random(&mut rng);
            let index = space.representative(space.index(H48Coord::of(&cube)));
            for g in &elements {
                let other = g.then(&cube);
                assert_eq!(
                    space.representative(space.index(H48Coord::of(&other))),
                    index
                );
            }
            // A flip outside the subgroup changes the coset.
            let outside = flipped(&[1, 0]).then(&cube);
            assert_ne!(
                space.representative(space.index(H48Coord::of(&outside))),
                index
            );
        }
    }
}

/// Every conjugate of a position has the same index (up to the stabilizer's choice), and the
/// index decodes to a coordinate with that index.
#[test]
fn symmetric_positions_share_an_index() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(44);
    for _ in 0..100 {
        let cube = Cube3::random(&mut rng);
        let index = SPACE.representative(SPACE.index(H48Coord::of(&cube)));
        assert!(index < H48Flips::Parity.entries());
        for s in 0..SYMS as u8 {
            let image = Symmetry::nth(s).conjugate(&cube);
            let image_index = SPACE.index(H48Coord::of(&image));
            assert_eq!(SPACE.representative(image_index), index);
        }
        assert_eq!(
            SPACE.representative(SPACE.index(SPACE.coord_of(index))),
            index
        );
    }
}

/// The corner part's distances over all 153,090 values (unreduced) equal nissy-core's counts
/// (`expected_cocsep` in its `src/solvers/h48/checkdata.h`): a breadth-first search of the
/// corner part by its move tables alone.
#[test]
fn corner_part_distances_equal_nissys_counts() {
    let n = SPACE.moves().len();
    let mut depth = vec![u8::MAX; CORNER_VALUES as usize];
    let solved = H48Coord::of(&Cube3::SOLVED).corners();
    depth[solved as usize] = 0;
    let mut frontier = vec![solved];
    let mut histogram = vec![1u64];
    while !frontier.is_empty() {
        let d = histogram.len() as u8;
        let mut next = Vec::new();
        for &value in &frontier {
            let (split, twist) = ((value / TWISTS) as u8, (value % TWISTS) as u16);
            for turn in 0..n {
                let (split, twist) = SPACE.corners.moved(split, twist, turn);
                let moved = u32::from(split) * TWISTS + u32::from(twist);
                if depth[moved as usize] == u8::MAX {
                    depth[moved as usize] = d;
                    next.push(moved);
                }
            }
        }
        if !next.is_empty() {
            histogram.push(next.len() as u64);
        }
        frontier = next;
    }
    assert_eq!(
        histogram,
        [1, 6, 63, 468, 3_068, 15_438, 53_814, 71_352, 8_784, 96]
    );
}

/// The row layout agrees with the plain space, representatives included, for both members
/// (which checks that a map acts on a placement's kept flips as an affine map).
#[test]
fn rows_agree_with_the_space() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(45);
    for space in spaces() {
        let rows = H48Rows::new(space);
        let len = rows.row_len();
        for _ in 0..2_000 {
            let cube = Cube3::random(&mut rng);
            let state = space.representative(space.index(H48Coord::of(&cube)));
            let (row, position) = (state / len, (state % len) as u32);
            assert_eq!(rows.row_representative(row, position), position);
            for turn in 0..space.move_count() {
                let (dest, step) = rows.step(row, turn);
                let moved = dest * len + u64::from(rows.position(step, position));
                assert_eq!(moved, space.apply(state, turn));
            }
        }
    }
}
