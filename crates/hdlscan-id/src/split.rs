//! Cells into values (SPEC §6 "Splitting cells"): at a separator the user
//! names (`--split '||'`, DSpace's), or, with `--split` alone, at SPEC §6's
//! separators of a cell that is `multiple_values`.
//!
//! A cell that is not split is one value as it stands (its whitespace
//! too: `trimmed` is still reported). A cell that is split gives its
//! pieces without the whitespace around each separator and at the cell's
//! ends, which belong to the separators; empty pieces are not values. So
//! the pieces and the separators between them, joined, give back the
//! cell, and no piece is empty.
//!
//! ```
//! use hdlscan_id::{Options, Parser, Scratch, Split};
//! let parser = Parser::new(Options::default());
//! let mut scratch = Scratch::default();
//! let cell = b"http://hdl.handle.net/1721.1/5||http://dx.doi.org/10.1000/182";
//! let mut pieces = Vec::new();
//! Split::at("||").unwrap().pieces(&parser, cell, &mut scratch, &mut pieces);
//! assert_eq!(pieces, [0..30, 32..cell.len()]);
//! Split::Auto.pieces(&parser, b"10.1/x, 10.1/y", &mut scratch, &mut pieces);
//! assert_eq!(pieces, [0..6, 8..14]);
//! ```

use super::codes::{ErrorCode, Warning};
use super::pieces::{Cut, Pieces};
use super::{Parser, Scratch, chars};
use std::ops::Range;

/// Where cells are cut into values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Split {
    /// At SPEC §6's separators, in cells that are `multiple_values` only.
    Auto,
    /// At every occurrence of this (non-empty) string.
    At(Vec<u8>),
}

impl Split {
    /// Splitting at `sep`; `auto` (any case) means [`Split::Auto`].
    pub fn at(sep: &str) -> Result<Split, String> {
        if sep.eq_ignore_ascii_case("auto") {
            return Ok(Split::Auto);
        }
        if sep.is_empty() {
            return Err("the separator is empty; give one such as '||', or 'auto'".into());
        }
        Ok(Split::At(sep.as_bytes().to_vec()))
    }

    /// Replaces `out` with the byte ranges of `cell`'s values, in order.
    /// An empty cell has none; a cell that is not split has one, itself.
    pub fn pieces(&self, parser: &Parser, cell: &[u8], scratch: &mut Scratch, out: &mut Vec<Range<usize>>) {
        out.clear();
        if cell.is_empty() {
            return;
        }
        let Split::At(sep) = self else {
            return auto(parser, cell, scratch, out);
        };
        at(cell, sep, out);
    }
}

/// The pieces of a `multiple_values` cell (a repaired one too: its pieces
/// are values of their own), or the cell whole.
fn auto(parser: &Parser, cell: &[u8], scratch: &mut Scratch, out: &mut Vec<Range<usize>>) {
    let p = parser.parse(cell, scratch);
    let several = p.error == Some(ErrorCode::MultipleValues) || p.warnings.contains(Warning::MultipleValues);
    match std::str::from_utf8(cell) {
        Ok(s) if several => {
            let t = chars::trim_bytes(cell);
            let from = t.as_ptr() as usize - cell.as_ptr() as usize;
            let t = &s[from..from + t.len()];
            out.extend(Pieces::new(t, Cut::All, parser.options()).map(|r| r.start + from..r.end + from));
        }
        _ => out.push(0..cell.len()),
    }
}

/// The pieces of `cell` between occurrences of `sep`, trimmed.
fn at(cell: &[u8], sep: &[u8], out: &mut Vec<Range<usize>>) {
    if memchr::memmem::find(cell, sep).is_none() {
        out.push(0..cell.len());
        return;
    }
    let mut start = 0;
    let ends = memchr::memmem::find_iter(cell, sep).chain(std::iter::once(cell.len()));
    let mut last_end = 0;
    for i in ends {
        // Occurrences overlapping the one before (`|||` at `||`) are part
        // of that separator.
        if i < last_end {
            continue;
        }
        let piece = chars::trim_bytes(&cell[start..i]);
        if !piece.is_empty() {
            let a = piece.as_ptr() as usize - cell.as_ptr() as usize;
            out.push(a..a + piece.len());
        }
        last_end = i + sep.len();
        start = last_end.min(cell.len());
    }
}

#[cfg(test)]
mod tests {
    use super::super::Options;
    use super::*;

    fn split(how: &Split, cell: &str) -> Vec<String> {
        let parser = Parser::new(Options::default());
        let mut out = Vec::new();
        how.pieces(&parser, cell.as_bytes(), &mut Scratch::default(), &mut out);
        out.into_iter().map(|r| cell[r].to_string()).collect()
    }

    #[test]
    fn at_a_separator() {
        let bars = Split::at("||").unwrap();
        assert_eq!(split(&bars, "a || b||c"), ["a", "b", "c"]);
        assert_eq!(split(&bars, "||a||||b||"), ["a", "b"]);
        assert_eq!(split(&bars, "a|||b"), ["a", "|b"]);
        assert_eq!(split(&bars, " 10.1/x "), [" 10.1/x "]);
        assert_eq!(split(&bars, "||"), Vec::<String>::new());
        assert_eq!(split(&bars, ""), Vec::<String>::new());
        assert!(Split::at("").is_err());
        assert_eq!(Split::at("AUTO"), Ok(Split::Auto));
    }

    #[test]
    fn auto_splits_only_multiple_values() {
        assert_eq!(
            split(&Split::Auto, "hdl:1721.1/5 || DOI: 10.1000/182"),
            ["hdl:1721.1/5", "DOI: 10.1000/182"]
        );
        assert_eq!(split(&Split::Auto, " 10.1/x and 10.1/y\n"), ["10.1/x", "10.1/y"]);
        // One identifier with text: one value, as it stands.
        assert_eq!(split(&Split::Auto, "10.1000/182 see also"), ["10.1000/182 see also"]);
        let sici = "10.1002/(SICI)1098-2736(199908)36:6<637::AID-TEA4>3.0.CO;2-9";
        assert_eq!(split(&Split::Auto, sici), [sici]);
        assert_eq!(split(&Split::Auto, "  "), ["  "]);
    }
}
