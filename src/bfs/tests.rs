use super::*;

/// States 0..n on a cycle, moves +1 and -1: the distance of i from 0 is min(i, n - i).
struct Cycle(u64);

impl MoveSpace for Cycle {
    fn move_count(&self) -> usize {
        2
    }
    fn apply(&self, state: u64, turn: usize) -> u64 {
        if turn == 0 {
            (state + 1) % self.0
        } else {
            (state + self.0 - 1) % self.0
        }
    }
}

impl StateSpace for Cycle {
    fn size(&self) -> u64 {
        self.0
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
}

/// Odd and even lengths in both encodings: the even cycle ends with a single state left,
/// which the backward scan finds; the long one is deeper than 4 bits hold but fine mod 3.
#[test]
fn distances_on_cycles() {
    for (n, encoding) in [
        (27u64, Encoding::Nibble),
        (28, Encoding::Nibble),
        (27, Encoding::Mod3),
        (28, Encoding::Mod3),
        (101, Encoding::Mod3),
    ] {
        let outcome = breadth_first(&Cycle(n), encoding, &ProgressBar::hidden()).unwrap();
        for i in 0..n {
            let d = i.min(n - i);
            let stored = crate::packing::entry(encoding, &outcome.packed, i);
            let expected = if encoding == Encoding::Nibble {
                d
            } else {
                d % 3
            };
            assert_eq!(
                u64::from(stored),
                expected,
                "state {i} of {n}, {encoding:?}"
            );
        }
        assert_eq!(outcome.histogram.iter().sum::<u64>(), n);
        assert_eq!(outcome.histogram.len() as u64, n / 2 + 1);
    }
}

/// The torus `rows x len` with moves one step along either axis, as rows: moves 0 and 1
/// change the row and keep the position, moves 2 and 3 keep the row and turn the position.
struct Torus {
    rows: u64,
    len: u64,
}

impl MoveSpace for Torus {
    fn move_count(&self) -> usize {
        4
    }
    fn apply(&self, state: u64, turn: usize) -> u64 {
        let (dest, step) = self.step(state / self.len, turn);
        dest * self.len + u64::from(self.position(step, (state % self.len) as u32))
    }
}

impl StateSpace for Torus {
    fn size(&self) -> u64 {
        self.rows * self.len
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
}

impl RowSpace for Torus {
    /// How far the position turns.
    type Step = u64;
    fn row_len(&self) -> u64 {
        self.len
    }
    fn step(&self, row: u64, turn: usize) -> (u64, u64) {
        match turn {
            0 => ((row + 1) % self.rows, 0),
            1 => ((row + self.rows - 1) % self.rows, 0),
            2 => (row, 1),
            _ => (row, self.len - 1),
        }
    }
    fn position(&self, step: u64, position: u32) -> u32 {
        ((u64::from(position) + step) % self.len) as u32
    }
}

/// Row by row and state by state give the same entries, the torus distances, in both
/// encodings, with one or several rows per byte-aligned block; rows that would share a
/// byte (lengths 13 and 6) are searched state by state, with the same result.
#[test]
fn rows_give_the_same_table() {
    for (rows, len) in [(9u64, 12u64), (11, 8), (6, 4), (9, 13), (10, 6)] {
        let torus = Torus { rows, len };
        for encoding in [Encoding::Nibble, Encoding::Mod3] {
            let bar = ProgressBar::hidden();
            let by_row = breadth_first_rows(&torus, encoding, &bar).unwrap();
            let by_state = breadth_first(&torus, encoding, &bar).unwrap();
            assert_eq!(by_row.packed, by_state.packed);
            assert_eq!(by_row.histogram, by_state.histogram);
            for state in 0..rows * len {
                let (i, j) = (state / len, state % len);
                let d = i.min(rows - i) + j.min(len - j);
                let stored = crate::packing::entry(encoding, &by_row.packed, state);
                let expected = if encoding == Encoding::Nibble {
                    d
                } else {
                    d % 3
                };
                assert_eq!(u64::from(stored), expected, "{rows}x{len} state {state}");
            }
        }
    }
}

#[test]
fn too_deep_is_an_error_not_garbage() {
    assert!(matches!(
        breadth_first(&Cycle(40), Encoding::Nibble, &ProgressBar::hidden()),
        Err(BfsError::TooDeep(15, MAX_DEPTH))
    ));
}

#[test]
fn byte_matching_finds_every_field() {
    for byte in 0..=255u8 {
        for value in 0..16u8 {
            let nibbles = byte & 0xF == value || byte >> 4 == value;
            assert_eq!(Cells::<4>::byte_holds(byte, value), nibbles);
        }
        for value in 0..4u8 {
            let crumbs = (0..4).any(|k| (byte >> (2 * k)) & 3 == value);
            assert_eq!(Cells::<2>::byte_holds(byte, value), crumbs);
        }
    }
}

/// A run saves once its passes since the last save took as long as a save: before the first,
/// as long as writing the table at the disk rate the policy assumes; after it, as long as the
/// last save took.
#[test]
fn a_run_saves_once_its_passes_outlast_a_save() {
    // A billion 8-bit entries: a first save estimated at 2 s.
    let mut saves = SavePolicy::new(1_000_000_000, 8);
    assert!(!saves.due(0.5));
    assert!(!saves.due(1.0));
    assert!(saves.due(0.6));
    saves.saved(3.0);
    assert!(!saves.due(2.9));
    assert!(saves.due(0.2));
    // Small tables save after every depth.
    let mut small = SavePolicy::new(1_000, 2);
    assert!(small.due(0.001));
}
