//! Sticker strings: 54 letters for the 3x3x3, 24 for the 2x2x2.
//!
//! Faces come in the order U R F D L B, each face's stickers in reading order as that face is seen
//! in the standard net. A letter names the face whose colour the sticker has. Any six letters are
//! accepted as colours: on the 3x3 the centres say which is which; on the 2x2 the corner in the
//! DBL slot names D, B and L and the opposite colours follow.

use crate::model::cube::{
    CORNER_NAMES, Corners, Cube2, Cube3, EDGE_NAMES, Edges, Face, InvalidCube,
};

/// A fault in a sticker string. Positions are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FaceletError {
    #[error("a {puzzle} sticker string has {expected} letters, this one has {found}")]
    WrongLength {
        puzzle: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("two centres have the same colour '{0}'")]
    CentresRepeat(char),
    #[error("'{letter}' at position {position} is not one of the six colours ({colours})")]
    UnknownLetter {
        letter: char,
        position: usize,
        colours: String,
    },
    #[error("colour '{colour}' appears {count} times, it should appear {expected} times")]
    ColourCount {
        colour: char,
        count: usize,
        expected: usize,
    },
    #[error("the stickers {stickers} in the {slot} corner slot form no real corner")]
    NoSuchCorner {
        slot: &'static str,
        stickers: String,
    },
    #[error("the stickers {stickers} in the {slot} edge slot form no real edge")]
    NoSuchEdge {
        slot: &'static str,
        stickers: String,
    },
    #[error(
        "the stickers show {} colours ({colours}); a cube has 6, each on {per_colour} stickers",
        colours.chars().count()
    )]
    ColourSet { colours: String, per_colour: usize },
    #[error("the colours are not those of a cube: '{0}' has no single opposite colour")]
    NoColourScheme(char),
    #[error("Reid's notation lists 20 pieces (12 edges, then 8 corners), this has {0}")]
    ReidPieceCount(usize),
    #[error("'{piece}' cannot be the piece in the {slot} slot: it needs {} letters", slot.len())]
    ReidPiece { slot: &'static str, piece: String },
    #[error(transparent)]
    Invalid(#[from] InvalidCube),
}

/// Sticker indices (into the 54) of each corner slot, U/D sticker first, then clockwise.
const CORNER_FACELETS: [[usize; 3]; 8] = [
    [8, 9, 20],
    [6, 18, 38],
    [0, 36, 47],
    [2, 45, 11],
    [29, 26, 15],
    [27, 44, 24],
    [33, 53, 42],
    [35, 17, 51],
];

/// Sticker indices of each edge slot, reference sticker first.
const EDGE_FACELETS: [[usize; 2]; 12] = [
    [5, 10],
    [7, 19],
    [3, 37],
    [1, 46],
    [32, 16],
    [28, 25],
    [30, 43],
    [34, 52],
    [23, 12],
    [21, 41],
    [50, 39],
    [48, 14],
];

/// Within a face of nine stickers, the four that a 2x2 has (its corners), in reading order.
const POCKET_STICKERS: [usize; 4] = [0, 2, 6, 8];

fn corner_colours(cubie: usize) -> [Face; 3] {
    CORNER_FACELETS[cubie].map(|i| Face::from_index(i / 9))
}

fn edge_colours(cubie: usize) -> [Face; 2] {
    EDGE_FACELETS[cubie].map(|i| Face::from_index(i / 9))
}

fn letters_of(stickers: &[Face], at: &[usize]) -> String {
    at.iter().map(|&i| stickers[i].letter()).collect()
}

/// Reads the corners from 54 stickers (only the corner stickers are looked at).
fn corners_from(stickers: &[Face; 54]) -> Result<Corners, FaceletError> {
    let mut corners = Corners::SOLVED;
    for (slot, at) in CORNER_FACELETS.iter().enumerate() {
        let no_such = || FaceletError::NoSuchCorner {
            slot: CORNER_NAMES[slot],
            stickers: letters_of(stickers, at),
        };
        let twist = (0..3)
            .find(|&k| matches!(stickers[at[k]], Face::U | Face::D))
            .ok_or_else(no_such)?;
        let read = [0, 1, 2].map(|k| stickers[at[(twist + k) % 3]]);
        let cubie = (0..8)
            .find(|&c| corner_colours(c) == read)
            .ok_or_else(no_such)?;
        corners.perm[slot] = cubie as u8;
        corners.ori[slot] = twist as u8;
    }
    Ok(corners)
}

fn edges_from(stickers: &[Face; 54]) -> Result<Edges, FaceletError> {
    let mut edges = Edges::SOLVED;
    for (slot, at) in EDGE_FACELETS.iter().enumerate() {
        let read = [stickers[at[0]], stickers[at[1]]];
        let found = (0..12).find_map(|c| {
            let colours = edge_colours(c);
            if colours == read {
                Some((c, 0))
            } else if colours == [read[1], read[0]] {
                Some((c, 1))
            } else {
                None
            }
        });
        let (cubie, flip) = found.ok_or_else(|| FaceletError::NoSuchEdge {
            slot: EDGE_NAMES[slot],
            stickers: letters_of(stickers, at),
        })?;
        edges.perm[slot] = cubie as u8;
        edges.ori[slot] = flip;
    }
    Ok(edges)
}

/// Writes the corners' stickers into `stickers`.
fn paint_corners(corners: &Corners, stickers: &mut [Face; 54]) {
    for (slot, at) in CORNER_FACELETS.iter().enumerate() {
        let colours = corner_colours(corners.perm[slot] as usize);
        let twist = corners.ori[slot] as usize;
        for (k, colour) in colours.into_iter().enumerate() {
            stickers[at[(k + twist) % 3]] = colour;
        }
    }
}

/// Maps each letter of `text` to a face through `scheme`, checking the length and that each of
/// the six colours appears `per_colour` times.
fn read_letters<const LEN: usize>(
    text: &str,
    puzzle: &'static str,
    scheme: impl Fn(char) -> Option<Face>,
    colours: &str,
) -> Result<[Face; LEN], FaceletError> {
    let letters: Vec<char> = text.chars().collect();
    if letters.len() != LEN {
        return Err(FaceletError::WrongLength {
            puzzle,
            expected: LEN,
            found: letters.len(),
        });
    }
    let mut faces = [Face::U; LEN];
    let mut counts = [0usize; 6];
    for (i, &letter) in letters.iter().enumerate() {
        let face = scheme(letter).ok_or_else(|| FaceletError::UnknownLetter {
            letter,
            position: i + 1,
            colours: colours.to_string(),
        })?;
        faces[i] = face;
        counts[face.index()] += 1;
    }
    let expected = LEN / 6;
    for face in Face::ALL {
        let count = counts[face.index()];
        if count != expected {
            let colour = colours.chars().nth(face.index()).unwrap_or('?');
            return Err(FaceletError::ColourCount {
                colour,
                count,
                expected,
            });
        }
    }
    Ok(faces)
}

impl Cube3 {
    /// Reads a 54-letter sticker string; the six centre letters define the colours.
    pub fn from_facelets(text: &str) -> Result<Cube3, FaceletError> {
        let letters: Vec<char> = text.chars().collect();
        if letters.len() != 54 {
            return Err(FaceletError::WrongLength {
                puzzle: "3x3",
                expected: 54,
                found: letters.len(),
            });
        }
        let centres: Vec<char> = Face::ALL
            .iter()
            .map(|f| letters[f.index() * 9 + 4])
            .collect();
        for (i, c) in centres.iter().enumerate() {
            if centres[..i].contains(c) {
                return Err(FaceletError::CentresRepeat(*c));
            }
        }
        let colours: String = centres.iter().collect();
        let scheme = |c: char| centres.iter().position(|&x| x == c).map(Face::from_index);
        let stickers = read_letters::<54>(text, "3x3", scheme, &colours)?;
        let cube = Cube3 {
            corners: corners_from(&stickers)?,
            edges: edges_from(&stickers)?,
        };
        cube.validate()?;
        Ok(cube)
    }

    /// The 54-letter sticker string, in face letters.
    pub fn to_facelets(&self) -> String {
        let mut stickers: [Face; 54] = std::array::from_fn(|i| Face::from_index(i / 9));
        paint_corners(&self.corners, &mut stickers);
        for (slot, at) in EDGE_FACELETS.iter().enumerate() {
            let colours = edge_colours(self.edges.perm[slot] as usize);
            let flip = self.edges.ori[slot] as usize;
            stickers[at[flip]] = colours[0];
            stickers[at[1 - flip]] = colours[1];
        }
        stickers.iter().map(|f| f.letter()).collect()
    }
}

/// The slots of Michael Reid's piece notation, in its order: twelve edges, then eight corners.
/// A position lists, slot by slot, the stickers found there, read in the order the slot's name
/// gives its faces; the solved cube is this list itself.
pub const REID_SLOTS: [&str; 20] = [
    "UF", "UR", "UB", "UL", "DF", "DR", "DB", "DL", "FR", "FL", "BR", "BL", "UFR", "URB", "UBL",
    "ULF", "DRF", "DFL", "DLB", "DBR",
];

/// Per Reid slot, its sticker indices (into the 54) in the order of its letters, derived once.
static REID_FACELETS: std::sync::LazyLock<Vec<Vec<usize>>> =
    std::sync::LazyLock::new(|| REID_SLOTS.iter().map(|name| reid_facelets(name)).collect());

/// The sticker indices (into the 54) of Reid slot `name`, in the order of its letters: found
/// from the corner and edge tables above, so that the two notations share one geometry.
fn reid_facelets(name: &str) -> Vec<usize> {
    let slots: Vec<&[usize]> = EDGE_FACELETS
        .iter()
        .map(|s| s.as_slice())
        .chain(CORNER_FACELETS.iter().map(|s| s.as_slice()))
        .collect();
    let face_at = |i: usize| Face::from_index(i / 9).letter();
    let slot = slots
        .into_iter()
        .find(|at| at.len() == name.len() && at.iter().all(|&i| name.contains(face_at(i))))
        .unwrap_or(&[]);
    name.chars()
        .filter_map(|letter| slot.iter().copied().find(|&i| face_at(i) == letter))
        .collect()
}

impl Cube3 {
    /// Reads Reid's notation: 20 pieces separated by blanks, as vcube and nxopt read them
    /// (`UF UR ... DBR` is solved). Faults are reported as in the sticker string the pieces
    /// paint, by the slot that holds them.
    pub fn from_reid(text: &str) -> Result<Cube3, FaceletError> {
        let pieces: Vec<&str> = text.split_whitespace().collect();
        if pieces.len() != REID_SLOTS.len() {
            return Err(FaceletError::ReidPieceCount(pieces.len()));
        }
        let mut stickers: Vec<char> = Face::ALL
            .iter()
            .flat_map(|f| std::iter::repeat_n(f.letter(), 9))
            .collect();
        for ((&name, at), &piece) in REID_SLOTS.iter().zip(REID_FACELETS.iter()).zip(&pieces) {
            if piece.chars().count() != name.len() {
                return Err(FaceletError::ReidPiece {
                    slot: name,
                    piece: piece.to_string(),
                });
            }
            for (&at, letter) in at.iter().zip(piece.chars()) {
                stickers[at] = letter;
            }
        }
        Cube3::from_facelets(&stickers.into_iter().collect::<String>())
    }

    /// Writes Reid's notation (see [`Cube3::from_reid`]).
    pub fn to_reid(&self) -> String {
        let stickers: Vec<char> = self.to_facelets().chars().collect();
        REID_SLOTS
            .iter()
            .map(|name| {
                reid_facelets(name)
                    .iter()
                    .map(|&i| stickers[i])
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The RGB colour of each face's stickers, U R F D L B.
pub type Palette = [(u8, u8, u8); 6];

/// A sticker string drawn as the unfolded cube: U above, L F R B in a row, D below, each
/// face as it is seen from outside (the order the string lists it in). With `colours` (the RGB
/// colour of U R F D L B), every sticker is also painted in its face's colour (24-bit ANSI
/// escapes, for a terminal), its letter in black or white, whichever shows; the letters stay,
/// so the net reads the same without colour. A string whose length is not six squares is drawn
/// as one line.
pub fn net(stickers: &str, colours: Option<&Palette>) -> String {
    let letters: Vec<char> = stickers.chars().collect();
    let side = match letters.len() {
        24 => 2,
        54 => 3,
        _ => return format!("{stickers}\n"),
    };
    let area = side * side;
    let cell = |face: usize, row: usize, column: usize| {
        let letter = letters[face * area + row * side + column];
        match (Face::from_letter(letter), colours) {
            (Some(f), Some(colours)) => {
                let (r, g, b) = colours[f.index()];
                // Perceived brightness (ITU-R BT.601 weights): dark letters on light stickers.
                let light = 299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b) > 140_000;
                let ink = if light { 0 } else { 255 };
                format!("\x1b[48;2;{r};{g};{b}m\x1b[38;2;{ink};{ink};{ink}m{letter} \x1b[0m")
            }
            _ => format!("{letter} "),
        }
    };
    let row_of =
        |face: usize, row: usize| (0..side).map(|c| cell(face, row, c)).collect::<String>();
    let indent = " ".repeat(2 * side);
    let mut out = String::new();
    let [u, r, f, d, l, b] = [0, 1, 2, 3, 4, 5];
    for row in 0..side {
        out += &format!("{indent}{}\n", row_of(u, row).trim_end());
    }
    for row in 0..side {
        let line: String = [l, f, r, b].iter().map(|&face| row_of(face, row)).collect();
        out += &format!("{}\n", line.trim_end());
    }
    for row in 0..side {
        out += &format!("{indent}{}\n", row_of(d, row).trim_end());
    }
    out
}

/// Where a 2x2 sticker sits among the 54 of a 3x3.
fn pocket_to_full(i: usize) -> usize {
    (i / 4) * 9 + POCKET_STICKERS[i % 4]
}

/// Six colours, each on a sixth of the stickers.
fn check_colour_counts(letters: &[char], distinct: &[char]) -> Result<(), FaceletError> {
    let per_colour = letters.len() / 6;
    if distinct.len() != 6 {
        return Err(FaceletError::ColourSet {
            colours: distinct.iter().collect(),
            per_colour,
        });
    }
    for &colour in distinct {
        let count = letters.iter().filter(|&&c| c == colour).count();
        if count != per_colour {
            return Err(FaceletError::ColourCount {
                colour,
                count,
                expected: per_colour,
            });
        }
    }
    Ok(())
}

/// The colour scheme of a 2x2 given in arbitrary colours: the corner in the DBL slot names D, B
/// and L, and U, F, R are the colours opposite those (the one colour never on a corner with it).
fn pocket_scheme(letters: &[char]) -> Result<Vec<(char, Face)>, FaceletError> {
    let corners: Vec<[char; 3]> = CORNER_FACELETS
        .iter()
        .map(|at| {
            at.map(|i| {
                let (face, k) = (i / 9, i % 9);
                let index = POCKET_STICKERS.iter().position(|&s| s == k).unwrap_or(0);
                letters[face * 4 + index]
            })
        })
        .collect();
    let distinct: Vec<char> = {
        let mut d: Vec<char> = letters.to_vec();
        d.sort_unstable();
        d.dedup();
        d
    };
    let opposite = |c: char| -> Result<char, FaceletError> {
        let never_with: Vec<char> = distinct
            .iter()
            .copied()
            .filter(|&o| o != c && !corners.iter().any(|t| t.contains(&c) && t.contains(&o)))
            .collect();
        match never_with.as_slice() {
            [o] => Ok(*o),
            _ => Err(FaceletError::NoColourScheme(c)),
        }
    };
    // The DBL slot's stickers are listed D, B, L.
    let [d, b, l] = corners[6];
    Ok(vec![
        (opposite(d)?, Face::U),
        (opposite(l)?, Face::R),
        (opposite(b)?, Face::F),
        (d, Face::D),
        (l, Face::L),
        (b, Face::B),
    ])
}

impl Cube2 {
    /// Reads a 24-letter sticker string. The placement is returned as the cube is held;
    /// [`Cube2::normalised`] gives the representative the 2x2 tables index. Colours other than
    /// face letters are named by the DBL corner, which leaves it solved.
    pub fn from_facelets(text: &str) -> Result<Cube2, FaceletError> {
        let letters: Vec<char> = text.chars().collect();
        let mut distinct = letters.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let all_faces = Face::ALL.iter().all(|f| distinct.contains(&f.letter()));
        if letters.len() == 24 && !all_faces {
            // Colours other than face letters are read from the stickers themselves, so a
            // wrong count is named before any letter is looked up in a scheme it could not
            // have formed. With all six face letters present, a stray letter is named instead.
            check_colour_counts(&letters, &distinct)?;
        }
        let face_letters =
            distinct.len() == 6 && distinct.iter().all(|&c| Face::from_letter(c).is_some());
        let scheme: Vec<(char, Face)> =
            if face_letters || letters.len() != 24 || distinct.len() != 6 {
                Face::ALL.iter().map(|&f| (f.letter(), f)).collect()
            } else {
                pocket_scheme(&letters)?
            };
        let colours: String = Face::ALL
            .iter()
            .map(|f| scheme.iter().find(|(_, g)| g == f).map_or('?', |(c, _)| *c))
            .collect();
        let lookup = |c: char| scheme.iter().find(|(x, _)| *x == c).map(|(_, f)| *f);
        let pocket = read_letters::<24>(text, "2x2", lookup, &colours)?;
        let mut stickers = [Face::U; 54];
        for (i, face) in pocket.iter().enumerate() {
            stickers[pocket_to_full(i)] = *face;
        }
        let cube = Cube2 {
            corners: corners_from(&stickers)?,
        };
        cube.validate()?;
        Ok(cube)
    }

    /// The 24-letter sticker string, in face letters, of this placement as it stands.
    pub fn to_facelets(&self) -> String {
        let mut stickers: [Face; 54] = std::array::from_fn(|i| Face::from_index(i / 9));
        paint_corners(&self.corners, &mut stickers);
        (0..24)
            .map(|i| stickers[pocket_to_full(i)].letter())
            .collect()
    }
}

#[cfg(test)]
mod tests;
