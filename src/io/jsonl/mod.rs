//! JSON Lines input (`.jsonl`, `.ndjson`, `.json` holding one object a
//! line, and `.gz` / `.zst` of them: OpenAlex, DataCite and other dumps),
//! and JSON documents whose records are an array under a key (Crossref's
//! `{"items": [...]}`, `--records items`). The shape is `csv_in`'s: a
//! sequential reader cuts the input into blocks of whole records with
//! `memchr`, and each block is parsed on its own, in parallel.
//!
//! - [`path`]: [`JsonPath`], what `--column`, `--keep` and `--records`
//!   take (`doi`, `ids.doi`, `locations[].landing_page_url`, or a JSON
//!   Pointer `/a.b/c` for keys holding dots), and [`PathSet`], the run's
//!   paths as one tree.
//! - [`options`]: how input is cut and how strictly it is read
//!   ([`JsonlOptions`]).
//! - [`reader`]: [`JsonlBlockReader`], which cuts [`RawLines`] blocks.
//! - `document`: with `--records`, the walk through streaming documents
//!   to the array of records, element by element.
//! - [`records`]: [`parse_block`] and its result, [`JsonRecords`]: per
//!   record its line and, per path, a list of values.
//! - [`scan`]: the JSON scanner under `parse_block`: checks each record
//!   and takes out the named values, without building a tree.
//! - `reach`: [`Reach`], the places of the paths any record reached, so
//!   a path that reaches nothing (a typo) is an error naming the keys seen.
//!
//! No schema is inferred: every record is walked for every path, so a key
//! first seen on the last line is read like one seen on the first. A
//! missing key and `null` give no value (the caller counts one empty
//! value); `[]` gives one value per list element.
//!
//! Private to the crate, so not a doctest (`examples/jsonl_throughput.rs`
//! runs this loop under the `internals` feature):
//!
//! ```ignore
//! use hdlscan::io::source::InputSpec;
//! use hdlscan::io::jsonl::{parse_block, JsonPath, JsonlBlockReader, JsonlOptions, PathSet};
//! use rayon::prelude::*;
//!
//! let paths = PathSet::new(&[JsonPath::parse("doi")?, JsonPath::parse("locations[].landing_page_url")?]);
//! let opts = JsonlOptions::default().with_skip_bad_lines(true);
//! let mut rdr = JsonlBlockReader::open(&InputSpec::parse("works.jsonl.gz"), opts.clone())?;
//! let mut raws = Vec::new();
//! while let Some(raw) = rdr.next_block()? {
//!     raws.push(raw);
//! }
//! let blocks: Vec<_> = raws.par_iter().map(|r| parse_block(r, &paths, &opts)).collect();
//! for block in blocks {
//!     let block = block?;
//!     for r in 0..block.len() {
//!         for url in block.values(r, 1) {
//!             println!("line {}: {}", block.line(r), String::from_utf8_lossy(url));
//!         }
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod document;
pub mod options;
pub mod path;
mod reach;
pub mod reader;
pub mod records;
pub mod scan;

pub use options::JsonlOptions;
pub use path::{JsonPath, PathSet, Step};
pub use reach::Reach;
pub use reader::{JsonlBlockReader, RawLines};
pub use records::{JsonRecords, parse_block};

#[cfg(test)]
mod tests;
