//! Singmaster/WCA move notation.
//!
//! Reads face turns (`R`, `R'`, `R2`, `R2'`, `R3`), wide turns (`Rw`, `r`), slices (`M E S`),
//! rotations (`x y z`), groups in parentheses with an optional repeat count (`(R U)6`), and free
//! whitespace. Everything is resolved to turns of the six outer faces against fixed centres:
//! a rotation only relabels the faces that later turns name, and a wide turn or slice becomes
//! outer turns plus such a rotation. A trailing rotation therefore changes no position.

use crate::cube::{Face, Move, Rotation};

/// A fault in a move sequence; columns are 1-based character positions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("unknown move '{token}' at column {column}")]
    UnknownToken { token: String, column: usize },
    #[error("'{token}' at column {column} turns zero times")]
    ZeroTurn { token: String, column: usize },
    #[error("'(' at column {column} is never closed")]
    Unclosed { column: usize },
    #[error("')' at column {column} closes nothing")]
    Unopened { column: usize },
    #[error("the group opened at column {column} repeats to more than {MAX_WORK} steps")]
    TooLong { column: usize },
    #[error("the sequence is longer than {MAX_MOVES} moves (from column {column} on)")]
    TooManyMoves { column: usize },
    #[error("the group opened at column {column} is nested more than {MAX_NESTING} deep")]
    TooDeep { column: usize },
    #[error("'{token}' at column {column} turns an inner layer, which a 2x2 does not have")]
    InnerLayer { token: String, column: usize },
}

/// The most turns a sequence may expand to; repeat counts beyond that are surely typos.
pub const MAX_MOVES: usize = 1_000_000;

/// The most tokens the parser reads, counting each repeat of a group's body anew: what bounds
/// its time where repeats write no turns (`(x)99999999999`, `(R4)99999999999`), which a cap
/// on turns alone would let run for hours.
pub const MAX_WORK: u64 = 4 * MAX_MOVES as u64;

/// The deepest nesting of groups: each level is a frame of the parser's recursion, so an
/// unbounded depth would overflow the stack instead of failing cleanly.
pub const MAX_NESTING: usize = 64;

/// A written decimal count: its value where it fits, and its residue modulo 12 exactly
/// however long it is, which is all a turn needs (every turn's order divides 4).
#[derive(Clone, Copy)]
struct Count {
    /// Saturates at `u64::MAX`.
    value: u64,
    residue: u8,
}

/// What a single written turn does.
#[derive(Clone, Copy)]
enum Turn {
    Outer(Face),
    Wide(Face),
    /// A middle slice, turning in the sense of the given face (M as L, E as D, S as F).
    Slice(Face),
    Rotation(Face),
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    frame: Rotation,
    out: Vec<Move>,
    /// Tokens read so far, each repeat of a group counted (see [`MAX_WORK`]).
    work: u64,
    /// Whether the puzzle has inner layers for wide turns and slices to turn.
    inner_layers: bool,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    /// The 1-based column of the next character (one past the end at the end).
    fn column(&self) -> usize {
        self.pos + 1
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// An optional decimal count; `None` when no digit follows.
    fn number(&mut self) -> Option<Count> {
        let start = self.pos;
        let mut count = Count {
            value: 0,
            residue: 0,
        };
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            count.value = count.value.saturating_mul(10).saturating_add(u64::from(d));
            count.residue = ((u32::from(count.residue) * 10 + d) % 12) as u8;
            self.pos += 1;
        }
        (self.pos > start).then_some(count)
    }

    /// Counts `steps` tokens of work; an error for the group opened at `open` past the cap.
    fn spend(&mut self, steps: u64, open: usize) -> Result<(), NotationError> {
        self.work = self.work.saturating_add(steps);
        if self.work > MAX_WORK {
            return Err(NotationError::TooLong { column: open });
        }
        Ok(())
    }

    /// Parses items until the end or a `)` (which the caller checks for).
    fn sequence(&mut self, depth: usize) -> Result<(), NotationError> {
        loop {
            self.skip_space();
            let column = self.column();
            match self.peek() {
                None => return Ok(()),
                Some(')') if depth == 0 => return Err(NotationError::Unopened { column }),
                Some(')') => return Ok(()),
                Some('(') => self.group(depth)?,
                Some(_) => {
                    self.work += 1;
                    self.turn()?;
                    if self.out.len() > MAX_MOVES {
                        return Err(NotationError::TooManyMoves { column });
                    }
                }
            }
        }
    }

    /// A parenthesised group, repeated as its count says. Each repeat parses the body again, so
    /// rotations inside the group carry over from one pass to the next exactly as written out.
    ///
    /// A body whose pass changes nothing (`()`, `(R4)`) is not repeated; any other is repeated
    /// only if all its repeats fit in [`MAX_WORK`], checked before the first.
    fn group(&mut self, depth: usize) -> Result<(), NotationError> {
        let open = self.column();
        if depth >= MAX_NESTING {
            return Err(NotationError::TooDeep { column: open });
        }
        self.pos += 1;
        self.work += 1;
        let body = self.pos;
        let before = (self.out.len(), self.frame, self.work);
        self.sequence_until_close(depth + 1, open)?;
        self.pos += 1;
        let count = self.number().map_or(1, |c| c.value);
        let after = self.pos;
        if count == 0 {
            self.out.truncate(before.0);
            self.frame = before.1;
        }
        let unchanged = self.out.len() == before.0 && self.frame == before.1;
        if count > 1 && !unchanged {
            self.spend((count - 1).saturating_mul(self.work - before.2), open)?;
            for _ in 1..count {
                self.pos = body;
                self.sequence_until_close(depth + 1, open)?;
                if self.out.len() > MAX_MOVES {
                    return Err(NotationError::TooManyMoves { column: open });
                }
            }
        }
        self.pos = after;
        Ok(())
    }

