//! Realistic synthetic identifier data: the values and the dirt of real
//! repository exports (DSpace, EPrints, Dataverse) and metadata dumps
//! (Crossref, DataCite, OpenAlex), seeded and deterministic.
//!
//! Regenerate the committed test data (both files) with:
//!
//! ```text
//! cargo run --release --example gen_sample
//! ```
//!
//! which writes `testdata/sample_export.csv` ([`write_sample_csv`]: the
//! hand-placed [`SHOWCASE`] rows and one over-long value, then [`SAMPLE_ROWS`] generated rows with
//! seed [`SAMPLE_SEED`]) and `testdata/bench_values.txt`
//! ([`write_bench_values`]: [`BENCH_VALUES`] values with seed [`BENCH_SEED`]).
//! `cargo run --release --example gen_sample -- csv N [SEED]` writes N rows to
//! stdout instead (and times it on stderr).
//!
//! The mix, measured over 100,000 values of seed 42 (duplicates included,
//! in the form they were re-written in): bare DOIs 31%, DOI resolver URLs
//! 25%, handle URLs 17.5%, `doi:` labels 9%, bare handles 8%, `hdl:`/`info:`
//! URIs 4.7%, junk 4.7% (empty, `N/A`, `-`, `TBD`, ISBNs, non-resolver URLs,
//! `10.1000` without a suffix, …). About 10% of the values carry dirt
//! (whitespace, NBSP, invisible characters, trailing punctuation, Unicode
//! dashes, HTML entities, publisher suffixes, `%2F`, `%252F` and
//! double-encoded escapes, test prefixes, internal spaces, glued DOIs), and
//! 10% repeat an earlier identifier (the same string, or the same DOI in
//! another form or case). Mean length about 32.5 bytes. No identifier ever
//! holds CR or LF; only titles do (LF).
//!
//! That is [`Mix::V1`], what [`Synth::new`] makes, `hdlscan gen` writes and
//! `testdata/bench_values.txt` holds, unchanged since SPEC version 1.
//! [`Mix::V2`] ([`Synth::with_mix`]) adds the dirt SPEC version 2 reads
//! (section 6, and the new forms of section 2), found in real exports
//! (OpenAPC, DSpace, CGIAR) and at the rates of the dirtiest of them:
//! about 9% of the values, among them cells with two identifiers and
//! values broken over lines (so CR and LF). See [`v2`] for the rates and
//! where they come from; `testdata/bench_values_v2.txt` holds
//! [`BENCH_VALUES`] values of it with seed [`BENCH_V2_SEED`], in the
//! format of [`values_file`] ([`write_values`]).
//!
//! Nothing here allocates per value once the rings of recent values are full
//! (after [`POOL`] values).

use std::io::{self, Write};

pub mod jsonl;
pub mod v2;
pub mod values_file;

/// Which dirt [`Synth`] puts on its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mix {
    /// The mix of SPEC version 1 (the module docs), whose values never
    /// hold CR or LF. [`Synth::new`] makes it; its output is fixed by the
    /// committed `testdata/bench_values.txt`.
    #[default]
    V1,
    /// [`V1`](Mix::V1), plus SPEC version 2's dirt on about 9% of the
    /// values ([`v2`]). From the same seed, a different sequence.
    V2,
}

/// SplitMix64: small, fast, good enough for test data.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by multiply-high (bias is negligible here).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in `lo..=hi`.
    #[inline]
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `per_mille / 1000`.
    #[inline]
    pub fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }

    #[inline]
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// Picks from a [`Table`].
    #[inline]
    pub fn from_table<T: Copy>(&mut self, t: &Table<T>) -> T {
        self.weighted_with_total(t.total, t.items)
    }

    /// Picks from `(weight, item)` pairs.
    #[inline]
    pub fn weighted<T: Copy>(&mut self, items: &[(u32, T)]) -> T {
        let total: u32 = items.iter().map(|x| x.0).sum();
        self.weighted_with_total(total, items)
    }

    /// Picks from `(weight, item)` pairs whose weights sum to `total`.
    #[inline]
    fn weighted_with_total<T: Copy>(&mut self, total: u32, items: &[(u32, T)]) -> T {
        let mut r = self.below(total as u64) as u32;
        for &(w, x) in items {
            if r < w {
                return x;
            }
            r -= w;
        }
        items[items.len() - 1].1
    }
}

/// `(weight, item)` pairs with their total, summed at compile time.
pub struct Table<T: 'static> {
    total: u32,
    items: &'static [(u32, T)],
}

const fn table<T>(items: &'static [(u32, T)]) -> Table<T> {
    let mut total = 0;
    let mut i = 0;
    while i < items.len() {
        total += items[i].0;
        i += 1;
    }
    Table { total, items }
}

/// The form a generated value was written in (what the generator meant, not
/// what a parser must say: dirt can make a value invalid).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    BareDoi,
    DoiUrl,
    DoiLabel,
    BareHandle,
    HandleUrl,
    /// `hdl:`, `hdl://`, `info:` URIs.
    Uri,
    Junk,
}

impl Form {
    pub const ALL: [Form; 7] = [
        Form::BareDoi,
        Form::DoiUrl,
        Form::DoiLabel,
        Form::BareHandle,
        Form::HandleUrl,
        Form::Uri,
        Form::Junk,
    ];
}

/// The dirt put on a value, if any (the main one; whitespace may be added on
/// top of another).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dirt {
    /// Leading/trailing ASCII spaces or tabs.
    Whitespace,
    /// Leading/trailing U+00A0.
    Nbsp,
    /// U+200B/U+200C/U+200D/U+2060/U+00AD inside, or U+FEFF in front.
    Invisible,
    /// Trailing `.`, `,`, `;` or an unopened `)`.
    TrailingPunct,
    /// U+2010, U+2013 or U+2212 for a `-` in a DOI.
    UnicodeDash,
    /// `&lt;`, `&gt;`, `&amp;` in the suffix.
    HtmlEntity,
    /// `/abstract`, `/full`, `/pdf`, `/epdf` after a DOI.
    PublisherSuffix,
    /// The separator written `%2F`.
    EncodedSlash,
    /// The separator written `%252F` (URL forms only).
    DoubleEncoded,
    /// Prefix `10.5072` (DataCite test DOIs).
    TestPrefix,
    /// A space inside the suffix.
    InternalSpace,
    /// Two DOIs glued together.
    GluedDoi,
    // SPEC version 2's dirt and forms, made only in [`Mix::V2`] (see [`v2`]).
    /// Two identifiers in one cell: `a||b`, `a, b`, `a; b`, a DOI URL and a
    /// landing page joined by a space, two lines (the same DOI twice, or
    /// two): SPEC §6 `multiple_values`.
    MultipleValues,
    /// Text glued before or after one identifier (`10.1/x PMCID: PMC123`,
    /// `10.1/x |`, `10.1136/ bmjgh-…`): `extra_text`.
    ExtraText,
    /// A DOI broken over two lines (`10.1136/bmjopen-2017-` LF `024355`):
    /// `wrapped_line`.
    WrappedLine,
    /// A word for "no identifier" (`NA`, `n.a.`, `no doi`, `Pas de DOI`,
    /// `0`, …): `placeholder`.
    Placeholder,
    /// A shortDOI on a DOI host (`http://doi.org/f3s5pp`): valid, `short_doi`.
    ShortDoiUrl,
    /// A DSpace UI or file URL (`…/xmlui/handle/…`, `…/jspui/handle/…`,
    /// `…/bitstream/handle/P/S/file.pdf?sequence=1`): valid,
    /// `local_resolver` (and `file_url`).
    DspaceUrl,
    /// A publisher's landing page carrying a DOI in its path
    /// (`https://www.tandfonline.com/doi/full/10.1080/…`): `publisher_url`.
    PublisherUrl,
    /// A bare DOI with its separator written `%2F` (`10.1177%2F146…`):
    /// valid, `encoded_separator`.
    BareEncodedSlash,
    /// A resolver URL inside another (`http://dx.doi.org/http://dx.doi.org/10.…`):
    /// valid, `doubled_label`.
    DoubledResolver,
    /// A space between a resolver's host and the handle
    /// (`https://doi.org/ 10.1/x`): valid, `unencoded_chars`.
    SpaceAfterHost,
    /// Every `-` of a DOI written as a run of a hyphen, a soft hyphen and
    /// U+2010 (`10.1186/1471-\u{AD}\u{2010}2458-…`): `unicode_dash`,
    /// `invisible_char`.
    DashRun,
    /// A DOI ending in `/` (`10.1088/1367-2630/16/6/`): `trailing_punct`.
    TrailingSlash,
}

/// What the last [`Synth::next_identifier`] produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta {
    pub form: Form,
    pub dirt: Option<Dirt>,
    /// Names an identifier generated earlier (same string, or the same
    /// identifier in another form or case).
    pub duplicate: bool,
}

/// How many recent identifiers are kept for duplicates.
pub const POOL: usize = 4096;

/// Seed, row count and value count of the committed test data.
pub const SAMPLE_SEED: u64 = 0x4844_4C53_4341_4E01;
pub const SAMPLE_ROWS: u64 = 3000;
pub const BENCH_SEED: u64 = 0x4844_4C53_4341_4E02;
pub const BENCH_VALUES: usize = 50_000;
/// Seed of `testdata/bench_values_v2.txt` ([`BENCH_VALUES`] values of
/// [`Mix::V2`]).
pub const BENCH_V2_SEED: u64 = 0x4844_4C53_4341_4E03;

/// The CSV header of [`write_csv`] and [`write_sample_csv`].
pub const CSV_HEADER: &str = "id,collection,dc.title,dc.date.issued,dc.type,dc.identifier.uri";

/// The identifier generator. See the module docs for the mix.
pub struct Synth {
    rng: SplitMix64,
    mix: Mix,
    /// The identifier being built: `prefix/suffix`.
    core: String,
    core_is_doi: bool,
    /// Scratch for encoding.
    tmp: String,
    /// Recent identifiers (`prefix/suffix`, is DOI), a ring.
    pool: Vec<(String, bool)>,
    pool_next: usize,
    /// Recent output values with their meta, a ring.
    outs: Vec<(String, Meta)>,
    outs_next: usize,
    /// Byte offsets in the output of the identifier's start and of its
    /// prefix/suffix separator (`usize::MAX` when there is none).
    id_start: usize,
    sep: usize,
    meta: Meta,
    count: u64,
    /// See [`Synth::distinct`].
    distinct: bool,
}

const FORMS: Table<Form> = table(&[
    (280, Form::BareDoi),
    (220, Form::DoiUrl),
    (160, Form::HandleUrl),
    (70, Form::BareHandle),
    (80, Form::DoiLabel),
    (40, Form::Uri),
    (45, Form::Junk),
]);

/// Per mille of non-junk fresh values that get dirt.
const DIRT_PER_MILLE: u64 = 115;
/// Per mille of values that repeat an earlier identifier.
const DUP_PER_MILLE: u64 = 100;

