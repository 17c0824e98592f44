//! One row as a diff sees it: its key (the `--key` cells, encoded into one
//! byte string) and the four of SPEC's columns it compares (`kind`,
//! `canonical`, `error`, `warnings`), read into a reused [`RowBuf`]; and
//! the [`Vocab`] that makes OLD's codes small numbers (see `join`).
//!
//! Cells are compared as text, so CSV and Parquet compare alike: a null
//! cell is an empty one, as CSV writes it; `warnings` is a set (split at
//! `;` in CSV, a list in Parquet), kept sorted and joined with `;`.

use crate::spill::Table;

/// Where a row is: its data row in the file and `scan`'s record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    pub row: u64,
    pub record: Option<u64>,
}

/// A row being read. Its buffers are reused from row to row.
#[derive(Debug, Default, Clone)]
pub struct RowBuf {
    /// 1-based data row of the file (the header not counted).
    pub row: u64,
    /// `scan`'s `record` (the input record the row came from), when the
    /// file has that column and the cell is a number.
    pub record: Option<u64>,
    /// The key cells, each as a 4-byte little-endian length and its bytes.
    pub key: Vec<u8>,
    pub kind: String,
    /// Empty for none (null or empty cell).
    pub canonical: String,
    pub error: String,
    /// The warning codes, sorted, without repeats, joined with `;`.
    pub warnings: String,
}

impl RowBuf {
    /// Starts the next row: counts it, and clears the key.
    pub fn next_row(&mut self) {
        self.row += 1;
        self.key.clear();
    }

    /// Appends one key cell (a null as empty).
    pub fn push_key(&mut self, cell: &[u8]) {
        let len = u32::try_from(cell.len()).unwrap_or(u32::MAX);
        self.key.extend_from_slice(&len.to_le_bytes());
        self.key.extend_from_slice(&cell[..len as usize]);
    }

    /// The row's values as a [`Side`].
    pub fn side(&self) -> Side<'_> {
        Side {
            record: self.record,
            kind: &self.kind,
            canonical: &self.canonical,
            error: &self.error,
            warnings: &self.warnings,
        }
    }
}

/// Sets `out` to the warning codes in `cells` (each cell may hold several
/// joined with `;`), sorted and without repeats.
pub fn normalize_warnings<'a>(cells: impl Iterator<Item = &'a str>, out: &mut String) {
    out.clear();
    let mut codes: Vec<&str> = cells.flat_map(|c| c.split(';')).filter(|c| !c.is_empty()).collect();
    if codes.len() > 1 {
        codes.sort_unstable();
        codes.dedup();
    }
    for (i, c) in codes.iter().enumerate() {
        if i > 0 {
            out.push(';');
        }
        out.push_str(c);
    }
}

/// The cells of an encoded key (see [`RowBuf::key`]).
pub fn key_cells(key: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = key;
    std::iter::from_fn(move || {
        let (len, tail) = rest.split_first_chunk::<4>()?;
        let len = u32::from_le_bytes(*len) as usize;
        let (cell, tail) = tail.split_at(len);
        rest = tail;
        Some(cell)
    })
}

/// Longest key cell shown in a message, in characters.
const SHOWN: usize = 60;

/// `id=42, column=dc.identifier.uri`: a key for messages, each cell cut to
/// 60 characters and its invisible characters escaped.
pub fn describe_key(names: &[String], key: &[u8]) -> String {
    use crate::report::visible;
    let describe = |(name, cell): (&String, &[u8])| {
        let text = String::from_utf8_lossy(cell);
        let mut shown: String = text.chars().take(SHOWN).collect();
        if shown.len() < text.len() {
            shown.push('…');
        }
        format!("{}={}", visible(name), visible(&shown))
    };
    let cells: Vec<String> = names.iter().zip(key_cells(key)).map(describe).collect();
    cells.join(", ")
}

/// One side of a change: what OLD or NEW holds for a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Side<'a> {
    pub record: Option<u64>,
    pub kind: &'a str,
    /// Empty for none.
    pub canonical: &'a str,
    /// Empty for none.
    pub error: &'a str,
    /// Sorted codes joined with `;`; empty for none.
    pub warnings: &'a str,
}

impl Side<'_> {
    /// Valid as `scan` counts it: any kind but `invalid` (an `empty` or
    /// `placeholder` value is invalid).
    pub fn valid(&self) -> bool {
        self.kind != crate::id::Kind::Invalid.as_str()
    }
}

/// Distinct strings (kinds, error codes, warning sets) as small numbers,
/// so that each of OLD's rows holds three `u32`s instead of three strings.
/// Id 0 is the empty string.
#[derive(Debug)]
pub struct Vocab(Table<()>);

impl Default for Vocab {
    fn default() -> Self {
        let mut v = Vocab(Table::default());
        // An empty table has room.
        v.id("");
        v
    }
}

impl Vocab {
    /// `None`: the table is full.
    pub fn id(&mut self, s: &str) -> Option<u32> {
        let (i, _) = self
            .0
            .find_or_push(crate::spill::hash(s.as_bytes()), s.as_bytes(), || ())?;
        Some(i as u32)
    }

    /// The heap memory held.
    pub fn heap_bytes(&self) -> usize {
        self.0.bytes()
    }

    pub fn name(&self, id: u32) -> &str {
        // Pushed as a `&str`: always UTF-8.
        std::str::from_utf8(self.0.key(id as usize)).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_cannot_run_together() {
        let mut r = RowBuf::default();
        r.push_key(b"a;b");
        r.push_key(b"");
        r.push_key(b"c");
        let cells: Vec<&[u8]> = key_cells(&r.key).collect();
        assert_eq!(cells, [&b"a;b"[..], b"", b"c"]);
        let mut other = RowBuf::default();
        other.push_key(b"a");
        other.push_key(b";b");
        other.push_key(b"c");
        assert_ne!(r.key, other.key);
        let names = ["id".to_string(), "column".into(), "value_index".into()];
        assert_eq!(describe_key(&names, &r.key), "id=a;b, column=, value_index=c");
    }

    #[test]
    fn warnings_are_a_set() {
        let mut out = String::new();
        normalize_warnings(["trimmed;legacy_resolver", "trimmed"].into_iter(), &mut out);
        assert_eq!(out, "legacy_resolver;trimmed");
        normalize_warnings(std::iter::once(""), &mut out);
        assert_eq!(out, "");
    }

    #[test]
    fn long_key_cells_are_cut_in_messages() {
        let mut r = RowBuf::default();
        r.push_key("é".repeat(100).as_bytes());
        let shown = describe_key(&["v\n".to_string()], &r.key);
        assert_eq!(shown, format!("v\\u000a={}…", "é".repeat(60)));
    }
}
