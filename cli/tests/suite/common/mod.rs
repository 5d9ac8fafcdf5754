//! Helpers shared by the integration tests.

use std::path::PathBuf;

/// Reads a published distance distribution (`depth,count` lines, `#` comments) from tests/data.
pub fn reference_histogram(name: &str) -> Vec<u64> {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut histogram = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth"))
    {
        let (depth, count) = line.split_once(',').expect("depth,count");
        assert_eq!(
            depth.trim().parse::<usize>().unwrap(),
            histogram.len(),
            "{name}: depths in order"
        );
        histogram.push(count.trim().parse::<u64>().unwrap());
    }
    histogram
}

use cubelab::model::cube::{Cube3, Face, Metric, Move};
use rustc_hash::FxHashMap;

/// True distances of positions near the solved cube, by meeting in the middle, independent of
/// the tables and searches under test. Every state within `radius` of solved is stored with its
/// distance d. From a position at distance D, a plain depth-first search of depth j meets the
/// stored states first at j = max(0, D - radius) (a state the search meets at depth j is at
/// least D - j from solved, and a shortest path passes one exactly that far), and there D is
/// j + the least d met; so deepening j from 0 to `radius` + 1 finds every distance up to
/// 2 x `radius` + 1 at the cost of a search D - `radius` deep. The search never undoes its last
/// move (nor, in HTM, turns the same face twice running): neither is ever part of a shortest
/// path.
pub struct NearSolved {
    metric: Metric,
    radius: u8,
    /// By [`key`]: a state's pieces packed into one number, hashed by FxHash (the states are
    /// not chosen by an adversary, and SipHash over the pieces' arrays was most of the suite's
    /// independent searches).
    ball: FxHashMap<u128, u8>,
    moves: Vec<Move>,
}

/// A state as one number: each piece's slot in 4 bits and its orientation in 2.
fn key(cube: &Cube3) -> u128 {
    let pieces = |acc: u128, perm: &[u8], ori: &[u8]| {
        perm.iter().zip(ori).fold(acc, |acc, (&p, &o)| {
            acc << 6 | u128::from(p) << 2 | u128::from(o)
        })
    };
    let corners = pieces(0, &cube.corners.perm, &cube.corners.ori);
    pieces(corners, &cube.edges.perm, &cube.edges.ori)
}

impl NearSolved {
    /// The ball of `radius` (at most 7) in `metric`, built once for the whole suite.
    pub fn shared(metric: Metric, radius: u8) -> &'static NearSolved {
        use std::sync::OnceLock;
        static BALLS: [[OnceLock<NearSolved>; 8]; 2] =
            [const { [const { OnceLock::new() }; 8] }; 2];
        BALLS[metric as usize][usize::from(radius)].get_or_init(|| NearSolved::new(metric, radius))
    }

    fn new(metric: Metric, radius: u8) -> NearSolved {
        let moves = metric.generators(&Face::ALL);
        let mut ball = FxHashMap::from_iter([(key(&Cube3::SOLVED), 0)]);
        let mut frontier = vec![Cube3::SOLVED];
        for depth in 1..=radius {
            let mut next = Vec::new();
            for cube in &frontier {
                for &m in &moves {
                    let n = cube.apply(m);
                    ball.entry(key(&n)).or_insert_with(|| {
                        next.push(n);
                        depth
                    });
                }
            }
            frontier = next;
        }
        NearSolved {
            metric,
            radius,
            ball,
            moves,
        }
    }

    /// The exact distance of `cube`, or `None` if it is more than 2 x radius + 1.
    pub fn distance(&self, cube: &Cube3) -> Option<u8> {
        (0..=self.radius + 1).find_map(|depth| {
            self.nearest_at(cube, depth, None)
                .map(|stored| depth + stored)
        })
    }

    /// The least stored distance among the states `depth` moves from `cube`, if any is stored.
    fn nearest_at(&self, cube: &Cube3, depth: u8, last: Option<Move>) -> Option<u8> {
        if depth == 0 {
            return self.ball.get(&key(cube)).copied();
        }
        let mut nearest: Option<u8> = None;
        for &m in &self.moves {
            // Same face twice running is never shorter in HTM; in QTM, U U is a half turn but
            // U U' is nothing.
            let wasted = last.is_some_and(|last| match self.metric {
                Metric::Htm => last.face() == m.face(),
                Metric::Qtm => last.inverse() == m,
            });
            if !wasted && let Some(d) = self.nearest_at(&cube.apply(m), depth - 1, Some(m)) {
                nearest = Some(nearest.map_or(d, |n| n.min(d)));
            }
        }
        nearest
    }
}

