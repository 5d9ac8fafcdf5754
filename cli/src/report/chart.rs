//! Charts of distance distributions, drawn with plotters into PNG or SVG files.
//!
//! Text uses DejaVu Sans, compiled into the binary, so charts render the same on a machine with
//! no fonts installed.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// Draws a picture of `size` pixels in `format` (by `png` or `svg`, the same drawing on the
/// two backends; each presents its area) in memory, then writes it to `path` in one checked
/// write. plotters' own file backends leave a small picture's last buffered bytes to an
/// unchecked flush when they drop, so a full disk or a device that refuses writes went unseen
/// and the picture was reported drawn.
pub fn draw_to_file(
    path: &Path,
    format: ChartFormat,
    size: (u32, u32),
    png: impl FnOnce(DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
    svg: impl FnOnce(DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<(), String> {
    let bytes = match format {
        ChartFormat::Png => {
            let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
            png(BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area())?;
            let mut encoded = Vec::new();
            image::ImageEncoder::write_image(
                image::codecs::png::PngEncoder::new(&mut encoded),
                &rgb,
                size.0,
                size.1,
                image::ColorType::Rgb8,
            )
            .map_err(|e| e.to_string())?;
            encoded
        }
        ChartFormat::Svg => {
            let mut text = String::new();
            svg(SVGBackend::with_string(&mut text, size).into_drawing_area())?;
            text.into_bytes()
        }
    };
    std::fs::write(path, bytes).map_err(|e| e.to_string())
}

/// Output format of a chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ChartFormat {
    Png,
    Svg,
}

impl ChartFormat {
    pub fn extension(self) -> &'static str {
        match self {
            ChartFormat::Png => "png",
            ChartFormat::Svg => "svg",
        }
    }

    /// The format a picture file's name asks for by its extension, or the error that says to
    /// name one.
    pub fn of_path(path: &Path) -> Result<ChartFormat, String> {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("png") => Ok(ChartFormat::Png),
            Some(e) if e.eq_ignore_ascii_case("svg") => Ok(ChartFormat::Svg),
            _ => Err(format!(
                "{}: name a .png or a .svg file, the picture's format",
                path.display()
            )),
        }
    }
}

/// Pixel size of every chart.
pub const CHART_SIZE: (u32, u32) = (960, 540);

/// One bar series of a distribution chart: a name for the legend and counts at depths 0, 1, ...
pub struct Series {
    pub name: String,
    pub histogram: Vec<u64>,
}

#[derive(Debug, thiserror::Error)]
#[error("cannot draw {path}: {message}")]
pub struct ChartError {
    pub(crate) path: String,
    pub(crate) message: String,
}

const FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
/// Eight distinguishable colours (the "tab10" palette's first eight).
const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is ours and valid; a failure would only lose the text, which tests catch.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// A chart's title and axis descriptions (units included).
pub struct Labels<'a> {
    pub title: &'a str,
    pub x: &'a str,
    pub y: &'a str,
}

/// Grouped bars, one group per x value `0, 1, ...`.
pub fn bar_chart(
    path: &Path,
    format: ChartFormat,
    labels: &Labels,
    series: &[Series],
    log: bool,
) -> Result<(), ChartError> {
    let bars: Vec<Bars> = series.iter().map(Bars::of).collect();
    let scale = if log { Scale::LogCount } else { Scale::Count };
    bars_and_marks(path, format, labels, &bars, &[], scale)
}

/// One bar series of [`bars_and_marks`]: a value per x `0, 1, ...` (0 draws no bar), and
/// optionally an interval per x drawn as a whisker.
pub struct Bars {
    pub name: String,
    pub values: Vec<f64>,
    pub intervals: Vec<Option<(f64, f64)>>,
}

impl Bars {
    pub fn of(series: &Series) -> Bars {
        Bars {
            name: series.name.clone(),
            values: series.histogram.iter().map(|&c| c as f64).collect(),
            intervals: Vec::new(),
        }
    }
}

