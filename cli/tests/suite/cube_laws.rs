//! Group laws of the cube model, as properties over random states and sequences, and known
//! facts about particular sequences.

use cubelab::model::cube::{Cube2, Cube3, InvalidCube, Move};
use cubelab::model::facelet::FaceletError;
use cubelab::model::notation::{format_moves, parse_moves};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

fn any_move() -> impl Strategy<Value = Move> {
    (0..Move::COUNT).prop_map(|i| Move::from_index(i).expect("in range"))
}

fn any_sequence() -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec(any_move(), 0..40)
}

/// Uniformly random valid states, from a proptest-chosen seed.
fn any_cube() -> impl Strategy<Value = Cube3> {
    any::<u64>().prop_map(|seed| Cube3::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed)))
}

fn any_pocket() -> impl Strategy<Value = Cube2> {
    any::<u64>().prop_map(|seed| Cube2::random(&mut Xoshiro256PlusPlus::seed_from_u64(seed)))
}

proptest! {
    /// `apply` rewrites only the slots a turn changes; it must agree with the whole product.
    #[test]
    fn applying_a_turn_is_composing_with_its_cubie_state(cube in any_cube(), m in any_move()) {
        prop_assert_eq!(cube.apply(m), cube.then(&Cube3::of_move(m)));
    }

    #[test]
    fn a_move_four_times_is_the_identity(cube in any_cube(), m in any_move()) {
        let once = Cube3::of_move(Move::new(m.face(), 1));
        prop_assert!(once.then(&once).then(&once).then(&once).is_solved());
        prop_assert_eq!(cube.apply(m).apply(m).apply(m).apply(m), cube);
    }

    #[test]
    fn a_move_then_its_inverse_is_the_identity(cube in any_cube(), m in any_move()) {
        prop_assert_eq!(cube.apply(m).apply(m.inverse()), cube);
        prop_assert!(Cube3::of_move(m).then(&Cube3::of_move(m).inverse()).is_solved());
        prop_assert_eq!(Cube3::of_move(m).inverse(), Cube3::of_move(m.inverse()));
    }

    #[test]
    fn a_scramble_then_its_inverse_is_solved(seq in any_sequence()) {
        let inverse: Vec<Move> = seq.iter().rev().map(|m| m.inverse()).collect();
        prop_assert!(Cube3::from_moves(&seq).apply_all(&inverse).is_solved());
        prop_assert_eq!(Cube3::from_moves(&inverse), Cube3::from_moves(&seq).inverse());
    }

    #[test]
    fn printing_then_parsing_gives_the_same_moves(seq in any_sequence()) {
        prop_assert_eq!(parse_moves(&format_moves(&seq)), Ok(seq));
    }

    #[test]
    fn composition_is_associative(a in any_cube(), b in any_cube(), c in any_cube()) {
        prop_assert_eq!(a.then(&b).then(&c), a.then(&b.then(&c)));
    }

    #[test]
    fn sticker_strings_round_trip(cube in any_cube()) {
        prop_assert_eq!(Cube3::from_facelets(&cube.to_facelets()), Ok(cube));
    }

    #[test]
    fn pocket_sticker_strings_round_trip(cube in any_pocket(), seq in any_sequence()) {
        let scrambled = cube.apply_all(&seq);
        prop_assert_eq!(Cube2::from_facelets(&scrambled.to_facelets()), Ok(scrambled));
        prop_assert!(scrambled.normalised().is_normalised());
    }

    #[test]
    fn random_states_and_scrambles_are_valid(cube in any_cube(), seq in any_sequence()) {
        prop_assert_eq!(cube.validate(), Ok(()));
        prop_assert_eq!(Cube3::from_moves(&seq).validate(), Ok(()));
    }

    /// Rotations in notation only relabel faces: `x ... x'` around a sequence is the same as the
    /// sequence with faces renamed, and a trailing rotation changes nothing.
    #[test]
    fn notation_rotations_are_conjugations(seq in any_sequence()) {
        let text = format_moves(&seq);
        let rotated = parse_moves(&format!("x y2 {text} y2 x'")).expect("valid");
        prop_assert_eq!(rotated.len(), seq.len());
        let trailing = parse_moves(&format!("{text} z")).expect("valid");
        prop_assert_eq!(trailing, seq);
    }
}

fn order(text: &str) -> usize {
    let step = Cube3::from_moves(&parse_moves(text).expect("valid"));
    let mut cube = step;
    let mut n = 1;
    while !cube.is_solved() {
        cube = cube.then(&step);
        n += 1;
    }
    n
}

#[test]
fn known_orders() {
    assert_eq!(order("R U"), 105);
    assert_eq!(order("R U R' U'"), 6);
    assert_eq!(order("R"), 4);
    assert_eq!(order("R2 U2"), 6);
}

const SUPERFLIP: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

#[test]
fn the_superflip_flips_every_edge_and_nothing_else() {
    let flip = Cube3::from_moves(&parse_moves(SUPERFLIP).expect("valid"));
    assert!(flip.corners.is_solved());
    assert_eq!(flip.edges.perm, cubelab::model::cube::Edges::SOLVED.perm);
    assert_eq!(flip.edges.ori, [1; 12]);
    for m in Move::all() {
        let turn = Cube3::of_move(m);
        assert_eq!(
            flip.then(&turn),
            turn.then(&flip),
            "superflip and {m} commute"
        );
    }
}

#[test]
fn one_flipped_edge_is_a_flip_error() {
    let mut cube = Cube3::from_moves(&parse_moves("R U F' L2").expect("valid"));
    cube.edges.ori[5] ^= 1;
    assert_eq!(cube.validate(), Err(InvalidCube::Flip));
    assert_eq!(
        Cube3::from_facelets(&cube.to_facelets()),
        Err(FaceletError::Invalid(InvalidCube::Flip))
    );
}

#[test]
fn two_swapped_corners_are_a_parity_error() {
    let mut cube = Cube3::from_moves(&parse_moves("D B2 L' U").expect("valid"));
    cube.corners.perm.swap(0, 1);
    cube.corners.ori.swap(0, 1);
    assert_eq!(cube.validate(), Err(InvalidCube::Parity));
    assert_eq!(
        Cube3::from_facelets(&cube.to_facelets()),
        Err(FaceletError::Invalid(InvalidCube::Parity))
    );
}

#[test]
fn a_twisted_corner_and_a_duplicated_edge_are_their_own_errors() {
    let mut cube = Cube3::SOLVED;
    cube.corners.ori[2] = 1;
    assert_eq!(cube.validate(), Err(InvalidCube::Twist(1)));
    let mut cube = Cube3::SOLVED;
    cube.edges.perm[0] = 1;
    assert_eq!(
        cube.validate(),
        Err(InvalidCube::DuplicatedEdge {
            duplicated: "UF",
            missing: "UR"
        })
    );
}

#[test]
fn pocket_positions_differing_by_a_rotation_normalise_alike() {
    // On a 2x2, R and "L x" turn the same layers against each other: the same puzzle state, held
    // differently. Frame tracking turns the rest of the sequence into other faces.
    let a = Cube2::from_moves(&parse_moves("R U2 F'").expect("valid"));
    let held_otherwise = parse_moves("L x U2 F'").expect("valid");
    assert_eq!(format_moves(&held_otherwise), "L F2 D'");
    let b = Cube2::from_moves(&held_otherwise);
    assert_ne!(a, b);
    assert_eq!(a.normalised(), b.normalised());
}
