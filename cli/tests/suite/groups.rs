//! Subgroups: their orders by Schreier–Sims, their breadth-first histograms against the published
//! counts, and solutions within them, each checked by applying it.

use cubelab::catalogue::group::{GroupError, GroupTable, available_memory, build, table_path};
use cubelab::catalogue::published::published_group_histogram;
use cubelab::catalogue::scan::checked_histogram;
use cubelab::model::cube::{Cube2, Cube3, Move};
use cubelab::model::notation::parse_moves;
use cubelab::model::position::Puzzle;
use cubelab::space::group::{GroupMetric, GroupSpaceError, GroupSpec, Sizes};
use cubelab::table::{Table, Verify};
use indicatif::ProgressBar;
use rand::{RngExt, SeedableRng};

fn spec(puzzle: Puzzle, generators: &str, metric: GroupMetric) -> GroupSpec {
    GroupSpec::parse(puzzle, generators, metric).expect("a valid group")
}

#[test]
fn orders_are_the_known_ones() {
    let cases = [
        (Puzzle::Cube, "U2 D2 F2 B2 L2 R2", 663_552u128),
        (Puzzle::Cube, "U R", 73_483_200),
        (Puzzle::Cube, "U", 4),
        (Puzzle::Cube, "U D", 16),
        (Puzzle::Cube, "R U R' U',", 6),
        (Puzzle::Cube, "U R F D L B", 43_252_003_274_489_856_000),
        (Puzzle::Pocket, "U R F", 3_674_160),
        (Puzzle::Pocket, "U R", 29_160),
    ];
    for (puzzle, generators, order) in cases {
        let sizes = Sizes::of(&spec(puzzle, generators, GroupMetric::Generators));
        assert_eq!(sizes.order, order, "{puzzle} <{generators}>");
        assert!(sizes.entries() >= order, "the product encloses the group");
    }
    // The squares group is exactly the product of its corner and edge images; <U, R> links the
    // parities of its corner and edge permutations, so the product is twice the group.
    let squares = Sizes::of(&spec(
        Puzzle::Cube,
        "U2 D2 F2 B2 L2 R2",
        GroupMetric::Generators,
    ));
    assert_eq!(squares.entries(), squares.order);
    let ur = Sizes::of(&spec(Puzzle::Cube, "U R", GroupMetric::Generators));
    assert_eq!((ur.corner_image, ur.edge_image), (29_160, 5_040));
    assert_eq!(ur.entries(), 2 * ur.order);
}

#[test]
fn bad_generators_are_clear_errors() {
    let parse = |p, g, m| GroupSpec::parse(p, g, m).unwrap_err();
    use GroupMetric::*;
    assert!(matches!(
        parse(Puzzle::Cube, "", Generators),
        GroupSpaceError::NoGenerators
    ));
    assert!(matches!(
        parse(Puzzle::Cube, "U Q", Generators),
        GroupSpaceError::Notation { .. }
    ));
    assert!(matches!(
        parse(Puzzle::Cube, "U x", Generators),
        GroupSpaceError::Rotation { .. }
    ));
    assert!(matches!(
        parse(Puzzle::Cube, "U U',", Generators),
        GroupSpaceError::Identity(_)
    ));
    assert!(matches!(
        parse(Puzzle::Pocket, "U D", Generators),
        GroupSpaceError::MovesFixedCorner(_)
    ));
    assert!(matches!(
        parse(Puzzle::Cube, "U2 R", Qtm),
        GroupSpaceError::NotQuarterTurn(_)
    ));
    let whole = spec(Puzzle::Cube, "U R F D L B", Generators);
    let refused = Sizes::of(&whole)
        .check_fits(&whole, Some(24 << 30))
        .unwrap_err();
    let message = refused.to_string();
    assert!(
        message.contains("43,252,003,274,489,856,000 positions"),
        "{message}"
    );
}

#[test]
fn moves_follow_the_metric() {
    let names = |s: &GroupSpec| -> Vec<String> {
        s.moves()
            .iter()
            .map(|m| cubelab::model::notation::format_moves(&m.turns))
            .collect()
    };
    use GroupMetric::*;
    assert_eq!(
        names(&spec(Puzzle::Cube, "U R", Generators)),
        ["U", "U'", "R", "R'"]
    );
    assert_eq!(
        names(&spec(Puzzle::Cube, "U R", Htm)),
        ["U", "U2", "U'", "R", "R2", "R'"]
    );
    assert_eq!(names(&spec(Puzzle::Cube, "U R", Directed)), ["U", "R"]);
    // A half turn is its own inverse: one move.
    assert_eq!(
        names(&spec(Puzzle::Cube, "U2 R2", Generators)),
        ["U2", "R2"]
    );
    assert_eq!(
        names(&spec(Puzzle::Cube, "R U R' U', D", Generators)),
        ["R U R' U'", "U R U' R'", "D", "D'"]
    );
}

