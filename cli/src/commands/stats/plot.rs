//! `stats plot`: charts of the tables' distributions and of experiments.

use super::*;

/// What a table kind's chart is called and says.
pub(super) fn chart_title(kind: TableKind) -> (&'static str, String) {
    let entries = thousands(cubelab::catalogue::entries(kind));
    match kind {
        TableKind::Pocket => (
            "2x2",
            format!("2x2x2: positions at each distance ({entries} states, DBL fixed)"),
        ),
        TableKind::Corners => (
            "corners",
            format!("3x3x3 corner database ({entries} entries)"),
        ),
        TableKind::Edges6 => (
            "edges6",
            format!("3x3x3 6-edge database ({entries} entries)"),
        ),
        TableKind::Edges7 => (
            "edges7",
            format!("3x3x3 7-edge database ({entries} entries)"),
        ),
        TableKind::Phase1 => (
            "phase1",
            format!("3x3x3 phase-1 database ({entries} entries)"),
        ),
        other => (
            other.name(),
            format!("3x3x3 {} coset database ({entries} entries)", other.name()),
        ),
    }
}

/// A distribution's two charts, on a linear and on a logarithmic count axis, with the
/// published counts marked over the series they are of: how many written.
pub(super) fn draw_distribution(
    out: &std::path::Path,
    format: ChartFormat,
    stem: &str,
    title: &str,
    series: &[Series],
    published: &[Marks],
) -> Result<usize, String> {
    let bars: Vec<Bars> = series.iter().map(Bars::of).collect();
    for (suffix, scale) in [("", Scale::Count), ("-log", Scale::LogCount)] {
        let path = out.join(format!(
            "{stem}-distribution{suffix}.{}",
            format.extension()
        ));
        let labels = Labels {
            title,
            x: "distance from solved (moves)",
            y: match scale {
                Scale::LogCount => "positions (log scale)",
                _ => "positions",
            },
        };
        bars_and_marks(&path, format, &labels, &bars, published, scale)
            .map_err(|e| e.to_string())?;
        crate::outln!("{}", path.display())?;
    }
    Ok(2)
}

pub(super) fn plot(
    dir: &std::path::Path,
    out: &std::path::Path,
    format: ChartFormat,
    experiments: &[PathBuf],
    gods_runs: &[PathBuf],
) -> Result<bool, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut ok = true;
    let mut written = 0;
    for kind in TableKind::ALL {
        let mut series = Vec::new();
        let mut published = Vec::new();
        for metric in Metric::BOTH {
            // The table in its kind's own encoding if present, else a mod-3 one (whose depths
            // were counted at build).
            let own = TableId::new(kind, metric);
            let id = [own, own.with_encoding(Encoding::Mod3)]
                .into_iter()
                .find(|id| id.path(dir).exists());
            let Some(id) = id else { continue };
            let table = id.open(dir, Verify::IfNew).map_err(|e| e.to_string())?;
            let checked = checked_histogram(&table);
            for problem in &checked.problems {
                eprintln!("stats: MISMATCH: {}: {problem}", id.name());
                ok = false;
            }
            let name = match metric {
                Metric::Htm => "HTM (half turns count 1)",
                Metric::Qtm => "QTM (quarter turns count 1)",
            };
            if let Some(counts) = published_histogram(own) {
                published.push(Marks {
                    name: format!("published ({})", metric.name().to_uppercase()),
                    over: series.len(),
                    values: counts.iter().map(|&c| c as f64).collect(),
                });
            }
            series.push(Series {
                name: name.to_string(),
                histogram: checked.histogram,
            });
        }
        if series.is_empty() {
            continue;
        }
        let (stem, title) = chart_title(kind);
        written += draw_distribution(out, format, stem, &title, &series, &published)?;
    }
    for path in group::present_tables(dir) {
        let table = Table::open_path(&path, "gen-tables --generators", Verify::IfNew)
            .map_err(|e| e.to_string())?;
        let Some(group) = GroupHeader::of(table.header()) else {
            continue;
        };
        let checked = checked_histogram(&table);
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("group");
        for problem in &checked.problems {
            eprintln!("stats: MISMATCH: {stem}: {problem}");
            ok = false;
        }
        let series = [Series {
            name: format!("distances in {}", group.spec.metric.name()),
            histogram: checked.histogram,
        }];
        let title = format!(
            "The group {}: positions at each distance ({} positions)",
            group.spec,
            thousands(group.order)
        );
        let published: Vec<Marks> = published_group_histogram(&group.spec)
            .map(|counts| Marks {
                name: "published".into(),
                over: 0,
                values: counts.iter().map(|&c| c as f64).collect(),
            })
            .into_iter()
            .collect();
        written += draw_distribution(out, format, stem, &title, &series, &published)?;
    }
    for file in experiments {
        written += plot_experiment(file, out, format)?;
    }
    for file in gods_runs {
        written += plot_gods(file, out, format)?;
    }
    if written == 0 {
        return Err(format!(
            "no tables in {}; build them with `gen-tables --data-dir {}`",
            dir.display(),
            dir.display()
        ));
    }
    Ok(ok)
}

