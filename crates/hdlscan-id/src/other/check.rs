//! The check characters of SPEC §8's schemes, each from its standard:
//! ISO 3297 (ISSN), ISBN-13 and ISBN-10, ISO 7064 MOD 11-2 (ORCID, ISNI)
//! and ISO 7064 MOD 97-10 over ROR's Crockford base32. Each takes the
//! digits as ASCII bytes already shown to be digits by the shape readers
//! (`ids.rs`), and a check character as written (`x` counts as `X`).

/// ISO 3297: the ISSN's check character for its first seven digits:
/// weights 8 down to 2, the sum mod 11 taken from 11, 10 written `X`.
pub fn issn(d: &[u8; 7]) -> u8 {
    let sum: u32 = d.iter().zip((2..=8).rev()).map(|(&c, w)| digit(c) * w).sum();
    mod11_char((11 - sum % 11) % 11)
}

/// ISBN-13: weights 1 and 3 alternating, the sum of all thirteen a
/// multiple of 10.
pub fn isbn13(d: &[u8; 13]) -> bool {
    isbn13_sum(d).is_multiple_of(10)
}

/// The ISBN-13 sum of `d`: weights 1 and 3 alternating.
fn isbn13_sum(d: &[u8]) -> u32 {
    d.iter()
        .enumerate()
        .map(|(i, &c)| digit(c) * if i % 2 == 0 { 1 } else { 3 })
        .sum()
}

/// ISBN-10: weights 10 down to 1 (the last, `X` for 10), the sum a
/// multiple of 11.
pub fn isbn10(d: &[u8; 10]) -> bool {
    let last = if d[9] | 0x20 == b'x' { 10 } else { digit(d[9]) };
    let sum: u32 = d[..9]
        .iter()
        .zip((2..=10).rev())
        .map(|(&c, w)| digit(c) * w)
        .sum::<u32>()
        + last;
    sum.is_multiple_of(11)
}

/// The ISBN-13 of an ISBN-10: `978`, its first nine digits, and the
/// ISBN-13 check digit of those twelve.
pub fn isbn10_to_13(d: &[u8; 10]) -> [u8; 13] {
    let mut out = [b'0'; 13];
    out[..3].copy_from_slice(b"978");
    out[3..12].copy_from_slice(&d[..9]);
    out[12] = b'0' + ((10 - isbn13_sum(&out[..12]) % 10) % 10) as u8;
    out
}

/// ISO 7064 MOD 11-2, as ORCID and ISNI use it: the check character of
/// fifteen digits (`X` for 10).
pub fn mod11_2(d: &[u8; 15]) -> u8 {
    let total = d.iter().fold(0u32, |t, &c| (t + digit(c)) * 2 % 11);
    mod11_char((12 - total % 11) % 11)
}

/// ROR: the two check digits of the id's first seven characters (`0` and
/// six of Crockford's base32, lower case), ISO 7064 MOD 97-10 of their
/// value; `None` when one is no base32 digit.
pub fn ror(first7: &[u8; 7]) -> Option<[u8; 2]> {
    let mut n: u64 = 0;
    for &c in first7 {
        n = n * 32 + u64::from(crockford(c)?);
    }
    let check = 98 - (n * 100) % 97;
    Some([b'0' + (check / 10) as u8, b'0' + (check % 10) as u8])
}

/// The value of a Crockford base32 digit (lower case; no `i`, `l`, `o`,
/// `u`).
fn crockford(c: u8) -> Option<u8> {
    const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
    ALPHABET.iter().position(|&a| a == c).map(|i| i as u8)
}

/// True when `c` may stand in a ROR id after its leading `0`.
pub fn is_crockford(c: u8) -> bool {
    crockford(c).is_some()
}

fn digit(c: u8) -> u32 {
    u32::from(c.wrapping_sub(b'0'))
}

fn mod11_char(v: u32) -> u8 {
    if v == 10 { b'X' } else { b'0' + v as u8 }
}

/// True when the check character written, `c`, is `want` (`x` is `X`).
pub fn same(c: u8, want: u8) -> bool {
    c.to_ascii_uppercase() == want
}

#[cfg(test)]
mod tests {
    //! Each check against an oracle written straight from its standard's
    //! definition, on every input proptest draws.
    use super::*;
    use proptest::prelude::*;

    fn digits<const N: usize>() -> impl Strategy<Value = [u8; N]> {
        proptest::array::uniform::<_, N>(b'0'..=b'9')
    }

