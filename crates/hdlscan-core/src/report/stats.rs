//! What a run counts: `Stats` of separate blocks merge with `+=`, per
//! column and in total. Examples are the earliest values by place ([`At`]),
//! whatever order blocks are counted or merged in: a Spark job's
//! partitions, merged as they finish, choose the examples a scan does.
//! `Stats` serialize (serde) so that a worker's can travel to the merge.

use super::tally::Tally;
use crate::at::At;
use crate::id::{ErrorCode, Kind, Parsed, Warning};
use serde::{Deserialize, Serialize};
use std::ops::AddAssign;

/// Examples kept per error or warning code.
pub const EXAMPLES: usize = 5;
/// Longest example value kept, in bytes (longer ones are cut, marked `…`).
const EXAMPLE_MAX: usize = 200;

/// One code's count and its first examples.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CodeStats {
    /// Values with the code.
    pub count: u64,
    /// The first of them by place, each value once, in that order.
    pub examples: Vec<Example>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
/// An example value and where it was read.
pub struct Example {
    /// Where it was read.
    pub at: At,
    /// The value as read (lossy UTF-8, cut).
    pub value: String,
}

/// A value as an example shows it: lossy UTF-8, cut at `EXAMPLE_MAX`
/// bytes (on a character boundary) and marked `…`.
pub fn example_text(raw: &[u8]) -> String {
    let mut cut = raw.len().min(EXAMPLE_MAX);
    while cut < raw.len() && cut > 0 && (raw[cut] & 0xC0) == 0x80 {
        cut -= 1;
    }
    let mut value = String::from_utf8_lossy(&raw[..cut]).into_owned();
    if cut < raw.len() {
        value.push('…');
    }
    value
}

impl CodeStats {
    /// Counts one value.
    fn add(&mut self, at: At, raw: &[u8]) {
        self.count += 1;
        self.offer(at, || example_text(raw));
    }

    /// Keeps `value` read at `at` if it is among the [`EXAMPLES`] earliest
    /// distinct values: a value counts once, at its earliest place (ten
    /// rows of one repeated `N/A` say less than five different values).
    /// The kept ones stay in order of place, so offering values in any
    /// order keeps the same ones; in place order (a scan's), a full list
    /// turns every later value away with one comparison.
    fn offer(&mut self, at: At, value: impl FnOnce() -> String) {
        if self.examples.len() >= EXAMPLES && self.examples.last().is_some_and(|l| l.at <= at) {
            return;
        }
        let value = value();
        if let Some(i) = self.examples.iter().position(|e| e.value == value) {
            if at < self.examples[i].at {
                self.examples.remove(i);
            } else {
                return;
            }
        }
        let i = self.examples.partition_point(|e| e.at < at);
        self.examples.insert(i, Example { at, value });
        self.examples.truncate(EXAMPLES);
    }
}

impl AddAssign<&CodeStats> for CodeStats {
    fn add_assign(&mut self, o: &CodeStats) {
        self.count += o.count;
        for e in &o.examples {
            self.offer(e.at, || e.value.clone());
        }
    }
}

/// The counts of one chosen column.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ColumnStats {
    /// Cells read.
    pub cells: u64,
    /// Values read.
    pub values: u64,
    /// Values of each kind, by `Kind as usize`.
    pub by_kind: [u64; Kind::ALL.len()],
    /// Per error code, by `ErrorCode as usize`.
    pub errors: Vec<u64>,
    /// Per warning code, by `Warning as usize`.
    pub warnings: Vec<u64>,
}

impl ColumnStats {
    fn new() -> ColumnStats {
        ColumnStats {
            errors: vec![0; ErrorCode::ALL.len()],
            warnings: vec![0; Warning::ALL.len()],
            ..Default::default()
        }
    }

    /// Values that are neither `empty` nor `placeholder`: the denominator
    /// of `valid_of_present`.
    pub fn present(&self) -> u64 {
        self.values - self.errors[ErrorCode::Empty as usize] - self.errors[ErrorCode::Placeholder as usize]
    }

