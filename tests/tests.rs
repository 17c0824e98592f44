//! The one integration-test binary (as in ripgrep): each module tests one
//! area through the public API or the built `hdlscan` binary.

mod conformance;
mod faults;
mod gen_bench;
mod hostile;
mod laws;
mod parse_cli;
mod scan;
