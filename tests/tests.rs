//! The one integration-test binary (as in ripgrep): each module tests one
//! area through the public API or the built `hdlscan` binary.

mod browser;
mod diff;
mod duplicates;
mod encodings;
mod faults;
mod formats_in;
mod gates;
mod gen_bench;
mod headers;
mod hostile;
mod inputs;
mod jsonl;
mod nested;
mod parse_cli;
mod real;
mod reports;
mod scan;
mod types_out;
mod values;
