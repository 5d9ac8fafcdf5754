//! Singmaster/WCA move notation.
//!
//! Reads face turns (`R`, `R'`, `R2`, `R2'`, `R3`), wide turns (`Rw`, `r`), slices (`M E S`),
//! rotations (`x y z`), groups in parentheses with an optional repeat count (`(R U)6`),
//! commutators `[A, B]` (A B A' B') and conjugates `[A: B]` (A B A'), also with a count, `//`
//! comments to the end of the line, and free whitespace, as cubing.js reads them.
//!
//! Parsing has two steps. The text becomes a list of written turns, each a turn as written with
//! its quarter turns; a group's repeats copy its list, and the inverse of a list (for a
//! commutator) is the list reversed, each turn undone. Then the list is resolved to turns of
//! the six outer faces against fixed centres: a rotation only relabels the faces that later
//! turns name, and a wide turn or slice becomes outer turns plus such a rotation, so a
//! trailing rotation changes no position. Inverting written turns rather than resolved ones is
//! what keeps `[x, R]` exact: undoing `x` must relabel the faces back.

use crate::model::cube::{Face, Move, Rotation};

/// A fault in a move sequence; columns are 1-based character positions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("unknown move '{token}' at column {column}")]
    UnknownToken { token: String, column: usize },
    #[error("'{token}' at column {column} turns zero times")]
    ZeroTurn { token: String, column: usize },
    #[error("'{open}' at column {column} is never closed")]
    Unclosed { open: char, column: usize },
    #[error("'{close}' at column {column} closes nothing")]
    Unopened { close: char, column: usize },
    #[error(
        "the '[' at column {column} needs ',' (commutator) or ':' (conjugate) between its parts"
    )]
    NoSeparator { column: usize },
    #[error("the sequence grows past {MAX_MOVES} turns at column {column}")]
    TooLong { column: usize },
    #[error("the group opened at column {column} is nested more than {MAX_NESTING} deep")]
    TooDeep { column: usize },
    #[error("'{token}' at column {column} turns an inner layer, which a 2x2 does not have")]
    InnerLayer { token: String, column: usize },
}

/// The most written turns (rotations included) a sequence may expand to, and the most face
/// turns it may resolve to (a slice is two); repeat counts beyond that are surely typos. Every
/// repeat is checked against it before it is copied, so neither time nor memory can run away
/// (`(x)99999999999` is refused at once). The limit on face turns keeps every sequence read
/// printable as one that reads back (`(S)600000` resolved to 1.2 million turns, whose printed
/// form did not: found by fuzzing).
pub const MAX_MOVES: usize = 1_000_000;

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

/// A turn as written, with its quarter turns (1 to 3).
#[derive(Clone, Copy)]
struct Written {
    turn: Turn,
    quarter_turns: u8,
}

impl Written {
    fn inverse(self) -> Written {
        Written {
            quarter_turns: 4 - self.quarter_turns,
            ..self
        }
    }
}

/// The inverse of a written sequence.
fn inverse(turns: &[Written]) -> impl Iterator<Item = Written> + '_ {
    turns.iter().rev().map(|w| w.inverse())
}

/// What ends a sequence inside brackets.
const CLOSERS: &str = ")],:";

struct Parser {
    chars: Vec<char>,
    pos: usize,
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

