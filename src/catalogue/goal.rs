//! Partial goals: named steps of the speedsolving methods (the cross, an xcross, EOLine, a Roux
//! block, ...) and any piece mask, each with a table of exact distances built on demand and
//! cached in the data directory.
//!
//! A goal is a mask ([`GoalMask`]) and the places it may be reached in without turning the
//! cube: an xcross is the cross and *any one* of the four first-two-layers pairs, so it is the
//! mask of the cross and the front-right pair seen through each quarter turn `y^k`. Its
//! distance is the least over those views, all read in the one table of the mask (the cross is
//! kept by `y`, so each view is the same table read for the cube seen turned). Colour
//! neutrality ([`Orientations`]) is more views: the goal on another face.
//!
//! The table is the one breadth-first engine's over [`GoalSpace`], in one byte per entry up to
//! 2^28 entries and four bits above, written in the one table format; its header names the
//! mask, the metric and the space's numbering, and the states it reached must be the space's
//! reachable count.

use super::kind::{TableKind, metric_code};
use crate::bfs::{BfsError, breadth_first};
use crate::model::cube::{Cube3, Metric, Rotation};
use crate::model::goal_mask::{GoalMask, MaskError};
use crate::packing::Encoding;
use crate::space::StateSpace;
use crate::space::goal::{GoalSpace, GoalSpaceError};
use crate::table::{
    Contents, SpaceCode, SpaceParameters, Table, TableError, TableHeader, Verify, write_table,
};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum GoalError {
    #[error(
        "`{0}` is not a goal: name one of {names}, or write a piece mask such as `DF DB DL DR` (see solve --help)",
        names = goal_names()
    )]
    Unknown(String),
    #[error(
        "ll (the last layer) is solved by the optimal solver, not a goal table: ask `solve --goal ll` or `stats goal ll`"
    )]
    LastLayer,
    #[error(transparent)]
    Mask(#[from] MaskError),
    #[error(transparent)]
    Space(#[from] GoalSpaceError),
    #[error("{} is a table of another goal or numbering; rebuild it with `{command}`", path.display())]
    Mismatch { path: PathBuf, command: String },
    #[error(
        "the search reached {reached} states of the goal `{mask}` where it has {reachable}: a defect, please report it"
    )]
    Miscounted {
        mask: String,
        reached: u64,
        reachable: u64,
    },
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Bfs(#[from] BfsError),
}

/// Where a named goal may be reached without turning the cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Places {
    /// Only where its mask says.
    One,
    /// In any of the four places a quarter turn about U-D takes its mask to (the four pairs of
    /// the first two layers, the four blocks on D).
    AboutUd,
    /// In this many of those four places at once (2: the xxcross, the cross and any two pairs),
    /// found by search over the one place's table.
    AtOnce(u8),
}

impl Places {
    /// How many places must be reached together: 1 unless [`Places::AtOnce`].
    pub fn at_once(self) -> u8 {
        match self {
            Places::AtOnce(n) => n,
            _ => 1,
        }
    }
}

/// A goal the method books name.
#[derive(Clone, Copy, Debug)]
pub struct NamedGoal {
    pub name: &'static str,
    pub mask: &'static str,
    pub places: Places,
    /// Masks every place of which the goal implies (an F2L holds all four 2x2x3 blocks on D):
    /// their tables bound a searched goal's distance from below beside its own.
    pub helpers: &'static [&'static str],
    pub about: &'static str,
}

/// The back 2x2x3 block on D; a quarter turn about U-D takes it to the other three.
const TWO_BY_TWO_BY_THREE: &str = "DL DB DR BL BR DBL DRB";