/// Builds `spec`'s table in a scratch directory and checks its histogram against the published
/// one, the group's order, and its own entries.
fn build_and_check(spec: &GroupSpec) -> (tempfile::TempDir, GroupTable) {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let sizes = Sizes::of(spec);
    sizes.check_fits(spec, available_memory()).expect("fits");
    let built = build(dir.path(), spec, &ProgressBar::hidden()).expect("built");
    let published = published_group_histogram(spec).expect("a published count");
    assert_eq!(built.header.histogram, published, "{spec}");
    assert_eq!(published.iter().sum::<u64>() as u128, sizes.order);
    let table = Table::open_path(&table_path(dir.path(), spec), "", Verify::Always).unwrap();
    let checked = checked_histogram(&table);
    assert!(checked.problems.is_empty(), "{:?}", checked.problems);
    assert!(checked.published);
    let group = GroupTable::open(dir.path(), spec).expect("opens");
    (dir, group)
}

/// Random positions of the group (random words in its generators), each solved within it:
/// the solution is checked by applying it, and its length is the table's distance.
fn solve_random(group: &GroupTable, spec: &GroupSpec, seed: u64) {
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    let moves = spec.moves();
    for _ in 0..50 {
        let mut cube = Cube3::SOLVED;
        let mut word = 0;
        for _ in 0..rng.random_range(0..40) {
            cube = cube.apply_all(&moves[rng.random_range(0..moves.len())].turns);
            word += 1;
        }
        let distance = group.distance(&cube).expect("in the group");
        // Undone by the word's inverse; with directed quarter turns each inverse costs three.
        let per_move = if spec.metric.has_inverses() { 1 } else { 3 };
        assert!(
            usize::from(distance) <= per_move * word,
            "{distance} after {word} moves"
        );
        let solution = group.solve(&cube).expect("solved");
        assert_eq!(solution.len(), usize::from(distance));
        let turns: Vec<Move> = solution.iter().flat_map(|m| m.turns.clone()).collect();
        let end = cube.apply_all(&turns);
        match spec.puzzle() {
            Puzzle::Pocket => assert_eq!(end.corners, Cube2::SOLVED.corners),
            Puzzle::Cube => assert!(end.is_solved()),
        }
    }
}

#[test]
fn squares_group_matches_a080627() {
    let spec = spec(Puzzle::Cube, "U2 D2 F2 B2 L2 R2", GroupMetric::Generators);
    let (_dir, group) = build_and_check(&spec);
    solve_random(&group, &spec, 1);
    // A quarter turn leaves the group; so does a position whose pieces the group moves but
    // never into that arrangement.
    let outside = Cube3::from_moves(&parse_moves("U").unwrap());
    assert!(matches!(
        group.distance(&outside),
        Err(GroupError::Space(GroupSpaceError::NotInGroup))
    ));
}

#[test]
fn ur_group_in_quarter_turns_matches_a080628() {
    let spec = spec(Puzzle::Cube, "U R", GroupMetric::Qtm);
    let (_dir, group) = build_and_check(&spec);
    solve_random(&group, &spec, 2);
    // In the product of the images, but of the wrong parity: never reached.
    let swap = Cube3::from_moves(&parse_moves("U").unwrap());
    let mut odd = Cube3::SOLVED;
    odd.corners = swap.corners;
    assert!(matches!(
        group.distance(&odd),
        Err(GroupError::Space(GroupSpaceError::NotInGroup))
    ));
}

#[test]
fn pocket_groups_match_their_published_counts() {
    for metric in [GroupMetric::Directed, GroupMetric::Htm, GroupMetric::Qtm] {
        let spec = spec(Puzzle::Pocket, "U R F", metric);
        let (_dir, group) = build_and_check(&spec);
        solve_random(&group, &spec, 3);
    }
}

