//! Reading a position as a user writes it: a move sequence or a sticker string.

use crate::model::cube::{Cube2, Cube3};
use crate::model::facelet::FaceletError;
use crate::model::notation::{NotationError, parse_moves, parse_outer_moves};
use std::fmt;
use std::io::BufRead;

/// Which puzzle a position is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Puzzle {
    #[cfg_attr(feature = "clap", value(name = "2x2"))]
    #[serde(rename = "2x2")]
    Pocket,
    #[cfg_attr(feature = "clap", value(name = "3x3"))]
    #[serde(rename = "3x3")]
    Cube,
}

crate::support::named::impl_named!(Puzzle, [Puzzle::Pocket, Puzzle::Cube]);

impl Puzzle {
    pub const fn name(self) -> &'static str {
        match self {
            Puzzle::Pocket => "2x2",
            Puzzle::Cube => "3x3",
        }
    }

    pub const fn stickers(self) -> usize {
        match self {
            Puzzle::Pocket => 24,
            Puzzle::Cube => 54,
        }
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A position of either puzzle, as the cube is held (2x2 positions not yet normalised).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    Pocket(Cube2),
    Cube(Cube3),
}

impl Position {
    pub fn puzzle(&self) -> Puzzle {
        match self {
            Position::Pocket(_) => Puzzle::Pocket,
            Position::Cube(_) => Puzzle::Cube,
        }
    }

    /// A uniformly random position of `puzzle`.
    pub fn random(puzzle: Puzzle, rng: &mut impl rand::Rng) -> Position {
        match puzzle {
            Puzzle::Pocket => Position::Pocket(Cube2::random(rng)),
            Puzzle::Cube => Position::Cube(Cube3::random(rng)),
        }
    }

    /// A random position, the same for the same `seed`; without one, seeded from the clock
    /// (for front ends that draw one position on request, not for experiments).
    pub fn seeded(puzzle: Puzzle, seed: Option<u64>) -> Position {
        use rand::SeedableRng;
        let seed = seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
        Position::random(
            puzzle,
            &mut rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed),
        )
    }

    /// The sticker string: 24 or 54 letters, faces U R F D L B.
    pub fn stickers(&self) -> String {
        match self {
            Position::Pocket(c) => c.to_facelets(),
            Position::Cube(c) => c.to_facelets(),
        }
    }

    /// Reid's notation, for a 3x3.
    pub fn reid(&self) -> Option<String> {
        match self {
            Position::Pocket(_) => None,
            Position::Cube(c) => Some(c.to_reid()),
        }
    }

    pub fn apply_all(&self, moves: &[crate::model::cube::Move]) -> Position {
        match self {
            Position::Pocket(c) => Position::Pocket(c.apply_all(moves)),
            Position::Cube(c) => Position::Cube(c.apply_all(moves)),
        }
    }

    /// The position after the move sequence `text`, read as this puzzle reads moves: a 2x2
    /// refuses slices and wide turns (it has no inner layer), as when a position is read.
    pub fn apply_text(&self, text: &str) -> Result<Position, PositionError> {
        let moves = match self {
            Position::Pocket(_) => parse_outer_moves(text)?,
            Position::Cube(_) => parse_moves(text)?,
        };
        Ok(self.apply_all(&moves))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error(transparent)]
    Facelet(#[from] FaceletError),
    #[error("this is a {found} sticker string ({} letters), where a {expected} position is asked for", found.stickers())]
    PuzzleMismatch { expected: Puzzle, found: Puzzle },
    #[error(
        "{0} letters without spaces are neither a 2x2 (24) nor a 3x3 (54) sticker string; \
         write moves with spaces between them, or say --moves"
    )]
    UnclearLetters(usize),
    #[error("a sticker string has 24 letters (2x2) or 54 (3x3), this one has {0}")]
    StickerCount(usize),
    #[error("Reid's notation describes a 3x3, where a 2x2 position is asked for")]
    ReidOnPocket,
}

