use std::path::PathBuf;

/// Why a table could not be written or used. Every message about a bad file ends with the
/// command that rebuilds it.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("table {path} does not exist; build it with `{rebuild}`")]
    Missing { path: PathBuf, rebuild: String },
    #[error(
        "{dir} lacks {}; build {} with `{rebuild}`{}",
        tables.join(" and "),
        if tables.len() == 1 { "it" } else { "them" },
        alternative.as_ref().map_or(String::new(), |a| format!("; {a}"))
    )]
    MissingTables {
        dir: PathBuf,
        /// Each missing table with its size and build time.
        tables: Vec<String>,
        rebuild: String,
        /// A cheaper way to a search, where there is one.
        alternative: Option<String>,
    },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "cannot unpack {zst} into {path}: {source}; free space there, or unpack it where there is room (zstd -d) and point --data-dir or CUBELAB_DATA at that directory"
    )]
    CannotUnpack {
        zst: PathBuf,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "another gen-tables is building into {dir}; wait for it to finish (its tables are then reused), or build into another --data-dir"
    )]
    Busy { dir: PathBuf },
    #[error(
        "{path} changed on disk while it was in use (written in place, as `cp` onto it does); nothing is answered from it: the next request opens it again (to replace a table, write it beside and rename it, as gen-tables does)"
    )]
    Changed { path: PathBuf },
    #[error("{path} is not a cubelab table (wrong magic number); rebuild it with `{rebuild}`")]
    BadMagic { path: PathBuf, rebuild: String },
    #[error(
        "{path} has table format version {found}, this cubelab reads version {expected}; rebuild it with `{rebuild}`"
    )]
    WrongVersion {
        path: PathBuf,
        found: u32,
        expected: u32,
        rebuild: String,
    },
    #[error("{path} holds {found}, not table {expected}; rebuild it with `{rebuild}`")]
    WrongKind {
        path: PathBuf,
        expected: String,
        found: String,
        rebuild: String,
    },
    #[error("{path} is truncated: {found} bytes, expected {expected}; rebuild it with `{rebuild}`")]
    Truncated {
        path: PathBuf,
        expected: u64,
        found: u64,
        rebuild: String,
    },
    #[error(
        "{path} is not a regular file but a {what}, where a table file should be; name a .tbl file, or move it away and build the table with `{rebuild}`"
    )]
    NotAFile {
        path: PathBuf,
        what: &'static str,
        rebuild: String,
    },
    #[error(
        "{path} is a symbolic link to nothing ({source}); remove it or point it at a table file (`{rebuild}` builds the table there once it is removed)"
    )]
    BrokenLink {
        path: PathBuf,
        source: std::io::Error,
        rebuild: String,
    },
    #[error("{path} is damaged: {problem}; rebuild it with `{rebuild}`")]
    Damaged {
        path: PathBuf,
        problem: String,
        rebuild: String,
    },
    #[error(
        "{path} is damaged: its contents do not match their checksum; rebuild it with `{rebuild}`"
    )]
    ChecksumMismatch { path: PathBuf, rebuild: String },
    #[error("cannot encode a table header: {0}")]
    Encode(String),
    #[error(
        "{0} is no 3x3 heuristic; the solver reads phase1, edges6, edges7 or a ud-* table (see gen-tables --list)"
    )]
    NotAHeuristic(&'static str),
}
