//! SPEC version 2's dirt, for [`Mix::V2`](super::Mix::V2): what real
//! exports hold that is not one identifier (SPEC §6), and the forms §2 added
//! for them.
//!
//! In [`Mix::V2`](super::Mix::V2), 920 of every [`PER`] values (9.2%) are
//! one of these; the others are [`Mix::V1`](super::Mix::V1)'s
//! mix (duplicates of V2 values included: a repeated string may be one).
//!
//! | dirt | per 10,000 | shapes |
//! | --- | ---: | --- |
//! | [`Placeholder`](Dirt::Placeholder) | 200 | `NA`, `N/A`, `-`, `n.a.`, `none`, `no doi`, `Pas de DOI`, `0`, … |
//! | [`MultipleValues`](Dirt::MultipleValues) | 150 | `a\|\|b` (DSpace), `a, b`, `a; b`, a DOI URL and a landing page, the same DOI on two lines, two DOIs on two lines |
//! | [`ExtraText`](Dirt::ExtraText) | 100 | `10.1/x PMCID: PMC123`, `10.1/x \|`, `10.1/x see also …`, `10.1136/ bmjgh-…`, `see 10.1/x` |
//! | [`ShortDoiUrl`](Dirt::ShortDoiUrl) | 100 | `http://doi.org/f3s5pp` |
//! | [`DspaceUrl`](Dirt::DspaceUrl) | 100 | `…/xmlui/handle/10568/1234`, `…/jspui/handle/…`, `…/bitstream/handle/10568/1234/report.pdf?sequence=1` |
//! | [`PublisherUrl`](Dirt::PublisherUrl) | 100 | `https://www.tandfonline.com/doi/full/10.1080/…`, `https://link.springer.com/article/10.1007%2Fs…` |
//! | [`BareEncodedSlash`](Dirt::BareEncodedSlash) | 50 | `10.1177%2F1461445618802659` |
//! | [`WrappedLine`](Dirt::WrappedLine) | 30 | `10.1136/bmjopen-2017-` LF `024355` |
//! | [`DoubledResolver`](Dirt::DoubledResolver) | 30 | `http://dx.doi.org/http://dx.doi.org/10.2147/…` |
//! | [`SpaceAfterHost`](Dirt::SpaceAfterHost) | 30 | `https://doi.org/ 10.1/x` |
//! | [`DashRun`](Dirt::DashRun) | 15 | `10.1186/1471-` U+00AD U+2010 `2458-…` |
//! | [`TrailingSlash`](Dirt::TrailingSlash) | 15 | `10.1088/1367-2630/16/6/` |
//!
//! 2% of these values get a line break pasted after them (trimmed).
//!
//! **Where the shapes and rates come from.** The shapes are the ones found
//! in the real samples of `testdata/real/` (OpenAPC's Norway 2015–16, Jisc
//! 2018, Gates 2020 and FWF exports; CGIAR's CIFOR, IFPRI and WorldFish
//! DSpace exports), the DSpace URL shapes from DSpace's own UI. The rates are
//! those of a dirty export, not of the average one: over the DOI and
//! `dc.identifier.*` columns of 24 whole files of those two sources (47,357
//! cells), each kind is 0.01–0.1% of the cells, but concentrated in a few
//! files, where it reaches the rates above: placeholders 2.6% of FWF 2018
//! (0.26% of Gates 2020), U+00AD/U+2010 runs 2.4% of Norway, shortDOI URLs
//! all of FWF 2016, glued text 0.4% of Norway, line breaks 0.13% of Jisc
//! 2018 (13 of its 17 the same DOI twice), `%2F` 0.05% of Jisc, a trailing
//! `/` 1.1% of ICRISAT. Two identifiers in one cell and DSpace UI and file
//! URLs are set at the 1–2% seen in DSpace exports with `||`-joined
//! `dc.identifier.uri` cells, of which `testdata/real/` has no sample yet.

use super::{Dirt, Form, Meta, Synth};
use crate::random::{Table, table};
use crate::tables::{ALNUM_LOWER, DoiT, Lit, Num, REPO_HOSTS, push_parts};
use crate::text::push_encoded;

/// Rates are per this many values.
pub const PER: u64 = 10_000;

