//! The header: everything about a table except its entries.
//!
//! What the entries measure is described neutrally: the catalogue that writes a table gives its
//! space as two codes ([`SpaceCode`]) and, for a space named by parameters rather than by a
//! fixed family (a subgroup), those parameters ([`SpaceParameters`]). The format stores and
//! checks them and gives them no meaning, so it knows no table family.
//!
//! The codes are bincode's encoding of the catalogue's enums (a variant's place in its list,
//! as a varint), so files written before the format stopped naming the families read the same.

use crate::packing::Encoding;
use serde::{Deserialize, Serialize};

/// Which space a table's entries are distances in, in the writing catalogue's codes: a family
/// (which coordinate) and a metric (which moves cost what).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SpaceCode {
    pub family: u32,
    pub metric: u32,
}

/// Everything about a table except its entries. Its own layout is versioned by
/// [`super::FORMAT_VERSION`], independent of bincode's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableHeader {
    pub space: SpaceCode,
    pub encoding: Encoding,
    pub entries: u64,
    pub payload_bytes: u64,
    /// xxh3-64 of the payload.
    pub checksum: u64,
    /// States at each distance, as counted when the table was built.
    pub histogram: Vec<u64>,
    /// The cubelab version that wrote the file.
    pub created_by: String,
    /// For a space named by parameters (a subgroup): them, and how its states are numbered.
    pub parameters: Option<SpaceParameters>,
}

/// A space the catalogue names by parameters: for a subgroup, its puzzle, generators (each a
/// sequence of move codes) and metric code. `order` and `outside` are what the format checks
/// the histogram by: the states reached, and the entries of the numbering never reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceParameters {
    pub puzzle: String,
    pub generators: Vec<Vec<u8>>,
    pub metric: u32,
    /// The states the histogram counts.
    pub order: u64,
    /// Entries outside the space, never reached.
    pub outside: u64,
    /// Identifies the numbering the entries follow.
    pub fingerprint: u64,
}

impl TableHeader {
    /// Entries never reached: those outside a parametrised space.
    pub fn outside(&self) -> u64 {
        self.parameters.as_ref().map_or(0, |p| p.outside)
    }
}