const DIRTS: Table<Dirt> = table(&[
    (22, Dirt::Whitespace),
    (8, Dirt::Nbsp),
    (10, Dirt::Invisible),
    (20, Dirt::TrailingPunct),
    (8, Dirt::UnicodeDash),
    (5, Dirt::HtmlEntity),
    (7, Dirt::PublisherSuffix),
    (6, Dirt::EncodedSlash),
    (3, Dirt::DoubleEncoded),
    (5, Dirt::TestPrefix),
    (3, Dirt::InternalSpace),
    (2, Dirt::GluedDoi),
]);

#[derive(Clone, Copy)]
enum DoiT {
    ElsevierJ,
    ElsevierPii,
    SpringerArticle,
    SpringerChapter,
    Wiley,
    WileyOld,
    WileySici,
    AmsSici,
    NatureNew,
    NatureOld,
    Plos,
    Ieee,
    IeeeConf,
    Acs,
    TandF,
    Aps,
    Arxiv,
    Zenodo,
    Dryad,
    Figshare,
    Dataverse,
    Oup,
    Sage,
    Jstor,
    Bmj,
    Paren,
    Iop,
    Bmc,
    AnnRev,
    Scielo,
    Generic,
}

const DOI_TEMPLATES: Table<DoiT> = table(&[
    (170, DoiT::ElsevierJ),
    (40, DoiT::ElsevierPii),
    (60, DoiT::SpringerArticle),
    (30, DoiT::SpringerChapter),
    (60, DoiT::Wiley),
    (30, DoiT::WileyOld),
    (12, DoiT::WileySici),
    (6, DoiT::AmsSici),
    (30, DoiT::NatureNew),
    (20, DoiT::NatureOld),
    (40, DoiT::Plos),
    (30, DoiT::Ieee),
    (10, DoiT::IeeeConf),
    (30, DoiT::Acs),
    (30, DoiT::TandF),
    (20, DoiT::Aps),
    (40, DoiT::Arxiv),
    (35, DoiT::Zenodo),
    (15, DoiT::Dryad),
    (20, DoiT::Figshare),
    (30, DoiT::Dataverse),
    (20, DoiT::Oup),
    (20, DoiT::Sage),
    (10, DoiT::Jstor),
    (10, DoiT::Bmj),
    (5, DoiT::Paren),
    (15, DoiT::Iop),
    (20, DoiT::Bmc),
    (8, DoiT::AnnRev),
    (10, DoiT::Scielo),
    (110, DoiT::Generic),
]);

const ELSEVIER_J: &[&str] = &[
    "cell",
    "neuron",
    "jcp",
    "ijheatmasstransfer",
    "jbiomech",
    "scitotenv",
    "apenergy",
    "watres",
    "neuroimage",
    "jhydrol",
    "compstruct",
    "envpol",
    "jclepro",
    "ijsolstr",
    "jmb",
    "bbrc",
    "tet",
    "ejor",
    "jfineco",
    "chemosphere",
];
const WILEY_J: &[&str] = &[
    "anie", "adma", "chem", "smll", "advs", "aenm", "adfm", "ange", "jcc", "pro", "ece3", "gcb",
];
const ACS_J: &[&str] = &[
    "jpcb",
    "jmedchem",
    "est",
    "nanolett",
    "jafc",
    "orglett",
    "inorgchem",
    "jpca",
];
const PLOS_J: &[&str] = &["pone", "pbio", "pcbi", "pgen", "pmed", "ppat", "pntd"];
const IEEE_J: &[&str] = &["TPAMI", "TIT", "TSP", "ACCESS", "TMI", "TNNLS", "TIP", "TKDE"];
const IEEE_C: &[&str] = &["CVPR", "ICCV", "ICRA", "INFOCOM", "ICASSP", "IROS"];
const APS_J: &[&str] = &["PhysRevLett", "PhysRevB", "PhysRevD", "PhysRevE", "PhysRevA"];
const OUP_J: &[&str] = &["nar", "bioinformatics", "mnras", "brain", "cid", "jxb"];
const SICI_J: &[&str] = &["TEA", "JCC", "BIP", "MRM", "ANIE", "JPS"];
const GENERIC_ABBR: &[&str] = &[
    "jgr", "aj", "ijms", "mol", "ma", "s", "jbc", "pnas", "aje", "apj", "ecol", "jeb", "rsos", "jn", "cer", "jmr",
    "tpj", "fmicb", "fpsyg", "elife",
];

/// Handle prefixes of real repositories, with how their suffixes look.
#[derive(Clone, Copy)]
enum HdlSuffix {
    Digits(u64, u64),
    OneDot,
    Uuid,
    Hex,
}

const HANDLE_PREFIXES: Table<(&str, HdlSuffix)> = table(&[
    (120, ("1721.1", HdlSuffix::Digits(1000, 160_000))),
    (120, ("2027.42", HdlSuffix::Digits(1000, 180_000))),
    (50, ("10023", HdlSuffix::Digits(100, 30_000))),
    (50, ("1811", HdlSuffix::Digits(1, 120_000))),
    (50, ("2142", HdlSuffix::Digits(1, 120_000))),
    (40, ("11245", HdlSuffix::OneDot)),
    (40, ("1959.4", HdlSuffix::Digits(10_000, 80_000))),
    (40, ("1885", HdlSuffix::Digits(1000, 300_000))),
    (30, ("11343", HdlSuffix::Digits(10_000, 900_000))),
    (90, ("20.500.12345", HdlSuffix::Digits(1, 99_999))),
    (60, ("20.500.11820", HdlSuffix::Uuid)),
    (30, ("20.500.11850", HdlSuffix::Digits(1, 999_999))),
    (50, ("123456789", HdlSuffix::Digits(1, 9_999))),
    (20, ("10919", HdlSuffix::Digits(10_000, 200_000))),
    (10, ("100.102", HdlSuffix::Hex)),
    (20, ("2440", HdlSuffix::Digits(1, 99_999))),
]);

const REPO_HOSTS: &[&str] = &[
    "repo.example.edu",
    "repository.library.example.edu",
    "dspace.lib.example.ac.uk",
    "scholarworks.example.org",
    "deepblue.lib.example.edu",
    "openaccess.library.example.nl",
    "ir.lib.example.ac.jp",
    "digital.library.example.edu",
    "eprints.example.ac.uk",
    "researchrepository.example.edu.au",
];

#[derive(Clone, Copy)]
enum UriT {
    HdlHandle,
    HdlDoi,
    HdlQuery,
    InfoHdl,
    InfoDoi,
    InfoDoiUpper,
    HdlNaHost,
    HdlServer,
    InfoPmid,
    InfoSici,
    InfoLccn,
    InfoOfi,
    InfoArk,
}

const URIS: Table<UriT> = table(&[
    (30, UriT::HdlHandle),
    (5, UriT::HdlDoi),
    (2, UriT::HdlQuery),
    (15, UriT::InfoHdl),
    (25, UriT::InfoDoi),
    (2, UriT::InfoDoiUpper),
    (5, UriT::HdlNaHost),
    (3, UriT::HdlServer),
    (6, UriT::InfoPmid),
    (2, UriT::InfoSici),
    (2, UriT::InfoLccn),
    (1, UriT::InfoOfi),
    (1, UriT::InfoArk),
]);

const DOI_URL_PREFIXES: Table<&'static str> = table(&[
    (550, "https://doi.org/"),
    (150, "http://dx.doi.org/"),
    (100, "https://dx.doi.org/"),
    (70, "http://doi.org/"),
    (40, "doi.org/"),
    (20, "dx.doi.org/"),
    (10, "https://www.doi.org/"),
    (10, "HTTPS://DOI.ORG/"),
    (10, "https://doi.org/doi:"),
    (20, "https://hdl.handle.net/"),
    (5, "https://handle.stage.datacite.org/"),
    (5, "https://handle.test.datacite.org/"),
]);

const HDL_URL_PREFIXES: Table<&'static str> = table(&[
    (450, "http://hdl.handle.net/"),
    (250, "https://hdl.handle.net/"),
    (350, ""), // a repository's own /handle/ URL
    (20, "hdl.handle.net/"),
    (10, "https://hdl.handle.net/api/handles/"),
    (10, "http://arrow.resolver.example.gov:2641/hdl/"),
    (10, "HTTP://HDL.HANDLE.NET/"),
]);

const LABELS: Table<&'static str> = table(&[
    (500, "doi:"),
    (180, "DOI: "),
    (100, "DOI:"),
    (60, "doi: "),
    (40, "DOI "),
    (30, "Doi:"),
    (30, "doi:doi:"),
    (10, "DOI:DOI:"),
    (10, "doi: doi:"),
    (20, "urn:doi:"),
    (10, "URN:DOI:"),
]);

