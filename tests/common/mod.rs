//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// Reads a published distance distribution (`depth,count` lines, `#` comments) from tests/data.
pub fn reference_histogram(name: &str) -> Vec<u64> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut histogram = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth"))
    {
        let (depth, count) = line.split_once(',').expect("depth,count");
        assert_eq!(
            depth.trim().parse::<usize>().unwrap(),
            histogram.len(),
            "{name}: depths in order"
        );
        histogram.push(count.trim().parse::<u64>().unwrap());
    }
    histogram
}

use cubelab::cube::{Cube3, Face, Metric, Move};
use std::collections::HashMap;

/// True distances of positions near the solved cube, by meeting in the middle, independent of
/// the tables and searches under test. Every state within `radius` of solved is stored with its
/// distance; a position's distance, if at most 2 x `radius` + 1, is the least j + d over states
/// at distance d from solved that a plain depth-first search of depth j <= radius + 1 from the
/// position meets.
pub struct NearSolved {
    metric: Metric,
    radius: u8,
    ball: HashMap<Cube3, u8>,
    moves: Vec<Move>,
}

impl NearSolved {
    pub fn new(metric: Metric, radius: u8) -> NearSolved {
        let moves = metric.generators(&Face::ALL);
        let mut ball = HashMap::from([(Cube3::SOLVED, 0)]);
        let mut frontier = vec![Cube3::SOLVED];
        for depth in 1..=radius {
            let mut next = Vec::new();
            for cube in &frontier {
                for &m in &moves {
                    let n = cube.apply(m);
                    ball.entry(n).or_insert_with(|| {
                        next.push(n);
                        depth
                    });
                }
            }
            frontier = next;
        }
        NearSolved {
            metric,
            radius,
            ball,
            moves,
        }
    }

    /// The exact distance of `cube`, or `None` if it is more than 2 x radius + 1.
    pub fn distance(&self, cube: &Cube3) -> Option<u8> {
        let mut best = u8::MAX;
        self.search(cube, 0, None, &mut best);
        (best <= 2 * self.radius + 1).then_some(best)
    }

    fn search(&self, cube: &Cube3, depth: u8, last: Option<Face>, best: &mut u8) {
        if let Some(&d) = self.ball.get(cube) {
            *best = (*best).min(depth + d);
        }
        if depth > self.radius || depth + 1 >= *best {
            return;
        }
        for &m in &self.moves {
            // Same face twice running is never shorter in HTM; in QTM, U U is a half turn.
            if self.metric == Metric::Htm && last == Some(m.face()) {
                continue;
            }
            self.search(&cube.apply(m), depth + 1, Some(m.face()), best);
        }
    }
}

/// A scratch directory holding the tables of `kinds` in both metrics, built on first use.
pub struct BuiltTables {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl BuiltTables {
    pub fn build(kinds: &[cubelab::table::TableKind]) -> BuiltTables {
        let dir = tempfile::tempdir().unwrap();
        for &kind in kinds {
            for metric in Metric::BOTH {
                let id = cubelab::table::TableId::new(kind, metric);
                cubelab::pdb::build(id, dir.path(), &indicatif::ProgressBar::hidden()).unwrap();
            }
        }
        let path = dir.path().to_path_buf();
        BuiltTables { _dir: dir, path }
    }
}

/// `count` scrambles of `max_len`, `max_len - 1` and `max_len - 2` random turns of `metric`.
pub fn random_scrambles(metric: Metric, count: usize, max_len: usize, seed: u64) -> Vec<Cube3> {
    use rand::{RngExt, SeedableRng};
    let moves = metric.generators(&Face::ALL);
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..count)
        .map(|i| {
            let len = max_len - i % 3;
            let seq: Vec<Move> = (0..len)
                .map(|_| moves[rng.random_range(0..moves.len())])
                .collect();
            Cube3::from_moves(&seq)
        })
        .collect()
}

/// The dual values a heuristic hands from `parent` to each child equal those read afresh for
/// the child (what the child inherits along an axis is what it would read there).
pub fn check_inherited_dual<H: cubelab::search::heuristic::Heuristic>(
    heuristic: &H,
    parent: &Cube3,
) {
    let before = heuristic.root_dual(parent);
    for (turn, &m) in heuristic.moves().iter().enumerate() {
        let child = parent.apply(m);
        let inverse = heuristic.inverse(&child, turn as u8);
        let mut values = before;
        assert!(
            heuristic
                .dual(&inverse, turn as u8, &mut values, u8::MAX)
                .is_some()
        );
        assert_eq!(values, heuristic.root_dual(&child), "{m}");
    }
}
