//! stats goal ll: the exact distribution of the last layer's optimal lengths over its 62,208
//! positions, by the optimal solver, one position of each symmetry class.

use super::goal::GoalArgs;
use crate::report::chart::{Bars, ChartFormat, Labels, Scale, bars_and_marks};
use cubelab::catalogue::published::last_layer_htm;
use cubelab::model::cube::Metric;
use cubelab::solving::goal::{LAST_LAYER, POSITIONS, histograms, last_layer_table};
use cubelab::support::units::{mean_depth, progress_bar, thousands};
use std::path::Path;

pub fn last_layer(data_dir: &Path, args: &GoalArgs) -> Result<bool, String> {
    if args.random.is_some() || args.scrambles.is_some() {
        return Err(format!(
            "ll's distribution is exact over all {} last-layer positions: drop --random and --scrambles (solve --goal ll answers single positions)",
            thousands(POSITIONS as u64)
        ));
    }
    let chart_format = args
        .chart
        .map(ChartFormat::of_path)
        .transpose()
        .map_err(|e| e.to_string())?;
    let metric = args.metric.unwrap_or(Metric::Htm);
    // The first run solves the classes (minutes) and keeps the table; later ones read it.
    let bar = progress_bar(0, &format!("ll {metric}"));
    let started = std::time::Instant::now();
    let table = last_layer_table(data_dir, metric, &bar);
    bar.finish_and_clear();
    let table = table.map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    let (classes, lengths) = table.class_lengths();
    let (histogram, class_histogram) = histograms(classes, &lengths);
    // Norskog's counts are HTM's; a QTM run has nothing published to meet.
    let published = (metric == Metric::Htm).then(last_layer_htm);
    let agrees = published.as_ref().map(|(positions, counts)| {
        trimmed(positions) == trimmed(&histogram) && trimmed(counts) == trimmed(&class_histogram)
    });
    if args.json {
        let line = serde_json::json!({
            "goal": LAST_LAYER,
            "metric": metric,
            "states": POSITIONS,
            "classes": classes.len(),
            "histogram": histogram,
            "class_histogram": class_histogram,
            "mean": mean_depth(&histogram),
            "seconds": seconds,
            "table": table.path(),
            "equals_published": agrees,
        });
        crate::outln!("{line}")?;
    } else {
        crate::outln!(
            "goal ll (the last layer: the whole cube solved from its first two layers), {metric}: {} positions in {} classes, mean {:.4}, at most {}, {:.1} s",
            thousands(POSITIONS as u64),
            thousands(classes.len() as u64),
            mean_depth(&histogram),
            histogram.len().saturating_sub(1),
            seconds
        )?;
        crate::outln!("  length   positions  classes    share")?;
        for (length, (&count, &class_count)) in histogram.iter().zip(&class_histogram).enumerate() {
            crate::outln!(
                "  {length:>6} {:>11} {:>8} {:>7.3}%",
                thousands(count),
                thousands(class_count),
                100.0 * count as f64 / POSITIONS as f64
            )?;
        }
        match agrees {
            Some(true) => crate::outln!(
                "equal, position by position count and class by class, to Norskog's published distribution (2009)"
            )?,
            Some(false) => crate::outln!(
                "DIFFERS from Norskog's published distribution (2009): a defect, please report it"
            )?,
            None => {}
        }
    }
    if let (Some(path), Some(format)) = (args.chart, chart_format) {
        let bars = [Bars {
            name: metric.to_string(),
            values: histogram
                .iter()
                .map(|&c| c as f64 / POSITIONS as f64)
                .collect(),
            intervals: Vec::new(),
        }];
        let labels = Labels {
            title: "ll: optimal lengths of the 62,208 last-layer positions",
            x: "optimal length (moves)",
            y: "share of positions",
        };
        bars_and_marks(path, format, &labels, &bars, &[], Scale::Percent)
            .map_err(|e| e.to_string())?;
        crate::outln!("{}", path.display())?;
    }
    Ok(agrees != Some(false))
}

/// `counts` without its trailing zeros.
fn trimmed(counts: &[u64]) -> &[u64] {
    let end = counts.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1);
    &counts[..end]
}
