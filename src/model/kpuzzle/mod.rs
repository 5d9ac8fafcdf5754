//! Twisty puzzles from cubing.js KPuzzle definitions.
//!
//! A KPuzzle definition (the JSON of `kpuzzle.definition` in the `cubing` npm
//! package) describes a puzzle as orbits of pieces, a solved pattern, and moves as
//! permutations with orientation changes. This module reads and validates such a
//! definition ([`KPuzzleDefinition`]), computes with its [`Transformation`]s and
//! [`Pattern`]s by cubing.js's conventions, parses algorithms in cubing.js's
//! notation ([`Alg`]), and lists the moves of a search graph from twips-style
//! generators ([`Generators`]).
//!
//! The conventions are cubing.js's (`src/cubing/kpuzzle/*.ts`, `src/cubing/alg/parseAlg.ts`):
//! applying `T` to a pattern puts the piece from slot `T.permutation[i]` into slot
//! `i`, twisted by `T.orientationDelta[i]`; `A` then `B` applies `B`'s rule to `A`.
//! Each submodule states the part it implements.
//!
//! Algorithms name the definition's own moves (`moves` and `derivedMoves`), as
//! twips does. For puzzles that cubing.js builds with puzzle geometry (megaminx,
//! pyraminx, the big cubes, ...) cubing.js's own `KPuzzle` also reads a richer
//! notation through `experimentalPGNotation`, which the definition JSON does not
//! carry; there, write the definition's names (pyraminx `r`, `2r`, `BL`, ...).

mod algorithm;
mod check;
mod definition;
mod error;
mod generators;
mod json;
mod pattern;
mod transformation;

#[cfg(test)]
pub(crate) mod tests;

pub use algorithm::{Alg, AlgError, AlgNode, MAX_ALG_NESTING, Move};
pub use check::{CheckError, DefinitionSummary, check_all_definitions};
pub use definition::{DerivedMove, KPuzzleDefinition, OrbitDefinition};
pub use error::DefinitionError;
pub use generators::{GeneratorMove, Generators, GeneratorsError, MAX_GENERATOR_ORDER, Metric};
pub use pattern::{Pattern, PatternOrbit};
pub use transformation::{OrbitTransformation, Transformation};
