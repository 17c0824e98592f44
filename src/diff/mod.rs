//! `hdlscan diff`: what changed between two enriched outputs of `scan`
//! (last night's and tonight's), by key.
//!
//! - [`layout`]: the key columns and SPEC's columns in a header; the shape.
//! - [`row`]: a row's key and compared cells; OLD's compact form.
//! - [`change`]: the six changes and the rule that classifies a pair.

pub mod change;
pub mod layout;
pub mod row;

pub use change::Change;
pub use layout::{Layout, LayoutError, Shape};