    /// ISO 3297 §5: the check digit makes sum(d_i * w_i) + c ≡ 0 (mod 11),
    /// weights 8..1 over the eight characters, X for 10.
    fn issn_oracle(d: &[u8; 7]) -> u8 {
        (0..=10u32)
            .find(|c| {
                let s: u32 = (0..7).map(|i| (d[i] - b'0') as u32 * (8 - i as u32)).sum();
                (s + c).is_multiple_of(11)
            })
            .map(|c| if c == 10 { b'X' } else { b'0' + c as u8 })
            .unwrap()
    }

    /// ISO 7064 MOD 11-2, pure system: the check makes
    /// sum(a_i * 2^(n-i)) ≡ 1 (mod 11) over all sixteen characters, the
    /// check's weight 2^0.
    fn mod11_2_oracle(d: &[u8; 15]) -> u8 {
        let s: u64 = (0..15).map(|i| (d[i] - b'0') as u64 * (1u64 << (15 - i))).sum();
        let c = (0..=10u64).find(|c| (s + c) % 11 == 1).unwrap();
        if c == 10 { b'X' } else { b'0' + c as u8 }
    }

    proptest! {
        #[test]
        fn issn_matches_iso_3297(d in digits::<7>()) {
            prop_assert_eq!(issn(&d), issn_oracle(&d));
        }

        #[test]
        fn isbn13_matches_its_definition(d in digits::<13>()) {
            let s: u32 = (0..13).map(|i| (d[i] - b'0') as u32 * [1, 3][i % 2]).sum();
            prop_assert_eq!(isbn13(&d), s.is_multiple_of(10));
        }

        #[test]
        fn isbn10_matches_its_definition(d in digits::<9>(), last in prop_oneof![b'0'..=b'9', Just(b'X'), Just(b'x')]) {
            let mut full = [0u8; 10];
            full[..9].copy_from_slice(&d);
            full[9] = last;
            let value = |c: u8| if c | 0x20 == b'x' { 10 } else { (c - b'0') as u32 };
            let s: u32 = (0..10).map(|i| value(full[i]) * (10 - i as u32)).sum();
            prop_assert_eq!(isbn10(&full), s.is_multiple_of(11));
        }

        #[test]
        fn isbn10_converts_to_a_valid_isbn13(d in digits::<9>()) {
            let mut full = [0u8; 10];
            full[..9].copy_from_slice(&d);
            let c = (0..=10u32).find(|&c| { let mut f = full; f[9] = if c == 10 { b'X' } else { b'0' + c as u8 }; isbn10(&f) }).unwrap();
            full[9] = if c == 10 { b'X' } else { b'0' + c as u8 };
            let thirteen = isbn10_to_13(&full);
            prop_assert!(isbn13(&thirteen));
            prop_assert_eq!(&thirteen[3..12], &full[..9]);
        }

        #[test]
        fn mod11_2_matches_iso_7064(d in digits::<15>()) {
            prop_assert_eq!(mod11_2(&d), mod11_2_oracle(&d));
        }

        #[test]
        fn ror_matches_mod_97_10(body in proptest::array::uniform::<_, 6>(proptest::sample::select(b"0123456789abcdefghjkmnpqrstvwxyz".to_vec()))) {
            let mut first7 = [b'0'; 7];
            first7[1..].copy_from_slice(&body);
            let check = ror(&first7).unwrap();
            // MOD 97-10: the number followed by its two check digits is
            // ≡ 1 (mod 97).
            let n = first7.iter().fold(0u128, |n, &c| n * 32 + b"0123456789abcdefghjkmnpqrstvwxyz".iter().position(|&a| a == c).unwrap() as u128);
            let full = n * 100 + ((check[0] - b'0') * 10 + (check[1] - b'0')) as u128;
            prop_assert_eq!(full % 97, 1);
        }
    }

    #[test]
    fn known_values() {
        assert_eq!(issn(b"1932620"), b'3');
        assert_eq!(issn(b"0378595"), b'5');
        assert!(isbn13(b"9780306406157"));
        assert!(isbn10(b"0306406152"));
        assert_eq!(&isbn10_to_13(b"0451450523"), b"9780451450524");
        assert_eq!(mod11_2(b"000000021825009"), b'7');
        assert_eq!(mod11_2(b"000000017525322"), b'X');
        assert_eq!(mod11_2(b"000000010943585"), b'0');
        assert_eq!(ror(b"01eezs6"), Some(*b"55"));
    }
}
