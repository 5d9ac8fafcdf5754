//! Algorithm text in cubing.js's notation, parsed to a tree ([`Alg`]).
//!
//! The grammar is cubing.js's `parseAlg` (`src/cubing/alg/parseAlg.ts`):
//!
//! * A move is `[[outer-]inner]family[amount]['][suffix]`: optional layer numbers
//!   (`2R`, `2-3Rw`), a family of letters and `_` (`R`, `Rw`, `BR`, `UL_PLUS_`), an
//!   amount of decimal digits (`R2`; no leading zero except `0` itself) and an
//!   optional `'` that negates it (`R'` is -1, `R2'` is -2). The layers and family
//!   together are the move's *quantum* (`2R`, `3Rw`), the name a definition's
//!   `moves` or `derivedMoves` gives it. Clock moves `UR3+`/`UR3-` are the family
//!   `UR_PLUS_` with amount 3/-3, megaminx `R++`/`R--` the family `R_PLUSPLUS_`
//!   with amount 1/-1.
//! * Alg nodes are separated by spaces or newlines (tabs and carriage returns are
//!   accepted too); two nodes written together (`R'U`, `(R)(U)`) are an error, as in
//!   cubing.js.
//! * `(A)n` repeats `A` n times (`(A)'` inverts it), `[A: B]` is `A B A'`,
//!   `[A, B]` is `A B A' B'` (both take an amount too: `[R, U]2`), `.` is a pause
//!   (no effect), `// ...` comments to the end of the line, `/` is Square-1's slash
//!   (the move `_SLASH_`) and `(a, b)` a Square-1 pair (`U_SQ_` a then `D_SQ_` b).
//!
//! Error positions are 0-based character indices into the text.

use std::fmt;

/// The largest amount cubing.js accepts (`MAX_INT` in `src/cubing/alg/limits.ts`).
const MAX_AMOUNT: i64 = 0x7fff_ffff;

/// The deepest nesting of `( )` and `[ ]` accepted; parsing and evaluation
/// recurse once per level, so the limit keeps hostile text from overflowing the stack.
pub const MAX_ALG_NESTING: usize = 200;

/// Why algorithm text does not parse, or names a move the definition lacks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AlgError {
    /// A move whose quantum and spelled-out form both are absent from the definition.
    #[error(
        "unknown move `{name}` at index {position}: the definition has no move or derived move of that name (known moves include {})",
        known.join(", ")
    )]
    UnknownMove {
        name: String,
        position: usize,
        /// A few of the definition's move names, shortest first.
        known: Vec<String>,
    },
    /// An opening bracket that is never closed.
    #[error("`{bracket}` at index {position} is never closed: add `{}` or remove it", closing(*bracket))]
    UnclosedBracket { bracket: char, position: usize },
    /// A closing bracket with no opening one.
    #[error("`{bracket}` at index {position} closes nothing: remove it or add `{}` before it", opening(*bracket))]
    UnopenedBracket { bracket: char, position: usize },
    /// A closing bracket of the wrong kind.
    #[error(
        "`{found}` at index {position} does not match `{open}` at index {open_position}: close it with `{}`",
        closing(*open)
    )]
    MismatchedBracket {
        open: char,
        open_position: usize,
        found: char,
        position: usize,
    },
    /// `[A B]` without the `,` (commutator) or `:` (conjugate) that separates A and B.
    #[error(
        "`[` at index {open_position} closes at index {position} without a separator: write `[A, B]` for a commutator or `[A: B]` for a conjugate"
    )]
    MissingSeparator {
        open_position: usize,
        position: usize,
    },
    /// Two alg nodes written without a space between them.
    #[error("missing space before index {position}: separate moves and groups with spaces")]
    MissingSpace { position: usize },
    /// A character that starts no alg node here (trailing garbage included).
    #[error(
        "unexpected `{character}` at index {position}: an alg holds moves, `( )`, `[ , ]`, `[ : ]`, `.`, `/` and `//` comments"
    )]
    UnexpectedCharacter { character: char, position: usize },
    /// Brackets nested deeper than [`MAX_ALG_NESTING`].
    #[error(
        "brackets nested more than {MAX_ALG_NESTING} deep at index {position}: flatten the algorithm"
    )]
    TooDeep { position: usize },
    /// A move that is not well formed (layers, amount or suffix).
    #[error("malformed move at index {position}: {reason}")]
    MalformedMove { position: usize, reason: String },
}