/// What `cubelab puzzle gods --json` writes that a chart reads.
#[derive(serde::Deserialize)]
struct GodsRun {
    puzzle: String,
    generators: Vec<String>,
    metric: String,
    counts: Vec<u64>,
    total: u64,
}

/// The two charts (linear and logarithmic counts) of the God's-algorithm run saved in `file`:
/// `puzzle-NAME-MOVES-distribution.*`. The counts must sum to the run's total.
fn plot_gods(
    file: &std::path::Path,
    out: &std::path::Path,
    format: ChartFormat,
) -> Result<usize, String> {
    let shown = file.display();
    // A FIFO or a device is never opened (opening would wait for a writer), and a run's JSON
    // is a few kilobytes: a file of 64 MiB or more is no such output.
    let meta = std::fs::metadata(file).map_err(|e| format!("--gods {shown}: {e}"))?;
    if !meta.is_file() || meta.len() >= 64 << 20 {
        return Err(format!(
            "--gods {shown}: give the file `cubelab puzzle gods ... --json > FILE` wrote (a regular file under 64 MiB)"
        ));
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("--gods {shown}: {e}"))?;
    let run: GodsRun = serde_json::from_str(text.trim()).map_err(|e| {
        format!("--gods {shown} is not the output of `cubelab puzzle gods --json`: {e}")
    })?;
    let summed = run
        .counts
        .iter()
        .try_fold(0u64, |sum, &c| sum.checked_add(c));
    if summed != Some(run.total) || run.counts.is_empty() {
        return Err(format!(
            "--gods {shown}: its counts do not sum to its total ({}): the file was changed or cut; run `cubelab puzzle gods ... --json` again",
            run.total
        ));
    }
    let slug = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .take(60)
            .collect()
    };
    let stem = format!(
        "puzzle-{}-{}-{}",
        slug(&run.puzzle),
        slug(&run.generators.join("-")),
        run.metric
    );
    let title = format!(
        "{} under <{}>: {} positions, {} deep ({})",
        run.puzzle,
        run.generators.join(", "),
        thousands(run.total),
        run.counts.len() - 1,
        run.metric.to_uppercase()
    );
    let series = [Series {
        name: format!("positions ({})", run.metric.to_uppercase()),
        histogram: run.counts,
    }];
    draw_distribution(out, format, &stem, &title, &series, &[])
}

/// The chart of an experiment's optimal lengths: each length's share of the sample with its
/// 95% interval, and where one is published, the share of random positions at that length
/// marked over it (2x2: the whole space; 3x3: Rokicki's three million).
fn draw_lengths(
    path: &std::path::Path,
    format: ChartFormat,
    stem: &str,
    puzzle: &str,
    metric: &str,
    lengths: &[u64],
    x: &str,
) -> Result<(), String> {
    let n: u64 = lengths.iter().sum();
    let reference = <Metric as clap::ValueEnum>::from_str(metric, true)
        .ok()
        .and_then(|m| random_lengths(puzzle, m));
    let published = reference.as_ref().map_or(&[][..], |r| &r.counts[..]);
    let rows = compare(lengths, published);
    let size = rows.iter().map(|r| r.length + 1).max().unwrap_or(0);
    let mut bars = Bars {
        name: format!("this sample ({n} positions), 95% interval"),
        values: vec![0.0; size],
        intervals: vec![None; size],
    };
    let mut marks = Marks {
        name: reference
            .as_ref()
            .map_or_else(String::new, |r| r.source.to_string()),
        over: 0,
        values: vec![0.0; size],
    };
    for row in &rows {
        bars.values[row.length] = row.share;
        bars.intervals[row.length] = Some((row.low, row.high));
        marks.values[row.length] = row.published_share;
    }
    let title = format!("{stem}: optimal lengths of {n} positions");
    let labels = Labels {
        title: &title,
        x,
        y: "share of positions",
    };
    let marks = if reference.is_some() {
        vec![marks]
    } else {
        Vec::new()
    };
    bars_and_marks(path, format, &labels, &[bars], &marks, Scale::Percent)
        .map_err(|e| e.to_string())
}

