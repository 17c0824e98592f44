//! SPEC §8's table, column "identifier": the shape of each scheme's
//! identifier, read from ASCII bytes (dashes and invisible characters
//! already mapped by `mod.rs`), checked by `check.rs`, and kept in its
//! canonical spelling in a small fixed buffer (`Id`), so reading one
//! allocates nothing. ARKs, whose names have no fixed length, borrow the
//! text instead.

use super::check;

/// The schemes of SPEC §8, by the namespace each value reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Issn,
    Isbn,
    Orcid,
    Isni,
    Ror,
    Arxiv,
    Pmid,
    Pmcid,
    Ark,
}

impl Scheme {
    pub const ALL: [Scheme; 9] = [
        Scheme::Issn,
        Scheme::Isbn,
        Scheme::Orcid,
        Scheme::Isni,
        Scheme::Ror,
        Scheme::Arxiv,
        Scheme::Pmid,
        Scheme::Pmcid,
        Scheme::Ark,
    ];

    /// The namespace (SPEC §3), which the canonical starts with.
    pub const fn name(self) -> &'static str {
        match self {
            Scheme::Issn => "issn",
            Scheme::Isbn => "isbn",
            Scheme::Orcid => "orcid",
            Scheme::Isni => "isni",
            Scheme::Ror => "ror",
            Scheme::Arxiv => "arxiv",
            Scheme::Pmid => "pmid",
            Scheme::Pmcid => "pmcid",
            Scheme::Ark => "ark",
        }
    }

    /// The scheme whose namespace is `ns` (lower case).
    pub fn from_name(ns: &str) -> Option<Scheme> {
        Scheme::ALL.into_iter().find(|s| s.name() == ns)
    }

    /// The head of the scheme's `url` (SPEC §8's table); ISBNs have none.
    pub const fn url_head(self) -> Option<&'static str> {
        Some(match self {
            Scheme::Issn => "https://portal.issn.org/resource/ISSN/",
            Scheme::Isbn => return None,
            Scheme::Orcid => "https://orcid.org/",
            Scheme::Isni => "https://isni.org/isni/",
            Scheme::Ror => "https://ror.org/",
            Scheme::Arxiv => "https://arxiv.org/abs/",
            Scheme::Pmid => "https://pubmed.ncbi.nlm.nih.gov/",
            Scheme::Pmcid => "https://pmc.ncbi.nlm.nih.gov/articles/",
            Scheme::Ark => "https://n2t.net/",
        })
    }

    /// What the `url` writes after the identifier: PubMed's pages end in
    /// `/`.
    pub const fn url_tail(self) -> &'static str {
        match self {
            Scheme::Pmid | Scheme::Pmcid => "/",
            _ => "",
        }
    }
}

/// Why an identifier of a scheme was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// It does not have the scheme's shape (`bad_pid`).
    Shape,
    /// It has the shape, and its check character is wrong
    /// (`bad_check_digit`).
    Check,
}

/// The longest fixed-shape identifier in its canonical spelling: an old
/// arXiv id (`chao-dyn/9901001`, the archive at most 8 letters).
const MAX: usize = 24;

/// One identifier, read: its scheme and its canonical spelling without
/// the `scheme:` head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Id<'a> {
    pub scheme: Scheme,
    body: Body<'a>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Body<'a> {
    Fixed([u8; MAX], u8),
    /// NAAN and name (with qualifiers) as written.
    Ark(&'a str, &'a str),
}

impl<'a> Id<'a> {
    fn fixed(scheme: Scheme, parts: &[&[u8]]) -> Id<'a> {
        let mut buf = [0u8; MAX];
        let mut len = 0;
        for p in parts {
            buf[len..len + p.len()].copy_from_slice(p);
            len += p.len();
        }
        Id {
            scheme,
            body: Body::Fixed(buf, len as u8),
        }
    }

    /// Appends the identifier's canonical spelling, without `scheme:`
    /// (SPEC §8's table, column "canonical").
    pub fn write(&self, out: &mut String) {
        match self.body {
            Body::Fixed(buf, len) => {
                // Only ASCII is ever copied in (`fixed`'s callers).
                out.push_str(std::str::from_utf8(&buf[..len as usize]).unwrap_or_default());
            }
            Body::Ark(naan, name) => {
                let at = out.len();
                out.push_str(naan);
                out[at..].make_ascii_lowercase();
                out.push('/');
                // Hyphens are identity-inert in ARKs.
                out.extend(name.chars().filter(|&c| c != '-'));
            }
        }
    }
}

