//! A human method: the cube solved layer by layer, in named stages a person can follow, each
//! stage's moves the shortest that reach its goal without undoing the stages before it.
//!
//! The first layer is the D layer, so the last layer ends on top where it can be watched:
//!
//! 1. **cross**: the four D-layer edges home;
//! 2. **first-layer corners**: the four D-layer corners, one at a time;
//! 3. **second layer**: the four E-slice edges, one at a time;
//! 4. **last-layer cross**: the U-layer edges flipped to make a cross on top;
//! 5. **last-layer orientation**: the U-layer corners twisted to finish the top face;
//! 6. **last-layer permutation**: the U-layer corners, then the U-layer edges, moved home.
//!
//! A step's goal is every piece of the steps before it home plus its own, and its moves are
//! found by iterative deepening (IDA*) over canonical sequences: the shortest that reach the
//! goal, the pieces already home allowed to leave and come back. Where a stage places four
//! pieces it does so one at a time, the piece nearest home first, as a person would: the
//! shortest sequence for all four at once is harder to follow and, at 14 moves and more, far
//! longer to search.
//!
//! The bounds are small exact tables over the goal's pieces (see [`crate::space::stages`]): the
//! cross with one first-layer corner and with one E-slice edge (read for the others through
//! quarter turns of the whole cube about U-D), the edge flips and the corner twists each with
//! the E-slice edges' places, and the corner table for the last layer's corners. A table bounds
//! a goal that has all its pieces home, and a step reads every table that bounds its goal, the
//! newest first. The last step's goal is the solved cube, so the optimal solver finds it, over
//! its own tables.

use super::SolveError;
use super::canonical::Canonical;
use super::heuristic::{AnyHeuristic, missing_tables_of, open_table};
use super::ida::{SearchLimits, Solver};
use crate::bfs::breadth_first;
use crate::catalogue::{TableId, TableKind};
use crate::model::cube::{CORNER_NAMES, Cube3, EDGE_NAMES, Face, Metric, Move, Rotation};
use crate::packing::{Encoding, nibble};
use crate::space::corners;
use crate::space::stages::{Part, PartKind, PieceSpace};
use crate::table::{Table, TableError};
use indicatif::ProgressBar;
use std::path::Path;
use std::sync::Arc;

/// The D-layer edges (DR DF DL DB), corners (DFR DLF DBL DRB) and E-slice edges (FR FL BL BR),
/// and the U-layer corners.
const D_EDGES: [u8; 4] = [4, 5, 6, 7];
const D_CORNERS: [u8; 4] = [4, 5, 6, 7];
const E_EDGES: [u8; 4] = [8, 9, 10, 11];
const U_CORNERS: [u8; 4] = [0, 1, 2, 3];
/// No step of this method needs more moves (the longest seen is 14, last-layer permutation).
const MAX_STEP: u8 = 20;

/// One stage, or one piece of a stage that places four: its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The stage, as listed in the module's documentation.
    pub stage: &'static str,
    /// The piece the step places, for stages that place one at a time.
    pub piece: Option<&'static str>,
    pub moves: Vec<Move>,
}

/// The whole solution the steps spell: their moves in order, turns of one face that meet at a
/// stage's boundary merged or cancelled (a stage that ends `R'` before one that starts `R`
/// spends no moves there).
pub fn whole_solution(steps: &[Step]) -> Vec<Move> {
    let moves: Vec<Move> = steps.iter().flat_map(|s| s.moves.iter().copied()).collect();
    crate::model::cube::merge_same_face(&moves)
}

/// A table over a few pieces and what its distances are of.
struct PieceTable {
    space: PieceSpace,
    entries: Vec<u8>,
}

impl PieceTable {
    fn build(parts: Vec<Arc<Part>>) -> PieceTable {
        let space = PieceSpace::new(parts);
        let built = breadth_first(&space, Encoding::Nibble, &ProgressBar::hidden())
            .expect("a piece table fits in memory and in 4-bit entries");
        PieceTable {
            space,
            entries: built.packed,
        }
    }

    #[inline]
    fn distance(&self, cube: &Cube3) -> u8 {
        nibble(&self.entries, self.space.index(cube))
    }
}

