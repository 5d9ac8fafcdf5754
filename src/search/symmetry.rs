//! The symmetries of the position being solved, and the searching they save.
//!
//! If a symmetry `s` keeps the position (`s·x·s⁻¹ = x`), it maps every solution of `x` to a
//! solution of `x` of the same length, move by move ([`Symmetry::map_move_of`]). The optimal
//! solutions then fall into classes of images, and one solution of each class says everything:
//! the first of its class in canonical order, its *leader*. A leader's first moves are
//! themselves first among their images, so the search drops every subtree whose first moves
//! some symmetry maps to a smaller sequence. For the superflip, which all 48 symmetries keep,
//! that leaves about one subtree in 40.
//!
//! Two canonical sequences are compared move by move in move-index order, which is the order
//! in which the search numbers its subtrees. The first optimal solution in canonical order is
//! then a leader, so the symmetry never changes the answer of a `--deterministic` search.
//!
//! The image of a canonical sequence is canonical once each run of turns on one axis is put
//! back in face order (`D U` becomes `U D`; the two commute), and in QTM `U' U'` is spelled
//! `U U`. A run is the unit that keeps its place: a symmetry maps a run to a run of the same
//! length on some axis, and two runs in a row stay on different axes. A prefix's last run may
//! go on past the prefix, so only the runs before it are compared.

use crate::cube::{Cube3, Move, Symmetry};

/// The symmetries that keep one position, by number (see [`Symmetry::nth`]), the identity
/// first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSymmetry {
    symmetries: Vec<u8>,
}

impl PositionSymmetry {
    /// The symmetries of `cube` among the 48.
    pub fn of(cube: &Cube3) -> PositionSymmetry {
        let symmetries = (0..48u8)
            .filter(|&s| Symmetry::nth(s).conjugate(cube) == *cube)
            .collect();
        PositionSymmetry { symmetries }
    }

    /// The identity alone: every solution is a class of its own.
    pub fn none() -> PositionSymmetry {
        PositionSymmetry {
            symmetries: vec![0],
        }
    }

    /// How many symmetries keep the position (1 to 48; a divisor of 48).
    pub fn order(&self) -> usize {
        self.symmetries.len()
    }

    /// The images of a canonical sequence under the symmetries other than the identity, each
    /// made canonical.
    fn images<'a>(&'a self, moves: &'a [Move]) -> impl Iterator<Item = Vec<Move>> + 'a {
        self.symmetries[1..].iter().map(move |&s| {
            let mut image: Vec<Move> = moves.iter().map(|&m| Symmetry::map_move_of(s, m)).collect();
            for run in runs(&image) {
                image[run].sort_by_key(|m| m.face().index());
            }
            // QTM spells a half turn `U U` only; a mirror makes it `U' U'`.
            for i in 1..image.len() {
                if image[i].face() == image[i - 1].face() {
                    let clockwise = Move::new(image[i].face(), 1);
                    (image[i - 1], image[i]) = (clockwise, clockwise);
                }
            }
            image
        })
    }

    /// Whether some solution that begins with `prefix` (canonical) may lead its class: no
    /// symmetry maps the prefix's complete runs to a smaller sequence. False means that every
    /// solution below the prefix has a smaller image, which the search finds elsewhere.
    /// `last_run_complete` says that no turn on the last turn's axis may follow (after `D` in
    /// HTM); otherwise the last run may grow and is not compared.
    pub fn may_lead(&self, prefix: &[Move], last_run_complete: bool) -> bool {
        let complete = match runs(prefix).last() {
            Some(last) if !last_run_complete => last.start,
            _ => prefix.len(),
        };
        let fixed = &prefix[..complete];
        self.images(fixed)
            .all(|image| by_index(&image) >= by_index(fixed))
    }

    /// Whether a canonical solution is the leader of its class.
    pub fn leads(&self, solution: &[Move]) -> bool {
        self.images(solution)
            .all(|image| by_index(&image) >= by_index(solution))
    }

    /// How many distinct solutions the class of `solution` holds.
    pub fn class_size(&self, solution: &[Move]) -> usize {
        let mut class: Vec<Vec<Move>> = self.images(solution).collect();
        class.push(solution.to_vec());
        class.sort_by_key(|s| by_index(s));
        class.dedup();
        class.len()
    }
}

/// The move indices of a sequence, which order sequences as the search orders its subtrees.
fn by_index(moves: &[Move]) -> Vec<usize> {
    moves.iter().map(|m| m.index()).collect()
}