/// SPEC v2's dirt per [`PER`] values.
pub(super) const DIRTS: Table<Dirt> = table(&[
    (200, Dirt::Placeholder),
    (150, Dirt::MultipleValues),
    (100, Dirt::ExtraText),
    (100, Dirt::ShortDoiUrl),
    (100, Dirt::DspaceUrl),
    (100, Dirt::PublisherUrl),
    (50, Dirt::BareEncodedSlash),
    (30, Dirt::WrappedLine),
    (30, Dirt::DoubledResolver),
    (30, Dirt::SpaceAfterHost),
    (15, Dirt::DashRun),
    (15, Dirt::TrailingSlash),
]);

/// The placeholder words of real DOI columns (OpenAPC: `NA`, `n.a.`, `N/A`,
/// `0`, `Ikke DOI`, `publ`; French and English exports: `Pas de DOI`, `no doi`).
const PLACEHOLDERS: Table<&str> = table(&[
    (25, "NA"),
    (20, "N/A"),
    (10, "n/a"),
    (12, "-"),
    (8, "n.a."),
    (8, "none"),
    (4, "None"),
    (6, "no doi"),
    (3, "No DOI"),
    (4, "Pas de DOI"),
    (6, "0"),
    (2, "Ikke DOI"),
    (3, "not available"),
    (1, "publ"),
]);

impl Synth {
    /// Writes a value with SPEC v2's dirt into `out` (empty).
    pub(super) fn v2_value(&mut self, out: &mut String) {
        let d = self.rng.from_table(&DIRTS);
        self.meta = Meta {
            form: Form::BareDoi,
            dirt: Some(d),
            duplicate: false,
        };
        match d {
            Dirt::Placeholder => {
                self.meta.form = Form::Junk;
                out.push_str(self.rng.from_table(&PLACEHOLDERS));
            }
            Dirt::MultipleValues => self.multiple_values(out),
            Dirt::ExtraText => self.extra_text(out),
            Dirt::ShortDoiUrl => self.short_doi_url(out),
            Dirt::DspaceUrl => self.dspace_url(out),
            Dirt::PublisherUrl => self.publisher_url(out),
            Dirt::BareEncodedSlash => self.bare_encoded_slash(out),
            Dirt::WrappedLine => self.wrapped_line(out),
            Dirt::DoubledResolver => self.doubled_resolver(out),
            Dirt::SpaceAfterHost => self.space_after_host(out),
            Dirt::DashRun => self.dash_run(out),
            Dirt::TrailingSlash => {
                self.new_doi();
                let form = self.rng.weighted(&[(70, Form::BareDoi), (30, Form::DoiUrl)]);
                self.render(form, out);
                out.push('/');
                self.meta.form = form;
            }
            _ => unreachable!("{d:?} is not a V2 dirt"),
        }
        // A line break pasted after the cell (`DOI: 10.1371/…` LF in Norway).
        if self.rng.chance(20) {
            out.push('\n');
        }
    }

    /// A new DOI in `self.core`, remembered for duplicates.
    fn new_doi(&mut self) {
        self.gen_doi(None);
        self.remember_core();
    }

    /// A new DOI of template `t` in `self.core`, remembered.
    fn new_doi_of(&mut self, t: DoiT) {
        self.core_is_doi = true;
        self.core.clear();
        self.doi_template(t);
        self.remember_core();
    }

    /// A new DOI with a `-` after its last `/` (most DOIs of BMC, Springer,
    /// Nature have one): the first of 8 draws that has one, else a BMC DOI;
    /// remembered.
    fn new_doi_with_dash(&mut self) {
        self.core_is_doi = true;
        let has_dash = |c: &str| c[c.rfind('/').unwrap()..].contains('-');
        for _ in 0..8 {
            self.core.clear();
            let t = self.rng.from_table(&crate::tables::DOI_TEMPLATES);
            self.doi_template(t);
            if has_dash(&self.core) {
                break;
            }
        }
        if !has_dash(&self.core) {
            self.core.clear();
            self.doi_template(DoiT::Bmc);
        }
        self.remember_core();
    }