/// The directory where the suite keeps what it builds for many tests, between runs:
/// `suite-<build>` in Cargo's scratch directory for integration tests (`target/tmp`), named
/// for this test binary's size and modification time. A second run of the same build reads
/// what the first one built, and each read checks it (a table's checksum, the exact entries'
/// histogram); a change to the code links a new binary, whose run builds everything afresh
/// into a new directory and removes those of earlier builds.
pub fn build_cache() -> &'static std::path::Path {
    use std::sync::OnceLock;
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let meta = std::fs::metadata(&exe).unwrap();
        let modified = meta
            .modified()
            .unwrap()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap();
        let name = format!("suite-{:x}-{:x}", meta.len(), modified.as_nanos());
        let scratch = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
        if let Ok(entries) = std::fs::read_dir(scratch) {
            for entry in entries.flatten() {
                let other = entry.file_name().to_string_lossy().into_owned();
                if other.starts_with("suite-") && other != name {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        let dir = scratch.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    })
}

/// One directory of tables for the whole suite ([`build_cache`]): each table is built the
/// first time a test asks for it (unless a run of the same build left it there, whole and
/// checked) and then read by every test that only reads tables, so the two-phase tables or
/// the corner table are built once, not once per test file. Tests that damage, rebuild or
/// remove tables use a [`BuiltTables`] or a directory of their own.
pub fn shared_tables(
    tables: &[(cubelab::catalogue::TableKind, Metric)],
) -> &'static std::path::Path {
    use cubelab::table::Verify;
    use std::sync::Mutex;
    static BUILT: Mutex<Vec<cubelab::catalogue::TableId>> = Mutex::new(Vec::new());
    let dir = build_cache().join("tables");
    std::fs::create_dir_all(&dir).unwrap();
    // Held while building: a second test asking for the same table waits for it.
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    for &(kind, metric) in tables {
        let id = cubelab::catalogue::TableId::new(kind, metric);
        if built.contains(&id) {
            continue;
        }
        if id.open(&dir, Verify::Always).is_err() {
            cubelab::catalogue::build(id, &dir, &indicatif::ProgressBar::hidden()).unwrap();
        }
        built.push(id);
    }
    Box::leak(dir.into_boxed_path())
}

