//! The duplicate clusters in numbers, as the report shows them: made by the
//! CLI's duplicates engine, or by an engine elsewhere (a Spark `groupBy`)
//! that finds the same clusters. Plain data: every field is defined here,
//! so another engine can fill it.
//!
//! A *record* is an input file's record: `(At::input, At::record)`. A
//! *cluster* is a canonical (SPEC §3) held by valid values of two records
//! or more, across columns and inputs. The same canonical repeated inside
//! one record (a DOI in `dc.identifier.doi` and in `dc.identifier.uri` of
//! the same row) is that record being consistent, not a duplicate: it is
//! counted in [`Repeated`] and makes no cluster by itself.

use crate::at::At;
use crate::variant::Variant;

/// The duplicate clusters in numbers, for the report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Valid values pushed (every value with a canonical).
    pub values: u64,
    /// Distinct canonicals among them.
    pub unique: u64,
    /// Canonicals held by two records or more: `groupBy(canonical)` with
    /// `count(distinct (input, record)) >= 2`.
    pub clusters: u64,
    /// Valid values in those clusters, a record's repeats included.
    pub values_in_clusters: u64,
    /// Records in those clusters: each cluster's distinct records, summed
    /// (a record in two clusters counts in each).
    pub records_in_clusters: u64,
    /// Clusters holding values from more than one input.
    pub across_inputs: u64,
    /// Clusters holding values from more than one column (by column index:
    /// the `columns` names given to the duplicates file's writer).
    pub across_columns: u64,
    /// A canonical repeated inside one record, clusters or not.
    pub repeated_in_record: Repeated,
    /// The largest clusters (by records, then first appearance), in the
    /// duplicates file's order: its `top` first.
    pub top: Vec<TopCluster>,
}

/// Valid values whose canonical their own record holds already:
/// `groupBy(input, record, canonical)` with `count >= 2`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Repeated {
    /// Values beyond the first of their canonical in their record
    /// (`count - 1` of each such group, summed).
    pub values: u64,
    /// Records holding at least one canonical twice or more.
    pub records: u64,
}

impl std::ops::AddAssign for Repeated {
    fn add_assign(&mut self, o: Repeated) {
        self.values += o.values;
        self.records += o.records;
    }
}

/// One of the largest clusters.
#[derive(Debug, Clone, PartialEq)]
pub struct TopCluster {
    /// Its canonical (SPEC §3).
    pub canonical: String,
    /// Its members: the values holding the canonical.
    pub count: u64,
    /// The distinct records holding them: the cluster's size.
    pub records: u64,
    /// Where its first member was read.
    pub first: At,
    /// Its first members in order of appearance (`Options::top_members`).
    pub members: Vec<TopMember>,
}

/// A member of a top cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct TopMember {
    /// Where it was read (its record among them).
    pub at: At,
    /// Lossy UTF-8, cut at 200 bytes and marked `…`.
    pub value: String,
    /// How it differs from the cluster's first member.
    pub variant: Variant,
}
