//! The position readers against a million generated inputs: random text, near-valid sticker
//! strings and Reid strings, random bytes as input lines, deep brackets and a 10 MB line. Each
//! must give a clean error or a position that is a real cube, never a panic or a hang; and the
//! mutations that always break a cube (a sticker recoloured, a corner twisted, an edge flipped)
//! must always be refused.

use cubelab::model::cube::{Cube2, Cube3};
use cubelab::model::position::{Form, Position, PositionLines, Puzzle, parse_position};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// What the readers are fed, character by character: every notation character, the colour
/// letters, digits, brackets, comment slashes, blanks and a few that no notation uses.
const ALPHABET: &[char] = &[
    'U', 'R', 'F', 'D', 'L', 'B', 'u', 'r', 'f', 'd', 'l', 'b', 'M', 'E', 'S', 'x', 'y', 'z', 'w',
    '\'', '’', '2', '3', '0', '9', '(', ')', '[', ']', ',', ':', '/', ' ', '\t', '\r', '#', '\0',
    'é', 'Q', '\u{feff}',
];

/// Reads `text` in every form; an accepted position must be a valid cube that its own sticker
/// string reads back as.
fn check(text: &str, puzzle: Option<Puzzle>) {
    for form in [Form::Auto, Form::Moves, Form::Stickers, Form::Reid] {
        if let Ok(position) = parse_position(text, puzzle, form) {
            match position {
                Position::Cube(c) => {
                    assert_eq!(c.validate(), Ok(()), "{text:?} as {form:?}");
                    assert_eq!(Cube3::from_facelets(&c.to_facelets()), Ok(c), "{text:?}");
                }
                Position::Pocket(c) => {
                    assert_eq!(c.validate(), Ok(()), "{text:?} as {form:?}");
                    let back = Cube2::from_facelets(&c.to_facelets()).expect("reads back");
                    assert_eq!(back.normalised(), c.normalised(), "{text:?}");
                }
            }
        }
    }
}

fn random_text(rng: &mut Xoshiro256PlusPlus) -> String {
    let length = rng.random_range(0..80);
    (0..length)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())])
        .collect()
}

/// A sticker string of a random state with one sticker (not a centre) recoloured.
fn recoloured(stickers: &str, rng: &mut Xoshiro256PlusPlus) -> String {
    let mut letters: Vec<char> = stickers.chars().collect();
    let mut at = rng.random_range(0..letters.len());
    while letters.len() == 54 && at % 9 == 4 {
        at = rng.random_range(0..letters.len());
    }
    let others: Vec<char> = "URFDLB".chars().filter(|&c| c != letters[at]).collect();
    letters[at] = others[rng.random_range(0..others.len())];
    letters.into_iter().collect()
}

fn swapped(stickers: &str, rng: &mut Xoshiro256PlusPlus) -> String {
    let mut letters: Vec<char> = stickers.chars().collect();
    let (a, b) = (
        rng.random_range(0..letters.len()),
        rng.random_range(0..letters.len()),
    );
    letters.swap(a, b);
    letters.into_iter().collect()
}

#[test]
fn a_million_inputs_get_a_clean_error_or_a_real_cube() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let mut fed = 0u64;
    // Random text, read as each puzzle.
    for _ in 0..350_000 {
        let text = random_text(&mut rng);
        check(&text, None);
        check(&text, Some(Puzzle::Pocket));
        fed += 1;
    }
    // Near-valid sticker strings of both puzzles, and Reid strings.
    for _ in 0..100_000 {
        let cube = Cube3::random(&mut rng);
        let stickers = cube.to_facelets();
        let bad = recoloured(&stickers, &mut rng);
        assert!(parse_position(&bad, None, Form::Auto).is_err(), "{bad}");
        check(&swapped(&stickers, &mut rng), None);
        // A corner twisted or an edge flipped in Reid's notation: its first piece rotated.
        let reid = cube.to_reid();
        let mut pieces: Vec<String> = reid.split(' ').map(String::from).collect();
        let which = rng.random_range(0..pieces.len());
        let mut letters: Vec<char> = pieces[which].chars().collect();
        letters.rotate_left(1);
        pieces[which] = letters.into_iter().collect();
        let turned = pieces.join(" ");
        assert!(
            parse_position(&turned, None, Form::Auto).is_err(),
            "{turned}"
        );
        let pocket = Cube2::random(&mut rng).to_facelets();
        let bad = recoloured(&pocket, &mut rng);
        assert!(parse_position(&bad, None, Form::Auto).is_err(), "{bad}");
        check(&swapped(&pocket, &mut rng), None);
        fed += 6;
    }
    // Random bytes as lines: not UTF-8, NULs, CRLF; each line is read and checked.
    for _ in 0..100_000 {
        let length = rng.random_range(0..60);
        let bytes: Vec<u8> = (0..length).map(|_| rng.random()).collect();
        for line in PositionLines::new(bytes.as_slice()) {
            let line = line.expect("in-memory reads succeed");
            if let Ok(text) = line.text {
                check(&text, None);
            }
            fed += 1;
        }
    }
    // Deep and unbalanced brackets.
    for _ in 0..1_000 {
        let depth = rng.random_range(0..200);
        let open = ["(", "["][rng.random_range(0..2)];
        let text = format!("{}R, U{}", open.repeat(depth), ")]".repeat(depth / 2));
        check(&text, None);
        fed += 1;
    }
    // One 10 MB line.
    let long: String = (0..10 << 20)
        .map(|_| ALPHABET[rng.random_range(0..18)])
        .collect();
    check(&long, None);
    fed += 1;
    assert!(fed >= 1_000_000, "{fed} inputs");
}
