//! What a file's first bytes say it is, whatever its name: gzip, zstd,
//! Parquet, Arrow IPC, and the formats users save in place of a CSV export
//! ([`NotCsv`]: a ZIP archive or an Office file that is no readable
//! spreadsheet, PDF, HTML, JSON, JSON Lines).
//! [`super::source::open_input`] sniffs every CSV
//! input (and the start of what a compressed one decompresses to), and
//! [`super::parquet_in::ParquetInput::open`] a file whose footer did not
//! load, so a file in a format hdlscan does not read is named as such
//! instead of being read as garbage rows or failing with "Corrupt footer".

/// Bytes enough to tell the binary formats here apart.
pub const HEAD_LEN: usize = 8;
/// Bytes looked at for the text formats (HTML, JSON): enough for a JSON
/// Lines record and the start of the next.
pub const SNIFF_LEN: usize = 16 << 10;

pub fn is_gzip(head: &[u8]) -> bool {
    head.starts_with(&[0x1f, 0x8b])
}

pub fn is_zstd(head: &[u8]) -> bool {
    // Zstandard frame, or a skippable frame (0x184D2A5?).
    head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd])
        || (head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18])
}

pub fn is_parquet(head: &[u8]) -> bool {
    head.starts_with(b"PAR1")
}

/// Arrow IPC: the file format starts with `ARROW1` and two bytes of zero
/// padding (the padding keeps a CSV header `ARROW1,…` from matching); the
/// stream format
/// (what `pa.ipc.new_stream` writes) with the continuation marker
/// 0xFFFFFFFF and the first message's length. Four 0xFF bytes are never
/// the start of text in any encoding (UTF-16's BOM is FF FE), so the
/// marker alone cannot be a CSV file. The pre-0.15 stream format, which
/// starts with the length itself, is not recognized.
pub fn is_arrow_ipc(head: &[u8]) -> bool {
    head.starts_with(b"ARROW1\0\0") || (head.len() >= HEAD_LEN && head[..4] == [0xff; 4])
}

/// A format read as CSV by its name that is something else, told by its
/// first bytes, with what to do about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotCsv {
    /// `PK\x03\x04`: a ZIP archive, which is what .xlsx and .ods are (those
    /// `source` reads through `sheet`).
    Zip,
    /// `D0 CF 11 E0`: an OLE compound file, as .xls and old .doc are.
    OldOffice,
    /// `%PDF-`.
    Pdf,
    /// `<!DOCTYPE html`, `<html`, `<head`, `<body`: a web page, often a
    /// login or error page saved in place of the export.
    Html,
    /// A JSON document (an array of records, or a record over several
    /// lines).
    Json,
    /// One JSON value a line.
    JsonLines,
}

impl NotCsv {
    /// What the file is, as a noun: "JSON Lines".
    pub fn noun(self) -> &'static str {
        match self {
            NotCsv::Zip => "a ZIP archive that holds no spreadsheet calamine reads (.xlsx, .ods are read as CSV)",
            NotCsv::OldOffice => "an Office file that is no Excel workbook calamine reads (.xls is read as CSV)",
            NotCsv::Pdf => "a PDF document",
            NotCsv::Html => "an HTML page",
            NotCsv::Json => "JSON",
            NotCsv::JsonLines => "JSON Lines",
        }
    }

    /// What to do about it.
    pub fn advice(self) -> &'static str {
        match self {
            NotCsv::Zip => "unzip it, or save it as CSV (UTF-8) from the program that made it",
            NotCsv::OldOffice => "save it as CSV (UTF-8) from the program that made it",
            NotCsv::Pdf => "export the table as CSV where it came from",
            NotCsv::Html => "a login or error page saved in place of the export? download the export again",
            NotCsv::Json => {
                "read it with --input-format jsonl, adding --records KEY when its records are an array under a key \
                 (--records '[]' when they are the whole document)"
            }
            NotCsv::JsonLines => "read it with --input-format jsonl (or name it .jsonl)",
        }
    }
}

