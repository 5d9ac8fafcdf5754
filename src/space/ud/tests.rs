use super::*;
use crate::space::RowSpace;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

const SHAPES: [Shape; 3] = [
    Shape {
        places: EdgePlaces::Slice,
        flips: EdgeFlips::Slice,
    },
    Shape {
        places: EdgePlaces::SliceOrder,
        flips: EdgeFlips::Layers,
    },
    Shape {
        places: EdgePlaces::Layers,
        flips: EdgeFlips::All,
    },
];

/// Moving the coordinate by tables agrees with moving the cubies.
#[test]
fn moves_agree_with_cubies() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    for shape in SHAPES {
        let space = UdSpace::new(shape, Metric::Htm);
        for _ in 0..100 {
            let cube = Cube3::random(&mut rng);
            let c = UdCoord::of(&cube, shape);
            for (turn, &m) in space.moves().iter().enumerate() {
                assert_eq!(
                    space.apply_coord(c, turn),
                    UdCoord::of(&cube.apply(m), shape)
                );
            }
        }
    }
}

/// Every U-D conjugate of a position has the same index (up to the stabilizer's choice),
/// and the index decodes to a coordinate with that index: so the table's entry for a
/// position is shared by all its symmetric images.
#[test]
fn symmetric_positions_share_an_index() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(22);
    for shape in SHAPES {
        let space = UdSpace::new(shape, Metric::Htm);
        for _ in 0..100 {
            let cube = Cube3::random(&mut rng);
            let index = space.representative(space.index(UdCoord::of(&cube, shape)));
            assert!(index < shape.entries());
            for &s in Symmetry::ud() {
                let image = Symmetry::nth(s).conjugate(&cube);
                let image_index = space.index(UdCoord::of(&image, shape));
                assert_eq!(space.representative(image_index), index);
            }
            assert_eq!(
                space.representative(space.index(space.coord_of(index))),
                index
            );
        }
    }
}

/// The masks of a conjugate follow from the masks alone (the flips from the flips and the
/// E-slice slots).
#[test]
fn flip_maps_agree_with_conjugation() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let shape = SHAPES[2];
    let space = UdSpace::new(shape, Metric::Htm);
    for _ in 0..200 {
        let cube = Cube3::random(&mut rng);
        let c = UdCoord::of(&cube, shape);
        for (i, &s) in Symmetry::ud().iter().enumerate() {
            let image = UdCoord::of(&Symmetry::nth(s).conjugate(&cube), shape);
            let (slice, _, flips) = space.conjugate_edges(&c, i);
            assert_eq!((slice, flips), (image.slice.into(), image.flips.into()));
            let layer = space.edge_syms[i].layer(c.slice.into(), c.layer.into());
            assert_eq!(layer, u32::from(image.layer));
        }
    }
}

/// The same cosets without the symmetry reduction: corner part x edge part, every value
/// its own state. Ranked `corners x edge_values + edge`; the flips of a state are zero where
/// the shape keeps none, as in [`UdSpace::coord_of`].
struct Unreduced<'a>(&'a UdSpace);

impl Unreduced<'_> {
    fn rank(&self, c: UdCoord) -> u64 {
        let (slice, places, flips) = self.0.conjugate_edges(&c, 0);
        u64::from(c.corners()) * u64::from(self.0.shape.edge_values())
            + u64::from(self.0.edge_value(slice, places, flips))
    }

    fn coord_of(&self, state: u64) -> UdCoord {
        let edge_values = u64::from(self.0.shape.edge_values());
        let class_zero = self.0.coord_of(state % edge_values);
        let corners = (state / edge_values) as u32;
        UdCoord {
            split: (corners / TWISTS) as u8,
            twist: (corners % TWISTS) as u16,
            ..class_zero
        }
    }
}

impl MoveSpace for Unreduced<'_> {
    fn move_count(&self) -> usize {
        self.0.moves.len()
    }
    fn apply(&self, state: u64, turn: usize) -> u64 {
        self.rank(self.0.apply_coord(self.coord_of(state), turn))
    }
}