/// The exact entries of `h48-parity` in `metric`, by the engine's row pass (about 50 s of two
/// cores a metric), searched once for the whole suite: the tests that compare against them and
/// the table files they are written into share one search instead of four. Kept in
/// [`build_cache`] for the next run of the same build, with the histogram it checks them by.
pub fn h48_parity_exact(metric: Metric) -> &'static cubelab::bfs::BfsOutcome {
    use cubelab::packing::Encoding;
    use cubelab::space::h48::{H48Flips, H48Rows, H48Space};
    use std::sync::OnceLock;
    static EXACT: [OnceLock<cubelab::bfs::BfsOutcome>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = &EXACT[usize::from(metric == Metric::Qtm)];
    slot.get_or_init(|| {
        let entries = build_cache().join(format!("h48-parity-{}.nibbles", metric.name()));
        let histogram = entries.with_extension("histogram.json");
        let kept = std::fs::read(&entries).ok().zip(
            std::fs::read(&histogram)
                .ok()
                .and_then(|text| serde_json::from_slice::<Vec<u64>>(&text).ok()),
        );
        if let Some((packed, histogram)) = kept {
            let mut counts = vec![0u64; histogram.len()];
            let space_entries = H48Flips::Parity.entries();
            for index in 0..space_entries {
                let d = cubelab::packing::nibble(&packed, index);
                if let Some(count) = counts.get_mut(usize::from(d)) {
                    *count += 1;
                }
            }
            if counts == histogram && packed.len() as u64 == space_entries.div_ceil(2) {
                return cubelab::bfs::BfsOutcome {
                    encoding: Encoding::Nibble,
                    packed,
                    histogram,
                    passes: Vec::new(),
                    deepest: Vec::new(),
                };
            }
        }
        let space = H48Space::new(H48Flips::Parity, metric);
        let exact = cubelab::bfs::breadth_first_rows(
            &H48Rows::new(&space),
            Encoding::Nibble,
            &indicatif::ProgressBar::hidden(),
        )
        .unwrap();
        std::fs::write(&entries, &exact.packed).unwrap();
        std::fs::write(&histogram, serde_json::to_vec(&exact.histogram).unwrap()).unwrap();
        exact
    })
}

/// A directory with `h48-parity` in both metrics, written from [`h48_parity_exact`] by the
/// catalogue's own writer (what `gen-tables h48-parity` runs after its search), in
/// [`build_cache`] (a file left there by a run of the same build is read if it checks).
pub fn h48_parity_dir() -> &'static std::path::Path {
    use cubelab::catalogue::{TableId, TableKind, write_h48};
    use cubelab::table::Verify;
    use std::sync::OnceLock;
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = build_cache().join("h48-parity");
        std::fs::create_dir_all(&dir).unwrap();
        for metric in Metric::BOTH {
            let id = TableId::new(TableKind::H48Parity, metric);
            if id.open(&dir, Verify::Always).is_ok() {
                continue;
            }
            let exact = h48_parity_exact(metric);
            let copy = cubelab::bfs::BfsOutcome {
                encoding: exact.encoding,
                packed: exact.packed.clone(),
                histogram: exact.histogram.clone(),
                passes: exact.passes.clone(),
                deepest: exact.deepest.clone(),
            };
            write_h48(&[id], &dir, copy).unwrap();
        }
        dir
    })
}

/// The tables of `kinds` in `metrics`, in the suite's shared directory.
pub fn shared(
    kinds: &[cubelab::catalogue::TableKind],
    metrics: &[Metric],
) -> &'static std::path::Path {
    let tables: Vec<_> = kinds
        .iter()
        .flat_map(|&k| metrics.iter().map(move |&m| (k, m)))
        .collect();
    shared_tables(&tables)
}

/// A scratch directory of tables of its own, for tests that need one.
pub struct BuiltTables {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl BuiltTables {
    /// The tables of `kinds` in `metrics` only.
    pub fn build_in(kinds: &[cubelab::catalogue::TableKind], metrics: &[Metric]) -> BuiltTables {
        let dir = tempfile::tempdir().unwrap();
        for &kind in kinds {
            for &metric in metrics {
                let id = cubelab::catalogue::TableId::new(kind, metric);
                cubelab::catalogue::build(id, dir.path(), &indicatif::ProgressBar::hidden())
                    .unwrap();
            }
        }
        let path = dir.path().to_path_buf();
        BuiltTables { _dir: dir, path }
    }
}

/// `count` scrambles of `max_len`, `max_len - 1` and `max_len - 2` random turns of `metric`.
pub fn random_scrambles(metric: Metric, count: usize, max_len: usize, seed: u64) -> Vec<Cube3> {
    use rand::{RngExt, SeedableRng};
    let moves = metric.generators(&Face::ALL);
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..count)
        .map(|i| {
            let len = max_len - i % 3;
            let seq: Vec<Move> = (0..len)
                .map(|_| moves[rng.random_range(0..moves.len())])
                .collect();
            Cube3::from_moves(&seq)
        })
        .collect()
}