    /// Appends `self.core` as a bare DOI, a `doi:` label or a DOI URL.
    fn push_doi_form(&mut self, out: &mut String) -> Form {
        let form = self
            .rng
            .weighted(&[(55, Form::BareDoi), (30, Form::DoiUrl), (15, Form::DoiLabel)]);
        self.render(form, out);
        form
    }

    fn multiple_values(&mut self, out: &mut String) {
        match self.rng.below(100) {
            // DSpace's `||`: a handle URL and a DOI, or two DOIs.
            0..35 => {
                if self.rng.chance(500) {
                    self.gen_handle();
                    self.remember_core();
                    self.render(Form::HandleUrl, out);
                    self.meta.form = Form::HandleUrl;
                    out.push_str("||");
                    self.new_doi();
                    let form = self.rng.weighted(&[(60, Form::DoiUrl), (40, Form::BareDoi)]);
                    self.render(form, out);
                } else {
                    self.new_doi();
                    self.meta.form = self.push_doi_form(out);
                    out.push_str("||");
                    // The same DOI in another form, or another DOI (the
                    // preprint's and the article's).
                    if self.rng.chance(600) {
                        self.new_doi();
                    }
                    self.push_doi_form(out);
                }
            }
            // `a, b` and `a; b`: most often the same DOI twice (Jisc).
            35..65 => {
                self.new_doi();
                let form = self.push_doi_form(out);
                self.meta.form = form;
                out.push_str(
                    self.rng
                        .weighted(&[(30, ", "), (15, ","), (30, "; "), (15, ";"), (10, " ; ")]),
                );
                if self.rng.chance(400) {
                    self.new_doi();
                }
                self.render(form, out);
            }
            // A DOI URL and a landing page, a space between (IFPRI).
            65..75 => {
                self.new_doi();
                self.render(Form::DoiUrl, out);
                self.meta.form = Form::DoiUrl;
                out.push(' ');
                let page: &[crate::tables::Part] = if self.rng.chance(500) {
                    &[
                        Lit("http://www.cjae.net/CN/abstract/abstract"),
                        Num(10_000, 29_999, 0),
                        Lit(".shtml"),
                    ]
                } else {
                    &[
                        Lit("https://www.sciencedirect.com/science/article/pii/S"),
                        Num(0, 999_999_999_999, 12),
                    ]
                };
                push_parts(&mut self.rng, out, None, page);
            }
            // The same DOI on two lines (Jisc: 13 of its 17 cells with a
            // line break), blank lines between or after it at times.
            75..95 => {
                if self.rng.chance(100) {
                    out.push('\n');
                }
                self.new_doi();
                let form = self
                    .rng
                    .weighted(&[(85, Form::BareDoi), (10, Form::DoiUrl), (5, Form::DoiLabel)]);
                self.render(form, out);
                self.meta.form = form;
                out.push_str(
                    self.rng
                        .weighted(&[(60, "\n"), (15, "\r\n"), (15, "\n\n"), (10, "\n\n\n")]),
                );
                self.render(form, out);
            }
            // Two DOIs on two lines, the first cut short
            // (`10.1109/TWC.2018.2` LF `10.1109/TWC.2018.2865771`).
            _ => {
                self.new_doi();
                let slash = self.core.find('/').unwrap();
                let hi = (self.core.len() - 1).max(slash + 2);
                let keep = self.rng.range(slash as u64 + 2, hi as u64) as usize;
                let keep = (keep..=self.core.len())
                    .find(|&i| self.core.is_char_boundary(i))
                    .unwrap();
                out.push_str(&self.core[..keep]);
                out.push('\n');
                out.push_str(&self.core);
            }
        }
    }