    fn sequence_until_close(&mut self, depth: usize, open: usize) -> Result<(), NotationError> {
        self.sequence(depth)?;
        match self.peek() {
            Some(')') => Ok(()),
            _ => Err(NotationError::Unclosed { column: open }),
        }
    }

    fn turn(&mut self) -> Result<(), NotationError> {
        let column = self.column();
        let start = self.pos;
        let Some(c) = self.peek() else { return Ok(()) };
        self.pos += 1;
        let turn = match c {
            'x' => Turn::Rotation(Face::R),
            'y' => Turn::Rotation(Face::U),
            'z' => Turn::Rotation(Face::F),
            'M' => Turn::Slice(Face::L),
            'E' => Turn::Slice(Face::D),
            'S' => Turn::Slice(Face::F),
            c if Face::from_letter(c).is_some() => {
                let face = Face::from_letter(c).unwrap_or(Face::U);
                if self.peek() == Some('w') {
                    self.pos += 1;
                    Turn::Wide(face)
                } else {
                    Turn::Outer(face)
                }
            }
            c if Face::from_letter(c.to_ascii_uppercase()).is_some() && c.is_ascii_lowercase() => {
                Turn::Wide(Face::from_letter(c.to_ascii_uppercase()).unwrap_or(Face::U))
            }
            _ => {
                while self
                    .peek()
                    .is_some_and(|c| !c.is_whitespace() && c != '(' && c != ')')
                {
                    self.pos += 1;
                }
                return Err(self.error_here(start, column, true));
            }
        };
        let count = self.number();
        let prime = matches!(self.peek(), Some('\'' | '’'));
        if prime {
            self.pos += 1;
        }
        if self
            .peek()
            .is_some_and(|c| !c.is_whitespace() && c != '(' && c != ')')
        {
            // Glued moves such as "RU" are fine; anything else glued on is not.
            if !self
                .peek()
                .is_some_and(|c| "URFDLBurfdlbMESxyz".contains(c))
            {
                while self.peek().is_some_and(|c| !c.is_whitespace()) {
                    self.pos += 1;
                }
                return Err(self.error_here(start, column, true));
            }
        }
        if count.is_some_and(|c| c.value == 0) {
            return Err(self.error_here(start, column, false));
        }
        if !self.inner_layers && matches!(turn, Turn::Wide(_) | Turn::Slice(_)) {
            let token = self.chars[start..self.pos].iter().collect();
            return Err(NotationError::InnerLayer { token, column });
        }
        let quarter_turns = count.map_or(1, |c| c.residue % 4);
        let quarter_turns = if prime {
            (4 - quarter_turns) % 4
        } else {
            quarter_turns
        };
        if quarter_turns != 0 {
            self.emit(turn, quarter_turns);
        }
        Ok(())
    }

    fn error_here(&self, start: usize, column: usize, unknown: bool) -> NotationError {
        let token: String = self.chars[start..self.pos].iter().collect();
        if unknown {
            NotationError::UnknownToken { token, column }
        } else {
            NotationError::ZeroTurn { token, column }
        }
    }

    /// A turn of the face labelled `face` in the current frame.
    fn push_outer(&mut self, face: Face, quarter_turns: u8) {
        self.out
            .push(self.frame.map_move(Move::new(face, quarter_turns)));
    }

    /// Resolves one written turn into outer turns against the fixed centres.
    fn emit(&mut self, turn: Turn, q: u8) {
        let axis = match turn {
            Turn::Outer(face) => return self.push_outer(face, q),
            // Xw = (whole cube as X) then the opposite face as X.
            Turn::Wide(face) => {
                self.push_outer(face.opposite(), q);
                face
            }
            // A slice turning as face f = (whole cube as f), f undone, its opposite turned along.
            Turn::Slice(face) => {
                self.push_outer(face, 4 - q);
                self.push_outer(face.opposite(), q);
                face
            }
            Turn::Rotation(face) => face,
        };
        // The turned faces lie on the rotation's axis, so relabelling after them is exact.
        self.frame = self.frame.then(&Rotation::about(axis).power(q));
    }
}

/// Parses a move sequence into turns of the six outer faces (fixed-centre frame).
pub fn parse_moves(text: &str) -> Result<Vec<Move>, NotationError> {
    parse(text, true)
}

/// Parses a move sequence for a puzzle without inner layers (the 2x2): as [`parse_moves`], but
/// wide turns and slices are errors rather than their 3x3 meaning.
pub fn parse_outer_moves(text: &str) -> Result<Vec<Move>, NotationError> {
    parse(text, false)
}

fn parse(text: &str, inner_layers: bool) -> Result<Vec<Move>, NotationError> {
    let mut parser = Parser {
        chars: text.chars().collect(),
        pos: 0,
        frame: Rotation::IDENTITY,
        out: Vec::new(),
        work: 0,
        inner_layers,
    };
    parser.sequence(0)?;
    Ok(parser.out)
}

/// Prints turns as plain face turns separated by single spaces (`R U2 F'`).
pub fn format_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
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
            Err(NotationError::Unclosed { column: 3 })
        );
        assert_eq!(
            parse_moves("R U)"),
            Err(NotationError::Unopened { column: 4 })
        );
        assert_eq!(
            parse_moves("(R U)99999999999999999999"),
            Err(NotationError::TooLong { column: 1 })
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
            Err(NotationError::TooManyMoves { .. })
        ));
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
}
