//! A subgroup as a user names it: a puzzle, generators written in notation, and a metric.

use super::GroupSpaceError;
use crate::model::cube::{Cube2, Cube3, FIXED_CORNER, Move};
use crate::model::notation::{format_moves, parse_outer_moves};
use crate::model::position::Puzzle;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What one step of the group's search graph is, and what it costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum GroupMetric {
    /// Each generator and its inverse cost 1 (for quarter-turn generators, quarter turns).
    #[default]
    Generators,
    /// As `generators`, and a quarter-turn generator also brings its half turn at cost 1: the
    /// half-turn metric within the group.
    Htm,
    /// Quarter-turn counting: every generator must be a quarter turn; it and its inverse cost 1.
    Qtm,
    /// The generators exactly as given, without inverses, each costing 1 (for example clockwise
    /// quarter turns only). Distances then count moves that solve the position.
    Directed,
}

crate::support::named::impl_named!(
    GroupMetric,
    [
        GroupMetric::Generators,
        GroupMetric::Htm,
        GroupMetric::Qtm,
        GroupMetric::Directed
    ]
);

impl GroupMetric {
    pub const fn name(self) -> &'static str {
        match self {
            GroupMetric::Generators => "generators",
            GroupMetric::Htm => "htm",
            GroupMetric::Qtm => "qtm",
            GroupMetric::Directed => "directed",
        }
    }

    /// Whether every move's inverse is a move too (all metrics but `directed`).
    pub const fn has_inverses(self) -> bool {
        !matches!(self, GroupMetric::Directed)
    }
}

/// The longest generators part of a file name written out (see [`GroupSpec::stem`]).
pub const STEM_GENERATORS: usize = 120;

/// A subgroup of a puzzle: the positions its generators reach, and the metric distances are
/// counted in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupSpec {
    /// `"2x2"` or `"3x3"` (a string, so that the table header needs no puzzle type).
    pub puzzle: String,
    /// Each generator as face turns.
    pub generators: Vec<Vec<Move>>,
    pub metric: GroupMetric,
}

/// One move of the group's search graph: a sequence of face turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupMove {
    pub turns: Vec<Move>,
    /// The move's effect on a solved 3x3 (for a 2x2, its corners).
    pub cube: Cube3,
}

impl GroupSpec {
    /// Reads generators written as text. Commas separate generators, each a move sequence
    /// (`"R U R' U', D"` is two); without a comma every move is a generator of its own
    /// (`"U R"` is two, `"U2 D2 F2 B2 L2 R2"` six).
    pub fn parse(
        puzzle: Puzzle,
        text: &str,
        metric: GroupMetric,
    ) -> Result<GroupSpec, GroupSpaceError> {
        let items: Vec<&str> = if text.contains(',') {
            text.split(',').map(str::trim).collect()
        } else {
            text.split_whitespace().collect()
        };
        let mut generators = Vec::new();
        for item in items.into_iter().filter(|i| !i.is_empty()) {
            if let Some(c) = item.chars().find(|c| matches!(c, 'x' | 'y' | 'z')) {
                return Err(GroupSpaceError::Rotation {
                    generator: item.to_string(),
                    rotation: c,
                });
            }
            let turns = parse_outer_moves(item).map_err(|source| GroupSpaceError::Notation {
                generator: item.to_string(),
                source,
            })?;
            let does_nothing = match puzzle {
                Puzzle::Pocket => Cube2::from_moves(&turns).corners == Cube2::SOLVED.corners,
                Puzzle::Cube => Cube3::from_moves(&turns).is_solved(),
            };
            if does_nothing {
                return Err(GroupSpaceError::Identity(item.to_string()));
            }
            if puzzle == Puzzle::Pocket {
                let corners = Cube2::from_moves(&turns).corners;
                if corners.perm[FIXED_CORNER] != FIXED_CORNER as u8
                    || corners.ori[FIXED_CORNER] != 0
                {
                    return Err(GroupSpaceError::MovesFixedCorner(item.to_string()));
                }
            }
            if metric == GroupMetric::Qtm && !(turns.len() == 1 && turns[0].quarter_turns() != 2) {
                return Err(GroupSpaceError::NotQuarterTurn(item.to_string()));
            }
            generators.push(turns);
        }
        if generators.is_empty() {
            return Err(GroupSpaceError::NoGenerators);
        }
        Ok(GroupSpec {
            puzzle: puzzle.name().to_string(),
            generators,
            metric,
        })
    }