fn closing(open: char) -> char {
    if open == '[' { ']' } else { ')' }
}

fn opening(close: char) -> char {
    if close == ']' { '[' } else { '(' }
}

/// A move: a quantum (layers and family, e.g. `R`, `2R`, `3Rw`, `UL_PLUS_`) and an amount.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    quantum: String,
    amount: i64,
    position: usize,
}

impl Move {
    /// A move of `quantum` repeated `amount` times, as if written at index `position`.
    pub fn new(quantum: impl Into<String>, amount: i64, position: usize) -> Self {
        Self {
            quantum: quantum.into(),
            amount,
            position,
        }
    }

    /// The layers and family, e.g. `2R`: the name looked up in the definition.
    pub fn quantum(&self) -> &str {
        &self.quantum
    }

    /// How many times the quantum turns; negative is counterclockwise.
    pub fn amount(&self) -> i64 {
        self.amount
    }

    /// Where the move starts in the parsed text (0-based character index).
    pub fn position(&self) -> usize {
        self.position
    }

    /// The same quantum with the amount negated (cubing.js's `Move.invert`).
    pub fn invert(&self) -> Move {
        Move::new(self.quantum.clone(), -self.amount, self.position)
    }
}

/// Writes the move as cubing.js's `Move.toString` does: `R`, `R'`, `R2`, `R2'`,
/// `R0`; clock families `UR_PLUS_` as `UR3+`/`UR3-`, megaminx `R_PLUSPLUS_` as
/// `R++`/`R--`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let abs = self.amount.unsigned_abs();
        if let Some(base) = self.quantum.strip_suffix("_PLUSPLUS_") {
            let sign = if self.amount < 0 { "--" } else { "++" };
            return if abs == 1 {
                write!(f, "{base}{sign}")
            } else {
                write!(f, "{base}{abs}{sign}")
            };
        }
        if let Some(base) = self.quantum.strip_suffix("_PLUS_") {
            let sign = if self.amount < 0 { '-' } else { '+' };
            return write!(f, "{base}{abs}{sign}");
        }
        f.write_str(&self.quantum)?;
        if abs != 1 {
            write!(f, "{abs}")?;
        }
        if self.amount < 0 {
            f.write_str("'")?;
        }
        Ok(())
    }
}

/// One node of an [`Alg`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AlgNode {
    /// A single move.
    Move(Move),
    /// `(alg)amount`: the inner alg repeated; negative amounts repeat its inverse.
    Grouping { alg: Alg, amount: i64 },
    /// `[a: b]`, i.e. `a b a'`.
    Conjugate { a: Alg, b: Alg },
    /// `[a, b]`, i.e. `a b a' b'`.
    Commutator { a: Alg, b: Alg },
    /// `.`: no effect.
    Pause,
    /// Square-1's `/`: the move `_SLASH_`, its own inverse.
    Slash { position: usize },
    /// Square-1's `(top, bottom)`: `U_SQ_` top then `D_SQ_` bottom.
    Square1Pair {
        top: i64,
        bottom: i64,
        position: usize,
    },
}

/// A sequence of alg nodes, applied left to right.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Alg {
    nodes: Vec<AlgNode>,
}

impl Alg {
    /// Parses cubing.js alg text; see the module documentation for the grammar.
    pub fn parse(text: &str) -> Result<Alg, AlgError> {
        let mut parser = Parser {
            chars: text.chars().collect(),
            pos: 0,
            depth: 0,
        };
        parser.sequence(Context::Top)
    }

    /// The nodes, in order.
    pub fn nodes(&self) -> &[AlgNode] {
        &self.nodes
    }