/// The dual values a heuristic hands from `parent` to each child equal those read afresh for
/// the child (what the child inherits along an axis is what it would read there). Where the
/// heuristic reads a face's shared inverse first (`SHARED_INVERSES_FIRST`), the values read
/// through the other quarter turn's inverse are the same; returns whether they were for every
/// face, whatever the heuristic says.
pub fn check_inherited_dual<H: cubelab::search::heuristic::Heuristic>(
    heuristic: &H,
    parent: &Cube3,
) -> bool {
    let before = heuristic.root_dual(parent);
    let moves = heuristic.moves();
    let inverse_of = |turn: usize| {
        let cubes = cubelab::model::cube::CubePair::of(&parent.apply(moves[turn]));
        let mut inverse = heuristic.inverse(&cubes.inverse, turn as u8);
        heuristic.locate_inverse(&mut inverse, turn as u8);
        inverse
    };
    let mut shared = true;
    for (turn, &m) in moves.iter().enumerate() {
        let dual_through = |inverse: &H::Inverse| {
            let mut values = before;
            let verdict = heuristic.dual(inverse, turn as u8, &mut values, u8::MAX);
            assert!(verdict.is_ok());
            values
        };
        let values = dual_through(&inverse_of(turn));
        assert_eq!(values, heuristic.root_dual(&parent.apply(m)), "{m}");
        if let Some(other) = moves.iter().position(|&o| o != m && o == m.inverse()) {
            let same = dual_through(&inverse_of(other)) == values;
            assert!(same || !H::SHARED_INVERSES_FIRST, "{m}");
            shared &= same;
        }
    }
    shared
}

use cubelab::search::ida::{SearchLimits, SearchStatus, Solver};

/// Solves `cube`, requires an optimal result, and checks every solution by applying it.
pub fn solve(solver: &Solver, cube: &Cube3, limits: SearchLimits) -> Vec<Vec<Move>> {
    let result = solver.solve(cube, limits, |_| {}).unwrap();
    assert_eq!(result.status, SearchStatus::Optimal);
    for solution in &result.solutions {
        assert!(cube.apply_all(solution).is_solved());
    }
    result.solutions
}

/// The optimal length the solver finds for `cube`, with or without the dual lookup.
pub fn optimal_length(solver: &Solver, cube: &Cube3, dual: bool) -> u32 {
    let limits = SearchLimits {
        dual,
        ..SearchLimits::default()
    };
    let solutions = solve(solver, cube, limits);
    assert_eq!(solutions.len(), 1);
    solver.metric().length(&solutions[0])
}

/// Checks the solver of each metric against the meet-in-the-middle search on 12 scrambles of
/// `max_len` (HTM 10, QTM 11 keep them within its reach), with and without the dual lookup.
pub fn check_lengths_against_independent_search(
    solver: impl Fn(Metric) -> Solver,
    runs: &[(Metric, usize, u64)],
) {
    for &(metric, max_len, seed) in runs {
        let near = NearSolved::shared(metric, 5);
        let solver = solver(metric);
        for position in random_scrambles(metric, 12, max_len, seed) {
            let truth = u32::from(near.distance(&position).expect("within 11"));
            assert_eq!(optimal_length(&solver, &position, true), truth, "{metric}");
            assert_eq!(optimal_length(&solver, &position, false), truth, "{metric}");
        }
    }
}

