//! The crates' layers, checked: every module imports only from its own layer or the layers
//! below it, no two modules import each other in a circle, and no front end reaches past
//! `solving` into `search`.
//!
//! The core's order is written once, here ([`CORE_LAYERS`]); `src/lib.rs` and
//! docs/architecture.md describe it; the command line's is [`CLI_LAYERS`]. A layer is a
//! top-level module of a crate (a folder or a file under its `src/`). An import is any path
//! `crate::a::...`, `cubelab::a::...`, `super::...` or `self::...` outside comments. Code under `#[cfg(test)]`, and a module's
//! `tests.rs`, is not counted: a lower layer's unit tests may use the engine above to check it
//! (a space is checked by walking it), which adds no dependency to the library itself.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The core's layers, bottom to top.
const CORE_LAYERS: [&str; 11] = [
    "support",
    "model",
    "coord",
    "space",
    "packing",
    "bfs",
    "table",
    "catalogue",
    "search",
    "solving",
    "experiment",
];

/// The command line's layers, bottom to top: what the binaries share, reports and charts, the
/// commands, the binaries.
const CLI_LAYERS: [&str; 4] = ["cli", "report", "commands", "bin"];

/// The server's modules sit side by side around its root.
const SERVER_LAYERS: [&str; 4] = ["goal", "load", "modules", "puzzle"];

/// A source file as the checker sees it: its module path (`space::ud`, `bin::solve`) and text.
struct Source {
    module: Vec<String>,
    text: String,
}

/// What the checker found wrong.
#[derive(Debug, PartialEq, Eq)]
enum Violation {
    /// `module` (in layer `from`) imports `target` from the higher layer `to`.
    Upward {
        module: String,
        target: String,
        from: String,
        to: String,
    },
    /// Modules that import each other in a circle, in order.
    Circle(Vec<String>),
    /// A module in no known layer.
    Unplaced(String),
}

/// The text of `text` that the compiler builds outside tests: comments and `#[cfg(test)]`
/// items (to the end of their braces) removed.
fn code_outside_tests(text: &str) -> String {
    let mut out = String::new();
    let mut skipping_depth: Option<i64> = None;
    let mut depth: i64 = 0;
    let mut pending_test = false;
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        if skipping_depth.is_none() && code.trim_start().starts_with("#[cfg(test)]") {
            pending_test = true;
            continue;
        }
        let opens = code.matches('{').count() as i64;
        let closes = code.matches('}').count() as i64;
        if pending_test && skipping_depth.is_none() {
            if opens > 0 {
                skipping_depth = Some(depth);
                depth += opens - closes;
                pending_test = false;
                if depth <= skipping_depth.unwrap_or(0) {
                    skipping_depth = None;
                }
                continue;
            }
            if code.trim_end().ends_with(';') {
                // `#[cfg(test)] mod tests;` or a single test-only item.
                pending_test = false;
                continue;
            }
        }
        depth += opens - closes;
        if let Some(start) = skipping_depth {
            if depth <= start {
                skipping_depth = None;
            }
            continue;
        }
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The modules a source imports, as paths from the crate's root, expanded through braces:
/// `use crate::a::{b, c::d}` names `a::b` and `a::c::d`. Relative paths are resolved against
/// the source's own module: in `a::b`, `super::c` is `a::c`, `super::super::c` is `c` and
/// `self::c` is `a::b::c`.
fn imported_paths(source: &Source) -> BTreeSet<Vec<String>> {
    let code = code_outside_tests(&source.text);
    let mut paths = BTreeSet::new();
    for root in ["crate::", "cubelab::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(root) {
            let at = from + found;
            let before = code[..at].chars().last();
            from = at + root.len();
            let rest = &code[from..];
            // `super::` after `::` is a link of a chain counted from its first `super::`.
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let (base, after) = match root {
                "super::" => {
                    let mut ups = 1;
                    let mut after = rest;
                    while let Some(more) = after.strip_prefix("super::") {
                        ups += 1;
                        after = more;
                    }
                    let keep = source.module.len().saturating_sub(ups);
                    (source.module[..keep].to_vec(), after)
                }
                "self::" => (source.module.clone(), rest),
                _ => (Vec::new(), rest),
            };
            expand(after, base, &mut paths);
        }
    }
    paths
}