    /// The alg that undoes this one, built as cubing.js's `Alg.invert` does: nodes
    /// reversed, moves and groupings with negated amounts, `[A: B]` as `[A: B']`,
    /// `[A, B]` as `[B, A]`; `/` stays `/`.
    pub fn invert(&self) -> Alg {
        let nodes = self
            .nodes
            .iter()
            .rev()
            .map(|node| match node {
                AlgNode::Move(m) => AlgNode::Move(m.invert()),
                AlgNode::Grouping { alg, amount } => AlgNode::Grouping {
                    alg: alg.clone(),
                    amount: -amount,
                },
                AlgNode::Conjugate { a, b } => AlgNode::Conjugate {
                    a: a.clone(),
                    b: b.invert(),
                },
                AlgNode::Commutator { a, b } => AlgNode::Commutator {
                    a: b.clone(),
                    b: a.clone(),
                },
                AlgNode::Pause => AlgNode::Pause,
                AlgNode::Slash { position } => AlgNode::Slash {
                    position: *position,
                },
                AlgNode::Square1Pair {
                    top,
                    bottom,
                    position,
                } => AlgNode::Square1Pair {
                    top: -top,
                    bottom: -bottom,
                    position: *position,
                },
            })
            .collect();
        Alg { nodes }
    }
}

fn write_amount(f: &mut fmt::Formatter<'_>, amount: i64) -> fmt::Result {
    let abs = amount.unsigned_abs();
    if abs != 1 {
        write!(f, "{abs}")?;
    }
    if amount < 0 {
        f.write_str("'")?;
    }
    Ok(())
}

/// Writes the alg in cubing.js's notation (space separated; a repeated single
/// commutator or conjugate as `[A, B]2`, without parentheses); the text parses
/// back to the same tree (only the recorded positions differ).
impl fmt::Display for Alg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, node) in self.nodes.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            match node {
                AlgNode::Move(m) => write!(f, "{m}")?,
                AlgNode::Grouping { alg, amount } => {
                    let bare = matches!(
                        alg.nodes.as_slice(),
                        [AlgNode::Conjugate { .. } | AlgNode::Commutator { .. }]
                    );
                    if bare {
                        write!(f, "{alg}")?;
                    } else {
                        write!(f, "({alg})")?;
                    }
                    write_amount(f, *amount)?;
                }
                AlgNode::Conjugate { a, b } => write!(f, "[{a}: {b}]")?,
                AlgNode::Commutator { a, b } => write!(f, "[{a}, {b}]")?,
                AlgNode::Pause => f.write_str(".")?,
                AlgNode::Slash { .. } => f.write_str("/")?,
                AlgNode::Square1Pair { top, bottom, .. } => write!(f, "({top}, {bottom})")?,
            }
        }
        Ok(())
    }
}

