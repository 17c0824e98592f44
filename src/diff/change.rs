//! What changed for one key: the six changes a diff counts, and the rule
//! that gives a pair of rows its changes.
//!
//! - `added`: the key is in NEW only; `removed`: in OLD only.
//! - `became_invalid` / `became_valid`: the kind went from any valid kind
//!   to `invalid`, or back (`empty` and `placeholder` values are invalid,
//!   as `scan` counts them: a value deleted from a record became invalid).
//!   These win: such a row is in neither of the next two, although its
//!   canonical and error changed with it.
//! - `canonical_changed`: both valid, canonicals differ.
//! - `codes_changed`: both valid or both invalid, and the error code or
//!   the set of warning codes differs (order does not count).
//!
//! A row both `canonical_changed` and `codes_changed` counts in each. A
//! kind that changes between valid kinds with the same canonical and codes
//! (`10.1/x` written as `https://doi.org/10.1/x`) is the same identifier:
//! no change.

use super::row::Side;

/// One change of one key, as the report and `-o` take it.
#[derive(Debug, Clone, Copy)]
pub struct ChangeRow<'a> {
    /// Which change.
    pub change: Change,
    /// The encoded key (see `row::key_cells`).
    pub key: &'a [u8],
    /// None for `added`.
    pub old: Option<Side<'a>>,
    /// None for `removed`.
    pub new: Option<Side<'a>>,
}

/// How one key's row changed between OLD and NEW (or that it did not exist on one side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Change {
    /// In NEW only.
    Added,
    /// In OLD only.
    Removed,
    /// Valid in OLD, invalid in NEW.
    BecameInvalid,
    /// Invalid in OLD, valid in NEW.
    BecameValid,
    /// Valid in both, with another canonical form.
    CanonicalChanged,
    /// The same canonical (or none), with other error or warning codes.
    CodesChanged,
}

impl Change {
    /// Every change, in the order reports list them.
    pub const ALL: [Change; 6] = [
        Change::Added,
        Change::Removed,
        Change::BecameInvalid,
        Change::BecameValid,
        Change::CanonicalChanged,
        Change::CodesChanged,
    ];

    /// The change's name, as in reports and the output's `change` column.
    pub const fn as_str(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::BecameInvalid => "became_invalid",
            Change::BecameValid => "became_valid",
            Change::CanonicalChanged => "canonical_changed",
            Change::CodesChanged => "codes_changed",
        }
    }

    /// The change named `s` (as [`Change::as_str`] gives it), if any.
    pub fn from_name(s: &str) -> Option<Change> {
        Change::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// The changes between the rows OLD and NEW hold for one key, in
/// [`Change::ALL`]'s order: none, one, or `canonical_changed` and
/// `codes_changed` both.
pub fn classify(old: &Side<'_>, new: &Side<'_>) -> impl Iterator<Item = Change> {
    let (was, is) = (old.valid(), new.valid());
    let validity = match (was, is) {
        (true, false) => Some(Change::BecameInvalid),
        (false, true) => Some(Change::BecameValid),
        _ => None,
    };
    let same_validity = validity.is_none();
    let canonical = same_validity && was && old.canonical != new.canonical;
    let codes = same_validity && (old.error != new.error || old.warnings != new.warnings);
    validity
        .into_iter()
        .chain(canonical.then_some(Change::CanonicalChanged))
        .chain(codes.then_some(Change::CodesChanged))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side<'a>(kind: &'a str, canonical: &'a str, error: &'a str, warnings: &'a str) -> Side<'a> {
        Side {
            record: None,
            kind,
            canonical,
            error,
            warnings,
        }
    }

    fn changes(old: Side<'_>, new: Side<'_>) -> Vec<&'static str> {
        classify(&old, &new).map(Change::as_str).collect()
    }

    #[test]
    fn the_rules_of_the_module_doc() {
        let doi = side("doi", "10.1/x", "", "");
        assert_eq!(changes(doi, doi), Vec::<&str>::new());
        let broken = side("invalid", "", "no_slash", "");
        assert_eq!(changes(doi, broken), ["became_invalid"]);
        assert_eq!(changes(broken, doi), ["became_valid"]);
        let empty = side("invalid", "", "empty", "");
        assert_eq!(changes(doi, empty), ["became_invalid"]);
        assert_eq!(changes(broken, empty), ["codes_changed"]);
        let other = side("doi", "10.1/y", "", "");
        assert_eq!(changes(doi, other), ["canonical_changed"]);
        let warned = side("resolver_url", "10.1/y", "", "legacy_resolver");
        assert_eq!(changes(doi, warned), ["canonical_changed", "codes_changed"]);
        let url = side("resolver_url", "10.1/x", "", "");
        assert_eq!(changes(doi, url), Vec::<&str>::new(), "same identifier, other form");
        let broken_warned = side("invalid", "", "no_slash", "trimmed");
        assert_eq!(changes(doi, broken_warned), ["became_invalid"]);
    }

    #[test]
    fn names_round_trip() {
        for c in Change::ALL {
            assert_eq!(Change::from_name(c.as_str()), Some(c));
        }
        assert_eq!(Change::from_name("changed"), None);
    }
}