/// The ways a position can be written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Form {
    /// Decided by the text's shape (see [`Form::of`]).
    #[default]
    Auto,
    /// A move sequence applied to the solved cube.
    Moves,
    /// 24 (2x2) or 54 (3x3) sticker letters.
    Stickers,
    /// Michael Reid's piece notation (3x3): `UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL
    /// ULF DRF DFL DLB DBR` is solved.
    Reid,
}

/// Letters without spaces past this many are too long to be a move sequence someone meant to
/// write without spaces, and are not taken for one (see [`Form::of`]).
const MOST_GLUED_TURNS: usize = 20;

impl Form {
    /// The form `text` has, by its shape:
    /// - 20 blank-separated pieces of face letters, 12 of two letters then 8 of three: Reid's;
    /// - letters only, 24 or 54 of them: stickers;
    /// - letters only, more than 20 but neither 24 nor 54: an error, since such a string is
    ///   far likelier a mistyped sticker string than turns written without spaces;
    /// - anything else: moves.
    pub fn of(text: &str) -> Result<Form, PositionError> {
        if looks_like_reid(text) {
            return Ok(Form::Reid);
        }
        if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphabetic()) {
            return match text.len() {
                24 | 54 => Ok(Form::Stickers),
                n if n > MOST_GLUED_TURNS => Err(PositionError::UnclearLetters(n)),
                _ => Ok(Form::Moves),
            };
        }
        Ok(Form::Moves)
    }
}

/// Whether `text` has the shape of Reid's notation (see [`Form::of`]).
fn looks_like_reid(text: &str) -> bool {
    let pieces: Vec<&str> = text.split_whitespace().collect();
    pieces.len() == crate::model::facelet::REID_SLOTS.len()
        && pieces.iter().enumerate().all(|(i, piece)| {
            piece.len() == if i < 12 { 2 } else { 3 } && piece.chars().all(|c| "URFDLB".contains(c))
        })
}

/// Reads one position written in `form`. A sticker string names its own puzzle; a move
/// sequence is applied to the solved `puzzle` (3x3 unless given).
pub fn parse_position(
    text: &str,
    puzzle: Option<Puzzle>,
    form: Form,
) -> Result<Position, PositionError> {
    let text = text.trim();
    let form = match form {
        Form::Auto => Form::of(text)?,
        given => given,
    };
    match form {
        Form::Reid if puzzle == Some(Puzzle::Pocket) => Err(PositionError::ReidOnPocket),
        Form::Reid => Ok(Position::Cube(Cube3::from_reid(text)?)),
        Form::Stickers => {
            let found = match text.chars().count() {
                24 => Puzzle::Pocket,
                54 => Puzzle::Cube,
                n => return Err(PositionError::StickerCount(n)),
            };
            if let Some(expected) = puzzle.filter(|&p| p != found) {
                return Err(PositionError::PuzzleMismatch { expected, found });
            }
            Ok(match found {
                Puzzle::Pocket => Position::Pocket(Cube2::from_facelets(text)?),
                Puzzle::Cube => Position::Cube(Cube3::from_facelets(text)?),
            })
        }
        Form::Moves | Form::Auto => Ok(match puzzle.unwrap_or(Puzzle::Cube) {
            Puzzle::Pocket => Position::Pocket(Cube2::from_moves(&parse_outer_moves(text)?)),
            Puzzle::Cube => Position::Cube(Cube3::from_moves(&parse_moves(text)?)),
        }),
    }
}

/// One line of positions read by [`PositionLines`]: its 1-based number, and its text without
/// comment and surrounding blanks, or why it cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub number: usize,
    pub text: Result<String, LineError>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("line {0} is not valid UTF-8")]
    NotUtf8(usize),
    #[error(
        "line {0} is longer than {MAX_LINE_BYTES} bytes, more than any position needs; it was skipped"
    )]
    TooLong(usize),
}

/// The longest line [`PositionLines`] reads: a sticker string is 54 letters and a move sequence
/// of ten thousand moves fits, while a file with no line breaks (a binary file, a runaway
/// generator) is read in bounded pieces instead of whole into memory.
pub const MAX_LINE_BYTES: usize = 1 << 16;

