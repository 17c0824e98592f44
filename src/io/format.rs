//! The file formats hdlscan reads and writes, told from a file's name
//! ([`Format::from_path`]) or its first bytes ([`Format::sniff`]). Each
//! command takes the ones it handles: `scan` reads CSV, TSV, Parquet and
//! JSON Lines (the format from the name or `--input-format`; the first
//! bytes only refuse a file that is something else, `io::magic`) and
//! writes CSV, TSV, Parquet, Arrow and JSON Lines; `diff` reads what
//! `scan` writes, by name or first bytes; `gen` writes CSV, Parquet and
//! JSON Lines.

use super::magic;
use std::path::Path;

/// A table's file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values.
    Csv,
    /// Tab-separated values.
    Tsv,
    /// Apache Parquet.
    Parquet,
    /// Arrow IPC, file or stream.
    Arrow,
    /// JSON Lines (`.jsonl`, `.ndjson`, `.json`), or with `--records` JSON
    /// documents holding an array of records.
    Jsonl,
}

impl Format {
    /// By the name's extension, any case, as hdlscan names what it
    /// writes (an output's format: no compression looked through); `None`
    /// for any other name.
    pub fn from_path(path: &Path) -> Option<Format> {
        Format::by_extension(path, false)
    }

    /// An input's format by its name, looking through `.gz` and `.zst`:
    /// the extensions of [`Format::from_path`], and the short `.pq` and
    /// `.tab`, and `.json` (a JSON document holds records too, under
    /// `--records`).
    pub fn from_input_path(path: &Path) -> Option<Format> {
        Format::by_extension(path, true)
    }

    fn by_extension(path: &Path, input: bool) -> Option<Format> {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        let name = match input {
            true => name
                .strip_suffix(".gz")
                .or_else(|| name.strip_suffix(".zst"))
                .unwrap_or(&name),
            false => &name,
        };
        Some(match (name.rsplit_once('.')?.1, input) {
            ("csv", _) => Format::Csv,
            ("tsv", _) | ("tab", true) => Format::Tsv,
            ("parquet", _) | ("pq", true) => Format::Parquet,
            ("arrow" | "ipc" | "feather", _) | ("arrows", true) => Format::Arrow,
            ("jsonl" | "ndjson", _) | ("json", true) => Format::Jsonl,
            _ => return None,
        })
    }

    /// The binary formats, by a file's first bytes: Parquet and Arrow IPC.
    /// `None` for anything else, which may be text.
    pub fn sniff(head: &[u8]) -> Option<Format> {
        if magic::is_parquet(head) {
            Some(Format::Parquet)
        } else if magic::is_arrow_ipc(head) {
            Some(Format::Arrow)
        } else {
            None
        }
    }

    /// The name the command line and messages use.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Tsv => "tsv",
            Format::Parquet => "parquet",
            Format::Arrow => "arrow",
            Format::Jsonl => "jsonl",
        }
    }

    /// Parquet's and Arrow IPC's name in messages: "Parquet", "Arrow IPC".
    pub fn columnar_name(self) -> &'static str {
        match self {
            Format::Arrow => "Arrow IPC",
            _ => "Parquet",
        }
    }

    /// Parquet and Arrow IPC: typed columns read batch by batch, with no
    /// header line, delimiter or records to pad; paths reach into their
    /// structs and lists.
    pub fn is_columnar(self) -> bool {
        matches!(self, Format::Parquet | Format::Arrow)
    }

    /// CSV's field delimiter for this format: a tab for TSV.
    pub fn delimiter(self) -> u8 {
        match self {
            Format::Tsv => b'\t',
            _ => b',',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Format;
    use std::path::Path;

    #[test]
    fn from_path() {
        let f = |p: &str| Format::from_path(Path::new(p));
        let input = |p: &str| Format::from_input_path(Path::new(p));
        assert_eq!(f("a/b.parquet"), Some(Format::Parquet));
        assert_eq!(f("x.CSV"), Some(Format::Csv));
        assert_eq!(f("x.tsv"), Some(Format::Tsv));
        assert_eq!(f("x.ipc"), Some(Format::Arrow));
        assert_eq!(f("x.feather"), Some(Format::Arrow));
        assert_eq!(f("x.NDJSON"), Some(Format::Jsonl));
        assert_eq!(f("x.json"), None);
        assert_eq!(f("x.pq"), None);
        assert_eq!(f("x.csv.gz"), None);
        assert_eq!(f("parquet"), None);
        assert_eq!(input("x.tab.gz"), Some(Format::Tsv));
        assert_eq!(input("x.pq.zst"), Some(Format::Parquet));
        assert_eq!(input("x.json"), Some(Format::Jsonl));
        assert_eq!(input("x"), None);
        assert_eq!(input("x.txt"), None);
        assert_eq!(Format::from_path(Path::new("x.jsonl")), Some(Format::Jsonl));
        assert_eq!(Format::from_path(Path::new("x.arrow")), Some(Format::Arrow));
        assert_eq!(Format::sniff(b"PAR1\x15"), Some(Format::Parquet));
        assert_eq!(Format::sniff(b"ARROW1\0\0"), Some(Format::Arrow));
        assert_eq!(Format::sniff(b"id,doi"), None);
    }
}
