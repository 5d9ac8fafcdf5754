//! Reid's notation: read or refused, never a panic; a position that is read prints back to
//! itself.
#![no_main]

use cubelab::model::cube::Cube3;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(cube) = Cube3::from_reid(text) {
        assert_eq!(Cube3::from_reid(&cube.to_reid()), Ok(cube));
    }
});
