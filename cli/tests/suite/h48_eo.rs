//! The `h48-eo` tables (48-symmetry cosets with the flips of single edges kept, filled from the
//! cosets near solved by a walk): the fill against the engine's exact search, the walk against
//! the sparse search alone, the fill written straight into packed lines against the packed
//! four-bit fill, the solver that reads a small such table against an independent search, and
//! (ignored, for built tables) each table's bounds and solutions and each against its finer
//! neighbour.

use crate::common;
use cubelab::catalogue::h48_eo::{Filled, fill, fill_based};
use cubelab::catalogue::{TableId, TableKind};
use cubelab::model::cube::{Cube3, Metric};
use cubelab::model::notation::parse_moves;
use cubelab::packing::{Encoding, based, nibble};
use cubelab::search::heuristic::{AnyHeuristic, H48Heuristic, Heuristic};
use cubelab::search::ida::Solver;
use cubelab::space::h48::{H48Flips, H48Space, H48Table};
use indicatif::ProgressBar;
use std::sync::LazyLock;

static ALL: LazyLock<H48Space> = LazyLock::new(|| H48Space::new(H48Flips::All, Metric::Htm));

fn filled(kept: u32, near: u8, max_depth: u8) -> (H48Table, Filled) {
    let table = H48Table {
        flips: H48Flips::All,
        dropped: 11 - kept,
    };
    (
        table,
        fill(&ALL, table, near, max_depth, &ProgressBar::hidden()),
    )
}

/// Keeping no flip, an entry is the smallest distance over all flips of an `H0` coset, which is
/// the `H0` coset's own distance: the smallest over its four flip parities in the engine's exact
/// search of `h48-parity`. Filled from the cosets within 5 moves and a walk of 3 more, every
/// entry at most 8 moves equals it, and every other is unreached. This checks the walk, the
/// writes of every symmetric variant and the member's coordinate against the engine.
#[test]
fn keeping_no_flip_gives_the_engines_h0_distances() {
    let exact = crate::common::h48_parity_exact(Metric::Htm);
    let (_, h0) = filled(0, 5, 8);
    let parities = u64::from(H48Flips::Parity.values());
    let mut counts = [0u64; 10];
    for coset in 0..H48Flips::Parity.entries() / parities {
        let truth = (0..parities)
            .map(|kept| nibble(&exact.packed, coset * parities + kept))
            .min()
            .unwrap();
        let got = h0.get(coset);
        if truth <= 8 {
            assert_eq!(got, Some(truth), "coset {coset}");
        } else {
            assert_eq!(got, None, "coset {coset} at {truth}");
        }
        counts[usize::from(truth.min(9))] += 1;
    }
    assert_eq!(h0.histogram(), counts.to_vec());
}

/// The walk three moves out from the cosets at 4 moves writes exactly what the sparse search
/// to 7 moves finds on its own, entry by entry, with three flips kept.
#[test]
fn the_walk_writes_what_the_search_finds() {
    let (_, walked) = filled(3, 4, 7);
    let (_, searched) = filled(3, 7, 7);
    assert_eq!(walked.histogram(), searched.histogram());
    assert!(walked.nibbles == searched.nibbles, "the entries differ");
}

/// The based fill writes, in place, the very bytes that packing the four-bit fill makes, and
/// its histogram: every code, every line's minimum (the near cosets' exact values under the
/// base among them), the last line's padding and the trailer. Two flips kept, the cosets
/// within 5 moves, the walk to 8, base 6.
#[test]
fn the_based_fill_is_the_packed_four_bit_fill() {
    let (table, exact) = filled(2, 5, 8);
    assert_ne!(
        table.entries() % based::PER_LINE,
        0,
        "a last line with padding"
    );
    let histogram = exact.histogram();
    let packed = based::pack(exact.nibbles, table.entries(), 6);
    let direct = fill_based(&ALL, table, 5, &ProgressBar::hidden());
    assert_eq!(direct.histogram, histogram);
    assert_eq!(direct.payload.len(), packed.len());
    let differing = direct
        .payload
        .iter()
        .zip(&packed)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differing, 0, "bytes differ");
}