/// A bound a step reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lookup {
    /// A piece table read through a quarter turn of the whole cube about the U-D axis:
    /// `Piece(table, k)` reads `table` for the position seen through `y^k`. The first-layer
    /// corner and second-layer edge tables are built for one piece each (DFR, FR) and read for
    /// the other three through `y`, which keeps the cross and carries each of those pieces to
    /// the one built for.
    Piece(usize, usize),
    /// The corner table (all eight corners), mapped from the data directory.
    Corners,
}

/// What a step must reach: pieces home (a bit per edge and per corner) and, for the last-layer
/// stages, every edge flipped or every corner twisted right; and the tables that bound it.
#[derive(Clone)]
struct Goal {
    edges: u16,
    corners: u8,
    flips: bool,
    twists: bool,
    tables: Vec<Lookup>,
}

impl Goal {
    fn reached(&self, cube: &Cube3) -> bool {
        let edges_home = (0..12).all(|i| {
            self.edges & 1 << i == 0 || cube.edges.perm[i] == i as u8 && cube.edges.ori[i] == 0
        });
        let corners_home = (0..8).all(|i| {
            self.corners & 1 << i == 0
                || cube.corners.perm[i] == i as u8 && cube.corners.ori[i] == 0
        });
        edges_home
            && corners_home
            && (!self.flips || cube.edges.ori.iter().all(|&o| o == 0))
            && (!self.twists || cube.corners.ori.iter().all(|&o| o == 0))
    }
}

/// The staged solver and its tables.
pub struct LayersSolver {
    canonical: Canonical,
    moves: Vec<Move>,
    tables: Vec<PieceTable>,
    corners: Table,
    /// The optimal solver, for the last step, whose goal is the solved cube.
    finisher: Solver,
    /// `y^k` for k = 0..4: its cubies and their inverse.
    turns_about_ud: [(Cube3, Cube3); 4],
    /// Per D-layer corner, the lookup of the cross and that corner.
    cross_corner: [Lookup; 4],
    /// Per E-slice edge, the lookup of the cross and that edge.
    cross_edge: [Lookup; 4],
}

/// The tables, by number in [`LayersSolver::tables`].
mod table {
    pub const CROSS: usize = 0;
    pub const CROSS_CORNER: usize = 1;
    pub const CROSS_EDGE: usize = 2;
    /// Edge flips x where the E-slice edges are.
    pub const FLIPS: usize = 3;
    /// Corner twists x where the E-slice edges are.
    pub const TWISTS: usize = 4;
}

impl LayersSolver {
    /// Maps the corner table and the optimal solver's table `finisher` (see
    /// [`AnyHeuristic::open`]) from `dir`, a missing one an error naming the command that builds
    /// it, and builds the piece tables (about a second on two cores).
    pub fn open(dir: &Path, finisher: TableKind) -> Result<LayersSolver, TableError> {
        use rayon::prelude::*;
        const DFR: u8 = D_CORNERS[0];
        const FR: u8 = E_EDGES[0];
        let cross_part = Arc::new(Part::new(PartKind::Edges(D_EDGES.to_vec())));
        let part = |kind| Arc::new(Part::new(kind));
        let specs: Vec<Vec<Arc<Part>>> = vec![
            vec![cross_part.clone()],
            vec![cross_part.clone(), part(PartKind::Corners(vec![DFR]))],
            vec![cross_part, part(PartKind::Edges(vec![FR]))],
            vec![part(PartKind::Flips), part(PartKind::SlicePlaces)],
            vec![part(PartKind::Twists), part(PartKind::SlicePlaces)],
        ];
        let tables = specs.into_par_iter().map(PieceTable::build).collect();
        let turns_about_ud: [(Cube3, Cube3); 4] = std::array::from_fn(|k| {
            let y = *Rotation::y().power(k as u8).cubies();
            (y, y.inverse())
        });
        // Seen through y^k, piece p of the position is renamed to y^k(p); the turn that renames
        // a piece to the one its table was built for is the one to read it through.
        let through = |home: u8, renamed: &dyn Fn(&Cube3) -> u8| {
            (0..4)
                .find(|&k| renamed(&turns_about_ud[k].0) == home)
                .unwrap_or(0)
        };
        let cross_corner = D_CORNERS.map(|c| {
            Lookup::Piece(
                table::CROSS_CORNER,
                through(DFR, &|y: &Cube3| y.corners.perm[usize::from(c)]),
            )
        });
        let cross_edge = E_EDGES.map(|e| {
            Lookup::Piece(
                table::CROSS_EDGE,
                through(FR, &|y: &Cube3| y.edges.perm[usize::from(e)]),
            )
        });
        let moves = Metric::Htm.generators(&Face::ALL);
        missing_tables_of(dir, Metric::Htm, &[TableKind::Corners])?;
        let corners = open_table(dir, TableId::new(TableKind::Corners, Metric::Htm))?;
        let finisher = Solver::new(AnyHeuristic::open(dir, Metric::Htm, finisher)?);
        Ok(LayersSolver {
            canonical: Canonical::new(Metric::Htm, &moves),
            moves,
            tables,
            corners,
            finisher,
            turns_about_ud,
            cross_corner,
            cross_edge,
        })
    }