    pub fn puzzle(&self) -> Puzzle {
        if self.puzzle == Puzzle::Pocket.name() {
            Puzzle::Pocket
        } else {
            Puzzle::Cube
        }
    }

    /// The moves of the search graph, in a fixed order (a table's entries depend on it): for
    /// each generator in turn, the generator, then (where the metric has them) its half turn
    /// and its inverse. A move equal to an earlier one as a cube state is left out.
    pub fn moves(&self) -> Vec<GroupMove> {
        let mut moves: Vec<GroupMove> = Vec::new();
        let mut add = |turns: Vec<Move>| {
            let cube = Cube3::from_moves(&turns);
            let same = |m: &GroupMove| match self.puzzle() {
                Puzzle::Pocket => m.cube.corners == cube.corners,
                Puzzle::Cube => m.cube == cube,
            };
            if !moves.iter().any(same) {
                moves.push(GroupMove { turns, cube });
            }
        };
        for generator in &self.generators {
            add(generator.clone());
            if self.metric == GroupMetric::Htm
                && let [turn] = generator[..]
                && turn.quarter_turns() != 2
            {
                add(vec![Move::new(turn.face(), 2)]);
            }
            if self.metric.has_inverses() {
                add(generator.iter().rev().map(|m| m.inverse()).collect());
            }
        }
        moves
    }

    /// For file names: the generators joined by `.`, a generator's turns run together, `'`
    /// written `p`, then the metric (`3x3-U.R-qtm`). Generators longer than
    /// [`STEM_GENERATORS`] characters in all are named by their hash instead (`3x3-h` and 16
    /// hex digits), as a file name has at most 255 bytes; the table's header keeps them all.
    pub fn stem(&self) -> String {
        let generators: Vec<String> = self
            .generators
            .iter()
            .map(|g| format_moves(g).replace(' ', "").replace('\'', "p"))
            .collect();
        let mut joined = generators.join(".");
        if joined.len() > STEM_GENERATORS {
            joined = format!("h{:016x}", xxhash_rust::xxh3::xxh3_64(joined.as_bytes()));
        }
        format!("{}-{}-{}", self.puzzle, joined, self.metric.name())
    }
}

impl fmt::Display for GroupSpec {
    /// `3x3 <U, R> in qtm`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let generators: Vec<String> = self.generators.iter().map(|g| format_moves(g)).collect();
        write!(
            f,
            "{} <{}> in {}",
            self.puzzle,
            generators.join(", "),
            self.metric.name()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Short generators name the file themselves; many are named by their hash, within a file
    /// name's 255 bytes (#31: 10,000 generators gave `File name too long`).
    #[test]
    fn stems_are_readable_when_short_and_hashed_when_long() {
        let short = GroupSpec::parse(Puzzle::Cube, "U R", GroupMetric::Qtm).unwrap();
        assert_eq!(short.stem(), "3x3-U.R-qtm");
        let many = vec!["R U R' U'"; 10_000].join(", ");
        let long = GroupSpec::parse(Puzzle::Cube, &many, GroupMetric::Htm).unwrap();
        let stem = long.stem();
        assert!(
            stem.starts_with("3x3-h") && stem.ends_with("-htm"),
            "{stem}"
        );
        assert_eq!(stem.len(), "3x3-h".len() + 16 + "-htm".len());
        let other = GroupSpec::parse(Puzzle::Cube, &format!("{many}, F"), GroupMetric::Htm);
        assert_ne!(other.unwrap().stem(), stem);
    }
}