#[derive(Clone, Copy)]
enum JunkT {
    Lit(&'static str),
    Isbn,
    IsbnText,
    ExampleUrl,
    JstorUrl,
    PublisherUrl,
    PrefixOnly,
    EmptySuffix,
    Pmid,
}

const JUNK: Table<JunkT> = table(&[
    (200, JunkT::Lit("")),
    (120, JunkT::Lit("N/A")),
    (60, JunkT::Lit("n/a")),
    (80, JunkT::Lit("-")),
    (40, JunkT::Lit("TBD")),
    (30, JunkT::Lit("none")),
    (30, JunkT::Lit("null")),
    (20, JunkT::Lit("pending")),
    (10, JunkT::Lit("0")),
    (10, JunkT::Lit("?")),
    (80, JunkT::Isbn),
    (40, JunkT::IsbnText),
    (80, JunkT::ExampleUrl),
    (50, JunkT::JstorUrl),
    (50, JunkT::PublisherUrl),
    (50, JunkT::PrefixOnly),
    (20, JunkT::EmptySuffix),
    (30, JunkT::Pmid),
]);

const ALNUM_LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
const ALNUM_UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const ALNUM_MIXED: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
const UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const HEX_MIXED: &[u8] = b"0123456789ABCDEFabcdef";
const HEX_LOWER: &[u8] = b"0123456789abcdef";
/// ISSN-style check characters (PIIs, SciELO).
const CHECK_X: &[u8] = b"0123456789X";
/// SICI check characters (no I or O).
const SICI_CHECK: &[u8] = b"0123456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// One piece of a value's template. [`push_parts`] appends the pieces in
/// order, drawing from the generator as it reaches each random one, so a
/// template's draws are its pieces', left to right.
#[derive(Clone, Copy)]
enum Part {
    /// This text.
    Lit(&'static str),
    /// A number drawn in `lo..=hi`, zero-padded to `width` (0: no padding).
    Num(u64, u64, usize),
    /// One of these strings.
    Pick(&'static [&'static str]),
    /// `n` characters drawn from `set`.
    Chars(&'static [u8], usize),
    /// A length drawn in `lo..=hi`, then that many characters from `set`.
    CharsIn(&'static [u8], u64, u64),
    /// The DOI's year (drawn once per DOI, before its pieces): `2020`.
    Year,
    /// The DOI's year, or `since` if that is later, by its last three
    /// digits: `020`.
    Year3(u64),
    /// The DOI's year by its last digit: `0`.
    Year1,
}
use Part::{Chars, CharsIn, Lit, Num, Pick, Year, Year1, Year3};

/// Appends `parts` to `out` (see [`Part`]); `year` is the DOI's year, for
/// the year parts (`None` where there are none).
fn push_parts(r: &mut SplitMix64, out: &mut String, year: Option<u64>, parts: &[Part]) {
    let doi_year = || year.expect("a year part in a template without a year");
    for &part in parts {
        match part {
            Lit(s) => out.push_str(s),
            Num(lo, hi, width) => push_num(out, r.range(lo, hi), width),
            Pick(items) => out.push_str(r.pick(items)),
            Chars(set, n) => push_chars(r, out, set, n),
            CharsIn(set, lo, hi) => {
                let n = r.range(lo, hi) as usize;
                push_chars(r, out, set, n);
            }
            Year => push_num(out, doi_year(), 0),
            Year3(since) => push_num(out, doi_year().max(since) % 1000, 3),
            Year1 => push_num(out, doi_year() % 10, 1),
        }
    }
}

/// A Wiley DOI: `10.1002/anie.201912345` (also in publisher landing URLs).
#[rustfmt::skip]
const WILEY: &[Part] = &[Lit("10.1002/"), Pick(WILEY_J), Lit("."), Num(2005, 2024, 0), Num(0, 99_999, 5)];

/// `n` in decimal, written at the end of `buf` (no allocation).
#[inline]
fn decimal(n: u64, buf: &mut [u8; 20]) -> &str {
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // SAFETY-free: digits are ASCII.
    std::str::from_utf8(&buf[i..]).unwrap()
}

/// Appends `n` in decimal, zero-padded to `width`.
#[inline]
fn push_num(out: &mut String, n: u64, width: usize) {
    let mut buf = [0; 20];
    let digits = decimal(n, &mut buf);
    for _ in digits.len()..width {
        out.push('0');
    }
    out.push_str(digits);
}

#[inline]
fn push_chars(rng: &mut SplitMix64, out: &mut String, set: &[u8], n: usize) {
    for _ in 0..n {
        out.push(set[rng.below(set.len() as u64) as usize] as char);
    }
}

/// Percent-encodes what a URL path or URI must not hold raw (`<>"` space
/// `#?%{}|\^` backquote, non-ASCII), uppercase hex; `keep_angle` leaves
/// `<>` raw (sloppy exports do).
fn push_encoded(out: &mut String, s: &str, keep_angle: bool) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in s.as_bytes() {
        let enc = match b {
            b'<' | b'>' => !keep_angle,
            b'"' | b' ' | b'#' | b'?' | b'%' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'`' => true,
            0x80.. => true,
            _ => false,
        };
        if enc {
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        } else {
            out.push(b as char);
        }
    }
}

impl Synth {
    /// A generator of [`Mix::V1`].
    pub fn new(seed: u64) -> Synth {
        Synth::with_mix(seed, Mix::V1)
    }

    /// A generator of `mix`.
    pub fn with_mix(seed: u64, mix: Mix) -> Synth {
        Synth {
            rng: SplitMix64::new(seed),
            mix,
            core: String::with_capacity(128),
            core_is_doi: true,
            tmp: String::with_capacity(128),
            pool: Vec::with_capacity(POOL),
            pool_next: 0,
            outs: Vec::with_capacity(POOL / 4),
            outs_next: 0,
            id_start: 0,
            sep: usize::MAX,
            meta: Meta {
                form: Form::Junk,
                dirt: None,
                duplicate: false,
            },
            count: 0,
            distinct: false,
        }
    }

    /// Fresh identifiers never repeat by chance: each gets `.N` after its
    /// suffix (N the value's number), so the only duplicates are the mix's
    /// deliberate ones (10% of values). Without it, at millions of values
    /// the templates' small number ranges repeat identifiers by chance too
    /// (23% duplicates at 10M).
    pub fn distinct(mut self, on: bool) -> Synth {
        self.distinct = on;
        self
    }

    /// Makes the identifier just built unique, with [`Synth::distinct`].
    fn mark_distinct(&mut self) {
        if self.distinct {
            use std::fmt::Write as _;
            let _ = write!(self.core, ".{}", self.count);
        }
    }

    /// The generator's random source (for callers adding their own columns).
    pub fn rng(&mut self) -> &mut SplitMix64 {
        &mut self.rng
    }

    /// What the last [`next_identifier`](Self::next_identifier) produced.
    pub fn meta(&self) -> Meta {
        self.meta
    }

    /// The mix this generator makes.
    pub fn mix(&self) -> Mix {
        self.mix
    }

    /// Writes the next identifier value into `out` (cleared first). In
    /// [`Mix::V1`] it never holds CR or LF.
    pub fn next_identifier(&mut self, out: &mut String) {
        out.clear();
        self.count += 1;
        // Mix::V1 draws nothing here: its sequence stays that of the
        // committed bench_values.txt.
        if self.mix == Mix::V2 && self.rng.below(v2::PER) < u64::from(v2::DIRTS.total) {
            self.v2_value(out);
        } else if !self.pool.is_empty() && self.rng.chance(DUP_PER_MILLE) {
            self.duplicate(out);
        } else {
            self.fresh(out);
        }
        debug_assert!(self.mix == Mix::V2 || !out.contains(['\r', '\n']));
        // Remember the output.
        if self.outs.len() < POOL / 4 {
            self.outs.push((out.clone(), self.meta));
        } else {
            let slot = &mut self.outs[self.outs_next];
            slot.0.clear();
            slot.0.push_str(out);
            slot.1 = self.meta;
            self.outs_next = (self.outs_next + 1) % (POOL / 4);
        }
    }

    fn remember_core(&mut self) {
        if self.pool.len() < POOL {
            self.pool.push((self.core.clone(), self.core_is_doi));
        } else {
            let slot = &mut self.pool[self.pool_next];
            slot.0.clear();
            slot.0.push_str(&self.core);
            slot.1 = self.core_is_doi;
            self.pool_next = (self.pool_next + 1) % POOL;
        }
    }

    fn duplicate(&mut self, out: &mut String) {
        if self.rng.chance(350) {
            // The very same string again.
            let i = self.rng.below(self.outs.len() as u64) as usize;
            out.push_str(&self.outs[i].0);
            self.meta = Meta {
                duplicate: true,
                ..self.outs[i].1
            };
            return;
        }
        // The same identifier, in a form (and for DOIs a case) of its own.
        let i = self.rng.below(self.pool.len() as u64) as usize;
        self.core.clear();
        self.core.push_str(&self.pool[i].0);
        self.core_is_doi = self.pool[i].1;
        let form = if self.core_is_doi {
            self.rng.weighted(&[
                (40, Form::BareDoi),
                (35, Form::DoiUrl),
                (15, Form::DoiLabel),
                (5, Form::Uri),
            ])
        } else {
            self.rng
                .weighted(&[(40, Form::BareHandle), (50, Form::HandleUrl), (10, Form::Uri)])
        };
        self.render(form, out);
        if self.core_is_doi && self.rng.chance(300) {
            let id = &mut out[self.id_start..];
            if self.rng.chance(600) {
                id.make_ascii_uppercase();
            } else {
                id.make_ascii_lowercase();
            }
        }
        self.meta = Meta {
            form,
            dirt: None,
            duplicate: true,
        };
    }

    fn fresh(&mut self, out: &mut String) {
        let form = self.rng.from_table(&FORMS);
        self.meta = Meta {
            form,
            dirt: None,
            duplicate: false,
        };
        if form == Form::Junk {
            self.junk(out);
            return;
        }
        let is_doi = match form {
            Form::BareDoi | Form::DoiUrl | Form::DoiLabel => true,
            Form::BareHandle | Form::HandleUrl => false,
            Form::Uri => {
                let u = self.rng.from_table(&URIS);
                return self.uri(u, out);
            }
            Form::Junk => unreachable!(),
        };
        let mut dirt = None;
        if self.rng.chance(DIRT_PER_MILLE) {
            let mut d = self.rng.from_table(&DIRTS);
            if !is_doi {
                d = match d {
                    Dirt::UnicodeDash | Dirt::PublisherSuffix | Dirt::GluedDoi | Dirt::HtmlEntity => {
                        Dirt::TrailingPunct
                    }
                    Dirt::TestPrefix => Dirt::Whitespace,
                    d => d,
                };
            }
            if d == Dirt::DoubleEncoded && !matches!(form, Form::DoiUrl | Form::HandleUrl) {
                d = Dirt::EncodedSlash;
            }
            dirt = Some(d);
        }
        self.meta.dirt = dirt;
        if is_doi {
            self.gen_doi(dirt);
        } else {
            self.gen_handle();
        }
        self.mark_distinct();
        self.remember_core();
        self.render(form, out);
        if let Some(d) = dirt {
            self.apply_dirt(d, out);
            // Whitespace often comes on top.
            if !matches!(d, Dirt::Whitespace | Dirt::Nbsp) && self.rng.chance(120) {
                self.apply_dirt(Dirt::Whitespace, out);
            }
        }
    }

    /// Writes a DOI into `self.core`, shaped for `dirt`.
    fn gen_doi(&mut self, dirt: Option<Dirt>) {
        self.core_is_doi = true;
        match dirt {
            Some(Dirt::HtmlEntity) => {
                if self.rng.chance(700) {
                    self.core.clear();
                    let t = if self.rng.chance(700) {
                        DoiT::WileySici
                    } else {
                        DoiT::AmsSici
                    };
                    self.doi_template(t);
                    self.tmp.clear();
                    for ch in self.core.chars() {
                        match ch {
                            '<' => self.tmp.push_str("&lt;"),
                            '>' => self.tmp.push_str("&gt;"),
                            ch => self.tmp.push(ch),
                        }
                    }
                    std::mem::swap(&mut self.core, &mut self.tmp);
                } else {
                    self.core.clear();
                    // 10.1234/jgr&amp;k3j9
                    #[rustfmt::skip]
                    let parts = [
                        Lit("10."), Num(1000, 99_999, 0), Lit("/"), Pick(GENERIC_ABBR), Lit("&amp;"),
                        Chars(ALNUM_LOWER, 4),
                    ];
                    push_parts(&mut self.rng, &mut self.core, None, &parts);
                }
            }
            Some(Dirt::UnicodeDash) => {
                for _ in 0..8 {
                    self.core.clear();
                    let t = self.rng.from_table(&DOI_TEMPLATES);
                    self.doi_template(t);
                    if self.core.contains('-') {
                        break;
                    }
                }
                if !self.core.contains('-') {
                    self.core.push_str("-1");
                }
            }
            Some(Dirt::TestPrefix) => {
                self.core.clear();
                self.core.push_str("10.5072/");
                let suffix: &[Part] = match self.rng.below(3) {
                    0 => &[Lit("FK2"), Chars(ALNUM_UPPER, 6)],
                    1 => &[Lit("zenodo."), Num(1000, 999_999, 0)],
                    _ => &[Chars(ALNUM_LOWER, 4), Lit("-"), Chars(ALNUM_LOWER, 4)],
                };
                push_parts(&mut self.rng, &mut self.core, None, suffix);
            }
            Some(Dirt::DoubleEncoded) if self.rng.chance(500) => {
                // A SICI DOI, whose `<>` a URL encodes: double-encoded then.
                self.core.clear();
                self.doi_template(DoiT::WileySici);
            }
            Some(Dirt::GluedDoi) => {
                self.core.clear();
                let t = self.rng.from_table(&DOI_TEMPLATES);
                self.doi_template(t);
                let t = self.rng.from_table(&DOI_TEMPLATES);
                if self.rng.chance(500) {
                    // `10.1002/10.1002/anie.…`: a prefix pasted twice.
                    let slash = self.core.find('/').unwrap();
                    self.core.truncate(slash + 1);
                }
                self.doi_template(t);
            }
            _ => {
                self.core.clear();
                let t = self.rng.from_table(&DOI_TEMPLATES);
                self.doi_template(t);
                if self.rng.chance(30) {
                    self.core.make_ascii_uppercase();
                }
            }
        }
    }

