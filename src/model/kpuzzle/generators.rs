//! The moves of a search graph, from a list of generators as twips's
//! `--generator-moves` takes them (`U,F,R`).
//!
//! Each listed generator is a move of the definition (base or derived, resolved as
//! in an algorithm). Every distinct power `G^k`, `k = 1..order-1`, is one move of
//! the graph; powers equal to the identity or to a move already listed are
//! skipped, so the same transformation is never two moves. A power is named the
//! way twips prints it: amounts up to half the order count up, the rest count
//! down with `'`, so a quarter-turn face gives `R`, `R2`, `R'`, a three-fold
//! one `R`, `R'`, and a megaminx face `R`, `R2`, `R2'`, `R'`. A generator written
//! with an amount (`R2`) gives the powers of that move (`R2` alone on a cube),
//! named and costed as powers of its quantum (`R`).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::algorithm::{Alg, AlgError, AlgNode, Move};
use super::definition::{KPuzzleDefinition, Resolution};
use super::transformation::Transformation;

/// The most powers one generator may contribute; a larger order is almost surely
/// a mistake (a whole algorithm's worth of moves as one generator).
pub const MAX_GENERATOR_ORDER: u64 = 4096;

/// What a move of the search graph costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Metric {
    /// Every power costs 1 (the half-turn metric on a cube; twips's "hand" metric).
    #[default]
    Htm,
    /// Power `k` of a move of order `n` costs `min(k, n - k)`: the number of
    /// quarter turns (`R2` costs 2 on a cube, `R2'` costs 2 on a megaminx).
    Qtm,
}

/// Why a generator list cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeneratorsError {
    /// Nothing was listed.
    #[error("no generator moves given: list move names separated by commas, e.g. `U,F,R`")]
    Empty,
    /// An empty entry (`U,,R` or a trailing comma).
    #[error("generator {index} of `{list}` is empty: remove the extra comma")]
    EmptyEntry { index: usize, list: String },
    /// An entry that parses but is not a single move (`R U`, `(R)`, `[R, U]`).
    #[error(
        "generator `{text}` is not a single move: list move names such as `R` or `Rw`, separated by commas"
    )]
    NotAMove { text: String },
    /// An entry that does not parse, or names a move the definition lacks.
    #[error("generator `{text}`: {source}")]
    Alg {
        text: String,
        #[source]
        source: AlgError,
    },
    /// A generator with too many powers to list.
    #[error(
        "generator `{text}` has order {}, above the {MAX_GENERATOR_ORDER} powers one generator may add: use a move of smaller order",
        order.map_or_else(|| "beyond 2^64".to_owned(), |o| o.to_string())
    )]
    OrderTooLarge { text: String, order: Option<u64> },
}

/// One move of the search graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratorMove {
    name: String,
    transformation: Transformation,
    cost: u32,
    inverse: usize,
    class: usize,
}

impl GeneratorMove {
    /// The name as twips prints it (`R`, `R2`, `R2'`, `R'`); it parses back to this move.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the move does.
    pub fn transformation(&self) -> &Transformation {
        &self.transformation
    }

    /// The move's cost in the chosen [`Metric`].
    pub fn cost(&self) -> u32 {
        self.cost
    }

    /// The index (in [`Generators::moves`]) of the move that undoes this one;
    /// a move of order 2 is its own inverse.
    pub fn inverse(&self) -> usize {
        self.inverse
    }

    /// The index of the listed generator this move is a power of.
    pub fn class(&self) -> usize {
        self.class
    }
}

/// The moves of a search graph: every distinct non-identity power of each listed
/// generator, in list order and, within a generator, by increasing power.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generators {
    metric: Metric,
    classes: Vec<String>,
    moves: Vec<GeneratorMove>,
}

