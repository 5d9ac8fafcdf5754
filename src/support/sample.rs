//! A sample's shares with their 95% intervals, set beside a published distribution: how a
//! random-state experiment is read against Rokicki's three million optimally solved positions.

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wilson's 95% score interval for a share `hits / n`: unlike the normal approximation it stays
/// inside [0, 1] and is not zero-width when `hits` is 0 or `n`, which is where a small sample's
/// rare lengths (13, 19 moves) fall.
pub fn wilson_95(hits: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (hits as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    // At the ends the interval reaches 0 or 1 exactly, not a rounding error away.
    let low = if hits == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if hits as f64 == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// One length of a sample beside the published share.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ShareRow {
    pub length: usize,
    pub positions: u64,
    pub share: f64,
    /// Wilson's 95% interval of the share.
    pub low: f64,
    pub high: f64,
    pub published_share: f64,
    /// Whether the published share lies in the interval.
    pub agrees: bool,
}

/// The sample's count at each length (index = length) beside `published` counts: one row per
/// length either has.
pub fn compare(sample: &[u64], published: &[u64]) -> Vec<ShareRow> {
    let n: u64 = sample.iter().sum();
    let total: u64 = published.iter().sum();
    let lengths = sample.len().max(published.len());
    (0..lengths)
        .filter(|&l| {
            sample.get(l).copied().unwrap_or(0) > 0 || published.get(l).copied().unwrap_or(0) > 0
        })
        .map(|length| {
            let positions = sample.get(length).copied().unwrap_or(0);
            let (low, high) = wilson_95(positions, n);
            let published_share =
                published.get(length).copied().unwrap_or(0) as f64 / total.max(1) as f64;
            ShareRow {
                length,
                positions,
                share: positions as f64 / n.max(1) as f64,
                low,
                high,
                published_share,
                agrees: (low..=high).contains(&published_share),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_worked_values() {
        // 10 of 100: Wilson's interval is [0.0552, 0.1744] (e.g. Newcombe 1998, method 3).
        let (low, high) = wilson_95(10, 100);
        assert!(
            (low - 0.0552).abs() < 5e-4 && (high - 0.1744).abs() < 5e-4,
            "{low} {high}"
        );
        // None of 10: from 0 up to 0.2775, not the empty interval of p ± 1.96 σ.
        let (low, high) = wilson_95(0, 10);
        assert_eq!(low, 0.0);
        assert!((high - 0.2775).abs() < 5e-4, "{high}");
        let (low, high) = wilson_95(10, 10);
        assert!((low - 0.7225).abs() < 5e-4 && high == 1.0);
        assert_eq!(wilson_95(0, 0), (0.0, 1.0));
    }

    #[test]
    fn a_sample_drawn_in_the_published_proportions_agrees_everywhere() {
        let published = [0, 0, 10, 60, 30];
        let rows = compare(&[0, 0, 1, 6, 3], &published);
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r.agrees));
        assert_eq!(rows[1].length, 3);
        assert!((rows[1].share - 0.6).abs() < 1e-12);
        // A length the sample lacks is still listed; one the published lacks too.
        let rows = compare(&[0, 0, 0, 0, 0, 100], &published);
        assert_eq!(
            rows.iter().map(|r| r.length).collect::<Vec<_>>(),
            [2, 3, 4, 5]
        );
        assert!(!rows[3].agrees && !rows[1].agrees);
    }
}