    /// Appends a DOI of template `t` to `self.core`: for most templates, a
    /// list of [`Part`]s after an example of what it makes (laid out by
    /// hand, one template to a line or two, hence `rustfmt::skip`).
    #[rustfmt::skip]
    fn doi_template(&mut self, t: DoiT) {
        let r = &mut self.rng;
        let c = &mut self.core;
        let year = r.range(1990, 2024);
        let parts: &[Part] = match t {
            // 10.1016/j.cell.2020.01.001
            DoiT::ElsevierJ => &[
                Lit("10.1016/j."), Pick(ELSEVIER_J), Lit("."), Year, Lit("."), Num(1, 12, 2), Lit("."), Num(1, 999, 3),
            ],
            // 10.1016/S0140-6736(20)30183-X, or 10.1016/0021-9991(87)90123-4
            DoiT::ElsevierPii => if r.chance(500) {
                &[
                    Lit("10.1016/S"), Num(0, 9999, 4), Lit("-"), Num(0, 9999, 4),
                    Lit("("), Num(0, 99, 2), Lit(")"), Num(0, 99_999, 5), Lit("-"), Chars(CHECK_X, 1),
                ]
            } else {
                &[
                    Lit("10.1016/"), Num(0, 9999, 4), Lit("-"), Num(0, 9999, 4),
                    Lit("("), Num(70, 99, 2), Lit(")"), Num(0, 99_999, 5), Lit("-"), Num(0, 9, 1),
                ]
            },
            // 10.1007/s00000-020-01234-5
            DoiT::SpringerArticle => &[
                Lit("10.1007/s"), Num(0, 99_999, 5), Lit("-"), Year3(1997), Lit("-"), Num(0, 99_999, 5),
                Lit("-"), Num(0, 9, 1),
            ],
            // 10.1007/978-3-030-12345-6_7
            DoiT::SpringerChapter => &[
                Lit("10.1007/978-3-"), Num(319, 662, 3), Lit("-"), Num(0, 99_999, 5), Lit("-"), Num(0, 9, 1),
                Lit("_"), Num(1, 40, 0),
            ],
            // 10.1002/anie.201912345
            DoiT::Wiley => WILEY,
            // 10.1111/j.1365-2486.2009.01234.x
            DoiT::WileyOld => &[
                Lit("10.1111/j."), Num(1000, 1999, 4), Lit("-"), Num(0, 9999, 4), Lit("."), Num(1995, 2012, 0),
                Lit("."), Num(0, 99_999, 5), Lit(".x"),
            ],
            // 10.1002/(SICI)1098-2736(199908)36:6<637::AID-TEA4>3.0.CO;2-9
            DoiT::WileySici => &[
                Lit("10.1002/(SICI)"), Num(1000, 1999, 4), Lit("-"), Num(0, 9999, 4),
                Lit("("), Num(1995, 2000, 0), Num(1, 12, 2), Lit(")"), Num(1, 60, 0), Lit(":"), Num(1, 12, 0),
                Lit("<"), Num(1, 999, 0), Lit("::AID-"), Pick(SICI_J), Num(1, 9, 0),
                Lit(">3.0.CO;2-"), Chars(SICI_CHECK, 1),
            ],
            // 10.1175/1520-0469(1998)055<1161:TSOWAI>2.0.CO;2
            DoiT::AmsSici => &[
                Lit("10.1175/1520-"), Num(400, 499, 4), Lit("("), Num(1980, 2003, 0), Lit(")"), Num(1, 130, 3),
                Lit("<"), Num(1, 3999, 4), Lit(":"), Chars(UPPER, 6), Lit(">2.0.CO;2"),
            ],
            // 10.1038/s41586-020-02012-7
            DoiT::NatureNew => &[
                Lit("10.1038/s"), Pick(&["41586", "41467", "41598", "41591", "41556"]),
                Lit("-"), Year3(0), Lit("-"), Num(0, 99_999, 5), Lit("-"), Num(0, 9, 1),
            ],
            // 10.1038/nature12373
            DoiT::NatureOld => &[
                Lit("10.1038/"), Pick(&["nature", "ncomms", "srep", "nmat", "ng"]), Num(1000, 99_999, 0),
            ],
            // 10.1371/journal.pone.0123456
            DoiT::Plos => &[Lit("10.1371/journal."), Pick(PLOS_J), Lit("."), Num(0, 299_999, 7)],
            // 10.1109/TPAMI.2020.1234567
            DoiT::Ieee => &[Lit("10.1109/"), Pick(IEEE_J), Lit("."), Year, Lit("."), Num(0, 9_999_999, 7)],
            // 10.1109/CVPR.2016.90
            DoiT::IeeeConf => &[Lit("10.1109/"), Pick(IEEE_C), Lit("."), Year, Lit("."), Num(1, 999, 0)],
            // 10.1021/acs.jpcb.0c01234
            DoiT::Acs => &[Lit("10.1021/acs."), Pick(ACS_J), Lit("."), Year1, Chars(b"abc", 1), Num(0, 99_999, 5)],
            // 10.1080/00207543.2019.1234567
            DoiT::TandF => &[Lit("10.1080/"), Num(0, 99_999_999, 8), Lit("."), Year, Lit("."), Num(0, 9_999_999, 7)],
            // 10.1103/PhysRevLett.123.012345
            DoiT::Aps => &[Lit("10.1103/"), Pick(APS_J), Lit("."), Num(50, 130, 0), Lit("."), Num(0, 999_999, 6)],
            // 10.48550/arXiv.2101.00001
            DoiT::Arxiv => {
                c.push_str("10.48550/arXiv.");
                let yy = r.range(7, 24);
                push_num(c, yy, 2);
                // Five-digit numbers since 2015.
                if yy >= 15 {
                    &[Num(1, 12, 2), Lit("."), Num(0, 99_999, 5)]
                } else {
                    &[Num(1, 12, 2), Lit("."), Num(0, 9_999, 4)]
                }
            }
            // 10.5281/zenodo.123456
            DoiT::Zenodo => &[Lit("10.5281/zenodo."), Num(10_000, 12_000_000, 0)],
            // 10.5061/dryad.k3j9kd51f
            DoiT::Dryad => &[Lit("10.5061/dryad."), CharsIn(ALNUM_LOWER, 5, 10)],
            // 10.6084/m9.figshare.1234567.v2
            DoiT::Figshare => &[Lit("10.6084/m9.figshare."), Num(100_000, 25_000_000, 0), Lit(".v"), Num(1, 4, 0)],
            // 10.7910/DVN/ABC123
            DoiT::Dataverse => &[
                Pick(&["10.7910/DVN/", "10.7910/DVN/", "10.34894/", "10.5683/SP2/"]), Chars(ALNUM_UPPER, 6),
            ],
            // 10.1093/nar/gkz123
            DoiT::Oup => &[Lit("10.1093/"), Pick(OUP_J), Lit("/gk"), Chars(LOWER, 1), Num(1, 999, 3)],
            // 10.1177/0022034520912345
            DoiT::Sage => &[Lit("10.1177/"), Num(0, 9_999_999_999_999_999, 16)],
            // 10.2307/1234567
            DoiT::Jstor => &[Lit("10.2307/"), Num(1_000_000, 9_999_999, 0)],
            // 10.1136/bmj.m1234
            DoiT::Bmj => &[Lit("10.1136/bmj."), Chars(b"ml", 1), Num(1, 9999, 0)],
            // 10.3319/TAO.2009.05.25.02(IWNOP): ends in a `)` it opened.
            DoiT::Paren => &[
                Lit("10.3319/TAO."), Year, Lit("."), Num(1, 12, 2), Lit("."), Num(1, 28, 2), Lit("."), Num(1, 20, 2),
                Lit("("), Chars(UPPER, 5), Lit(")"),
            ],
            // 10.1088/1742-6596/1234/1/012345
            DoiT::Iop => &[
                Lit("10.1088/"), Pick(&["1742-6596", "1757-899X", "1748-9326", "1361-6463"]),
                Lit("/"), Num(1, 1999, 0), Lit("/"), Num(1, 12, 0), Lit("/"), Num(0, 999_999, 6),
            ],
            // 10.1186/s12889-020-01234-5
            DoiT::Bmc => &[
                Lit("10.1186/s"), Num(12_000, 13_999, 5), Lit("-"), Year3(2011), Lit("-"), Num(0, 99_999, 5),
                Lit("-"), Num(0, 9, 1),
            ],
            // 10.1146/annurev-ecolsys-012120-123456
            DoiT::AnnRev => &[
                Lit("10.1146/annurev-"), Pick(&["ecolsys", "psych", "economics", "astro", "biochem"]),
                Lit("-"), Num(10_000, 129_999, 6), Lit("-"), Num(0, 999_999, 6),
            ],
            // 10.1590/S0102-311X2020123456
            DoiT::Scielo => &[
                Lit("10.1590/S"), Num(0, 9999, 4), Lit("-"), Num(0, 999, 3), Chars(CHECK_X, 1), Year,
                Num(0, 999_999, 6),
            ],
            DoiT::Generic => {
                // Older prefixes are 4 digits, newer ones 5.
                let registrant = if r.chance(550) { Num(1000, 9999, 0) } else { Num(10_000, 99_999, 0) };
                push_parts(r, c, None, &[Lit("10."), registrant, Lit("/")]);
                match r.below(6) {
                    // 10.1234/k3j9kd51f
                    0 => &[CharsIn(ALNUM_LOWER, 7, 14)],
                    // 10.1234/jgr.2020.12.3.456
                    1 => &[
                        Pick(GENERIC_ABBR), Lit("."), Year, Lit("."), Num(1, 300, 0), Lit("."), Num(1, 12, 0),
                        Lit("."), Num(1, 2000, 0),
                    ],
                    // 10.1234/jgr20200123
                    2 => &[Pick(GENERIC_ABBR), Year, Num(0, 9999, 4)],
                    // 10.1234/123456
                    3 => &[Num(10_000, 999_999_999, 0)],
                    // 10.1234/jgr-2020-123
                    4 => &[Pick(GENERIC_ABBR), Lit("-"), Year, Lit("-"), Num(1, 9999, 0)],
                    // 10.1234/AbC12x: mixed case, as some registrants mint them.
                    _ => &[CharsIn(ALNUM_MIXED, 6, 10)],
                }
            }
        };
        push_parts(r, c, Some(year), parts);
    }