    /// The distance a lookup reads for `cube`.
    fn distance(&self, cube: &Cube3, lookup: Lookup) -> u8 {
        self.distance_seen(&mut Seen::new(cube), lookup)
    }

    /// The distance a lookup reads for the position `seen` holds, its conjugates made once
    /// per node however many tables read them (a corner and an edge table share each turn).
    fn distance_seen(&self, seen: &mut Seen, lookup: Lookup) -> u8 {
        match lookup {
            Lookup::Piece(table, k) => {
                let cube = seen.through(k, &self.turns_about_ud);
                self.tables[table].distance(cube)
            }
            Lookup::Corners => self.corners.nibble(corners::rank(&seen.cubes[0].corners)),
        }
    }

    /// The stages that solve `cube`; applied in order they solve it, which is checked.
    pub fn solve(&self, cube: &Cube3) -> Result<Vec<Step>, SolveError> {
        let mut steps = Vec::with_capacity(13);
        let mut position = *cube;
        let mut goal = Goal {
            edges: mask(&D_EDGES),
            corners: 0,
            flips: false,
            twists: false,
            tables: vec![Lookup::Piece(table::CROSS, 0)],
        };
        self.step(&mut position, &goal, "cross", None, &mut steps);
        let mut corners_left = D_CORNERS.to_vec();
        goal.tables.clear();
        while !corners_left.is_empty() {
            let (i, corner) =
                self.nearest(&position, &corners_left, &self.cross_corner, &D_CORNERS);
            corners_left.remove(i);
            goal.corners |= 1 << corner;
            goal.tables
                .push(self.cross_corner[usize::from(corner - D_CORNERS[0])]);
            let name = CORNER_NAMES[usize::from(corner)];
            self.step(
                &mut position,
                &goal,
                "first-layer corners",
                Some(name),
                &mut steps,
            );
        }
        let mut edges_left = E_EDGES.to_vec();
        while !edges_left.is_empty() {
            let (i, edge) = self.nearest(&position, &edges_left, &self.cross_edge, &E_EDGES);
            edges_left.remove(i);
            goal.edges |= 1 << edge;
            goal.tables
                .push(self.cross_edge[usize::from(edge - E_EDGES[0])]);
            let name = EDGE_NAMES[usize::from(edge)];
            self.step(&mut position, &goal, "second layer", Some(name), &mut steps);
        }
        // The last layer's tables first: they are the ones that cut.
        goal.flips = true;
        goal.tables.insert(0, Lookup::Piece(table::FLIPS, 0));
        self.step(&mut position, &goal, "last-layer cross", None, &mut steps);
        goal.twists = true;
        goal.tables.insert(0, Lookup::Piece(table::TWISTS, 0));
        self.step(
            &mut position,
            &goal,
            "last-layer orientation",
            None,
            &mut steps,
        );
        goal.corners |= mask(&U_CORNERS) as u8;
        goal.tables.insert(0, Lookup::Corners);
        self.step(
            &mut position,
            &goal,
            "last-layer permutation",
            Some("corners"),
            &mut steps,
        );
        // The last goal is the solved cube: the optimal solver's tables bound it best.
        let limits = SearchLimits {
            dual: true,
            symmetry: true,
            // Positions are solved in parallel, each on one thread.
            one_thread: true,
            ..SearchLimits::default()
        };
        let last = self.finisher.solve(&position, limits, |_| {})?;
        let moves = last.solutions.into_iter().next().unwrap_or_default();
        steps.push(Step {
            stage: "last-layer permutation",
            piece: Some("edges"),
            moves,
        });
        let moves: Vec<Move> = steps.iter().flat_map(|s| s.moves.iter().copied()).collect();
        if !cube.apply_all(&moves).is_solved() {
            return Err(SolveError::Unverified(
                crate::model::notation::format_moves(&moves),
            ));
        }
        Ok(steps)
    }

