//! KPuzzle definitions (`cubelab puzzle DEF`): any bytes are a definition or a named error,
//! never a panic; a definition read takes its own moves as generators, its space is counted,
//! and where that is small the space is made, the goal holding a rank in it, or a named error.
#![no_main]

use cubelab::model::kpuzzle::{Generators, KPuzzleDefinition, Metric};
use cubelab::space::StateSpace;
use cubelab::space::defined::DefinedSpace;
use libfuzzer_sys::fuzz_target;

/// The most ranks of a space the target makes (with its move tables): enough for every shape
/// of orbit, small enough that each input stays quick.
const RANKS: u128 = 1 << 16;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(definition) = KPuzzleDefinition::from_json_str(text) else {
        return;
    };
    let names: Vec<&str> = definition.move_names().take(4).collect();
    for metric in [Metric::Htm, Metric::Qtm] {
        let Ok(generators) = Generators::parse(&definition, &names.join(","), metric) else {
            continue;
        };
        let goal = definition.default_pattern();
        if DefinedSpace::states_of(&definition, &generators, goal, &[]).is_ok_and(|n| n > RANKS) {
            continue;
        }
        if let Ok(space) = DefinedSpace::new(&definition, &generators, goal, &[]) {
            let rank = space
                .index(goal)
                .expect("the goal is a state of its own space");
            assert!(rank < space.size());
        }
    }
});