impl Generators {
    /// Reads a comma-separated generator list (`"U,F,R"`; spaces around names are
    /// ignored) over `definition`.
    pub fn parse(
        definition: &KPuzzleDefinition,
        list: &str,
        metric: Metric,
    ) -> Result<Self, GeneratorsError> {
        if list.trim().is_empty() {
            return Err(GeneratorsError::Empty);
        }
        let mut classes = Vec::new();
        let mut moves: Vec<GeneratorMove> = Vec::new();
        let mut seen: HashMap<Transformation, usize> = HashMap::new();
        for (class, text) in list.split(',').map(str::trim).enumerate() {
            if text.is_empty() {
                return Err(GeneratorsError::EmptyEntry {
                    index: class,
                    list: list.to_owned(),
                });
            }
            let alg = Alg::parse(text).map_err(|source| GeneratorsError::Alg {
                text: text.to_owned(),
                source,
            })?;
            let generator = match alg.nodes() {
                [AlgNode::Move(m)] => m.clone(),
                [AlgNode::Slash { position }] => Move::new("_SLASH_", 1, *position),
                _ => {
                    return Err(GeneratorsError::NotAMove {
                        text: text.to_owned(),
                    });
                }
            };
            let powers = Powers::of(definition, &generator, text)?;
            let n = powers.order;
            let step_t = powers.base.power(powers.step);
            // `step` as a residue mod n, so that the exponents below stay in 0..n.
            let step = powers.step.rem_euclid(n as i64) as u64;
            let mut exponent = step;
            let mut current = step_t.clone();
            while exponent != 0 {
                if !current.is_identity() && !seen.contains_key(&current) {
                    seen.insert(current.clone(), moves.len());
                    moves.push(GeneratorMove {
                        name: powers.name(exponent),
                        transformation: current.clone(),
                        cost: match metric {
                            Metric::Htm => 1,
                            // exponent < n <= MAX_GENERATOR_ORDER, so the cost fits u32.
                            Metric::Qtm => exponent.min(n - exponent) as u32,
                        },
                        inverse: 0,
                        class,
                    });
                }
                exponent = (exponent + step) % n;
                current = current.then(&step_t);
            }
            classes.push(text.to_owned());
        }
        let inverses: Vec<usize> = moves
            .iter()
            .map(|m| {
                // The inverse of base^k is base^(n-k): a non-identity power of the same
                // base, so it was listed, or skipped as equal to a listed move.
                seen.get(&m.transformation.invert())
                    .copied()
                    .unwrap_or_default()
            })
            .collect();
        for (m, inverse) in moves.iter_mut().zip(inverses) {
            m.inverse = inverse;
        }
        Ok(Self {
            metric,
            classes,
            moves,
        })
    }

    /// The metric the costs are in.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The listed generators, as written.
    pub fn classes(&self) -> &[String] {
        &self.classes
    }

    /// The moves of the search graph.
    pub fn moves(&self) -> &[GeneratorMove] {
        &self.moves
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there are no moves (every generator was the identity).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// A generator as the powers of a base transformation.
struct Powers {
    /// The transformation whose powers are counted and named.
    base: Transformation,
    /// The order of `base`, at most [`MAX_GENERATOR_ORDER`].
    order: u64,
    /// The generator is `base^step`.
    step: i64,
    /// How `base^k` is written, given its signed amount.
    naming: Naming,
}

enum Naming {
    /// `base` is the move's quantum (`R` of `R2`): `base^k` is the move `R` with amount k.
    Quantum(String),
    /// `base` is a move found only as written (clock's `y2`): `base^k` is `(y2)k`.
    Spelled(Move),
}

impl Powers {
    fn of(
        definition: &KPuzzleDefinition,
        generator: &Move,
        text: &str,
    ) -> Result<Self, GeneratorsError> {
        let (base, step, naming) = match definition.resolve(generator) {
            Some(Resolution::Quantum(t)) => (
                t.clone(),
                generator.amount(),
                Naming::Quantum(generator.quantum().to_owned()),
            ),
            Some(Resolution::Spelled(t)) => (t.clone(), 1, Naming::Spelled(generator.clone())),
            Some(Resolution::InverseSpelled(t)) => {
                (t.invert(), 1, Naming::Spelled(generator.clone()))
            }
            None => {
                return Err(GeneratorsError::Alg {
                    text: text.to_owned(),
                    source: definition.unknown_move(generator),
                });
            }
        };
        let order = match base.order() {
            Some(order) if order <= MAX_GENERATOR_ORDER => order,
            order => {
                return Err(GeneratorsError::OrderTooLarge {
                    text: text.to_owned(),
                    order,
                });
            }
        };
        Ok(Self {
            base,
            order,
            step,
            naming,
        })
    }

    /// The twips name of `base^exponent` (0 < exponent < order): amounts up to half
    /// the order count up, the others count down as `'` amounts.
    fn name(&self, exponent: u64) -> String {
        let n = self.order;
        // exponent < n <= MAX_GENERATOR_ORDER, so both fit i64.
        let amount = if exponent * 2 <= n {
            exponent as i64
        } else {
            -((n - exponent) as i64)
        };
        match &self.naming {
            Naming::Quantum(quantum) if quantum == "_SLASH_" && amount == 1 => "/".to_owned(),
            Naming::Quantum(quantum) => Move::new(quantum.clone(), amount, 0).to_string(),
            Naming::Spelled(m) if amount == 1 => m.to_string(),
            Naming::Spelled(m) => {
                let grouping = format!("({m})");
                let mut suffix = String::new();
                if amount.unsigned_abs() != 1 {
                    suffix.push_str(&amount.unsigned_abs().to_string());
                }
                if amount < 0 {
                    suffix.push('\'');
                }
                grouping + &suffix
            }
        }
    }
}