/// A small `h48-eo4` table (filled to 8 moves, base 6) written as a file: the solver that reads
/// it finds the lengths an independent search finds, with and without the inverse lookup, and
/// the lengths of positions in the subgroups, which its coordinate alone would call solved.
#[test]
fn a_small_eo_table_solves_optimally() {
    let dir = tempfile::tempdir().unwrap();
    let table = H48Table {
        flips: H48Flips::All,
        dropped: 11 - 4,
    };
    let small = fill_based(&ALL, table, 5, &ProgressBar::hidden());
    let base = cubelab::catalogue::h48_eo::base_of_histogram(&small.histogram);
    assert_eq!(base, 6);
    let id = TableId::new(TableKind::H48Eo4, Metric::Htm);
    id.write(dir.path(), Encoding::Based, small.histogram, &small.payload)
        .unwrap();
    let solver = |metric: Metric| {
        Solver::new(AnyHeuristic::open(dir.path(), metric, TableKind::H48Eo4).unwrap())
    };
    common::check_lengths_against_independent_search(solver, &[(Metric::Htm, 10, 61)]);
    let htm = solver(Metric::Htm);
    for (text, length) in [
        ("", 0),
        ("U D'", 2),
        ("U R2 U'", 3),
        ("U2 D2 F2 B2 L2 R2", 6),
        ("R2 U2 R2 U2 R2 U2", 6),
    ] {
        let cube = Cube3::from_moves(&parse_moves(text).unwrap());
        assert_eq!(common::optimal_length(&htm, &cube, true), length, "{text}");
    }
}

/// `$CUBELAB_DATA` (default `data/`) and the `h48-eo` tables built there, coarsest first.
fn built_eo_tables() -> (std::path::PathBuf, Vec<TableKind>) {
    let dir: std::path::PathBuf =
        std::env::var_os("CUBELAB_DATA").map_or_else(|| "data".into(), Into::into);
    let kinds = TableKind::ALL
        .into_iter()
        .filter(|k| k.is_h48_eo() && TableId::new(*k, Metric::Htm).is_present(&dir))
        .collect();
    (dir, kinds)
}

/// Every `h48-eo` table present in `$CUBELAB_DATA` (default `data/`; `gen-tables h48-eo6` takes
/// about 11 minutes here): it bounds 500 positions up to 9 turns from solved by at most their true
/// distance (a meet-in-the-middle search), and its solver finds the independent search's
/// lengths. Run by `scripts/check-tables.sh h48-eo`.
#[test]
#[ignore = "needs an h48-eo table built; run by scripts/check-tables.sh h48-eo"]
fn built_eo_tables_bound_and_solve() {
    let (dir, kinds) = built_eo_tables();
    assert!(!kinds.is_empty(), "no h48-eo table in {}", dir.display());
    let near = common::NearSolved::shared(Metric::Htm, 5);
    let positions = common::random_scrambles(Metric::Htm, 500, 9, 62);
    for kind in kinds {
        let heuristic = H48Heuristic::open(&dir, Metric::Htm, kind).unwrap();
        for position in &positions {
            let (bound, d) = (heuristic.value(position), near.distance(position).unwrap());
            assert!(
                bound <= d,
                "{}: bound {bound} over distance {d}",
                kind.name()
            );
        }
        let solver = Solver::new(AnyHeuristic::open(&dir, Metric::Htm, kind).unwrap());
        for position in common::random_scrambles(Metric::Htm, 6, 10, 63) {
            let truth = u32::from(near.distance(&position).expect("within 11"));
            let found = common::optimal_length(&solver, &position, true);
            assert_eq!(found, truth, "{}", kind.name());
        }
        eprintln!("{}: 500 bounds and 6 solutions checked", kind.name());
    }
}

/// Every pair of neighbouring `h48-eo` tables present in `$CUBELAB_DATA`: an entry of the
/// coarser (one flip fewer) is the smaller of the two finer entries it stands for, over every
/// entry: code by code where the two share a base (the codes order as the distances do), and
/// where they do not (`h48-eo6`'s 8 under `h48-eo7`'s 9) the distances the coarser code stands
/// for must hold the smaller finer one's; and each of its lines' minima, over the 254 entries
/// that stand for two whole lines of the finer, is the smaller of theirs, as far as both
/// tables tell distances apart (up to the smaller base + 3). Two builds' walks, written
/// independently, must agree on all of it: a check of the larger table by the smaller, whose
/// own check is above. Run by
/// `scripts/check-tables.sh h48-eo` where two neighbours are among the tables it builds; with
/// none it fails, having compared nothing.
#[test]
#[ignore = "needs two neighbouring h48-eo tables built; run by scripts/check-tables.sh h48-eo"]
fn built_eo_tables_are_their_finer_neighbours_collapsed() {
    use cubelab::table::Verify;
    let (dir, kinds) = built_eo_tables();
    let present: Vec<TableId> = kinds
        .into_iter()
        .map(|k| TableId::new(k, Metric::Htm))
        .collect();
    let pairs: Vec<(TableId, TableId)> = present
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|(coarse, fine)| {
            let dropped = |id: &TableId| id.kind.h48_table().unwrap().dropped;
            dropped(coarse) == dropped(fine) + 1
        })
        .collect();
    assert!(
        !pairs.is_empty(),
        "no two neighbouring h48-eo tables in {}: nothing to compare (build two, e.g. \
         `gen-tables h48-eo5 h48-eo6`, or leave this test out)",
        dir.display()
    );
    for (coarse, fine) in pairs {
        let (coarse_table, fine_table) = (
            coarse.open(&dir, Verify::IfNew).unwrap(),
            fine.open(&dir, Verify::IfNew).unwrap(),
        );
        let (c, f) = (
            based::Based::new(coarse_table.payload()).unwrap(),
            based::Based::new(fine_table.payload()).unwrap(),
        );
        let entries = cubelab::catalogue::entries(coarse.kind);
        let (differing, differing_minima) = collapse_differences(&c, &f, entries);
        assert_eq!(differing, 0, "{} against {}", coarse.name(), fine.name());
        assert_eq!(differing_minima, 0, "line minima of {}", coarse.name());
        eprintln!(
            "{} is {} collapsed: {entries} entries checked",
            coarse.name(),
            fine.name()
        );
    }
}

