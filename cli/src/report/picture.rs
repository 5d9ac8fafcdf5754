//! Pictures of positions, drawn with plotters into PNG or SVG in a colour scheme: the unfolded
//! cube (U above, L F R B in a row, D below, each face as seen from outside), or the cube in
//! isometric projection with U, F and R in view (as visualcube and most cubing sites draw it).

use super::chart::{ChartError, ChartFormat, draw_to_file};
use cubelab::model::cube::Face;
use cubelab::model::facelet::Palette;
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

/// How a position is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum View {
    /// The unfolded cube: every sticker in view.
    #[default]
    Net,
    /// The cube in isometric projection from above the front-right corner: U, F and R in view.
    #[value(name = "3d")]
    Cube3d,
    /// Two isometric pictures side by side: from above (U, F, R) and from below (D, F, R), so
    /// that every layer's top or bottom is in view.
    #[value(name = "3d-both")]
    Cube3dBoth,
}

/// Pixels per sticker, and around the net.
const CELL: u32 = 40;
const MARGIN: u32 = 20;

/// Draws `stickers` (as [`draw_net`] reads them) into `path` in the chosen view.
pub fn draw_position(
    path: &Path,
    format: ChartFormat,
    stickers: &str,
    scheme: &Scheme,
    view: View,
) -> Result<(), ChartError> {
    match view {
        View::Net => draw_net(path, format, stickers, scheme),
        View::Cube3d => draw_cube_3d(path, format, stickers, scheme, false),
        View::Cube3dBoth => draw_cube_3d(path, format, stickers, scheme, true),
    }
}

/// The faces of a sticker string, and its side (2 or 3), or why it is none.
fn faces_of(stickers: &str) -> Result<(Vec<Face>, u32), String> {
    let letters: Vec<Face> = stickers.chars().filter_map(Face::from_letter).collect();
    match (letters.len(), stickers.chars().count()) {
        (24, 24) => Ok((letters, 2)),
        (54, 54) => Ok((letters, 3)),
        _ => Err(format!("not a sticker string of a 2x2 or 3x3: {stickers}")),
    }
}

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
    let (letters, side) = faces_of(stickers).map_err(error)?;
    let size = (4 * side * CELL + 2 * MARGIN, 3 * side * CELL + 2 * MARGIN);
    draw_to_file(
        path,
        format,
        size,
        |root| paint(root, &letters, side, scheme),
        |root| paint(root, &letters, side, scheme),
    )
    .map_err(error)
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

/// Pixels per cubie edge in the isometric picture, whatever the puzzle's side, so that a 2x2
/// and a 3x3 differ in size as the puzzles do.
const CUBIE: f64 = 56.0;
/// Gap around each sticker, as a share of a cubie's edge (the black plastic between them).
const INSET: f64 = 0.06;
/// Brightness of the faces in view, U F R D: light from above and the left, so the three in a
/// view read as three planes even where they show one colour.
const SHADES: [f64; 4] = [1.0, 0.88, 0.76, 0.94];

/// Draws `stickers` (as [`draw_net`] reads them) as the cube seen from above its front-right
/// corner, in isometric projection: U on top, F to the left, R to the right; with `both`, beside
/// it the cube seen from below the same corner (D at the bottom, F and R above it).
pub fn draw_cube_3d(
    path: &Path,
    format: ChartFormat,
    stickers: &str,
    scheme: &Scheme,
    both: bool,
) -> Result<(), ChartError> {
    let error = |message: String| ChartError {
        path: path.display().to_string(),
        message,
    };
    let (letters, side) = faces_of(stickers).map_err(error)?;
    let (width, height) = Isometric::size(side);
    let size = (if both { 2 * width } else { width }, height);
    draw_to_file(
        path,
        format,
        size,
        |root| paint_views(root, &letters, side, scheme, both),
        |root| paint_views(root, &letters, side, scheme, both),
    )
    .map_err(error)
}

/// The view from above on `root` (its left half with `both`, the view from below on the right).
fn paint_views<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    letters: &[Face],
    side: u32,
    scheme: &Scheme,
    both: bool,
) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    if both {
        let (above, below) = root.split_horizontally(Isometric::size(side).0);
        paint_3d(&above, letters, side, scheme, &Isometric::new(side, false))?;
        paint_3d(&below, letters, side, scheme, &Isometric::new(side, true))?;
    } else {
        paint_3d(&root, letters, side, scheme, &Isometric::new(side, false))?;
    }
    root.present().map_err(|e| fail(&e))
}

const COS_30: f64 = 0.866_025_403_784_438_6;

/// Cube coordinates (x from L to R, y from D to U, z from B to F, each 0 to the side) to
/// pixels. From above, the corner U-F-R is at `centre` and the corner U-B-L straight above it;
/// from below, the corner D-F-R is at `centre` and D-B-L straight below it.
struct Isometric {
    centre: (f64, f64),
    side: f64,
    from_below: bool,
}