    /// Writes a handle into `self.core`.
    fn gen_handle(&mut self) {
        self.core_is_doi = false;
        self.core.clear();
        let (prefix, suf) = self.rng.from_table(&HANDLE_PREFIXES);
        let r = &mut self.rng;
        let c = &mut self.core;
        c.push_str(prefix);
        c.push('/');
        match suf {
            HdlSuffix::Digits(lo, hi) => push_num(c, r.range(lo, hi), 0),
            HdlSuffix::OneDot => push_parts(r, c, None, &[Lit("1."), Num(100_000, 999_999, 0)]),
            HdlSuffix::Uuid => {
                for (i, n) in [8, 4, 4, 4, 12].into_iter().enumerate() {
                    if i > 0 {
                        c.push('-');
                    }
                    push_chars(r, c, HEX_LOWER, n);
                }
            }
            HdlSuffix::Hex => push_chars(r, c, HEX_MIXED, 32),
        }
    }

    /// Writes `self.core` in `form` into `out`, setting `id_start` and `sep`.
    fn render(&mut self, form: Form, out: &mut String) {
        let slash = self.core.find('/').unwrap_or(self.core.len());
        match form {
            Form::BareDoi | Form::BareHandle => {
                self.id_start = out.len();
                self.sep = out.len() + slash;
                out.push_str(&self.core);
            }
            Form::DoiLabel => {
                let label = self.rng.from_table(&LABELS);
                out.push_str(label);
                self.id_start = out.len();
                self.sep = out.len() + slash;
                out.push_str(&self.core);
                if label.eq_ignore_ascii_case("urn:doi:") && self.rng.chance(500) {
                    // urn:doi:10.1000:182
                    out.replace_range(self.sep..self.sep + 1, ":");
                    self.sep = usize::MAX;
                }
            }
            Form::DoiUrl | Form::HandleUrl => {
                let p = if form == Form::DoiUrl {
                    self.rng.from_table(&DOI_URL_PREFIXES)
                } else {
                    self.rng.from_table(&HDL_URL_PREFIXES)
                };
                if p.is_empty() {
                    out.push_str(if self.rng.chance(300) { "http://" } else { "https://" });
                    out.push_str(self.rng.pick(REPO_HOSTS));
                    out.push_str("/handle/");
                } else {
                    out.push_str(p);
                }
                self.push_core_encoded(out, slash);
                if form == Form::HandleUrl && self.rng.chance(15) {
                    out.push_str(self.rng.pick(&["?noredirect", "?locatt=view:1", "#top"]));
                }
            }
            Form::Uri => {
                let t = if self.core_is_doi {
                    self.rng
                        .weighted(&[(5, UriT::HdlDoi), (25, UriT::InfoDoi), (2, UriT::InfoDoiUpper)])
                } else {
                    self.rng.weighted(&[
                        (30, UriT::HdlHandle),
                        (2, UriT::HdlQuery),
                        (15, UriT::InfoHdl),
                        (5, UriT::HdlNaHost),
                        (3, UriT::HdlServer),
                    ])
                };
                self.render_uri(t, out, slash);
            }
            Form::Junk => unreachable!(),
        }
    }

    /// Appends `self.core` percent-encoded as a URL path needs (usually).
    fn push_core_encoded(&mut self, out: &mut String, slash: usize) {
        self.id_start = out.len();
        let keep_angle = self.rng.chance(200);
        let (p, s) = self.core.split_at(slash);
        push_encoded(out, p, keep_angle);
        self.sep = out.len();
        push_encoded(out, s, keep_angle);
    }

    fn render_uri(&mut self, t: UriT, out: &mut String, slash: usize) {
        match t {
            UriT::HdlHandle | UriT::HdlDoi | UriT::HdlQuery => {
                out.push_str(if self.rng.chance(50) { "HDL:" } else { "hdl:" });
                self.push_core_encoded(out, slash);
                if matches!(t, UriT::HdlQuery) {
                    out.push_str(self.rng.pick(&["?locatt=view:1", "?noredirect", "#page=2"]));
                }
            }
            UriT::InfoHdl => {
                out.push_str("info:hdl/");
                self.push_core_encoded(out, slash);
            }
            UriT::InfoDoi => {
                out.push_str("info:doi/");
                self.push_core_encoded(out, slash);
            }
            UriT::InfoDoiUpper => {
                out.push_str("INFO:DOI/");
                self.push_core_encoded(out, slash);
            }
            UriT::HdlNaHost => {
                out.push_str("hdl://");
                self.push_core_encoded(out, slash);
            }
            UriT::HdlServer => {
                out.push_str("hdl://");
                if self.rng.chance(700) {
                    for i in 0..4 {
                        if i > 0 {
                            out.push('.');
                        }
                        push_num(out, self.rng.range(1, 254), 0);
                    }
                } else {
                    out.push_str("hs.example.org:2641");
                }
                out.push('/');
                self.push_core_encoded(out, slash);
            }
            _ => unreachable!(),
        }
    }

    /// A `hdl:`/`info:` URI: of a new handle or DOI, or of another `info:`
    /// namespace.
    fn uri(&mut self, t: UriT, out: &mut String) {
        let parts: &[Part] = match t {
            UriT::HdlDoi | UriT::InfoDoi | UriT::InfoDoiUpper => {
                self.gen_doi(None);
                self.mark_distinct();
                self.remember_core();
                let slash = self.core.find('/').unwrap();
                return self.render_uri(t, out, slash);
            }
            UriT::HdlHandle | UriT::HdlQuery | UriT::InfoHdl | UriT::HdlNaHost | UriT::HdlServer => {
                self.gen_handle();
                self.mark_distinct();
                self.remember_core();
                let slash = self.core.find('/').unwrap();
                return self.render_uri(t, out, slash);
            }
            UriT::InfoPmid => &[Lit("info:pmid/"), Num(1_000_000, 39_999_999, 0)],
            // info:sici/0363-0277(19950315)120:5<>1.0.TX;2-V, `<>` encoded or not
            #[rustfmt::skip]
            UriT::InfoSici => &[
                Lit("info:sici/"), Num(0, 9999, 4), Lit("-"), Num(0, 9999, 4),
                Lit("("), Num(1980, 2005, 0), Num(1, 12, 2), Num(1, 28, 2), Lit(")"), Num(1, 200, 0), Lit(":"),
                Num(1, 12, 0), Pick(&["%3C%3E", "%3c%3e", "<>"]), Lit("1.0.TX;2-"), Chars(SICI_CHECK, 1),
            ],
            UriT::InfoLccn => &[Lit("info:lccn/"), Num(1950, 2024, 0), Num(0, 999_999, 6)],
            UriT::InfoOfi => &[Lit("info:ofi/fmt:kev:mtx:journal")],
            UriT::InfoArk => &[Lit("info:ark/13030/"), Chars(ALNUM_LOWER, 10)],
        };
        push_parts(&mut self.rng, out, None, parts);
    }

    fn junk(&mut self, out: &mut String) {
        let r = &mut self.rng;
        let parts: &[Part] = match r.from_table(&JUNK) {
            JunkT::Lit(s) => &[Lit(s)],
            JunkT::Isbn => &[Lit("urn:isbn:978"), Num(0, 9_999_999_999, 10)],
            #[rustfmt::skip]
            JunkT::IsbnText => &[
                Lit("ISBN 978-"), Num(0, 1, 1), Lit("-"), Num(0, 999, 3), Lit("-"), Num(0, 99_999, 5), Lit("-"),
                Num(0, 9, 1),
            ],
            JunkT::ExampleUrl => &[Lit("https://example.com/paper/"), Num(1, 99_999, 0)],
            JunkT::JstorUrl => &[Lit("http://www.jstor.org/stable/"), Num(1_000_000, 9_999_999, 0)],
            JunkT::PublisherUrl => {
                out.push_str("https://onlinelibrary.wiley.com/doi/");
                WILEY
            }
            JunkT::PrefixOnly => &[Lit("10."), Num(1000, 99_999, 0)],
            JunkT::EmptySuffix => &[Pick(&["10.1000/", "12345/", "1721.1/"])],
            JunkT::Pmid => &[Lit("PMID: "), Num(1_000_000, 39_999_999, 0)],
        };
        push_parts(r, out, None, parts);
    }

    /// Applies `d` to the value in `out` (the identifier spans
    /// `id_start..`, its separator is at `sep`).
    fn apply_dirt(&mut self, d: Dirt, out: &mut String) {
        let has_sep = self.sep < out.len() && out.as_bytes()[self.sep] == b'/';
        match d {
            Dirt::Whitespace => {
                let ws = self.rng.pick(&[" ", "  ", "\t", " \t"]);
                match self.rng.below(3) {
                    0 => out.insert_str(0, ws),
                    1 => out.push_str(ws),
                    _ => {
                        out.insert_str(0, ws);
                        out.push_str(ws);
                    }
                }
            }
            Dirt::Nbsp => match self.rng.below(3) {
                0 => out.insert(0, '\u{A0}'),
                1 => out.push('\u{A0}'),
                _ => {
                    out.insert(0, '\u{A0}');
                    out.push_str(" \u{A0}");
                }
            },
            Dirt::Invisible => {
                let ch = self.rng.pick(&[
                    '\u{200B}', '\u{200B}', '\u{AD}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}',
                ]);
                if ch == '\u{FEFF}' && self.rng.chance(600) {
                    out.insert(0, ch); // a BOM in front of the first cell
                } else {
                    let at = self.char_boundary_in_suffix(out);
                    out.insert(at, ch);
                }
            }
            Dirt::TrailingPunct => {
                out.push(self.rng.weighted(&[(40, '.'), (25, ','), (20, ';'), (15, ')')]));
            }
            Dirt::UnicodeDash => {
                let dash = self.rng.pick(&['\u{2010}', '\u{2013}', '\u{2013}', '\u{2212}']);
                let all = self.rng.chance(500);
                let s = &out[self.id_start..];
                if all {
                    self.tmp.clear();
                    for ch in s.chars() {
                        self.tmp.push(if ch == '-' { dash } else { ch });
                    }
                    out.truncate(self.id_start);
                    out.push_str(&self.tmp);
                } else if let Some(i) = s.rfind('-') {
                    let at = self.id_start + i;
                    let mut buf = [0u8; 4];
                    out.replace_range(at..at + 1, dash.encode_utf8(&mut buf));
                }
            }
            Dirt::HtmlEntity => {} // in the core already
            Dirt::PublisherSuffix => {
                out.push_str(
                    self.rng
                        .weighted(&[(40, "/abstract"), (30, "/full"), (20, "/pdf"), (10, "/epdf")]),
                );
            }
            Dirt::DoubleEncoded if out[self.id_start..].contains('%') => {
                // Escapes encoded once more: `%3C` → `%253C`.
                self.tmp.clear();
                for ch in out[self.id_start..].chars() {
                    self.tmp.push(ch);
                    if ch == '%' {
                        self.tmp.push_str("25");
                    }
                }
                out.truncate(self.id_start);
                out.push_str(&self.tmp);
            }
            Dirt::EncodedSlash | Dirt::DoubleEncoded if has_sep => {
                let rep = match (d, self.rng.chance(800)) {
                    (Dirt::EncodedSlash, true) => "%2F",
                    (Dirt::EncodedSlash, false) => "%2f",
                    (_, true) => "%252F",
                    (_, false) => "%252f",
                };
                out.replace_range(self.sep..self.sep + 1, rep);
            }
            Dirt::EncodedSlash | Dirt::DoubleEncoded => {
                out.push('.');
                self.meta.dirt = Some(Dirt::TrailingPunct);
            }
            Dirt::TestPrefix | Dirt::GluedDoi => {} // in the core already
            Dirt::InternalSpace => {
                let at = self.char_boundary_in_suffix(out);
                out.insert(at, ' ');
            }
            // Made whole by `v2`, never applied to a value.
            _ => unreachable!("{d:?} is not a V1 dirt"),
        }
    }

