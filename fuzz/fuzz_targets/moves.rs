//! Move sequences: any text is read or refused, never a panic; what is read prints as moves
//! that read back to the same position, on the 3x3 and (outer turns only) on the 2x2.
#![no_main]

use cubelab::model::cube::Cube3;
use cubelab::model::notation::{format_moves, parse_moves, parse_outer_moves};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(moves) = parse_moves(text) {
        let printed = format_moves(&moves);
        let again = parse_moves(&printed).expect("printed moves read back");
        assert_eq!(
            Cube3::from_moves(&again),
            Cube3::from_moves(&moves),
            "{printed}"
        );
    }
    if let Ok(moves) = parse_outer_moves(text) {
        assert!(parse_moves(&format_moves(&moves)).is_ok());
    }
});
