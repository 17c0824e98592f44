//! The closed vocabularies of SPEC.md: kinds (§2), error codes and warning
//! codes (§3, §4). Each code has exactly one meaning and one spelling; the
//! spelling is what every output format writes.

use std::fmt;

macro_rules! code_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        // Each variant is the SPEC.md code it spells (`as_str`), whose
        // meaning SPEC §3, §4 and §8 give.
        #[allow(missing_docs)]
        pub enum $name { $($(#[$vm])* $var,)* }

        impl $name {
            /// Every value, in declaration order (the order reports list them in).
            pub const ALL: &'static [$name] = &[$($name::$var,)*];

            /// The spelling SPEC.md gives this code.
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$var => $s,)* }
            }

            /// The code spelled `s`, if any.
            pub fn from_name(s: &str) -> Option<$name> {
                match s { $($s => Some($name::$var),)* _ => None }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

code_enum! {
    /// What form a value takes (SPEC §2).
    Kind {
        Handle = "handle",
        Doi = "doi",
        HdlUri = "hdl_uri",
        InfoUri = "info_uri",
        ResolverUrl = "resolver_url",
        /// An identifier of another scheme, bare or labelled (SPEC §8).
        OtherPid = "other_pid",
        Invalid = "invalid",
    }
}

code_enum! {
    /// Why a value is invalid (SPEC §4). A value carries at most one.
    ErrorCode {
        Empty = "empty",
        /// SPEC v3 §6: a spreadsheet formula quoting text, `="…"`.
        FormulaText = "formula_text",
        /// A word that stands for "no identifier" (SPEC §6).
        Placeholder = "placeholder",
        TooLong = "too_long",
        BadUtf8 = "bad_utf8",
        ControlChar = "control_char",
        NoSlash = "no_slash",
        EmptyPrefix = "empty_prefix",
        EmptySuffix = "empty_suffix",
        BadPrefix = "bad_prefix",
        BadDoiPrefix = "bad_doi_prefix",
        BadPercentEscape = "bad_percent_escape",
        BadUri = "bad_uri",
        BadInfoNamespace = "bad_info_namespace",
        BadInfoIdentifier = "bad_info_identifier",
        UnsupportedScheme = "unsupported_scheme",
        NotAResolverUrl = "not_a_resolver_url",
        /// SPEC v3 §2: a misspelt `http` scheme (`htttp://`).
        SchemeTypo = "scheme_typo",
        /// SPEC §6: two or more pieces are identifiers or links.
        MultipleValues = "multiple_values",
        /// SPEC §6: one identifier broken over two lines.
        WrappedLine = "wrapped_line",
        /// SPEC §6: raw whitespace, text glued to an identifier.
        ExtraText = "extra_text",
        /// SPEC §6: a landing page whose path holds a DOI.
        PublisherUrl = "publisher_url",
        /// SPEC §6: valid, but not of a namespace the caller expects.
        UnexpectedNamespace = "unexpected_namespace",
        /// SPEC §8: an identifier of another scheme whose check fails.
        BadCheckDigit = "bad_check_digit",
        /// SPEC §8: a label or URL of another scheme whose identifier
        /// does not have its shape.
        BadPid = "bad_pid",
    }
}

code_enum! {
    /// Something worth telling about a value (SPEC §3, §4). A value may carry
    /// any number; at most 64 exist so a set fits in a `u64`.
    Warning {
        Trimmed = "trimmed",
        ShortDoi = "short_doi",
        NonnumericPrefix = "nonnumeric_prefix",
        AmbiguousHdlHost = "ambiguous_hdl_host",
        UnknownInfoNamespace = "unknown_info_namespace",
        ApiUrl = "api_url",
        LocalResolver = "local_resolver",
        TestResolver = "test_resolver",
        EncodedSeparator = "encoded_separator",
        HttpResolver = "http_resolver",
        LegacyResolver = "legacy_resolver",
        MissingUrlScheme = "missing_url_scheme",
        DoubledLabel = "doubled_label",
        UnencodedChars = "unencoded_chars",
        /// DSpace's `/bitstream/handle/PREFIX/SUFFIX/FILE` (SPEC §2).
        FileUrl = "file_url",
        /// SPEC v3 §2: OpenAIRE's `info:eu-repo/semantics/altIdentifier/…`
        /// around another identifier.
        WrappedIdentifier = "wrapped_identifier",
        TrailingPunct = "trailing_punct",
        UnicodeDash = "unicode_dash",
        InvisibleChar = "invisible_char",
        HtmlEntity = "html_entity",
        PublisherSuffix = "publisher_suffix",
        DoubleEncoded = "double_encoded",
        EmbeddedDoi = "embedded_doi",
        InternalWhitespace = "internal_whitespace",
        TestPrefix = "test_prefix",
        /// SPEC v3 §3: the suffix is a placeholder character repeated.
        TemplateSuffix = "template_suffix",
        /// SPEC v3 §3: the suffix starts with `/`.
        DoubleSlash = "double_slash",
        UnusualPrefix = "unusual_prefix",
        /// SPEC §6's codes after a whole-value repair: the same dirt, repaired.
        FormulaText = "formula_text",
        MultipleValues = "multiple_values",
        WrappedLine = "wrapped_line",
        ExtraText = "extra_text",
        PublisherUrl = "publisher_url",
        SchemeTypo = "scheme_typo",
    }
}

const _: () = assert!(Warning::ALL.len() <= 64);

impl Warning {
    /// True for SPEC §3's dirt whose repair changes the text: `--repair`
    /// applies it to `canonical`, `uri` and `url` ([`Warnings::REPAIRABLE`]).
    pub const fn is_repairable(self) -> bool {
        Warnings::REPAIRABLE.contains(self)
    }

    /// True for SPEC §6's codes that a whole-value repair leaves as
    /// warnings ([`Warnings::WHOLE_VALUE_REPAIRS`]).
    pub const fn is_whole_value_repair(self) -> bool {
        Warnings::WHOLE_VALUE_REPAIRS.contains(self)
    }
}

/// A set of warnings: a bit per code, so building, testing and merging are
/// single instructions and iteration is in declaration order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Warnings(u64);

impl Warnings {
    /// No warning.
    pub const EMPTY: Warnings = Warnings(0);

    /// SPEC §3's dirt whose repair changes the text. `trimmed` is none:
    /// trimming happens with or without `--repair`.
    pub const REPAIRABLE: Warnings = Warnings::of(&[
        Warning::TrailingPunct,
        Warning::UnicodeDash,
        Warning::InvisibleChar,
        Warning::HtmlEntity,
        Warning::PublisherSuffix,
        Warning::DoubleEncoded,
    ]);

    /// SPEC §6's codes that a whole-value repair leaves as warnings (the
    /// same name as the error: the dirt was there).
    pub const WHOLE_VALUE_REPAIRS: Warnings = Warnings::of(&[
        Warning::FormulaText,
        Warning::MultipleValues,
        Warning::WrappedLine,
        Warning::ExtraText,
        Warning::PublisherUrl,
        Warning::SchemeTypo,
    ]);

    /// The set of `ws`, for constants.
    pub const fn of(ws: &[Warning]) -> Warnings {
        let mut bits = 0;
        let mut i = 0;
        while i < ws.len() {
            bits |= 1 << ws[i] as u64;
            i += 1;
        }
        Warnings(bits)
    }

    /// True when the two sets share a warning.
    #[inline]
    pub const fn intersects(self, other: Warnings) -> bool {
        self.0 & other.0 != 0
    }

    /// Adds `w`.
    #[inline]
    pub fn add(&mut self, w: Warning) {
        self.0 |= 1 << w as u64;
    }

    /// Adds `w` when it is some: without a branch, for the warnings
    /// that come with a value's form (its scheme's, its host's), which
    /// are as random as the forms.
    #[inline(always)]
    pub fn add_some(&mut self, w: Option<Warning>) {
        self.0 |= w.map_or(0, |w| 1 << w as u64);
    }

    /// Adds `w` when `raised`, without a branch.
    #[inline(always)]
    pub fn add_if(&mut self, raised: bool, w: Warning) {
        self.0 |= (raised as u64) << w as u64;
    }

    /// Whether `w` is in the set.
    #[inline]
    pub const fn contains(self, w: Warning) -> bool {
        self.0 & (1 << w as u64) != 0
    }

    /// Whether the set holds no warning.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many warnings the set holds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The raw bits, for compact storage; `from_bits` is its inverse.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The set of [`Warnings::bits`]; bits of no warning are dropped.
    pub fn from_bits(bits: u64) -> Warnings {
        Warnings(bits & (u64::MAX >> (64 - Warning::ALL.len())))
    }

    /// The warnings in declaration order (the order reports list them in).
    /// A warning's bit is its place in [`Warning::ALL`], so the set bits,
    /// lowest first, are that order: an empty set costs one test, not a
    /// walk over every code (every value's warnings are read so).
    pub fn iter(self) -> impl Iterator<Item = Warning> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let w = Warning::ALL[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            Some(w)
        })
    }

    /// Writes the codes joined by `sep` (for CSV and TSV output).
    pub fn join_into(self, sep: &str, out: &mut String) {
        for (i, w) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(w.as_str());
        }
    }
}

