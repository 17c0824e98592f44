//! What generated values are drawn from: the DOI templates of the big
//! publishers and data repositories, real handle prefixes and how their
//! suffixes look, resolver hosts, `hdl:`/`info:` URI shapes, junk, and the
//! words, types and collections of the other columns. Weights are relative
//! within each [`Table`].

use crate::SplitMix64;
use crate::random::{Table, table};
use crate::text::{push_chars, push_num};

#[derive(Clone, Copy)]
pub(crate) enum DoiT {
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

pub(crate) const DOI_TEMPLATES: Table<DoiT> = table(&[
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

#[rustfmt::skip]
pub(crate) const ELSEVIER_J: &[&str] = &[
    "cell", "neuron", "jcp", "ijheatmasstransfer", "jbiomech", "scitotenv", "apenergy", "watres", "neuroimage",
    "jhydrol", "compstruct", "envpol", "jclepro", "ijsolstr", "jmb", "bbrc", "tet", "ejor", "jfineco",
    "chemosphere",
];
pub(crate) const WILEY_J: &[&str] = &[
    "anie", "adma", "chem", "smll", "advs", "aenm", "adfm", "ange", "jcc", "pro", "ece3", "gcb",
];
#[rustfmt::skip]
pub(crate) const ACS_J: &[&str] = &[
    "jpcb", "jmedchem", "est", "nanolett", "jafc", "orglett", "inorgchem", "jpca",
];
pub(crate) const PLOS_J: &[&str] = &["pone", "pbio", "pcbi", "pgen", "pmed", "ppat", "pntd"];
pub(crate) const IEEE_J: &[&str] = &["TPAMI", "TIT", "TSP", "ACCESS", "TMI", "TNNLS", "TIP", "TKDE"];
pub(crate) const IEEE_C: &[&str] = &["CVPR", "ICCV", "ICRA", "INFOCOM", "ICASSP", "IROS"];
pub(crate) const APS_J: &[&str] = &["PhysRevLett", "PhysRevB", "PhysRevD", "PhysRevE", "PhysRevA"];
pub(crate) const OUP_J: &[&str] = &["nar", "bioinformatics", "mnras", "brain", "cid", "jxb"];
pub(crate) const SICI_J: &[&str] = &["TEA", "JCC", "BIP", "MRM", "ANIE", "JPS"];
pub(crate) const GENERIC_ABBR: &[&str] = &[
    "jgr", "aj", "ijms", "mol", "ma", "s", "jbc", "pnas", "aje", "apj", "ecol", "jeb", "rsos", "jn", "cer", "jmr",
    "tpj", "fmicb", "fpsyg", "elife",
];

/// Handle prefixes of real repositories, with how their suffixes look.
#[derive(Clone, Copy)]
pub(crate) enum HdlSuffix {
    Digits(u64, u64),
    OneDot,
    Uuid,
    Hex,
}

pub(crate) const HANDLE_PREFIXES: Table<(&str, HdlSuffix)> = table(&[
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

#[rustfmt::skip]
pub(crate) const REPO_HOSTS: &[&str] = &[
    "repo.example.edu", "repository.library.example.edu", "dspace.lib.example.ac.uk", "scholarworks.example.org",
    "deepblue.lib.example.edu", "openaccess.library.example.nl", "ir.lib.example.ac.jp",
    "digital.library.example.edu", "eprints.example.ac.uk", "researchrepository.example.edu.au",
];

#[derive(Clone, Copy)]
pub(crate) enum UriT {
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

pub(crate) const URIS: Table<UriT> = table(&[
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

pub(crate) const DOI_URL_PREFIXES: Table<&'static str> = table(&[
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

pub(crate) const HDL_URL_PREFIXES: Table<&'static str> = table(&[
    (450, "http://hdl.handle.net/"),
    (250, "https://hdl.handle.net/"),
    (350, ""), // a repository's own /handle/ URL
    (20, "hdl.handle.net/"),
    (10, "https://hdl.handle.net/api/handles/"),
    (10, "http://arrow.resolver.example.gov:2641/hdl/"),
    (10, "HTTP://HDL.HANDLE.NET/"),
]);

pub(crate) const LABELS: Table<&'static str> = table(&[
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
pub(crate) enum JunkT {
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

pub(crate) const JUNK: Table<JunkT> = table(&[
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

pub(crate) const ALNUM_LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
pub(crate) const ALNUM_UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
pub(crate) const ALNUM_MIXED: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
pub(crate) const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
pub(crate) const UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
pub(crate) const HEX_MIXED: &[u8] = b"0123456789ABCDEFabcdef";
pub(crate) const HEX_LOWER: &[u8] = b"0123456789abcdef";
/// ISSN-style check characters (PIIs, SciELO).
pub(crate) const CHECK_X: &[u8] = b"0123456789X";
/// SICI check characters (no I or O).
pub(crate) const SICI_CHECK: &[u8] = b"0123456789ABCDEFGHJKLMNPQRSTUVWXYZ";
/// One piece of a value's template. [`push_parts`] appends the pieces in
/// order, drawing from the generator as it reaches each random one, so a
/// template's draws are its pieces', left to right.
#[derive(Clone, Copy)]
pub(crate) enum Part {
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
pub(crate) use Part::{Chars, CharsIn, Lit, Num, Pick, Year, Year1, Year3};

/// Appends `parts` to `out` (see [`Part`]); `year` is the DOI's year, for
/// the year parts (`None` where there are none).
pub(crate) fn push_parts(r: &mut SplitMix64, out: &mut String, year: Option<u64>, parts: &[Part]) {
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
pub(crate) const WILEY: &[Part] = &[Lit("10.1002/"), Pick(WILEY_J), Lit("."), Num(2005, 2024, 0), Num(0, 99_999, 5)];

#[rustfmt::skip]
pub(crate) const TITLE_WORDS: &[&str] = &[
    "analysis", "of", "the", "effects", "on", "a", "model", "for", "in", "and", "with", "towards", "learning",
    "deep", "neural", "networks", "climate", "change", "soil", "carbon", "dynamics", "protein", "structure",
    "prediction", "quantum", "transport", "graphene", "thin", "films", "evidence", "from", "rural", "households",
    "policy", "urban", "water", "quality", "river", "basin", "gene", "expression", "mouse", "cortex", "patients",
    "randomized", "trial", "cohort", "study", "survey", "data", "dataset", "measurements", "spectroscopy",
    "estimation", "robust", "bayesian", "inference", "sparse", "regression", "optimal", "control", "systems",
    "stochastic", "equations", "boundary", "layer", "flow", "turbulence", "heat", "transfer", "catalysis",
    "synthesis", "novel", "approach", "framework", "review", "history", "medieval", "manuscripts", "language",
    "acquisition", "children", "education", "teachers", "assessment", "labour", "market", "migration", "trade",
    "finance", "risk", "banks", "evolution", "species", "forest", "biodiversity", "coral", "reef", "ocean",
    "sediment", "isotopes", "galaxy", "cluster", "dark", "matter", "stellar", "mass", "black", "hole", "simulation",
    "imaging", "mri", "brain", "sleep", "memory", "COVID-19", "SARS-CoV-2", "CRISPR", "RNA", "DNA", "Arctic",
    "Europe", "Africa", "China", "Brazil", "India", "São", "Paulo", "Zürich", "Café", "naïve", "Gödel", "α-helix",
    "β-sheet", "–", "revisited", "new", "insights", "into", "between", "across", "under", "using",
];

#[rustfmt::skip]
pub(crate) const TITLE_TAILS: &[&str] = &[
    ": a case study", ": evidence from panel data", ": a systematic review", ": theory and practice",
    " (extended abstract)", ", 1850-1914", "? Rethinking the question", ": supplementary data",
];

pub(crate) const DC_TYPES: Table<&'static str> = table(&[
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

#[rustfmt::skip]
pub(crate) const COLLECTIONS: &[&str] = &[
    "123456789/2", "123456789/7", "2027.42/40", "2027.42/41", "2027.42/57", "1721.1/7582", "1721.1/49433",
    "10023/12", "20.500.12345/5", "20.500.12345/18", "1811/4", "2142/9",
];
