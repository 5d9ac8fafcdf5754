//! Published distance distributions that tables are checked against: the 2x2x2 (OEIS A079761,
//! A079762, and with clockwise turns only A152169), the 3x3x3 corners in HTM (Korf 1997), the
//! phase-1 cosets in both metrics (Dik Winter 1992, Michael Reid 1995; the symmetry-reduced table's
//! entries weighted by the positions each stands for), the squares group (OEIS
//! A080627), `<U, R>` in quarter turns (A080628) and the last layer's optimal lengths (Norskog
//! 2009). The files are the test data's own.

use crate::catalogue::{TableId, TableKind};
use crate::model::cube::Metric;
use crate::model::notation::format_moves;
use crate::space::group::{GroupMetric, GroupSpec};

const POCKET_HTM: &str = include_str!("../../tests/data/pocket_htm.csv");
const POCKET_QTM: &str = include_str!("../../tests/data/pocket_qtm.csv");
const CORNERS_HTM: &str = include_str!("../../tests/data/corners_htm.csv");
const PHASE1_HTM: &str = include_str!("../../tests/data/phase1_htm.csv");
const PHASE1_QTM: &str = include_str!("../../tests/data/phase1_qtm.csv");
const SQUARES: &str = include_str!("../../tests/data/squares_generators.csv");
const UR_QTM: &str = include_str!("../../tests/data/ur_qtm.csv");
const POCKET_DIRECTED: &str = include_str!("../../tests/data/pocket_directed.csv");
const RANDOM_3X3: &str = include_str!("../../tests/data/random_3x3.csv");
const LAST_LAYER_HTM: &str = include_str!("../../tests/data/last_layer_htm.csv");

/// The published optimal lengths of the 62,208 last-layer positions in HTM (Norskog 2009):
/// `(positions, classes)` at each length, the classes under the eight symmetries that keep U
/// on top.
pub fn last_layer_htm() -> (Vec<u64>, Vec<u64>) {
    (
        parse_column(LAST_LAYER_HTM, 1),
        parse_column(LAST_LAYER_HTM, 2),
    )
}

/// The optimal lengths of uniformly random positions that an experiment's sample is read
/// against: counts at each length, and where they come from.
pub struct RandomLengths {
    pub counts: Vec<u64>,
    pub source: &'static str,
    /// Whether `counts` is the whole space (the 2x2), not a sample of it.
    pub exact: bool,
}

/// The published distribution of random positions' optimal lengths for `puzzle` ("2x2" or
/// "3x3", as experiments name them) in `metric`: for the 2x2 the whole space's (every state
/// equally likely), for the 3x3 Rokicki's three million random positions.
pub fn random_lengths(puzzle: &str, metric: Metric) -> Option<RandomLengths> {
    match puzzle {
        "2x2" => Some(RandomLengths {
            counts: published_histogram(TableId::new(TableKind::Pocket, metric))?,
            source: "all 3,674,160 states",
            exact: true,
        }),
        "3x3" => {
            let column = match metric {
                Metric::Htm => 1,
                Metric::Qtm => 2,
            };
            Some(RandomLengths {
                counts: parse_column(RANDOM_3X3, column),
                source: "Rokicki's 3,000,000 random positions",
                exact: false,
            })
        }
        _ => None,
    }
}

/// The published count of states at each depth for table `id`, where one is known.
pub fn published_histogram(id: TableId) -> Option<Vec<u64>> {
    let text = match (id.kind, id.metric) {
        (TableKind::Pocket, Metric::Htm) => POCKET_HTM,
        (TableKind::Pocket, Metric::Qtm) => POCKET_QTM,
        (TableKind::Corners, Metric::Htm) => CORNERS_HTM,
        (TableKind::Phase1 | TableKind::Phase1Sym, Metric::Htm) => PHASE1_HTM,
        (TableKind::Phase1 | TableKind::Phase1Sym, Metric::Qtm) => PHASE1_QTM,
        _ => return None,
    };
    Some(parse(text))
}

/// The published distribution of a subgroup's distances, where one is known: its generators
/// compared as a set, in the metric the count was made in.
pub fn published_group_histogram(spec: &GroupSpec) -> Option<Vec<u64>> {
    use GroupMetric::*;
    let mut generators: Vec<String> = spec.generators.iter().map(|g| format_moves(g)).collect();
    generators.sort();
    let generators = generators.join(" ");
    let text = match (spec.puzzle.as_str(), generators.as_str(), spec.metric) {
        ("3x3", "B2 D2 F2 L2 R2 U2", Generators | Htm) => SQUARES,
        ("3x3", "R U", Generators | Qtm) => UR_QTM,
        ("2x2", "F R U", Generators | Qtm) => POCKET_QTM,
        ("2x2", "F R U", Htm) => POCKET_HTM,
        ("2x2", "F R U", Directed) => POCKET_DIRECTED,
        _ => return None,
    };
    Some(parse(text))
}

/// `depth,count` lines after a header and `#` comments; the files are ours and fixed.
fn parse(text: &str) -> Vec<u64> {
    parse_column(text, 1)
}

/// Column `column` (0 = depth) of `depth,count,...` lines, as [`parse`] reads them.
fn parse_column(text: &str, column: usize) -> Vec<u64> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth") && !l.trim().is_empty())
        .filter_map(|l| l.split(',').nth(column).and_then(|n| n.trim().parse().ok()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_distributions_sum_to_their_spaces() {
        let pocket = TableId::new(TableKind::Pocket, Metric::Qtm);
        assert_eq!(
            published_histogram(pocket).unwrap().iter().sum::<u64>(),
            3_674_160
        );
        let corners = TableId::new(TableKind::Corners, Metric::Htm);
        assert_eq!(
            published_histogram(corners).unwrap().iter().sum::<u64>(),
            88_179_840
        );
        for metric in Metric::BOTH {
            let phase1 = TableId::new(TableKind::Phase1, metric);
            assert_eq!(
                published_histogram(phase1).unwrap().iter().sum::<u64>(),
                crate::space::phase1::STATES
            );
        }
        assert!(published_histogram(TableId::new(TableKind::Edges7, Metric::Htm)).is_none());
    }

    #[test]
    fn the_random_samples_have_their_published_sizes_and_means() {
        for (metric, mean) in [(Metric::Htm, 17.706), (Metric::Qtm, 20.663)] {
            let sample = random_lengths("3x3", metric).unwrap();
            let n: u64 = sample.counts.iter().sum();
            assert_eq!(n, 3_000_000);
            let sum: u64 = sample
                .counts
                .iter()
                .enumerate()
                .map(|(l, &c)| l as u64 * c)
                .sum();
            assert!((sum as f64 / n as f64 - mean).abs() < 5e-4, "{metric:?}");
        }
        let pocket = random_lengths("2x2", Metric::Htm).unwrap();
        assert!(pocket.exact);
        assert_eq!(pocket.counts.len(), 12);
        assert!(random_lengths("4x4", Metric::Htm).is_none());
    }
}