/// The maximal runs of turns on one axis (a face and its opposite), as index ranges.
fn runs(moves: &[Move]) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=moves.len() {
        let same_axis = i < moves.len() && {
            let (a, b) = (moves[i - 1].face(), moves[i].face());
            a == b || a == b.opposite()
        };
        if !same_axis {
            runs.push(start..i);
            start = i;
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_moves;

    fn moves(text: &str) -> Vec<Move> {
        parse_moves(text).unwrap()
    }

    fn position(text: &str) -> Cube3 {
        Cube3::from_moves(&moves(text))
    }

    /// Known orders of symmetry groups: the solved cube and the superflip are kept by all 48,
    /// a quarter turn by the four rotations about its axis, a half turn also by the four
    /// mirrors through planes that hold its axis, and a random position by the identity alone.
    #[test]
    fn symmetry_groups_have_their_known_orders() {
        let superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
        assert_eq!(PositionSymmetry::of(&Cube3::SOLVED).order(), 48);
        assert_eq!(PositionSymmetry::of(&position(superflip)).order(), 48);
        assert_eq!(PositionSymmetry::of(&position("U")).order(), 4);
        assert_eq!(PositionSymmetry::of(&position("U2")).order(), 8);
        assert_eq!(
            PositionSymmetry::of(&position("U2 D2 F2 B2 L2 R2")).order(),
            48
        );
        let scramble = "R' U F' R L2 R L U R B' R' F' R U' B2 R2 U' L R2 D B' D B2 L2 U";
        assert_eq!(PositionSymmetry::of(&position(scramble)).order(), 1);
        assert_eq!(PositionSymmetry::none().order(), 1);
    }

    #[test]
    fn runs_group_turns_of_one_axis() {
        assert_eq!(runs(&moves("U D R L2 F")), vec![0..2, 2..4, 4..5]);
        assert_eq!(runs(&[]), Vec::<std::ops::Range<usize>>::new());
    }

    /// Every image of a solution solves the position, is canonical (runs in face order) and
    /// the class holds exactly one leader.
    #[test]
    fn images_are_canonical_solutions_with_one_leader() {
        let cube = position("U2 D2 F2 B2 L2 R2");
        let symmetry = PositionSymmetry::of(&cube);
        let solution = moves("U2 D2 F2 B2 L2 R2");
        let images: Vec<Vec<Move>> = symmetry.images(&solution).collect();
        for image in &images {
            assert!(cube.apply_all(image).is_solved());
            for run in runs(image) {
                let faces: Vec<usize> = image[run].iter().map(|m| m.face().index()).collect();
                assert!(faces.windows(2).all(|w| w[0] < w[1]), "{image:?}");
            }
        }
        let mut class = images;
        class.push(solution.clone());
        class.sort_by_key(|s| by_index(s));
        class.dedup();
        assert_eq!(class.len(), symmetry.class_size(&solution));
        assert_eq!(class.iter().filter(|s| symmetry.leads(s)).count(), 1);
        assert!(symmetry.leads(&class[0]));
    }

    /// A prefix is dropped only when its complete runs have a smaller image: `R` alone may
    /// still become `R L`, whose image `U D` is smaller, but `R U` has the image `U R`, and a
    /// complete `L` has the image `U`.
    #[test]
    fn prefixes_are_judged_by_their_complete_runs() {
        let symmetry = PositionSymmetry::of(&Cube3::SOLVED);
        assert!(symmetry.may_lead(&moves("U"), false));
        assert!(symmetry.may_lead(&moves("R"), false));
        assert!(!symmetry.may_lead(&moves("R U"), false));
        assert!(symmetry.may_lead(&moves("U R"), false));
        assert!(!symmetry.may_lead(&moves("U' R"), false));
        assert!(!symmetry.may_lead(&moves("U L"), true));
        assert!(symmetry.may_lead(&moves("U R"), true));
        assert!(PositionSymmetry::none().may_lead(&moves("B' L"), true));
    }

    /// Of the 43,254 canonical HTM sequences of four turns, about one in 48 may lead its class
    /// under all 48 symmetries (a few more: sequences that some symmetries keep lead classes
    /// smaller than 48).
    #[test]
    fn the_superflips_symmetry_keeps_about_one_prefix_in_48() {
        use crate::search::canonical::Canonical;
        let turns: Vec<Move> = Move::all().collect();
        let canonical = Canonical::new(crate::cube::Metric::Htm, &turns);
        let mut level: Vec<(Vec<Move>, usize)> = vec![(Vec::new(), Canonical::ROOT)];
        for _ in 0..4 {
            let mut longer = Vec::new();
            for (prefix, history) in &level {
                let allowed = canonical.allowed(*history);
                for (t, &turn) in turns.iter().enumerate() {
                    if allowed & 1 << t != 0 {
                        let mut next = prefix.clone();
                        next.push(turn);
                        longer.push((next, Canonical::after(*history, t)));
                    }
                }
            }
            level = longer;
        }
        assert_eq!(level.len(), 43_254);
        let symmetry = PositionSymmetry::of(&Cube3::SOLVED);
        let kept = level
            .iter()
            .filter(|(prefix, history)| {
                let last = prefix[3].index() as u8;
                symmetry.may_lead(prefix, !canonical.run_may_grow(*history, last))
            })
            .count();
        assert!((43_254 / 48..43_254 / 40).contains(&kept), "{kept}");
    }
}
