//! The delimiter of a CSV whose header, read with the one expected, is
//! one column: the common other delimiters (`;` in OpenAPC's German and
//! Czech files, a tab, `|`) tried on the header record, as DuckDB and
//! Polars users expect. Here rather than in `io::source`, since the header
//! is read once decoded to UTF-8 and cut quote-aware.

/// The delimiters tried, in order of preference when two split alike.
pub const SNIFFED: [u8; 3] = [b';', b'\t', b'|'];

/// The delimiter that splits `header` (one record, read as one field
/// with `given`) into the most fields, if any splits it; `quoting` as
/// the input is read.
pub(super) fn delimiter(header: &[u8], given: u8, quoting: bool) -> Option<u8> {
    let mut best: Option<(u8, usize)> = None;
    for d in SNIFFED.into_iter().filter(|&d| d != given && header.contains(&d)) {
        let n = super::reader::first_record_fields(header, d, quoting).map_or(0, |f| f.len());
        if n > 1 && best.is_none_or(|(_, m)| n > m) {
            best = Some((d, n));
        }
    }
    best.map(|(d, _)| d)
}

/// A delimiter as messages and `--delimiter` name it: what to show, and
/// what to type.
pub fn delimiter_name(d: u8) -> (String, String) {
    match d {
        b'\t' => ("a tab".into(), "tab".into()),
        d => (format!("'{}'", d as char), format!("'{}'", d as char)),
    }
}

#[cfg(test)]
mod tests {
    use super::delimiter;

    #[test]
    fn the_delimiter_that_splits_the_header() {
        assert_eq!(delimiter(b"institution;period;euro;doi", b',', true), Some(b';'));
        assert_eq!(delimiter(b"a\tb\tc", b',', true), Some(b'\t'));
        assert_eq!(delimiter(b"a|b;c|d", b',', true), Some(b'|'));
        assert_eq!(delimiter(b"doi", b',', true), None);
        // Inside quotes it splits nothing.
        assert_eq!(delimiter(b"\"a;b\"", b',', true), None);
        assert_eq!(delimiter(b"a;b", b';', true), None);
    }
}