    /// Valid values: every kind but `invalid`, `empty` and `placeholder`.
    pub fn valid(&self) -> u64 {
        self.values - self.by_kind[Kind::Invalid as usize]
    }
}

impl AddAssign<&ColumnStats> for ColumnStats {
    fn add_assign(&mut self, o: &ColumnStats) {
        self.cells += o.cells;
        self.values += o.values;
        add_each(&mut self.by_kind, &o.by_kind);
        add_each(&mut self.errors, &o.errors);
        add_each(&mut self.warnings, &o.warnings);
    }
}

/// Adds each of `b` to its counterpart in `a`.
fn add_each<T: for<'a> AddAssign<&'a T>>(a: &mut [T], b: &[T]) {
    for (a, b) in a.iter_mut().zip(b) {
        *a += b;
    }
}

/// Everything counted about a set of values.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Stats {
    /// Data records read.
    pub records: u64,
    /// The cells, values and codes of each chosen column, in the run's
    /// column order; the totals are their sums.
    pub columns: Vec<ColumnStats>,
    /// Examples of every code, over all columns.
    pub errors: Vec<CodeStats>,
    /// Examples of every warning, over all columns.
    pub warnings: Vec<CodeStats>,
    /// Values per namespace.
    pub namespaces: Tally,
    /// Values per prefix.
    pub prefixes: Tally,
    /// Values per resolver host.
    pub resolvers: Tally,
    /// Input cells, the identifier columns' included, whose invalid UTF-8
    /// was replaced (U+FFFD) in Parquet/Arrow output.
    pub lossy_cells: u64,
    /// Short rows padded with empty fields (`--allow-short-rows`).
    pub padded_rows: u64,
    /// JSON lines that were not one record, skipped (`--skip-bad-lines`),
    /// and the first few of them, described.
    pub skipped_lines: u64,
    /// The first skipped lines, described.
    pub bad_lines: Vec<String>,
}

/// Bad lines described in the report.
const BAD_LINES_SHOWN: usize = 5;

impl Stats {
    /// Stats of `columns` chosen columns.
    pub fn new(columns: usize) -> Stats {
        Stats {
            columns: vec![ColumnStats::new(); columns],
            errors: vec![CodeStats::default(); ErrorCode::ALL.len()],
            warnings: vec![CodeStats::default(); Warning::ALL.len()],
            ..Default::default()
        }
    }

    /// Counts one cell of chosen column `column` (its values are counted
    /// by [`Stats::value`]).
    #[inline]
    pub fn cell(&mut self, column: usize) {
        self.columns[column].cells += 1;
    }

    /// Counts one classified value. `canonical` is the rendered canonical
    /// form (`None` for invalid values).
    pub fn value(&mut self, at: At, raw: &[u8], p: &Parsed<'_>, canonical: Option<&str>) {
        let col = &mut self.columns[at.column as usize];
        col.values += 1;
        col.by_kind[p.kind as usize] += 1;
        if let Some(e) = p.error {
            col.errors[e as usize] += 1;
            self.errors[e as usize].add(at, raw);
        }
        for w in p.warnings.iter() {
            col.warnings[w as usize] += 1;
            self.warnings[w as usize].add(at, raw);
        }
        // Identifiers by namespace: not SPEC §8's `bad_check_digit` and
        // `bad_pid`, which keep the namespace of what they failed to be.
        if let Some(ns) = p.namespace
            && !matches!(p.error, Some(ErrorCode::BadCheckDigit | ErrorCode::BadPid))
        {
            self.namespaces.bump(ns);
        }
        if let Some(r) = p.resolver {
            self.resolvers.bump(r);
        }
        if let Some(c) = canonical
            && p.prefix.is_some()
            && let Some(slash) = first_slash(c.as_bytes())
        {
            self.prefixes.bump(&c[..slash]);
        }
    }

    /// The sum of every column's counts.
    pub fn total(&self) -> ColumnStats {
        let mut t = ColumnStats::new();
        for c in &self.columns {
            t += c;
        }
        t
    }
}

