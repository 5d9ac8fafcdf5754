//! The whole 2x2x2 by breadth-first search, checked against the published distributions.

mod common;

use cubelab::bfs::breadth_first;
use cubelab::cube::{Cube2, Metric};
use cubelab::pdb::pocket::{PocketSpace, STATES, rank};
use cubelab::search::descent::descend;
use indicatif::ProgressBar;

fn check(metric: Metric, reference: &str, god: usize) {
    let space = PocketSpace::new(metric);
    let outcome = breadth_first(&space, &ProgressBar::hidden()).unwrap();
    assert_eq!(outcome.histogram, common::reference_histogram(reference));
    assert_eq!(outcome.histogram.len() - 1, god);
    assert_eq!(outcome.histogram.iter().sum::<u64>(), STATES);
    // A descent from a random state reaches the solved state in exactly its table distance.
    let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(7);
    for _ in 0..200 {
        let cube = Cube2::random(&mut rng);
        let path = descend(&space, &outcome.packed, rank(&cube)).expect("every state is reached");
        let solved = path.iter().fold(cube, |c, &t| c.apply(space.moves()[t]));
        assert!(solved.is_solved());
        let d = cubelab::table::nibble(&outcome.packed, rank(&cube));
        assert_eq!(path.len(), usize::from(d));
    }
}

#[test]
fn pocket_htm_matches_published_counts() {
    check(Metric::Htm, "pocket_htm.csv", 11);
}

#[test]
fn pocket_qtm_matches_published_counts() {
    check(Metric::Qtm, "pocket_qtm.csv", 14);
}
