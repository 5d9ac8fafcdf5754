//! A partial goal written as a mask: which pieces must be home and which need only be turned
//! right, the rest of the cube ignored.
//!
//! The syntax, terms separated by spaces or commas:
//!
//! | term | asks for |
//! |---|---|
//! | `DF` (or `FD`) | that edge home and unflipped |
//! | `DFR` (any order of its faces) | that corner home and untwisted |
//! | `U` `D` `F` `B` `L` `R` | the face's layer: its four edges and four corners home |
//! | `E` `M` `S` | the slice's four edges home |
//! | `edges`, `corners` | every edge, every corner home |
//! | a term and `/o`: `DF/o`, `E/o` | only orientation: those pieces wherever they are, unflipped or untwisted |
//! | `edges/o`, `corners/o` | every edge oriented (EO for `<U, D, R, L, F2, B2>`), every corner twisted right for U/D |
//! | a term and `/p`: `E/p`, `UFR/p DBL/p` | only placement: those pieces among their own slots, in any order, turned any way (`edges/o corners/o E/p` is domino reduction) |
//!
//! Orientation is Kociemba's (see [`Cube3`]): an edge is flipped relative to the F/B axis,
//! a corner twisted relative to U/D. A piece may be named once; the one exception is that
//! `edges/o` and `corners/o` go with pieces named home (`DF DB edges/o` is EOLine), as a piece
//! home is also turned right, and with pieces named placed, which they then also orient.

use super::cube::{CORNER_NAMES, Cube3, EDGE_NAMES};
use std::fmt;

/// The pieces a goal asks for: bit `i` of `solved_edges` is edge `i` (numbered as
/// [`EDGE_NAMES`]) home and unflipped, bit `i` of `oriented_edges` edge `i` unflipped wherever it
/// is, bit `i` of `placed_edges` edge `i` in one of the slots of the placed edges' homes; the
/// same for corners. A piece home is in no other set; a placed piece may also be oriented.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GoalMask {
    pub solved_edges: u16,
    pub oriented_edges: u16,
    pub solved_corners: u8,
    pub oriented_corners: u8,
    pub placed_edges: u16,
    pub placed_corners: u8,
}

/// Why a mask does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MaskError {
    #[error("the goal mask names no piece; write pieces such as `DF DB DL DR` (see --help)")]
    Empty,
    #[error(
        "`{0}` in the goal mask is not a piece or a group of pieces: write an edge (DF), a corner (DFR), a layer (U D F B L R), a slice (E M S), `edges` or `corners`, each optionally with /o (only oriented) or /p (only placed among its own slots)"
    )]
    Unknown(String),
    #[error(
        "the goal mask names {piece} twice (in `{first}` and in `{second}`): name each piece once"
    )]
    Twice {
        piece: &'static str,
        first: String,
        second: String,
    },
}

const ALL_EDGES: u16 = 0xFFF;
const ALL_CORNERS: u8 = 0xFF;

/// What a term asks of its pieces.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Asks {
    Home,
    Oriented,
    Placed,
}

/// What one term names: edges and corners as bits, and whether it is one of the two groups that
/// may overlap pieces named home or placed.
struct Term {
    edges: u16,
    corners: u8,
    asks: Asks,
    whole_kind: bool,
}

impl GoalMask {
    /// The mask of the solved cube's every piece home.
    pub const WHOLE_CUBE: GoalMask = GoalMask {
        solved_edges: ALL_EDGES,
        oriented_edges: 0,
        solved_corners: ALL_CORNERS,
        oriented_corners: 0,
        placed_edges: 0,
        placed_corners: 0,
    };

