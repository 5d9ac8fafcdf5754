//! Faces, face turns and the two metrics.

use std::fmt;

/// The six faces in the conventional order U R F D L B; `Face as usize` indexes that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    U = 0,
    R = 1,
    F = 2,
    D = 3,
    L = 4,
    B = 5,
}

impl Face {
    pub const ALL: [Face; 6] = [Face::U, Face::R, Face::F, Face::D, Face::L, Face::B];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Face {
        Face::ALL[i % 6]
    }

    pub const fn opposite(self) -> Face {
        Face::from_index(self.index() + 3)
    }

    /// Whether a turn of `self` then one of `next` turn opposite faces in the order canonical
    /// sequences leave out: turns of opposite faces commute, and of the two orders only U
    /// before D, R before L and F before B is kept.
    pub fn opposite_out_of_order(self, next: Face) -> bool {
        next == self.opposite() && next.index() < self.index()
    }

    /// The canonical rule: whether a turn of `next` may follow a turn of `self` in a canonical
    /// sequence (never the same face twice running, opposite faces in one order only). QTM's
    /// one exception, `U U` for a half turn, is [`crate::model::cube::Metric`]'s to allow.
    pub fn may_follow(self, next: Face) -> bool {
        next != self && !self.opposite_out_of_order(next)
    }

    pub const fn letter(self) -> char {
        ['U', 'R', 'F', 'D', 'L', 'B'][self.index()]
    }

    pub fn from_letter(c: char) -> Option<Face> {
        Face::ALL.into_iter().find(|f| f.letter() == c)
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A turn of one outer face by 1, 2 or 3 quarter turns clockwise (seen from that face).
///
/// Encoded as `face * 3 + (quarter_turns - 1)`, so the 18 moves are `0..18` in the order
/// U U2 U' R R2 R' F ... B'. That index is what move tables are keyed by.
/// Serialised as its index (`face x 3 + quarter turns - 1`), which never changes; an index out
/// of range does not deserialise.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(try_from = "u8", into = "u8")]
pub struct Move(u8);

impl TryFrom<u8> for Move {
    type Error = String;
    fn try_from(index: u8) -> Result<Move, String> {
        Move::from_index(usize::from(index)).ok_or_else(|| format!("no move has index {index}"))
    }
}

impl From<Move> for u8 {
    fn from(m: Move) -> u8 {
        m.0
    }
}

impl Move {
    pub const COUNT: usize = 18;

    pub const fn new(face: Face, quarter_turns: u8) -> Move {
        assert!(quarter_turns >= 1 && quarter_turns <= 3);
        Move(face as u8 * 3 + quarter_turns - 1)
    }

    /// The move with this index (`0..18`); `None` beyond.
    pub const fn from_index(i: usize) -> Option<Move> {
        if i < Self::COUNT {
            Some(Move(i as u8))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn face(self) -> Face {
        Face::from_index(self.0 as usize / 3)
    }

    /// 1, 2 or 3 quarter turns clockwise.
    pub const fn quarter_turns(self) -> u8 {
        self.0 % 3 + 1
    }

    pub const fn inverse(self) -> Move {
        Move::new(self.face(), 4 - self.quarter_turns())
    }

    pub fn all() -> impl Iterator<Item = Move> {
        (0..Self::COUNT as u8).map(Move)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = ["", "2", "'"][usize::from(self.quarter_turns() - 1)];
        write!(f, "{}{}", self.face(), suffix)
    }
}

/// How the length of a move sequence is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Half-turn metric: every face turn costs 1.
    Htm,
    /// Quarter-turn metric: quarter turns cost 1, half turns 2.
    Qtm,
}

crate::support::named::impl_named!(Metric, Metric::BOTH);

impl Metric {
    pub const BOTH: [Metric; 2] = [Metric::Htm, Metric::Qtm];

    pub const fn name(self) -> &'static str {
        match self {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
        }
    }

    /// Whether `m` is one step of this metric's search graph (QTM steps are quarter turns).
    pub const fn is_generator(self, m: Move) -> bool {
        match self {
            Metric::Htm => true,
            Metric::Qtm => m.quarter_turns() != 2,
        }
    }

    /// The generators of this metric among the turns of `faces`, in move-index order.
    pub fn generators(self, faces: &[Face]) -> Vec<Move> {
        Move::all()
            .filter(|m| faces.contains(&m.face()) && self.is_generator(*m))
            .collect()
    }

    pub fn cost(self, m: Move) -> u32 {
        match (self, m.quarter_turns()) {
            (Metric::Qtm, 2) => 2,
            _ => 1,
        }
    }

    pub fn length(self, moves: &[Move]) -> u32 {
        moves.iter().map(|&m| self.cost(m)).sum()
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Joins consecutive turns of the same face (`U U` becomes `U2`, `U U'` vanishes), which is how a
/// quarter-turn search path is printed.
pub fn merge_same_face(moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for &m in moves {
        match out.last() {
            Some(&last) if last.face() == m.face() => {
                out.pop();
                let turns = (last.quarter_turns() + m.quarter_turns()) % 4;
                if turns != 0 {
                    out.push(Move::new(m.face(), turns));
                }
            }
            _ => out.push(m),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_index_round_trips_and_names() {
        for m in Move::all() {
            assert_eq!(Move::from_index(m.index()), Some(m));
            assert_eq!(m.inverse().inverse(), m);
        }
        assert_eq!(Move::new(Face::F, 3).to_string(), "F'");
        assert_eq!(Move::new(Face::B, 2).to_string(), "B2");
        assert!(Move::from_index(18).is_none());
    }

    #[test]
    fn metrics_count_generators_and_costs() {
        assert_eq!(Metric::Htm.generators(&Face::ALL).len(), 18);
        assert_eq!(Metric::Qtm.generators(&Face::ALL).len(), 12);
        let seq = [Move::new(Face::U, 2), Move::new(Face::R, 1)];
        assert_eq!(Metric::Htm.length(&seq), 2);
        assert_eq!(Metric::Qtm.length(&seq), 3);
    }

    #[test]
    fn merging_joins_and_cancels() {
        let u = Move::new(Face::U, 1);
        let r = Move::new(Face::R, 1);
        assert_eq!(merge_same_face(&[u, u, r]), vec![Move::new(Face::U, 2), r]);
        assert_eq!(
            merge_same_face(&[r, u, u.inverse(), r]),
            vec![Move::new(Face::R, 2)]
        );
    }
}