/// The positions of a text, one a line, read as they arrive: blank lines and `#` comments are
/// skipped, a `\r\n` ending and a UTF-8 byte-order mark before the first line are ignored. A
/// line that is not UTF-8, or longer than [`MAX_LINE_BYTES`], is reported as such and reading
/// goes on, so that one bad line does not cost a batch. An error of the reader is returned once
/// and ends the lines: a reader that fails again on every call (a directory, an unreadable
/// device) would otherwise never end.
pub struct PositionLines<R> {
    reader: R,
    number: usize,
    buffer: Vec<u8>,
    failed: bool,
}

impl<R: BufRead> PositionLines<R> {
    pub fn new(reader: R) -> PositionLines<R> {
        PositionLines {
            reader,
            number: 0,
            buffer: Vec::new(),
            failed: false,
        }
    }

    /// Reads the next line into the buffer, at most [`MAX_LINE_BYTES`] of it; `Ok(None)` at the
    /// end, `Ok(Some(false))` for a line that was longer (the rest of it is read and dropped).
    fn read_line(&mut self) -> std::io::Result<Option<bool>> {
        use std::io::Read;
        self.buffer.clear();
        let limit = MAX_LINE_BYTES as u64 + 1;
        if (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.buffer)?
            == 0
        {
            return Ok(None);
        }
        if self.buffer.len() < limit as usize || self.buffer.ends_with(b"\n") {
            return Ok(Some(true));
        }
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let read = (&mut self.reader)
                .take(limit)
                .read_until(b'\n', &mut rest)?;
            if read == 0 || rest.ends_with(b"\n") {
                return Ok(Some(false));
            }
        }
    }
}

/// The UTF-8 encoding of U+FEFF, which some editors write at the start of a file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