/// Where a sequence sits, which decides the characters that end it.
#[derive(Clone, Copy)]
enum Context {
    Top,
    /// Inside `( )` opened at the index.
    Group(usize),
    /// The `A` of `[A, B]`/`[A: B]` opened at the index.
    First(usize),
    /// The `B` of `[A, B]`/`[A: B]` opened at the index.
    Second(usize),
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    /// How many brackets enclose the current position.
    depth: usize,
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\n' | '\t' | '\r')
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    /// Parses nodes up to (not past) the character that ends `context`.
    fn sequence(&mut self, context: Context) -> Result<Alg, AlgError> {
        let mut nodes = Vec::new();
        // "Crowded" is cubing.js's word: a node ended here without a space since.
        let mut crowded = false;
        loop {
            let position = self.pos;
            let Some(c) = self.peek() else {
                return match context {
                    Context::Top => Ok(Alg { nodes }),
                    Context::Group(open) => Err(AlgError::UnclosedBracket {
                        bracket: '(',
                        position: open,
                    }),
                    Context::First(open) | Context::Second(open) => {
                        Err(AlgError::UnclosedBracket {
                            bracket: '[',
                            position: open,
                        })
                    }
                };
            };
            let ends = match context {
                Context::Top => false,
                Context::Group(_) => c == ')',
                Context::First(_) => c == ',' || c == ':',
                Context::Second(_) => c == ']',
            };
            if ends {
                return Ok(Alg { nodes });
            }
            let must_not_crowd = |crowded: bool| {
                if crowded {
                    Err(AlgError::MissingSpace { position })
                } else {
                    Ok(())
                }
            };
            match c {
                c if is_space(c) => {
                    self.pos += 1;
                    crowded = false;
                }
                c if c.is_ascii_alphanumeric() || c == '_' => {
                    must_not_crowd(crowded)?;
                    nodes.push(AlgNode::Move(self.parse_move()?));
                    crowded = true;
                }
                '(' => {
                    must_not_crowd(crowded)?;
                    self.enter(position)?;
                    self.pos += 1;
                    if let Some((top, bottom)) = self.square1_pair()? {
                        nodes.push(AlgNode::Square1Pair {
                            top,
                            bottom,
                            position,
                        });
                    } else {
                        let alg = self.sequence(Context::Group(position))?;
                        self.pos += 1; // the `)` that ended the group
                        let amount = self.parse_amount()?;
                        nodes.push(AlgNode::Grouping { alg, amount });
                    }
                    self.depth -= 1;
                    crowded = true;
                }
                '[' => {
                    must_not_crowd(crowded)?;
                    self.enter(position)?;
                    self.pos += 1;
                    let a = self.sequence(Context::First(position))?;
                    let separator = self.peek();
                    self.pos += 1;
                    let b = self.sequence(Context::Second(position))?;
                    self.pos += 1; // the `]` that ended B
                    let node = if separator == Some(':') {
                        AlgNode::Conjugate { a, b }
                    } else {
                        AlgNode::Commutator { a, b }
                    };
                    self.depth -= 1;
                    let amount = self.parse_amount()?;
                    nodes.push(if amount == 1 {
                        node
                    } else {
                        AlgNode::Grouping {
                            alg: Alg { nodes: vec![node] },
                            amount,
                        }
                    });
                    crowded = true;
                }
                '/' if self.peek_at(1) == Some('/') => {
                    must_not_crowd(crowded)?;
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                    crowded = false;
                }
                '/' => {
                    // cubing.js lets `/` touch its neighbours (csTimer writes `(1,0)/`).
                    self.pos += 1;
                    nodes.push(AlgNode::Slash { position });
                    crowded = true;
                }
                '.' => {
                    must_not_crowd(crowded)?;
                    self.pos += 1;
                    nodes.push(AlgNode::Pause);
                    crowded = true;
                }
                ')' | ']' => {
                    return Err(match context {
                        Context::Top => AlgError::UnopenedBracket {
                            bracket: c,
                            position,
                        },
                        Context::First(open) if c == ']' => AlgError::MissingSeparator {
                            open_position: open,
                            position,
                        },
                        Context::Group(open) => AlgError::MismatchedBracket {
                            open: '(',
                            open_position: open,
                            found: c,
                            position,
                        },
                        Context::First(open) | Context::Second(open) => {
                            AlgError::MismatchedBracket {
                                open: '[',
                                open_position: open,
                                found: c,
                                position,
                            }
                        }
                    });
                }
                _ => {
                    return Err(AlgError::UnexpectedCharacter {
                        character: c,
                        position,
                    });
                }
            }
        }
    }

    /// Steps into a bracket at `position`, refusing past [`MAX_ALG_NESTING`].
    fn enter(&mut self, position: usize) -> Result<(), AlgError> {
        if self.depth >= MAX_ALG_NESTING {
            return Err(AlgError::TooDeep { position });
        }
        self.depth += 1;
        Ok(())
    }

    /// Reads decimal digits, returning them and where they started.
    fn digits(&mut self) -> (String, usize) {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        (self.chars[start..self.pos].iter().collect(), start)
    }

    fn number(&self, digits: &str, position: usize) -> Result<i64, AlgError> {
        match digits.parse::<i64>() {
            Ok(n) if n <= MAX_AMOUNT => Ok(n),
            _ => Err(AlgError::MalformedMove {
                position,
                reason: format!("`{digits}` is above cubing.js's limit of 2^31 - 1"),
            }),
        }
    }

    /// cubing.js's `AMOUNT_REGEX`, `^(\d+)?('?)`: absent digits mean 1, `'` negates.
    fn parse_amount(&mut self) -> Result<i64, AlgError> {
        let (digits, position) = self.digits();
        if digits.len() > 1 && digits.starts_with('0') {
            return Err(AlgError::MalformedMove {
                position,
                reason: format!(
                    "amount `{digits}` starts with 0: only the amount 0 itself may; drop the leading zeros"
                ),
            });
        }
        let amount = if digits.is_empty() {
            1
        } else {
            self.number(&digits, position)?
        };
        if self.peek() == Some('\'') {
            self.pos += 1;
            Ok(-amount)
        } else {
            Ok(amount)
        }
    }

