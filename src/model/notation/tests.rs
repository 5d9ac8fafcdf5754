use super::*;

fn parsed(text: &str) -> String {
    format_moves(&parse_moves(text).expect(text))
}

#[test]
fn plain_turns_and_suffixes() {
    assert_eq!(parsed("R U R' U'"), "R U R' U'");
    assert_eq!(parsed("  R2' U3 (F2)  B1 "), "R2 U' F2 B");
    assert_eq!(parsed("RUR'U'"), "R U R' U'");
    assert_eq!(parsed("R4 U"), "U");
    assert_eq!(parsed(""), "");
}

#[test]
fn rotations_relabel_later_turns() {
    assert_eq!(parsed("x U"), "F");
    assert_eq!(parsed("y R"), "B");
    assert_eq!(parsed("z U"), "L");
    assert_eq!(parsed("x2 U"), "D");
    assert_eq!(parsed("U x"), "U");
}

#[test]
fn wide_turns_and_slices_become_outer_turns() {
    assert_eq!(parsed("Rw"), "L");
    assert_eq!(parsed("r U"), "L F");
    assert_eq!(parsed("M"), "L' R");
    assert_eq!(parsed("M U"), "L' R B");
    assert_eq!(parsed("E2"), "D2 U2");
    assert_eq!(parsed("S"), "F' B");
}

#[test]
fn groups_repeat_and_carry_rotations() {
    assert_eq!(parsed("(R U)3"), "R U R U R U");
    assert_eq!(parsed("(y R)2"), "B L");
    assert_eq!(parsed("((R)2 U)2"), "R R U R R U");
    assert_eq!(parsed("(R U)0 F"), "F");
}

#[test]
fn errors_name_the_token_and_column() {
    assert_eq!(
        parse_moves("R U Q2 F"),
        Err(NotationError::UnknownToken {
            token: "Q2".into(),
            column: 5
        })
    );
    assert_eq!(
        parse_moves("R U2#"),
        Err(NotationError::UnknownToken {
            token: "U2#".into(),
            column: 3
        })
    );
    assert_eq!(
        parse_moves("R0"),
        Err(NotationError::ZeroTurn {
            token: "R0".into(),
            column: 1
        })
    );
    assert_eq!(
        parse_moves("R (U"),
        Err(NotationError::Unclosed {
            open: '(',
            column: 3
        })
    );
    assert_eq!(
        parse_moves("R U)"),
        Err(NotationError::Unopened {
            close: ')',
            column: 4
        })
    );
    assert_eq!(
        parse_moves("(R U)99999999999999999999"),
        Err(NotationError::TooLong { column: 1 })
    );
    // After other turns too: the count saturates, and the sum with the turns before must not
    // wrap (found by fuzzing; it filled memory).
    assert_eq!(
        parse_moves("U [R, U]77777777777777777777"),
        Err(NotationError::TooLong { column: 3 })
    );
}

#[test]
fn counts_act_modulo_the_turn_order_however_long() {
    assert_eq!(parsed("R100000000000000000000"), "");
    assert_eq!(parsed("R100000000000000000001"), "R");
    assert_eq!(parsed("R100000000000000000003'"), "R");
    assert_eq!(parsed("U18446744073709551617"), "U");
    assert!(matches!(
        parse_moves("R00000000000000000000000"),
        Err(NotationError::ZeroTurn { .. })
    ));
}

#[test]
fn repeats_that_write_nothing_end_at_once() {
    for text in [
        "(x)99999999999",
        "()99999999999",
        "(R4)99999999999",
        "(y2 y2)99999999999",
    ] {
        let result = parse_moves(text);
        assert!(
            matches!(result, Ok(ref m) if m.is_empty())
                || matches!(result, Err(NotationError::TooLong { column: 1 })),
            "{text}: {result:?}"
        );
    }
    assert_eq!(parsed("(x)5 U"), "F");
    assert_eq!(parsed("((x)3)2 U"), "D");
}

