//! What a file's first bytes say it is, whatever its name: gzip, zstd,
//! Parquet or Arrow IPC. [`super::csv_in::open_input`] sniffs every CSV
//! input (and the start of what a compressed one decompresses to), and
//! [`super::parquet_in::ParquetInput::open`] a file whose footer did not
//! load, so a file in a format hdlscan does not read is named as such
//! instead of being read as garbage rows or failing with "Corrupt footer".

/// Bytes enough to tell every format here apart.
pub const HEAD_LEN: usize = 8;

/// What an Arrow IPC input is told (after its name and `: `).
pub const ARROW_IPC: &str = "an Arrow IPC file; hdlscan reads CSV, TSV and Parquet (convert it, e.g. with pyarrow)";

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

/// "gzip" or "zstd" when `head` starts a compressed stream.
pub fn compression_name(head: &[u8]) -> Option<&'static str> {
    if is_gzip(head) {
        Some("gzip")
    } else if is_zstd(head) {
        Some("zstd")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert!(is_arrow_ipc(b"ARROW1\0\0\xff\xff\xff\xff"));
        assert!(is_arrow_ipc(b"\xff\xff\xff\xff\x78\0\0\0\x10\0"));
        assert!(!is_arrow_ipc(b"\xff\xff\xff\xff"), "too short to hold a length");
        assert!(!is_arrow_ipc(b"ARROW1,id\n1,10.1/x\n"));
        assert!(!is_arrow_ipc(b"\xff\xfea\0,\0"));
        assert!(is_parquet(b"PAR1\x15\x04"));
        assert_eq!(compression_name(&[0x1f, 0x8b, 8, 0]), Some("gzip"));
        assert_eq!(compression_name(&[0x28, 0xb5, 0x2f, 0xfd]), Some("zstd"));
        assert_eq!(compression_name(b"a,b\n"), None);
    }
}