/// The digits `b` holds with `-` or ` ` between groups (one kind, single,
/// never at an end), into `out`: how many, or `None` for any other byte
/// (an `X` is let through last, for ISBN-10 and ISNI).
fn grouped(b: &[u8], out: &mut [u8; 16]) -> Option<(usize, usize)> {
    // One walk: the separator is the first `-` or ` ` met, and a byte of
    // the other kind is none; the last byte alone may be `X`.
    let (&last, body) = b.split_last()?;
    let (mut n, mut groups, mut sep, mut last_sep) = (0, 1, 0u8, true);
    for &c in body {
        if c.is_ascii_digit() {
            *out.get_mut(n)? = c;
            n += 1;
            last_sep = false;
        } else if matches!(c, b'-' | b' ') && !last_sep && (sep == 0 || sep == c) {
            sep = c;
            groups += 1;
            last_sep = true;
        } else {
            return None;
        }
    }
    *out.get_mut(n)? = match last {
        b'0'..=b'9' => last,
        b'x' | b'X' => b'X',
        _ => return None,
    };
    Some((n + 1, groups))
}

/// ISSN: `NNNN-NNNC`, or (`loose`: labelled or declared) `NNNNNNNC`.
fn issn<'a>(b: &[u8], loose: bool) -> Result<Id<'a>, Fail> {
    let d: [u8; 8] = match b.len() {
        9 if b[4] == b'-' => [b[0], b[1], b[2], b[3], b[5], b[6], b[7], b[8]],
        8 if loose => b.try_into().map_err(|_| Fail::Shape)?,
        _ => return Err(Fail::Shape),
    };
    let body: &[u8; 7] = d[..7].try_into().map_err(|_| Fail::Shape)?;
    let c = d[7];
    if !body.iter().all(u8::is_ascii_digit) || !(c.is_ascii_digit() || c | 0x20 == b'x') {
        return Err(Fail::Shape);
    }
    if !check::same(c, check::issn(body)) {
        return Err(Fail::Check);
    }
    Ok(Id::fixed(
        Scheme::Issn,
        &[&d[..4], b"-", &d[4..7], &[c.to_ascii_uppercase()]],
    ))
}

/// ISBN: 13 digits starting `978` or `979`, or 10 (the last may be `X`),
/// with `-` or ` ` between groups; `groups` limits how they may be
/// grouped (`None`: any way).
fn isbn<'a>(b: &[u8], ten_groups: Option<usize>) -> Result<Id<'a>, Fail> {
    let mut d = [0u8; 16];
    let (n, groups) = grouped(b, &mut d).ok_or(Fail::Shape)?;
    match n {
        13 if (d.starts_with(b"978") || d.starts_with(b"979")) && d[12] != b'X' => {
            let d: &[u8; 13] = d[..13].try_into().map_err(|_| Fail::Shape)?;
            if !check::isbn13(d) {
                return Err(Fail::Check);
            }
            Ok(Id::fixed(Scheme::Isbn, &[d]))
        }
        10 if ten_groups.is_none_or(|g| g == groups) => {
            let d: &[u8; 10] = d[..10].try_into().map_err(|_| Fail::Shape)?;
            if !check::isbn10(d) {
                return Err(Fail::Check);
            }
            Ok(Id::fixed(Scheme::Isbn, &[&check::isbn10_to_13(d)]))
        }
        _ => Err(Fail::Shape),
    }
}

/// Four groups of four joined by `sep`, the last character a digit or
/// `X`: the sixteen characters, `X` upper case.
fn sixteen(b: &[u8], sep: u8) -> Option<[u8; 16]> {
    if b.len() != 19 || b[4] != sep || b[9] != sep || b[14] != sep {
        return None;
    }
    let mut d = [0u8; 16];
    let mut n = 0;
    for (i, &c) in b.iter().enumerate() {
        if matches!(i, 4 | 9 | 14) {
            continue;
        }
        let x = i == 18 && c | 0x20 == b'x';
        if !(c.is_ascii_digit() || x) {
            return None;
        }
        d[n] = c.to_ascii_uppercase();
        n += 1;
    }
    Some(d)
}

