//! The whole 2x2x2 by breadth-first search, checked against the published distributions, in both
//! table encodings.

use crate::common;

use cubelab::bfs::breadth_first;
use cubelab::model::cube::{Cube2, Metric};
use cubelab::packing::{Encoding, entry, nibble};
use cubelab::search::descent::{descend, exact_distance};
use cubelab::space::pocket::{PocketSpace, STATES, rank};
use indicatif::ProgressBar;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

fn check(metric: Metric, reference: &str, god: usize) {
    let space = PocketSpace::new(metric);
    let exact = breadth_first(&space, Encoding::Nibble, &ProgressBar::hidden()).unwrap();
    assert_eq!(exact.histogram, common::reference_histogram(reference));
    assert_eq!(exact.histogram.len() - 1, god);
    assert_eq!(exact.histogram.iter().sum::<u64>(), STATES);
    // The 2-bit build counts the same depths, stores each distance mod 3 ...
    let mod3 = breadth_first(&space, Encoding::Mod3, &ProgressBar::hidden()).unwrap();
    assert_eq!(mod3.histogram, exact.histogram);
    assert_eq!(mod3.packed.len() as u64, STATES.div_ceil(4));
    for state in (0..STATES).step_by(101) {
        let d = nibble(&exact.packed, state);
        assert_eq!(entry(Encoding::Mod3, &mod3.packed, state), d % 3);
    }
    // ... from which exact distances come back by walking down.
    let goal = rank(&Cube2::SOLVED);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..300 {
        let state = rank(&Cube2::random(&mut rng));
        let d = nibble(&exact.packed, state);
        let recovered = exact_distance(&space, Encoding::Mod3, &mod3.packed, state, goal);
        assert_eq!(recovered, Some(d));
        // A descent reaches the solved state in exactly the table distance.
        let path = descend(&space, &exact.packed, state).expect("every state is reached");
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
