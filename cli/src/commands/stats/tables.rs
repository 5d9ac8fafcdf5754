//! `stats tables`: every table in the data directory, its histogram counted and checked.

use super::*;

pub(super) fn tables(dir: &std::path::Path, json: bool) -> Result<bool, String> {
    let mut ok = true;
    let mut found = 0;
    let ids = catalogue()
        .into_iter()
        .flat_map(|id| [id, id.with_encoding(Encoding::Mod3)]);
    let mut opened = Vec::new();
    for id in ids {
        if id.only_packed(dir) {
            // Counting would unpack it (1.4 GB for the default table): said, not done.
            eprintln!(
                "stats: {} is only packed ({}.zst) and not counted here; its first use (solve, gen-tables --verify) unpacks it",
                id.name(),
                id.path(dir).display()
            );
        } else if id.path(dir).exists() {
            let start = Instant::now();
            let table = id.open(dir, Verify::IfNew).map_err(|e| e.to_string())?;
            opened.push((id.name(), table, start));
        }
    }
    for path in group::present_tables(dir) {
        let start = Instant::now();
        let table = Table::open_path(&path, "gen-tables --generators", Verify::IfNew)
            .map_err(|e| e.to_string())?;
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("group");
        opened.push((name.to_string(), table, start));
    }
    for (name, table, start) in opened {
        found += 1;
        let encoding = table.header().encoding;
        let group = GroupHeader::of(table.header());
        let scanned = checked_histogram(&table);
        let seconds = start.elapsed().as_secs_f64();
        ok &= scanned.problems.is_empty();
        let hist = &scanned.histogram;
        let checked = scanned.published;
        if json {
            let line = serde_json::json!({
                "table": name,
                "group": group.as_ref().map(|g| g.spec.to_string()),
                "entries": table.header().entries,
                "bytes": table.file_bytes(),
                "encoding": encoding.name(),
                "histogram": hist,
                "max_depth": max_depth(hist),
                "mean_depth": mean_depth(hist),
                "published": if checked { Some(scanned.problems.is_empty()) } else { None },
                "problems": scanned.problems,
                "seconds": seconds,
            });
            crate::outln!("{line}")?;
        } else {
            crate::outln!(
                "{}: {} entries, {}, scanned in {seconds:.2} s",
                name,
                thousands(table.header().entries),
                human_bytes(table.file_bytes())
            )?;
            if let Some(group) = &group {
                crate::outln!(
                    "  the group {}: {} positions, {} entries outside it",
                    group.spec,
                    thousands(group.order),
                    thousands(group.outside)
                )?;
            }
            if encoding == Encoding::Mod3 {
                crate::outln!(
                    "  (2-bit table: residues checked against the depths counted at build time)"
                )?;
            }
            crate::out!("{}", histogram_table(hist))?;
            crate::outln!("  max {}, mean {:.4}", max_depth(hist), mean_depth(hist))?;
            if checked && scanned.problems.is_empty() {
                crate::outln!("  equals the published distribution")?;
            }
            for problem in &scanned.problems {
                crate::outln!("  MISMATCH: {problem}")?;
            }
            crate::outln!()?;
        }
    }
    if found == 0 {
        return Err(format!(
            "no tables in {}; build them with `gen-tables --data-dir {}`",
            dir.display(),
            dir.display()
        ));
    }
    Ok(ok)
}