#[test]
fn a_table_of_another_group_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let directed = spec(Puzzle::Pocket, "U R", GroupMetric::Directed);
    build(dir.path(), &directed, &ProgressBar::hidden()).unwrap();
    // Another metric reads another file: missing, with the command that builds it.
    let other = spec(Puzzle::Pocket, "U R", GroupMetric::Generators);
    let missing = GroupTable::open(dir.path(), &other).err().expect("missing");
    assert!(
        missing.to_string().contains("--group-metric generators"),
        "{missing}"
    );
    // The same file name holding another group's entries is refused, not misread.
    std::fs::rename(
        table_path(dir.path(), &directed),
        table_path(dir.path(), &other),
    )
    .unwrap();
    let wrong = GroupTable::open(dir.path(), &other).err().expect("refused");
    assert!(matches!(wrong, GroupError::Mismatch { .. }), "{wrong}");
}

/// One flipped bit anywhere in a group's table: a payload bit is caught by the checksum, and a
/// header bit never panics and never opens a table that reads wrongly (the group, its order,
/// its numbering and its depth counts are all checked on opening).
#[test]
fn a_flipped_bit_in_a_group_table_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let squares = spec(Puzzle::Cube, "U2 D2 F2 B2 L2 R2", GroupMetric::Generators);
    build(dir.path(), &squares, &ProgressBar::hidden()).unwrap();
    let path = table_path(dir.path(), &squares);
    let good = std::fs::read(&path).unwrap();
    let header_len = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    let expected = GroupTable::open(dir.path(), &squares)
        .unwrap()
        .header()
        .clone();
    for at in (0..16 + header_len).chain([4096, 4096 + 100_000]) {
        let mut bad = good.clone();
        bad[at] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        // Opened only where the header still reads the same (the writer's version string, or
        // a header length that takes in some of the zeros after it).
        if let Ok(table) = GroupTable::open(dir.path(), &squares) {
            assert_eq!(table.header().histogram, expected.histogram, "byte {at}");
            assert_eq!(table.header().parameters, expected.parameters, "byte {at}");
            assert!(at < 4096, "payload byte {at} not caught");
        }
    }
}

/// The devil's algorithm of the 2x2 committed in `data/` passes the check (every position of
/// the 2x2 once, then solved again, 3,674,160 quarter turns), and `gen-tables --circuit`
/// builds exactly it again: the construction is deterministic.
#[test]
fn the_committed_2x2_circuit_is_one_and_is_rebuilt_identically() {
    use cubelab::catalogue::circuit::{
        build_circuit, check_circuit, circuit_path, move_indices, read_circuit,
    };
    use cubelab::space::group::GroupSpace;
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data");
    let spec = spec(Puzzle::Pocket, "U R F", GroupMetric::Qtm);
    let (read_spec, moves) = read_circuit(&circuit_path(&dir, &spec)).expect("the circuit file");
    assert_eq!(read_spec.to_string(), "2x2 <U, R, F> in qtm");
    assert_eq!(moves.len(), 3_674_160);
    assert!(moves.iter().all(|m| m.quarter_turns() != 2));
    let space = GroupSpace::new(&spec);
    let committed = move_indices(&spec, &moves).expect("moves of the group");
    check_circuit(&space, &committed).expect("a circuit");
    let rebuilt = build_circuit(&space, &spec, &ProgressBar::hidden()).expect("built");
    assert!(
        rebuilt == committed,
        "the construction no longer gives the committed circuit"
    );
}

/// The devil's algorithm of the 3x3's `<U, R>` committed in `data/` passes the check: all
/// 73,483,200 positions of the group once (the product of its corner and edge images holds
/// twice as many states, and the circuit must keep to the group's half), then solved again.
#[test]
fn the_committed_3x3_u_r_circuit_is_one() {
    use cubelab::catalogue::circuit::{check_circuit, circuit_path, move_indices, read_circuit};
    use cubelab::space::group::GroupSpace;
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("data");
    let spec = spec(Puzzle::Cube, "U R", GroupMetric::Qtm);
    let (read_spec, moves) = read_circuit(&circuit_path(&dir, &spec)).expect("the circuit file");
    assert_eq!(read_spec.to_string(), "3x3 <U, R> in qtm");
    assert_eq!(moves.len(), 73_483_200);
    let space = GroupSpace::new(&spec);
    let indices = move_indices(&spec, &moves).expect("moves of the group");
    check_circuit(&space, &indices).expect("a circuit");
}