    fn extra_text(&mut self, out: &mut String) {
        self.new_doi();
        match self.rng.below(100) {
            // Text after the DOI (Gates, FWF, Jisc, Norway).
            0..65 => {
                let form = self
                    .rng
                    .weighted(&[(80, Form::BareDoi), (10, Form::DoiLabel), (10, Form::DoiUrl)]);
                self.render(form, out);
                self.meta.form = form;
                let tail: &[crate::tables::Part] = match self.rng.below(100) {
                    0..20 => &[Lit(" PMCID: PMC"), Num(1_000_000, 9_999_999, 7)],
                    20..35 => &[Lit(" |")],
                    35..45 => &[Lit(" see also the supplementary material")],
                    45..53 => &[Lit("  Share this article")],
                    53..61 => &[Lit(". eCollection "), Num(2010, 2023, 0)],
                    61..67 => &[Lit(" (feil i doi)")],
                    67..73 => &[Lit(" (registering D")],
                    73..79 => &[Lit(" Resea")],
                    79..85 => &[Lit(" "), Num(1, 9, 0)],
                    85..90 => &[Lit(", "), Num(2010, 2023, 0)],
                    _ => &[Lit("\nManuscript ID: ETLS")],
                };
                push_parts(&mut self.rng, out, None, tail);
            }
            // A space after the `/` (Gates: `10.1136/ bmjgh-2018-001295`).
            65..80 => {
                self.render(Form::BareDoi, out);
                out.insert(self.sep + 1, ' ');
            }
            // A space inside the suffix (`10.1371/journal.pone.00 99232`).
            80..90 => {
                self.render(Form::BareDoi, out);
                let at = self.char_boundary_in_suffix(out);
                out.insert(if at < out.len() { at } else { self.sep + 1 }, ' ');
            }
            // Text before it.
            _ => {
                out.push_str(self.rng.pick(&["see ", "DOI for the article: ", "Published version: "]));
                self.meta.form = self.push_doi_form(out);
            }
        }
    }

    fn short_doi_url(&mut self, out: &mut String) {
        self.meta.form = Form::DoiUrl;
        // FWF 2016's whole DOI column is `http://doi.org/` shortDOIs.
        out.push_str(self.rng.weighted(&[
            (60, "http://doi.org/"),
            (30, "https://doi.org/"),
            (5, "http://dx.doi.org/"),
            (5, "https://dx.doi.org/"),
        ]));
        let first = self.rng.pick(&['a', 'b', 'c', 'd', 'e', 'f', 'g']);
        out.push(first);
        let n = self.rng.range(3, 5) as usize;
        crate::text::push_chars(&mut self.rng, out, ALNUM_LOWER, n);
    }

    fn dspace_url(&mut self, out: &mut String) {
        self.meta.form = Form::HandleUrl;
        if self.rng.chance(400) {
            // CGSpace, the CGIAR repository.
            self.core_is_doi = false;
            self.core.clear();
            let cgspace = [Lit("10568/"), Num(1, 150_000, 0)];
            push_parts(&mut self.rng, &mut self.core, None, &cgspace);
        } else {
            self.gen_handle();
        }
        self.remember_core();
        out.push_str(if self.rng.chance(250) { "http://" } else { "https://" });
        out.push_str(if self.rng.chance(300) {
            "cgspace.cgiar.org"
        } else {
            self.rng.pick(REPO_HOSTS)
        });
        let path = self.rng.weighted(&[
            (35, "/xmlui/handle/"),
            (20, "/jspui/handle/"),
            (30, "/bitstream/handle/"),
            (15, "/xmlui/bitstream/handle/"),
        ]);
        out.push_str(path);
        push_encoded(out, &self.core, false);
        if path.ends_with("bitstream/handle/") {
            out.push('/');
            let file: &[crate::tables::Part] = match self.rng.below(5) {
                0 => &[Lit("report.pdf")],
                1 => &[Lit("Brief"), Num(1, 99, 0), Lit(".pdf")],
                2 => &[Lit("WorkingPaper_"), Num(100, 999, 0), Lit(".pdf")],
                3 => &[Lit("Policy%20brief%20"), Num(1, 40, 0), Lit(".pdf")],
                _ => &[Lit("Dataset.xlsx")],
            };
            push_parts(&mut self.rng, out, None, file);
            let query: &[crate::tables::Part] = match self.rng.below(10) {
                0..5 => &[Lit("?sequence="), Num(1, 3, 0)],
                5..8 => &[Lit("?sequence="), Num(1, 3, 0), Lit("&isAllowed=y")],
                _ => &[],
            };
            push_parts(&mut self.rng, out, None, query);
        } else if self.rng.chance(100) {
            out.push_str("?show=full");
        }
    }

