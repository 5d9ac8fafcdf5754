//! A validated KPuzzle definition, read from cubing.js's JSON.
//!
//! The format is cubing.js's `KPuzzleDefinitionJSON`
//! (`src/cubing/kpuzzle/KPuzzleDefinitionJSON.ts`):
//!
//! ```json
//! { "name": "2x2x2",
//!   "orbits": [{"orbitName": "CORNERS", "numPieces": 8, "numOrientations": 3}],
//!   "defaultPattern": {"CORNERS": {"pieces": [0, ...], "orientation": [0, ...]}},
//!   "moves": {"U": {"CORNERS": {"permutation": [...], "orientationDelta": [...]}}},
//!   "derivedMoves": {"F": "[x: U]"} }
//! ```
//!
//! Unknown keys are ignored (cubing.js adds `experimentalPuzzleDescription`, and
//! `experimentalIsPatternSolved` is a function that JSON drops). A move that does
//! not list an orbit is the identity on it. Every derived move is evaluated when
//! the definition is read, so a definition that loads has no broken derived move.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use super::algorithm::{Alg, AlgError, AlgNode, Move};
use super::error::DefinitionError;
use super::json::{self, OrbitShape};
use super::pattern::Pattern;
use super::transformation::{OrbitTransformation, Transformation};

/// How many move names an unknown-move error lists.
const KNOWN_MOVES_SHOWN: usize = 10;

/// One orbit: a set of interchangeable slots holding pieces of one kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrbitDefinition {
    name: String,
    num_pieces: usize,
    num_orientations: u8,
}

impl OrbitDefinition {
    /// `orbitName`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `numPieces`: at least 1 and at most `u16::MAX`.
    pub fn num_pieces(&self) -> usize {
        self.num_pieces
    }

    /// `numOrientations`: at least 1 and at most `u8::MAX`.
    pub fn num_orientations(&self) -> u8 {
        self.num_orientations
    }
}

/// A move defined by an algorithm over other moves (`derivedMoves`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivedMove {
    alg: String,
    transformation: Transformation,
}

impl DerivedMove {
    /// The algorithm text, as the definition gives it.
    pub fn alg(&self) -> &str {
        &self.alg
    }

    /// What the algorithm does.
    pub fn transformation(&self) -> &Transformation {
        &self.transformation
    }
}