impl StateSpace for Unreduced<'_> {
    fn size(&self) -> u64 {
        u64::from(CORNER_VALUES) * u64::from(self.0.shape.edge_values())
    }
    fn goals(&self) -> Vec<u64> {
        vec![self.rank(UdCoord::of(&Cube3::SOLVED, self.0.shape))]
    }
}

/// The symmetry-reduced table of the smallest shape against a search of the same cosets
/// without symmetry (1.2 billion states): every coset's entry, looked up through its corner
/// class and symmetry, is its distance in the unreduced search. Three minutes on two
/// cores, so run by `scripts/check-tables.sh ud` (results in reports/ud-table-checks.md).
#[test]
#[ignore = "three minutes; run by scripts/check-tables.sh ud"]
fn the_reduced_table_equals_an_unreduced_search() {
    use crate::bfs::breadth_first;
    use crate::packing::{Encoding, nibble};
    use indicatif::ProgressBar;
    use rayon::prelude::*;
    let shape = SHAPES[0];
    let space = UdSpace::new(shape, Metric::Htm);
    let unreduced = Unreduced(&space);
    let goal = unreduced.goals()[0];
    assert_eq!(unreduced.coord_of(goal), UdCoord::of(&Cube3::SOLVED, shape));
    let bar = ProgressBar::hidden();
    let reduced = breadth_first(&space, Encoding::Nibble, &bar).unwrap();
    let full = breadth_first(&unreduced, Encoding::Nibble, &bar).unwrap();
    assert_eq!(full.histogram.iter().sum::<u64>(), unreduced.size());
    assert_eq!(reduced.histogram.iter().sum::<u64>(), space.size());
    let edge_values = u64::from(shape.edge_values());
    let mismatches: u64 = (0..u64::from(CORNER_VALUES))
        .into_par_iter()
        .map(|corners| {
            let mut wrong = 0;
            for edge in 0..edge_values {
                let state = corners * edge_values + edge;
                let index = space.index(unreduced.coord_of(state));
                wrong += u64::from(nibble(&reduced.packed, index) != nibble(&full.packed, state));
            }
            wrong
        })
        .sum();
    assert_eq!(mismatches, 0);
}

/// Row steps agree with moving states one by one, representatives included.
#[test]
fn rows_agree_with_states() {
    use rand::RngExt;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(24);
    let layers = Shape {
        places: EdgePlaces::Layers,
        flips: EdgeFlips::Slice,
    };
    for shape in [SHAPES[0], SHAPES[1], layers] {
        for metric in Metric::BOTH {
            let space = UdSpace::new(shape, metric);
            let rows = UdRows::new(&space);
            let len = rows.row_len();
            for _ in 0..2_000 {
                let any = rng.random_range(0..space.size());
                let (row, position) = (any / len, (any % len) as u32);
                let state = space.representative(any);
                assert_eq!(
                    row * len + u64::from(rows.row_representative(row, position)),
                    state
                );
                if !rows.row_has_duplicates(row) {
                    assert_eq!(state, any);
                }
                for turn in 0..space.move_count() {
                    let (dest, step) = rows.step(state / len, turn);
                    let position = rows.position(step, (state % len) as u32);
                    assert_eq!(
                        dest * len + u64::from(position),
                        space.apply(state, turn),
                        "{shape:?} {metric:?} state {state} turn {turn}"
                    );
                }
            }
        }
    }
}

/// The subgroup holds U and D: their turns keep the solved coset; every other turn leaves it.
#[test]
fn u_and_d_turns_keep_the_goal() {
    for shape in SHAPES {
        let space = UdSpace::new(shape, Metric::Htm);
        let goal = space.goals()[0];
        for (turn, &m) in space.moves().iter().enumerate() {
            let kept = matches!(m.face(), Face::U | Face::D);
            assert_eq!(space.apply(goal, turn) == goal, kept, "{shape:?} {m}");
        }
    }
}