    /// Parses the syntax of the module's documentation.
    pub fn parse(text: &str) -> Result<GoalMask, MaskError> {
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            return Err(MaskError::Empty);
        }
        let mut mask = GoalMask::default();
        // Which word named each piece, to say where a piece named twice was named first.
        let mut edge_by: [Option<&str>; 12] = [None; 12];
        let mut corner_by: [Option<&str>; 8] = [None; 8];
        let mut whole_by: (Option<&str>, Option<&str>) = (None, None);
        for word in words {
            let term = term(word).ok_or_else(|| MaskError::Unknown(word.to_string()))?;
            if term.whole_kind {
                // `edges/o` or `corners/o`: every piece not named home is to be oriented.
                let by = if term.edges != 0 {
                    &mut whole_by.0
                } else {
                    &mut whole_by.1
                };
                if let Some(first) = by.replace(word) {
                    let piece = if term.edges != 0 {
                        "every edge"
                    } else {
                        "every corner"
                    };
                    return Err(MaskError::Twice {
                        piece,
                        first: first.to_string(),
                        second: word.to_string(),
                    });
                }
                continue;
            }
            claim(&mut edge_by, term.edges, &EDGE_NAMES, word)?;
            claim(&mut corner_by, term.corners, &CORNER_NAMES, word)?;
            match term.asks {
                Asks::Home => {
                    mask.solved_edges |= term.edges;
                    mask.solved_corners |= term.corners;
                }
                Asks::Oriented => {
                    mask.oriented_edges |= term.edges;
                    mask.oriented_corners |= term.corners;
                }
                Asks::Placed => {
                    mask.placed_edges |= term.edges;
                    mask.placed_corners |= term.corners;
                }
            }
        }
        if let Some(word) = whole_by.0 {
            for (piece, by) in edge_by.iter().enumerate() {
                // A piece named only oriented already, and `edges/o`: named twice.
                if mask.oriented_edges >> piece & 1 == 1 {
                    return Err(twice(EDGE_NAMES[piece], by.unwrap_or(word), word));
                }
            }
            mask.oriented_edges = ALL_EDGES & !mask.solved_edges;
        }
        if let Some(word) = whole_by.1 {
            for (piece, by) in corner_by.iter().enumerate() {
                if mask.oriented_corners >> piece & 1 == 1 {
                    return Err(twice(CORNER_NAMES[piece], by.unwrap_or(word), word));
                }
            }
            mask.oriented_corners = ALL_CORNERS & !mask.solved_corners;
        }
        Ok(mask)
    }

    /// Whether `cube` has every piece the mask asks for as it asks.
    pub fn is_reached(&self, cube: &Cube3) -> bool {
        let (e, c) = (&cube.edges, &cube.corners);
        let edges = [self.solved_edges, self.oriented_edges, self.placed_edges].map(u32::from);
        let corners = [
            self.solved_corners,
            self.oriented_corners,
            self.placed_corners,
        ]
        .map(u32::from);
        kind_reached(&e.perm, &e.ori, edges) && kind_reached(&c.perm, &c.ori, corners)
    }

    /// The pieces, numbered, in each of the four sets.
    pub fn solved_edge_list(&self) -> Vec<u8> {
        bits(u32::from(self.solved_edges), 12)
    }
    pub fn oriented_edge_list(&self) -> Vec<u8> {
        bits(u32::from(self.oriented_edges), 12)
    }
    pub fn solved_corner_list(&self) -> Vec<u8> {
        bits(u32::from(self.solved_corners), 8)
    }
    pub fn oriented_corner_list(&self) -> Vec<u8> {
        bits(u32::from(self.oriented_corners), 8)
    }
    pub fn placed_edge_list(&self) -> Vec<u8> {
        bits(u32::from(self.placed_edges), 12)
    }
    pub fn placed_corner_list(&self) -> Vec<u8> {
        bits(u32::from(self.placed_corners), 8)
    }
}

/// Whether the pieces of one kind (`perm`, `ori` by slot) are as `[home, oriented, placed]`
/// (sets of pieces) ask: home and unturned; unturned wherever they are; among the home slots of
/// the placed set.
fn kind_reached<const N: usize>(
    perm: &[u8; N],
    ori: &[u8; N],
    [home, oriented, placed]: [u32; 3],
) -> bool {
    (0..N).all(|slot| {
        let piece = u32::from(perm[slot]);
        let asked = |set: u32| set >> piece & 1 == 1;
        (!asked(home) || (piece as usize == slot && ori[slot] == 0))
            && (!asked(oriented) || ori[slot] == 0)
            && (!asked(placed) || placed >> slot & 1 == 1)
    })
}

fn bits(set: u32, n: u8) -> Vec<u8> {
    (0..n).filter(|&i| set >> i & 1 == 1).collect()
}

fn twice(piece: &'static str, first: &str, second: &str) -> MaskError {
    MaskError::Twice {
        piece,
        first: first.to_string(),
        second: second.to_string(),
    }
}

