//! `stats experiment`: a summary of solved positions, shards merged and their coverage checked.

use super::*;

/// Summarises the experiment in `files` (shards merged); false if a position is missing or
/// answered twice.
pub(super) fn experiment(
    files: &[PathBuf],
    merged_out: Option<&std::path::Path>,
    output: ExperimentOutput,
) -> Result<bool, String> {
    let merged = read_merged(files).map_err(|e| e.to_string())?;
    if let Some(path) = merged_out {
        // Replaced, not appended to: a merge run twice gives the same file.
        if path.exists() {
            std::fs::remove_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        let mut writer = ExperimentWriter::append(path).map_err(|e| e.to_string())?;
        for row in &merged.rows {
            writer.write(row).map_err(|e| e.to_string())?;
        }
    }
    let summary = summarise(&merged.rows);
    let coverage = coverage_lines(&merged);
    match output {
        ExperimentOutput::Json => {
            let mut value = serde_json::to_value(&summary).map_err(|e| e.to_string())?;
            value["total"] = merged.total.into();
            value["missing"] = merged.missing_count().into();
            value["missing_ranges"] = merged
                .missing
                .iter()
                .map(|r| serde_json::json!([r.start(), r.end()]))
                .collect();
            value["duplicated"] = merged
                .duplicated
                .iter()
                .map(|(index, times)| serde_json::json!({"index": index, "times": times}))
                .collect();
            value["unindexed"] = merged.unindexed.into();
            crate::outln!("{value}")?;
        }
        ExperimentOutput::Markdown => {
            for line in &coverage {
                crate::outln!("{line}")?;
            }
            if !coverage.is_empty() {
                crate::outln!()?;
            }
            crate::out!("{}", markdown(&summary))?;
        }
        ExperimentOutput::Text => {
            let name = match files {
                [one] => one.display().to_string(),
                many => format!("{} files", many.len()),
            };
            print_experiment(&name, &summary)?;
            for line in &coverage {
                eprintln!("stats: {line}");
            }
        }
    }
    Ok(merged.missing.is_empty() && merged.duplicated.is_empty())
}

/// What is wrong with the experiment's coverage, a line each; none if every position is
/// answered once.
pub(super) fn coverage_lines(merged: &Merged) -> Vec<String> {
    let mut lines = Vec::new();
    if !merged.missing.is_empty() {
        let runs: Vec<String> = merged
            .missing
            .iter()
            .take(20)
            .map(|r| match r.end() - r.start() {
                0 => r.start().to_string(),
                _ => format!("{}-{}", r.start(), r.end()),
            })
            .collect();
        let more = if merged.missing.len() > 20 {
            ", ..."
        } else {
            ""
        };
        lines.push(format!(
            "{} of the experiment's {} positions were not solved by any file (indices {}{more}); run the shards that wrote them again",
            merged.missing_count(),
            merged.total.unwrap_or(0),
            runs.join(", ")
        ));
    }
    if !merged.duplicated.is_empty() {
        let shown: Vec<String> = merged
            .duplicated
            .iter()
            .take(20)
            .map(|(index, times)| format!("{index} ({times} times)"))
            .collect();
        let more = if merged.duplicated.len() > 20 {
            ", ..."
        } else {
            ""
        };
        lines.push(format!(
            "{} positions were answered more than once (indices {}{more}); each is counted once, from its first row",
            merged.duplicated.len(),
            shown.join(", ")
        ));
    }
    if merged.unindexed > 0 {
        lines.push(format!(
            "{} rows carry no index (written before `solve --shard`), so gaps among them cannot be found",
            merged.unindexed
        ));
    }
    lines
}

pub(super) enum ExperimentOutput {
    Text,
    Json,
    Markdown,
}

pub(super) fn print_experiment(name: &str, summary: &ExperimentSummary) -> Result<(), String> {
    crate::outln!("{name}: {} positions", summary.positions)?;
    for group in &summary.groups {
        crate::outln!()?;
        crate::outln!(
            "{} {}: {} positions",
            group.puzzle,
            group.metric,
            group.positions
        )?;
        for (status, n) in &group.by_status {
            crate::outln!("  {status}: {n}")?;
        }
        if !group.lower_bounds.is_empty() {
            crate::outln!(
                "  proven lower bounds of the others: {:?}",
                group.lower_bounds
            )?;
        }
        crate::outln!(
            "  {:>6} {:>9} {:>15} {:>15} {:>15} {:>11} {:>11} {:>11} {:>11}",
            "length",
            "positions",
            "mean nodes",
            "min nodes",
            "max nodes",
            "mean time",
            "median",
            "min",
            "max"
        )?;
        for s in &group.by_length {
            let nodes = |v: Option<f64>| v.map_or("-".to_string(), |n| thousands(n.round() as u64));
            let t = s.seconds;
            crate::outln!(
                "  {:>6} {:>9} {:>15} {:>15} {:>15} {:>11} {:>11} {:>11} {:>11}",
                s.length,
                s.positions,
                nodes(s.nodes.map(|n| n.mean)),
                nodes(s.nodes.map(|n| n.min)),
                nodes(s.nodes.map(|n| n.max)),
                format_seconds(t.mean),
                format_seconds(t.median),
                format_seconds(t.min),
                format_seconds(t.max),
            )?;
        }
        if let Some(published) = &group.published {
            crate::outln!("  against {}:", published.source)?;
            crate::outln!(
                "  {:>6} {:>9} {:>9} {:>21} {:>10}",
                "length",
                "positions",
                "share",
                "95% interval",
                "published"
            )?;
            for r in &published.rows {
                crate::outln!(
                    "  {:>6} {:>9} {:>9} {:>21} {:>10}{}",
                    r.length,
                    r.positions,
                    percent(r.share),
                    format!("{} - {}", percent(r.low), percent(r.high)),
                    percent(r.published_share),
                    if r.agrees { "" } else { "  (outside)" }
                )?;
            }
        }
    }
    Ok(())
}
