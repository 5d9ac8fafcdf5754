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
//! go on past the prefix, so it is compared only when no turn on its axis may follow.

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
            let mut image = Vec::with_capacity(moves.len());
            image_into(s, moves, &mut image);
            image
        })
    }

    /// Whether some symmetry maps the canonical sequence `moves` to a smaller one (in move-index
    /// order, [`Move`]'s own). One buffer serves every image: the search asks this of each of
    /// hundreds of thousands of prefixes per iteration.
    fn has_smaller_image(&self, moves: &[Move]) -> bool {
        let mut image = Vec::with_capacity(moves.len());
        self.symmetries[1..].iter().any(|&s| {
            image_into(s, moves, &mut image);
            image.as_slice() < moves
        })
    }

    /// Whether some solution that begins with `prefix` (canonical) may lead its class: no
    /// symmetry maps the prefix's complete runs to a smaller sequence. False means that every
    /// solution below the prefix has a smaller image, which the search finds elsewhere.
    /// `last_run_complete` says that no turn on the last turn's axis may follow (after `D` in
    /// HTM); otherwise the last run may grow and is not compared.
    pub fn may_lead(&self, prefix: &[Move], last_run_complete: bool) -> bool {
        let complete = if last_run_complete {
            prefix.len()
        } else {
            last_run_start(prefix)
        };
        !self.has_smaller_image(&prefix[..complete])
    }

    /// Whether a canonical solution is the leader of its class.
    pub fn leads(&self, solution: &[Move]) -> bool {
        !self.has_smaller_image(solution)
    }

    /// How many distinct solutions the class of `solution` holds.
    pub fn class_size(&self, solution: &[Move]) -> usize {
        let mut class: Vec<Vec<Move>> = self.images(solution).collect();
        class.push(solution.to_vec());
        class.sort_unstable();
        class.dedup();
        class.len()
    }
}

/// Whether two turns are on one axis (one face, or opposite faces).
fn same_axis(a: Move, b: Move) -> bool {
    a.face() == b.face() || a.face() == b.face().opposite()
}

/// Where the last run of turns on one axis begins (0 for no turns).
fn last_run_start(moves: &[Move]) -> usize {
    let mut start = moves.len().saturating_sub(1);
    while start > 0 && same_axis(moves[start - 1], moves[start]) {
        start -= 1;
    }
    start
}

/// The image of canonical `moves` under symmetry number `s`, written canonically into `image`:
/// each run put back in face order (a turn moved back past the opposite face's turns before
/// it; the two commute), and a QTM half turn spelled `U U` (a mirror makes it `U' U'`).
fn image_into(s: u8, moves: &[Move], image: &mut Vec<Move>) {
    image.clear();
    image.extend(moves.iter().map(|&m| Symmetry::map_move_of(s, m)));
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
    for i in 1..image.len() {
        if image[i].face() == image[i - 1].face() {
            let clockwise = Move::new(image[i].face(), 1);
            (image[i - 1], image[i]) = (clockwise, clockwise);
        }
    }
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
    fn the_last_run_is_found() {
        assert_eq!(last_run_start(&moves("U D R L2")), 2);
        assert_eq!(last_run_start(&moves("U D R L2 F")), 4);
        assert_eq!(last_run_start(&moves("U D")), 0);
        assert_eq!(last_run_start(&[]), 0);
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
            for pair in image.windows(2) {
                let ordered = pair[0].face().index() < pair[1].face().index();
                assert!(!same_axis(pair[0], pair[1]) || ordered, "{image:?}");
            }
        }
        let mut class = images;
        class.push(solution.clone());
        class.sort_unstable();
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
