//! Scramble files: one scramble a line, or the WCA results export's scramble table
//! (`WCA_export_Scrambles.tsv`: tab-separated, a header naming `eventId` and `scramble`), of
//! which the 3x3 events' scrambles are read. Every scramble is parsed before anything is
//! computed, so a bad line stops a run before it writes.

use crate::model::cube::Cube3;
use crate::model::position::{Form, Position, Puzzle, parse_position};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ScrambleError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}, line {line}: `{text}` is not a 3x3 scramble: {problem}", path.display())]
    Bad {
        path: PathBuf,
        line: usize,
        text: String,
        problem: String,
    },
    #[error(
        "{}: a tab-separated file needs a header naming the `scramble` column (the WCA export's has eventId and scramble)", path.display()
    )]
    NoScrambleColumn { path: PathBuf },
    #[error("{} holds no scramble", path.display())]
    Empty { path: PathBuf },
    #[error(
        "{}, line {line}: {found} tab-separated fields where the header names {expected}: the row is cut short or damaged; take it out or export the file again",
        path.display()
    )]
    Fields {
        path: PathBuf,
        line: usize,
        found: usize,
        expected: usize,
    },
}

/// The WCA events whose scrambles are 3x3 scrambles of one cube.
const CUBE_EVENTS: [&str; 5] = ["333", "333oh", "333bf", "333ft", "333fm"];

/// A scramble read from a file: its text and the cube it makes.
#[derive(Clone, Debug)]
pub struct Scramble {
    pub text: String,
    pub cube: Cube3,
}

/// The scrambles of the file at `path` ('#' starts a comment in a plain file).
pub fn read_scrambles(path: &Path) -> Result<Vec<Scramble>, ScrambleError> {
    let text = std::fs::read_to_string(path).map_err(|source| ScrambleError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let lines: Vec<(usize, &str)> = if text.lines().next().is_some_and(|l| l.contains('\t')) {
        wca_lines(path, &text)?
    } else {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect()
    };
    let scrambles = lines
        .into_iter()
        .map(|(line, text)| parse(path, line, text))
        .collect::<Result<Vec<_>, _>>()?;
    if scrambles.is_empty() {
        return Err(ScrambleError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(scrambles)
}

/// The 3x3 events' scramble column of the WCA export, with line numbers.
fn wca_lines<'t>(path: &Path, text: &'t str) -> Result<Vec<(usize, &'t str)>, ScrambleError> {
    let mut lines = text.lines().enumerate();
    let header: Vec<&str> = lines
        .next()
        .map(|(_, h)| h.split('\t').map(str::trim).collect())
        .unwrap_or_default();
    let column = |name: &str| header.iter().position(|h| *h == name);
    let scramble = column("scramble").ok_or_else(|| ScrambleError::NoScrambleColumn {
        path: path.to_path_buf(),
    })?;
    let event = column("eventId");
    let mut kept = Vec::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        // Rows of other events are skipped whatever their shape (a multi-blind scramble may
        // run over lines); a 3x3 row cut short (or run together with the next) is the file's
        // damage: said, not skipped.
        let cube_event = |e: usize| {
            fields
                .get(e)
                .is_some_and(|id| CUBE_EVENTS.contains(&id.trim()))
        };
        if event.is_some_and(|e| !cube_event(e)) {
            continue;
        }
        if fields.len() != header.len() {
            return Err(ScrambleError::Fields {
                path: path.to_path_buf(),
                line: i + 1,
                found: fields.len(),
                expected: header.len(),
            });
        }
        let text = fields[scramble].trim();
        if text.is_empty() {
            return Err(ScrambleError::Bad {
                path: path.to_path_buf(),
                line: i + 1,
                text: String::new(),
                problem: "the row's scramble is empty".into(),
            });
        }
        kept.push((i + 1, text));
    }
    Ok(kept)
}

fn parse(path: &Path, line: usize, text: &str) -> Result<Scramble, ScrambleError> {
    let bad = |problem: String| ScrambleError::Bad {
        path: path.to_path_buf(),
        line,
        text: text.chars().take(80).collect(),
        problem,
    };
    match parse_position(text, Some(Puzzle::Cube), Form::Auto) {
        Ok(Position::Cube(cube)) => Ok(Scramble {
            text: text.to_string(),
            cube,
        }),
        Ok(Position::Pocket(_)) => Err(bad("it is a 2x2 position".into())),
        Err(e) => Err(bad(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_wca_files_and_the_line_of_a_bad_scramble() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.txt");
        std::fs::write(&plain, "R U R' # a comment\n\n  F2 Rw u x\n").unwrap();
        let read = read_scrambles(&plain).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].text, "R U R'");
        let wca = dir.path().join("scrambles.tsv");
        std::fs::write(
            &wca,
            "scrambleId\tcompetitionId\teventId\troundTypeId\tgroupId\tisExtra\tscrambleNum\tscramble\n\
             1\tX\t333\t1\tA\t0\t1\tD2 F' R\n\
             2\tX\t222\t1\tA\t0\t1\tR U\n\
             3\tX\t333oh\t1\tA\t0\t2\tU2 B\n",
        )
        .unwrap();
        let read = read_scrambles(&wca).unwrap();
        let texts: Vec<&str> = read.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["D2 F' R", "U2 B"]);
        // A 3x3 row of 6 fields of 8 is the file's damage: named, not dropped.
        let header = "scrambleId\tcompetitionId\teventId\troundTypeId\tgroupId\tisExtra\tscrambleNum\tscramble\n";
        std::fs::write(
            &wca,
            format!("{header}1\tX\t333\t1\tA\t0\t1\tD2 F' R\n2\tX\t333\t1\tA\t0\n"),
        )
        .unwrap();
        let error = read_scrambles(&wca).unwrap_err().to_string();
        assert!(
            error.contains("line 3: 6 tab-separated fields where the header names 8"),
            "{error}"
        );
        std::fs::write(&wca, format!("{header}1\tX\t333\t1\tA\t0\t1\t \n")).unwrap();
        let error = read_scrambles(&wca).unwrap_err().to_string();
        assert!(
            error.contains("line 2: `` is not a 3x3 scramble: the row's scramble is empty"),
            "{error}"
        );
        std::fs::write(&plain, "R U\nR Q2\n").unwrap();
        let error = read_scrambles(&plain).unwrap_err().to_string();
        assert!(error.contains("line 2: `R Q2`"), "{error}");
        std::fs::write(&plain, "# nothing\n").unwrap();
        assert!(matches!(
            read_scrambles(&plain),
            Err(ScrambleError::Empty { .. })
        ));
    }
}