/// Records that `word` names the pieces of `set`, refusing one named before.
fn claim<'w, const N: usize>(
    by: &mut [Option<&'w str>; N],
    set: impl Into<u32>,
    names: &[&'static str; N],
    word: &'w str,
) -> Result<(), MaskError> {
    let set = set.into();
    for (piece, named) in by.iter_mut().enumerate() {
        if set >> piece & 1 == 1
            && let Some(first) = named.replace(word)
        {
            return Err(twice(names[piece], first, word));
        }
    }
    Ok(())
}

/// The faces of a piece name, as a sorted set of letters, so that `FD` finds `DF`.
fn letters(name: &str) -> Option<Vec<char>> {
    let mut letters: Vec<char> = name.chars().collect();
    letters.sort_unstable();
    let distinct = letters.windows(2).all(|w| w[0] != w[1]);
    distinct.then_some(letters)
}

fn term(word: &str) -> Option<Term> {
    let (name, asks) = if let Some(name) = word.strip_suffix("/o") {
        (name, Asks::Oriented)
    } else if let Some(name) = word.strip_suffix("/p") {
        (name, Asks::Placed)
    } else {
        (word, Asks::Home)
    };
    let whole = asks == Asks::Oriented;
    let lower = name.to_ascii_lowercase();
    let name = if lower == "edges" || lower == "corners" {
        lower.as_str()
    } else {
        name
    };
    let (edges, corners, whole_kind) = match name {
        "edges" => (ALL_EDGES, 0, whole),
        "corners" => (0, ALL_CORNERS, whole),
        "E" => (0xF00, 0, false),
        "M" => (edge_set(&["UF", "UB", "DF", "DB"]), 0, false),
        "S" => (edge_set(&["UR", "UL", "DR", "DL"]), 0, false),
        face if face.len() == 1 => {
            let c = face.chars().next()?;
            "UDFBLR".contains(c).then_some(())?;
            let edges = EDGE_NAMES.iter().enumerate();
            let corners = CORNER_NAMES.iter().enumerate();
            let on = |n: &&str| n.contains(c);
            (
                edges.filter(|(_, n)| on(n)).fold(0, |s, (i, _)| s | 1 << i),
                corners
                    .filter(|(_, n)| on(n))
                    .fold(0, |s, (i, _)| s | 1 << i),
                false,
            )
        }
        piece => {
            let wanted = letters(&piece.to_ascii_uppercase())?;
            let find = |names: &[&str]| {
                names
                    .iter()
                    .position(|n| letters(n) == Some(wanted.clone()))
            };
            if let Some(e) = find(&EDGE_NAMES) {
                (1 << e, 0, false)
            } else {
                (0, 1 << find(&CORNER_NAMES)?, false)
            }
        }
    };
    Some(Term {
        edges,
        corners,
        asks,
        whole_kind,
    })
}

fn edge_set(names: &[&str]) -> u16 {
    names.iter().fold(0, |set, name| {
        set | EDGE_NAMES
            .iter()
            .position(|n| n == name)
            .map_or(0, |i| 1 << i)
    })
}

/// The canonical text: pieces home, then pieces placed (`/p`), then pieces oriented (`/o`), edges before corners, in the
/// standard numbering; `edges/o` and `corners/o` where every other piece of the kind is
/// oriented. It parses back to the same mask.
impl fmt::Display for GoalMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words: Vec<String> = Vec::new();
        words.extend(
            self.solved_edge_list()
                .iter()
                .map(|&e| EDGE_NAMES[usize::from(e)].into()),
        );
        words.extend(
            self.solved_corner_list()
                .iter()
                .map(|&c| CORNER_NAMES[usize::from(c)].into()),
        );
        words.extend(
            self.placed_edge_list()
                .iter()
                .map(|&e| format!("{}/p", EDGE_NAMES[usize::from(e)])),
        );
        words.extend(
            self.placed_corner_list()
                .iter()
                .map(|&c| format!("{}/p", CORNER_NAMES[usize::from(c)])),
        );
        let every_edge =
            self.oriented_edges != 0 && self.oriented_edges | self.solved_edges == ALL_EDGES;
        let every_corner = self.oriented_corners != 0
            && self.oriented_corners | self.solved_corners == ALL_CORNERS;
        if every_edge {
            words.push("edges/o".into());
        } else {
            words.extend(
                self.oriented_edge_list()
                    .iter()
                    .map(|&e| format!("{}/o", EDGE_NAMES[usize::from(e)])),
            );
        }
        if every_corner {
            words.push("corners/o".into());
        } else {
            words.extend(
                self.oriented_corner_list()
                    .iter()
                    .map(|&c| format!("{}/o", CORNER_NAMES[usize::from(c)])),
            );
        }
        f.write_str(&words.join(" "))
    }
}