    /// After `(`: cubing.js's Square-1 pair `(-?\d+), ?(-?\d+)\)`, or `None`
    /// (position unchanged) when the text is not one.
    fn square1_pair(&mut self) -> Result<Option<(i64, i64)>, AlgError> {
        let start = self.pos;
        let Some(top) = self.signed_number()? else {
            return Ok(None);
        };
        if self.peek() != Some(',') {
            self.pos = start;
            return Ok(None);
        }
        self.pos += 1;
        if self.peek() == Some(' ') {
            self.pos += 1;
        }
        let position = self.pos;
        let bottom = self.signed_number()?;
        match (bottom, self.peek()) {
            (Some(bottom), Some(')')) => {
                self.pos += 1;
                Ok(Some((top, bottom)))
            }
            _ => Err(AlgError::MalformedMove {
                position,
                reason: "a Square-1 pair is written `(top, bottom)` with two integers".into(),
            }),
        }
    }

    fn signed_number(&mut self) -> Result<Option<i64>, AlgError> {
        let start = self.pos;
        let negative = self.peek() == Some('-');
        if negative {
            self.pos += 1;
        }
        let (digits, position) = self.digits();
        if digits.is_empty() {
            self.pos = start;
            return Ok(None);
        }
        let n = self.number(&digits, position)?;
        Ok(Some(if negative { -n } else { n }))
    }

    /// cubing.js's `parseMoveImpl`: `QUANTUM_MOVE_REGEX`
    /// (`^((([1-9]\d*)-)?([1-9]\d*))?([_A-Za-z]+)`), an amount, then an optional
    /// `+`, `++`, `-` or `--` suffix.
    fn parse_move(&mut self) -> Result<Move, AlgError> {
        let position = self.pos;
        let malformed = |reason: &str| AlgError::MalformedMove {
            position,
            reason: reason.to_owned(),
        };
        let mut quantum = String::new();
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let (first, first_at) = self.digits();
            if first.starts_with('0') {
                return Err(malformed(
                    "layer numbers start at 1 and have no leading zeros (write `2R`, `2-3Rw`)",
                ));
            }
            let first_layer = self.number(&first, first_at)?;
            quantum.push_str(&first);
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| matches!(c, '1'..='9')) {
                self.pos += 1;
                let (inner, inner_at) = self.digits();
                let inner_layer = self.number(&inner, inner_at)?;
                if inner_layer <= first_layer {
                    return Err(malformed(
                        "in `outer-inner`, the outer layer must be smaller than the inner one (write `2-3Rw`)",
                    ));
                }
                quantum.push('-');
                quantum.push_str(&inner);
            }
        }
        let family_start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        {
            self.pos += 1;
        }
        if self.pos == family_start {
            return Err(malformed(
                "a move needs a family name of letters or `_` (after any layer numbers), e.g. `R`, `2R`, `Rw`",
            ));
        }
        quantum.extend(&self.chars[family_start..self.pos]);

        let had_digits = self.peek().is_some_and(|c| c.is_ascii_digit());
        let mut amount = self.parse_amount()?;
        let suffix: String = match (self.peek(), self.peek_at(1)) {
            (Some('+'), Some('+')) => "++".into(),
            (Some('-'), Some('-')) => "--".into(),
            (Some('+'), _) => "+".into(),
            (Some('-'), _) => "-".into(),
            _ => String::new(),
        };
        self.pos += suffix.len();
        match suffix.as_str() {
            "" => {}
            _ if amount < 0 => {
                return Err(malformed(
                    "`'` cannot be combined with a `+`/`-` suffix; write `UR3-` instead of `UR3'+`",
                ));
            }
            "++" | "--" if had_digits => {
                return Err(malformed(
                    "a Pochmann `++`/`--` move takes no amount (write `R++`)",
                ));
            }
            "+" | "-" if !had_digits => {
                return Err(malformed(
                    "a clock dial move needs an amount before its `+`/`-` (write `UR3+`)",
                ));
            }
            "++" | "--" => quantum.push_str("_PLUSPLUS_"),
            _ => quantum.push_str("_PLUS_"),
        }
        if suffix.starts_with('-') {
            amount = -amount;
        }
        Ok(Move {
            quantum,
            amount,
            position,
        })
    }
}