    fn publisher_url(&mut self, out: &mut String) {
        // Landing pages are junk in V1 too (`JunkT::PublisherUrl`).
        self.meta.form = Form::Junk;
        let (t, head) = match self.rng.below(100) {
            0..25 => (DoiT::TandF, "https://www.tandfonline.com/doi/"),
            25..45 => (DoiT::SpringerArticle, "https://link.springer.com/article/"),
            45..53 => (DoiT::SpringerChapter, "https://link.springer.com/chapter/"),
            53..73 => (DoiT::Wiley, "https://onlinelibrary.wiley.com/doi/"),
            73..83 => (DoiT::Sage, "https://journals.sagepub.com/doi/"),
            83..90 => (DoiT::Acs, "https://pubs.acs.org/doi/"),
            90..95 => (DoiT::Iop, "https://iopscience.iop.org/article/"),
            // The DOI in the query (Gates): not a `publisher_url`.
            _ => (DoiT::Plos, "https://journals.plos.org/plosone/article?id="),
        };
        self.new_doi_of(t);
        out.push_str(head);
        if head.ends_with("/doi/") {
            out.push_str(
                self.rng
                    .weighted(&[(30, ""), (25, "full/"), (25, "abs/"), (10, "pdf/"), (10, "epdf/")]),
            );
        }
        let slash = self.core.find('/').unwrap();
        if head.contains("springer") && self.rng.chance(600) {
            // Springer's own links encode the separator.
            out.push_str(&self.core[..slash]);
            out.push_str("%2F");
            out.push_str(&self.core[slash + 1..]);
        } else {
            push_encoded(out, &self.core, false);
        }
        if matches!(t, DoiT::Iop) && self.rng.chance(300) {
            out.push_str("/pdf");
        }
    }

    fn bare_encoded_slash(&mut self, out: &mut String) {
        // Jisc 2018: 10.1177 (SAGE), 10.1007 (Springer), 10.1038 (Nature).
        let t = match self.rng.below(100) {
            0..35 => DoiT::Sage,
            35..60 => DoiT::SpringerArticle,
            60..75 => DoiT::NatureNew,
            _ => self.rng.from_table(&crate::tables::DOI_TEMPLATES),
        };
        self.new_doi_of(t);
        // Copied out of a URL, every `/` encoded (IOP's suffixes hold more).
        let enc = if self.rng.chance(850) { "%2F" } else { "%2f" };
        for (i, part) in self.core.split('/').enumerate() {
            if i > 0 {
                out.push_str(enc);
            }
            out.push_str(part);
        }
    }

    fn wrapped_line(&mut self, out: &mut String) {
        self.new_doi_with_dash();
        let form = self
            .rng
            .weighted(&[(85, Form::BareDoi), (10, Form::DoiLabel), (5, Form::DoiUrl)]);
        self.render(form, out);
        self.meta.form = form;
        let brk = self.rng.weighted(&[(80, "\n"), (15, "\r\n"), (5, " \n")]);
        // After the last `/` (or the `:` of `urn:doi:10.1000:182`), so that
        // what follows is no handle.
        let last = out.rfind('/').or_else(|| out.rfind(':')).unwrap() + 1;
        if self.rng.chance(100) {
            // The suffix again on the next line, not a wrapped DOI
            // (Jisc: `10.1136/oemed-2018-105202` LF `oemed-2018-105202`).
            let suffix = &self.core[self.core.find('/').unwrap() + 1..];
            out.push_str(brk);
            out.push_str(suffix);
            return;
        }
        let tail = &out[last..];
        let dashes = tail.match_indices('-').filter(|&(i, _)| i + 1 < tail.len()).count();
        let at = if dashes > 0 && self.rng.chance(800) {
            // After a `-`, as a word processor wraps.
            let k = self.rng.below(dashes as u64) as usize;
            let (i, _) = tail
                .match_indices('-')
                .filter(|&(i, _)| i + 1 < tail.len())
                .nth(k)
                .unwrap();
            last + i + 1
        } else if tail.len() >= 2 {
            let at = self.rng.range(last as u64 + 1, out.len() as u64 - 1) as usize;
            (at..out.len()).find(|&i| out.is_char_boundary(i)).unwrap()
        } else {
            last
        };
        out.insert_str(at, brk);
    }

