//! The puzzles themselves: cubies with permutation and orientation, moves and metrics, whole-cube
//! rotations and symmetries ([`cube`]), move notation ([`notation`]), sticker strings
//! ([`facelet`]) and a position as a user writes it ([`position`]).

pub mod cube;
pub mod facelet;
pub mod goal_mask;
pub mod kpuzzle;
pub mod notation;
pub mod position;