/// How many entries of the coarser table `c` (of `entries`) are not the smaller of the two
/// finer entries of `f` they stand for, and how many of its lines' minima are not the smaller
/// of the two finer lines', as far as both tell distances apart: code by code over one base,
/// by the distances the codes stand for over bases one apart (see
/// `built_eo_tables_are_their_finer_neighbours_collapsed`).
fn collapse_differences(c: &based::Based, f: &based::Based, entries: u64) -> (u64, usize) {
    use rayon::prelude::*;
    let (coarse_base, fine_base) = (c.base(), f.base());
    assert!(
        fine_base == coarse_base || fine_base == coarse_base + 1,
        "bases {coarse_base} and {fine_base}"
    );
    // The distances a code stands for, as a closed range (code 0: the base or less).
    let range = |code: u8, base: u8| match code {
        0 => (0, base),
        3 => (base + 3, u8::MAX),
        k => (base + k, base + k),
    };
    let agree = |coarse_code: u8, fine_code: u8| {
        let (a, b) = (range(coarse_code, coarse_base), range(fine_code, fine_base));
        a.0 <= b.1 && b.0 <= a.1
    };
    let differing: u64 = (0..entries.div_ceil(1 << 20))
        .into_par_iter()
        .map(|block| {
            let first = block << 20;
            (first..(first + (1 << 20)).min(entries))
                .filter(|&i| !agree(c.code(i), f.code(2 * i).min(f.code(2 * i + 1))))
                .count() as u64
        })
        .sum();
    let minimum = |lines: &[u8], line: usize| {
        lines
            .get(line * based::LINE_BYTES + based::LINE_BYTES - 1)
            .map_or(u8::MAX, |byte| byte >> 4)
    };
    let coarse_lines = c.lines().len() / based::LINE_BYTES;
    let told = coarse_base + 3;
    let differing_minima = (0..coarse_lines)
        .into_par_iter()
        .filter(|&line| {
            let finer = minimum(f.lines(), 2 * line).min(minimum(f.lines(), 2 * line + 1));
            minimum(c.lines(), line).min(told) != finer.min(told)
        })
        .count();
    (differing, differing_minima)
}

/// Two small neighbouring rungs filled over bases one apart, as `h48-eo6` (base 8) and
/// `h48-eo7` (base 9) are: three flips from the cosets within 4 moves (base 5), four from
/// those within 5 (base 6). The coarser is the finer collapsed as far as both tell distances
/// apart, so the check of real neighbours over two bases compares what it says it does; and a
/// coarser table with one code changed fails it.
#[test]
fn rungs_over_bases_one_apart_are_checked_as_collapsed() {
    let rung = |flips: u32| H48Table {
        flips: H48Flips::All,
        dropped: 11 - flips,
    };
    let (coarse, fine) = (rung(3), rung(4));
    let coarse_fill = fill_based(&ALL, coarse, 4, &ProgressBar::hidden());
    let fine_fill = fill_based(&ALL, fine, 5, &ProgressBar::hidden());
    let (c, f) = (
        based::Based::new(&coarse_fill.payload).unwrap(),
        based::Based::new(&fine_fill.payload).unwrap(),
    );
    assert_eq!((c.base(), f.base()), (5, 6));
    assert_eq!(collapse_differences(&c, &f, coarse.entries()), (0, 0));
    // An entry of code 2 (exactly 7) made code 3 (8 or more): the finer says 7.
    let entries = coarse.entries();
    let changed = (0..entries)
        .find(|&i| c.code(i) == 2)
        .expect("an entry of 7");
    let mut damaged = coarse_fill.payload.clone();
    let (byte, shift) = based::locate(changed);
    damaged[byte] |= 3 << shift;
    let d = based::Based::new(&damaged).unwrap();
    assert_eq!(collapse_differences(&d, &f, entries).0, 1);
}
