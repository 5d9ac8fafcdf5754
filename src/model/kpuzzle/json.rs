//! Reading KPuzzle JSON values field by field, so that each error names its field.
//!
//! The definition is read as a `serde_json::Value` and walked by hand rather than
//! derived with serde: a derived reader reports "invalid type at line 1 column
//! 9000" for an 8 MB one-line file, while the walk reports
//! `moves.U.EDGES.orientationDelta` entry 3.

use serde_json::{Map, Value};

use super::error::DefinitionError;
use super::pattern::PatternOrbit;
use super::transformation::OrbitTransformation;

/// A short description of a JSON value for error messages.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.len() <= 40 => format!("the string {s:?}"),
        Value::String(_) => "a string".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn wrong_type(field: &str, expected: &'static str, value: &Value) -> DefinitionError {
    DefinitionError::WrongType {
        field: field.to_owned(),
        expected,
        found: describe(value),
    }
}

pub(super) fn object<'a>(
    value: &'a Value,
    field: &str,
) -> Result<&'a Map<String, Value>, DefinitionError> {
    value
        .as_object()
        .ok_or_else(|| wrong_type(field, "an object", value))
}

pub(super) fn array<'a>(value: &'a Value, field: &str) -> Result<&'a [Value], DefinitionError> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| wrong_type(field, "an array", value))
}

pub(super) fn string<'a>(value: &'a Value, field: &str) -> Result<&'a str, DefinitionError> {
    value
        .as_str()
        .ok_or_else(|| wrong_type(field, "a string", value))
}

/// A non-negative integer no larger than `max`.
pub(super) fn uint(value: &Value, field: &str, max: u64) -> Result<u64, DefinitionError> {
    let n = value
        .as_u64()
        .ok_or_else(|| wrong_type(field, "a non-negative integer", value))?;
    if n > max {
        return Err(DefinitionError::TooLarge {
            field: field.to_owned(),
            value: n,
            max,
        });
    }
    Ok(n)
}

/// The member `key` of `object`, whose own path is `parent`.
pub(super) fn member<'a>(
    object: &'a Map<String, Value>,
    key: &str,
    parent: &str,
) -> Result<&'a Value, DefinitionError> {
    object
        .get(key)
        .ok_or_else(|| DefinitionError::MissingField {
            field: join(parent, key),
        })
}

/// `parent.key`, or `key` at the top level.
pub(super) fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_owned()
    } else {
        format!("{parent}.{key}")
    }
}

/// An array of `len` non-negative integers, each at most `max`.
fn uint_array(
    value: &Value,
    field: &str,
    orbit: &str,
    len: usize,
    max: u64,
) -> Result<Vec<u64>, DefinitionError> {
    let items = array(value, field)?;
    if items.len() != len {
        return Err(DefinitionError::WrongLength {
            field: field.to_owned(),
            orbit: orbit.to_owned(),
            expected: len,
            found: items.len(),
        });
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| uint(item, &format!("{field}[{i}]"), max))
        .collect()
}

/// The shape of one orbit, as `orbits` declares it.
pub(super) struct OrbitShape<'a> {
    pub name: &'a str,
    pub num_pieces: usize,
    pub num_orientations: u8,
}

/// Orientations (or deltas) must be below `modulus`.
fn check_orientation(
    field: &str,
    index: usize,
    value: u64,
    modulus: u64,
    reason: impl FnOnce() -> String,
) -> Result<u8, DefinitionError> {
    if value >= modulus {
        return Err(DefinitionError::OrientationOutOfRange {
            field: field.to_owned(),
            index,
            value: value as i64,
            modulus,
            reason: reason(),
        });
    }
    // value < modulus <= 255.
    Ok(value as u8)
}

