//! Loading every definition in a directory, e.g. the output of
//! `node scripts/kpuzzle-definitions.mjs DIR`.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::definition::KPuzzleDefinition;
use super::error::DefinitionError;

/// What one definition file holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DefinitionSummary {
    /// The file it was read from.
    pub file: PathBuf,
    /// The puzzle's `name`.
    pub name: String,
    /// Each orbit as (name, numPieces, numOrientations), in the definition's order.
    pub orbits: Vec<(String, usize, u8)>,
    /// How many base moves (`moves`) it has.
    pub moves: usize,
    /// How many derived moves (`derivedMoves`) it has.
    pub derived_moves: usize,
}

/// Why a directory of definitions does not check out.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The directory or a file in it cannot be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// No `.json` file: an empty or wrong directory must not pass as "all valid".
    #[error(
        "`{}` holds no `.json` definitions: generate them with `node scripts/kpuzzle-definitions.mjs {}`",
        dir.display(), dir.display()
    )]
    NoDefinitions { dir: PathBuf },
    /// Some definitions do not load; each failure names its file and field.
    #[error(
        "{} of {total} definitions in `{}` do not load:\n{}",
        failures.len(), dir.display(),
        failures.iter().map(|(file, e)| format!("  {}: {e}", file.display())).collect::<Vec<_>>().join("\n")
    )]
    Invalid {
        dir: PathBuf,
        total: usize,
        failures: Vec<(PathBuf, DefinitionError)>,
    },
}

/// Reads every `*.json` file in `dir` (sorted by name) as a KPuzzle definition and
/// summarises each; fails if the directory has none, or if any does not load.
pub fn check_all_definitions(dir: &Path) -> Result<Vec<DefinitionSummary>, CheckError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| CheckError::Io { path, source }
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        if path.extension().is_some_and(|e| e == "json") && path.is_file() {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(CheckError::NoDefinitions {
            dir: dir.to_owned(),
        });
    }
    files.sort();

    let mut summaries = Vec::new();
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(io(file))?;
        match KPuzzleDefinition::from_json_str(&text) {
            Ok(definition) => summaries.push(DefinitionSummary {
                file: file.clone(),
                name: definition.name().to_owned(),
                orbits: definition
                    .orbits()
                    .iter()
                    .map(|o| (o.name().to_owned(), o.num_pieces(), o.num_orientations()))
                    .collect(),
                moves: definition.move_names().count(),
                derived_moves: definition.derived_move_names().count(),
            }),
            Err(e) => failures.push((file.clone(), e)),
        }
    }
    if failures.is_empty() {
        Ok(summaries)
    } else {
        Err(CheckError::Invalid {
            dir: dir.to_owned(),
            total: files.len(),
            failures,
        })
    }
}
