//! The one table file format: a small header, then the packed entries, aligned for memory mapping.
//!
//! ```text
//! 0      8 bytes   magic "CUBELAB\0"
//! 8      u32 LE    format version (checked before the header is decoded; 1 to 3 are read)
//! 12     u32 LE    header length n
//! 16     n bytes   TableHeader, bincode (standard config)
//! 4096   payload   entries, packed as the header's encoding says
//! ```
//!
//! The format knows nothing of what the entries mean: the header names the space in the
//! catalogue's codes ([`SpaceCode`]), and the catalogue (the layer above) decides which codes
//! it accepts, names files and says how a table is rebuilt. Here: the header and its checks
//! ([`header`]), writing atomically ([`write`]), mapping and verifying ([`file`]) in 2 MiB
//! pages where the system gives them ([`huge`]), the zstd shipping copy ([`zst`]) and where
//! tables live by default ([`data_dir`]).

pub mod data_dir;
mod error;
pub mod file;
pub mod header;
#[cfg(target_os = "linux")]
mod huge;
pub mod identity;
pub mod write;
pub mod zst;

pub use data_dir::default_data_dir;
pub use error::TableError;
pub use file::{Table, Verify};
pub use header::{SpaceCode, SpaceParameters, TableHeader};
pub use identity::{FileIdentity, all_unchanged, record_opened};
pub use write::{BuildLock, Contents, atomic_write, remove_stale_temporaries, write_table};
pub use zst::{export_zst, import_zst, zst_path};

pub const MAGIC: [u8; 8] = *b"CUBELAB\0";
/// Version 2 added [`TableHeader::parameters`]; version 3 seals the header into the checksum
/// (see [`checksum`]). Files of versions 1 and 2 are refused (their checksum could not tell a
/// relabelled header), with the command that rebuilds them.
pub const FORMAT_VERSION: u32 = 3;
/// Payload offset: one page, so the mapped payload is page-aligned.
pub const PAYLOAD_OFFSET: usize = 4096;
const PREFIX: usize = 16;
/// What a table's `created_by` says of this build.
pub const CREATED_BY: &str = concat!("cubelab ", env!("CARGO_PKG_VERSION"));

fn bincode_config() -> impl bincode::config::Config {
    // The limit stops a damaged length field from asking for a huge allocation.
    bincode::config::standard().with_limit::<{ PAYLOAD_OFFSET - PREFIX }>()
}

/// The checksum of a table whose header is `header` (its own checksum field aside) and whose
/// payload is `payload`, as format `version` computes it. From version 3 it is xxh3-64 of the
/// payload seeded with a hash of what the header says the payload is (space, encoding, sizes,
/// depth counts, parameters), so that a header relabelled to name another table of the same
/// size (an HTM table called QTM: one byte, the payload untouched) fails it as a flipped payload
/// bit does. Before version 3 it covered the payload alone.
pub fn checksum(header: &TableHeader, version: u32, payload: &[u8]) -> u64 {
    if version < 3 {
        return xxhash_rust::xxh3::xxh3_64(payload);
    }
    let said = (
        &header.space,
        &header.encoding,
        header.entries,
        header.payload_bytes,
        &header.histogram,
        &header.parameters,
    );
    let seal = bincode::serde::encode_to_vec(said, bincode::config::standard())
        .map_or(0, |bytes| xxhash_rust::xxh3::xxh3_64(&bytes));
    xxhash_rust::xxh3::xxh3_64_with_seed(payload, seal)
}