    /// A char boundary strictly inside the suffix (or the value).
    fn char_boundary_in_suffix(&mut self, out: &str) -> usize {
        let lo = if self.sep < out.len() {
            self.sep + 2
        } else {
            self.id_start + 1
        };
        let hi = out.len();
        if lo >= hi {
            return hi;
        }
        let mut at = self.rng.range(lo as u64, hi as u64 - 1) as usize;
        while !out.is_char_boundary(at) {
            at += 1;
        }
        at
    }
}

// ---------------------------------------------------------------------------
// Rows and CSV.

/// One DSpace-like export row.
#[derive(Debug, Default, Clone)]
pub struct Row {
    pub id: u64,
    pub collection: String,
    pub title: String,
    pub date_issued: String,
    pub dc_type: &'static str,
    pub identifier: String,
}

const TITLE_WORDS: &[&str] = &[
    "analysis",
    "of",
    "the",
    "effects",
    "on",
    "a",
    "model",
    "for",
    "in",
    "and",
    "with",
    "towards",
    "learning",
    "deep",
    "neural",
    "networks",
    "climate",
    "change",
    "soil",
    "carbon",
    "dynamics",
    "protein",
    "structure",
    "prediction",
    "quantum",
    "transport",
    "graphene",
    "thin",
    "films",
    "evidence",
    "from",
    "rural",
    "households",
    "policy",
    "urban",
    "water",
    "quality",
    "river",
    "basin",
    "gene",
    "expression",
    "mouse",
    "cortex",
    "patients",
    "randomized",
    "trial",
    "cohort",
    "study",
    "survey",
    "data",
    "dataset",
    "measurements",
    "spectroscopy",
    "estimation",
    "robust",
    "bayesian",
    "inference",
    "sparse",
    "regression",
    "optimal",
    "control",
    "systems",
    "stochastic",
    "equations",
    "boundary",
    "layer",
    "flow",
    "turbulence",
    "heat",
    "transfer",
    "catalysis",
    "synthesis",
    "novel",
    "approach",
    "framework",
    "review",
    "history",
    "medieval",
    "manuscripts",
    "language",
    "acquisition",
    "children",
    "education",
    "teachers",
    "assessment",
    "labour",
    "market",
    "migration",
    "trade",
    "finance",
    "risk",
    "banks",
    "evolution",
    "species",
    "forest",
    "biodiversity",
    "coral",
    "reef",
    "ocean",
    "sediment",
    "isotopes",
    "galaxy",
    "cluster",
    "dark",
    "matter",
    "stellar",
    "mass",
    "black",
    "hole",
    "simulation",
    "imaging",
    "mri",
    "brain",
    "sleep",
    "memory",
    "COVID-19",
    "SARS-CoV-2",
    "CRISPR",
    "RNA",
    "DNA",
    "Arctic",
    "Europe",
    "Africa",
    "China",
    "Brazil",
    "India",
    "São",
    "Paulo",
    "Zürich",
    "Café",
    "naïve",
    "Gödel",
    "α-helix",
    "β-sheet",
    "–",
    "revisited",
    "new",
    "insights",
    "into",
    "between",
    "across",
    "under",
    "using",
];

const TITLE_TAILS: &[&str] = &[
    ": a case study",
    ": evidence from panel data",
    ": a systematic review",
    ": theory and practice",
    " (extended abstract)",
    ", 1850-1914",
    "? Rethinking the question",
    ": supplementary data",
];

const DC_TYPES: Table<&'static str> = table(&[
    (450, "Article"),
    (100, "Thesis"),
    (60, "Dataset"),
    (60, "Book chapter"),
    (40, "Conference paper"),
    (40, "Preprint"),
    (30, "Technical Report"),
    (20, "Book"),
    (20, "Working Paper"),
    (15, "Presentation"),
    (10, "Image"),
    (10, "Other"),
]);

const COLLECTIONS: &[&str] = &[
    "123456789/2",
    "123456789/7",
    "2027.42/40",
    "2027.42/41",
    "2027.42/57",
    "1721.1/7582",
    "1721.1/49433",
    "10023/12",
    "20.500.12345/5",
    "20.500.12345/18",
    "1811/4",
    "2142/9",
];

impl Synth {
    /// Fills `row` with the next export row (`record_id` is the `id` column).
    pub fn next_row(&mut self, record_id: u64, row: &mut Row) {
        row.id = record_id;
        row.collection.clear();
        row.collection.push_str(self.rng.pick(COLLECTIONS));
        if self.rng.chance(50) {
            row.collection.push_str("||");
            row.collection.push_str(self.rng.pick(COLLECTIONS));
        }
        self.title(&mut row.title);
        self.date(&mut row.date_issued);
        row.dc_type = self.rng.from_table(&DC_TYPES);
        self.next_identifier(&mut row.identifier);
    }

    fn title(&mut self, t: &mut String) {
        let r = &mut self.rng;
        t.clear();
        let quoted = r.chance(30);
        let n = r.range(3, 14);
        let comma_at = if r.chance(200) { r.range(1, n - 1) } else { u64::MAX };
        let quote_at = quoted.then(|| r.range(0, n - 2));
        for i in 0..n {
            if i > 0 {
                t.push(' ');
            }
            if Some(i) == quote_at {
                t.push('"');
            }
            let w = r.pick(TITLE_WORDS);
            if i == 0 {
                let mut cs = w.chars();
                if let Some(c0) = cs.next() {
                    t.extend(c0.to_uppercase());
                    t.push_str(cs.as_str());
                }
            } else {
                t.push_str(w);
            }
            if quote_at.is_some_and(|q| i == q + 1) {
                t.push('"');
            }
            if i == comma_at {
                t.push(',');
            }
        }
        if r.chance(150) {
            t.push_str(r.pick(TITLE_TAILS));
        }
        if r.chance(5) {
            // The odd title pasted with a line break (LF only: the files
            // have LF line ends throughout).
            t.push('\n');
            t.push_str("Part ");
            push_num(t, r.range(1, 4), 0);
        }
    }

    fn date(&mut self, d: &mut String) {
        let r = &mut self.rng;
        d.clear();
        // Skewed to recent years.
        let year = 2024 - (r.below(35) * r.below(35) / 35).min(74);
        push_num(d, year, 4);
        match r.below(10) {
            0..=3 => {}
            4..=5 => {
                d.push('-');
                push_num(d, r.range(1, 12), 2);
            }
            _ => {
                d.push('-');
                push_num(d, r.range(1, 12), 2);
                d.push('-');
                push_num(d, r.range(1, 28), 2);
            }
        }
    }
}