/// MOD 11-2 over the sixteen characters of an ORCID iD or ISNI.
fn mod11_2_holds(d: &[u8; 16]) -> bool {
    let body: &[u8; 15] = d[..15].try_into().unwrap_or(&[b'0'; 15]);
    d[15] == check::mod11_2(body)
}

/// ORCID: `NNNN-NNNN-NNNN-NNNC`.
fn orcid<'a>(b: &[u8]) -> Result<Id<'a>, Fail> {
    let d = sixteen(b, b'-').ok_or(Fail::Shape)?;
    if !mod11_2_holds(&d) {
        return Err(Fail::Check);
    }
    let g = |i: usize| &d[4 * i..4 * i + 4];
    Ok(Id::fixed(Scheme::Orcid, &[g(0), b"-", g(1), b"-", g(2), b"-", g(3)]))
}

/// ISNI: four groups of four joined by single spaces, or (`loose`)
/// sixteen characters in one.
fn isni<'a>(b: &[u8], loose: bool) -> Result<Id<'a>, Fail> {
    let d = match sixteen(b, b' ') {
        Some(d) => d,
        None if loose && b.len() == 16 => {
            let mut d = [0u8; 16];
            for (i, &c) in b.iter().enumerate() {
                if !(c.is_ascii_digit() || (i == 15 && c | 0x20 == b'x')) {
                    return Err(Fail::Shape);
                }
                d[i] = c.to_ascii_uppercase();
            }
            d
        }
        None => return Err(Fail::Shape),
    };
    if !mod11_2_holds(&d) {
        return Err(Fail::Check);
    }
    Ok(Id::fixed(Scheme::Isni, &[&d]))
}

/// ROR: `0`, six characters of Crockford's base32, two check digits; any
/// case, canonical lower case.
fn ror<'a>(b: &[u8]) -> Result<Id<'a>, Fail> {
    let Ok(id) = <[u8; 9]>::try_from(b) else {
        return Err(Fail::Shape);
    };
    let id = id.map(|c| c.to_ascii_lowercase());
    let first7: [u8; 7] = [id[0], id[1], id[2], id[3], id[4], id[5], id[6]];
    if id[0] != b'0' || !first7.iter().all(|&c| check::is_crockford(c)) || !id[7..].iter().all(u8::is_ascii_digit) {
        return Err(Fail::Shape);
    }
    if check::ror(&first7) != Some([id[7], id[8]]) {
        return Err(Fail::Check);
    }
    Ok(Id::fixed(Scheme::Ror, &[&id]))
}

/// arXiv's archives of the old scheme (before April 2007), whose ids
/// are `archive(.SUBJ)/YYMMNNN`.
const ARCHIVES: &[&str] = &[
    "acc-phys", "adap-org", "alg-geom", "ao-sci", "astro-ph", "atom-ph", "bayes-an", "chao-dyn", "chem-ph", "cmp-lg",
    "comp-gas", "cond-mat", "cs", "dg-ga", "funct-an", "gr-qc", "hep-ex", "hep-lat", "hep-ph", "hep-th", "math",
    "math-ph", "mtrl-th", "nlin", "nucl-ex", "nucl-th", "patt-sol", "physics", "plasm-ph", "q-alg", "q-bio",
    "quant-ph", "solv-int", "supr-con",
];

/// By an archive's first letter (`a` to `z`): bit `n` set when an
/// archive of `ARCHIVES` starting with it is `n` bytes long.
const ARCHIVE_LENGTHS: [u64; 26] = {
    let (mut m, mut i) = ([0u64; 26], 0);
    while i < ARCHIVES.len() {
        let a = ARCHIVES[i].as_bytes();
        m[(a[0] - b'a') as usize] |= 1 << a.len();
        i += 1;
    }
    m
};

/// True when `b` is an archive of arXiv's old scheme, perhaps with its
/// `.SUBJ` (`math.GT`).
pub fn is_archive(b: &[u8]) -> bool {
    let archive = b.split(|&c| c == b'.').next().unwrap_or(b);
    // Most words are none: told by their first letter and length
    // together (`doi/…`, `hdl:/…`, `pmid/…` are none of the archives'),
    // before the list is read.
    let Some(first) = archive.first().map(|c| c | 0x20).filter(u8::is_ascii_lowercase) else {
        return false;
    };
    if archive.len() >= 64 || ARCHIVE_LENGTHS[usize::from(first - b'a')] >> archive.len() & 1 == 0 {
        return false;
    }
    // Archives are letters and `-` (`https:` is none).
    if !archive.iter().all(|&c| c.is_ascii_alphabetic() || c == b'-') {
        return false;
    }
    ARCHIVES
        .iter()
        .any(|a| a.len() == archive.len() && a.as_bytes()[0] == first && a.as_bytes().eq_ignore_ascii_case(archive))
}

