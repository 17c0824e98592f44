//! OpenAlex-like JSON Lines: what `hdlscan gen -o FILE.jsonl` writes, one
//! work a line, nested as OpenAlex nests it:
//!
//! ```text
//! {"id":"https://openalex.org/W1","doi":…,"title":…,"publication_date":…,"type":…,
//!  "ids":{"openalex":"https://openalex.org/W1","doi":…},
//!  "primary_location":{"landing_page_url":…,"source":{"issn_l":…}},
//!  "locations":[{"landing_page_url":…,"is_oa":…},…],"collection":…}
//! ```
//!
//! `doi` and `ids.doi` are the identifier of the CSV row with the same seed
//! and number ([`Synth::next_row`], so the same mix of forms and dirt, and
//! `scan -c doi` on the JSON Lines counts what `scan -c identifier` counts
//! on the CSV); an empty one is written `null`. The 1 to 3 locations'
//! `landing_page_url`s are drawn from a second generator of the same mix
//! (seed `seed ^ LOCATIONS_SEED`), the structure (how many locations, the
//! ISSN, which `ids` lack their DOI) from a third, so neither disturbs the
//! rows. About 5% of the `ids` have no `doi`, about 30% of the sources a
//! `null` `issn_l`, and `related_handle` appears on about 1 work in 1,000,
//! so a reader that guessed a schema from the first lines would lose it.

use crate::text::{decimal, write_buffered};
use crate::{Row, SplitMix64, Synth};
use std::io::{self, Write};

/// Mixed into the seed of the locations' generator.
const LOCATIONS_SEED: u64 = 0x4a53_4f4e_4c4f_4301;
/// Mixed into the seed of the structure's random source.
const SHAPE_SEED: u64 = 0x4a53_4f4e_5348_5001;

/// Generates works; each call of [`Works::next_work`] appends one line.
pub struct Works {
    rows: Synth,
    locations: Synth,
    shape: SplitMix64,
    row: Row,
    url: String,
}

impl Works {
    /// The works of `seed`.
    pub fn new(seed: u64) -> Works {
        Works {
            rows: Synth::new(seed),
            locations: Synth::new(seed ^ LOCATIONS_SEED),
            shape: SplitMix64::new(seed ^ SHAPE_SEED),
            row: Row::default(),
            url: String::with_capacity(128),
        }
    }

    /// Appends work `id` as one line, LF-terminated.
    pub fn next_work(&mut self, id: u64, out: &mut Vec<u8>) {
        self.rows.next_row(id, &mut self.row);
        let row = &self.row;
        let mut num = [0u8; 20];
        let w = decimal(id, &mut num);
        out.extend_from_slice(b"{\"id\":\"https://openalex.org/W");
        out.extend_from_slice(w.as_bytes());
        out.extend_from_slice(b"\",\"doi\":");
        push_str_or_null(out, &row.identifier);
        out.extend_from_slice(b",\"title\":");
        push_str(out, &row.title);
        out.extend_from_slice(b",\"publication_date\":");
        push_str(out, &row.date_issued);
        out.extend_from_slice(b",\"type\":");
        push_str(out, row.dc_type);
        out.extend_from_slice(b",\"ids\":{\"openalex\":\"https://openalex.org/W");
        out.extend_from_slice(w.as_bytes());
        out.push(b'"');
        if !self.shape.chance(50) {
            out.extend_from_slice(b",\"doi\":");
            push_str_or_null(out, &row.identifier);
        }
        out.extend_from_slice(b"},\"primary_location\":{\"landing_page_url\":");
        let locations = self.shape.range(1, 3);
        self.locations.next_identifier(&mut self.url);
        push_str_or_null(out, &self.url);
        out.extend_from_slice(b",\"source\":{\"issn_l\":");
        if self.shape.chance(300) {
            out.extend_from_slice(b"null");
        } else {
            let issn = self.shape.below(10_000_000);
            let _ = write!(out, "\"{:04}-{:03}{}\"", issn / 1000, issn % 1000, issn % 10);
        }
        out.extend_from_slice(b"}},\"locations\":[");
        for i in 0..locations {
            if i > 0 {
                out.push(b',');
                self.locations.next_identifier(&mut self.url);
            }
            out.extend_from_slice(b"{\"landing_page_url\":");
            push_str_or_null(out, &self.url);
            out.extend_from_slice(if self.shape.chance(400) {
                b",\"is_oa\":true}"
            } else {
                b",\"is_oa\":false}"
            });
        }
        out.extend_from_slice(b"],\"collection\":");
        push_str(out, &row.collection);
        if self.shape.chance(1) {
            out.extend_from_slice(b",\"related_handle\":\"hdl:20.500.12345/");
            out.extend_from_slice(w.as_bytes());
            out.push(b'"');
        }
        out.extend_from_slice(b"}\n");
    }
}

fn push_str(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("a str serializes");
}

fn push_str_or_null(out: &mut Vec<u8>, s: &str) {
    if s.is_empty() {
        out.extend_from_slice(b"null");
    } else {
        push_str(out, s);
    }
}

/// Writes `n_rows` works (ids `1..=n_rows`) to `w`.
pub fn write_jsonl<W: Write>(mut w: W, n_rows: u64, seed: u64) -> io::Result<()> {
    let mut works = Works::new(seed);
    write_buffered(&mut w, 1..=n_rows, |id, buf| works.next_work(id, buf))?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn lines_are_json_objects_with_the_csv_identifiers() {
        let mut out = Vec::new();
        write_jsonl(&mut out, 3000, 7).unwrap();
        let mut synth = Synth::new(7);
        let mut row = Row::default();
        let (mut locations, mut late) = (0, 0);
        for (i, line) in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).enumerate() {
            let v: Value = serde_json::from_slice(line).unwrap();
            synth.next_row(i as u64 + 1, &mut row);
            let doi = v["doi"].as_str().unwrap_or("");
            assert_eq!(doi, row.identifier);
            assert_eq!(v["title"], row.title.as_str());
            assert_eq!(v["ids"]["openalex"], format!("https://openalex.org/W{}", i + 1));
            if let Some(d) = v["ids"].get("doi") {
                assert_eq!(d.as_str().unwrap_or(""), row.identifier);
            }
            let locs = v["locations"].as_array().unwrap();
            assert!((1..=3).contains(&locs.len()));
            assert_eq!(v["primary_location"]["landing_page_url"], locs[0]["landing_page_url"]);
            locations += locs.len();
            late += v.get("related_handle").is_some() as usize;
        }
        assert!((5000..7000).contains(&locations), "{locations}");
        assert!(late > 0);
        let mut again = Vec::new();
        write_jsonl(&mut again, 3000, 7).unwrap();
        assert_eq!(out, again, "same seed, same bytes");
    }
}
