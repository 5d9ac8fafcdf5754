//! Why a KPuzzle definition (or a pattern given against one) is rejected.
//!
//! Every message names the offending field as a path into the JSON
//! (`moves.U.EDGES.permutation`, `orbits[2].numPieces`) and says what to change.

use super::algorithm::AlgError;

/// A KPuzzle definition that cannot be used, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DefinitionError {
    /// The text is not JSON at all.
    #[error(
        "the definition is not JSON: {message} at line {line}, column {column}; export it with `JSON.stringify(kpuzzle.definition)` (scripts/kpuzzle-definitions.mjs does)"
    )]
    NotJson {
        line: usize,
        column: usize,
        message: String,
    },
    /// A field holds the wrong kind of JSON value.
    #[error("`{field}` must be {expected}, but is {found}")]
    WrongType {
        field: String,
        expected: &'static str,
        found: String,
    },
    /// A required field is absent.
    #[error(
        "`{field}` is missing: a KPuzzle definition needs it (see cubing.js's KPuzzleDefinitionJSON)"
    )]
    MissingField { field: String },
    /// Two orbits share an `orbitName`.
    #[error(
        "`{field}` names orbit `{name}`, already defined by `orbits[{first_index}]`: give each orbit its own `orbitName`"
    )]
    DuplicateOrbit {
        field: String,
        name: String,
        first_index: usize,
    },
    /// A move or pattern names an orbit that `orbits` does not define.
    #[error(
        "`{field}` names orbit `{orbit}`, which `orbits` does not define: use one of {} or add the orbit to `orbits`",
        known.join(", ")
    )]
    UnknownOrbit {
        field: String,
        orbit: String,
        known: Vec<String>,
    },
    /// A pattern lacks an orbit (patterns must describe every orbit; moves need not).
    #[error(
        "`{field}` has no entry for orbit `{orbit}`: add `\"{orbit}\": {{\"pieces\": [...], \"orientation\": [...]}}`"
    )]
    MissingPatternOrbit { field: String, orbit: String },
    /// An array whose length is not the orbit's `numPieces`.
    #[error(
        "`{field}` has {found} entries, but orbit `{orbit}` has {expected} pieces: give exactly one entry per piece"
    )]
    WrongLength {
        field: String,
        orbit: String,
        expected: usize,
        found: usize,
    },
    /// A permutation entry that is no slot of the orbit.
    #[error(
        "`{field}` is not a permutation: entry {index} is {value}, but orbit `{orbit}` has slots 0 to {} only; list each slot 0..{num_pieces} exactly once",
        num_pieces - 1
    )]
    PermutationOutOfRange {
        field: String,
        orbit: String,
        index: usize,
        value: u64,
        num_pieces: usize,
    },
    /// A permutation that names a slot twice (and so misses another).
    #[error(
        "`{field}` is not a permutation: {value} appears at entries {first_index} and {index}; list each slot 0..{num_pieces} exactly once"
    )]
    PermutationRepeated {
        field: String,
        value: u64,
        first_index: usize,
        index: usize,
        num_pieces: usize,
    },
    /// An orientation or orientation delta at or above its modulus.
    #[error(
        "`{field}` entry {index} is {value}, out of range: it must be below {modulus} ({reason}); reduce it mod {modulus}"
    )]
    OrientationOutOfRange {
        field: String,
        index: usize,
        value: i64,
        modulus: u64,
        /// Where the modulus comes from (`numOrientations` of the orbit, or the piece's `orientationMod`).
        reason: String,
    },
    /// `numPieces` or `numOrientations` is 0.
    #[error(
        "`{field}` is 0: an orbit needs at least one piece and at least one orientation (use `numOrientations: 1` for pieces that cannot twist, or drop the orbit)"
    )]
    ZeroSize { field: String },
    /// A count or value past what the module stores (`u16` pieces, `u8` orientations).
    #[error(
        "`{field}` is {value}, above the supported maximum of {max}: split the orbit or reduce the value"
    )]
    TooLarge { field: String, value: u64, max: u64 },
    /// An `orientationMod` entry that is neither 0 nor a divisor of `numOrientations`.
    #[error(
        "`{field}` entry {index} is {value}: an orientationMod entry is 0 (orientation fully known) or a divisor of the orbit's numOrientations ({num_orientations})"
    )]
    InvalidOrientationMod {
        field: String,
        index: usize,
        value: u64,
        num_orientations: u8,
    },
    /// A derived move whose algorithm uses the derived move itself.
    #[error(
        "`derivedMoves.{name}` (`{alg}`) uses `{name}` itself: define it from base moves or from other derived moves"
    )]
    DerivedMoveSelfReference { name: String, alg: String },
    /// Derived moves that define each other in a loop.
    #[error(
        "derived moves define each other in a loop: {}; define one of them from base moves",
        cycle.join(" -> ")
    )]
    DerivedMoveCycle {
        /// The loop, starting and ending with the same name.
        cycle: Vec<String>,
    },
    /// A derived move whose algorithm names a move the definition lacks.
    #[error(
        "`derivedMoves.{name}` (`{alg}`) uses `{move_text}` at index {position}, which is neither in `moves` nor in `derivedMoves` (known moves include {}): fix the name or define that move",
        known.join(", ")
    )]
    DerivedMoveUnknownMove {
        name: String,
        alg: String,
        move_text: String,
        position: usize,
        known: Vec<String>,
    },
    /// A derived move whose algorithm text does not parse.
    #[error("`derivedMoves.{name}` (`{alg}`) does not parse: {source}")]
    DerivedMoveParse {
        name: String,
        alg: String,
        #[source]
        source: AlgError,
    },
}