impl Isometric {
    fn new(side: u32, from_below: bool) -> Isometric {
        let n = f64::from(side);
        Isometric {
            centre: (
                f64::from(MARGIN) + n * CUBIE * COS_30,
                f64::from(MARGIN) + n * CUBIE,
            ),
            side: n,
            from_below,
        }
    }

    /// The pixel size of one view of a cube of `side`.
    fn size(side: u32) -> (u32, u32) {
        let n = f64::from(side);
        (
            (2.0 * n * CUBIE * COS_30) as u32 + 2 * MARGIN,
            (2.0 * n * CUBIE) as u32 + 2 * MARGIN,
        )
    }

    fn pixel(&self, (x, y, z): (f64, f64, f64)) -> (i32, i32) {
        let across = (x - z) * COS_30 * CUBIE;
        // One cubie up per unit of y; half a cubie down per unit towards the viewer.
        let down = if self.from_below {
            ((self.side - y) - (x + z) * 0.5) * CUBIE
        } else {
            ((x + z) * 0.5 - y) * CUBIE
        };
        (
            (self.centre.0 + across).round() as i32,
            (self.centre.1 + down).round() as i32,
        )
    }

    /// The faces in view (0 U, 1 F, 2 R, 3 D, as [`square`] numbers them) and the offset of
    /// each in the sticker string (U R F D L B), in `area` stickers a face.
    fn faces(&self, area: usize) -> [(usize, usize); 3] {
        let top_or_bottom = if self.from_below {
            (3, 3 * area)
        } else {
            (0, 0)
        };
        [top_or_bottom, (1, 2 * area), (2, area)]
    }
}

/// The corners of the `size`-wide square at (`row`, `column`) of face U (0), F (1), R (2) or
/// D (3) of a cube of side `n`, each face as seen from outside (row 0 at the top: for U the
/// back, for D the front), shrunk by `inset` on every side.
fn square(
    face: usize,
    (row, column): (f64, f64),
    size: f64,
    n: f64,
    inset: f64,
) -> [(f64, f64, f64); 4] {
    let (a0, a1) = (column + inset, column + size - inset);
    let (b0, b1) = (row + inset, row + size - inset);
    [(a0, b0), (a1, b0), (a1, b1), (a0, b1)].map(|(a, b)| match face {
        // U: columns from L to R, rows from B to F.
        0 => (a, n, b),
        // F: columns from L to R, rows from U down.
        1 => (a, n - b, n),
        // R: columns from F to B, rows from U down.
        2 => (n, n - b, n - a),
        // D: columns from L to R, rows from F to B.
        _ => (a, 0.0, n - b),
    })
}

