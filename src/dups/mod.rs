//! Duplicate clusters: every valid value sharing a canonical with another.
//!
//! - [`variant`]: how a member's value differs from its cluster's first.

pub mod variant;

pub use variant::Variant;
