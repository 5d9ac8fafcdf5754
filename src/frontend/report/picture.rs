//! Pictures of positions: the unfolded cube (U above, L F R B in a row, D below, each face as
//! seen from outside), drawn with plotters into PNG or SVG, in a colour scheme.

use super::chart::{ChartError, ChartFormat};
use crate::model::cube::Face;
use crate::model::facelet::Palette;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// The colour of each face's stickers, in face order U R F D L B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheme {
    colours: Palette,
}

/// Colour names a scheme may use, with their RGB values.
const NAMED: [(&str, (u8, u8, u8)); 12] = [
    ("white", (255, 255, 255)),
    ("yellow", (255, 213, 0)),
    ("red", (196, 30, 58)),
    ("orange", (255, 88, 0)),
    ("green", (0, 158, 96)),
    ("blue", (0, 81, 186)),
    ("black", (0, 0, 0)),
    ("grey", (128, 128, 128)),
    ("purple", (128, 0, 160)),
    ("pink", (255, 105, 180)),
    ("brown", (120, 72, 0)),
    ("cyan", (0, 200, 220)),
];

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SchemeError {
    #[error("a colour scheme names six colours, for U R F D L B in that order; {0} given")]
    Count(usize),
    #[error(
        "\"{0}\" is no colour: use a name (white, yellow, red, orange, green, blue, black, grey, purple, pink, brown, cyan) or #rrggbb"
    )]
    Unknown(String),
}

impl Scheme {
    /// The usual scheme: white U, red R, green F, yellow D, orange L, blue B.
    pub const STANDARD: Scheme = Scheme {
        colours: [
            NAMED[0].1, NAMED[2].1, NAMED[4].1, NAMED[1].1, NAMED[3].1, NAMED[5].1,
        ],
    };

    /// Six colours for U R F D L B, by name or `#rrggbb`, separated by spaces or commas.
    pub fn parse(text: &str) -> Result<Scheme, SchemeError> {
        let words: Vec<&str> = text.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        if words.len() != 6 {
            return Err(SchemeError::Count(words.len()));
        }
        let mut colours = [(0, 0, 0); 6];
        for (slot, word) in colours.iter_mut().zip(&words) {
            *slot = colour(word).ok_or_else(|| SchemeError::Unknown(word.to_string()))?;
        }
        Ok(Scheme { colours })
    }

    /// The RGB colour of each face, U R F D L B.
    pub fn colours(&self) -> &Palette {
        &self.colours
    }

    fn of(&self, face: Face) -> RGBColor {
        let (r, g, b) = self.colours[face.index()];
        RGBColor(r, g, b)
    }
}

fn colour(word: &str) -> Option<(u8, u8, u8)> {
    let lower = word.to_ascii_lowercase();
    if let Some(&(_, rgb)) = NAMED.iter().find(|(name, _)| *name == lower) {
        return Some(rgb);
    }
    let hex = lower.strip_prefix('#').filter(|h| h.len() == 6)?;
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some((channel(0)?, channel(2)?, channel(4)?))
}

/// Pixels per sticker, and around the net.
const CELL: u32 = 40;
const MARGIN: u32 = 20;

/// Draws `stickers` (24 letters for a 2x2, 54 for a 3x3, faces U R F D L B, each letter the
/// face whose colour the sticker has) as the unfolded cube into `path`.
pub fn draw_net(
    path: &Path,
    format: ChartFormat,
    stickers: &str,
    scheme: &Scheme,
) -> Result<(), ChartError> {
    let error = |message: String| ChartError {
        path: path.display().to_string(),
        message,
    };
    let letters: Vec<Face> = stickers.chars().filter_map(Face::from_letter).collect();
    let side = match (letters.len(), stickers.chars().count()) {
        (24, 24) => 2,
        (54, 54) => 3,
        _ => {
            return Err(error(format!(
                "not a sticker string of a 2x2 or 3x3: {stickers}"
            )));
        }
    };
    let size = (4 * side * CELL + 2 * MARGIN, 3 * side * CELL + 2 * MARGIN);
    let result = match format {
        ChartFormat::Png => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            paint(root, &letters, side, scheme)
        }
        ChartFormat::Svg => {
            let root = SVGBackend::new(path, size).into_drawing_area();
            paint(root, &letters, side, scheme)
        }
    };
    result.map_err(error)
}

/// Where each face's top-left sticker sits, in stickers, in the net.
fn face_origin(face: usize, side: u32) -> (u32, u32) {
    // U R F D L B
    let (column, row) = [(1, 0), (2, 1), (1, 1), (1, 2), (0, 1), (3, 1)][face];
    (column * side, row * side)
}

fn paint<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    letters: &[Face],
    side: u32,
    scheme: &Scheme,
) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let area = (side * side) as usize;
    for (i, &face) in letters.iter().enumerate() {
        let (column, row) = face_origin(i / area, side);
        let within = (i % area) as u32;
        let x = (MARGIN + (column + within % side) * CELL) as i32;
        let y = (MARGIN + (row + within / side) * CELL) as i32;
        let cell = CELL as i32;
        let sticker = [(x + 2, y + 2), (x + cell - 2, y + cell - 2)];
        root.draw(&Rectangle::new(
            [(x, y), (x + cell, y + cell)],
            BLACK.filled(),
        ))
        .map_err(|e| fail(&e))?;
        root.draw(&Rectangle::new(sticker, scheme.of(face).filled()))
            .map_err(|e| fail(&e))?;
    }
    root.present().map_err(|e| fail(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes_read_names_and_hex_and_refuse_the_rest() {
        let s = Scheme::parse("white red green yellow orange blue").unwrap();
        assert_eq!(s, Scheme::STANDARD);
        let t = Scheme::parse("#FFFFFF,#c41e3a,green,yellow,orange,blue").unwrap();
        assert_eq!(t, Scheme::STANDARD);
        assert_eq!(Scheme::parse("white red"), Err(SchemeError::Count(2)));
        assert_eq!(
            Scheme::parse("white red green yellow orange #12345g"),
            Err(SchemeError::Unknown("#12345g".into()))
        );
    }
}
