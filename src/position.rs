//! Reading a position as a user writes it: a move sequence or a sticker string.

use crate::cube::{Cube2, Cube3};
use crate::facelet::FaceletError;
use crate::notation::{NotationError, parse_moves};
use std::fmt;

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

#[cfg(test)]
mod tests {
    use super::*;

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