/// Appends `s` as one CSV field: quoted when it holds `,`, `"`, CR or LF or
/// starts or ends with a space or tab, `"` doubled inside.
pub fn push_csv_field(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let needs = memchr::memchr3(b',', b'"', b'\n', b).is_some()
        || memchr::memchr(b'\r', b).is_some()
        || matches!(b.first(), Some(b' ' | b'\t'))
        || matches!(b.last(), Some(b' ' | b'\t'));
    if !needs {
        out.extend_from_slice(b);
        return;
    }
    out.push(b'"');
    let mut rest = b;
    while let Some(i) = memchr::memchr(b'"', rest) {
        out.extend_from_slice(&rest[..=i]);
        out.push(b'"');
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

impl Row {
    /// Appends the row as one CSV record in [`CSV_HEADER`] order, LF-terminated.
    pub fn write_csv(&self, out: &mut Vec<u8>) {
        let fields = [
            self.collection.as_str(),
            &self.title,
            &self.date_issued,
            self.dc_type,
            &self.identifier,
        ];
        push_csv_record(out, self.id, &fields);
    }
}

/// Appends one CSV record: `id` in decimal, then `fields` (quoted as
/// needed), LF-terminated. No allocation.
pub fn push_csv_record(out: &mut Vec<u8>, id: u64, fields: &[&str]) {
    out.extend_from_slice(decimal(id, &mut [0; 20]).as_bytes());
    for field in fields {
        out.push(b',');
        push_csv_field(out, field);
    }
    out.push(b'\n');
}

/// Writes the header and `n_rows` generated rows (ids `first_id..`) to `w`.
fn write_rows<W: Write>(w: &mut W, synth: &mut Synth, first_id: u64, n_rows: u64) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 17);
    let mut row = Row::default();
    for i in 0..n_rows {
        synth.next_row(first_id + i, &mut row);
        row.write_csv(&mut buf);
        if buf.len() >= 1 << 16 {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)
}

/// Writes a DSpace-like CSV export ([`CSV_HEADER`], then `n_rows` rows with
/// ids `1..=n_rows`).
pub fn write_csv<W: Write>(mut w: W, n_rows: u64, seed: u64) -> io::Result<()> {
    w.write_all(CSV_HEADER.as_bytes())?;
    w.write_all(b"\n")?;
    write_rows(&mut w, &mut Synth::new(seed), 1, n_rows)?;
    w.flush()
}

/// Hand-placed sample rows: `(title, identifier)`, every form and every dirt
/// case at least once. They open `testdata/sample_export.csv`.
pub const SHOWCASE: &[(&str, &str)] = &[
    // Bare DOIs.
    ("D-Lib: the DOI example (bare DOI)", "10.1045/april2006-paskin"),
    ("Elsevier journal DOI", "10.1016/j.cell.2020.01.001"),
    ("Elsevier PII DOI, with parentheses", "10.1016/S0140-6736(20)30183-5"),
    (
        "Wiley SICI DOI: <>;:() are part of it",
        "10.1002/(SICI)1098-2736(199908)36:6<637::AID-TEA4>3.0.CO;2-9",
    ),
    ("AMS SICI DOI", "10.1175/1520-0469(1998)055<1161:TSOWAI>2.0.CO;2"),
    ("Springer article DOI", "10.1007/s00000-020-01234-5"),
    ("Springer chapter DOI", "10.1007/978-3-030-12345-6_7"),
    ("arXiv DOI", "10.48550/arXiv.2101.00001"),
    ("Zenodo DOI", "10.5281/zenodo.123456"),
    ("Harvard Dataverse DOI", "10.7910/DVN/ABC123"),
    ("figshare DOI", "10.6084/m9.figshare.1234567.v2"),
    (
        "DOI ending in a ) it opened: not trailing punctuation",
        "10.3319/TAO.2009.05.25.02(IWNOP)",
    ),
    ("DOI in mixed case", "10.1045/April2006-Paskin"),
    ("shortDOI", "10/aabbe"),
    ("DOI with a derived prefix", "10.1000.10/123"),
    // DOI resolver URLs.
    ("doi.org URL", "https://doi.org/10.1000/182"),
    ("legacy dx.doi.org over http", "http://dx.doi.org/10.1000/182"),
    ("dx.doi.org over https", "https://dx.doi.org/10.1038/nature12373"),
    ("doi.org without a scheme", "doi.org/10.1371/journal.pone.0123456"),
    ("www.doi.org", "https://www.doi.org/10.1109/CVPR.2016.90"),
    (
        "upper-case scheme and host",
        "HTTPS://DOI.ORG/10.1080/00207543.2019.1234567",
    ),
    (
        "doi: label inside the URL path",
        "https://doi.org/doi:10.1093/nar/gkz123",
    ),
    (
        "SICI DOI in a URL, encoded",
        "https://doi.org/10.1002/(SICI)1098-2736(199908)36:6%3C637::AID-TEA4%3E3.0.CO;2-9",
    ),
    (
        "SICI DOI in a URL, not encoded",
        "https://doi.org/10.1002/(SICI)1098-2736(199908)36:6<637::AID-TEA4>3.0.CO;2-9",
    ),
    ("DOI through the handle proxy", "https://hdl.handle.net/10.1000/182"),
    (
        "DataCite test resolver",
        "https://handle.stage.datacite.org/10.5072/abc-123",
    ),
    // Handle URLs.
    ("Handle proxy URL", "http://hdl.handle.net/1721.1/12345"),
    (
        "Handle proxy with a query",
        "https://hdl.handle.net/1721.1/123?noredirect",
    ),
    (
        "DSpace local handle URL",
        "https://repo.example.edu/handle/2027.42/1234",
    ),
    ("hdl.handle.net without a scheme", "hdl.handle.net/2027.42/67890"),
    (
        "Handle REST API URL",
        "https://hdl.handle.net/api/handles/20.500.12345/678",
    ),
    (
        "three-segment /hdl/ resolver",
        "http://arrow.resolver.au.gov:2641/hdl/100.102/F58F",
    ),
    // Bare handles.
    ("bare handle (Deep Blue)", "2027.42/12345"),
    ("bare handle (DSpace@MIT)", "1721.1/98765"),
    (
        "bare handle, 20.500 prefix, UUID suffix",
        "20.500.11820/3f2b5c1e-8d4a-4b7e-9c1a-2e5f6a7b8c9d",
    ),
    ("unconfigured DSpace prefix", "123456789/42"),
    ("prefix handle", "0.NA/10.1045"),
    // doi: labels.
    ("doi: label", "doi:10.1000/182"),
    ("DOI: label with a space", "DOI: 10.1000/182"),
    ("DOI and a space, no colon", "DOI 10.1038/s41586-020-2012-7"),
    ("doubled label", "doi:doi:10.1093/nar/gkz123"),
    ("urn:doi: with : for the first /", "urn:doi:10.1000:182"),
    // hdl: and info: URIs.
    ("hdl: URI", "hdl:1721.1/12345"),
    ("HDL: with a fragment", "HDL:1234/567#frag"),
    ("hdl: with a query", "hdl:1234/567?locatt=view:1"),
    (
        "hdl:// with the prefix as host",
        "hdl://100.102/F58FB49EB1F848f0A606E84CEF294BE5",
    ),
    ("hdl:// with a server", "hdl://190.12.34.56/1234/567"),
    ("hdl:// ambiguous host", "hdl://CNRI.TEST/a/b"),
    ("info:hdl/", "info:hdl/2027.42/12345"),
    ("info:doi/", "info:doi/10.1000/182"),
    ("INFO:DOI/ upper case", "INFO:DOI/10.1000/182"),
    ("info:pmid/", "info:pmid/12376099"),
    (
        "info:sici/ with escapes",
        "info:sici/0363-0277(19950315)120:5%3c%3e1.0.TX;2-V",
    ),
    (
        "INFO:PII/ with escaped unreserved chars",
        "INFO:PII/S0888%2D7543%2802%2996852%2D7",
    ),
    ("info: namespace not in the draft", "info:ark/13030/tf5p30086k"),
    // Dirt: whitespace and invisibles.
    ("spaces around", "  10.1000/182  "),
    ("a tab in front", "\t10.1000/182"),
    ("NBSP around", "\u{A0}10.1016/j.cell.2020.01.001\u{A0}"),
    ("BOM in front", "\u{FEFF}10.1000/182"),
    ("zero-width space inside", "10.1000/1\u{200B}82"),
    ("soft hyphen inside", "10.1038/nature\u{AD}12373"),
    (
        "zero-width joiner and word joiner inside",
        "2027.42/12\u{200D}34\u{2060}5",
    ),
    ("BOM inside", "10.5281/zenodo.12\u{FEFF}3456"),
    // Dirt: trailing punctuation.
    ("trailing period", "10.1000/182."),
    ("trailing comma", "https://doi.org/10.1016/j.cell.2020.01.001,"),
    ("trailing semicolon", "doi:10.1000/182;"),
    ("unopened trailing parenthesis", "10.1007/s00000-020-01234-5)"),
    ("trailing period on a handle URL", "http://hdl.handle.net/1721.1/12345."),
    // Dirt: Unicode dashes.
    ("hyphen U+2010", "10.1007/s00000\u{2010}020\u{2010}01234\u{2010}5"),
    ("en dash U+2013", "10.1038/s41586\u{2013}020\u{2013}2012\u{2013}7"),
    (
        "minus sign U+2212",
        "https://doi.org/10.1016/S0140\u{2212}6736(20)30183\u{2212}5",
    ),
    // Dirt: HTML entities.
    (
        "&lt; and &gt; in a SICI DOI",
        "10.1002/(SICI)1098-2736(199908)36:6&lt;637::AID-TEA4&gt;3.0.CO;2-9",
    ),
    ("&amp; in a suffix", "10.1000/ab&amp;cd"),
    // Dirt: publisher suffixes.
    (
        "/abstract after a DOI",
        "https://doi.org/10.1002/anie.201912345/abstract",
    ),
    ("/full after a DOI", "10.1111/j.1365-2486.2009.01234.x/full"),
    ("/pdf after a DOI", "doi:10.1002/adma.202001234/pdf"),
    ("/epdf after a DOI", "10.1002/adma.202001234/epdf"),
    // Dirt: percent-encoding.
    ("%2F separator in a URL", "https://doi.org/10.1000%2F182"),
    ("%252F (double-encoded) separator", "https://doi.org/10.1000%252F182"),
    ("%2F in a bare value: no slash", "10.1007%2FBF01451751"),
    ("%2f in a handle URL", "https://hdl.handle.net/1721.1%2f12345"),
    // Dirt: test prefixes, spaces, glued DOIs.
    ("DataCite test prefix", "10.5072/FK2ABC123"),
    ("test prefix in a URL", "https://doi.org/10.5072/zenodo.1234"),
    ("space inside the suffix", "10.1016/j.cell. 2020.01.001"),
    ("two DOIs glued", "10.1016/j.cell.2020.01.00110.1016/j.cell.2020.01.002"),
    ("prefix pasted twice", "10.1002/10.1002/anie.201912345"),
    // Junk.
    ("empty identifier", ""),
    ("N/A", "N/A"),
    ("n/a", "n/a"),
    ("a dash", "-"),
    ("TBD", "TBD"),
    ("none", "none"),
    ("ISBN URN", "urn:isbn:0451450523"),
    ("ISBN in text", "ISBN 978-0-306-40615-7"),
    ("not a resolver URL", "https://example.com/paper/1"),
    (
        "publisher landing page, not a resolver",
        "https://onlinelibrary.wiley.com/doi/10.1002/anie.201912345",
    ),
    ("JSTOR stable URL", "http://www.jstor.org/stable/1234567"),
    ("DOI prefix without a suffix", "10.1000"),
    ("empty suffix", "12345/"),
    ("bad percent escape", "hdl:1234/5%G7"),
    ("PMID in text", "PMID: 12376099"),
    // Duplicates of rows above, in other cases and forms.
    ("duplicate: upper case", "10.1045/APRIL2006-PASKIN"),
    ("duplicate: as a URL", "https://doi.org/10.1045/april2006-paskin"),
    ("duplicate: as info:doi/", "info:doi/10.1045/april2006-paskin"),
    ("duplicate: same handle as a bare value", "1721.1/12345"),
    ("duplicate: the very same string", "10.1000/182"),
    // CSV quoting in titles.
    ("Title with a comma, and \"quotes\"", "10.1371/journal.pone.0123456"),
    ("Title with an embedded\nline break", "2027.42/12345"),
    // Added later, at the end so that the record numbers above stay put
    // (tests name showcase rows by record number).
    (
        "double-encoded escapes in a SICI DOI URL",
        "https://doi.org/10.1002/(SICI)1098-2736(199908)36:6%253C637::AID-TEA4%253E3.0.CO;2-9",
    ),
    ("a tab inside (control character)", "10.1000/\t182"),
    ("empty prefix", "/12345"),
    ("DOI prefix that is not all digits", "10.abc/x"),
    ("hdl:// with an empty host", "hdl:///1234/567"),
    ("info: namespace that is not a scheme name", "info:1abc/x"),
    ("info:pmid/ that is not digits", "info:pmid/12a34"),
];

/// Writes `testdata/sample_export.csv`: the header, [`SHOWCASE`] rows (ids
/// from 1), one row whose identifier is over 2048 bytes, then
/// [`SAMPLE_ROWS`] rows generated with [`SAMPLE_SEED`].
pub fn write_sample_csv<W: Write>(mut w: W) -> io::Result<()> {
    let mut buf = Vec::new();
    buf.extend_from_slice(CSV_HEADER.as_bytes());
    buf.push(b'\n');
    let mut rng = SplitMix64::new(SAMPLE_SEED ^ 0xFFFF);
    for (i, &(title, identifier)) in SHOWCASE.iter().enumerate() {
        let row = Row {
            id: i as u64 + 1,
            collection: rng.pick(COLLECTIONS).to_string(),
            title: format!("Showcase: {title}"),
            date_issued: format!("{}", rng.range(2000, 2024)),
            dc_type: rng.from_table(&DC_TYPES),
            identifier: identifier.to_string(),
        };
        row.write_csv(&mut buf);
    }
    // An identifier cell holding a pasted abstract: over the 2048-byte limit.
    let mut long = String::from("10.1000/182 Abstract:");
    while long.len() <= 2100 {
        long.push_str(" We study the effects of soil carbon dynamics on river basin water quality.");
    }
    let row = Row {
        id: SHOWCASE.len() as u64 + 1,
        collection: COLLECTIONS[0].to_string(),
        title: "Showcase: an abstract pasted into the identifier (too long)".to_string(),
        date_issued: "2019".to_string(),
        dc_type: "Article",
        identifier: long,
    };
    row.write_csv(&mut buf);
    w.write_all(&buf)?;
    let first = SHOWCASE.len() as u64 + 2;
    write_rows(&mut w, &mut Synth::new(SAMPLE_SEED), first, SAMPLE_ROWS)?;
    w.flush()
}

/// Writes `n` identifier values of [`Mix::V1`], one per line (LF),
/// generated with `seed`. Values holding CR or LF are skipped (the
/// generator makes none). This is `testdata/bench_values.txt`; it is in the
/// format of [`values_file`] too (no V1 value starts with `"`).
pub fn write_bench_values<W: Write>(mut w: W, n: usize, seed: u64) -> io::Result<()> {
    let mut synth = Synth::new(seed);
    let mut v = String::new();
    let mut buf = Vec::with_capacity(1 << 17);
    let mut written = 0;
    while written < n {
        synth.next_identifier(&mut v);
        if v.contains(['\r', '\n']) {
            continue;
        }
        buf.extend_from_slice(v.as_bytes());
        buf.push(b'\n');
        written += 1;
    }
    w.write_all(&buf)?;
    w.flush()
}

/// Writes `n` identifier values of `mix` generated with `seed`, in the
/// format of [`values_file`] (one a line; those holding CR or LF, or
/// starting with `"`, as JSON strings). `write_values(w, BENCH_VALUES,
/// BENCH_V2_SEED, Mix::V2)` is `testdata/bench_values_v2.txt`.
pub fn write_values<W: Write>(mut w: W, n: usize, seed: u64, mix: Mix) -> io::Result<()> {
    let mut synth = Synth::with_mix(seed, mix);
    let mut v = String::new();
    let mut buf = Vec::with_capacity(1 << 17);
    for _ in 0..n {
        synth.next_identifier(&mut v);
        values_file::push_value(&mut buf, &v);
        if buf.len() >= 1 << 16 {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    fn values(seed: u64, n: usize) -> Vec<(String, Meta)> {
        values_of(Mix::V1, seed, n)
    }

    /// `n` values of `mix` from `seed`, each with what the generator says
    /// of it (shared with `v2.rs`'s tests).
    pub(super) fn values_of(mix: Mix, seed: u64, n: usize) -> Vec<(String, Meta)> {
        let mut s = Synth::with_mix(seed, mix);
        let mut v = String::new();
        (0..n)
            .map(|_| {
                s.next_identifier(&mut v);
                (v.clone(), s.meta())
            })
            .collect()
    }

    #[test]
    fn deterministic_per_seed() {
        assert_eq!(values(7, 5000), values(7, 5000));
        assert_ne!(values(7, 100), values(8, 100));
        let mut a = Vec::new();
        let mut b = Vec::new();
        write_csv(&mut a, 500, 3).unwrap();
        write_csv(&mut b, 500, 3).unwrap();
        assert_eq!(a, b);
    }

    /// Share (in per cent) of values for which `f` holds.
    fn share(vs: &[(String, Meta)], f: impl Fn(&str, &Meta) -> bool) -> f64 {
        vs.iter().filter(|(v, m)| f(v, m)).count() as f64 * 100.0 / vs.len() as f64
    }

    #[test]
    fn mix_is_as_intended() {
        let vs = values(42, 100_000);
        let by_form = |f: Form| share(&vs, |_, m| m.form == f);
        for f in Form::ALL {
            eprintln!("{f:?}: {:.2}%", by_form(f));
        }
        eprintln!("dirty: {:.2}%", share(&vs, |_, m| m.dirt.is_some()));
        eprintln!("duplicates: {:.2}%", share(&vs, |_, m| m.duplicate));
        let within = |x: f64, lo: f64, hi: f64, what: &str| {
            assert!(lo <= x && x <= hi, "{what}: {x:.2}% not in {lo}..{hi}");
        };
        within(by_form(Form::BareDoi), 25.0, 40.0, "bare DOIs");
        within(by_form(Form::DoiUrl), 15.0, 27.0, "DOI URLs");
        within(by_form(Form::HandleUrl), 10.0, 20.0, "handle URLs");
        within(by_form(Form::BareHandle), 5.0, 12.0, "bare handles");
        within(by_form(Form::DoiLabel), 5.0, 11.0, "doi: labels");
        within(by_form(Form::Uri), 2.5, 7.0, "URIs");
        within(by_form(Form::Junk), 3.0, 7.0, "junk");
        within(
            share(&vs, |_, m| m.dirt.is_some() || m.form == Form::Junk),
            12.0,
            20.0,
            "dirt + junk",
        );
        within(share(&vs, |_, m| m.duplicate), 7.0, 13.0, "duplicates");
        // Independent of the labels: what the strings look like.
        within(share(&vs, |v, _| v.starts_with("10.")), 25.0, 40.0, "starts with 10.");
        within(share(&vs, |v, _| v.contains("doi.org/")), 15.0, 27.0, "doi.org URLs");
        within(
            share(&vs, |v, _| v.contains("/handle/")),
            2.0,
            6.0,
            "DSpace /handle/ URLs",
        );
        within(share(&vs, |v, _| v.is_empty()), 0.5, 2.0, "empty");
        // Every dirt kind occurs.
        let kinds: HashSet<Dirt> = vs.iter().filter_map(|(_, m)| m.dirt).collect();
        assert_eq!(kinds.len(), DIRTS.items.len(), "{kinds:?}");
        let mean = vs.iter().map(|(v, _)| v.len()).sum::<usize>() as f64 / vs.len() as f64;
        eprintln!("mean length: {mean:.2} bytes");
        within(mean, 30.0, 47.0, "mean length");
    }

    #[test]
    fn duplicates_present() {
        let vs = values(1, 20_000);
        let mut seen = HashMap::new();
        let mut exact = 0;
        for (v, _) in &vs {
            if !v.is_empty() && *seen.entry(v.as_str()).and_modify(|n| *n += 1).or_insert(1) > 1 {
                exact += 1;
            }
        }
        assert!(exact > 400, "exact repeats: {exact}");
        // Same DOI in another case or form: lower-case the DOI part.
        let key = |v: &str| v.find("10.").map(|i| v[i..].to_ascii_lowercase());
        let keys: HashSet<_> = vs.iter().filter_map(|(v, _)| key(v)).collect();
        let doi_vals = vs.iter().filter(|(v, _)| key(v).is_some()).count();
        assert!(doi_vals - keys.len() > 800, "{} {}", doi_vals, keys.len());
    }

    #[test]
    fn no_line_breaks_in_values() {
        for (v, _) in values(99, 100_000) {
            assert!(!v.contains(['\r', '\n']), "{v:?}");
        }
        let mut out = Vec::new();
        write_bench_values(&mut out, 10_000, 5).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains('\r'));
        assert_eq!(text.split_terminator('\n').count(), 10_000);
    }

    #[test]
    fn csv_parses_with_the_csv_crate() {
        let mut out = Vec::new();
        write_csv(&mut out, 5000, 11).unwrap();
        let text = std::str::from_utf8(&out).unwrap();
        assert!(text.contains("\"\""), "some quotes in titles");
        let mut rd = csv::Reader::from_reader(out.as_slice());
        assert_eq!(rd.headers().unwrap().iter().collect::<Vec<_>>().join(","), CSV_HEADER);
        let mut n = 0;
        let mut multiline = 0;
        let mut s = Synth::new(11);
        let mut row = Row::default();
        for rec in rd.records() {
            let rec = rec.unwrap();
            assert_eq!(rec.len(), 6);
            n += 1;
            s.next_row(n, &mut row);
            assert_eq!(&rec[0], n.to_string());
            assert_eq!(&rec[2], row.title);
            assert_eq!(&rec[5], row.identifier, "identifiers survive CSV unchanged");
            multiline += rec[2].contains('\n') as usize;
        }
        assert_eq!(n, 5000);
        assert!(multiline > 0);
    }

    #[test]
    fn sample_csv_parses() {
        let mut out = Vec::new();
        write_sample_csv(&mut out).unwrap();
        let mut rd = csv::Reader::from_reader(out.as_slice());
        let recs: Vec<_> = rd.records().map(|r| r.unwrap()).collect();
        assert_eq!(recs.len(), SHOWCASE.len() + 1 + SAMPLE_ROWS as usize);
        for (rec, (_, id)) in recs.iter().zip(SHOWCASE) {
            assert_eq!(&rec[5], *id);
        }
    }

    #[test]
    fn committed_testdata_is_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        let mut csv = Vec::new();
        write_sample_csv(&mut csv).unwrap();
        let mut vals = Vec::new();
        write_bench_values(&mut vals, BENCH_VALUES, BENCH_SEED).unwrap();
        let mut vals2 = Vec::new();
        write_values(&mut vals2, BENCH_VALUES, BENCH_V2_SEED, Mix::V2).unwrap();
        let regen = "regenerate with `cargo run --release --example gen_sample`";
        assert!(std::fs::read(dir.join("sample_export.csv")).unwrap() == csv, "{regen}");
        assert!(std::fs::read(dir.join("bench_values.txt")).unwrap() == vals, "{regen}");
        assert!(
            std::fs::read(dir.join("bench_values_v2.txt")).unwrap() == vals2,
            "{regen}"
        );
    }

    #[test]
    fn v1_values_are_a_values_file() {
        // bench_values.txt reads back through values_file unchanged.
        let mut out = Vec::new();
        write_bench_values(&mut out, 20_000, 3).unwrap();
        let mut also = Vec::new();
        write_values(&mut also, 20_000, 3, Mix::V1).unwrap();
        assert!(out == also, "V1 values written raw by both writers");
        let read = values_file::parse(&out).unwrap();
        let generated = values(3, 20_000);
        assert_eq!(read.len(), generated.len());
        for (r, (g, _)) in read.iter().zip(&generated) {
            assert_eq!(&r[..], g.as_bytes());
        }
    }
}
