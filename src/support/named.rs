//! Values chosen by name (a puzzle, a metric, a table, a method): the one lookup for every
//! reader of names outside the command line's own parser (a circuit file's header, the
//! server's JSON, Python's arguments). The names are the ones the command line accepts.

use thiserror::Error;

/// A closed set of values a user picks by name.
pub trait Named: Copy + 'static {
    /// Every value a user may name, in the order a message lists them.
    fn choices() -> &'static [Self];

    /// The value's name, as the command line writes it.
    fn name(self) -> &'static str;
}

/// A name that is none of a type's values.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("'{given}' is not a {what}: use one of {choices}")]
pub struct UnknownName {
    /// What was asked for ("metric", "table").
    pub what: String,
    /// The text given.
    pub given: String,
    /// The names accepted, comma-separated.
    pub choices: String,
}

/// The value of `T` that `text` names, ignoring ASCII case; the error lists every name.
pub fn named<T: Named>(what: &str, text: &str) -> Result<T, UnknownName> {
    T::choices()
        .iter()
        .copied()
        .find(|value| value.name().eq_ignore_ascii_case(text.trim()))
        .ok_or_else(|| UnknownName {
            what: what.to_string(),
            given: text.to_string(),
            choices: T::choices()
                .iter()
                .map(|value| value.name())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Implements [`Named`] for a type with a `name(self) -> &'static str` and a list of values.
macro_rules! impl_named {
    ($type:ty, $choices:expr) => {
        impl $crate::support::named::Named for $type {
            fn choices() -> &'static [Self] {
                &$choices
            }

            fn name(self) -> &'static str {
                <$type>::name(self)
            }
        }
    };
}
pub(crate) use impl_named;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::TableKind;
    use crate::model::cube::Metric;
    use crate::model::position::Puzzle;

    #[test]
    fn names_read_back_whatever_their_case() {
        for &kind in TableKind::choices() {
            assert_eq!(named::<TableKind>("table", kind.name()), Ok(kind));
        }
        assert_eq!(named::<Metric>("metric", "QTM"), Ok(Metric::Qtm));
        assert_eq!(named::<Puzzle>("puzzle", "2x2"), Ok(Puzzle::Pocket));
    }

    #[test]
    fn an_unknown_name_lists_the_choices() {
        let error = named::<Metric>("metric", "stm").unwrap_err();
        assert_eq!(
            error.to_string(),
            "'stm' is not a metric: use one of htm, qtm"
        );
    }
}