    fn doubled_resolver(&mut self, out: &mut String) {
        if self.rng.chance(850) {
            self.new_doi();
            self.meta.form = Form::DoiUrl;
            let outer = self.rng.weighted(&[
                (50, "http://dx.doi.org/"),
                (30, "https://doi.org/"),
                (20, "http://doi.org/"),
            ]);
            let inner = if self.rng.chance(600) {
                outer
            } else {
                self.rng.weighted(&[
                    (40, "https://doi.org/"),
                    (30, "http://dx.doi.org/"),
                    (20, "doi.org/"),
                    (10, "dx.doi.org/"),
                ])
            };
            out.push_str(outer);
            out.push_str(inner);
        } else {
            self.gen_handle();
            self.remember_core();
            self.meta.form = Form::HandleUrl;
            out.push_str("https://hdl.handle.net/");
            out.push_str(if self.rng.chance(500) {
                "https://hdl.handle.net/"
            } else {
                "http://hdl.handle.net/"
            });
        }
        self.push_core_encoded(out);
    }

    fn space_after_host(&mut self, out: &mut String) {
        if self.rng.chance(850) {
            // Norway: `http://dx.doi.org/ 10.3109/02813432.2015.1067518`.
            self.new_doi();
            self.meta.form = Form::DoiUrl;
            out.push_str(self.rng.weighted(&[
                (45, "http://dx.doi.org/"),
                (35, "https://doi.org/"),
                (20, "http://doi.org/"),
            ]));
        } else {
            self.gen_handle();
            self.remember_core();
            self.meta.form = Form::HandleUrl;
            if self.rng.chance(500) {
                out.push_str("http://hdl.handle.net/");
            } else {
                out.push_str("https://");
                out.push_str(self.rng.pick(REPO_HOSTS));
                out.push_str("/handle/");
            }
        }
        out.push_str(if self.rng.chance(900) { " " } else { "  " });
        self.push_core_encoded(out);
    }

