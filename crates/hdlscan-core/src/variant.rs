//! How a cluster member's value differs from its cluster's first value: the
//! `variant` column of the duplicates file. One function, [`variant`], holds
//! the rule, so the file and the report's top members cannot disagree.

use crate::id::{Warning, Warnings};

/// How a member's raw value differs from its cluster's first member's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Equal byte for byte.
    Same,
    /// Equal ignoring ASCII case.
    Case,
    /// A repair (`--repair`) made them meet.
    Repair,
    /// Percent-decoding or Unicode handling made them meet.
    Encoding,
    /// Another form of the same identifier (a label, a host, a scheme).
    Form,
}

impl Variant {
    /// Every variant, in the order of the rule.
    pub const ALL: [Variant; 5] = [
        Variant::Same,
        Variant::Case,
        Variant::Repair,
        Variant::Encoding,
        Variant::Form,
    ];

    /// The spelling the duplicates file and the report use.
    pub const fn as_str(self) -> &'static str {
        match self {
            Variant::Same => "same",
            Variant::Case => "case",
            Variant::Repair => "repair",
            Variant::Encoding => "encoding",
            Variant::Form => "form",
        }
    }

    /// The one-byte form temporary files store.
    pub fn to_u8(self) -> u8 {
        self as u8
    }

    /// The variant [`Variant::to_u8`] stored; `None` for any other byte.
    pub fn from_u8(b: u8) -> Option<Variant> {
        Variant::ALL.get(b as usize).copied()
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The warnings that say percent-decoding or Unicode handling touched a
/// value, for the `encoding` arm.
pub const ENCODINGS: &[Warning] = &[
    Warning::EncodedSeparator,
    Warning::UnencodedChars,
    Warning::InternalWhitespace,
    Warning::InvisibleChar,
    Warning::UnicodeDash,
    Warning::HtmlEntity,
];

/// The warnings of a repair: SPEC §3's dirt `--repair` fixes and §6's
/// whole-value repairs. `trimmed` is not one: trimming happens with or
/// without `--repair`, and the whitespace it takes away is judged by the
/// `encoding` arm.
const REPAIR_MASK: u64 = Warnings::REPAIRABLE.bits() | Warnings::WHOLE_VALUE_REPAIRS.bits();
const ENCODING_MASK: u64 = Warnings::of(ENCODINGS).bits();

/// How member `m` differs from its cluster's first member `f`, both by raw
/// value bytes (and the warnings the parser gave each). The first arm that
/// matches wins:
///
/// 1. `same`: the values are equal byte for byte.
/// 2. `case`: they are equal ignoring ASCII case.
/// 3. `repair`: the run repairs (`--repair`) and either value carries the
///    warning of a repair: SPEC §3's dirt (`trailing_punct`, …,
///    [`Warning::is_repairable`]) or a whole-value one (`multiple_values`,
///    …, [`Warning::is_whole_value_repair`]); `trimmed` is not a repair.
/// 4. `encoding`: either value has a byte that percent-decoding or Unicode
///    handling touched (a `%`, a non-ASCII byte, or whitespace at its start
///    or end), or carries `encoded_separator`, `unencoded_chars`,
///    `internal_whitespace`, `invisible_char`, `unicode_dash` or
///    `html_entity` ([`ENCODINGS`]).
/// 5. `form`: anything else: a label (`doi:`), a resolver host, a scheme, the
///    `hdl:` or `info:` form.
pub fn variant(m: &[u8], m_warnings: Warnings, f: &[u8], f_warnings: Warnings, repair: bool) -> Variant {
    if m == f {
        return Variant::Same;
    }
    if m.eq_ignore_ascii_case(f) {
        return Variant::Case;
    }
    let warned = m_warnings.bits() | f_warnings.bits();
    if repair && warned & REPAIR_MASK != 0 {
        return Variant::Repair;
    }
    if warned & ENCODING_MASK != 0 || touched(m) || touched(f) {
        return Variant::Encoding;
    }
    Variant::Form
}

/// Whether percent-decoding or Unicode handling had something to do in `v`.
fn touched(v: &[u8]) -> bool {
    let edge_space = |b: Option<&u8>| b.is_some_and(u8::is_ascii_whitespace);
    edge_space(v.first()) || edge_space(v.last()) || v.iter().any(|&b| b == b'%' || !b.is_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One comparison of the rule: member and first, with their warnings.
    struct Case {
        member: &'static str,
        member_warnings: &'static [Warning],
        first: &'static str,
        first_warnings: &'static [Warning],
        repair: bool,
        expected: Variant,
    }

    fn check(cases: &[Case]) {
        for c in cases {
            let got = variant(
                c.member.as_bytes(),
                c.member_warnings.iter().copied().collect(),
                c.first.as_bytes(),
                c.first_warnings.iter().copied().collect(),
                c.repair,
            );
            assert_eq!(
                got, c.expected,
                "{:?} against {:?} (repair {})",
                c.member, c.first, c.repair
            );
        }
    }

    fn case(member: &'static str, first: &'static str, expected: Variant) -> Case {
        Case {
            member,
            member_warnings: &[],
            first,
            first_warnings: &[],
            repair: false,
            expected,
        }
    }

    #[test]
    fn same_and_case() {
        check(&[
            case("10.1000/abc", "10.1000/abc", Variant::Same),
            case("hdl:20.500.12345/6789", "hdl:20.500.12345/6789", Variant::Same),
            case("10.1000/ABC", "10.1000/abc", Variant::Case),
            case(
                "https://DOI.org/10.1000/abc",
                "https://doi.org/10.1000/ABC",
                Variant::Case,
            ),
            // Same bytes win over any warning, even with repair on.
            Case {
                member: "10.1000/abc.",
                member_warnings: &[Warning::TrailingPunct],
                first: "10.1000/abc.",
                first_warnings: &[Warning::TrailingPunct],
                repair: true,
                expected: Variant::Same,
            },
        ]);
    }

    #[test]
    fn repair_needs_repair_on_and_a_repair_warning() {
        check(&[
            Case {
                member: "10.1000/abc.",
                member_warnings: &[Warning::TrailingPunct],
                first: "10.1000/abc",
                first_warnings: &[],
                repair: true,
                expected: Variant::Repair,
            },
            // The first value may be the repaired one.
            Case {
                member: "https://doi.org/10.1000/abc",
                member_warnings: &[],
                first: "see 10.1000/abc",
                first_warnings: &[Warning::ExtraText],
                repair: true,
                expected: Variant::Repair,
            },
            // A repair warning that is also an encoding one: repair first.
            Case {
                member: "10.1000/a\u{2010}b",
                member_warnings: &[Warning::UnicodeDash],
                first: "10.1000/a-b",
                first_warnings: &[],
                repair: true,
                expected: Variant::Repair,
            },
            // Without --repair the same pair is an encoding difference.
            Case {
                member: "10.1000/a\u{2010}b",
                member_warnings: &[Warning::UnicodeDash],
                first: "10.1000/a-b",
                first_warnings: &[],
                repair: false,
                expected: Variant::Encoding,
            },
            // Trimmed is no repair: the whitespace makes it encoding.
            Case {
                member: " 10.1000/abc",
                member_warnings: &[Warning::Trimmed],
                first: "10.1000/abc",
                first_warnings: &[],
                repair: true,
                expected: Variant::Encoding,
            },
            // A repair warning on a pure form difference, repair off: form.
            Case {
                member: "https://doi.org/10.1000/abc",
                member_warnings: &[Warning::PublisherUrl],
                first: "doi:10.1000/abc",
                first_warnings: &[],
                repair: false,
                expected: Variant::Form,
            },
        ]);
    }

    #[test]
    fn encoding() {
        check(&[
            case("10.1/a%2Fb", "10.1/a/b", Variant::Encoding),
            case("10.1/a/b", "10.1/a%2fb", Variant::Encoding),
            case("10.1000/abc ", "10.1000/abc", Variant::Encoding),
            case("\t10.1000/abc", "doi:10.1000/abc", Variant::Encoding),
            case("10.1000/caf\u{e9}", "10.1000/CAF\u{c9}", Variant::Encoding),
            Case {
                member: "10.1000/a b",
                member_warnings: &[Warning::InternalWhitespace],
                first: "10.1000/ab",
                first_warnings: &[],
                repair: false,
                expected: Variant::Encoding,
            },
            Case {
                member: "10.1000/a&lt;b",
                member_warnings: &[],
                first: "10.1000/a<b",
                first_warnings: &[Warning::HtmlEntity],
                repair: false,
                expected: Variant::Encoding,
            },
        ]);
    }

    #[test]
    fn form() {
        check(&[
            case("10.1000/ABC", "https://doi.org/10.1000/abc", Variant::Form),
            case("doi:10.1000/abc", "10.1000/abc", Variant::Form),
            case(
                "http://dx.doi.org/10.1000/abc",
                "https://doi.org/10.1000/abc",
                Variant::Form,
            ),
            case("hdl:20.500.1/x", "info:hdl/20.500.1/x", Variant::Form),
            case("https://hdl.handle.net/20.500.1/x", "20.500.1/x", Variant::Form),
            // Warnings outside both lists change nothing.
            Case {
                member: "http://dx.doi.org/10.1000/abc",
                member_warnings: &[Warning::HttpResolver, Warning::LegacyResolver],
                first: "10.1000/abc",
                first_warnings: &[],
                repair: true,
                expected: Variant::Form,
            },
        ]);
    }

    #[test]
    fn stored_byte_round_trips() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_u8(v.to_u8()), Some(v));
        }
        assert_eq!(Variant::from_u8(5), None);
    }
}
