//! Input and output files; no identifier parsing here.
//!
//! - [`error`]: [`error::PositionedError`], the one error of CSV, JSON,
//!   Parquet and Arrow input, with its file and [`error::Position`].
//! - [`format`](mod@format): the one [`format::Format`] of a table file,
//!   from its name or its first bytes.
//! - [`source`]: where an input's bytes come from: files and stdin, opened,
//!   decompressed (gzip, zstd) and sniffed.
//! - [`split`]: the quote-aware CSV record-boundary finder (no I/O).
//! - [`csv_in`]: CSV/TSV input cut into blocks of whole records by a
//!   sequential reader, each parsed independently into a columnar
//!   [`csv_in::RowBlock`].
//! - [`parquet_in`]: Parquet input, one row group at a time (only the leaf
//!   columns a run needs), and access to the identifier column whatever its
//!   string type.
//! - [`sheet`]: spreadsheets (`.xlsx`, `.xls`, `.ods`) read as the CSV
//!   they would export.
//! - [`sink`]: enriched output as Parquet, CSV, TSV or Arrow IPC.
//! - [`magic`]: what a file's first bytes say it is (gzip, zstd, Parquet,
//!   Arrow IPC, a spreadsheet, PDF, HTML, JSON), whatever its name.
//! - [`atomic`]: output written to a hidden temporary file beside the target
//!   and renamed onto it only when complete; cleanup on drop and on
//!   interrupt ([`atomic::remove_all_temp_files`]).

pub mod atomic;
pub mod csv_in;
pub mod error;
pub mod format;
pub mod jsonl;
pub mod magic;
pub mod nested;
pub mod parquet_in;
mod record;
pub mod sheet;
pub mod sink;
pub mod source;
pub mod split;

/// Column names for an error message: at most 20, each cut to 60
/// characters, so a 100,000-column header or a 100 MB name cannot flood
/// stderr, and control characters escaped (`\u{1b}`), so a header cannot
/// drive the terminal.
pub fn describe_columns<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    const SHOWN: usize = 20;
    const WIDTH: usize = 60;
    let total = names.len();
    if total == 0 {
        return "none".to_string();
    }
    let mut out = String::new();
    for (i, name) in names.take(SHOWN).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        for (n, c) in name.chars().enumerate() {
            if n == WIDTH {
                out.push('…');
                break;
            }
            if c.is_control() {
                out.extend(c.escape_debug());
            } else if c != ' ' && crate::report::visible(c.encode_utf8(&mut [0; 4])).len() > c.len_utf8() {
                // A no-break space or an invisible character: shown, so two
                // names that look alike can be told apart.
                out.push_str(&crate::report::visible(c.encode_utf8(&mut [0; 4])));
            } else {
                out.push(c);
            }
        }
    }
    if total > SHOWN {
        out.push_str(&format!(", … and {} more", total - SHOWN));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn describe_columns_is_short() {
        let names: Vec<String> = (0..100_000).map(|i| format!("col{i}")).collect();
        let s = super::describe_columns(names.iter().map(String::as_str));
        assert!(s.ends_with(", … and 99980 more"), "{s}");
        let long = "x".repeat(1000);
        assert_eq!(
            super::describe_columns([long.as_str()].into_iter()),
            format!("{}…", "x".repeat(60))
        );
        assert_eq!(
            super::describe_columns(["a\u{1b}[31mb", "c\nd"].into_iter()),
            "a\\u{1b}[31mb, c\\nd"
        );
        assert_eq!(super::describe_columns(std::iter::empty()), "none");
    }
}