/// Most positions drawn as lines in the nodes-per-iteration chart: more are unreadable.
pub(super) const ITERATION_LINES: usize = 8;

/// The charts of one experiment file; returns how many were written.
pub(super) fn plot_experiment(
    file: &std::path::Path,
    out: &std::path::Path,
    format: ChartFormat,
) -> Result<usize, String> {
    let rows = read_experiment(file).map_err(|e| e.to_string())?;
    let solved: Vec<&ExperimentRow> = rows.iter().filter(|r| r.status == "optimal").collect();
    if solved.is_empty() {
        return Err(format!(
            "{}: no optimally solved position to chart",
            file.display()
        ));
    }
    let stem = file
        .file_stem()
        .map_or("experiment".into(), |s| s.to_string_lossy().into_owned());
    let chart = |name: &str| out.join(format!("{stem}-{name}.{}", format.extension()));
    let metric = solved[0].metric.to_uppercase();
    let mut lengths = Vec::new();
    for r in &solved {
        let l = r.length.unwrap_or(0) as usize;
        if lengths.len() <= l {
            lengths.resize(l + 1, 0);
        }
        lengths[l] += 1;
    }
    let mut written = Vec::new();
    let x = format!("optimal length ({metric} moves)");
    draw_lengths(
        &chart("lengths"),
        format,
        &stem,
        &solved[0].puzzle,
        &metric,
        &lengths,
        &x,
    )?;
    written.push(chart("lengths"));
    let by_length = |value: &dyn Fn(&ExperimentRow) -> Option<f64>| Points {
        name: "one position".into(),
        points: solved
            .iter()
            .filter_map(|r| Some((f64::from(r.length?), value(r)?)))
            .collect(),
    };
    let nodes = by_length(&|r| r.nodes.map(|n| n as f64));
    if !nodes.points.is_empty() {
        let title = format!("{stem}: nodes generated against optimal length");
        let labels = Labels {
            title: &title,
            x: &x,
            y: "nodes (log scale)",
        };
        points_chart(&chart("nodes"), format, &labels, &[nodes], false)
            .map_err(|e| e.to_string())?;
        written.push(chart("nodes"));
    }
    let seconds = by_length(&|r| Some(r.seconds));
    let title = format!("{stem}: time to solve against optimal length");
    let labels = Labels {
        title: &title,
        x: &x,
        y: "seconds (log scale)",
    };
    if points_chart(&chart("seconds"), format, &labels, &[seconds], false).is_ok() {
        written.push(chart("seconds"));
    }
    // The longest solves say most about how iterations grow.
    let mut longest = solved.clone();
    longest.sort_by_key(|r| std::cmp::Reverse(r.length));
    longest.truncate(ITERATION_LINES);
    longest.reverse();
    let lines: Vec<Points> = longest
        .iter()
        .filter_map(|r| {
            let its = r.parsed_iterations()?;
            (!its.is_empty()).then(|| Points {
                name: format!(
                    "length {}: {}",
                    r.length.unwrap_or(0),
                    r.input.chars().take(24).collect::<String>()
                ),
                points: its
                    .iter()
                    .map(|i| (f64::from(i.bound), i.nodes as f64))
                    .collect(),
            })
        })
        .collect();
    if !lines.is_empty() {
        let title = format!(
            "{stem}: nodes per IDA* iteration ({} longest solves)",
            lines.len()
        );
        let x = format!("iteration bound ({metric} moves)");
        let labels = Labels {
            title: &title,
            x: &x,
            y: "nodes (log scale)",
        };
        points_chart(&chart("iterations"), format, &labels, &lines, true)
            .map_err(|e| e.to_string())?;
        written.push(chart("iterations"));
    }
    for path in &written {
        crate::outln!("{}", path.display())?;
    }
    Ok(written.len())
}