impl std::str::FromStr for GoalMask {
    type Err = MaskError;
    fn from_str(text: &str) -> Result<GoalMask, MaskError> {
        GoalMask::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cube::Move;
    use crate::model::notation::parse_moves;

    fn mask(text: &str) -> GoalMask {
        GoalMask::parse(text).unwrap()
    }

    #[test]
    fn names_in_any_order_layers_slices_and_groups() {
        let cross = mask("DF DB DL DR");
        assert_eq!(cross.solved_edges, 0xF0);
        assert_eq!(mask("FD,BD LD  RD"), cross);
        assert_eq!(mask("D").solved_edges, 0xF0);
        assert_eq!(mask("D").solved_corners, 0xF0);
        assert_eq!(mask("E").solved_edges, 0xF00);
        assert_eq!(mask("RFD").solved_corners, 1 << 4);
        let eoline = mask("DF DB edges/o");
        assert_eq!(eoline.solved_edges, 1 << 5 | 1 << 7);
        assert_eq!(eoline.oriented_edges, 0xFFF & !(1 << 5 | 1 << 7));
        assert_eq!(mask("E/o").oriented_edges, 0xF00);
        assert_eq!(mask("corners/o").oriented_corners, 0xFF);
    }

    #[test]
    fn the_canonical_text_parses_back() {
        for text in [
            "DF DB DL DR",
            "DF DB edges/o",
            "D E",
            "UR/o DFR/o",
            "corners/o edges/o",
            "DL FL BL DLF DBL",
            "edges corners",
            "E/p edges/o corners/o",
            "UFR/p DBL/p DF",
        ] {
            let m = mask(text);
            assert_eq!(mask(&m.to_string()), m, "{text} -> {m}");
        }
        assert_eq!(mask("BD edges/o").to_string(), "DB edges/o");
    }

    #[test]
    fn bad_masks_say_what_is_wrong() {
        assert_eq!(GoalMask::parse(" , "), Err(MaskError::Empty));
        assert!(matches!(GoalMask::parse("DF XY"), Err(MaskError::Unknown(w)) if w == "XY"));
        assert!(matches!(GoalMask::parse("DFF"), Err(MaskError::Unknown(_))));
        assert!(matches!(GoalMask::parse("UD"), Err(MaskError::Unknown(_))));
        let twice = GoalMask::parse("DF D").unwrap_err();
        assert_eq!(
            twice.to_string(),
            "the goal mask names DF twice (in `DF` and in `D`): name each piece once"
        );
        assert!(matches!(
            GoalMask::parse("DF/o edges/o"),
            Err(MaskError::Twice { .. })
        ));
        assert!(matches!(
            GoalMask::parse("edges/o edges/o"),
            Err(MaskError::Twice { .. })
        ));
        assert!(matches!(
            GoalMask::parse("DF FD"),
            Err(MaskError::Twice { .. })
        ));
    }

    #[test]
    fn reached_exactly_where_the_pieces_are_as_asked() {
        let solved = Cube3::SOLVED;
        let after = |text: &str| solved.apply_all(&parse_moves(text).unwrap());
        assert!(!mask("DF DB DL DR").is_reached(&after("U R2 U'")));
        assert!(mask("DF DB DL DR").is_reached(&after("U R U' R'")));
        // R moves DR but keeps every edge unflipped; F flips four.
        assert!(!mask("DR").is_reached(&after("R")));
        assert!(mask("edges/o").is_reached(&after("R U L D")));
        assert!(!mask("edges/o").is_reached(&after("F")));
        assert!(mask("DR/o").is_reached(&after("R")));
        assert!(mask("corners/o").is_reached(&after("U R2 D")));
        assert!(!mask("corners/o").is_reached(&after("R")));
        assert!(GoalMask::WHOLE_CUBE.is_reached(&solved));
        // Domino reduction: R2 keeps it, R breaks it (FR leaves the slice, corners twist).
        let dr = mask("E/p edges/o corners/o");
        assert_eq!(dr.placed_edges, 0xF00);
        assert_eq!(dr.oriented_edges, 0xFFF);
        assert!(dr.is_reached(&after("R2 U L2 D'")));
        assert!(!dr.is_reached(&after("R")));
        assert!(mask("E/p").is_reached(&after("R2 F2 L2 B2")));
        assert!(!GoalMask::WHOLE_CUBE.is_reached(&solved.apply(Move::from_index(0).unwrap())));
    }
}