/// The named goals, each on the D face (white bottom in the standard colours) where it has one.
pub const NAMED: [NamedGoal; 13] = [
    NamedGoal {
        name: "cross",
        mask: "DF DR DB DL",
        places: Places::One,
        helpers: &[],
        about: "the four D-layer edges home",
    },
    NamedGoal {
        name: "xcross",
        mask: "DF DR DB DL FR DFR",
        places: Places::AboutUd,
        helpers: &[],
        about: "the cross and one first-two-layers pair (corner and edge), any of the four",
    },
    NamedGoal {
        name: "xxcross",
        mask: "DF DR DB DL FR DFR",
        places: Places::AtOnce(2),
        helpers: &[],
        about: "the cross and two pairs at once, any two of the four (by search: milliseconds)",
    },
    NamedGoal {
        name: "xxxcross",
        mask: "DF DR DB DL FR DFR",
        places: Places::AtOnce(3),
        helpers: &[],
        about: "the cross and three pairs at once (by search: a second or so)",
    },
    NamedGoal {
        name: "f2l",
        mask: "DF DR DB DL FR DFR",
        places: Places::AtOnce(4),
        helpers: &[TWO_BY_TWO_BY_THREE],
        about: "the first two layers: the cross and all four pairs (by search over the xcross and 2x2x3 tables: seconds)",
    },
    NamedGoal {
        name: "f2l-pair",
        mask: "FR DFR",
        places: Places::AboutUd,
        helpers: &[],
        about: "one first-two-layers pair home, any of the four",
    },
    NamedGoal {
        name: "eo",
        mask: "edges/o",
        places: Places::One,
        helpers: &[],
        about: "every edge oriented (solvable with U D R L F2 B2)",
    },
    NamedGoal {
        name: "eoline",
        mask: "DF DB edges/o",
        places: Places::One,
        helpers: &[],
        about: "ZZ's first step: every edge oriented, DF and DB home",
    },
    NamedGoal {
        name: "eocross",
        mask: "DF DR DB DL edges/o",
        places: Places::One,
        helpers: &[],
        about: "every edge oriented and the cross",
    },
    NamedGoal {
        name: "dr",
        mask: "E/p edges/o corners/o",
        places: Places::One,
        helpers: &[],
        about: "domino reduction: into Kociemba's subgroup <U, D, R2, L2, F2, B2> (edges and corners oriented, the E-slice edges in the slice)",
    },
    NamedGoal {
        name: "roux-fb",
        mask: "DL FL BL DLF DBL",
        places: Places::One,
        helpers: &[],
        about: "Roux's first block: the 1x2x3 block on the left (DL FL BL, DLF DBL)",
    },
    NamedGoal {
        name: "2x2x2",
        mask: "DL DB BL DBL",
        places: Places::AboutUd,
        helpers: &[],
        about: "a 2x2x2 block on D, any of the four (DBL: DL DB BL)",
    },
    NamedGoal {
        name: "2x2x3",
        mask: TWO_BY_TWO_BY_THREE,
        places: Places::AboutUd,
        helpers: &[],
        about: "a 2x2x3 block on D, any of the four (the back one: DL DB DR BL BR, DBL DRB)",
    },
];

/// The last layer's name: a goal the optimal solver answers, not a table (see
/// `search::last_layer`).
pub const LAST_LAYER: &str = "ll";

/// Whether `text` names the last layer ([`LAST_LAYER`], any case, spaces around).
pub fn names_last_layer(text: &str) -> bool {
    text.trim().eq_ignore_ascii_case(LAST_LAYER)
}

/// The goals by name: [`NAMED`]'s, and `ll` (the last layer, solved by the optimal solver: see
/// `search::last_layer`).
fn goal_names() -> String {
    let mut names: Vec<&str> = NAMED.iter().map(|g| g.name).collect();
    names.push(LAST_LAYER);
    names.join(", ")
}

/// How colour neutral a solver is: on which faces it builds the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Orientations {
    /// The goal where it is written (the cross on D).
    Fixed,
    /// On either of two opposite faces (D or U).
    Dual,
    /// On any of the six faces.
    #[cfg_attr(feature = "clap", value(name = "6"))]
    #[serde(rename = "6")]
    Six,
    /// In any of the cube's 24 orientations: for a goal kept by turns about U-D (the cross)
    /// the same as 6; for one that is not (a Roux block), four times the places.
    #[cfg_attr(feature = "clap", value(name = "24"))]
    #[serde(rename = "24")]
    All,
}

crate::support::named::impl_named!(Orientations, Orientations::ALL);

impl Orientations {
    pub const ALL: [Orientations; 4] = [
        Orientations::Fixed,
        Orientations::Dual,
        Orientations::Six,
        Orientations::All,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Orientations::Fixed => "fixed",
            Orientations::Dual => "dual",
            Orientations::Six => "6",
            Orientations::All => "24",
        }
    }

    /// The whole-cube rotations to see the cube through, the identity first.
    pub fn rotations(self) -> Vec<Rotation> {
        let (x, z) = (Rotation::x(), Rotation::z());
        match self {
            Orientations::Fixed => vec![Rotation::IDENTITY],
            Orientations::Dual => vec![Rotation::IDENTITY, x.power(2)],
            Orientations::Six => vec![
                Rotation::IDENTITY,
                x.power(2),
                x,
                x.inverse(),
                z,
                z.inverse(),
            ],
            Orientations::All => Rotation::all().to_vec(),
        }
    }
}