    /// Skips blanks and `//` comments.
    fn skip_space(&mut self) {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() => self.pos += 1,
                Some('/') if self.chars.get(self.pos + 1) == Some(&'/') => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                }
                _ => return,
            }
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

    /// Items until the end or one of [`CLOSERS`] (which the caller checks), appended to `out`.
    fn sequence(&mut self, depth: usize, out: &mut Vec<Written>) -> Result<(), NotationError> {
        loop {
            self.skip_space();
            let column = self.column();
            match self.peek() {
                None => return Ok(()),
                Some(c) if CLOSERS.contains(c) => {
                    if depth > 0 {
                        return Ok(());
                    }
                    return Err(match c {
                        ')' | ']' => NotationError::Unopened { close: c, column },
                        _ => NotationError::UnknownToken {
                            token: c.to_string(),
                            column,
                        },
                    });
                }
                Some(open @ ('(' | '[')) => self.group(open, depth, out)?,
                Some(_) => self.turn(out)?,
            }
            if out.len() > MAX_MOVES {
                return Err(NotationError::TooLong { column });
            }
        }
    }

    /// A bracketed group from its opening `open`: `(A)`, `[A, B]` or `[A: B]`, then an optional
    /// repeat count.
    fn group(
        &mut self,
        open: char,
        depth: usize,
        out: &mut Vec<Written>,
    ) -> Result<(), NotationError> {
        let column = self.column();
        if depth >= MAX_NESTING {
            return Err(NotationError::TooDeep { column });
        }
        self.pos += 1;
        let mut first = Vec::new();
        self.sequence(depth + 1, &mut first)?;
        let body = if open == '(' {
            self.expect(')', open, column)?;
            first
        } else {
            let separator = self.peek();
            if !matches!(separator, Some(',' | ':')) {
                return Err(match separator {
                    None => NotationError::Unclosed { open, column },
                    _ => NotationError::NoSeparator { column },
                });
            }
            self.pos += 1;
            let mut second = Vec::new();
            self.sequence(depth + 1, &mut second)?;
            self.expect(']', open, column)?;
            let mut body = first.clone();
            body.extend_from_slice(&second);
            body.extend(inverse(&first));
            if separator == Some(',') {
                body.extend(inverse(&second));
            }
            body
        };
        let count = self.number().map_or(1, |c| c.value);
        let total = (body.len() as u64).saturating_mul(count);
        // Saturating: a count past u64's range saturates `total`, which a plain sum with the
        // turns before it would wrap to a small number (found by fuzzing: `Uu` then a group
        // with a 20-digit count filled memory).
        if (out.len() as u64).saturating_add(total) > MAX_MOVES as u64 {
            return Err(NotationError::TooLong { column });
        }
        // An empty body is repeated by doing nothing: a loop over its count would spin for
        // hours on `()99999999999`.
        if !body.is_empty() {
            for _ in 0..count {
                out.extend_from_slice(&body);
            }
        }
        Ok(())
    }

    /// Steps over `close`, or reports the group opened by `open` at `column` as unclosed.
    fn expect(&mut self, close: char, open: char, column: usize) -> Result<(), NotationError> {
        if self.peek() == Some(close) {
            self.pos += 1;
            Ok(())
        } else {
            Err(NotationError::Unclosed { open, column })
        }
    }

    /// Whether `c` may follow a turn directly: blanks, brackets, separators and the letters
    /// that begin the next turn (`RU` is `R U`).
    fn ends_turn(c: char) -> bool {
        c.is_whitespace() || "()[],:/".contains(c) || "URFDLBurfdlbMESxyz".contains(c)
    }

    fn turn(&mut self, out: &mut Vec<Written>) -> Result<(), NotationError> {
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
            c => match (
                Face::from_letter(c),
                Face::from_letter(c.to_ascii_uppercase()),
            ) {
                (Some(face), _) if self.peek() == Some('w') => {
                    self.pos += 1;
                    Turn::Wide(face)
                }
                (Some(face), _) => Turn::Outer(face),
                (None, Some(face)) if c.is_ascii_lowercase() => Turn::Wide(face),
                _ => return Err(self.bad_token(start, column)),
            },
        };
        let count = self.number();
        let prime = matches!(self.peek(), Some('\'' | '’' | '′'));
        if prime {
            self.pos += 1;
        }
        if self.peek().is_some_and(|c| !Self::ends_turn(c)) {
            return Err(self.bad_token(start, column));
        }
        let token = || self.chars[start..self.pos].iter().collect::<String>();
        if count.is_some_and(|c| c.value == 0) {
            return Err(NotationError::ZeroTurn {
                token: token(),
                column,
            });
        }
        if !self.inner_layers && matches!(turn, Turn::Wide(_) | Turn::Slice(_)) {
            return Err(NotationError::InnerLayer {
                token: token(),
                column,
            });
        }
        let quarter_turns = count.map_or(1, |c| c.residue % 4);
        let quarter_turns = if prime {
            (4 - quarter_turns) % 4
        } else {
            quarter_turns
        };
        if quarter_turns != 0 {
            out.push(Written {
                turn,
                quarter_turns,
            });
        }
        Ok(())
    }

    /// An unknown token from `start` to the next blank or bracket, as an error.
    fn bad_token(&mut self, start: usize, column: usize) -> NotationError {
        while self
            .peek()
            .is_some_and(|c| !c.is_whitespace() && !"()[],:".contains(c))
        {
            self.pos += 1;
        }
        NotationError::UnknownToken {
            token: self.chars[start..self.pos].iter().collect(),
            column,
        }
    }
}

/// Resolves written turns into turns of the outer faces against fixed centres.
fn resolve(written: &[Written]) -> Vec<Move> {
    let mut frame = Rotation::IDENTITY;
    let mut out = Vec::with_capacity(written.len());
    for &Written {
        turn,
        quarter_turns: q,
    } in written
    {
        let mut push = |face: Face, q: u8| out.push(frame.map_move(Move::new(face, q)));
        let axis = match turn {
            Turn::Outer(face) => {
                push(face, q);
                continue;
            }
            // Xw = (whole cube as X) then the opposite face as X.
            Turn::Wide(face) => {
                push(face.opposite(), q);
                face
            }
            // A slice turning as face f = (whole cube as f), f undone, its opposite turned along.
            Turn::Slice(face) => {
                push(face, 4 - q);
                push(face.opposite(), q);
                face
            }
            Turn::Rotation(face) => face,
        };
        // The turned faces lie on the rotation's axis, so relabelling after them is exact.
        frame = frame.then(&Rotation::about(axis).power(q));
    }
    out
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
        inner_layers,
    };
    let mut written = Vec::new();
    parser.sequence(0, &mut written)?;
    let moves = resolve(&written);
    if moves.len() > MAX_MOVES {
        return Err(NotationError::TooLong {
            column: parser.chars.len() + 1,
        });
    }
    Ok(moves)
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
mod tests;
