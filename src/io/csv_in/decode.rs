//! The input's text encoding: bytes in the encoding `--encoding` names, or
//! that a UTF-16 byte-order mark says, decoded to UTF-8 once, while
//! streaming, before records are split (so a delimiter, quote or line
//! break is found in text, not in UTF-16's bytes).
//!
//! UTF-8, the default, is not decoded at all: its bytes go through as they
//! are, and invalid ones are the classifier's `bad_utf8` and the writer's
//! `lossy_cells`, as before. Any other encoding goes through encoding_rs's
//! streaming [`Decoder`] in chunks of [`CHUNK`] bytes, so memory stays
//! bounded whatever the file's size; each byte sequence that is not valid in
//! the encoding becomes one U+FFFD and is counted ([`Decoding::malformed`]).

use std::fmt;
use std::io::{self, Read};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::report::Decoding;
use encoding_rs::{Decoder, DecoderResult, Encoding};

/// A text encoding of CSV input, by its WHATWG label (`utf-8`,
/// `windows-1252`, `latin1`, `utf-16le`, …: what browsers accept, so
/// `latin1` and `iso-8859-1` are windows-1252, as in every browser).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TextEncoding(&'static Encoding);

impl TextEncoding {
    /// UTF-8, the default.
    pub const UTF_8: TextEncoding = TextEncoding(encoding_rs::UTF_8);
    /// Windows-1252 (what `latin1` means on the web).
    pub const WINDOWS_1252: TextEncoding = TextEncoding(encoding_rs::WINDOWS_1252);

    /// The encoding `label` names (case and surrounding white space
    /// ignored). The labels of WHATWG's "replacement" encoding (ISO-2022-KR,
    /// HZ-GB-2312, …), which decodes any input to a single U+FFFD, are
    /// refused like unknown ones.
    pub fn for_label(label: &str) -> Result<TextEncoding, String> {
        match Encoding::for_label(label.trim().as_bytes()) {
            Some(e) if e != encoding_rs::REPLACEMENT => Ok(TextEncoding(e)),
            _ => Err(format!(
                "unknown or unsupported encoding {label:?}; try utf-8, windows-1252 (latin1) or utf-16le \
                 (any WHATWG encoding label works)"
            )),
        }
    }

    /// The encoding's canonical name: `UTF-8`, `windows-1252`, `UTF-16LE`.
    pub fn name(self) -> &'static str {
        self.0.name()
    }
}

impl Default for TextEncoding {
    fn default() -> Self {
        TextEncoding::UTF_8
    }
}

impl fmt::Debug for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TextEncoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        TextEncoding::for_label(s)
    }
}

/// What the reader keeps of a decoder it no longer sees (the decoder is
/// inside the boxed stream): its encoding and its counts, shared.
#[derive(Clone, Debug)]
pub(super) struct Tally {
    encoding: TextEncoding,
    malformed: Arc<AtomicU64>,
    consumed: Arc<AtomicU64>,
}

impl Tally {
    pub(super) fn decoding(&self) -> Decoding {
        Decoding {
            encoding: self.encoding.name(),
            malformed: self.malformed.load(Ordering::Relaxed),
        }
    }

    /// Input bytes (in the encoding, BOM included) decoded so far: what a
    /// report and a progress bar count, since the decoded text's length
    /// (half a UTF-16 file's, more than a windows-1252 one's) is no
    /// file's size.
    pub(super) fn consumed(&self) -> u64 {
        self.consumed.load(Ordering::Relaxed)
    }
}

/// Input bytes decoded per call of the decoder.
pub const CHUNK: usize = 64 << 10;
/// U+FFFD in UTF-8.
const REPLACEMENT: &[u8] = "\u{fffd}".as_bytes();

