//! Sticker strings and whole position lines: read or refused, never a panic; a 3x3 or 2x2
//! that is read prints its stickers back to itself.
#![no_main]

use cubelab::model::cube::{Cube2, Cube3};
use cubelab::model::position::{Form, parse_position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(cube) = Cube3::from_facelets(text) {
        assert_eq!(Cube3::from_facelets(&cube.to_facelets()), Ok(cube));
    }
    if let Ok(cube) = Cube2::from_facelets(text) {
        assert_eq!(Cube2::from_facelets(&cube.to_facelets()), Ok(cube));
    }
    let _ = parse_position(text, None, Form::Auto);
});