/// `b` without an arXiv version `vN` at its end.
fn without_version(b: &[u8]) -> &[u8] {
    let digits = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    match b.len().checked_sub(digits + 1) {
        Some(v) if digits > 0 && b[v] | 0x20 == b'v' => &b[..v],
        _ => b,
    }
}

/// `YYMM` with a month 01 to 12.
fn year_month(b: &[u8]) -> bool {
    b.len() == 4 && b.iter().all(u8::is_ascii_digit) && matches!((b[2] - b'0') * 10 + (b[3] - b'0'), 1..=12)
}

/// arXiv: `YYMM.NNNN(N)` (`new`: not for a bare value) or an old
/// `archive(.SUBJ)/YYMMNNN`, an optional version after either. The
/// canonical drops the version and `.SUBJ`, and lower-cases the archive.
fn arxiv<'a>(b: &[u8], new: bool) -> Result<Id<'a>, Fail> {
    let id = without_version(b);
    if let Some(slash) = id.iter().position(|&c| c == b'/') {
        let (archive, number) = (&id[..slash], &id[slash + 1..]);
        let archive = match archive.iter().position(|&c| c == b'.') {
            Some(dot)
                if dot + 1 < archive.len()
                    && archive[dot + 1..].iter().all(|c| c.is_ascii_alphabetic() || *c == b'-') =>
            {
                &archive[..dot]
            }
            Some(_) => return Err(Fail::Shape),
            None => archive,
        };
        if !is_archive(archive)
            || number.len() != 7
            || !year_month(&number[..4])
            || !number.iter().all(u8::is_ascii_digit)
        {
            return Err(Fail::Shape);
        }
        let mut lower = [0u8; 8];
        lower[..archive.len()].copy_from_slice(archive);
        lower.make_ascii_lowercase();
        return Ok(Id::fixed(Scheme::Arxiv, &[&lower[..archive.len()], b"/", number]));
    }
    let fits = new
        && matches!(id.len(), 9 | 10)
        && year_month(&id[..4])
        && id[4] == b'.'
        && id[5..].iter().all(u8::is_ascii_digit);
    if !fits {
        return Err(Fail::Shape);
    }
    Ok(Id::fixed(Scheme::Arxiv, &[id]))
}

/// 1 to 9 digits, no leading zero.
fn pubmed_number(b: &[u8]) -> bool {
    (1..=9).contains(&b.len()) && b[0] != b'0' && b.iter().all(u8::is_ascii_digit)
}

/// PMID: 1 to 9 digits, no leading zero.
fn pmid<'a>(b: &[u8]) -> Result<Id<'a>, Fail> {
    if !pubmed_number(b) {
        return Err(Fail::Shape);
    }
    Ok(Id::fixed(Scheme::Pmid, &[b]))
}

/// PMCID: `PMC` (any case) and 1 to 9 digits; after a label (`loose`) the
/// digits alone, which the label names.
fn pmcid<'a>(b: &[u8], loose: bool) -> Result<Id<'a>, Fail> {
    let digits = match b.get(..3) {
        Some(p) if p.eq_ignore_ascii_case(b"pmc") => &b[3..],
        _ if loose => b,
        _ => return Err(Fail::Shape),
    };
    let fits = (1..=9).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit);
    if !fits {
        return Err(Fail::Shape);
    }
    Ok(Id::fixed(Scheme::Pmcid, &[b"PMC", digits]))
}

/// The characters of an ARK's name and qualifiers (the ARK
/// specification's: letters, digits and `=~*+@_$./-`; a `%` escape is
/// not read).
fn is_ark_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"=~*+@_$./-".contains(&c)
}