/// A goal to solve: its mask and the views its distance is the least over.
#[derive(Clone, Debug)]
pub struct Goal {
    /// The goal's name, or the mask's canonical text for a goal given by mask.
    pub name: String,
    pub mask: GoalMask,
    pub places: Places,
    /// Masks the goal holds in each of its four places (see [`NamedGoal::helpers`]).
    pub helpers: Vec<GoalMask>,
}

impl Goal {
    /// A goal by name (see [`NAMED`]) or as a piece mask.
    pub fn parse(text: &str) -> Result<Goal, GoalError> {
        let text = text.trim();
        if names_last_layer(text) {
            return Err(GoalError::LastLayer);
        }
        if let Some(named) = NAMED.iter().find(|g| g.name.eq_ignore_ascii_case(text)) {
            return Ok(Goal {
                name: named.name.to_string(),
                mask: GoalMask::parse(named.mask)?,
                places: named.places,
                helpers: named
                    .helpers
                    .iter()
                    .map(|m| GoalMask::parse(m))
                    .collect::<Result<_, _>>()?,
            });
        }
        match GoalMask::parse(text) {
            Ok(mask) => Ok(Goal {
                name: mask.to_string(),
                mask,
                places: Places::One,
                helpers: Vec::new(),
            }),
            // One word that is neither a goal nor a piece: most likely a goal misspelt.
            Err(MaskError::Unknown(word)) if word == text => Err(GoalError::Unknown(word)),
            Err(e) => Err(e.into()),
        }
    }

    /// The masks whose tables the goal reads: its own first, then its helpers'.
    pub fn masks(&self) -> Vec<GoalMask> {
        std::iter::once(self.mask)
            .chain(self.helpers.iter().copied())
            .collect()
    }

    /// The rotations the goal's distance is the least over under `orientations`, without
    /// repeats: each place seen from each orientation (`place.then(orientation)`: the cube is
    /// seen through the orientation first, then the place is chosen in that frame).
    pub fn views(&self, orientations: Orientations) -> Vec<View> {
        let mut views: Vec<View> = Vec::new();
        for group in self.view_groups(orientations) {
            for view in group {
                if !views.iter().any(|v| v.rotation == view.rotation) {
                    views.push(view);
                }
            }
        }
        views
    }

    /// The views by orientation: for each of the neutrality's orientations, the goal's places
    /// seen from it, repeats kept (a goal of several places at once needs each orientation's
    /// places together).
    pub fn view_groups(&self, orientations: Orientations) -> Vec<Vec<View>> {
        let places: Vec<Rotation> = match self.places {
            Places::One => vec![Rotation::IDENTITY],
            Places::AboutUd | Places::AtOnce(_) => (0..4).map(|k| Rotation::y().power(k)).collect(),
        };
        orientations
            .rotations()
            .into_iter()
            .map(|orientation| {
                places
                    .iter()
                    .map(|place| View {
                        rotation: place.then(&orientation),
                        orientation,
                    })
                    .collect()
            })
            .collect()
    }
}

/// One way to see the cube for a goal: the whole rotation, and the orientation part of it (the
/// colour neutrality it stands for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub rotation: Rotation,
    pub orientation: Rotation,
}

impl View {
    /// The cube as the goal's table sees it through this view.
    pub fn see(&self, cube: &Cube3) -> Cube3 {
        self.rotation.conjugate(cube)
    }

    /// The face of the cube as held that the goal's D face is on in this view.
    pub fn bottom(&self) -> crate::model::cube::Face {
        self.orientation.inverse().face(crate::model::cube::Face::D)
    }
}

/// A goal table's space in the header.
fn space_code(metric: Metric) -> SpaceCode {
    SpaceCode {
        family: TableKind::Goal.code(),
        metric: metric_code(metric),
    }
}

/// The header's `puzzle` for a goal table: the mask's canonical text after `goal `.
fn header_name(mask: &GoalMask) -> String {
    format!("goal {mask}")
}

/// Where `mask`'s table in `metric` lives in `dir`: `goal-<pieces>-<metric>.tbl`, the pieces
/// in the canonical text's order joined by dots (`/o` as `~o`).
pub fn table_path(dir: &Path, mask: &GoalMask, metric: Metric) -> PathBuf {
    let stem: String = mask.to_string().replace(' ', ".").replace('/', "~");
    dir.join(format!("{}-{stem}-{metric}.tbl", TableKind::Goal.name()))
}

