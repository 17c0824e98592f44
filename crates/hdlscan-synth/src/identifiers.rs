//! The identifier generator, [`Synth`]: one value at a time, in the forms
//! and with the dirt of real exports (the crate docs give the mix), with
//! duplicates drawn from a ring of recent values. [`v2`] adds SPEC version
//! 2's dirt for [`Mix::V2`].

pub mod v2;

use crate::SplitMix64;
use crate::random::{Table, table};
use crate::tables::*;
use crate::text::{push_chars, push_encoded, push_num};

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

/// The form a generated value was written in (what the generator meant, not
/// what a parser must say: dirt can make a value invalid).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// `10.1000/182`.
    BareDoi,
    /// `https://doi.org/10.1000/182` and the other DOI resolvers.
    DoiUrl,
    /// `doi:10.1000/182`, `DOI: 10.1000/182`, ….
    DoiLabel,
    /// `1721.1/12345`.
    BareHandle,
    /// `http://hdl.handle.net/1721.1/12345`, or a repository's `/handle/` URL.
    HandleUrl,
    /// `hdl:`, `hdl://`, `info:` URIs.
    Uri,
    /// Not an identifier: empty, `N/A`, ISBNs, other URLs, ….
    Junk,
}

impl Form {
    /// Every form.
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
    /// The form it was written in.
    pub form: Form,
    /// The main dirt put on it.
    pub dirt: Option<Dirt>,
    /// Names an identifier generated earlier (same string, or the same
    /// identifier in another form or case).
    pub duplicate: bool,
}

/// How many recent identifiers are kept for duplicates.
pub const POOL: usize = 4096;

/// The identifier generator. See the module docs for the mix.
pub struct Synth {
    pub(crate) rng: SplitMix64,
    mix: Mix,
    /// The identifier being built: `prefix/suffix`.
    core: String,
    core_is_doi: bool,
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

    /// What the last [`next_identifier`](Self::next_identifier) produced.
    pub fn meta(&self) -> Meta {
        self.meta
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
        ring_put(&mut self.outs, &mut self.outs_next, POOL / 4, out, self.meta);
    }

    fn remember_core(&mut self) {
        ring_put(&mut self.pool, &mut self.pool_next, POOL, &self.core, self.core_is_doi);
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
        let is_doi = match form {
            Form::BareDoi | Form::DoiUrl | Form::DoiLabel => true,
            Form::BareHandle | Form::HandleUrl => false,
            Form::Uri => {
                let u = self.rng.from_table(&URIS);
                return self.uri(u, out);
            }
            Form::Junk => return self.junk(out),
        };
        let dirt = self.rng.chance(DIRT_PER_MILLE).then(|| {
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
            d
        });
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
        self.core.clear();
        match dirt {
            Some(Dirt::HtmlEntity) => {
                if self.rng.chance(700) {
                    let t = if self.rng.chance(700) {
                        DoiT::WileySici
                    } else {
                        DoiT::AmsSici
                    };
                    self.doi_template(t);
                    self.core = self.core.replace('<', "&lt;").replace('>', "&gt;");
                } else {
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
                self.doi_template(DoiT::WileySici);
            }
            Some(Dirt::GluedDoi) => {
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
                self.push_core_encoded(out);
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
                self.render_uri(t, out);
            }
            Form::Junk => unreachable!(),
        }
    }

    /// Appends `self.core` percent-encoded as a URL path needs (usually).
    fn push_core_encoded(&mut self, out: &mut String) {
        self.id_start = out.len();
        let keep_angle = self.rng.chance(200);
        let (p, s) = self.core.split_at(self.core.find('/').unwrap_or(self.core.len()));
        push_encoded(out, p, keep_angle);
        self.sep = out.len();
        push_encoded(out, s, keep_angle);
    }

    fn render_uri(&mut self, t: UriT, out: &mut String) {
        match t {
            UriT::HdlHandle | UriT::HdlDoi | UriT::HdlQuery => {
                out.push_str(if self.rng.chance(50) { "HDL:" } else { "hdl:" });
                self.push_core_encoded(out);
                if matches!(t, UriT::HdlQuery) {
                    out.push_str(self.rng.pick(&["?locatt=view:1", "?noredirect", "#page=2"]));
                }
            }
            UriT::InfoHdl | UriT::InfoDoi | UriT::InfoDoiUpper | UriT::HdlNaHost => {
                out.push_str(match t {
                    UriT::InfoHdl => "info:hdl/",
                    UriT::InfoDoi => "info:doi/",
                    UriT::InfoDoiUpper => "INFO:DOI/",
                    _ => "hdl://",
                });
                self.push_core_encoded(out);
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
                self.push_core_encoded(out);
            }
            _ => unreachable!(),
        }
    }

    /// The identifier just made in `self.core`, remembered, as a `t` URI.
    fn uri_of_core(&mut self, t: UriT, out: &mut String) {
        self.mark_distinct();
        self.remember_core();
        self.render_uri(t, out);
    }

    /// A `hdl:`/`info:` URI: of a new handle or DOI, or of another `info:`
    /// namespace.
    fn uri(&mut self, t: UriT, out: &mut String) {
        let parts: &[Part] = match t {
            UriT::HdlDoi | UriT::InfoDoi | UriT::InfoDoiUpper => {
                self.gen_doi(None);
                return self.uri_of_core(t, out);
            }
            UriT::HdlHandle | UriT::HdlQuery | UriT::InfoHdl | UriT::HdlNaHost | UriT::HdlServer => {
                self.gen_handle();
                return self.uri_of_core(t, out);
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
                    let dashed = s.replace('-', dash.encode_utf8(&mut [0; 4]));
                    out.truncate(self.id_start);
                    out.push_str(&dashed);
                } else if let Some(i) = s.rfind('-') {
                    let at = self.id_start + i;
                    out.replace_range(at..at + 1, dash.encode_utf8(&mut [0; 4]));
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
                let twice = out[self.id_start..].replace('%', "%25");
                out.truncate(self.id_start);
                out.push_str(&twice);
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

/// Puts `(text, with)` in `ring` of at most `cap` entries, over the
/// oldest (at `next`) once it is full, reusing that entry's string.
fn ring_put<T>(ring: &mut Vec<(String, T)>, next: &mut usize, cap: usize, text: &str, with: T) {
    if ring.len() < cap {
        ring.push((text.to_string(), with));
    } else {
        let slot = &mut ring[*next];
        slot.0.clear();
        slot.0.push_str(text);
        slot.1 = with;
        *next = (*next + 1) % cap;
    }
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
        let rows = |seed| {
            let mut out = Vec::new();
            crate::csv::write_csv(&mut out, &crate::Layout::GEN, Synth::new(seed), 500).unwrap();
            out
        };
        assert_eq!(rows(3), rows(3));
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
    }
}