/// The union of two sets: the warnings of a value's parts joined.
impl std::ops::BitOrAssign for Warnings {
    #[inline(always)]
    fn bitor_assign(&mut self, other: Warnings) {
        self.0 |= other.0;
    }
}

impl FromIterator<Warning> for Warnings {
    fn from_iter<I: IntoIterator<Item = Warning>>(iter: I) -> Self {
        let mut ws = Warnings::EMPTY;
        for w in iter {
            ws.add(w);
        }
        ws
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_name(k.as_str()), Some(*k));
        }
        for e in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_name(e.as_str()), Some(*e));
        }
        for w in Warning::ALL {
            assert_eq!(Warning::from_name(w.as_str()), Some(*w));
        }
    }

    #[test]
    fn warnings_set_iterates_in_declaration_order() {
        let ws: Warnings = [Warning::TestPrefix, Warning::Trimmed].into_iter().collect();
        assert_eq!(
            ws.iter().collect::<Vec<_>>(),
            vec![Warning::Trimmed, Warning::TestPrefix]
        );
        let mut s = String::new();
        ws.join_into(";", &mut s);
        assert_eq!(s, "trimmed;test_prefix");
        assert_eq!(Warnings::from_bits(ws.bits()), ws);
    }

    #[test]
    fn a_set_iterates_as_the_codes_it_contains() {
        // Every set of up to three codes, and the full set: the bit walk
        // gives what filtering every code by `contains` gives.
        let all = Warning::ALL;
        let mut sets = vec![Warnings::EMPTY, all.iter().copied().collect()];
        for a in all {
            for b in all {
                for c in [all[0], all[all.len() / 2], all[all.len() - 1]] {
                    sets.push([*a, *b, c].into_iter().collect());
                }
            }
        }
        for ws in sets {
            let naive: Vec<Warning> = all.iter().copied().filter(|w| ws.contains(*w)).collect();
            assert_eq!(ws.iter().collect::<Vec<_>>(), naive, "{:#x}", ws.bits());
            assert_eq!(ws.len(), naive.len());
        }
    }

    #[test]
    fn repair_sets_are_their_predicates() {
        for w in Warning::ALL.iter().copied() {
            assert_eq!(Warnings::REPAIRABLE.contains(w), w.is_repairable(), "{w}");
            assert_eq!(
                Warnings::WHOLE_VALUE_REPAIRS.contains(w),
                w.is_whole_value_repair(),
                "{w}"
            );
        }
        assert!(!Warning::Trimmed.is_repairable());
    }
}