    /// Of the pieces `left`, the one whose table (`tables`, indexed as `pieces`) says it is
    /// nearest home with the cross, and its place in `left`.
    fn nearest(
        &self,
        cube: &Cube3,
        left: &[u8],
        tables: &[Lookup; 4],
        pieces: &[u8; 4],
    ) -> (usize, u8) {
        let distance = |piece: u8| {
            let lookup = tables[pieces.iter().position(|&p| p == piece).unwrap_or(0)];
            self.distance(cube, lookup)
        };
        left.iter()
            .enumerate()
            .min_by_key(|&(_, &piece)| distance(piece))
            .map_or((0, pieces[0]), |(i, &piece)| (i, piece))
    }

    /// Finds and applies the shortest sequence that takes `position` to `goal`.
    fn step(
        &self,
        position: &mut Cube3,
        goal: &Goal,
        stage: &'static str,
        piece: Option<&'static str>,
        steps: &mut Vec<Step>,
    ) {
        let moves = self.shortest(position, goal);
        *position = position.apply_all(&moves);
        debug_assert!(goal.reached(position));
        steps.push(Step {
            stage,
            piece,
            moves,
        });
    }

    /// IDA* from `cube` to `goal`.
    fn shortest(&self, cube: &Cube3, goal: &Goal) -> Vec<Move> {
        let mut path = Vec::new();
        for bound in self.bound(cube, goal, MAX_STEP)..=MAX_STEP {
            if self.walk(cube, goal, bound, Canonical::ROOT, &mut path) {
                return path;
            }
        }
        // Every step's goal is reachable within MAX_STEP (tested over random positions).
        path
    }

    /// The largest of the goal's table distances, or a value above `budget` as soon as one
    /// exceeds it.
    fn bound(&self, cube: &Cube3, goal: &Goal, budget: u8) -> u8 {
        let mut seen = Seen::new(cube);
        let mut best = 0;
        for &lookup in &goal.tables {
            best = best.max(self.distance_seen(&mut seen, lookup));
            if best > budget {
                break;
            }
        }
        best
    }

    fn walk(
        &self,
        cube: &Cube3,
        goal: &Goal,
        togo: u8,
        history: usize,
        path: &mut Vec<Move>,
    ) -> bool {
        if togo == 0 {
            return goal.reached(cube);
        }
        let mut allowed = self.canonical.allowed(history);
        while allowed != 0 {
            let turn = allowed.trailing_zeros() as usize;
            allowed &= allowed - 1;
            let child = cube.apply(self.moves[turn]);
            if self.bound(&child, goal, togo - 1) > togo - 1 {
                continue;
            }
            path.push(self.moves[turn]);
            if self.walk(
                &child,
                goal,
                togo - 1,
                Canonical::after(history, turn),
                path,
            ) {
                return true;
            }
            path.pop();
        }
        false
    }
}

/// A position and its conjugates by `y^k`, each made when first read.
struct Seen {
    cubes: [Cube3; 4],
    made: u8,
}

impl Seen {
    fn new(cube: &Cube3) -> Seen {
        Seen {
            cubes: [*cube; 4],
            made: 1,
        }
    }

    fn through(&mut self, k: usize, turns: &[(Cube3, Cube3); 4]) -> &Cube3 {
        if self.made & 1 << k == 0 {
            let (y, y_inverse) = &turns[k];
            self.cubes[k] = y.then(&self.cubes[0]).then(y_inverse);
            self.made |= 1 << k;
        }
        &self.cubes[k]
    }
}

/// A bit per piece.
fn mask(pieces: &[u8]) -> u16 {
    pieces.iter().fold(0, |mask, &p| mask | 1 << p)
}