    fn dash_run(&mut self, out: &mut String) {
        // Norway: `10.1186/1471-\u{AD}\u{2010}2458-\u{AD}\u{2010}14-…`, a
        // hyphen, a soft hyphen and U+2010 for every `-`, as a word
        // processor copied them.
        if self.rng.chance(500) {
            self.new_doi_of(DoiT::Bmc);
        } else {
            self.new_doi_with_dash();
        }
        let run = self
            .rng
            .weighted(&[(70, "-\u{AD}\u{2010}"), (15, "\u{AD}-"), (15, "-\u{2010}")]);
        let (head, form) = self.rng.weighted(&[
            (75, ("", Form::BareDoi)),
            (20, ("doi:", Form::DoiLabel)),
            (5, ("https://doi.org/", Form::DoiUrl)),
        ]);
        self.meta.form = form;
        out.push_str(head);
        for ch in self.core.chars() {
            if ch == '-' {
                out.push_str(run);
            } else {
                out.push(ch);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Mix, Synth};
    use super::*;
    use crate::values::{self as values_file, write_values};
    use std::collections::HashMap;

    fn values(seed: u64, n: usize) -> Vec<(String, Meta)> {
        super::super::tests::values_of(Mix::V2, seed, n)
    }

    #[test]
    fn v2_is_deterministic_and_differs_from_v1() {
        assert_eq!(values(7, 5000), values(7, 5000));
        let mut v1 = Synth::new(7);
        let mut s = String::new();
        let v1: Vec<String> = (0..100)
            .map(|_| {
                v1.next_identifier(&mut s);
                s.clone()
            })
            .collect();
        assert_ne!(v1, values(7, 100).into_iter().map(|(v, _)| v).collect::<Vec<_>>());
    }

    #[test]
    fn v2_rates_are_as_intended() {
        assert_eq!(DIRTS.total, 920, "the module docs' table and PER");
        const N: usize = 200_000;
        let vs = values(42, N);
        let mut by: HashMap<Dirt, usize> = HashMap::new();
        for (_, m) in vs.iter().filter(|(_, m)| !m.duplicate) {
            if let Some(d) = m.dirt {
                *by.entry(d).or_default() += 1;
            }
        }
        for &(per, d) in DIRTS.items {
            let got = by.get(&d).copied().unwrap_or(0) as f64 * PER as f64 / N as f64;
            eprintln!("{d:?}: {got:.0} per {PER} (want {per})");
            let per = f64::from(per);
            assert!(
                (got - per).abs() <= per * 0.15 + 5.0,
                "{d:?}: {got:.0} per {PER}, want {per}"
            );
        }
        // What the strings look like, independent of the labels.
        let share = |f: &dyn Fn(&str) -> bool| vs.iter().filter(|(v, _)| f(v)).count() as f64 * 100.0 / N as f64;
        let breaks = share(&|v| v.trim().contains(['\n', '\r']));
        let pipes = share(&|v| v.contains("||"));
        let ui = share(&|v| v.contains("/xmlui/") || v.contains("/jspui/") || v.contains("/bitstream/"));
        eprintln!("line breaks inside {breaks:.2}%, || {pipes:.2}%, DSpace UI/file {ui:.2}%");
        assert!((0.5..1.0).contains(&breaks), "{breaks}");
        assert!((0.4..0.8).contains(&pipes), "{pipes}");
        assert!((0.9..1.3).contains(&ui), "{ui}");
        // V1's mix is still most of it.
        let v1_forms = vs
            .iter()
            .filter(|(_, m)| m.dirt.is_none_or(|d| d < Dirt::MultipleValues))
            .count();
        assert!(v1_forms as f64 / N as f64 > 0.89, "{v1_forms}");
    }

    #[test]
    fn v2_shapes() {
        let vs = values(5, 100_000);
        let of = |d: Dirt| {
            vs.iter()
                .filter(move |(_, m)| m.dirt == Some(d))
                .map(|(v, _)| v.as_str())
        };
        for v in of(Dirt::WrappedLine) {
            let v = v.trim_end_matches('\n');
            let (a, b) = v.split_once('\n').unwrap_or_else(|| panic!("{v:?}"));
            assert!(
                !a.trim().is_empty() && !b.is_empty() && !b.contains(char::is_whitespace),
                "{v:?}"
            );
        }
        for v in of(Dirt::ShortDoiUrl) {
            let code = v.trim_end().rsplit('/').next().unwrap();
            assert!(
                code.len() >= 4 && code.bytes().all(|b| b.is_ascii_alphanumeric()),
                "{v:?}"
            );
        }
        for v in of(Dirt::Placeholder) {
            let v = v.trim_end();
            assert!(v == "0" || !v.contains(|c: char| c.is_ascii_digit()), "{v:?}");
        }
        for v in of(Dirt::BareEncodedSlash) {
            assert!(v.starts_with("10.") && !v.trim_end().contains('/'), "{v:?}");
        }
        for v in of(Dirt::DashRun) {
            assert!(v.contains(['\u{AD}', '\u{2010}']), "{v:?}");
        }
        for v in of(Dirt::TrailingSlash) {
            assert!(v.trim_end().ends_with('/'), "{v:?}");
        }
        for v in of(Dirt::SpaceAfterHost) {
            assert!(v.contains("/ "), "{v:?}");
        }
        for v in of(Dirt::DspaceUrl) {
            assert!(v.contains("ui/handle/") || v.contains("/bitstream/handle/"), "{v:?}");
        }
        for v in of(Dirt::MultipleValues) {
            let v = v.trim();
            assert!(v.contains(['|', ',', ';', ' ', '\n']), "{v:?}");
        }
    }

    #[test]
    fn v2_values_file_round_trips() {
        let mut out = Vec::new();
        write_values(&mut out, 20_000, 9, Mix::V2).unwrap();
        let text = std::str::from_utf8(&out).unwrap();
        assert_eq!(text.lines().count(), 20_000, "one line a value");
        assert!(text.lines().any(|l| l.starts_with('"')), "some values quoted");
        let back = values_file::parse(&out).unwrap();
        let generated = values(9, 20_000);
        assert_eq!(back.len(), generated.len());
        for (b, (g, _)) in back.iter().zip(&generated) {
            assert_eq!(&b[..], g.as_bytes());
        }
    }
}