fn paint_3d<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    letters: &[Face],
    side: u32,
    scheme: &Scheme,
    projection: &Isometric,
) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| e.to_string();
    let n = f64::from(side);
    let stickers = (side * side) as usize;
    for (view, offset) in projection.faces(stickers) {
        let body = square(view, (0.0, 0.0), n, n, 0.0).map(|p| projection.pixel(p));
        area.draw(&Polygon::new(body.to_vec(), BLACK.filled()))
            .map_err(|e| fail(&e))?;
        for i in 0..stickers {
            let (row, column) = ((i / side as usize) as f64, (i % side as usize) as f64);
            let corners = square(view, (row, column), 1.0, n, INSET).map(|p| projection.pixel(p));
            let RGBColor(r, g, b) = scheme.of(letters[offset + i]);
            let shade = |c: u8| (f64::from(c) * SHADES[view]).round() as u8;
            let colour = RGBColor(shade(r), shade(g), shade(b));
            area.draw(&Polygon::new(corners.to_vec(), colour.filled()))
                .map_err(|e| fail(&e))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 3D picture of `stickers` as RGB pixels (one view, from above or below), and its width.
    fn rgb_3d_from(stickers: &str, from_below: bool) -> (Vec<u8>, u32, Isometric) {
        let (letters, side) = faces_of(stickers).unwrap();
        let (w, h) = Isometric::size(side);
        let projection = Isometric::new(side, from_below);
        let mut buffer = vec![0u8; (w * h * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut buffer, (w, h)).into_drawing_area();
            root.fill(&WHITE).unwrap();
            paint_3d(&root, &letters, side, &Scheme::STANDARD, &projection).unwrap();
            root.present().unwrap();
        }
        (buffer, w, projection)
    }

    fn rgb_3d(stickers: &str) -> (Vec<u8>, u32, Isometric) {
        rgb_3d_from(stickers, false)
    }

    /// The colour drawn at the middle of the sticker (`row`, `column`) of face U (0), F (1)
    /// or R (2).
    fn colour_at(
        picture: &(Vec<u8>, u32, Isometric),
        face: usize,
        row: usize,
        column: usize,
    ) -> (u8, u8, u8) {
        let (buffer, width, projection) = picture;
        let corners = square(face, (row as f64, column as f64), 1.0, 3.0, 0.0);
        let middle = corners.iter().fold((0.0, 0.0, 0.0), |m, p| {
            (m.0 + p.0 / 4.0, m.1 + p.1 / 4.0, m.2 + p.2 / 4.0)
        });
        let (x, y) = projection.pixel(middle);
        let at = ((y as u32 * width + x as u32) * 3) as usize;
        (buffer[at], buffer[at + 1], buffer[at + 2])
    }

    fn shaded(face: Face, view: usize) -> (u8, u8, u8) {
        let (r, g, b) = Scheme::STANDARD.colours()[face.index()];
        let shade = |c: u8| (f64::from(c) * SHADES[view]).round() as u8;
        (shade(r), shade(g), shade(b))
    }

    #[test]
    fn the_3d_picture_puts_each_sticker_where_the_cube_has_it() {
        // After R, the right column of U shows F's colour, that of F shows D's, R stays R.
        let cube = cubelab::model::cube::Cube3::SOLVED
            .apply_all(&cubelab::model::notation::parse_moves("R").unwrap());
        let picture = rgb_3d(&cube.to_facelets());
        for row in 0..3 {
            assert_eq!(colour_at(&picture, 0, row, 0), shaded(Face::U, 0));
            assert_eq!(colour_at(&picture, 0, row, 2), shaded(Face::F, 0));
            assert_eq!(colour_at(&picture, 1, row, 0), shaded(Face::F, 1));
            assert_eq!(colour_at(&picture, 1, row, 2), shaded(Face::D, 1));
            for column in 0..3 {
                assert_eq!(colour_at(&picture, 2, row, column), shaded(Face::R, 2));
            }
        }
        // After U, F's top row shows R's colour, and R's shows B's.
        let cube = cubelab::model::cube::Cube3::SOLVED
            .apply_all(&cubelab::model::notation::parse_moves("U").unwrap());
        let picture = rgb_3d(&cube.to_facelets());
        for column in 0..3 {
            assert_eq!(colour_at(&picture, 1, 0, column), shaded(Face::R, 1));
            assert_eq!(colour_at(&picture, 2, 0, column), shaded(Face::B, 2));
            assert_eq!(colour_at(&picture, 1, 1, column), shaded(Face::F, 1));
        }
    }

    #[test]
    fn the_view_from_below_shows_d_where_the_cube_has_it() {
        // After R, D's right column (seen from below, F at the top) shows B's colour.
        let cube = cubelab::model::cube::Cube3::SOLVED
            .apply_all(&cubelab::model::notation::parse_moves("R").unwrap());
        let picture = rgb_3d_from(&cube.to_facelets(), true);
        for row in 0..3 {
            assert_eq!(colour_at(&picture, 3, row, 0), shaded(Face::D, 3));
            assert_eq!(colour_at(&picture, 3, row, 2), shaded(Face::B, 3));
            assert_eq!(colour_at(&picture, 1, row, 2), shaded(Face::D, 1));
        }
        // After D, R's bottom row shows F's colour, and F's shows L's; D itself stays D.
        let cube = cubelab::model::cube::Cube3::SOLVED
            .apply_all(&cubelab::model::notation::parse_moves("D").unwrap());
        let picture = rgb_3d_from(&cube.to_facelets(), true);
        for column in 0..3 {
            assert_eq!(colour_at(&picture, 2, 2, column), shaded(Face::F, 2));
            assert_eq!(colour_at(&picture, 1, 2, column), shaded(Face::L, 1));
            assert_eq!(colour_at(&picture, 3, 0, column), shaded(Face::D, 3));
        }
    }

    #[test]
    fn the_3d_picture_writes_png_and_svg_and_refuses_bad_stickers() {
        let dir = tempfile::tempdir().unwrap();
        let stickers = cubelab::model::cube::Cube3::SOLVED.to_facelets();
        for format in [ChartFormat::Png, ChartFormat::Svg] {
            let path = dir.path().join(format!("cube.{}", format.extension()));
            draw_position(&path, format, &stickers, &Scheme::STANDARD, View::Cube3d).unwrap();
            assert!(std::fs::metadata(&path).unwrap().len() > 500);
        }
        let pocket = "UUUURRRRFFFFDDDDLLLLBBBB";
        let path = dir.path().join("pocket.svg");
        draw_position(
            &path,
            ChartFormat::Svg,
            pocket,
            &Scheme::STANDARD,
            View::Cube3d,
        )
        .unwrap();
        // Three faces of four stickers each, and the three faces' backs; twice for both views.
        let svg = std::fs::read_to_string(&path).unwrap();
        assert_eq!(svg.matches("<polygon").count(), 15, "{svg}");
        draw_position(
            &path,
            ChartFormat::Svg,
            pocket,
            &Scheme::STANDARD,
            View::Cube3dBoth,
        )
        .unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert_eq!(svg.matches("<polygon").count(), 30, "{svg}");
        let error = draw_position(
            &path,
            ChartFormat::Png,
            "UUU",
            &Scheme::STANDARD,
            View::Cube3d,
        )
        .unwrap_err();
        assert!(
            error.to_string().contains("not a sticker string"),
            "{error}"
        );
    }

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
