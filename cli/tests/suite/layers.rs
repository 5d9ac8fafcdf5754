//! The staged solver: every stage reaches its goal without undoing the ones before, the whole
//! solves the position, and the cross is the shortest one (against a search of its own).

use crate::common;

use cubelab::catalogue::TableKind;
use cubelab::model::cube::{Cube3, Face, Metric};
use cubelab::model::notation::parse_moves;
use cubelab::search::layers::{LayersSolver, Step, whole_solution};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::OnceLock;

/// The corner table, and the smallest coset table for the last step's optimal search.
fn solver() -> &'static LayersSolver {
    static SOLVER: OnceLock<LayersSolver> = OnceLock::new();
    let tables = common::shared(&[TableKind::Corners, TableKind::UdF4], &[Metric::Htm]);
    SOLVER.get_or_init(|| LayersSolver::open(tables, TableKind::UdF4).unwrap())
}

fn edge_home(cube: &Cube3, piece: usize) -> bool {
    cube.edges.perm[piece] == piece as u8 && cube.edges.ori[piece] == 0
}

fn corner_home(cube: &Cube3, piece: usize) -> bool {
    cube.corners.perm[piece] == piece as u8 && cube.corners.ori[piece] == 0
}

/// What must hold after each stage, read from the cubies here rather than from the solver.
fn stage_done(cube: &Cube3, stage: &str) -> bool {
    let cross = (4..8).all(|e| edge_home(cube, e));
    let first_layer = cross && (4..8).all(|c| corner_home(cube, c));
    let two_layers = first_layer && (8..12).all(|e| edge_home(cube, e));
    let edges_oriented = cube.edges.ori.iter().all(|&o| o == 0);
    let oriented = edges_oriented && cube.corners.ori.iter().all(|&o| o == 0);
    match stage {
        "cross" => cross,
        "first-layer corners" => first_layer,
        "second layer" => two_layers,
        "last-layer cross" => two_layers && edges_oriented,
        "last-layer orientation" => two_layers && oriented,
        "last-layer permutation" => cube.is_solved(),
        _ => false,
    }
}

fn check(cube: &Cube3, steps: &[Step]) {
    let stages: Vec<&str> = steps.iter().map(|s| s.stage).collect();
    let mut expected = vec!["cross"];
    expected.extend(["first-layer corners"; 4]);
    expected.extend(["second layer"; 4]);
    expected.extend([
        "last-layer cross",
        "last-layer orientation",
        "last-layer permutation",
        "last-layer permutation",
    ]);
    assert_eq!(stages, expected);
    let mut position = *cube;
    for (i, step) in steps.iter().enumerate() {
        position = position.apply_all(&step.moves);
        let stage_ends = steps.get(i + 1).is_none_or(|next| next.stage != step.stage);
        if stage_ends {
            assert!(stage_done(&position, step.stage), "{}", step.stage);
        }
    }
    assert!(position.is_solved());
}

#[test]
fn random_positions_are_solved_stage_by_stage() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    for _ in 0..10 {
        let cube = Cube3::random(&mut rng);
        let steps = solver().solve(&cube).unwrap();
        check(&cube, &steps);
    }
}

/// The whole solution merges turns of one face that meet at a stage boundary (#31: a solution
/// was reported as `D' F' R' R U' R'`, six moves for four): no two neighbours turn one face,
/// and it still solves the position.
#[test]
fn the_whole_solution_merges_turns_across_stages() {
    let step = |moves: &str| Step {
        stage: "test",
        piece: None,
        moves: parse_moves(moves).unwrap(),
    };
    let steps = [step("D' F' R'"), step("R U' R'"), step("R")];
    assert_eq!(whole_solution(&steps), parse_moves("D' F' U'").unwrap());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    for _ in 0..20 {
        let cube = Cube3::random(&mut rng);
        let whole = whole_solution(&solver().solve(&cube).unwrap());
        assert!(cube.apply_all(&whole).is_solved());
        assert!(
            whole.windows(2).all(|w| w[0].face() != w[1].face()),
            "{whole:?}"
        );
    }
}

#[test]
fn finished_stages_take_no_moves() {
    let steps = solver().solve(&Cube3::SOLVED).unwrap();
    check(&Cube3::SOLVED, &steps);
    assert!(steps.iter().all(|s| s.moves.is_empty()));
    // One turn of the last layer: everything is done but the permutation, one move.
    let cube = Cube3::from_moves(&parse_moves("U").unwrap());
    let steps = solver().solve(&cube).unwrap();
    check(&cube, &steps);
    let lengths: Vec<usize> = steps.iter().map(|s| s.moves.len()).collect();
    assert_eq!(lengths.iter().sum::<usize>(), 1);
}

/// The cross step is as short as any cross: against a breadth-first search of the four D-layer
/// edges' places and flips by cubies.
#[test]
fn the_cross_is_the_shortest_cross() {
    let key = |c: &Cube3| -> [u8; 8] {
        let mut key = [0u8; 8];
        for (i, piece) in (4..8u8).enumerate() {
            let slot = c.edges.perm.iter().position(|&p| p == piece).unwrap();
            key[2 * i] = slot as u8;
            key[2 * i + 1] = c.edges.ori[slot];
        }
        key
    };
    let distance = common::distances_by_cubies(&Metric::Htm.generators(&Face::ALL), key, u8::MAX);
    assert_eq!(distance.len(), 190_080);
    // The cross pieces' places move with the moves alone, so a sequence that takes a
    // position's cross home, inverted, takes home to the position's cross: the distances agree.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    for _ in 0..12 {
        let cube = Cube3::random(&mut rng);
        let steps = solver().solve(&cube).unwrap();
        assert_eq!(steps[0].moves.len() as u8, distance[&key(&cube)]);
    }
}

/// The layer method's cross and its first first-layer corner agree with the goal solver's
/// optimal lengths (`solve --goal`) on the same positions: the cross goal, and the cross with
/// the corner the method chose.
#[test]
fn the_cross_and_first_corner_agree_with_the_goal_solver() {
    use cubelab::catalogue::goal::{Goal, GoalTables, Orientations};
    use cubelab::model::cube::CORNER_NAMES;
    use cubelab::search::goal::GoalSolver;
    let dir = tempfile::tempdir().unwrap();
    let open = |goal: &str| {
        let goal = Goal::parse(goal).unwrap();
        let hidden = |_: &_| indicatif::ProgressBar::hidden();
        let tables = GoalTables::open_or_build(dir.path(), &goal, Metric::Htm, &hidden);
        GoalSolver::new(goal, tables.unwrap(), Orientations::Fixed)
    };
    let cross = open("cross");
    let with_corner: Vec<GoalSolver> = (4..8)
        .map(|c| open(&format!("DF DR DB DL {}", CORNER_NAMES[c])))
        .collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(32);
    for _ in 0..10 {
        let cube = Cube3::random(&mut rng);
        let steps = solver().solve(&cube).unwrap();
        assert_eq!(steps[0].moves.len() as u8, cross.length(&cube));
        let after_cross = cube.apply_all(&steps[0].moves);
        let corner = steps[1].piece.unwrap();
        let c = CORNER_NAMES.iter().position(|n| *n == corner).unwrap();
        assert_eq!(
            steps[1].moves.len() as u8,
            with_corner[c - 4].length(&after_cross),
            "{corner}"
        );
    }
}