/// `{"permutation": [...], "orientationDelta": [...]}` at `field`.
pub(super) fn orbit_transformation(
    value: &Value,
    field: &str,
    shape: &OrbitShape<'_>,
) -> Result<OrbitTransformation, DefinitionError> {
    let object = object(value, field)?;
    let n = shape.num_pieces;

    let permutation_field = join(field, "permutation");
    let raw = uint_array(
        member(object, "permutation", field)?,
        &permutation_field,
        shape.name,
        n,
        u64::MAX,
    )?;
    let mut first_seen: Vec<Option<usize>> = vec![None; n];
    let mut permutation = Vec::with_capacity(n);
    for (index, &value) in raw.iter().enumerate() {
        let slot = usize::try_from(value)
            .ok()
            .filter(|&s| s < n)
            .ok_or_else(|| DefinitionError::PermutationOutOfRange {
                field: permutation_field.clone(),
                orbit: shape.name.to_owned(),
                index,
                value,
                num_pieces: n,
            })?;
        if let Some(first_index) = first_seen[slot] {
            return Err(DefinitionError::PermutationRepeated {
                field: permutation_field,
                value,
                first_index,
                index,
                num_pieces: n,
            });
        }
        first_seen[slot] = Some(index);
        // slot < n <= u16::MAX.
        permutation.push(slot as u16);
    }

    let delta_field = join(field, "orientationDelta");
    let items = array(member(object, "orientationDelta", field)?, &delta_field)?;
    if items.len() != n {
        return Err(DefinitionError::WrongLength {
            field: delta_field,
            orbit: shape.name.to_owned(),
            expected: n,
            found: items.len(),
        });
    }
    let modulus = i64::from(shape.num_orientations);
    let orientation_delta = items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let value = item.as_i64().ok_or_else(|| {
                wrong_type(&format!("{delta_field}[{index}]"), "an integer", item)
            })?;
            // A delta is a residue mod numOrientations; cubing.js's clock definition
            // writes 3 mod 4 as -1 (`moves.z.HOUR_MARKS`), so -(n-1)..=-1 read as n + d.
            if value <= -modulus || value >= modulus {
                return Err(DefinitionError::OrientationOutOfRange {
                    field: delta_field.clone(),
                    index,
                    value,
                    modulus: modulus as u64,
                    reason: format!(
                        "orbit `{}` has numOrientations {modulus}; negative deltas down to -{} also read mod {modulus}",
                        shape.name,
                        modulus - 1
                    ),
                });
            }
            // 0 <= value.rem_euclid(modulus) < modulus <= 255.
            Ok(value.rem_euclid(modulus) as u8)
        })
        .collect::<Result<Vec<u8>, _>>()?;

    Ok(OrbitTransformation::from_parts(
        permutation,
        orientation_delta,
        shape.num_orientations,
    ))
}

/// `{"pieces": [...], "orientation": [...], "orientationMod"?: [...]}` at `field`.
pub(super) fn pattern_orbit(
    value: &Value,
    field: &str,
    shape: &OrbitShape<'_>,
) -> Result<PatternOrbit, DefinitionError> {
    let object = object(value, field)?;
    let n = shape.num_pieces;
    let num_orientations = shape.num_orientations;

    let pieces_field = join(field, "pieces");
    let pieces = uint_array(
        member(object, "pieces", field)?,
        &pieces_field,
        shape.name,
        n,
        u64::from(u16::MAX),
    )?
    .into_iter()
    // Checked against u16::MAX above.
    .map(|p| p as u16)
    .collect::<Vec<u16>>();

    let mod_field = join(field, "orientationMod");
    let orientation_mod = match object.get("orientationMod") {
        None | Some(Value::Null) => vec![0; n],
        Some(value) => uint_array(value, &mod_field, shape.name, n, u64::MAX)?
            .into_iter()
            .enumerate()
            .map(|(index, m)| {
                let full = u64::from(num_orientations);
                if m == 0 || m == full {
                    Ok(0)
                } else if m < full && full % m == 0 {
                    // m < numOrientations <= 255.
                    Ok(m as u8)
                } else {
                    Err(DefinitionError::InvalidOrientationMod {
                        field: mod_field.clone(),
                        index,
                        value: m,
                        num_orientations,
                    })
                }
            })
            .collect::<Result<Vec<u8>, _>>()?,
    };

    let orientation_field = join(field, "orientation");
    let raw = uint_array(
        member(object, "orientation", field)?,
        &orientation_field,
        shape.name,
        n,
        u64::MAX,
    )?;
    let orientation = raw
        .iter()
        .zip(&orientation_mod)
        .enumerate()
        .map(|(index, (&value, &m))| {
            if m == 0 {
                check_orientation(
                    &orientation_field,
                    index,
                    value,
                    u64::from(num_orientations),
                    || {
                        format!(
                            "orbit `{}` has numOrientations {num_orientations}",
                            shape.name
                        )
                    },
                )
            } else {
                check_orientation(&orientation_field, index, value, u64::from(m), || {
                    format!("`{mod_field}` entry {index} is {m}")
                })
            }
        })
        .collect::<Result<Vec<u8>, _>>()?;

    Ok(PatternOrbit::from_parts(
        pieces,
        orientation,
        orientation_mod,
        num_orientations,
    ))
}