/// Reads one path (with nested braces) at the start of `text`, prefixed by `prefix`.
fn expand(text: &str, prefix: Vec<String>, out: &mut BTreeSet<Vec<String>>) {
    let mut path = prefix;
    let mut rest = text;
    loop {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            if let Some(inner) = rest.strip_prefix('{') {
                for item in split_top_level(inner) {
                    expand(item.trim_start(), path.clone(), out);
                }
                return;
            }
            break;
        }
        rest = &rest[name.len()..];
        path.push(name);
        match rest.strip_prefix("::") {
            Some(after) => rest = after,
            None => break,
        }
    }
    if !path.is_empty() {
        out.insert(path);
    }
}

/// The comma-separated items of a brace group whose opening brace was just read.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&text[start..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items
}

/// The unit the circle check works on: the longest prefix of `path` that is a module (a file),
/// so that an item `space::h48::H48Space` counts as its module `space::h48`.
fn unit(path: &[String], modules: &BTreeSet<Vec<String>>) -> Vec<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|prefix| modules.contains(prefix))
        .unwrap_or_else(|| path.iter().take(1).cloned().collect())
}

/// Whether one of two modules contains the other: a folder's `mod.rs` declares and re-exports
/// its children, which is how Rust lays modules out, not a circle.
fn nested(a: &str, b: &str) -> bool {
    let inside = |inner: &str, outer: &str| inner.starts_with(&format!("{outer}::"));
    inside(a, b) || inside(b, a)
}

/// Checks `sources` against `layers` (bottom to top).
fn check(sources: &[Source], layers: &[&str]) -> Vec<Violation> {
    let rank = |name: &str| layers.iter().position(|l| *l == name);
    let modules: BTreeSet<Vec<String>> = sources
        .iter()
        .flat_map(|s| (1..=s.module.len()).map(|n| s.module[..n].to_vec()))
        .collect();
    let mut violations = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in sources {
        let from_layer = &source.module[0];
        let Some(from_rank) = rank(from_layer) else {
            violations.push(Violation::Unplaced(source.module.join("::")));
            continue;
        };
        let from_unit = source.module.join("::");
        for path in imported_paths(source) {
            let Some(to_rank) = rank(&path[0]) else {
                continue;
            };
            if to_rank > from_rank {
                violations.push(Violation::Upward {
                    module: source.module.join("::"),
                    target: path.join("::"),
                    from: from_layer.clone(),
                    to: path[0].clone(),
                });
            }
            let to_unit = unit(&path, &modules).join("::");
            if to_unit != from_unit && !nested(&from_unit, &to_unit) {
                edges.entry(from_unit.clone()).or_default().insert(to_unit);
            }
        }
    }
    violations.extend(circles(&edges).into_iter().map(Violation::Circle));
    violations
}

/// Every circle of the import graph, one per strongly connected group, found by depth-first
/// search (each reported from its smallest module).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        if let Some(at) = path.iter().position(|n| n == node) {
            found.push(path[at..].to_vec());
            return;
        }
        if done.contains(node) {
            return;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            visit(next, edges, path, done, found);
        }
        path.pop();
        done.insert(node.to_string());
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        visit(node, edges, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

/// Every `.rs` file under the crate folder `krate`'s `src/` (`.` for the core), with its module
/// path; `lib.rs` only with `with_root` (as the module `lib`).
fn sources_of(krate: &str, with_root: bool) -> Vec<Source> {
    fn walk(dir: &Path, module: Vec<String>, with_root: bool, out: &mut Vec<Source>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.path());
        for entry in entries {
            let path = entry.path();
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                let mut inner = module.clone();
                inner.push(name);
                walk(&path, inner, with_root, out);
            } else if name == "tests" {
                continue; // a module's unit tests, in a file of their own: test code.
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut own = module.clone();
                if name != "mod" && name != "lib" {
                    own.push(name.clone());
                }
                if own.is_empty() {
                    if !with_root {
                        continue; // the root declares the layers.
                    }
                    own.push(name);
                }
                let text = std::fs::read_to_string(&path).unwrap();
                out.push(Source { module: own, text });
            }
        }
    }
    let mut sources = Vec::new();
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    walk(
        &root.join(krate).join("src"),
        Vec::new(),
        with_root,
        &mut sources,
    );
    sources
}