/// The first `/` of `c`. A prefix is a few bytes: eight at a time, where
/// a `char` searcher would be set up for every value and a byte walk
/// takes a step a byte. Not `chars::find_byte`: its set-up for the
/// parser's haystacks (a tail word, memchr past 64 bytes) costs more here
/// than this loop saves (docs/performance.md).
#[inline]
fn first_slash(c: &[u8]) -> Option<usize> {
    const BYTES: u64 = 0x0101_0101_0101_0101;
    let mut i = 0;
    while let Some(chunk) = c.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("eight bytes")) ^ (u64::from(b'/') * BYTES);
        // The lowest byte flagged is the first zero byte of `w`: a flag
        // is wrong only above a zero byte, through its borrow.
        let zero = w.wrapping_sub(BYTES) & !w & (0x80 * BYTES);
        if zero != 0 {
            return Some(i + zero.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    c[i..].iter().position(|&b| b == b'/').map(|p| i + p)
}

impl AddAssign<Stats> for Stats {
    fn add_assign(&mut self, mut o: Stats) {
        self.records += o.records;
        if self.columns.len() < o.columns.len() {
            self.columns.resize(o.columns.len(), ColumnStats::new());
        }
        add_each(&mut self.columns, &o.columns);
        if self.errors.is_empty() {
            self.errors = vec![CodeStats::default(); ErrorCode::ALL.len()];
            self.warnings = vec![CodeStats::default(); Warning::ALL.len()];
        }
        add_each(&mut self.errors, &o.errors);
        add_each(&mut self.warnings, &o.warnings);
        self.namespaces += std::mem::take(&mut o.namespaces);
        self.prefixes += std::mem::take(&mut o.prefixes);
        self.resolvers += std::mem::take(&mut o.resolvers);
        self.lossy_cells += o.lossy_cells;
        self.padded_rows += o.padded_rows;
        self.skipped_lines += o.skipped_lines;
        let room = BAD_LINES_SHOWN.saturating_sub(self.bad_lines.len());
        self.bad_lines.extend(o.bad_lines.drain(..).take(room));
    }
}

/// One input file as the report lists it (`run.inputs`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InputInfo {
    /// The input, as named.
    pub path: String,
    /// Its format's name.
    pub format: String,
    /// Its size in bytes (0 for stdin).
    pub bytes: u64,
    /// Its data records.
    pub records: u64,
    /// CSV/TSV read in another encoding than UTF-8: which, and how many
    /// byte sequences were not valid in it. The report says it in its
    /// notes, not here.
    #[serde(skip)]
    pub decoding: Option<Decoding>,
}

