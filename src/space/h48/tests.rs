use super::*;
use crate::model::cube::{Metric, Symmetry};
use crate::space::{MoveSpace, RowSpace, StateSpace};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::LazyLock;

static SPACE: LazyLock<H48Space> = LazyLock::new(|| H48Space::new(H48Flips::Parity, Metric::Htm));

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
/// half turns, and flips of two edges of one slice.
#[test]
fn the_index_is_a_coset_coordinate() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(43);
    let half_turns: Vec<Cube3> = SPACE
        .moves()
        .iter()
        .filter(|m| m.quarter_turns() == 2)
        .map(|&m| Cube3::of_move(m))
        .collect();
    let mut two_flips = Cube3::SOLVED;
    two_flips.edges.ori[1] = 1; // UF and UB, both M-slice edges
    two_flips.edges.ori[3] = 1;
    for _ in 0..200 {
        let cube = Cube3::random(&mut rng);
        let index = SPACE.representative(SPACE.index(H48Coord::of(&cube)));
        for g in half_turns.iter().chain([&two_flips]) {
            let other = g.then(&cube);
            assert_eq!(
                SPACE.representative(SPACE.index(H48Coord::of(&other))),
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
            let (split, twist) = ((value / TWISTS) as usize, (value % TWISTS) as usize);
            for turn in 0..n {
                let moved = u32::from(SPACE.split_moves[split * n + turn]) * TWISTS
                    + u32::from(SPACE.twist_moves[twist * n + turn]);
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

/// The row layout agrees with the plain space, representatives included.
#[test]
fn rows_agree_with_the_space() {
    let rows = H48Rows::new(&SPACE);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(45);
    let len = rows.row_len();
    for _ in 0..2_000 {
        let cube = Cube3::random(&mut rng);
        let state = SPACE.representative(SPACE.index(H48Coord::of(&cube)));
        let (row, position) = (state / len, (state % len) as u32);
        for turn in 0..SPACE.move_count() {
            let (dest, step) = rows.step(row, turn);
            let moved = dest * len + u64::from(rows.position(step, position));
            assert_eq!(moved, SPACE.apply(state, turn));
        }
    }
}
