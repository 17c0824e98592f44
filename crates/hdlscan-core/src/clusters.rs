//! The duplicate clusters in numbers, as the report shows them: made by the
//! CLI's duplicates engine, or by an engine elsewhere (a Spark `groupBy`)
//! that finds the same clusters.

use crate::at::At;
use crate::variant::Variant;

/// The duplicate clusters in numbers, for the report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Valid values pushed.
    pub values: u64,
    /// Distinct canonicals among them.
    pub unique: u64,
    /// Canonicals shared by two values or more.
    pub clusters: u64,
    /// Values in those clusters.
    pub values_in_clusters: u64,
    /// Clusters holding values from more than one input.
    pub across_inputs: u64,
    /// Clusters holding values from more than one column (by column index:
    /// the `columns` names given to [`Grouped::write`]).
    pub across_columns: u64,
    /// The largest clusters, in the file's order (`Options::top` of them).
    pub top: Vec<TopCluster>,
}

/// One of the largest clusters.
#[derive(Debug, Clone, PartialEq)]
pub struct TopCluster {
    /// Its canonical (SPEC §3).
    pub canonical: String,
    /// Its members.
    pub count: u64,
    /// Where its first member was read.
    pub first: At,
    /// Its first members in order of appearance (`Options::top_members`).
    pub members: Vec<TopMember>,
}

/// A member of a top cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct TopMember {
    /// Where it was read.
    pub at: At,
    /// Lossy UTF-8, cut at 200 bytes and marked `…`.
    pub value: String,
    /// How it differs from the cluster's first member.
    pub variant: Variant,
}