/// ARK, what follows `ark:` (its query split off): an optional `/`, the
/// NAAN (letters and digits), `/`, and a name with its qualifiers. A
/// trailing `/` is dropped in every form, as SPEC §8 drops it from a URL
/// (where SPEC is silent for the others: a value and its `url` must share
/// the canonical; the fuzzer's find), and so is one that only hyphens,
/// identity-inert, follow (`x/-` is `x`, not the `x/` its url would drop).
pub fn ark(s: &str) -> Result<Id<'_>, Fail> {
    let s = s.strip_prefix('/').unwrap_or(s);
    let (naan, name) = s.split_once('/').ok_or(Fail::Shape)?;
    let name = name.trim_end_matches(['/', '-']);
    let fits = !naan.is_empty()
        && naan.bytes().all(|c| c.is_ascii_alphanumeric())
        && !name.is_empty()
        && name.bytes().any(|c| c != b'-' && c != b'/' && c != b'.')
        && name.bytes().all(is_ark_char);
    if !fits {
        return Err(Fail::Shape);
    }
    Ok(Id {
        scheme: Scheme::Ark,
        body: Body::Ark(naan, name),
    })
}

/// The identifier `b` of `scheme`, labelled or declared (SPEC §8): every
/// shape the table allows, hyphens optional where it says so.
/// ARKs, whose text is borrowed, are read by [`ark`]: `Fail::Shape` here.
pub fn labelled<'a>(scheme: Scheme, b: &[u8]) -> Result<Id<'a>, Fail> {
    match scheme {
        Scheme::Issn => issn(b, true),
        Scheme::Isbn => isbn(b, None),
        Scheme::Orcid => orcid(b),
        Scheme::Isni => isni(b, true),
        Scheme::Ror => ror(b),
        Scheme::Arxiv => arxiv(b, true),
        Scheme::Pmid => pmid(b),
        Scheme::Pmcid => pmcid(b, true),
        Scheme::Ark => Err(Fail::Shape),
    }
}

/// A bare value `b` of SPEC §8's bare shapes, which cannot be mistaken:
/// `None` when it has none of them, or has the ISSN's or a grouped
/// ISBN-10's and fails its check (a year range `2012-2013` is no ISSN:
/// sections 1–6 read it); an ORCID, ISBN-13 or ISNI shape that fails its
/// check is `Fail::Check`. ARKs are read by their `ark:` head elsewhere.
pub fn bare<'a>(b: &[u8]) -> Option<Result<Id<'a>, Fail>> {
    let first = *b.first()?;
    if first.is_ascii_digit() {
        return match b.len() {
            9 => issn(b, false).ok().map(Ok),
            19 if b[4] == b'-' => Some(orcid(b)).filter(|r| *r != Err(Fail::Shape)),
            19 if b[4] == b' ' => Some(isni(b, false)).filter(|r| *r != Err(Fail::Shape)),
            _ => bare_isbn(b),
        };
    }
    if b.len() > 3 && b[..3].eq_ignore_ascii_case(b"pmc") {
        return pmcid(b, false).ok().map(Ok);
    }
    if first.is_ascii_alphabetic() && b.contains(&b'/') {
        return arxiv(b, false).ok().map(Ok);
    }
    None
}

