//! The puzzles as cubies: piece sets, face turns, metrics, rotations, the 3x3x3 and the 2x2x2.

mod cube2;
mod cube3;
mod moves;
mod packed;
mod pieces;
mod rotation;
mod symmetry;

pub use cube2::{Cube2, FIXED_CORNER};
pub use cube3::{CORNER_NAMES, Cube3, EDGE_NAMES, InvalidCube, MOVE_CUBES};
pub use moves::{Face, Metric, Move, merge_same_face};
pub use packed::{CubePair, PackedCube, PieceSet};
pub use pieces::{Corners, Edges, Pieces, PiecesFault};
pub use rotation::Rotation;
pub use symmetry::{Symmetry, mirror};