impl<R: BufRead> Iterator for PositionLines<R> {
    type Item = std::io::Result<Line>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            let whole = match self.read_line() {
                Ok(None) => return None,
                Ok(Some(whole)) => whole,
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            };
            self.number += 1;
            if !whole {
                return Some(Ok(Line {
                    number: self.number,
                    text: Err(LineError::TooLong(self.number)),
                }));
            }
            let mut bytes = self.buffer.as_slice();
            if self.number == 1 {
                bytes = bytes.strip_prefix(BYTE_ORDER_MARK).unwrap_or(bytes);
            }
            let Ok(text) = std::str::from_utf8(bytes) else {
                return Some(Ok(Line {
                    number: self.number,
                    text: Err(LineError::NotUtf8(self.number)),
                }));
            };
            let text = text.split('#').next().unwrap_or("").trim();
            if !text.is_empty() {
                return Some(Ok(Line {
                    number: self.number,
                    text: Ok(text.to_string()),
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library names no command-line option: the same errors reach the HTTP API and
    /// Python, which have none.
    #[test]
    fn a_position_of_the_other_puzzle_is_refused_without_naming_an_option() {
        let pocket_stickers = "UUUURRRRFFFFDDDDLLLLBBBB";
        let err = parse_position(pocket_stickers, Some(Puzzle::Cube), Form::Auto).unwrap_err();
        assert!(matches!(err, PositionError::PuzzleMismatch { .. }), "{err}");
        let message = err.to_string();
        assert!(
            message.contains("2x2 sticker string (24 letters)"),
            "{message}"
        );
        assert!(!message.contains("--"), "{message}");
        assert!(!PositionError::ReidOnPocket.to_string().contains("--"));
    }

    fn read(bytes: &[u8]) -> Vec<(usize, Result<String, LineError>)> {
        PositionLines::new(bytes)
            .map(|line| {
                line.map(|l| (l.number, l.text))
                    .expect("in-memory reads succeed")
            })
            .collect()
    }

    #[test]
    fn lines_skip_comments_blanks_crlf_and_a_leading_byte_order_mark() {
        let text = b"\xEF\xBB\xBFR U\r\n\n  # a comment\nF2 # half turn\r\nB";
        assert_eq!(
            read(text),
            vec![
                (1, Ok("R U".into())),
                (4, Ok("F2".into())),
                (5, Ok("B".into()))
            ]
        );
        // A mark anywhere but the start is not ignored: it is then part of a bad position.
        assert_eq!(read(b"R\n\xEF\xBB\xBFU")[1], (2, Ok("\u{feff}U".into())));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_reading_goes_on() {
        assert_eq!(
            read(b"R\n\xFF\xFEU\nF\n"),
            vec![
                (1, Ok("R".into())),
                (2, Err(LineError::NotUtf8(2))),
                (3, Ok("F".into()))
            ]
        );
    }

    #[test]
    fn a_line_too_long_is_reported_and_skipped_and_reading_goes_on() {
        let mut text = b"R\n".to_vec();
        text.extend(std::iter::repeat_n(b'U', 3 * MAX_LINE_BYTES));
        text.extend(b"\nF\n");
        text.extend(std::iter::repeat_n(b'D', MAX_LINE_BYTES - 1));
        assert_eq!(
            read(&text),
            vec![
                (1, Ok("R".into())),
                (2, Err(LineError::TooLong(2))),
                (3, Ok("F".into())),
                (4, Ok("D".repeat(MAX_LINE_BYTES - 1))),
            ]
        );
    }

    /// A reader that fails on every call, as reading a directory does.
    struct Failing;

    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("always"))
        }
    }

    #[test]
    fn a_reader_error_is_returned_once_and_ends_the_lines() {
        let mut lines = PositionLines::new(std::io::BufReader::new(Failing));
        assert!(matches!(lines.next(), Some(Err(_))));
        assert!(lines.next().is_none());
    }

    fn auto(text: &str) -> Result<Position, PositionError> {
        parse_position(text, None, Form::Auto)
    }

    #[test]
    fn letters_that_are_no_sticker_string_are_an_error_not_moves() {
        let solved3 = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
        for text in [
            &solved3[1..],
            &format!("{solved3}U"),
            "UUUURRRRFFFFDDDDLLLLBBB",
        ] {
            assert_eq!(
                auto(text),
                Err(PositionError::UnclearLetters(text.len())),
                "{text}"
            );
        }
        // Said to be moves, they are moves.
        let glued = &solved3[1..];
        assert!(matches!(
            parse_position(glued, None, Form::Moves),
            Ok(Position::Cube(_))
        ));
        // Short runs of glued turns stay moves; said to be stickers, they are not.
        assert!(matches!(auto("RUFDLB"), Ok(Position::Cube(_))));
        assert_eq!(
            parse_position("RUFDLB", None, Form::Stickers),
            Err(PositionError::StickerCount(6))
        );
    }

    #[test]
    fn reid_notation_is_recognised_and_never_searched_as_moves() {
        let solved = crate::model::facelet::REID_SLOTS.join(" ");
        assert_eq!(auto(&solved), Ok(Position::Cube(Cube3::SOLVED)));
        assert_eq!(
            parse_position(&solved, None, Form::Reid),
            Ok(Position::Cube(Cube3::SOLVED))
        );
        assert_eq!(
            parse_position(&solved, Some(Puzzle::Pocket), Form::Auto),
            Err(PositionError::ReidOnPocket)
        );
        let scrambled = Cube3::from_moves(&parse_moves("R U F' D2").unwrap());
        assert_eq!(auto(&scrambled.to_reid()), Ok(Position::Cube(scrambled)));
    }

    #[test]
    fn sticker_strings_and_moves_are_told_apart() {
        let two = "UUUURRRRFFFFDDDDLLLLBBBB";
        assert_eq!(
            parse_position(two, None, Form::Auto),
            Ok(Position::Pocket(Cube2::SOLVED))
        );
        assert!(matches!(
            parse_position(two, Some(Puzzle::Cube), Form::Auto),
            Err(PositionError::PuzzleMismatch { .. })
        ));
        assert!(matches!(
            parse_position("R U R' U'", Some(Puzzle::Pocket), Form::Auto),
            Ok(Position::Pocket(_))
        ));
        assert!(matches!(auto("R U"), Ok(Position::Cube(_))));
        assert!(matches!(auto("R K"), Err(PositionError::Notation(_))));
    }
}