/// A bare ISBN: 13 digits from `978` or `979`, whole or in groups, or an
/// ISBN-10 in four groups whose check holds. An ISBN-13 has no check
/// character `X`: one ending so is not the shape (`bad_pid` is for
/// labelled values), and sections 1–6 read it.
fn bare_isbn<'a>(b: &[u8]) -> Option<Result<Id<'a>, Fail>> {
    let mut d = [0u8; 16];
    let (n, groups) = grouped(b, &mut d)?;
    match n {
        13 if (d.starts_with(b"978") || d.starts_with(b"979")) && d[12] != b'X' => Some(isbn(b, None)),
        10 if groups == 4 => isbn(b, Some(4)).ok().map(Ok),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(r: Result<Id<'_>, Fail>) -> Result<String, Fail> {
        r.map(|id| {
            let mut s = format!("{}:", id.scheme.name());
            id.write(&mut s);
            s
        })
    }

    #[test]
    fn spec_examples() {
        let l = |s: Scheme, b: &str| canonical(labelled(s, b.as_bytes()));
        assert_eq!(l(Scheme::Issn, "1932-6203"), Ok("issn:1932-6203".into()));
        assert_eq!(l(Scheme::Issn, "19326203"), Ok("issn:1932-6203".into()));
        assert_eq!(l(Scheme::Issn, "1932-620"), Err(Fail::Shape));
        assert_eq!(l(Scheme::Isbn, "0-306-40615-2"), Ok("isbn:9780306406157".into()));
        assert_eq!(l(Scheme::Isbn, "0451450523"), Ok("isbn:9780451450524".into()));
        assert_eq!(l(Scheme::Orcid, "0000-0002-1825-0098"), Err(Fail::Check));
        assert_eq!(
            l(Scheme::Orcid, "0000-0001-7525-322x"),
            Ok("orcid:0000-0001-7525-322X".into())
        );
        assert_eq!(l(Scheme::Ror, "01EEZS655"), Ok("ror:01eezs655".into()));
        assert_eq!(l(Scheme::Arxiv, "2101.00001v2"), Ok("arxiv:2101.00001".into()));
        assert_eq!(l(Scheme::Arxiv, "math.GT/0309136"), Ok("arxiv:math/0309136".into()));
        assert_eq!(l(Scheme::Pmid, "12376099"), Ok("pmid:12376099".into()));
        assert_eq!(l(Scheme::Pmid, "012376099"), Err(Fail::Shape));
        assert_eq!(l(Scheme::Pmcid, "pmc1234567"), Ok("pmcid:PMC1234567".into()));
        assert_eq!(l(Scheme::Isni, "0000000109435850"), Ok("isni:0000000109435850".into()));
        assert_eq!(canonical(ark("/13030/tf5p-30086k")), Ok("ark:13030/tf5p30086k".into()));
        assert_eq!(
            canonical(ark("/13030/tf5p30086k/-/")),
            Ok("ark:13030/tf5p30086k".into())
        );
    }

    #[test]
    fn bare_shapes() {
        let b = |s: &str| bare(s.as_bytes()).map(canonical);
        assert_eq!(b("1932-6203"), Some(Ok("issn:1932-6203".into())));
        assert_eq!(b("2012-2013"), None);
        assert_eq!(b("978-0-306-40615-7"), Some(Ok("isbn:9780306406157".into())));
        assert_eq!(b("978 0 306 40615 7"), Some(Ok("isbn:9780306406157".into())));
        assert_eq!(b("9789655220613"), Some(Err(Fail::Check)));
        // An IEEE KBART file's `978-0-7381-5442-x`: no ISBN-13 shape.
        assert_eq!(b("978-0-7381-5442-x"), None);
        assert_eq!(b("978073815442X"), None);
        assert_eq!(b("0-306-40615-2"), Some(Ok("isbn:9780306406157".into())));
        assert_eq!(b("0306406152"), None);
        assert_eq!(b("0000 0001 0943 5850"), Some(Ok("isni:0000000109435850".into())));
        assert_eq!(b("0000-0002-1825-0098"), Some(Err(Fail::Check)));
        assert_eq!(b("PMC1234567"), Some(Ok("pmcid:PMC1234567".into())));
        assert_eq!(b("hep-th/9901001"), Some(Ok("arxiv:hep-th/9901001".into())));
        assert_eq!(b("hep-th/9913001"), None);
        assert_eq!(b("12345/678"), None);
        assert_eq!(b("2101.00001"), None);
    }

    /// `grouped` as its definition says it: the separator found first,
    /// then every byte checked against it.
    fn grouped_defined(b: &[u8]) -> Option<(Vec<u8>, usize)> {
        let sep = b.iter().copied().find(|&c| c == b'-' || c == b' ');
        let (mut out, mut groups, mut last_sep) = (Vec::new(), 1, true);
        for (i, &c) in b.iter().enumerate() {
            if Some(c) == sep {
                if last_sep {
                    return None;
                }
                (groups, last_sep) = (groups + 1, true);
                continue;
            }
            let x = c | 0x20 == b'x' && i == b.len() - 1;
            if !(c.is_ascii_digit() || x) || out.len() == 16 {
                return None;
            }
            out.push(if x { b'X' } else { c });
            last_sep = false;
        }
        (!last_sep).then_some((out, groups))
    }

    proptest::proptest! {
        #[test]
        fn grouped_is_its_definition(v in "([0-9]|-|-|x|X| |a){0,20}") {
            let mut d = [0u8; 16];
            let got = grouped(v.as_bytes(), &mut d).map(|(n, g)| (d[..n].to_vec(), g));
            proptest::prop_assert_eq!(got, grouped_defined(v.as_bytes()), "{:?}", v);
        }
    }
}