/// What `head` (a file's first bytes, as many as were read) is when it is
/// one of the formats of [`NotCsv`]; `None` for anything that may be CSV.
pub fn not_csv(head: &[u8]) -> Option<NotCsv> {
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") || head.starts_with(b"PK\x07\x08") {
        return Some(NotCsv::Zip);
    }
    if head.starts_with(&[0xd0, 0xcf, 0x11, 0xe0]) {
        return Some(NotCsv::OldOffice);
    }
    if head.starts_with(b"%PDF-") {
        return Some(NotCsv::Pdf);
    }
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head).trim_ascii_start();
    let starts = |tag: &[u8]| text.len() >= tag.len() && text[..tag.len()].eq_ignore_ascii_case(tag);
    if [&b"<!doctype html"[..], b"<html", b"<head", b"<body"]
        .into_iter()
        .any(starts)
    {
        return Some(NotCsv::Html);
    }
    json(text)
}

/// JSON or JSON Lines: `text` (white space skipped) opens with `{` or `[`
/// and its first value parses, or runs past the end of `text` without a
/// syntax error; a line of CSV that opens so is not JSON.
fn json(text: &[u8]) -> Option<NotCsv> {
    let first = *text.first()?;
    if first != b'{' && first != b'[' {
        return None;
    }
    let mut values = serde_json::Deserializer::from_slice(text).into_iter::<serde::de::IgnoredAny>();
    match values.next()? {
        Ok(_) => {
            let end = values.byte_offset();
            let line_end = memchr::memchr(b'\n', &text[end..]).map_or(text.len(), |n| end + n);
            if !text[end..line_end].iter().all(u8::is_ascii_whitespace) {
                return None; // `{"a":1},x`: a CSV line after all
            }
            let one_line = !text[..end].contains(&b'\n');
            let next = text[line_end..].iter().find(|b| !b.is_ascii_whitespace());
            match (one_line, first, next) {
                (true, b'{', _) | (true, b'[', Some(b'[')) => Some(NotCsv::JsonLines),
                _ => Some(NotCsv::Json),
            }
        }
        // Cut off by the end of what was read: a record longer than that.
        Err(e) if e.is_eof() => Some(if first == b'{' && !text.contains(&b'\n') {
            NotCsv::JsonLines
        } else {
            NotCsv::Json
        }),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_csv_formats() {
        let cases: &[(&[u8], Option<NotCsv>)] = &[
            (b"PK\x03\x04\x14\x00\x06\x00[Content_Types].xml", Some(NotCsv::Zip)),
            (b"PK\x05\x06\0\0", Some(NotCsv::Zip)),
            (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", Some(NotCsv::OldOffice)),
            (b"%PDF-1.7\n", Some(NotCsv::Pdf)),
            (b"\n  <!DOCTYPE HTML>\n<html>", Some(NotCsv::Html)),
            (b"\xef\xbb\xbf<html lang=en>", Some(NotCsv::Html)),
            (b"{\"id\":1,\"doi\":\"10.1/x\"}\n{\"id\":2}\n", Some(NotCsv::JsonLines)),
            (b"{\"id\":1}", Some(NotCsv::JsonLines)),
            (b"{\"id\":1,\"abstract\":\"a very long rec", Some(NotCsv::JsonLines)),
            (b"[1,2]\n[3,4]\n", Some(NotCsv::JsonLines)),
            (b"[\n  {\"id\": 1},\n  {\"id\": 2}\n]\n", Some(NotCsv::Json)),
            (b"[{\"id\": 1}, {\"id\": 2}]", Some(NotCsv::Json)),
            (b"{\n  \"records\": [\n", Some(NotCsv::Json)),
            // CSV that merely opens with a brace or a bracket, or mentions HTML.
            (b"[id],[doi]\n1,10.1/x\n", None),
            (b"{\"a\":1},x\n", None),
            (b"{id,doi\n", None),
            (b"id,html\n<html>,x\n", None),
            (b"PK,doi\n", None),
            (b"id,doi\n", None),
            (b"", None),
        ];
        for (head, want) in cases {
            assert_eq!(not_csv(head), *want, "{}", String::from_utf8_lossy(head));
        }
    }

    #[test]
    fn formats() {
        assert!(is_arrow_ipc(b"ARROW1\0\0\xff\xff\xff\xff"));
        assert!(is_arrow_ipc(b"\xff\xff\xff\xff\x78\0\0\0\x10\0"));
        assert!(!is_arrow_ipc(b"\xff\xff\xff\xff"), "too short to hold a length");
        assert!(!is_arrow_ipc(b"ARROW1,id\n1,10.1/x\n"));
        assert!(!is_arrow_ipc(b"\xff\xfea\0,\0"));
        assert!(is_parquet(b"PAR1\x15\x04"));
    }
}
