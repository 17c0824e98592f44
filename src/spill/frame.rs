//! The one byte encoding of everything spilled: LEB128 varints, and frames
//! (a varint length, then that many bytes), so a record can be copied or
//! skipped without being decoded.
//!
//! Decoding returns `None` on bytes that cannot be what was written:
//! temporary files are ours, but a short read must be an error, never a
//! panic.

#[inline]
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline]
pub(crate) fn varint_len(v: u64) -> usize {
    (64 - (v | 1).leading_zeros() as usize).div_ceil(7)
}

// Always inlined: it is on every record's path, and a call costs about
// what its body does.
#[inline(always)]
pub(crate) fn get_varint(buf: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *buf.get(*pos)?;
        *pos += 1;
        if shift == 63 && b > 1 {
            return None;
        }
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(v);
        }
        shift += 7;
        if shift > 63 {
            return None;
        }
    }
}

#[inline]
pub(crate) fn get_u32(buf: &[u8], pos: &mut usize) -> Option<u32> {
    u32::try_from(get_varint(buf, pos)?).ok()
}

/// Appends `b` as a frame: its length, then its bytes.
#[inline]
pub(crate) fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_varint(out, b.len() as u64);
    out.extend_from_slice(b);
}

#[inline]
pub(crate) fn get_bytes<'a>(buf: &'a [u8], pos: &mut usize) -> Option<&'a [u8]> {
    let n = usize::try_from(get_varint(buf, pos)?).ok()?;
    let s = buf.get(*pos..pos.checked_add(n)?)?;
    *pos += n;
    Some(s)
}

/// The frame starting at `*pos` in `buf` (its bytes, after the length), if
/// whole; moves `pos` past it.
#[inline]
pub(crate) fn get_frame<'a>(buf: &'a [u8], pos: &mut usize) -> Option<&'a [u8]> {
    // Most frames are shorter than 128 bytes: a one-byte length.
    let p = *pos;
    if let Some(&n) = buf.get(p)
        && n < 0x80
    {
        let s = buf.get(p + 1..p + 1 + n as usize)?;
        *pos = p + 1 + n as usize;
        return Some(s);
    }
    get_bytes(buf, pos)
}

/// Starts a frame whose length is known only once its bytes are written:
/// room for a one-byte length is kept; [`end_frame`] fills it in.
#[inline]
pub(crate) fn begin_frame(out: &mut Vec<u8>) -> usize {
    out.push(0);
    out.len() - 1
}

/// Ends the frame begun at `start`, widening its length in the rare frame
/// of 128 bytes or more.
#[inline]
pub(crate) fn end_frame(out: &mut Vec<u8>, start: usize) {
    let len = out.len() - start - 1;
    if len < 0x80 {
        out[start] = len as u8;
    } else {
        widen(out, start, len);
    }
}

/// Kept out of line, so that [`end_frame`] is inlined where it is called.
#[cold]
fn widen(out: &mut Vec<u8>, start: usize, len: usize) {
    let mut prefix = Vec::with_capacity(10);
    put_varint(&mut prefix, len as u64);
    out.splice(start..start + 1, prefix);
}
