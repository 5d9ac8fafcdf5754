//! `stats cosets`: runs of `cubelab coset` merged into one table, charted, and checked against a
//! published distribution.

use super::*;
use cubelab::experiment::coset_runs::{MergedCosets, check_run, merge, read_reference, read_runs};

/// What `stats cosets` does besides printing the merged table.
pub(super) struct CosetsArgs<'a> {
    pub files: &'a [PathBuf],
    pub json: bool,
    pub chart: Option<&'a std::path::Path>,
    /// A published distribution (CSV file) and the column holding it.
    pub reference: Option<(&'a std::path::Path, usize)>,
}

/// Merges the runs; false (exit 1) if a class was run twice or the exact counts differ from
/// the reference.
pub(super) fn cosets(args: &CosetsArgs) -> Result<bool, String> {
    let runs = read_runs(args.files).map_err(|e| e.to_string())?;
    // Numbering the classes takes a second: once for every run.
    let list = cubelab::solving::coset::CosetList::new();
    for run in &runs {
        check_run(run, &list).map_err(|e| e.to_string())?;
    }
    let merged = merge(&runs);
    let reference = match args.reference {
        Some((path, column)) => Some(read_reference(path, column).map_err(|e| e.to_string())?),
        None => None,
    };
    // A run to a lower depth than the reference's agrees if it equals the reference's start.
    let agrees = reference
        .as_ref()
        .map(|r| !merged.counts.is_empty() && r.starts_with(&merged.counts));
    if args.json {
        let mut value = serde_json::to_value(&merged).map_err(|e| e.to_string())?;
        value["equals_reference"] = agrees.into();
        crate::outln!("{value}")?;
    } else {
        print_merged(&merged, reference.as_deref())?;
    }
    if let Some(path) = args.chart {
        chart(path, &merged, reference.as_deref(), args.reference)?;
    }
    if !merged.repeated.is_empty() {
        eprintln!(
            "stats: classes run more than once (their first runs counted): {:?}",
            merged.repeated
        );
    }
    Ok(merged.repeated.is_empty() && agrees != Some(false))
}

fn print_merged(merged: &MergedCosets, reference: Option<&[u64]>) -> Result<(), String> {
    crate::outln!(
        "{} run{} standing for {} coset{}, distances in {}; {:.1} s in all",
        merged.runs,
        if merged.runs == 1 { "" } else { "s" },
        thousands(merged.cosets),
        if merged.cosets == 1 { "" } else { "s" },
        merged.metric.name().to_uppercase(),
        merged.seconds
    )?;
    crate::outln!(
        "{:>5}  {:>16}  {:>26}  {:>16}",
        "depth",
        "exact count",
        "in the cosets stood for",
        "reached"
    )?;
    for (depth, &reached) in merged.reached.iter().enumerate() {
        let exact = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
        crate::outln!(
            "{depth:>5}  {:>16}  {:>26}  {:>16}",
            exact(merged.counts.get(depth).map(|&c| thousands(c))),
            exact(merged.weighted.get(depth).map(|&c| thousands(c))),
            thousands(reached)
        )?;
    }
    match merged.bound {
        Some(bound) => crate::outln!("every position within {bound} moves")?,
        None => crate::outln!("{} positions not reached", thousands(merged.unsolved))?,
    }
    if let Some(reference) = reference {
        if !merged.counts.is_empty() && reference.starts_with(&merged.counts) {
            crate::outln!(
                "the exact counts equal the reference's at depths 0 to {} (the reference's last depth is {})",
                merged.counts.len() - 1,
                reference.len().saturating_sub(1)
            )?;
        } else {
            let first = (0..reference.len().max(merged.counts.len()))
                .find(|&d| reference.get(d) != merged.counts.get(d))
                .unwrap_or(0);
            crate::outln!(
                "the exact counts DIFFER from the reference, first at depth {first}: {:?} against {:?}",
                merged.counts.get(first),
                reference.get(first)
            )?;
        }
    }
    Ok(())
}

/// A log-scale bar chart of the merged exact counts, beside the reference's where given.
fn chart(
    path: &std::path::Path,
    merged: &MergedCosets,
    reference: Option<&[u64]>,
    named: Option<(&std::path::Path, usize)>,
) -> Result<(), String> {
    let format = match path.extension().and_then(|e| e.to_str()) {
        Some("png") => ChartFormat::Png,
        Some("svg") => ChartFormat::Svg,
        _ => {
            return Err(format!(
                "--chart {}: name a .png or .svg file",
                path.display()
            ));
        }
    };
    let mut series = vec![Series {
        name: format!(
            "ours ({} run{})",
            merged.runs,
            if merged.runs == 1 { "" } else { "s" }
        ),
        histogram: merged.counts.clone(),
    }];
    if let (Some(reference), Some((file, _))) = (reference, named) {
        let name = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        series.push(Series {
            name: format!("published ({name})"),
            histogram: reference.to_vec(),
        });
    }
    let labels = Labels {
        title: "positions of the cosets by exact distance (HTM)",
        x: "distance (moves)",
        y: "positions (log scale)",
    };
    bar_chart(path, format, &labels, &series, true).map_err(|e| e.to_string())
}