/// Values drawn as black-edged marks over the bars of series `over`, each at its x: a
/// published distribution over our own, so that a match shows as a mark on the bar's top.
pub struct Marks {
    pub name: String,
    pub over: usize,
    pub values: Vec<f64>,
}

/// How a bar chart's y axis reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    Count,
    /// Heights are log10 of the counts (labels show powers of ten).
    LogCount,
    /// Values are shares from 0 to 1, labelled in percent.
    Percent,
}

/// Grouped bars with optional whiskers, and marks over them; see [`Bars`] and [`Marks`].
pub fn bars_and_marks(
    path: &Path,
    format: ChartFormat,
    labels: &Labels,
    bars: &[Bars],
    marks: &[Marks],
    scale: Scale,
) -> Result<(), ChartError> {
    register_font();
    let error = |message: String| ChartError {
        path: path.display().to_string(),
        message,
    };
    draw_to_file(
        path,
        format,
        CHART_SIZE,
        |root| draw_bars(root, labels, bars, marks, scale),
        |root| draw_bars(root, labels, bars, marks, scale),
    )
    .map_err(error)
}

fn draw_bars<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    labels: &Labels,
    series: &[Bars],
    marks: &[Marks],
    scale: Scale,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let log = scale == Scale::LogCount;
    let depths = series
        .iter()
        .map(|s| s.values.len())
        .chain(marks.iter().map(|m| m.values.len()))
        .max()
        .unwrap_or(1)
        .max(1);
    let height = |value: f64| if log { value.log10() } else { value };
    let top = series
        .iter()
        .flat_map(|s| {
            let whiskers = s.intervals.iter().flatten().map(|&(_, high)| high);
            s.values.iter().copied().chain(whiskers)
        })
        .chain(marks.iter().flat_map(|m| m.values.iter().copied()))
        .filter(|&v| v > 0.0)
        .map(height)
        .fold(if scale == Scale::Percent { 0.01 } else { 1.0 }, f64::max);
    let y_top = if log { top.ceil() + 0.5 } else { top * 1.08 };
    let mut chart = ChartBuilder::on(&root)
        .caption(labels.title, ("sans-serif", 26))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(95)
        .build_cartesian_2d(-0.5f64..depths as f64 - 0.5, 0f64..y_top)
        .map_err(err)?;
    let y_format = |v: &f64| match scale {
        Scale::LogCount => format!("10^{v:.0}"),
        Scale::Percent => format!("{:.0}%", v * 100.0),
        Scale::Count if top >= 1e6 => {
            // Ticks fall on fractions of a million: keep one decimal, drop a trailing ".0".
            let millions = format!("{:.1}", v / 1e6);
            format!("{}M", millions.trim_end_matches(".0"))
        }
        // Counts are whole: a tick between two of them gets no label.
        Scale::Count if v.fract().abs() > 1e-9 => String::new(),
        Scale::Count => format!("{v:.0}"),
    };
    chart
        .configure_mesh()
        .x_desc(labels.x)
        .y_desc(labels.y)
        .x_labels(depths)
        .y_labels(if log { y_top as usize + 1 } else { 8 })
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&y_format)
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()
        .map_err(err)?;
    let group = 0.8;
    let width = group / series.len().max(1) as f64;
    let left = |i: usize, d: usize| d as f64 - group / 2.0 + i as f64 * width;
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let bars = s
            .values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v > 0.0)
            .map(move |(d, &v)| {
                Rectangle::new(
                    [(left(i, d), 0.0), (left(i, d) + width * 0.95, height(v))],
                    colour.filled(),
                )
            });
        chart
            .draw_series(bars)
            .map_err(err)?
            .label(s.name.as_str())
            .legend(swatch(colour));
        // Whiskers: a vertical line over the interval with a cap at each end.
        let middle = |d: usize| left(i, d) + width * 0.475;
        let cap = width * 0.2;
        let whiskers = s
            .intervals
            .iter()
            .enumerate()
            .filter_map(|(d, interval)| interval.map(|(low, high)| (d, low, high)))
            .flat_map(move |(d, low, high)| {
                let x = middle(d);
                [
                    vec![(x, low), (x, high)],
                    vec![(x - cap, low), (x + cap, low)],
                    vec![(x - cap, high), (x + cap, high)],
                ]
            })
            .map(|points| PathElement::new(points, BLACK.stroke_width(2)));
        chart.draw_series(whiskers).map_err(err)?;
    }
    for m in marks {
        let middle = |d: usize| left(m.over, d) + width * 0.475;
        let dots = m
            .values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v > 0.0)
            .flat_map(move |(d, &v)| {
                let at = (middle(d), height(v));
                [
                    Circle::new(at, 6, WHITE.filled()),
                    Circle::new(at, 6, BLACK.stroke_width(2)),
                ]
            });
        chart
            .draw_series(dots)
            .map_err(err)?
            .label(m.name.as_str())
            .legend(|(x, y)| Circle::new((x + 7, y), 6, BLACK.stroke_width(2)));
    }
    finish(&mut chart, &root)
}

