//! How much memory the system can give now: what a run that fills a table of a known size
//! checks before it starts, so that one that cannot fit is refused at once, not killed later.

/// Memory available now (`MemAvailable` of `/proc/meminfo`), where the system says.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
