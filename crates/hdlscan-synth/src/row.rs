//! One row of a synthetic export ([`Row`]: its record id, identifier,
//! title, date, type and collection) and the [`Layout`]s it is written in:
//! every writer (CSV here, Parquet in `hdlscan gen`) takes its columns,
//! their order and their names from one [`Layout`].

use crate::Synth;
use crate::tables::{COLLECTIONS, DC_TYPES, TITLE_TAILS, TITLE_WORDS};
use crate::text::push_num;

/// One export row.
#[derive(Debug, Default, Clone)]
pub struct Row {
    /// The record's number, from 1.
    pub id: u64,
    /// The identifier value, from [`Synth::next_identifier`].
    pub identifier: String,
    /// A title, with the odd comma, quote or line break.
    pub title: String,
    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
    pub date_issued: String,
    /// A DSpace item type (`Article`, `Thesis`, …).
    pub dc_type: &'static str,
    /// One DSpace collection handle, or two joined by `||`.
    pub collection: String,
}

/// A column of a [`Row`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// [`Row::id`], a number.
    Id,
    /// [`Row::identifier`].
    Identifier,
    /// [`Row::title`].
    Title,
    /// [`Row::date_issued`].
    DateIssued,
    /// [`Row::dc_type`].
    Type,
    /// [`Row::collection`].
    Collection,
}

/// The columns of an export, in order, each with its header name.
#[derive(Debug, Clone, Copy)]
pub struct Layout(pub &'static [(&'static str, Column)]);

impl Layout {
    /// What `hdlscan gen` writes (CSV and Parquet).
    pub const GEN: Layout = Layout(&[
        ("record_id", Column::Id),
        ("identifier", Column::Identifier),
        ("title", Column::Title),
        ("date_issued", Column::DateIssued),
        ("type", Column::Type),
        ("collection", Column::Collection),
    ]);

    /// A DSpace metadata export: `testdata/sample_export.csv` and the big
    /// test inputs ([`crate::csv::write_csv`]).
    pub const DSPACE: Layout = Layout(&[
        ("id", Column::Id),
        ("collection", Column::Collection),
        ("dc.title", Column::Title),
        ("dc.date.issued", Column::DateIssued),
        ("dc.type", Column::Type),
        ("dc.identifier.uri", Column::Identifier),
    ]);

    /// The header names, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        self.0.iter().map(|&(name, _)| name)
    }

    /// The columns, in order.
    pub fn columns(&self) -> impl Iterator<Item = Column> {
        self.0.iter().map(|&(_, column)| column)
    }
}

impl Row {
    /// The text of `column`; `None` for [`Column::Id`], a number.
    pub fn text(&self, column: Column) -> Option<&str> {
        match column {
            Column::Id => None,
            Column::Identifier => Some(&self.identifier),
            Column::Title => Some(&self.title),
            Column::DateIssued => Some(&self.date_issued),
            Column::Type => Some(self.dc_type),
            Column::Collection => Some(&self.collection),
        }
    }
}

impl Synth {
    /// Fills `row` with the next export row (`record_id` is the `id` column).
    pub fn next_row(&mut self, record_id: u64, row: &mut Row) {
        row.id = record_id;
        row.collection.clear();
        row.collection.push_str(self.rng.pick(COLLECTIONS));
        if self.rng.chance(50) {
            row.collection.push_str("||");
            row.collection.push_str(self.rng.pick(COLLECTIONS));
        }
        self.title(&mut row.title);
        self.date(&mut row.date_issued);
        row.dc_type = self.rng.from_table(&DC_TYPES);
        self.next_identifier(&mut row.identifier);
    }

    fn title(&mut self, t: &mut String) {
        let r = &mut self.rng;
        t.clear();
        let quoted = r.chance(30);
        let n = r.range(3, 14);
        let comma_at = if r.chance(200) { r.range(1, n - 1) } else { u64::MAX };
        let quote_at = quoted.then(|| r.range(0, n - 2));
        for i in 0..n {
            if i > 0 {
                t.push(' ');
            }
            if Some(i) == quote_at {
                t.push('"');
            }
            let w = r.pick(TITLE_WORDS);
            if i == 0 {
                let mut cs = w.chars();
                if let Some(c0) = cs.next() {
                    t.extend(c0.to_uppercase());
                    t.push_str(cs.as_str());
                }
            } else {
                t.push_str(w);
            }
            if quote_at.is_some_and(|q| i == q + 1) {
                t.push('"');
            }
            if i == comma_at {
                t.push(',');
            }
        }
        if r.chance(150) {
            t.push_str(r.pick(TITLE_TAILS));
        }
        if r.chance(5) {
            // The odd title pasted with a line break (LF only: the files
            // have LF line ends throughout).
            t.push('\n');
            t.push_str("Part ");
            push_num(t, r.range(1, 4), 0);
        }
    }

    fn date(&mut self, d: &mut String) {
        let r = &mut self.rng;
        d.clear();
        // Skewed to recent years.
        let year = 2024 - (r.below(35) * r.below(35) / 35).min(74);
        push_num(d, year, 4);
        // The year alone 4 times in 10, with its month 2, with a day 4.
        let precision = r.below(10);
        if precision >= 4 {
            d.push('-');
            push_num(d, r.range(1, 12), 2);
        }
        if precision >= 6 {
            d.push('-');
            push_num(d, r.range(1, 28), 2);
        }
    }
}
