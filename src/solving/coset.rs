//! The coset solver through the one door: a coset named as a user names it, the tables it
//! needs, the solver over them, its symmetry class and its answer as JSON. The command line and
//! the Python module both run a coset through these, adding only their printing.

use crate::catalogue::TableKind;
use crate::model::cube::{Cube3, Metric, Move};
use crate::model::notation::format_moves;
use crate::model::position::{Form, Position, Puzzle, parse_position};
use crate::search::heuristic::missing_tables_of;
use crate::search::into_h::DistanceIntoH;
use crate::search::twophase::TwoPhaseSolver;
use crate::space::phase1::{Phase1Coord, Phase1Space};
use crate::table::TableError;

pub use crate::search::coset::{
    CosetError, CosetLimits, CosetProgress, CosetResult, CosetSolver, DepthCount, MAX_DEPTH,
    check_run, default_search_depth, gods_number,
};
pub use crate::search::coset_finish::{FINISH_AT_MOST, FINISH_LIMIT};
pub use crate::search::cosets::{COSETS, CosetList, DISTINCT_COSETS};
/// The positions in one coset of H (H's order): 19,508,428,800.
pub use crate::space::coset::ELEMENTS as COSET_POSITIONS;

/// Why a coset cannot be run: its name, its tables or the run asked for.
#[derive(Debug, thiserror::Error)]
pub enum CosetRunError {
    #[error("cannot read the coset '{name}': {reason}")]
    Unreadable { name: String, reason: String },
    #[error("'{name}' is a 2x2 position; a coset of H is named by a 3x3 move sequence or position")]
    Pocket { name: String },
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Coset(#[from] CosetError),
    #[error(
        "the phase1-sym table is not exact (a coordinate has no turn closer to H); rebuild it \
         with `gen-tables --force phase1-sym`"
    )]
    NotExact,
}

/// Whether a run in `metric` within `limits` proves its last positions one at a time (see
/// [`CosetLimits::finishes`]): in HTM only, the two-phase search's metric.
pub fn finishes(metric: Metric, limits: &CosetLimits) -> bool {
    metric == Metric::Htm && limits.finishes()
}

/// The error naming the command that builds a missing table of the coset search: the
/// phase-1 table of `metric`, and with `finish` (see [`finishes`]) the two-phase search's.
pub fn missing_tables(
    data_dir: &std::path::Path,
    metric: Metric,
    finish: bool,
) -> Result<(), CosetRunError> {
    missing_tables_of(data_dir, metric, &[TableKind::Phase1Sym])?;
    if finish {
        missing_tables_of(data_dir, Metric::Htm, &TableKind::TWO_PHASE)?;
    }
    Ok(())
}

/// The coset solver over the tables of `metric` in `data_dir` for runs within `limits` of the
/// cosets of `representatives`: each run is checked first (see [`check_run`]), so that a run
/// that cannot start costs no build of the phase-1 turns (a few seconds). Runs that finish
/// (see [`finishes`]) also get the two-phase search that proves a bound run's last positions.
pub fn open_solver(
    data_dir: &std::path::Path,
    metric: Metric,
    limits: &CosetLimits,
    representatives: &[Cube3],
) -> Result<CosetSolver, CosetRunError> {
    let into_h = DistanceIntoH::open(data_dir, metric)?;
    for representative in representatives {
        check_run(&into_h, representative, limits)?;
    }
    let solver = CosetSolver::new(into_h)?;
    if !finishes(metric, limits) {
        return Ok(solver);
    }
    let two_phase = TwoPhaseSolver::open(data_dir)?;
    Ok(solver.with_two_phase(two_phase))
}

/// The position whose coset `name` names: a move sequence or a 3x3 position.
pub fn representative(name: &str) -> Result<Cube3, CosetRunError> {
    match parse_position(name, Some(Puzzle::Cube), Form::Auto) {
        Ok(Position::Cube(cube)) => Ok(cube),
        Ok(Position::Pocket(_)) => Err(CosetRunError::Pocket {
            name: name.to_string(),
        }),
        Err(e) => Err(CosetRunError::Unreadable {
            name: name.to_string(),
            reason: e.to_string(),
        }),
    }
}

/// A coset's symmetry class (see [`crate::search::cosets`]).
pub struct Class {
    /// Its number among the symmetry-distinct cosets.
    pub number: u64,
    /// How many cosets it stands for.
    pub cosets: u64,
}

impl Class {
    /// The class of the coset of `representative` (numbering the classes takes a second).
    pub fn of(representative: &Cube3) -> Class {
        Class::in_list(&CosetList::new(), representative)
    }

    /// The class of the coset of `representative`, numbered by `list` (for many cosets: one
    /// list numbers them all).
    pub fn in_list(list: &CosetList, representative: &Cube3) -> Class {
        let number = list.number_of(Phase1Coord::of(representative));
        Class {
            number,
            cosets: list.cosets_in(number).unwrap_or(1),
        }
    }
}

/// The run as one JSON object: `counts` holds the exact counts (index = depth) for the depths
/// phase 1 searched, `reached` the positions first reached at every depth run; `class` and
/// `class_cosets` say which symmetry class the coset is in and how many cosets that class
/// stands for (the weight of its counts in a whole-cube merge).
pub fn json(
    name: &str,
    metric: Metric,
    class: &Class,
    result: &CosetResult,
    seconds: f64,
) -> serde_json::Value {
    let exact: Vec<u64> = result
        .depths
        .iter()
        .filter(|d| d.exact)
        .map(|d| d.count)
        .collect();
    let unsolved: Vec<String> = result
        .unsolved_positions
        .iter()
        .map(|c| Position::Cube(*c).stickers())
        .collect();
    serde_json::json!({
        "coset": name,
        "metric": metric,
        "class": class.number,
        "class_cosets": class.cosets,
        "counts": exact,
        "reached": result.depths.iter().map(|d| d.count).collect::<Vec<_>>(),
        "depths": result.depths,
        "bound": result.bound,
        "unsolved": result.unsolved,
        "finished": result.finished,
        "unsolved_positions": unsolved,
        "seconds": seconds,
    })
}

/// The coset tables (`phase1-sym` of HTM) that name the classes of the list, opened once.
pub struct CosetNames {
    list: CosetList,
    phase1: Phase1Space,
    into_h: DistanceIntoH,
}

impl CosetNames {
    /// Opens the HTM phase-1 table of `data_dir`; an error names the command that builds it.
    pub fn open(data_dir: &std::path::Path) -> Result<CosetNames, CosetRunError> {
        missing_tables(data_dir, Metric::Htm, false)?;
        Ok(CosetNames {
            list: CosetList::new(),
            phase1: Phase1Space::new(Metric::Htm),
            into_h: DistanceIntoH::open(data_dir, Metric::Htm)?,
        })
    }

    pub fn list(&self) -> &CosetList {
        &self.list
    }

    /// A shortest move sequence into the coset of class `number`, or `None` past the list.
    pub fn moves_of(&self, number: u64) -> Result<Option<Vec<Move>>, CosetRunError> {
        let Some(c) = self.list.coordinate(number) else {
            return Ok(None);
        };
        crate::search::cosets::name_of(c, &self.phase1, &self.into_h)
            .map(Some)
            .ok_or(CosetRunError::NotExact)
    }
}

/// A coset's name as `cubelab coset` reads it: the moves, or `U` (a move of H) for H itself,
/// whose shortest name is empty.
pub fn coset_name(moves: &[Move]) -> String {
    if moves.is_empty() {
        "U".to_string()
    } else {
        format_moves(moves)
    }
}