/// The legend's mark for a series of `colour`.
fn swatch(colour: RGBColor) -> impl Fn((i32, i32)) -> Rectangle<(i32, i32)> {
    move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], colour.filled())
}

/// Draws the legend box and writes the chart out.
fn finish<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    root: &DrawingArea<DB, Shift>,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 16))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// One set of points of a [`points_chart`]: drawn as dots, or joined as lines.
pub struct Points {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// Points (or polylines) with a log-scale y axis: y is drawn as log10 and labelled in powers of
/// ten. Non-positive y values cannot be drawn on that axis and are left out.
pub fn points_chart(
    path: &Path,
    format: ChartFormat,
    labels: &Labels,
    sets: &[Points],
    lines: bool,
) -> Result<(), ChartError> {
    register_font();
    draw_to_file(
        path,
        format,
        CHART_SIZE,
        |root| draw_points(root, labels, sets, lines),
        |root| draw_points(root, labels, sets, lines),
    )
    .map_err(|message| ChartError {
        path: path.display().to_string(),
        message,
    })
}

fn draw_points<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    labels: &Labels,
    sets: &[Points],
    lines: bool,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let logged: Vec<Vec<(f64, f64)>> = sets
        .iter()
        .map(|s| {
            s.points
                .iter()
                .filter(|p| p.1 > 0.0)
                .map(|&(x, y)| (x, y.log10()))
                .collect()
        })
        .collect();
    let all = || logged.iter().flatten();
    let (x_min, x_max) = all().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
        (lo.min(p.0), hi.max(p.0))
    });
    let (y_min, y_max) = all().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
        (lo.min(p.1), hi.max(p.1))
    });
    if x_min > x_max {
        return Err("no points to draw".into());
    }
    let (y_lo, y_hi) = (y_min.floor() - 0.25, y_max.ceil() + 0.25);
    let mut chart = ChartBuilder::on(&root)
        .caption(labels.title, ("sans-serif", 26))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(95)
        .build_cartesian_2d(x_min - 0.5..x_max + 0.5, y_lo..y_hi)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(labels.x)
        .y_desc(labels.y)
        .x_labels((x_max - x_min) as usize + 2)
        .y_labels((y_hi - y_lo) as usize + 1)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|v| format!("10^{v:.0}"))
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()
        .map_err(err)?;
    for (i, (set, points)) in sets.iter().zip(&logged).enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        if lines {
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    colour.stroke_width(2),
                ))
                .map_err(err)?;
        }
        // Markers always, so that a one-point line still shows.
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 5, colour.filled())))
            .map_err(err)?
            .label(set.name.as_str())
            .legend(swatch(colour));
    }
    finish(&mut chart, &root)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A distance distribution's chart, as `stats plot` labels it.
    fn distribution_chart(
        path: &Path,
        format: ChartFormat,
        title: &str,
        series: &[Series],
        log: bool,
    ) -> Result<(), ChartError> {
        let labels = Labels {
            title,
            x: "distance from solved (moves)",
            y: "positions",
        };
        bar_chart(path, format, &labels, series, log)
    }

    fn sample() -> Vec<Series> {
        vec![
            Series {
                name: "HTM".into(),
                histogram: vec![1, 9, 54, 321],
            },
            Series {
                name: "QTM".into(),
                histogram: vec![1, 6, 27, 120, 534],
            },
        ]
    }

    #[test]
    fn png_charts_have_the_chart_size_and_content() {
        let dir = tempfile::tempdir().unwrap();
        for log in [false, true] {
            let path = dir.path().join(format!("chart-{log}.png"));
            distribution_chart(&path, ChartFormat::Png, "Sample", &sample(), log).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
            // IHDR: width and height, big-endian, after the chunk length and type.
            let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
            let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
            assert_eq!((width, height), CHART_SIZE);
            assert!(
                bytes.len() > 10_000,
                "a chart with text and bars, not a blank image"
            );
        }
    }

    #[test]
    fn svg_charts_have_the_chart_size_and_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chart.svg");
        distribution_chart(&path, ChartFormat::Svg, "Sample title", &sample(), false).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.contains(&format!("width=\"{}\"", CHART_SIZE.0)));
        assert!(svg.contains(&format!("height=\"{}\"", CHART_SIZE.1)));
        for text in ["Sample title", "HTM", "QTM", "distance from solved (moves)"] {
            assert!(svg.contains(text), "{text}");
        }
    }

    #[test]
    fn points_charts_draw_and_refuse_empty_input() {
        let dir = tempfile::tempdir().unwrap();
        let labels = Labels {
            title: "Nodes",
            x: "IDA* bound (moves)",
            y: "nodes (log scale)",
        };
        let sets = [Points {
            name: "a".into(),
            points: vec![(10.0, 30.0), (11.0, 400.0), (12.0, 0.0)],
        }];
        for (format, lines) in [(ChartFormat::Png, true), (ChartFormat::Svg, false)] {
            let path = dir.path().join(format!("p.{}", format.extension()));
            points_chart(&path, format, &labels, &sets, lines).unwrap();
            assert!(std::fs::metadata(&path).unwrap().len() > 1000);
        }
        let empty = [Points {
            name: "none".into(),
            points: vec![(1.0, 0.0)],
        }];
        let path = dir.path().join("empty.png");
        assert!(points_chart(&path, ChartFormat::Png, &labels, &empty, false).is_err());
    }

    #[test]
    fn marks_and_whiskers_are_drawn_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shares.svg");
        let labels = Labels {
            title: "Shares",
            x: "optimal length (moves)",
            y: "share of positions",
        };
        let bars = [Bars {
            name: "ours (10 positions)".into(),
            values: vec![0.0, 0.3, 0.7],
            intervals: vec![None, Some((0.1, 0.6)), Some((0.4, 0.9))],
        }];
        let marks = [Marks {
            name: "published".into(),
            over: 0,
            values: vec![0.0, 0.25, 0.75],
        }];
        bars_and_marks(
            &path,
            ChartFormat::Svg,
            &labels,
            &bars,
            &marks,
            Scale::Percent,
        )
        .unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        for text in ["ours (10 positions)", "published", "60%"] {
            assert!(svg.contains(text), "{text}");
        }
        // Two marks (a fill and an edge each) and the legend's: five circles.
        assert_eq!(svg.matches("<circle").count(), 5, "{svg}");
        // Two whiskers of three strokes each.
        assert!(svg.matches("<polyline").count() >= 6);
    }

    #[test]
    fn an_unwritable_path_is_an_error() {
        let path = Path::new("/nonexistent-directory/chart.png");
        assert!(distribution_chart(path, ChartFormat::Png, "x", &sample(), false).is_err());
    }
}