/// The command that (re)builds `mask`'s table.
pub fn build_command(dir: &Path, mask: &GoalMask, metric: Metric) -> String {
    format!(
        "gen-tables --data-dir {} --goal \"{mask}\" --metric {metric} --force",
        dir.display()
    )
}

/// Builds `mask`'s table in `metric` into `dir`, returning its header.
pub fn build(
    dir: &Path,
    mask: &GoalMask,
    metric: Metric,
    progress: &ProgressBar,
) -> Result<TableHeader, GoalError> {
    let space = GoalSpace::new(*mask, metric)?;
    let encoding = encoding_for(space.size());
    let outcome = breadth_first(&space, encoding, progress)?;
    let reached: u64 = outcome.histogram.iter().sum();
    if reached != space.reachable() {
        return Err(GoalError::Miscounted {
            mask: mask.to_string(),
            reached,
            reachable: space.reachable(),
        });
    }
    let contents = Contents {
        space: space_code(metric),
        encoding,
        entries: space.size(),
        histogram: outcome.histogram,
        parameters: Some(SpaceParameters {
            puzzle: header_name(mask),
            generators: Vec::new(),
            metric: metric_code(metric),
            order: reached,
            outside: space.size() - reached,
            fingerprint: space.fingerprint(),
        }),
    };
    std::fs::create_dir_all(dir).map_err(|source| TableError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    Ok(write_table(
        &table_path(dir, mask, metric),
        contents,
        &outcome.packed,
    )?)
}

/// Bytes up to 2^28 entries (any depth), four bits above (the large goals stay within 14).
fn encoding_for(entries: u64) -> Encoding {
    if entries <= 1 << 28 {
        Encoding::Byte
    } else {
        Encoding::Nibble
    }
}

/// A goal mask's table, mapped, with its space.
pub struct GoalTable {
    space: GoalSpace,
    table: Table,
}

impl GoalTable {
    /// Opens `mask`'s table in `metric` from `dir`, building it first if it is missing or
    /// numbered as an older version numbered it (goal tables are a cache; `progress` shows
    /// the build). A damaged file is an error, not rebuilt: it says what damaged it may have
    /// damaged others.
    pub fn open_or_build(
        dir: &Path,
        mask: &GoalMask,
        metric: Metric,
        progress: &ProgressBar,
    ) -> Result<GoalTable, GoalError> {
        if !table_path(dir, mask, metric).exists() {
            build(dir, mask, metric, progress)?;
        }
        match GoalTable::open(dir, mask, metric) {
            Err(GoalError::Mismatch { .. }) => {
                build(dir, mask, metric, progress)?;
                GoalTable::open(dir, mask, metric)
            }
            opened => opened,
        }
    }

    /// Opens `mask`'s table in `metric` from `dir`, checking that it is this goal's, numbered
    /// as this code numbers it.
    pub fn open(dir: &Path, mask: &GoalMask, metric: Metric) -> Result<GoalTable, GoalError> {
        let path = table_path(dir, mask, metric);
        let command = build_command(dir, mask, metric);
        let table = Table::open_path(&path, &command, Verify::IfNew)?;
        let space = GoalSpace::new(*mask, metric)?;
        let header = table.header();
        let matches = header.space == space_code(metric)
            && header.encoding == encoding_for(space.size())
            && header.entries == space.size()
            && header.parameters.as_ref().is_some_and(|p| {
                p.puzzle == header_name(mask)
                    && p.fingerprint == space.fingerprint()
                    && p.order == space.reachable()
            });
        if !matches {
            return Err(GoalError::Mismatch { path, command });
        }
        Ok(GoalTable { space, table })
    }

    pub fn space(&self) -> &GoalSpace {
        &self.space
    }

    pub fn header(&self) -> &TableHeader {
        self.table.header()
    }

    /// States at each distance: the goal's exact distribution over random cube states.
    pub fn histogram(&self) -> &[u64] {
        &self.table.header().histogram
    }

    /// The distance of `cube` to the mask.
    #[inline]
    pub fn distance(&self, cube: &Cube3) -> u8 {
        self.table.entry(self.space.index(cube))
    }

    /// The distance of a state of the space.
    #[inline]
    pub fn entry(&self, state: u64) -> u8 {
        self.table.entry(state)
    }

    pub fn path(&self) -> &Path {
        self.table.path()
    }
}

/// The tables a goal reads, in the order of [`Goal::masks`]: its own mask's, then its
/// helpers'. Shared (a server or a sample holds one set for every neutrality).
#[derive(Clone)]
pub struct GoalTables {
    pub own: Arc<GoalTable>,
    pub helpers: Vec<Arc<GoalTable>>,
}

impl GoalTables {
    /// Opens the goal's tables in `metric` from `dir`, building any that is missing (each
    /// build shown by the bar `progress` makes for its mask).
    pub fn open_or_build(
        dir: &Path,
        goal: &Goal,
        metric: Metric,
        progress: &dyn Fn(&GoalMask) -> ProgressBar,
    ) -> Result<GoalTables, GoalError> {
        GoalTables::from_masks(goal, |mask| {
            let bar = progress(mask);
            let table = GoalTable::open_or_build(dir, mask, metric, &bar);
            bar.finish_and_clear();
            table
        })
    }

    /// Opens the goal's tables in `metric` from `dir`, building none.
    pub fn open(dir: &Path, goal: &Goal, metric: Metric) -> Result<GoalTables, GoalError> {
        GoalTables::from_masks(goal, |mask| GoalTable::open(dir, mask, metric))
    }

    fn from_masks(
        goal: &Goal,
        mut open: impl FnMut(&GoalMask) -> Result<GoalTable, GoalError>,
    ) -> Result<GoalTables, GoalError> {
        let own = Arc::new(open(&goal.mask)?);
        let helpers = goal
            .helpers
            .iter()
            .map(|mask| open(mask).map(Arc::new))
            .collect::<Result<_, _>>()?;
        Ok(GoalTables { own, helpers })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_by_name_or_mask_and_clear_errors() {
        let xcross = Goal::parse("xcross").unwrap();
        assert_eq!(xcross.mask, GoalMask::parse("DF DR DB DL FR DFR").unwrap());
        assert_eq!(Goal::parse("DB DF").unwrap().name, "DF DB");
        let unknown = Goal::parse("xcros").unwrap_err().to_string();
        assert!(
            unknown.starts_with("`xcros` is not a goal: name one of cross, xcross"),
            "{unknown}"
        );
        assert!(matches!(
            Goal::parse("DF DF"),
            Err(GoalError::Mask(MaskError::Twice { .. }))
        ));
        for named in NAMED {
            GoalMask::parse(named.mask).unwrap();
        }
    }

    /// The views of each neutrality are distinct rotations and as many as the goal can differ
    /// by: the cross's 6 orientations are 6 faces; an xcross's are the 4 places on each of 6.
    #[test]
    fn views_count_the_places_and_orientations() {
        let count = |goal: &str, o| Goal::parse(goal).unwrap().views(o).len();
        assert_eq!(count("cross", Orientations::Fixed), 1);
        assert_eq!(count("cross", Orientations::Dual), 2);
        assert_eq!(count("cross", Orientations::Six), 6);
        assert_eq!(count("xcross", Orientations::Fixed), 4);
        assert_eq!(count("xcross", Orientations::Dual), 8);
        assert_eq!(count("xcross", Orientations::Six), 24);
        assert_eq!(count("xcross", Orientations::All), 24);
        let six = Goal::parse("cross").unwrap().views(Orientations::Six);
        let mut bottoms: Vec<_> = six.iter().map(|v| v.bottom()).collect();
        bottoms.sort_by_key(|f| f.index());
        bottoms.dedup();
        assert_eq!(bottoms.len(), 6);
        let xx = Goal::parse("xxcross").unwrap();
        assert_eq!(xx.places.at_once(), 2);
        let groups = xx.view_groups(Orientations::Six);
        assert_eq!(groups.len(), 6);
        assert!(groups.iter().all(|g| g.len() == 4));
    }

    #[test]
    fn a_table_is_built_once_opened_checked_and_a_foreign_one_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mask = GoalMask::parse("DF DB").unwrap();
        let progress = ProgressBar::hidden();
        let table = GoalTable::open_or_build(dir.path(), &mask, Metric::Htm, &progress).unwrap();
        assert_eq!(table.histogram().iter().sum::<u64>(), 12 * 11 * 4);
        assert_eq!(table.distance(&Cube3::SOLVED), 0);
        // Another mask's file under this mask's name is refused.
        let other = GoalMask::parse("DF DL").unwrap();
        build(dir.path(), &other, Metric::Htm, &progress).unwrap();
        std::fs::rename(
            table_path(dir.path(), &other, Metric::Htm),
            table_path(dir.path(), &mask, Metric::Htm),
        )
        .unwrap();
        let refused = GoalTable::open(dir.path(), &mask, Metric::Htm)
            .err()
            .unwrap();
        assert!(matches!(refused, GoalError::Mismatch { .. }), "{refused}");
    }
}