/// `src` as UTF-8 text, read as `asked` unless it starts with a byte-order
/// mark: a UTF-16 one (FF FE, FE FF) is decoded as UTF-16 whatever was
/// asked, and a UTF-8 one (EF BB BF) makes it UTF-8. UTF-8 goes through as
/// it is (with its BOM, which the reader drops); anything else through a
/// [`Decoder`], whose [`Tally`] is returned.
pub(super) fn decoded(
    mut src: Box<dyn Read + Send>,
    asked: TextEncoding,
) -> io::Result<(Box<dyn Read + Send>, Option<Tally>)> {
    let mut head = Vec::with_capacity(3);
    (&mut src).take(3).read_to_end(&mut head)?;
    let encoding = Encoding::for_bom(&head).map_or(asked, |(e, _)| TextEncoding(e));
    let src: Box<dyn Read + Send> = Box::new(io::Cursor::new(head).chain(src));
    if encoding == TextEncoding::UTF_8 {
        return Ok((src, None));
    }
    let tally = Tally {
        encoding,
        malformed: Arc::new(AtomicU64::new(0)),
        consumed: Arc::new(AtomicU64::new(0)),
    };
    let reader = DecodeReader {
        src,
        // Drops the BOM found above, never morphs into another encoding.
        decoder: encoding.0.new_decoder_with_bom_removal(),
        input: vec![0; CHUNK],
        in_pos: 0,
        in_len: 0,
        output: vec![0; 3 * CHUNK + 2 * REPLACEMENT.len()],
        out_pos: 0,
        out_len: 0,
        eof: false,
        finished: false,
        tally: tally.clone(),
    };
    Ok((Box::new(reader), Some(tally)))
}

/// UTF-8 text from bytes in another encoding, a chunk at a time.
struct DecodeReader {
    src: Box<dyn Read + Send>,
    decoder: Decoder,
    input: Vec<u8>,
    in_pos: usize,
    in_len: usize,
    /// Decoded text not yet read; room for a whole chunk of input at 3
    /// UTF-8 bytes a byte (windows-1252's worst case) and a replacement.
    output: Vec<u8>,
    out_pos: usize,
    out_len: usize,
    /// `src` is at its end.
    eof: bool,
    /// The decoder was told the input ended and has said all it had.
    finished: bool,
    /// The counts, shared with the reader.
    tally: Tally,
}

impl DecodeReader {
    /// Decodes what input there is into `output`, which is empty.
    fn decode(&mut self) {
        self.out_pos = 0;
        self.out_len = 0;
        // A replacement always fits after what the decoder wrote.
        let room = self.output.len() - REPLACEMENT.len();
        while self.out_len < room {
            let (result, read, written) = self.decoder.decode_to_utf8_without_replacement(
                &self.input[self.in_pos..self.in_len],
                &mut self.output[self.out_len..room],
                self.eof,
            );
            self.in_pos += read;
            self.out_len += written;
            self.tally.consumed.fetch_add(read as u64, Ordering::Relaxed);
            match result {
                DecoderResult::InputEmpty => {
                    self.finished = self.eof;
                    return;
                }
                DecoderResult::OutputFull => return,
                DecoderResult::Malformed(..) => {
                    self.output[self.out_len..self.out_len + REPLACEMENT.len()].copy_from_slice(REPLACEMENT);
                    self.out_len += REPLACEMENT.len();
                    self.tally.malformed.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }
}

impl Read for DecodeReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.out_pos < self.out_len {
                let n = buf.len().min(self.out_len - self.out_pos);
                buf[..n].copy_from_slice(&self.output[self.out_pos..self.out_pos + n]);
                self.out_pos += n;
                return Ok(n);
            }
            if self.finished {
                return Ok(0);
            }
            if self.in_pos == self.in_len && !self.eof {
                let n = loop {
                    match self.src.read(&mut self.input) {
                        Ok(n) => break n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e),
                    }
                };
                self.eof = n == 0;
                (self.in_pos, self.in_len) = (0, n);
            }
            self.decode();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `bytes` as `asked` through reads of at most `step` bytes from
    /// a source that returns at most `feed` bytes a read.
    fn decode(bytes: &[u8], asked: &str, feed: usize, step: usize) -> (Vec<u8>, Option<Decoding>) {
        struct Trickle(Vec<u8>, usize, usize);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(self.2).min(self.0.len() - self.1);
                buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
                self.1 += n;
                Ok(n)
            }
        }
        let src = Box::new(Trickle(bytes.to_vec(), 0, feed));
        let (mut r, tally) = decoded(src, TextEncoding::for_label(asked).unwrap()).unwrap();
        let mut out = Vec::new();
        let mut buf = vec![0; step];
        loop {
            let n = r.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        (out, tally.map(|t| t.decoding()))
    }