#[test]
fn every_module_imports_only_from_below_and_none_in_a_circle() {
    for (krate, layers, at_least) in [
        (".", &CORE_LAYERS[..], 80),
        ("cli", &CLI_LAYERS[..], 20),
        ("server", &SERVER_LAYERS[..], 3),
    ] {
        let sources = sources_of(krate, false);
        assert!(
            sources.len() >= at_least,
            "{krate}: found only {} files",
            sources.len()
        );
        let violations = check(&sources, layers);
        assert!(violations.is_empty(), "{krate}: {violations:#?}");
    }
}

/// `solving` is the one door: a front end names no module of `search` (it would assemble a
/// solver the other front ends assemble differently).
#[test]
fn no_front_end_reaches_into_search() {
    let mut reached = Vec::new();
    for krate in ["cli", "server", "python"] {
        let sources = sources_of(krate, true);
        assert!(!sources.is_empty(), "{krate}: no sources found");
        for source in &sources {
            for path in imported_paths(source) {
                if path[0] == "search" {
                    reached.push(format!(
                        "{krate}: {} names {}",
                        source.module.join("::"),
                        path.join("::")
                    ));
                }
            }
        }
    }
    assert!(reached.is_empty(), "{reached:#?}");
}

fn source(module: &str, text: &str) -> Source {
    Source {
        module: module.split("::").map(str::to_string).collect(),
        text: text.to_string(),
    }
}

/// The circle this test was written against: the engine read the format's encodings, the
/// format's header named subgroups, and the subgroups' module ran the engine.
#[test]
fn the_checker_finds_the_old_circle_and_the_upward_imports() {
    let layers = ["space", "bfs", "table", "group"];
    let sources = [
        source("bfs", "use cubelab::table::Encoding;\nfn f() {}"),
        source(
            "table",
            "use crate::group::{GroupMetric, GroupSpec, spec};\n",
        ),
        source("group", "use cubelab::bfs::{BfsError, breadth_first};\n"),
        source(
            "space",
            "/// See [`cubelab::bfs`].\npub trait StateSpace {}",
        ),
    ];
    let violations = check(&sources, &layers);
    let upward: BTreeSet<(&str, &str)> = violations
        .iter()
        .filter_map(|v| match v {
            Violation::Upward { module, to, .. } => Some((module.as_str(), to.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        upward,
        BTreeSet::from([("bfs", "table"), ("table", "group")])
    );
    let circles: Vec<&Vec<String>> = violations
        .iter()
        .filter_map(|v| match v {
            Violation::Circle(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(
        circles,
        [&vec!["bfs".to_string(), "table".into(), "group".into()]]
    );
}

#[test]
fn the_checker_reads_nested_braces_and_skips_comments_and_tests() {
    let text = "use crate::a::{b, c::{d, e}};\n// use crate::z::y;\n\
                #[cfg(test)]\nmod tests {\n    use crate::z::w;\n}\nfn g() { crate::f::h(); }\n";
    let paths = imported_paths(&source("x", text));
    let names: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(names, ["a::b", "a::c::d", "a::c::e", "f::h"]);
}

/// Relative paths are resolved: siblings that import each other through `super::` form a
/// circle, and a child naming its parent's items does not.
#[test]
fn the_checker_resolves_super_and_self() {
    let paths = imported_paths(&source(
        "space::h48::bytes",
        "use super::space::Row;\nuse super::super::ud::X;\nuse self::inner::Y;\n",
    ));
    let names: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        names,
        [
            "space::h48::bytes::inner::Y",
            "space::h48::space::Row",
            "space::ud::X"
        ]
    );
    let sources = [
        source("space::h48", "pub use self::space::H48Space;"),
        source("space::h48::bytes", "use super::space::Row;"),
        source(
            "space::h48::space",
            "use super::bytes::Bytes; use super::Shared;",
        ),
    ];
    let violations = check(&sources, &["space"]);
    assert_eq!(
        violations,
        [Violation::Circle(vec![
            "space::h48::bytes".into(),
            "space::h48::space".into()
        ])]
    );
}

#[test]
fn the_checker_finds_a_circle_within_a_layer_and_unplaced_modules() {
    let sources = [
        source("space::ud", "use cubelab::space::twophase::X;"),
        source(
            "space::twophase",
            "use super::ud::Y; use cubelab::space::ud::Z;",
        ),
        source("elsewhere", ""),
    ];
    let violations = check(&sources, &["space"]);
    assert!(violations.contains(&Violation::Unplaced("elsewhere".into())));
    assert!(violations.contains(&Violation::Circle(vec![
        "space::twophase".into(),
        "space::ud".into()
    ])));
}