/// Positions of known optimal length, among them positions of the U-D subgroup and of the
/// phase-1 subgroup, which the coordinates of some lookups alone would call solved.
pub fn check_known_positions(htm: &Solver, qtm: &Solver) {
    let cube =
        |text: &str| Cube3::from_moves(&cubelab::model::notation::parse_moves(text).unwrap());
    assert_eq!(optimal_length(htm, &cube("U D'"), true), 2);
    assert_eq!(optimal_length(htm, &cube("U R2 U'"), true), 3);
    assert_eq!(optimal_length(htm, &cube("R2 U2 R2 U2 R2 U2"), true), 6);
    let t_perm = cube("R U R' U' R' F R2 U' R' U' R U R' F'");
    assert_eq!(optimal_length(htm, &t_perm, true), 11);
    let checkerboard = cube("U2 D2 F2 B2 L2 R2");
    assert_eq!(optimal_length(htm, &checkerboard, true), 6);
    assert_eq!(optimal_length(qtm, &checkerboard, true), 12);
    assert_eq!(optimal_length(htm, &Cube3::SOLVED, true), 0);
}

/// The dual lookup narrows the next moves where an inverse bound is tight and may prune a
/// level early. That may only remove moves no optimal solution starts with, so every optimal
/// solution survives it: `--all` finds the same set with and without it.
pub fn check_dual_keeps_every_optimal_solution(
    solver: impl Fn(Metric) -> Solver,
    runs: &[(Metric, u64)],
) {
    for &(metric, seed) in runs {
        let solver = solver(metric);
        for position in random_scrambles(metric, 6, 8, seed) {
            let all = |dual| {
                let limits = SearchLimits {
                    all: true,
                    dual,
                    ..SearchLimits::default()
                };
                solve(&solver, &position, limits)
                    .into_iter()
                    .collect::<std::collections::BTreeSet<_>>()
            };
            let (narrowed, plain) = (all(true), all(false));
            assert!(!plain.is_empty());
            assert_eq!(narrowed, plain, "{metric}");
        }
    }
}

/// Positions that some of the 48 symmetries keep: products of turns of opposite faces (each
/// kept by every symmetry that keeps its axis, so their products by the symmetries that keep
/// all three axes or more).
pub fn symmetric_positions(count: usize, seed: u64) -> Vec<Cube3> {
    use rand::{RngExt, SeedableRng};
    let families = [
        ["U2 D2", "R2 L2", "F2 B2"],
        ["U D'", "R L'", "F B'"],
        ["U D", "R L", "F B"],
    ];
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..count)
        .map(|i| {
            let family = families[i % families.len()];
            let words: Vec<&str> = (0..rng.random_range(2..=4))
                .map(|_| family[rng.random_range(0..3)])
                .collect();
            Cube3::from_moves(&cubelab::model::notation::parse_moves(&words.join(" ")).unwrap())
        })
        .collect()
}

/// The position's symmetries, found by conjugating it, independently of the search's own.
pub fn symmetries_of(cube: &Cube3) -> Vec<u8> {
    (0..48u8)
        .filter(|&s| cubelab::model::cube::Symmetry::nth(s).conjugate(cube) == *cube)
        .collect()
}

/// `moves` seen through symmetry `s`, written canonically: each run of turns on one axis in
/// face order (the two faces of an axis commute).
pub fn mapped(s: u8, moves: &[Move]) -> Vec<Move> {
    let mut image: Vec<Move> = moves
        .iter()
        .map(|&m| cubelab::model::cube::Symmetry::map_move_of(s, m))
        .collect();
    // Bubble each turn back past the turns of the opposite face before it.
    for i in 1..image.len() {
        let mut j = i;
        while j > 0
            && image[j].face() == image[j - 1].face().opposite()
            && image[j].face().index() < image[j - 1].face().index()
        {
            image.swap(j, j - 1);
            j -= 1;
        }
    }
    image
}

