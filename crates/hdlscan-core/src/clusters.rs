//! The duplicate clusters in numbers, as the report shows them: made by the
//! CLI's duplicates engine, by an engine elsewhere (a Spark `groupBy`)
//! that finds the same clusters, or by [`group`], which finds them among
//! values held in memory (the Python package's `Report`). Plain data: every field is defined here,
//! so another engine can fill it.
//!
//! A *record* is an input file's record: `(At::input, At::record)`. A
//! *cluster* is a canonical (SPEC §3) held by valid values of two records
//! or more, across columns and inputs. The same canonical repeated inside
//! one record (a DOI in `dc.identifier.doi` and in `dc.identifier.uri` of
//! the same row) is that record being consistent, not a duplicate: it is
//! counted in [`Repeated`] and makes no cluster by itself.

use crate::at::At;
use crate::id::Warnings;
use crate::report::example_text;
use crate::variant::{Variant, variant};
use foldhash::HashMap;

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
    /// duplicates file's order: its first [`TOP`].
    pub top: Vec<TopCluster>,
}

/// Valid values whose canonical their own record holds already:
/// `groupBy(input, record, canonical)` with `count >= 2`. The report's
/// `repeated_in_record` as it is serialized.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Its first members in order of appearance ([`TOP_MEMBERS`]).
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

/// Clusters the report lists.
pub const TOP: usize = 20;
/// Members shown for each of them.
pub const TOP_MEMBERS: usize = 10;

/// A valid value as the clusters see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Its canonical (SPEC §3): what clusters share.
    pub canonical: String,
    /// Where it was read: the order of appearance.
    pub at: At,
    /// The value as read.
    pub value: Vec<u8>,
    /// The parser's warnings on it, for its variant.
    pub warnings: Warnings,
}

/// Groups `members` (in any order) into the clusters of the duplicates
/// engine: a cluster is a canonical held by two records or more; its first
/// member is the earliest by place; the top clusters are those of most
/// records, then the first seen, each with its [`TOP_MEMBERS`] first
/// members and their variant against the first (`repair`: whether the
/// values were parsed with `--repair`). A canonical a record holds twice
/// is counted in [`Summary::repeated_in_record`]. Everything is in
/// memory: for values that fit there.
pub fn group(members: &mut [Member], repair: bool) -> Summary {
    members.sort_by_key(|m| m.at);
    /// A canonical's values and records, its first member's index, and
    /// whether its members span inputs or columns.
    struct Group {
        count: u64,
        records: u64,
        last_record: (u32, u64),
        first: usize,
        across_inputs: bool,
        across_columns: bool,
    }
    let mut groups: HashMap<&str, Group> = HashMap::default();
    let mut repeated = Repeated::default();
    let mut repeats_in_this_record = false;
    for (i, m) in members.iter().enumerate() {
        let record = (m.at.input, m.at.record);
        if i == 0 || (members[i - 1].at.input, members[i - 1].at.record) != record {
            repeats_in_this_record = false;
        }
        let g = groups.entry(m.canonical.as_str()).or_insert(Group {
            count: 0,
            records: 0,
            last_record: (u32::MAX, u64::MAX),
            first: i,
            across_inputs: false,
            across_columns: false,
        });
        let first = &members[g.first].at;
        g.count += 1;
        // A record's members are consecutive (sorted by place).
        if g.last_record == record {
            repeated.values += 1;
            repeated.records += u64::from(!std::mem::replace(&mut repeats_in_this_record, true));
        } else {
            g.last_record = record;
            g.records += 1;
        }
        g.across_inputs |= first.input != m.at.input;
        g.across_columns |= first.column != m.at.column;
    }
    let mut summary = Summary {
        values: members.len() as u64,
        unique: groups.len() as u64,
        repeated_in_record: repeated,
        ..Summary::default()
    };
    let mut clusters: Vec<&Group> = groups.values().filter(|g| g.records >= 2).collect();
    for g in &clusters {
        summary.clusters += 1;
        summary.values_in_clusters += g.count;
        summary.records_in_clusters += g.records;
        summary.across_inputs += u64::from(g.across_inputs);
        summary.across_columns += u64::from(g.across_columns);
    }
    clusters.sort_by_key(|g| (std::cmp::Reverse(g.records), g.first));
    clusters.truncate(TOP);
    let slot: HashMap<&str, usize> = clusters
        .iter()
        .enumerate()
        .map(|(k, g)| (members[g.first].canonical.as_str(), k))
        .collect();
    summary.top = clusters
        .iter()
        .map(|g| TopCluster {
            canonical: members[g.first].canonical.clone(),
            count: g.count,
            records: g.records,
            first: members[g.first].at,
            members: Vec::new(),
        })
        .collect();
    for m in members.iter() {
        let Some(&k) = slot.get(m.canonical.as_str()) else {
            continue;
        };
        let first = &members[clusters[k].first];
        let top = &mut summary.top[k];
        if top.members.len() < TOP_MEMBERS {
            top.members.push(TopMember {
                at: m.at,
                value: example_text(&m.value),
                variant: variant(&m.value, m.warnings, &first.value, first.warnings, repair),
            });
        }
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::{Options, Parser, Rendered, Scratch};

    fn members(values: &[(u32, &str)]) -> Vec<Member> {
        let parser = Parser::new(Options::default());
        let (mut sc, mut r) = (Scratch::default(), Rendered::default());
        let mut out = Vec::new();
        for (i, (column, v)) in values.iter().enumerate() {
            let p = parser.parse(v.as_bytes(), &mut sc);
            parser.render(&p, &mut r);
            if let Some(c) = r.canonical() {
                out.push(Member {
                    canonical: c.to_string(),
                    at: At {
                        input: 0,
                        record: i as u64 + 1,
                        line: None,
                        column: *column,
                        value_index: 1,
                    },
                    value: v.as_bytes().to_vec(),
                    warnings: p.warnings,
                });
            }
        }
        out
    }

    #[test]
    fn clusters_are_shared_canonicals_largest_first() {
        let values = [
            (0, "10.1000/a"),
            (0, "10.1000/b"),
            (1, "https://doi.org/10.1000/B"),
            (0, "N/A"),
            (0, "doi:10.1000/A"),
            (0, "10.1000/b"),
            (0, "10.1000/c"),
        ];
        let mut m = members(&values);
        let s = group(&mut m, false);
        assert_eq!((s.values, s.unique, s.clusters, s.values_in_clusters), (6, 3, 2, 5));
        assert_eq!((s.across_inputs, s.across_columns), (0, 1));
        let top: Vec<(&str, u64, u64)> = s
            .top
            .iter()
            .map(|c| (c.canonical.as_str(), c.count, c.first.record))
            .collect();
        assert_eq!(top, [("10.1000/b", 3, 2), ("10.1000/a", 2, 1)]);
        let variants: Vec<Variant> = s.top[0].members.iter().map(|m| m.variant).collect();
        assert_eq!(variants, [Variant::Same, Variant::Form, Variant::Same]);
        // Any order of the members gives the same clusters.
        m.reverse();
        assert_eq!(group(&mut m, false), s);
    }
}