#[test]
fn nesting_is_bounded_with_a_clear_error() {
    let deep = format!("{}R{}", "(".repeat(30_000), ")".repeat(30_000));
    assert!(matches!(
        parse_moves(&deep),
        Err(NotationError::TooDeep { column: 65 })
    ));
    let fine = format!("{}R{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
    assert_eq!(parsed(&fine), "R");
}

/// Columns used to be found by counting the line from its start at every token: a line of
/// a megabyte took minutes. It now parses in one pass, and the error column is exact.
#[test]
fn long_lines_parse_in_one_pass() {
    let line = "R U ".repeat(250_000);
    assert_eq!(parse_moves(&line).map(|m| m.len()), Ok(500_000));
    let bad = format!("{line}Q");
    assert_eq!(
        parse_moves(&bad),
        Err(NotationError::UnknownToken {
            token: "Q".into(),
            column: 1_000_001
        })
    );
    let too_many = "R U ".repeat(MAX_MOVES / 2 + 1);
    assert!(matches!(
        parse_moves(&too_many),
        Err(NotationError::TooLong { .. })
    ));
}

/// A slice is two face turns: a sequence within the limit of written turns may resolve past
/// the limit of face turns, and is refused rather than read into a list whose printed form
/// would not read back (found by fuzzing: `(RR S11 M)221121`).
#[test]
fn slices_count_as_the_face_turns_they_make() {
    assert_eq!(
        parse_moves("(S)600000"),
        Err(NotationError::TooLong { column: 10 })
    );
    assert_eq!(
        parse_moves("(RR S11 M)221121"),
        Err(NotationError::TooLong { column: 17 })
    );
    let most = parse_moves("(S)500000").map(|m| m.len());
    assert_eq!(most, Ok(MAX_MOVES));
    let printed = parse_moves("(S)500000").map(|m| crate::model::notation::format_moves(&m));
    assert!(printed.is_ok_and(|p| parse_moves(&p).is_ok()));
}

#[test]
fn a_puzzle_without_inner_layers_rejects_wide_turns_and_slices() {
    for (text, token, column) in [
        ("R Rw", "Rw", 3),
        ("M2", "M2", 1),
        ("U r'", "r'", 3),
        ("(E)2", "E", 2),
        ("S", "S", 1),
    ] {
        assert_eq!(
            parse_outer_moves(text),
            Err(NotationError::InnerLayer {
                token: token.into(),
                column
            }),
            "{text}"
        );
        assert!(parse_moves(text).is_ok());
    }
    assert_eq!(
        format_moves(&parse_outer_moves("x R U2 y F'").unwrap()),
        format_moves(&parse_moves("x R U2 y F'").unwrap())
    );
}

#[test]
fn commutators_conjugates_and_comments_read_as_cubing_js_reads_them() {
    assert_eq!(parsed("[R, U]"), "R U R' U'");
    assert_eq!(parsed("[R: U]"), "R U R'");
    assert_eq!(parsed("[R U: [F, D2]]"), "R U F D2 F' D2 U' R'");
    assert_eq!(parsed("[R, U]2 F"), "R U R' U' R U R' U' F");
    assert_eq!(parsed("R U // a comment, with ] and ("), "R U");
    assert_eq!(parsed("R′ U’"), "R' U'");
    // Inverting written turns undoes rotations too: [x, R] = x R x' R'.
    assert_eq!(parsed("[x, R]"), "R R'");
    assert_eq!(parsed("[x: U]"), "F");
    for (text, error) in [
        ("[R U]", NotationError::NoSeparator { column: 1 }),
        (
            "[R, U",
            NotationError::Unclosed {
                open: '[',
                column: 1,
            },
        ),
        (
            "R ]",
            NotationError::Unopened {
                close: ']',
                column: 3,
            },
        ),
        (
            "R, U",
            NotationError::UnknownToken {
                token: ",".into(),
                column: 2,
            },
        ),
        (
            "(R, U)",
            NotationError::Unclosed {
                open: '(',
                column: 1,
            },
        ),
    ] {
        assert_eq!(parse_moves(text), Err(error), "{text}");
    }
}

/// Every bracket form agrees with the same turns written out, on the cube itself.
#[test]
fn bracket_forms_equal_their_expansions_as_positions() {
    use crate::model::cube::Cube3;
    let position = |text: &str| Cube3::from_moves(&parse_moves(text).unwrap());
    assert_eq!(position("[R, U]6"), Cube3::SOLVED, "[R, U] has order 6");
    assert_eq!(position("(R U)105"), Cube3::SOLVED, "R U has order 105");
    assert_eq!(position("[Rw: [M', U2]]"), position("Rw M' U2 M U2 Rw'"));
    assert_eq!(position("[y, R]"), position("y R y' R'"));
}