/// How a text input was decoded when not as UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decoding {
    /// The encoding's canonical name (`windows-1252`, `UTF-16LE`).
    pub encoding: &'static str,
    /// Byte sequences not valid in it, each decoded as one U+FFFD.
    pub malformed: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::{Options, Parser, Rendered, Scratch};

    fn at(record: u64) -> At {
        At {
            input: 0,
            record,
            line: Some(record + 1),
            column: 0,
            value_index: 1,
        }
    }

    fn stats_of(values: &[&str], first_record: u64) -> Stats {
        let parser = Parser::new(Options::default());
        let (mut sc, mut r) = (Scratch::default(), Rendered::default());
        let mut st = Stats::new(1);
        for (i, v) in values.iter().enumerate() {
            let p = parser.parse(v.as_bytes(), &mut sc);
            parser.render(&p, &mut r);
            st.records += 1;
            st.cell(0);
            st.value(at(first_record + i as u64), v.as_bytes(), &p, r.canonical());
        }
        st
    }

    #[test]
    fn merged_stats_equal_stats_of_the_whole() {
        let vals = [
            "10.1000/A",
            "https://doi.org/10.1000/a",
            "N/A",
            "1721.1/5",
            "hdl:1721.1/5",
            "10.1000",
            "n/a",
        ];
        let whole = stats_of(&vals, 1);
        let mut merged = stats_of(&vals[..3], 1);
        merged += stats_of(&vals[3..], 4);
        assert_eq!(whole.columns, merged.columns);
        assert_eq!(whole.errors, merged.errors);
        assert_eq!(whole.warnings, merged.warnings);
        assert_eq!(whole.prefixes, merged.prefixes);
        assert_eq!(whole.resolvers, merged.resolvers);
        let t = whole.total();
        assert_eq!((t.cells, t.values, t.present(), t.valid()), (7, 7, 5, 4));
        let ph = &whole.errors[ErrorCode::Placeholder as usize];
        assert_eq!(ph.count, 2);
        assert_eq!(ph.examples[1].at, at(7));
        assert_eq!(whole.resolvers["doi.org"], 1);
    }

    #[test]
    fn examples_prefer_distinct_values() {
        let vals = ["N/A", "N/A", "NA", "N/A", "none", "n/a", "N/A", "-", "no doi"];
        let mut st = stats_of(&vals[..3], 1);
        st += stats_of(&vals[3..], 4);
        let ex: Vec<(u64, &str)> = st.errors[ErrorCode::Placeholder as usize]
            .examples
            .iter()
            .map(|e| (e.at.record, e.value.as_str()))
            .collect();
        assert_eq!(ex, [(1, "N/A"), (3, "NA"), (5, "none"), (6, "n/a"), (8, "-")]);
    }

    #[test]
    fn examples_do_not_depend_on_merge_order() {
        let vals = [
            "N/A", "x", "N/A", "NA", "10.1000", "none", "n/a", "-", "no doi", "NA", "y", "1721.1",
        ];
        let whole = stats_of(&vals, 1);
        // Blocks of 1 to 3 values, merged in several shuffled orders.
        let blocks: Vec<Stats> = [0, 2, 3, 6, 7, 9, 12]
            .windows(2)
            .map(|w| stats_of(&vals[w[0]..w[1]], w[0] as u64 + 1))
            .collect();
        for order in [[5, 4, 3, 2, 1, 0], [2, 0, 5, 1, 4, 3], [3, 5, 0, 4, 2, 1]] {
            let mut merged = Stats::default();
            for i in order {
                merged += blocks[i].clone();
            }
            assert_eq!(merged.errors, whole.errors, "order {order:?}");
            assert_eq!(merged.warnings, whole.warnings, "order {order:?}");
            assert_eq!(merged.columns, whole.columns, "order {order:?}");
        }
    }

    #[test]
    fn stats_travel_as_json() {
        let st = stats_of(&["N/A", "10.1000/a", "doi:10.1000/A"], 1);
        let back: Stats = serde_json::from_str(&serde_json::to_string(&st).unwrap()).unwrap();
        assert_eq!(
            (back.columns, back.errors, back.prefixes),
            (st.columns, st.errors, st.prefixes)
        );
    }

    #[test]
    fn first_slash_is_the_first() {
        for c in [
            "",
            "/",
            "10.1016/j",
            "10.1016",
            "2027.42/1",
            "20.500.12345/6",
            "12345678/",
            "123456789/a/b",
            "a\u{2f}/",
            "\u{e9}\u{e9}\u{e9}\u{e9}/x",
            "////////",
            "1234567/",
            "12345678901234567890",
        ] {
            assert_eq!(first_slash(c.as_bytes()), c.find('/'), "{c:?}");
        }
        // Every position in keys of every length up to 24, and bytes one
        // off the slash (its borrow's neighbours).
        for n in 0..24 {
            for at in 0..=n {
                let mut k: Vec<u8> = (0..n).map(|i| [b'.', b'0', 0x2e, 0x30, 0xaf][i % 5]).collect();
                if at < n {
                    k[at] = b'/';
                }
                assert_eq!(first_slash(&k), k.iter().position(|&b| b == b'/'), "{k:?}");
            }
        }
    }

    #[test]
    fn example_text_cuts_on_a_character_boundary() {
        let long = "é".repeat(150);
        let t = example_text(long.as_bytes());
        assert!(t.ends_with('…') && !t.contains('\u{fffd}'), "{t}");
        assert_eq!(example_text(b"10.1/x"), "10.1/x");
    }
}
