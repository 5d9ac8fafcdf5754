use super::*;
use crate::space::group::GroupMetric;

fn spec(generators: &str, metric: GroupMetric) -> GroupSpec {
    GroupSpec::parse(Puzzle::Pocket, generators, metric).expect("valid generators")
}

fn circuit_of(spec: &GroupSpec) -> (GroupSpace, Vec<u8>) {
    let space = GroupSpace::new(spec);
    let moves = build_circuit(&space, spec, &ProgressBar::hidden()).expect("a circuit");
    (space, moves)
}

/// The 2x2's `<U, R>` (29,160 positions) and `<R, F>` are joined by pairs alone, and the
/// result passes the check; so does the walk from any other start, since turning commutes
/// with what was done before.
#[test]
fn two_face_groups_have_circuits() {
    for generators in ["U R", "R F"] {
        let spec = spec(generators, GroupMetric::Qtm);
        let (space, moves) = circuit_of(&spec);
        assert_eq!(moves.len(), 29_160, "{generators}");
        assert!(check_circuit(&space, &moves).is_ok(), "{generators}");
        // Every position once from another start as well: the rotation that begins there.
        let mut rotated = moves[1000..].to_vec();
        rotated.extend(&moves[..1000]);
        let mut start = 0;
        for &m in &moves[..1000] {
            start = space.step(start, usize::from(m));
        }
        let mut seen = vec![false; 29_160];
        let mut x = start;
        for &m in &rotated {
            assert!(!std::mem::replace(&mut seen[x as usize], true));
            x = space.step(x, usize::from(m));
        }
        assert_eq!(x, start);
    }
}

/// The check finds every kind of defect: a move missing, a wrong last move, two moves
/// swapped, a move the group does not have.
#[test]
fn the_check_rejects_what_is_no_circuit() {
    let spec = spec("U R", GroupMetric::Qtm);
    let (space, moves) = circuit_of(&spec);
    let short = &moves[..moves.len() - 1];
    assert!(matches!(
        check_circuit(&space, short),
        Err(CircuitError::Length {
            found: 29_159,
            expected: 29_160
        })
    ));
    let mut wrong_end = moves.clone();
    let last = wrong_end.len() - 1;
    wrong_end[last] = (wrong_end[last] + 1) % 4;
    assert!(matches!(
        check_circuit(&space, &wrong_end),
        Err(CircuitError::NotClosed | CircuitError::Revisits { .. })
    ));
    for at in [0, 5000, 29_000] {
        let mut swapped = moves.clone();
        swapped.swap(at, at + 1);
        if swapped != moves {
            assert!(check_circuit(&space, &swapped).is_err(), "swapped at {at}");
        }
    }
    let mut foreign = moves.clone();
    foreign[7] = 9;
    assert!(matches!(
        check_circuit(&space, &foreign),
        Err(CircuitError::NoSuchMove { at: 8, .. })
    ));
}

/// Only quarter turns of two or more faces with their inverses are built (in the half-turn
/// metric, the half turns it adds are left unused).
#[test]
fn unsupported_generator_sets_are_refused() {
    for (generators, metric) in [
        ("U R F", GroupMetric::Directed),
        ("U2 R2", GroupMetric::Generators),
        ("U", GroupMetric::Qtm),
        ("U2 R", GroupMetric::Htm),
    ] {
        let spec = spec(generators, metric);
        assert!(
            matches!(check_supported(&spec), Err(CircuitError::Unsupported(_))),
            "{generators} {metric:?}"
        );
    }
}

/// In the half-turn metric the circuit is one of quarter turns, as long, and passes the
/// check of that metric's group.
#[test]
fn half_turn_groups_get_circuits_of_quarter_turns() {
    let spec = spec("U R", GroupMetric::Htm);
    let (space, moves) = circuit_of(&spec);
    assert_eq!(moves.len(), 29_160);
    assert!(check_circuit(&space, &moves).is_ok());
    let turns = spec.moves();
    assert!(
        moves
            .iter()
            .all(|&m| turns[usize::from(m)].turns[0].quarter_turns() != 2)
    );
}

/// Written and read back, a circuit keeps its group and its moves.
#[test]
fn circuit_files_round_trip() {
    let spec = spec("U R", GroupMetric::Qtm);
    let (_, moves) = circuit_of(&spec);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = circuit_path(dir.path(), &spec);
    write_circuit(&path, &spec, &moves).expect("written");
    let (read_spec, read_moves) = read_circuit(&path).expect("read");
    assert_eq!(read_spec.to_string(), spec.to_string());
    assert_eq!(
        move_indices(&read_spec, &read_moves).expect("moves of the group"),
        moves
    );
}
