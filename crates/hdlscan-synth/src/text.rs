//! Writing text without allocating: numbers, drawn characters and
//! percent-escapes appended to a value, and records streamed out through
//! one buffer.

use crate::SplitMix64;
use std::io::{self, Write};

/// `n` in decimal, written at the end of `buf` (no allocation).
#[inline]
pub(crate) fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // SAFETY-free: digits are ASCII.
    std::str::from_utf8(&buf[i..]).unwrap()
}

/// Appends `n` in decimal, zero-padded to `width`.
#[inline]
pub(crate) fn push_num(out: &mut String, n: u64, width: usize) {
    let mut buf = [0; 20];
    let digits = decimal(n, &mut buf);
    for _ in digits.len()..width {
        out.push('0');
    }
    out.push_str(digits);
}

#[inline]
pub(crate) fn push_chars(rng: &mut SplitMix64, out: &mut String, set: &[u8], n: usize) {
    for _ in 0..n {
        out.push(set[rng.below(set.len() as u64) as usize] as char);
    }
}

/// Percent-encodes what a URL path or URI must not hold raw (`<>"` space
/// `#?%{}|\^` backquote, non-ASCII), uppercase hex; `keep_angle` leaves
/// `<>` raw (sloppy exports do).
pub(crate) fn push_encoded(out: &mut String, s: &str, keep_angle: bool) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in s.as_bytes() {
        let enc = match b {
            b'<' | b'>' => !keep_angle,
            b'"' | b' ' | b'#' | b'?' | b'%' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'`' => true,
            0x80.. => true,
            _ => false,
        };
        if enc {
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        } else {
            out.push(b as char);
        }
    }
}

/// Appends one record for each of `ids` through `push`, writing the buffer
/// to `w` whenever it passes 64 KiB and at the end.
pub(crate) fn write_buffered<W: Write>(
    w: &mut W,
    ids: impl Iterator<Item = u64>,
    mut push: impl FnMut(u64, &mut Vec<u8>),
) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 17);
    for id in ids {
        push(id, &mut buf);
        if buf.len() >= 1 << 16 {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)
}
