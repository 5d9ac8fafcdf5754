//! Reading a position as a user writes it: a move sequence or a sticker string.

use crate::cube::{Cube2, Cube3};
use crate::facelet::FaceletError;
use crate::notation::{NotationError, parse_moves};
use std::fmt;
use std::io::BufRead;

/// Which puzzle a position is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
pub enum Puzzle {
    #[value(name = "2x2")]
    #[serde(rename = "2x2")]
    Pocket,
    #[value(name = "3x3")]
    #[serde(rename = "3x3")]
    Cube,
}

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
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error(transparent)]
    Facelet(#[from] FaceletError),
    #[error("this is a {found} sticker string ({} letters), but --puzzle is {expected}", found.stickers())]
    PuzzleMismatch { expected: Puzzle, found: Puzzle },
}

/// Whether `text` reads as a sticker string rather than moves: 24 or 54 letters and nothing
/// else. (A sequence of 24 or 54 single-letter turns written without spaces would be misread;
/// write moves with spaces.)
pub fn looks_like_facelets(text: &str) -> Option<Puzzle> {
    if !text.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    match text.len() {
        24 => Some(Puzzle::Pocket),
        54 => Some(Puzzle::Cube),
        _ => None,
    }
}

/// Reads one position. A sticker string names its own puzzle; a move sequence is applied to the
/// solved `puzzle` (3x3 unless given).
pub fn parse_position(text: &str, puzzle: Option<Puzzle>) -> Result<Position, PositionError> {
    let text = text.trim();
    if let Some(found) = looks_like_facelets(text) {
        if let Some(expected) = puzzle.filter(|&p| p != found) {
            return Err(PositionError::PuzzleMismatch { expected, found });
        }
        return Ok(match found {
            Puzzle::Pocket => Position::Pocket(Cube2::from_facelets(text)?),
            Puzzle::Cube => Position::Cube(Cube3::from_facelets(text)?),
        });
    }
    let moves = parse_moves(text)?;
    Ok(match puzzle.unwrap_or(Puzzle::Cube) {
        Puzzle::Pocket => Position::Pocket(Cube2::from_moves(&moves)),
        Puzzle::Cube => Position::Cube(Cube3::from_moves(&moves)),
    })
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
}

/// The positions of a text, one a line, read as they arrive: blank lines and `#` comments are
/// skipped, a `\r\n` ending and a UTF-8 byte-order mark before the first line are ignored. A
/// line that is not UTF-8 is reported as such and reading goes on, so that one bad line does
/// not cost a batch.
pub struct PositionLines<R> {
    reader: R,
    number: usize,
    buffer: Vec<u8>,
}

impl<R: BufRead> PositionLines<R> {
    pub fn new(reader: R) -> PositionLines<R> {
        PositionLines {
            reader,
            number: 0,
            buffer: Vec::new(),
        }
    }
}

/// The UTF-8 encoding of U+FEFF, which some editors write at the start of a file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

impl<R: BufRead> Iterator for PositionLines<R> {
    /// An error of the reader ends the lines (after being returned once).
    type Item = std::io::Result<Line>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            self.buffer.clear();
            match self.reader.read_until(b'\n', &mut self.buffer) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => return Some(Err(e)),
            }
            self.number += 1;
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
    fn sticker_strings_and_moves_are_told_apart() {
        let two = "UUUURRRRFFFFDDDDLLLLBBBB";
        assert_eq!(
            parse_position(two, None),
            Ok(Position::Pocket(Cube2::SOLVED))
        );
        assert!(matches!(
            parse_position(two, Some(Puzzle::Cube)),
            Err(PositionError::PuzzleMismatch { .. })
        ));
        assert!(matches!(
            parse_position("R U R' U'", Some(Puzzle::Pocket)),
            Ok(Position::Pocket(_))
        ));
        assert!(matches!(parse_position("R U", None), Ok(Position::Cube(_))));
        assert!(matches!(
            parse_position("R K", None),
            Err(PositionError::Notation(_))
        ));
    }
}
