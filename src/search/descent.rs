//! Solving by walking down a complete distance table: from a state at distance `d`, some move
//! reaches distance `d - 1`; follow one (or all) of them to 0.

use crate::packing::{Encoding, entry, nibble};
pub use crate::space::MoveSpace;

/// One shortest path from `state` to distance 0 as turn numbers, or `None` if the table has no
/// finite distance for `state` or is inconsistent.
pub fn descend(space: &impl MoveSpace, table: &[u8], mut state: u64) -> Option<Vec<usize>> {
    let mut distance = nibble(table, state);
    let mut path = Vec::with_capacity(usize::from(distance));
    while distance > 0 {
        let (turn, next) = (0..space.move_count())
            .map(|turn| (turn, space.apply(state, turn)))
            .find(|&(_, next)| nibble(table, next) == distance - 1)?;
        path.push(turn);
        state = next;
        distance -= 1;
    }
    Some(path)
}

/// Every shortest path from `state` to distance 0 (depth-first, in turn order).
pub fn descend_all(space: &impl MoveSpace, table: &[u8], state: u64) -> Vec<Vec<usize>> {
    fn walk(
        space: &impl MoveSpace,
        table: &[u8],
        state: u64,
        path: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        let distance = nibble(table, state);
        if distance == 0 {
            out.push(path.clone());
            return;
        }
        for turn in 0..space.move_count() {
            let next = space.apply(state, turn);
            if nibble(table, next) == distance - 1 {
                path.push(turn);
                walk(space, table, next, path, out);
                path.pop();
            }
        }
    }
    let mut out = Vec::new();
    if nibble(table, state) != crate::bfs::UNREACHED {
        walk(space, table, state, &mut Vec::new(), &mut out);
    }
    out
}

/// The exact distance of `state` from a table in either encoding. A 4-bit table holds it; in a
/// mod-3 table, the neighbour one move closer is the one whose residue is one less (neighbours
/// differ by at most one), so walk down to `goal` counting moves. `None` if the table has no
/// finite value or is inconsistent.
pub fn exact_distance(
    space: &impl MoveSpace,
    encoding: Encoding,
    table: &[u8],
    mut state: u64,
    goal: u64,
) -> Option<u8> {
    match encoding {
        Encoding::Nibble => Some(nibble(table, state)).filter(|&d| d != crate::bfs::UNREACHED),
        Encoding::Byte => Some(table[state as usize]).filter(|&d| d != crate::bfs::UNREACHED_BYTE),
        Encoding::Mod3 => {
            let mut steps = 0u8;
            while state != goal {
                let residue = entry(encoding, table, state);
                let closer = (residue + 2) % 3;
                state = (0..space.move_count())
                    .map(|turn| space.apply(state, turn))
                    .find(|&n| entry(encoding, table, n) == closer)?;
                steps = steps.checked_add(1)?;
            }
            Some(steps)
        }
        // A lower bound only: no exact distance to read.
        Encoding::Based => None,
    }
}