/// With the position's symmetries, `--all` reports one solution per class of symmetric
/// images: together the classes are exactly every optimal solution found without them, each
/// once, and the count of all matches. The first solution in canonical order is the same
/// either way, and a plain search finds one of the same length.
pub fn check_symmetry_classes(solver: &Solver, positions: &[Cube3]) {
    use std::collections::BTreeSet;
    for cube in positions {
        let symmetries = symmetries_of(cube);
        assert!(symmetries.len() > 1);
        let limits = |all, symmetry, deterministic| SearchLimits {
            all,
            dual: true,
            symmetry,
            deterministic,
            ..SearchLimits::default()
        };
        let every: BTreeSet<Vec<Move>> = solve(solver, cube, limits(true, false, false))
            .into_iter()
            .collect();
        let result = solver
            .solve(cube, limits(true, true, false), |_| {})
            .unwrap();
        assert_eq!(result.symmetries, symmetries.len());
        assert_eq!(
            result.solutions_in_all,
            every.len(),
            "{:?} {every:?} {:?}",
            solver.metric(),
            result.solutions
        );
        let mut covered = BTreeSet::new();
        for leader in &result.solutions {
            assert!(every.contains(leader));
            let class: BTreeSet<Vec<Move>> =
                symmetries.iter().map(|&s| mapped(s, leader)).collect();
            // In QTM the search orders quarter turns (`U U` before `U D`), not merged ones.
            if solver.metric() == Metric::Htm {
                assert!(
                    class.iter().all(|s| s >= leader),
                    "a leader is first in its class"
                );
            }
            assert!(covered.is_disjoint(&class), "classes are disjoint");
            covered.extend(class);
        }
        assert_eq!(covered, every);
        let canonical = |symmetry| solve(solver, cube, limits(false, symmetry, true));
        assert_eq!(canonical(true), canonical(false));
        let quick = solve(solver, cube, limits(false, true, false));
        assert_eq!(quick[0].len(), canonical(false)[0].len());
    }
}

/// Distances from the solved cube of a projection of positions (`key`), by a breadth-first
/// search of cubies under `moves` out to `max_depth`: a reference that shares nothing with the
/// tables under test.
pub fn distances_by_cubies<K: std::hash::Hash + Eq>(
    moves: &[Move],
    key: impl Fn(&Cube3) -> K,
    max_depth: u8,
) -> FxHashMap<K, u8> {
    let mut distance = FxHashMap::from_iter([(key(&Cube3::SOLVED), 0u8)]);
    let mut frontier = vec![Cube3::SOLVED];
    for depth in 1..=max_depth {
        let mut next = Vec::new();
        for cube in &frontier {
            for &m in moves {
                let moved = cube.apply(m);
                distance.entry(key(&moved)).or_insert_with(|| {
                    next.push(moved);
                    depth
                });
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    distance
}

/// Copies table `kind` (HTM) from `dir` with a bit of its base flipped and its `.ok` stamp
/// copied too (so the checksum is not recomputed), and requires `open` to refuse the copy as
/// damaged instead of reading a bound that may be too high.
pub fn check_damaged_base_is_refused(
    dir: &std::path::Path,
    kind: cubelab::catalogue::TableKind,
    open: impl Fn(&std::path::Path) -> Option<cubelab::table::TableError>,
) {
    let id = cubelab::catalogue::TableId::new(kind, Metric::Htm);
    let copy = tempfile::tempdir().unwrap();
    let (from, to) = (id.path(dir), id.path(copy.path()));
    let mut bytes = std::fs::read(&from).unwrap();
    let base_byte = bytes.len() - 64;
    bytes[base_byte] ^= 1;
    std::fs::write(&to, &bytes).unwrap();
    let stamp = std::fs::read_to_string(format!("{}.ok", from.display())).unwrap();
    let modified = std::fs::metadata(&from).unwrap().modified().unwrap();
    std::fs::File::options()
        .write(true)
        .open(&to)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    std::fs::write(format!("{}.ok", to.display()), stamp).unwrap();
    let error = open(copy.path()).expect("a damaged table is refused");
    assert!(error.to_string().contains("damaged"), "{error}");
}
