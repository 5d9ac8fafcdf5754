//! Tests of the whole module on small hand-written definitions.

use serde_json::{Value, json};

use super::*;

/// A 2x2x2 written from the standard cubie numbering (Kociemba's): corners
/// URF=0, UFL=1, ULB=2, UBR=3, DFR=4, DLF=5, DBL=6, DRB=7; orientation 0 when the
/// U/D sticker faces U/D, +1 per clockwise twist. Kociemba's move tables give, for
/// each slot, the slot its new corner comes from ("replaced by") and the twist
/// added to it, which is exactly cubing.js's `permutation`/`orientationDelta`.
/// DBL never moves, so the three moves generate the 2x2x2 group.
fn toy_json() -> Value {
    json!({
        "name": "toy 2x2x2",
        "orbits": [{"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3}],
        "defaultPattern": {
            "CORNERS": {"pieces": [0, 1, 2, 3, 4, 5, 6, 7], "orientation": [0, 0, 0, 0, 0, 0, 0, 0]}
        },
        "moves": {
            "U": {"CORNERS": {"permutation": [3, 0, 1, 2, 4, 5, 6, 7], "orientationDelta": [0, 0, 0, 0, 0, 0, 0, 0]}},
            "R": {"CORNERS": {"permutation": [4, 1, 2, 0, 7, 5, 6, 3], "orientationDelta": [2, 0, 0, 1, 1, 0, 0, 2]}},
            "F": {"CORNERS": {"permutation": [1, 5, 2, 3, 0, 4, 6, 7], "orientationDelta": [1, 2, 0, 0, 2, 1, 0, 0]}}
        },
        "derivedMoves": {"Sexy": "[R, U]", "2Sune": "R U R' U R U2' R'", "Uw": "U"},
        "experimentalPuzzleDescription": {"shape": "c"}
    })
}

pub(crate) fn toy() -> KPuzzleDefinition {
    KPuzzleDefinition::from_json_str(&toy_json().to_string()).expect("the toy definition is valid")
}

fn t(def: &KPuzzleDefinition, alg: &str) -> Transformation {
    def.transformation_of(alg)
        .unwrap_or_else(|e| panic!("`{alg}`: {e}"))
}

/// The order by brute force: apply until the identity comes back.
fn order_by_repetition(x: &Transformation) -> u64 {
    let mut power = x.clone();
    let mut k = 1;
    while !power.is_identity() {
        power = power.then(x);
        k += 1;
    }
    k
}

// ---------------------------------------------------------------- transformations

#[test]
fn face_turns_have_order_four() {
    let def = toy();
    for face in ["U", "R", "F"] {
        assert_eq!(t(&def, face).order(), Some(4), "{face}");
        assert!(t(&def, &format!("{face}4")).is_identity());
        assert!(!t(&def, &format!("{face}2")).is_identity());
    }
}

/// `(R U)` has order 105 on a 3x3x3 because its edges form a 7-cycle and its
/// corners have order 15 (lcm 105). The toy has corners only, so 15 is right;
/// the cycle-structure order agrees with brute-force repetition. (cubing.js's own
/// 2x2x2 definition gives 15 for `R U` too; its 3x3x3 gives 420, because it also
/// tracks the quarter turns of the R and U centers: lcm(105, 4).)
#[test]
fn r_u_has_order_15_on_corners() {
    let def = toy();
    let ru = t(&def, "R U");
    assert_eq!(order_by_repetition(&ru), 15);
    assert_eq!(ru.order(), Some(15));
    assert_eq!(t(&def, "(R U)15"), *def.identity());
}

#[test]
fn commutator_six_times_is_identity() {
    let def = toy();
    let sexy = t(&def, "[R, U]");
    assert_eq!(sexy, t(&def, "R U R' U'"));
    assert_eq!(sexy.order(), Some(6));
    for k in 1..6 {
        assert!(!sexy.power(k).is_identity(), "[R, U]^{k}");
    }
    assert!(sexy.power(6).is_identity());
    assert!(t(&def, "[R, U]6").is_identity());
    assert_eq!(
        *def.derived_move("Sexy")
            .map(DerivedMove::transformation)
            .unwrap_or(def.identity()),
        sexy
    );
}

#[test]
fn inverse_then_original_is_identity() {
    let def = toy();
    for alg in ["R", "R U F'", "[R: U] F2 (R U)3'", "Sexy 2Sune F"] {
        let a = t(&def, alg);
        assert!(a.invert().then(&a).is_identity(), "{alg}");
        assert!(a.then(&a.invert()).is_identity(), "{alg}");
        assert_eq!(a.power(-1), a.invert());
        assert_eq!(a.power(-3), a.invert().power(3));
        assert!(a.power(0).is_identity());
    }
}

#[test]
fn alg_and_its_parsed_inverse_cancel() {
    let def = toy();
    let text = "R U2' [F: R U] (R U)3' [R, F]2 . Sexy 2Sune";
    let alg = Alg::parse(text).expect("parses");
    let inverse_text = alg.invert().to_string();
    assert_eq!(
        inverse_text,
        "2Sune' Sexy' . [R, F]2' (R U)3 [F: U' R'] U2 R'"
    );
    let inverse = Alg::parse(&inverse_text).expect("the inverse parses");
    let forward = def.alg_transformation(&alg).expect("evaluates");
    let backward = def.alg_transformation(&inverse).expect("evaluates");
    assert!(forward.then(&backward).is_identity());
    assert!(!forward.is_identity());
}

/// cubing.js's conventions: `pieces'[i] = pieces[permutation[i]]` with the delta
/// added, and `A B` is `B`'s rule applied to `A`.
#[test]
fn conventions_match_cubing_js() {
    let def = toy();
    let u = t(&def, "U");
    let after_u = def.default_pattern().apply(&u);
    // U's permutation[0] is 3: slot URF receives the UBR corner.
    assert_eq!(after_u.orbits()[0].pieces(), &[3, 0, 1, 2, 4, 5, 6, 7]);

    let r = t(&def, "R");
    let after_r = def.default_pattern().apply(&r);
    assert_eq!(after_r.orbits()[0].pieces(), &[4, 1, 2, 0, 7, 5, 6, 3]);
    assert_eq!(after_r.orbits()[0].orientation(), &[2, 0, 0, 1, 1, 0, 0, 2]);

    let ru = t(&def, "R U");
    assert_eq!(ru, r.then(&u));
    assert_ne!(ru, u.then(&r));
    // composition of A then B: permutation[i] = A.permutation[B.permutation[i]].
    let expected: Vec<u16> = u.orbits()[0]
        .permutation()
        .iter()
        .map(|&b| r.orbits()[0].permutation()[usize::from(b)])
        .collect();
    assert_eq!(ru.orbits()[0].permutation(), expected.as_slice());
    assert_eq!(
        def.default_pattern().apply(&r).apply(&u),
        def.default_pattern().apply(&ru)
    );
    assert_eq!(def.pattern_of(&ru), def.default_pattern().apply(&ru));
    // Twists are conserved mod 3 by every move.
    for m in ["U", "R", "F", "R U F2"] {
        let sum: u32 = t(&def, m).orbits()[0]
            .orientation_delta()
            .iter()
            .map(|&d| u32::from(d))
            .sum();
        assert_eq!(sum % 3, 0, "{m}");
    }
}

#[test]
fn a_move_without_an_orbit_is_identity_there() {
    let mut v = toy_json();
    v["orbits"]
        .as_array_mut()
        .expect("array")
        .push(json!({"orbitName": "CENTERS", "numPieces": 2, "numOrientations": 4}));
    v["defaultPattern"]["CENTERS"] = json!({"pieces": [0, 1], "orientation": [0, 0]});
    v["moves"]["x"] = json!({"CENTERS": {"permutation": [1, 0], "orientationDelta": [1, 0]}});
    let def = KPuzzleDefinition::from_json_value(&v).expect("valid");
    assert!(t(&def, "U").orbits()[1].is_identity());
    assert!(t(&def, "x").orbits()[0].is_identity());
    // A 2-cycle twisted by 1 in all returns after 2 steps twisted by 1: order 2 * 4.
    assert_eq!(t(&def, "x").order(), Some(8));
    assert_eq!(t(&def, "x U").order(), Some(8));
}

#[test]
fn json_round_trip_of_transformations_and_patterns() {
    let def = toy();
    let r = t(&def, "R");
    assert_eq!(
        def.transformation_to_json(&r),
        json!({"CORNERS": {"permutation": [4, 1, 2, 0, 7, 5, 6, 3], "orientationDelta": [2, 0, 0, 1, 1, 0, 0, 2]}})
    );
    let pattern = def.pattern_of(&r);
    let text = def.pattern_to_json(&pattern).to_string();
    assert_eq!(def.pattern_from_json_str(&text), Ok(pattern));
}

// ---------------------------------------------------------------- identical pieces, orientationMod

fn identical_pieces_json() -> Value {
    json!({
        "name": "identical",
        "orbits": [{"orbitName": "CENTERS", "numPieces": 4, "numOrientations": 4}],
        "defaultPattern": {
            "CENTERS": {"pieces": [0, 0, 2, 3], "orientation": [0, 0, 0, 0], "orientationMod": [0, 0, 1, 2]}
        },
        "moves": {
            "Sab": {"CENTERS": {"permutation": [1, 0, 2, 3], "orientationDelta": [0, 0, 0, 0]}},
            "Sbc": {"CENTERS": {"permutation": [0, 2, 1, 3], "orientationDelta": [0, 0, 0, 0]}},
            "Tc": {"CENTERS": {"permutation": [0, 1, 2, 3], "orientationDelta": [0, 0, 1, 0]}},
            "Td": {"CENTERS": {"permutation": [0, 1, 2, 3], "orientationDelta": [0, 0, 0, 1]}},
            "Ta": {"CENTERS": {"permutation": [0, 1, 2, 3], "orientationDelta": [1, 0, 0, 0]}}
        }
    })
}

#[test]
fn identical_pieces_swap_unnoticed() {
    let def = KPuzzleDefinition::from_json_value(&identical_pieces_json()).expect("valid");
    let goal = def.default_pattern();
    let swapped = goal.apply(&t(&def, "Sab"));
    assert!(swapped.matches(goal));
    assert_eq!(
        swapped, *goal,
        "equal values make the swap exactly invisible"
    );
    assert!(!goal.apply(&t(&def, "Sbc")).matches(goal));
}

#[test]
fn orientation_mod_is_respected() {
    let def = KPuzzleDefinition::from_json_value(&identical_pieces_json()).expect("valid");
    let goal = def.default_pattern();
    assert_eq!(goal.orbits()[0].orientation_mod(), &[0, 0, 1, 2]);
    // Slot 2 is known mod 1: any twist is invisible.
    assert!(goal.apply(&t(&def, "Tc")).matches(goal));
    // Slot 3 is known mod 2: a quarter twist shows, a half twist does not.
    assert!(!goal.apply(&t(&def, "Td")).matches(goal));
    let half = goal.apply(&t(&def, "Td Td"));
    assert_eq!(half.orbits()[0].orientation(), &[0, 0, 0, 0]);
    assert!(half.matches(goal));
    // Slot 0 is fully known.
    let twisted = goal.apply(&t(&def, "Ta"));
    assert!(!twisted.matches(goal));
    // ...unless the caller ignores the orbit's orientation.
    assert!(!goal.orientation_ignored(0));
    let mut loose = goal.clone();
    loose.ignore_orientation(0);
    assert!(loose.orientation_ignored(0));
    assert!(twisted.matches(&loose));
}

#[test]
fn orientation_ignored_by_the_definition_is_visible() {
    let mut v = identical_pieces_json();
    v["defaultPattern"]["CENTERS"]["orientationMod"] = json!([1, 1, 1, 1]);
    let def = KPuzzleDefinition::from_json_value(&v).expect("valid");
    assert!(def.default_pattern().orientation_ignored(0));
    assert!(!toy().default_pattern().orientation_ignored(0));
}

// ---------------------------------------------------------------- definition errors

fn load(v: &Value) -> Result<KPuzzleDefinition, DefinitionError> {
    KPuzzleDefinition::from_json_str(&v.to_string())
}

/// Loads `v`, expects an error, and checks that its message names `field`.
fn error_naming(v: &Value, field: &str) -> DefinitionError {
    match load(v) {
        Ok(_) => panic!("expected an error naming `{field}`"),
        Err(e) => {
            assert!(
                e.to_string().contains(field),
                "`{e}` does not name `{field}`"
            );
            e
        }
    }
}

#[test]
fn error_not_json() {
    let e = KPuzzleDefinition::from_json_str("{\n  \"name\": \"x\",\n  oops\n}").unwrap_err();
    assert!(
        matches!(
            e,
            DefinitionError::NotJson {
                line: 3,
                column: 3,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("line 3, column 3"), "{e}");
}

#[test]
fn error_wrong_type_and_missing_field() {
    let mut v = toy_json();
    v["orbits"][0]["numPieces"] = json!("8");
    let e = error_naming(&v, "orbits[0].numPieces");
    assert!(matches!(e, DefinitionError::WrongType { .. }), "{e:?}");

    let mut v = toy_json();
    v["moves"]["U"]["CORNERS"]["permutation"][2] = json!(-1);
    let e = error_naming(&v, "moves.U.CORNERS.permutation[2]");
    assert!(matches!(e, DefinitionError::WrongType { .. }), "{e:?}");

    let mut v = toy_json();
    v.as_object_mut().expect("object").remove("defaultPattern");
    let e = error_naming(&v, "defaultPattern");
    assert!(matches!(e, DefinitionError::MissingField { .. }), "{e:?}");

    let mut v = toy_json();
    v["moves"]["R"]["CORNERS"]
        .as_object_mut()
        .expect("object")
        .remove("orientationDelta");
    let e = error_naming(&v, "moves.R.CORNERS.orientationDelta");
    assert!(matches!(e, DefinitionError::MissingField { .. }), "{e:?}");
}

#[test]
fn error_duplicate_orbit() {
    let mut v = toy_json();
    v["orbits"]
        .as_array_mut()
        .expect("array")
        .push(json!({"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3}));
    let e = error_naming(&v, "orbits[1].orbitName");
    assert!(
        matches!(e, DefinitionError::DuplicateOrbit { first_index: 0, .. }),
        "{e:?}"
    );
}

#[test]
fn error_unknown_orbit() {
    let mut v = toy_json();
    v["moves"]["U"]["EDGES"] = json!({"permutation": [0], "orientationDelta": [0]});
    let e = error_naming(&v, "moves.U.EDGES");
    assert!(matches!(e, DefinitionError::UnknownOrbit { .. }), "{e:?}");

    let mut v = toy_json();
    v["defaultPattern"]["EDGES"] = json!({"pieces": [0], "orientation": [0]});
    let e = error_naming(&v, "defaultPattern.EDGES");
    assert!(matches!(e, DefinitionError::UnknownOrbit { .. }), "{e:?}");
}

#[test]
fn error_missing_pattern_orbit() {
    let mut v = toy_json();
    v["defaultPattern"]
        .as_object_mut()
        .expect("object")
        .remove("CORNERS");
    let e = error_naming(&v, "defaultPattern");
    assert!(
        matches!(&e, DefinitionError::MissingPatternOrbit { orbit, .. } if orbit == "CORNERS"),
        "{e:?}"
    );
}

#[test]
fn error_wrong_length() {
    let mut v = toy_json();
    v["moves"]["U"]["CORNERS"]["orientationDelta"] = json!([0, 0, 0]);
    let e = error_naming(&v, "moves.U.CORNERS.orientationDelta");
    assert!(
        matches!(
            e,
            DefinitionError::WrongLength {
                expected: 8,
                found: 3,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn error_not_a_permutation() {
    let mut v = toy_json();
    v["moves"]["U"]["CORNERS"]["permutation"] = json!([3, 0, 1, 2, 4, 5, 6, 8]);
    let e = error_naming(&v, "moves.U.CORNERS.permutation");
    assert!(
        matches!(
            e,
            DefinitionError::PermutationOutOfRange {
                index: 7,
                value: 8,
                ..
            }
        ),
        "{e:?}"
    );

    let mut v = toy_json();
    v["moves"]["U"]["CORNERS"]["permutation"] = json!([3, 0, 1, 3, 4, 5, 6, 7]);
    let e = error_naming(&v, "moves.U.CORNERS.permutation");
    assert!(
        matches!(
            e,
            DefinitionError::PermutationRepeated {
                value: 3,
                first_index: 0,
                index: 3,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn error_orientation_out_of_range() {
    let mut v = toy_json();
    v["moves"]["R"]["CORNERS"]["orientationDelta"][0] = json!(3);
    let e = error_naming(&v, "moves.R.CORNERS.orientationDelta");
    assert!(
        matches!(
            e,
            DefinitionError::OrientationOutOfRange {
                index: 0,
                value: 3,
                modulus: 3,
                ..
            }
        ),
        "{e:?}"
    );

    let mut v = toy_json();
    v["defaultPattern"]["CORNERS"]["orientation"][5] = json!(7);
    let e = error_naming(&v, "defaultPattern.CORNERS.orientation");
    assert!(
        matches!(
            e,
            DefinitionError::OrientationOutOfRange {
                index: 5,
                value: 7,
                ..
            }
        ),
        "{e:?}"
    );

    // Below numOrientations but not below the piece's orientationMod.
    let mut v = identical_pieces_json();
    v["defaultPattern"]["CENTERS"]["orientation"] = json!([0, 0, 0, 2]);
    let e = error_naming(&v, "defaultPattern.CENTERS.orientation");
    assert!(
        matches!(
            e,
            DefinitionError::OrientationOutOfRange {
                index: 3,
                modulus: 2,
                ..
            }
        ),
        "{e:?}"
    );
}

/// cubing.js's clock writes the delta 3 (mod 4) as -1; negatives above -n read mod n.
#[test]
fn negative_orientation_deltas_read_mod_n() {
    let mut v = toy_json();
    v["moves"]["R"]["CORNERS"]["orientationDelta"] = json!([-1, 0, 0, 1, 1, 0, 0, -1]);
    let def = load(&v).expect("valid");
    assert_eq!(t(&def, "R"), t(&toy(), "R"));

    v["moves"]["R"]["CORNERS"]["orientationDelta"][0] = json!(-3);
    let e = error_naming(&v, "moves.R.CORNERS.orientationDelta");
    assert!(
        matches!(e, DefinitionError::OrientationOutOfRange { value: -3, .. }),
        "{e:?}"
    );
}

#[test]
fn error_zero_size() {
    let mut v = toy_json();
    v["orbits"][0]["numPieces"] = json!(0);
    let e = error_naming(&v, "orbits[0].numPieces");
    assert!(matches!(e, DefinitionError::ZeroSize { .. }), "{e:?}");

    let mut v = toy_json();
    v["orbits"][0]["numOrientations"] = json!(0);
    let e = error_naming(&v, "orbits[0].numOrientations");
    assert!(matches!(e, DefinitionError::ZeroSize { .. }), "{e:?}");
}

#[test]
fn error_too_large() {
    let mut v = toy_json();
    v["orbits"][0]["numOrientations"] = json!(256);
    let e = error_naming(&v, "orbits[0].numOrientations");
    assert!(
        matches!(
            e,
            DefinitionError::TooLarge {
                value: 256,
                max: 255,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn error_invalid_orientation_mod() {
    let mut v = identical_pieces_json();
    v["defaultPattern"]["CENTERS"]["orientationMod"] = json!([0, 0, 3, 0]);
    let e = error_naming(&v, "defaultPattern.CENTERS.orientationMod");
    assert!(
        matches!(
            e,
            DefinitionError::InvalidOrientationMod {
                index: 2,
                value: 3,
                num_orientations: 4,
                ..
            }
        ),
        "{e:?}"
    );
    // numOrientations itself means "fully known", like 0.
    v["defaultPattern"]["CENTERS"]["orientationMod"] = json!([4, 0, 1, 2]);
    let def = load(&v).expect("valid");
    assert_eq!(
        def.default_pattern().orbits()[0].orientation_mod(),
        &[0, 0, 1, 2]
    );
}

#[test]
fn error_derived_move_self_reference() {
    let mut v = toy_json();
    v["derivedMoves"]["Loop"] = json!("R Loop U");
    let e = error_naming(&v, "derivedMoves.Loop");
    assert!(
        matches!(&e, DefinitionError::DerivedMoveSelfReference { name, .. } if name == "Loop"),
        "{e:?}"
    );
}

#[test]
fn error_derived_move_cycle() {
    let mut v = toy_json();
    v["derivedMoves"]["A"] = json!("R B");
    v["derivedMoves"]["B"] = json!("[U: C]");
    v["derivedMoves"]["C"] = json!("A2");
    let e = error_naming(&v, "A -> B -> C -> A");
    assert!(
        matches!(&e, DefinitionError::DerivedMoveCycle { cycle } if cycle == &["A", "B", "C", "A"]),
        "{e:?}"
    );
}

#[test]
fn error_derived_move_unknown_move() {
    let mut v = toy_json();
    v["derivedMoves"]["Bad"] = json!("R Q2 U");
    let e = error_naming(&v, "derivedMoves.Bad");
    assert!(
        matches!(&e, DefinitionError::DerivedMoveUnknownMove { move_text, position: 2, known, .. }
            if move_text == "Q2" && known.iter().any(|k| k == "R")),
        "{e:?}"
    );
    assert!(e.to_string().contains("F, R, U"), "{e}");
}

#[test]
fn error_derived_move_parse() {
    let mut v = toy_json();
    v["derivedMoves"]["Bad"] = json!("[R, U");
    let e = error_naming(&v, "derivedMoves.Bad");
    assert!(
        matches!(
            &e,
            DefinitionError::DerivedMoveParse {
                source: AlgError::UnclosedBracket {
                    bracket: '[',
                    position: 0
                },
                ..
            }
        ),
        "{e:?}"
    );
}

// ---------------------------------------------------------------- algorithms

#[test]
fn move_syntax() {
    let parsed = |text: &str| -> Vec<(String, i64)> {
        Alg::parse(text)
            .unwrap_or_else(|e| panic!("`{text}`: {e}"))
            .nodes()
            .iter()
            .filter_map(|n| match n {
                AlgNode::Move(m) => Some((m.quantum().to_owned(), m.amount())),
                _ => None,
            })
            .collect()
    };
    let expected: Vec<(String, i64)> = [
        ("R", 1),
        ("R", 2),
        ("R", -1),
        ("R", -2),
        ("R", 3),
        ("Uw", 1),
        ("2R", 1),
        ("3Rw", -2),
        ("2-3Rw", 1),
        ("u", 1),
        ("x", 0),
        ("BR", 1),
        ("DBL", -1),
        ("UR_PLUS_", 3),
        ("UR_PLUS_", -5),
        ("R_PLUSPLUS_", 1),
        ("D_PLUSPLUS_", -1),
        ("U_SQ_", 1),
    ]
    .iter()
    .map(|(q, a)| ((*q).to_owned(), *a))
    .collect();
    assert_eq!(
        parsed("R R2 R' R2' R3 Uw 2R 3Rw2' 2-3Rw u x0 BR DBL' UR3+ UR5- R++ D-- U_SQ_"),
        expected
    );
    for text in [
        "R R2 R' R2' R3 Uw 2R 3Rw2' 2-3Rw u x0 BR DBL'",
        "UR3+ UR5- R++ D-- (1, -2) / (0, 3)",
        "[R, U]2 [R: U]' (R U)3' . R",
    ] {
        let alg = Alg::parse(text).expect("parses");
        assert_eq!(alg.to_string(), text);
    }
    // As in cubing.js, `/` may touch what precedes it (csTimer's `(1,0)/`), not what follows.
    assert_eq!(
        Alg::parse("(1,0)/ (-1,0)").map(|a| a.to_string()),
        Ok("(1, 0) / (-1, 0)".to_owned())
    );
    assert_eq!(
        Alg::parse("(1,0)/(-1,0)"),
        Err(AlgError::MissingSpace { position: 6 })
    );
    assert_eq!(
        Alg::parse("R  U\n\tF // a comment\nR'").map(|a| a.to_string()),
        Ok("R U F R'".to_owned())
    );
    assert_eq!(Alg::parse("").map(|a| a.nodes().len()), Ok(0));
}

#[test]
fn alg_errors() {
    let def = toy();
    let e = def.transformation_of("R U Q").unwrap_err();
    assert!(
        matches!(&e, AlgError::UnknownMove { name, position: 4, known } if name == "Q" && known.len() > 3),
        "{e:?}"
    );
    assert!(e.to_string().contains("known moves include F, R, U"), "{e}");

    let cases: [(&str, AlgError); 8] = [
        (
            "R (U F",
            AlgError::UnclosedBracket {
                bracket: '(',
                position: 2,
            },
        ),
        (
            "R U) F",
            AlgError::UnopenedBracket {
                bracket: ')',
                position: 3,
            },
        ),
        (
            "[R: U)",
            AlgError::MismatchedBracket {
                open: '[',
                open_position: 0,
                found: ')',
                position: 5,
            },
        ),
        (
            "(R U]",
            AlgError::MismatchedBracket {
                open: '(',
                open_position: 0,
                found: ']',
                position: 4,
            },
        ),
        (
            "[R U]",
            AlgError::MissingSeparator {
                open_position: 0,
                position: 4,
            },
        ),
        ("R'U", AlgError::MissingSpace { position: 2 }),
        (
            "R U $",
            AlgError::UnexpectedCharacter {
                character: '$',
                position: 4,
            },
        ),
        (
            "R U, F",
            AlgError::UnexpectedCharacter {
                character: ',',
                position: 3,
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(Alg::parse(text), Err(expected), "`{text}`");
    }
    let deep = format!(
        "{}R{}",
        "(".repeat(MAX_ALG_NESTING + 1),
        ")".repeat(MAX_ALG_NESTING + 1)
    );
    assert_eq!(
        Alg::parse(&deep),
        Err(AlgError::TooDeep {
            position: MAX_ALG_NESTING
        })
    );
    let ok = format!(
        "{}R{}",
        "(".repeat(MAX_ALG_NESTING),
        ")".repeat(MAX_ALG_NESTING)
    );
    assert!(def.transformation_of(&ok).is_ok());
    for text in ["R02", "3-2Rw", "0R", "2", "UR3'+", "R2++", "UR+"] {
        assert!(
            matches!(Alg::parse(text), Err(AlgError::MalformedMove { .. })),
            "`{text}`: {:?}",
            Alg::parse(text)
        );
    }
}

/// A family that starts with a digit (`2Sune`), and cubing.js's fallbacks: a
/// name spelled with its amount (`y2`, as clock and Melinda's 2x2x2x2 define),
/// and its inverse.
#[test]
fn move_names_resolve_like_cubing_js() {
    let def = toy();
    assert_eq!(t(&def, "2Sune"), t(&def, "R U R' U R U2' R'"));
    assert_eq!(t(&def, "2Sune2"), t(&def, "2Sune 2Sune"));
    assert_eq!(t(&def, "Uw'"), t(&def, "U'"));

    let mut v = toy_json();
    let y2 = v["moves"]["U"].clone();
    v["moves"]["y2"] = y2;
    v["derivedMoves"]["x2"] = json!("y2 R");
    let def = load(&v).expect("valid");
    assert_eq!(t(&def, "y2"), t(&def, "U"));
    assert_eq!(t(&def, "y2'"), t(&def, "U'"));
    assert_eq!(t(&def, "x2'"), t(&def, "R' U'"));
    assert!(def.transformation_of("y3").is_err());
}

// ---------------------------------------------------------------- generators

#[test]
fn generators_on_the_toy() {
    let def = toy();
    let htm = Generators::parse(&def, "U,R,F", Metric::Htm).expect("valid");
    let names: Vec<&str> = htm.moves().iter().map(GeneratorMove::name).collect();
    assert_eq!(names, ["U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'"]);
    assert!(htm.moves().iter().all(|m| m.cost() == 1));

    let qtm = Generators::parse(&def, "U, R, F", Metric::Qtm).expect("valid");
    assert_eq!(qtm.len(), 9);
    let costs: Vec<u32> = qtm.moves().iter().map(GeneratorMove::cost).collect();
    assert_eq!(costs, [1, 2, 1, 1, 2, 1, 1, 2, 1]);
    let inverses: Vec<usize> = qtm.moves().iter().map(GeneratorMove::inverse).collect();
    assert_eq!(inverses, [2, 1, 0, 5, 4, 3, 8, 7, 6]);
    let classes: Vec<usize> = qtm.moves().iter().map(GeneratorMove::class).collect();
    assert_eq!(classes, [0, 0, 0, 1, 1, 1, 2, 2, 2]);
    for m in qtm.moves() {
        assert_eq!(t(&def, m.name()), *m.transformation(), "{}", m.name());
        assert!(
            m.transformation()
                .then(qtm.moves()[m.inverse()].transformation())
                .is_identity()
        );
    }
}

#[test]
fn generators_skip_duplicates_and_take_amounts() {
    let def = toy();
    let g = Generators::parse(&def, "U,Uw,U2", Metric::Qtm).expect("valid");
    assert_eq!(g.len(), 3, "Uw and U2 add nothing new");
    let g = Generators::parse(&def, "R2,U", Metric::Qtm).expect("valid");
    let named: Vec<(&str, u32)> = g.moves().iter().map(|m| (m.name(), m.cost())).collect();
    assert_eq!(named, [("R2", 2), ("U", 1), ("U2", 2), ("U'", 1)]);
    let g = Generators::parse(&def, "Sexy", Metric::Htm).expect("valid");
    let names: Vec<&str> = g.moves().iter().map(GeneratorMove::name).collect();
    assert_eq!(names, ["Sexy", "Sexy2", "Sexy3", "Sexy2'", "Sexy'"]);
}

/// Orders 3 and 5 (a pyraminx tip, a megaminx face) name their powers as twips does.
#[test]
fn generator_names_for_orders_3_and_5() {
    let v = json!({
        "name": "cycles",
        "orbits": [{"orbitName": "P", "numPieces": 5, "numOrientations": 1}],
        "defaultPattern": {"P": {"pieces": [0, 1, 2, 3, 4], "orientation": [0, 0, 0, 0, 0]}},
        "moves": {
            "T": {"P": {"permutation": [1, 2, 0, 3, 4], "orientationDelta": [0, 0, 0, 0, 0]}},
            "M": {"P": {"permutation": [1, 2, 3, 4, 0], "orientationDelta": [0, 0, 0, 0, 0]}}
        }
    });
    let def = load(&v).expect("valid");
    let g = Generators::parse(&def, "T,M", Metric::Qtm).expect("valid");
    let named: Vec<(&str, u32, usize)> = g
        .moves()
        .iter()
        .map(|m| (m.name(), m.cost(), m.inverse()))
        .collect();
    assert_eq!(
        named,
        [
            ("T", 1, 1),
            ("T'", 1, 0),
            ("M", 1, 5),
            ("M2", 2, 4),
            ("M2'", 2, 3),
            ("M'", 1, 2)
        ]
    );
}

#[test]
fn generator_errors() {
    let def = toy();
    assert_eq!(
        Generators::parse(&def, " ", Metric::Htm),
        Err(GeneratorsError::Empty)
    );
    assert!(matches!(
        Generators::parse(&def, "U,,R", Metric::Htm),
        Err(GeneratorsError::EmptyEntry { index: 1, .. })
    ));
    assert!(matches!(
        Generators::parse(&def, "U,R U", Metric::Htm),
        Err(GeneratorsError::NotAMove { .. })
    ));
    assert!(matches!(
        Generators::parse(&def, "U,Q", Metric::Htm),
        Err(GeneratorsError::Alg {
            source: AlgError::UnknownMove { .. },
            ..
        })
    ));

    // Cycles of 7, 9, 11 and 13 pieces: order 9009, more powers than one generator may add.
    let mut permutation = Vec::new();
    let mut start = 0;
    for length in [7, 9, 11, 13] {
        permutation.extend((0..length).map(|i| start + (i + 1) % length));
        start += length;
    }
    let v = json!({
        "name": "long",
        "orbits": [{"orbitName": "P", "numPieces": 40, "numOrientations": 1}],
        "defaultPattern": {"P": {"pieces": (0..40).collect::<Vec<_>>(), "orientation": vec![0; 40]}},
        "moves": {"X": {"P": {"permutation": permutation, "orientationDelta": vec![0; 40]}}}
    });
    let def = load(&v).expect("valid");
    assert_eq!(t(&def, "X").order(), Some(9009));
    assert_eq!(
        Generators::parse(&def, "X", Metric::Htm),
        Err(GeneratorsError::OrderTooLarge {
            text: "X".to_owned(),
            order: Some(9009)
        })
    );
}

// ---------------------------------------------------------------- check_all_definitions

/// A directory under the system temp dir, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("kpuzzle-test-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn check_all_definitions_reads_a_directory() {
    let dir = TempDir::new("ok");
    std::fs::write(dir.0.join("toy.kpuzzle.json"), toy_json().to_string()).expect("write");
    std::fs::write(
        dir.0.join("identical.kpuzzle.json"),
        identical_pieces_json().to_string(),
    )
    .expect("write");
    std::fs::write(dir.0.join("README.txt"), "not a definition").expect("write");
    let summaries = check_all_definitions(&dir.0).expect("both load");
    let rows: Vec<(&str, usize, usize)> = summaries
        .iter()
        .map(|s| (s.name.as_str(), s.moves, s.derived_moves))
        .collect();
    assert_eq!(rows, [("identical", 5, 0), ("toy 2x2x2", 3, 3)]);
    assert_eq!(summaries[1].orbits, [("CORNERS".to_owned(), 8, 3)]);

    std::fs::write(dir.0.join("broken.kpuzzle.json"), "{\"name\": 1}").expect("write");
    let e = check_all_definitions(&dir.0).unwrap_err();
    assert!(
        matches!(&e, CheckError::Invalid { total: 3, failures, .. } if failures.len() == 1),
        "{e:?}"
    );
    assert!(e.to_string().contains("broken.kpuzzle.json"), "{e}");

    let empty = TempDir::new("empty");
    assert!(matches!(
        check_all_definitions(&empty.0),
        Err(CheckError::NoDefinitions { .. })
    ));
}
