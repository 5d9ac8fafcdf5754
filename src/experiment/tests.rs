use super::*;

fn row(index: Option<u64>, input: &str) -> ExperimentRow {
    ExperimentRow {
        input: input.into(),
        puzzle: "2x2".into(),
        metric: "htm".into(),
        status: "optimal".into(),
        length: Some(1),
        lower_bound: None,
        nodes: None,
        seconds: 0.0,
        solution: "U".into(),
        iterations: String::new(),
        index,
        total: Some(10),
        source: Some("random 2x2 seed 1".into()),
        method: Some("optimal".into()),
    }
}

#[test]
fn shards_partition_the_positions() {
    let shards: Vec<Shard> = (0..4)
        .map(|k| Shard::parse(&format!("{k}/4")).unwrap())
        .collect();
    for position in 0..100 {
        assert_eq!(shards.iter().filter(|s| s.keeps(position)).count(), 1);
    }
    assert!(Shard::WHOLE.keeps(12345));
    assert_eq!(Shard::parse(" 3 / 8 ").unwrap().to_string(), "3/8");
    for bad in ["4/4", "0/0", "-1/4", "1", "1/2/3", "", "a/4"] {
        assert!(Shard::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn merge_orders_positions_and_finds_gaps_and_repeats() {
    let rows = [9, 0, 3, 4, 3, 5]
        .iter()
        .map(|&i| row(Some(i), &format!("p{i}")))
        .chain([row(None, "old")])
        .collect();
    let merged = merge(rows).unwrap();
    let order: Vec<Option<u64>> = merged.rows.iter().map(|r| r.index).collect();
    assert_eq!(
        order,
        [Some(0), Some(3), Some(4), Some(5), Some(9), None].to_vec()
    );
    assert_eq!(merged.missing, vec![1..=2, 6..=8]);
    assert_eq!(merged.missing_count(), 5);
    assert_eq!(merged.duplicated, vec![(3, 2)]);
    assert_eq!(merged.unindexed, 1);
    let whole = merge((0..10).map(|i| row(Some(i), "x")).collect()).unwrap();
    assert!(whole.missing.is_empty() && whole.duplicated.is_empty());
    assert_eq!(whole.total, Some(10));
}

#[test]
fn merge_refuses_rows_of_other_experiments() {
    let mut other = row(Some(2), "p2");
    other.source = Some("random 2x2 seed 2".into());
    let mixed = merge(vec![row(Some(1), "p1"), other]);
    assert!(matches!(mixed, Err(ExperimentError::Mixed { .. })));
    let conflict = merge(vec![row(Some(1), "p1"), row(Some(1), "q1")]);
    assert!(matches!(
        conflict,
        Err(ExperimentError::Conflict { index: 1, .. })
    ));
    let beyond = merge(vec![row(Some(10), "p10")]);
    assert!(matches!(
        beyond,
        Err(ExperimentError::Beyond {
            index: 10,
            total: 10
        })
    ));
}

/// A row is checked as `solve` writes rows: a status its method can end in, iterations of
/// three numbers each.
#[test]
fn rows_solve_cannot_write_are_refused() {
    let good = row(Some(0), "R U");
    assert_eq!(good.check(), Ok(()));
    let with = |status: &str, method: &str| ExperimentRow {
        status: status.into(),
        method: Some(method.into()),
        ..row(Some(0), "R U")
    };
    for (status, method) in [
        ("solved", "optimal"),
        ("found", "optimal"),
        ("optimal", "layers"),
    ] {
        let refused = with(status, method).check().unwrap_err();
        assert!(refused.contains("is not what the method"), "{refused}");
    }
    assert_eq!(with("solved", "layers").check(), Ok(()));
    assert_eq!(with("found", "two-phase").check(), Ok(()));
    let broken = ExperimentRow {
        iterations: "1:2".into(),
        ..row(Some(0), "R U")
    };
    assert!(broken.check().unwrap_err().contains("bound:nodes:seconds"));
}

/// Rows name the cubes or a KPuzzle definition; a definition's name is made fit for a row, and
/// anything else in the column is refused.
#[test]
fn rows_name_a_cube_or_a_definition() {
    let named = |puzzle: &str| ExperimentRow {
        puzzle: puzzle.into(),
        ..row(Some(0), "U")
    };
    for good in [
        "2x2",
        "3x3",
        "pyraminx",
        "hand_2x2x2",
        "master-tetraminx",
        "",
    ] {
        assert_eq!(named(good).check(), Ok(()), "{good}");
    }
    let too_long = "x".repeat(65);
    for bad in ["hand 2x2x2", "a,b", "é", "new\nline", too_long.as_str()] {
        let refused = named(bad).check().unwrap_err();
        assert!(refused.contains("column 'puzzle'"), "{bad}: {refused}");
    }
    assert_eq!(row_puzzle_name("hand 2x2x2"), "hand_2x2x2");
    assert_eq!(row_puzzle_name("Baby FTO (é)"), "Baby_FTO____");
    assert_eq!(row_puzzle_name(&"y".repeat(100)).len(), 64);
    for name in ["hand 2x2x2", "Baby FTO (é)", &"y".repeat(100)] {
        assert_eq!(named(&row_puzzle_name(name)).check(), Ok(()), "{name}");
    }
    assert_eq!("2/5".parse::<Shard>(), Shard::parse("2/5"));
}
