//! Subgroups as spaces: a group named by its generators ([`GroupSpec`]), its size before
//! anything is allocated ([`Sizes`], by the Schreier–Sims algorithm), and the product of its
//! corner and edge images that its table is numbered over ([`GroupSpace`]).

pub mod space;
pub mod spec;

pub use space::GroupSpace;
pub use spec::{GroupMetric, GroupMove, GroupSpec};

use crate::coord::order::{Perm, group_order};
use crate::model::cube::Cube3;
use crate::model::notation::NotationError;
use crate::model::position::Puzzle;
use crate::support::units::{human_bytes, thousands};

/// Why a subgroup cannot be named, sized or located in.
#[derive(Debug, thiserror::Error)]
pub enum GroupSpaceError {
    #[error("no generators given: write them like \"U R\" or \"R U R' U', D\"")]
    NoGenerators,
    #[error("generator \"{generator}\": {source}")]
    Notation {
        generator: String,
        source: NotationError,
    },
    #[error(
        "generator \"{generator}\" turns the whole cube ({rotation}); generators are face turns"
    )]
    Rotation { generator: String, rotation: char },
    #[error("generator \"{0}\" does nothing")]
    Identity(String),
    #[error(
        "generator \"{0}\" moves the 2x2's DBL corner, which its tables hold in place: write it with U, R and F turns (a D, L or B turn is the U, F or R turn with the cube turned)"
    )]
    MovesFixedCorner(String),
    #[error(
        "generator \"{0}\" is not a quarter turn, as --group-metric qtm needs; use --group-metric generators (each generator and its inverse cost 1) or htm"
    )]
    NotQuarterTurn(String),
    #[error(
        "{spec} has {} positions; its table would hold {} entries and needs about {} to build, more than the {} this machine has available. Choose fewer or smaller generators",
        thousands(*order),
        thousands(*entries),
        human_bytes(*bytes),
        human_bytes(*available)
    )]
    TooLarge {
        spec: String,
        order: u128,
        entries: u128,
        bytes: u128,
        available: u64,
    },
    #[error("the position is not in the group")]
    NotInGroup,
}

/// A group's size and its table's, known before the table is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Positions in the group.
    pub order: u128,
    /// Corner states and edge states the group reaches (1 edge state for a 2x2).
    pub corner_image: u128,
    pub edge_image: u128,
    /// Moves of the search graph.
    pub moves: u128,
}

impl Sizes {
    pub fn of(spec: &GroupSpec) -> Sizes {
        let moves = spec.moves();
        let perms = |corners: bool, edges: bool| -> Vec<Perm> {
            moves
                .iter()
                .map(|m| points_of(&m.cube, corners, edges))
                .collect()
        };
        let corner_image = group_order(&perms(true, false));
        let (order, edge_image) = match spec.puzzle() {
            Puzzle::Pocket => (corner_image, 1),
            Puzzle::Cube => (
                group_order(&perms(true, true)),
                group_order(&perms(false, true)),
            ),
        };
        Sizes {
            order,
            corner_image,
            edge_image,
            moves: moves.len() as u128,
        }
    }

    /// Entries of the table: corner states x edge states.
    pub fn entries(&self) -> u128 {
        self.corner_image * self.edge_image
    }

    /// Memory a build needs: a byte per entry, and per image state its cube state, its place in
    /// the hash map and its row of the move table (about 64 bytes and 4 per move).
    pub fn build_bytes(&self) -> u128 {
        self.entries() + (self.corner_image + self.edge_image) * (64 + 4 * self.moves)
    }

    /// Refuses a group whose build does not fit in `available` bytes.
    pub fn check_fits(
        &self,
        spec: &GroupSpec,
        available: Option<u64>,
    ) -> Result<(), GroupSpaceError> {
        let too_large = match available {
            Some(available) => self.build_bytes() > u128::from(available),
            None => false,
        } || self.corner_image > u128::from(u32::MAX)
            || self.edge_image > u128::from(u32::MAX);
        if too_large {
            return Err(GroupSpaceError::TooLarge {
                spec: spec.to_string(),
                order: self.order,
                entries: self.entries(),
                bytes: self.build_bytes(),
                available: available.unwrap_or(0),
            });
        }
        Ok(())
    }
}

/// `cube` as a permutation of its pieces' stickers: corner `q`'s sticker `o` is point `3q + o`,
/// edge `q`'s sticker `o` is point `24 + 2q + o` (of the kinds asked for). Composition of cube
/// states is composition of these permutations, so the group orders agree.
fn points_of(cube: &Cube3, corners: bool, edges: bool) -> Perm {
    let mut image = Vec::new();
    if corners {
        image.resize(24, 0);
        let c = &cube.corners;
        for slot in 0..8 {
            let piece = usize::from(c.perm[slot]);
            for o in 0..3 {
                image[piece * 3 + o] = (slot * 3 + (o + usize::from(c.ori[slot])) % 3) as u8;
            }
        }
    }
    if edges {
        let base = image.len();
        image.resize(base + 24, 0);
        let e = &cube.edges;
        for slot in 0..12 {
            let piece = usize::from(e.perm[slot]);
            for o in 0..2 {
                image[base + piece * 2 + o] =
                    (base + slot * 2 + (o + usize::from(e.ori[slot])) % 2) as u8;
            }
        }
    }
    Perm::new(image).expect("a cube state permutes its stickers")
}