    #[test]
    fn labels() {
        assert_eq!(TextEncoding::for_label("latin1").unwrap(), TextEncoding::WINDOWS_1252);
        assert_eq!(TextEncoding::for_label(" ISO-8859-1 ").unwrap().name(), "windows-1252");
        assert_eq!("utf-16".parse::<TextEncoding>().unwrap().name(), "UTF-16LE");
        assert_eq!(TextEncoding::default(), TextEncoding::UTF_8);
        let e = TextEncoding::for_label("klingon").unwrap_err();
        assert!(e.starts_with("unknown or unsupported encoding \"klingon\""), "{e}");
        assert!(TextEncoding::for_label("iso-2022-kr").is_err());
    }

    #[test]
    fn utf8_goes_through_as_bytes() {
        for asked in ["utf-8", "windows-1252"] {
            let data = b"\xef\xbb\xbfid\n\xff\n";
            let (out, d) = decode(data, asked, 1, 1);
            assert_eq!(out, data, "{asked}: a UTF-8 BOM makes it UTF-8");
            assert_eq!(d, None);
        }
        let (out, d) = decode(b"a\xa0b", "utf-8", 2, 2);
        assert_eq!((out, d), (b"a\xa0b".to_vec(), None));
        assert_eq!(decode(b"", "utf-8", 1, 1), (Vec::new(), None));
    }

    #[test]
    fn windows_1252() {
        let (out, d) = decode(b"doi\n\xa010.1000/x\xa0\n\x80\x9d\n", "windows-1252", 3, 5);
        assert_eq!(String::from_utf8(out).unwrap(), "doi\n\u{a0}10.1000/x\u{a0}\n€\u{9d}\n");
        assert_eq!(d.unwrap().malformed, 0);
        assert_eq!(d.unwrap().encoding, "windows-1252");
    }

    #[test]
    fn utf16_by_its_bom_whatever_was_asked() {
        let text = "id,doi\n1,10.1000/é𝄞\n";
        let le: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xfe, 0xff]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        for (bytes, name) in [(&le, "UTF-16LE"), (&be, "UTF-16BE")] {
            for asked in ["utf-8", "windows-1252"] {
                for (feed, step) in [(1, 1), (3, 7), (1 << 20, 1 << 20)] {
                    let (out, d) = decode(bytes, asked, feed, step);
                    assert_eq!(String::from_utf8(out).unwrap(), text);
                    let d = d.unwrap();
                    assert_eq!((d.encoding, d.malformed), (name, 0));
                }
            }
        }
    }

    #[test]
    fn malformed_sequences_counted() {
        // A lone high surrogate in the middle, and half a code unit at the end.
        let bytes = b"\xff\xfea\x00\x00\xd8b\x00c";
        let (out, d) = decode(bytes, "utf-8", 1, 1);
        assert_eq!(String::from_utf8(out).unwrap(), "a\u{fffd}b\u{fffd}");
        assert_eq!(d.unwrap().malformed, 2);
        // Windows-1252 has no invalid byte; Shift_JIS has.
        let (out, d) = decode(b"a\x81\x20b", "shift_jis", 1, 2);
        assert_eq!(String::from_utf8(out).unwrap(), "a\u{fffd} b");
        assert_eq!(d.unwrap().malformed, 1);
    }

    /// Longer than a chunk, read in odd pieces: nothing lost at the seams,
    /// and the decoder's memory is its two buffers.
    #[test]
    fn chunks() {
        let text: String = (0..(3 * CHUNK / 10)).map(|i| format!("{i},é\u{a0}\n")).collect();
        let latin: Vec<u8> = text.chars().map(|c| c as u32 as u8).collect();
        let (out, d) = decode(&latin, "latin1", 10_000, 4093);
        assert!(out == text.as_bytes());
        assert_eq!(d.unwrap().malformed, 0);
    }
}