/// How a move's transformation was found, following cubing.js's
/// `moveToTransformationUncached` (`src/cubing/kpuzzle/construct.ts`).
pub(super) enum Resolution<'a> {
    /// The quantum (`R` of `R2'`) is a move name; the move is its `amount`th power.
    Quantum(&'a Transformation),
    /// The move as written (`y2` of clock, `U2` of Melinda's 2x2x2x2) is a name.
    Spelled(&'a Transformation),
    /// The inverse as written is a name (`y2'` with `y2` defined); the move is its inverse.
    /// cubing.js's code means to do this too, but passes the method `move.invert`
    /// uncalled as the key, so cubing.js itself rejects such moves.
    InverseSpelled(&'a Transformation),
}

/// A validated KPuzzle definition.
///
/// Invariants: orbit names are unique; the default pattern, every move and every
/// derived move have one part per orbit with the orbit's sizes; every derived move
/// evaluates (no unknown names, no loops).
#[derive(Clone, Debug)]
pub struct KPuzzleDefinition {
    name: String,
    orbits: Vec<OrbitDefinition>,
    orbit_index: HashMap<String, usize>,
    default_pattern: Pattern,
    moves: BTreeMap<String, Transformation>,
    derived_moves: BTreeMap<String, DerivedMove>,
    identity: Transformation,
    /// A few move names for error messages, shortest first.
    known_moves: Vec<String>,
}

impl KPuzzleDefinition {
    /// Reads and validates a definition from cubing.js's JSON
    /// (`JSON.stringify(kpuzzle.definition)`).
    pub fn from_json_str(text: &str) -> Result<Self, DefinitionError> {
        let value: Value = serde_json::from_str(text).map_err(not_json)?;
        Self::from_json_value(&value)
    }

    /// Validates a definition already parsed as JSON.
    pub fn from_json_value(value: &Value) -> Result<Self, DefinitionError> {
        let top = json::object(value, "(the definition)")?;
        let name = json::string(json::member(top, "name", "")?, "name")?.to_owned();

        let (orbits, orbit_index) = read_orbits(json::member(top, "orbits", "")?)?;

        let mut definition = Self {
            name,
            orbits,
            orbit_index,
            default_pattern: Pattern::from_orbits(Vec::new()),
            moves: BTreeMap::new(),
            derived_moves: BTreeMap::new(),
            identity: Transformation::from_orbits(Vec::new()),
            known_moves: Vec::new(),
        };
        definition.identity = Transformation::from_orbits(
            definition
                .orbits
                .iter()
                .map(|o| OrbitTransformation::identity(o.num_pieces, o.num_orientations))
                .collect(),
        );
        definition.default_pattern =
            definition.read_pattern(json::member(top, "defaultPattern", "")?, "defaultPattern")?;

        let moves = json::object(json::member(top, "moves", "")?, "moves")?;
        for (move_name, value) in moves {
            let t = definition.read_transformation(value, &json::join("moves", move_name))?;
            definition.moves.insert(move_name.clone(), t);
        }

        let mut derived_sources = BTreeMap::new();
        match top.get("derivedMoves") {
            None | Some(Value::Null) => {}
            Some(value) => {
                for (move_name, alg) in json::object(value, "derivedMoves")? {
                    let field = json::join("derivedMoves", move_name);
                    let text = json::string(alg, &field)?.to_owned();
                    let parsed =
                        Alg::parse(&text).map_err(|source| DefinitionError::DerivedMoveParse {
                            name: move_name.clone(),
                            alg: text.clone(),
                            source,
                        })?;
                    derived_sources.insert(move_name.clone(), (text, parsed));
                }
            }
        }

        let mut known: Vec<&String> = definition
            .moves
            .keys()
            .chain(derived_sources.keys())
            .collect();
        known.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
        definition.known_moves = known.into_iter().take(KNOWN_MOVES_SHOWN).cloned().collect();

        let mut resolver = DerivedResolver {
            moves: &definition.moves,
            sources: &derived_sources,
            done: BTreeMap::new(),
            stack: Vec::new(),
            identity: &definition.identity,
            known: &definition.known_moves,
        };
        for move_name in derived_sources.keys() {
            resolver.resolve(move_name)?;
        }
        let mut done = resolver.done;
        for (move_name, (alg, _)) in derived_sources {
            if let Some(transformation) = done.remove(&move_name) {
                definition.derived_moves.insert(
                    move_name,
                    DerivedMove {
                        alg,
                        transformation,
                    },
                );
            }
        }
        Ok(definition)
    }

    /// Reads a pattern of this puzzle from JSON in the format of `defaultPattern`
    /// (`{"ORBIT": {"pieces": [...], "orientation": [...], "orientationMod"?: [...]}}`),
    /// e.g. a goal pattern; it must describe every orbit.
    pub fn pattern_from_json_str(&self, text: &str) -> Result<Pattern, DefinitionError> {
        let value: Value = serde_json::from_str(text).map_err(not_json)?;
        self.read_pattern(&value, "(the pattern)")
    }

    /// The puzzle's `name`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The orbits, in the definition's order (the order of every per-orbit vector here).
    pub fn orbits(&self) -> &[OrbitDefinition] {
        &self.orbits
    }

    /// The index of the orbit called `name`.
    pub fn orbit_index(&self, name: &str) -> Option<usize> {
        self.orbit_index.get(name).copied()
    }

    /// `defaultPattern`: the solved state.
    pub fn default_pattern(&self) -> &Pattern {
        &self.default_pattern
    }

    /// The transformation that changes nothing.
    pub fn identity(&self) -> &Transformation {
        &self.identity
    }

    /// The names of `moves`, in sorted order.
    pub fn move_names(&self) -> impl Iterator<Item = &str> {
        self.moves.keys().map(String::as_str)
    }

    /// The names of `derivedMoves`, in sorted order.
    pub fn derived_move_names(&self) -> impl Iterator<Item = &str> {
        self.derived_moves.keys().map(String::as_str)
    }

    /// The base move (`moves`) called `name`.
    pub fn base_move(&self, name: &str) -> Option<&Transformation> {
        self.moves.get(name)
    }

    /// The derived move (`derivedMoves`) called `name`.
    pub fn derived_move(&self, name: &str) -> Option<&DerivedMove> {
        self.derived_moves.get(name)
    }

    /// The move called `name`: a base move, else a derived move (cubing.js looks
    /// in `moves` first, so a derived move of a base move's name is never used).
    pub fn named_move(&self, name: &str) -> Option<&Transformation> {
        self.moves
            .get(name)
            .or_else(|| self.derived_moves.get(name).map(|d| &d.transformation))
    }

    /// A few move names, shortest first, for "did you mean" messages.
    pub fn some_move_names(&self) -> &[String] {
        &self.known_moves
    }

    /// How cubing.js resolves `m`: its quantum as a name (raised to the amount),
    /// else the move as written, else its inverse as written.
    pub(super) fn resolve(&self, m: &Move) -> Option<Resolution<'_>> {
        if let Some(t) = self.named_move(m.quantum()) {
            return Some(Resolution::Quantum(t));
        }
        if let Some(t) = self.named_move(&m.to_string()) {
            return Some(Resolution::Spelled(t));
        }
        self.named_move(&m.invert().to_string())
            .map(Resolution::InverseSpelled)
    }

    /// The transformation of one move, e.g. `R2'` or `3Rw`.
    pub fn move_transformation(&self, m: &Move) -> Result<Transformation, AlgError> {
        match self.resolve(m) {
            Some(Resolution::Quantum(t)) => Ok(t.power(m.amount())),
            Some(Resolution::Spelled(t)) => Ok(t.clone()),
            Some(Resolution::InverseSpelled(t)) => Ok(t.invert()),
            None => Err(self.unknown_move(m)),
        }
    }

    /// The error for a move that [`Self::resolve`] does not find.
    pub(super) fn unknown_move(&self, m: &Move) -> AlgError {
        AlgError::UnknownMove {
            name: m.to_string(),
            position: m.position(),
            known: self.known_moves.clone(),
        }
    }

    /// The transformation of a parsed algorithm, as cubing.js's `algToTransformation`.
    pub fn alg_transformation(&self, alg: &Alg) -> Result<Transformation, AlgError> {
        evaluate(
            alg,
            &self.identity,
            &mut |key| Ok(self.named_move(key).cloned()),
            &|m| self.unknown_move(m),
        )
    }

    /// Parses algorithm text and returns its transformation.
    pub fn transformation_of(&self, text: &str) -> Result<Transformation, AlgError> {
        self.alg_transformation(&Alg::parse(text)?)
    }

    /// The pattern reached from the default pattern by `t` (cubing.js's
    /// `KPattern.fromTransformation`).
    pub fn pattern_of(&self, t: &Transformation) -> Pattern {
        self.default_pattern.apply(t)
    }

    /// `t` as cubing.js's `KTransformationData` JSON.
    pub fn transformation_to_json(&self, t: &Transformation) -> Value {
        let mut map = Map::new();
        for (orbit, part) in self.orbits.iter().zip(t.orbits()) {
            map.insert(
                orbit.name.clone(),
                json!({
                    "permutation": part.permutation(),
                    "orientationDelta": part.orientation_delta(),
                }),
            );
        }
        Value::Object(map)
    }

    /// `p` as cubing.js's `KPatternData` JSON (`orientationMod` only where some piece has one).
    pub fn pattern_to_json(&self, p: &Pattern) -> Value {
        let mut map = Map::new();
        for (orbit, part) in self.orbits.iter().zip(p.orbits()) {
            let mut entry = json!({
                "pieces": part.pieces(),
                "orientation": part.orientation(),
            });
            if part.orientation_mod().iter().any(|&m| m != 0) {
                entry["orientationMod"] = json!(part.orientation_mod());
            }
            map.insert(orbit.name.clone(), entry);
        }
        Value::Object(map)
    }

    fn shape(&self, index: usize) -> OrbitShape<'_> {
        let orbit = &self.orbits[index];
        OrbitShape {
            name: &orbit.name,
            num_pieces: orbit.num_pieces,
            num_orientations: orbit.num_orientations,
        }
    }

    fn unknown_orbit(&self, field: String, orbit: &str) -> DefinitionError {
        DefinitionError::UnknownOrbit {
            field,
            orbit: orbit.to_owned(),
            known: self.orbits.iter().map(|o| o.name.clone()).collect(),
        }
    }

    fn read_pattern(&self, value: &Value, field: &str) -> Result<Pattern, DefinitionError> {
        let object = json::object(value, field)?;
        for key in object.keys() {
            if !self.orbit_index.contains_key(key) {
                return Err(self.unknown_orbit(json::join(field, key), key));
            }
        }
        let orbits = (0..self.orbits.len())
            .map(|index| {
                let name = &self.orbits[index].name;
                let value =
                    object
                        .get(name)
                        .ok_or_else(|| DefinitionError::MissingPatternOrbit {
                            field: field.to_owned(),
                            orbit: name.clone(),
                        })?;
                json::pattern_orbit(value, &json::join(field, name), &self.shape(index))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Pattern::from_orbits(orbits))
    }

    fn read_transformation(
        &self,
        value: &Value,
        field: &str,
    ) -> Result<Transformation, DefinitionError> {
        let object = json::object(value, field)?;
        for key in object.keys() {
            if !self.orbit_index.contains_key(key) {
                return Err(self.unknown_orbit(json::join(field, key), key));
            }
        }
        let orbits = (0..self.orbits.len())
            .map(|index| {
                let orbit = &self.orbits[index];
                match object.get(&orbit.name) {
                    None => Ok(OrbitTransformation::identity(
                        orbit.num_pieces,
                        orbit.num_orientations,
                    )),
                    Some(value) => json::orbit_transformation(
                        value,
                        &json::join(field, &orbit.name),
                        &self.shape(index),
                    ),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Transformation::from_orbits(orbits))
    }
}

/// serde_json's error, its position split off its message.
fn not_json(e: serde_json::Error) -> DefinitionError {
    let full = e.to_string();
    let message = match full.rsplit_once(" at line ") {
        Some((message, _)) => message.to_owned(),
        None => full,
    };
    DefinitionError::NotJson {
        line: e.line(),
        column: e.column(),
        message,
    }
}

type Orbits = (Vec<OrbitDefinition>, HashMap<String, usize>);

fn read_orbits(value: &Value) -> Result<Orbits, DefinitionError> {
    let mut orbits = Vec::new();
    let mut index = HashMap::new();
    for (i, item) in json::array(value, "orbits")?.iter().enumerate() {
        let field = format!("orbits[{i}]");
        let object = json::object(item, &field)?;
        let name_field = json::join(&field, "orbitName");
        let name = json::string(json::member(object, "orbitName", &field)?, &name_field)?;
        if let Some(&first_index) = index.get(name) {
            return Err(DefinitionError::DuplicateOrbit {
                field: name_field,
                name: name.to_owned(),
                first_index,
            });
        }
        let size = |key: &str, max: u64| -> Result<u64, DefinitionError> {
            let key_field = json::join(&field, key);
            let n = json::uint(json::member(object, key, &field)?, &key_field, max)?;
            if n == 0 {
                return Err(DefinitionError::ZeroSize { field: key_field });
            }
            Ok(n)
        };
        // Bounded by the maxima passed to `size`.
        let num_pieces = size("numPieces", u64::from(u16::MAX))? as usize;
        let num_orientations = size("numOrientations", u64::from(u8::MAX))? as u8;
        index.insert(name.to_owned(), i);
        orbits.push(OrbitDefinition {
            name: name.to_owned(),
            num_pieces,
            num_orientations,
        });
    }
    Ok((orbits, index))
}

/// Evaluates derived moves on demand, detecting loops.
struct DerivedResolver<'a> {
    moves: &'a BTreeMap<String, Transformation>,
    sources: &'a BTreeMap<String, (String, Alg)>,
    done: BTreeMap<String, Transformation>,
    /// The derived moves being evaluated, outermost first.
    stack: Vec<String>,
    identity: &'a Transformation,
    known: &'a [String],
}

impl DerivedResolver<'_> {
    fn resolve(&mut self, name: &str) -> Result<Transformation, DefinitionError> {
        if let Some(t) = self.done.get(name) {
            return Ok(t.clone());
        }
        let sources = self.sources;
        let Some((text, alg)) = sources.get(name) else {
            // Only called for names in `sources`.
            return Ok(self.identity.clone());
        };
        if let Some(at) = self.stack.iter().position(|n| n == name) {
            if at + 1 == self.stack.len() {
                return Err(DefinitionError::DerivedMoveSelfReference {
                    name: name.to_owned(),
                    alg: text.clone(),
                });
            }
            let mut cycle = self.stack[at..].to_vec();
            cycle.push(name.to_owned());
            return Err(DefinitionError::DerivedMoveCycle { cycle });
        }
        self.stack.push(name.to_owned());
        let identity = self.identity;
        let known = self.known;
        let t = evaluate(alg, identity, &mut |key| self.lookup(key), &|m| {
            DefinitionError::DerivedMoveUnknownMove {
                name: name.to_owned(),
                alg: text.clone(),
                move_text: m.to_string(),
                position: m.position(),
                known: known.to_vec(),
            }
        })?;
        self.stack.pop();
        self.done.insert(name.to_owned(), t.clone());
        Ok(t)
    }

    /// A base move, else a derived move (evaluated now if need be), as cubing.js looks them up.
    fn lookup(&mut self, key: &str) -> Result<Option<Transformation>, DefinitionError> {
        if let Some(t) = self.moves.get(key) {
            return Ok(Some(t.clone()));
        }
        if self.sources.contains_key(key) {
            return self.resolve(key).map(Some);
        }
        Ok(None)
    }
}

type Lookup<'a, E> = dyn FnMut(&str) -> Result<Option<Transformation>, E> + 'a;

/// cubing.js's `AlgToTransformationTraversal` (`src/cubing/kpuzzle/calculate.ts`):
/// a sequence composes left to right, `(A)n` is `A`'s nth power, `[A: B]` is
/// `A B A'`, `[A, B]` is `A B A' B'`, pauses do nothing.
fn evaluate<E>(
    alg: &Alg,
    identity: &Transformation,
    lookup: &mut Lookup<'_, E>,
    unknown: &dyn Fn(&Move) -> E,
) -> Result<Transformation, E> {
    let mut result: Option<Transformation> = None;
    for node in alg.nodes() {
        let t = match node {
            AlgNode::Move(m) => resolve_move(m, lookup, unknown)?,
            AlgNode::Grouping { alg, amount } => {
                evaluate(alg, identity, lookup, unknown)?.power(*amount)
            }
            AlgNode::Conjugate { a, b } => {
                let a = evaluate(a, identity, lookup, unknown)?;
                let b = evaluate(b, identity, lookup, unknown)?;
                a.then(&b).then(&a.invert())
            }
            AlgNode::Commutator { a, b } => {
                let a = evaluate(a, identity, lookup, unknown)?;
                let b = evaluate(b, identity, lookup, unknown)?;
                a.then(&b).then(&a.invert()).then(&b.invert())
            }
            AlgNode::Pause => continue,
            AlgNode::Slash { position } => {
                resolve_move(&Move::new("_SLASH_", 1, *position), lookup, unknown)?
            }
            AlgNode::Square1Pair {
                top,
                bottom,
                position,
            } => {
                let top = resolve_move(&Move::new("U_SQ_", *top, *position), lookup, unknown)?;
                let bottom =
                    resolve_move(&Move::new("D_SQ_", *bottom, *position), lookup, unknown)?;
                top.then(&bottom)
            }
        };
        result = Some(match result {
            None => t,
            Some(before) => before.then(&t),
        });
    }
    Ok(result.unwrap_or_else(|| identity.clone()))
}

/// cubing.js's `moveToTransformationUncached`: the quantum's transformation to the
/// power `amount`, else the move as written (`y2`), else the inverse of its
/// inverse as written (`y2'` from `y2`; see [`Resolution::InverseSpelled`]).
fn resolve_move<E>(
    m: &Move,
    lookup: &mut Lookup<'_, E>,
    unknown: &dyn Fn(&Move) -> E,
) -> Result<Transformation, E> {
    if let Some(t) = lookup(m.quantum())? {
        return Ok(if m.amount() == 1 {
            t
        } else {
            t.power(m.amount())
        });
    }
    if let Some(t) = lookup(&m.to_string())? {
        return Ok(t);
    }
    if let Some(t) = lookup(&m.invert().to_string())? {
        return Ok(t.invert());
    }
    Err(unknown(m))
}
