//! Scramble lists and the WCA results export (`stats goal --scrambles`): any bytes are 3x3
//! scrambles or a named error, never a panic; every scramble read makes the cube it carries.
#![no_main]

use cubelab::experiment::scrambles::read_scrambles;
use cubelab::model::position::{Form, Position, Puzzle, parse_position};
use libfuzzer_sys::fuzz_target;
use std::io::Write;

fuzz_target!(|data: &[u8]| {
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    file.write_all(data).expect("written");
    if let Ok(scrambles) = read_scrambles(file.path()) {
        assert!(!scrambles.is_empty() && scrambles.len() <= data.len());
        for scramble in &scrambles {
            let again = parse_position(&scramble.text, Some(Puzzle::Cube), Form::Auto);
            assert!(matches!(again, Ok(Position::Cube(cube)) if cube == scramble.cube));
        }
    }
});
