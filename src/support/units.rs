//! Helpers every layer may use: numbers, sizes and durations written for people, summaries of
//! a distance histogram, and progress bars.

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar over `len` units for a job called `name`. Drawn on standard error, and not at
/// all when that is not a terminal (CI, pipes).
pub fn progress_bar(len: u64, name: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let style = ProgressStyle::with_template(
        "{msg:>12} [{bar:40}] {percent:>3}% {human_pos}/{human_len} ({elapsed}, eta {eta})",
    )
    .map(|s| s.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(name.to_string());
    bar
}

/// A spinner for a job of unknown length called `name`, its message saying the stage it is at.
/// Drawn on standard error, and not at all when that is not a terminal.
pub fn spinner(name: &str) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    let style = ProgressStyle::with_template(&format!("{{spinner}} {name}: {{msg}} ({{elapsed}})"))
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// Largest depth with a state (the histogram's last index).
pub fn max_depth(histogram: &[u64]) -> usize {
    histogram.len().saturating_sub(1)
}

/// Mean distance over all states counted.
pub fn mean_depth(histogram: &[u64]) -> f64 {
    let total: u64 = histogram.iter().sum();
    let weighted: u128 = histogram
        .iter()
        .enumerate()
        .map(|(d, &n)| d as u128 * u128::from(n))
        .sum();
    if total == 0 {
        0.0
    } else {
        weighted as f64 / total as f64
    }
}

/// `12345678` as `12,345,678`.
pub fn thousands(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rough duration: seconds below two minutes, then minutes, then hours.
pub fn rough_duration(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("~{} s", seconds.ceil())
    } else if seconds < 7200.0 {
        format!("~{} min", (seconds / 60.0).round())
    } else {
        format!("~{:.1} h", seconds / 3600.0)
    }
}

/// Bytes in binary units, one decimal.
pub fn human_bytes(bytes: impl Into<u128>) -> String {
    let bytes = bytes.into();
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

/// A depth / count / share table, one line per depth, indented by two spaces.
pub fn histogram_table(histogram: &[u64]) -> String {
    let total: u64 = histogram.iter().sum::<u64>().max(1);
    let mut out = String::from("  depth           count    share\n");
    for (depth, &count) in histogram.iter().enumerate() {
        let share = 100.0 * count as f64 / total as f64;
        out += &format!("  {depth:>5} {:>15} {share:>7.3}%\n", thousands(count));
    }
    out
}

/// `text` as an error message quotes it: whole up to `max` characters, else its start and how
/// long it is, so that a runaway input does not come back as a runaway message.
pub fn quoted(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    let length = text.chars().count();
    if length <= max {
        return text.into();
    }
    let start: String = text.chars().take(max.saturating_sub(20)).collect();
    format!("{start}... ({} characters)", thousands(length as u128)).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries() {
        assert_eq!(thousands(3_674_160u64), "3,674,160");
        assert_eq!(thousands(999u32), "999");
        assert_eq!(
            thousands(43_252_003_274_489_856_000u128),
            "43,252,003,274,489,856,000"
        );
        assert_eq!(human_bytes(1_837_080u64 + 4096), "1.8 MiB");
        assert_eq!(human_bytes(1u128 << 62), "4.0 EiB");
        assert_eq!(max_depth(&[1, 9, 54]), 2);
        assert!((mean_depth(&[1, 1, 2]) - 1.25).abs() < 1e-12);
        assert!(histogram_table(&[1, 3]).contains("75.000%"));
    }

    #[test]
    fn quoted_keeps_short_text_and_shortens_long_text() {
        assert_eq!(quoted("R U", 80), "R U");
        let long = "x".repeat(10_000);
        let shown = quoted(&long, 80);
        assert!(shown.chars().count() < 100, "{shown}");
        assert!(shown.ends_with("... (10,000 characters)"), "{shown}");
    }
}
