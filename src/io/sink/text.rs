//! Every Arrow type as the text of a CSV/TSV cell, for what the delimited
//! writer's fast paths (strings, bytes, integers, floats, booleans, the
//! joined `warnings` lists) do not cover: dates and times in ISO 8601, decimals exact,
//! durations and intervals as ISO 8601 durations, nested values as JSON.
//!
//! - Date32 `2024-05-01`; Date64 the same, with its time of day when it has
//!   one (`2024-05-01T06:00:00.000`).
//! - Timestamp with the digits of its unit (s none, ms 3, µs 6, ns 9):
//!   without a time zone as the wall-clock time it is
//!   (`2024-05-01T12:34:56.789`); with any time zone as the instant it is,
//!   in UTC (`2024-05-01T10:34:56.789Z`). The zone's own name is not
//!   written: hdlscan has no time-zone database, and UTC is exact.
//! - Time32/Time64 `12:34:56.789`, digits of the unit again.
//! - Duration `PT90061.500S` (`-PT5S`); intervals `P14M` (year-month),
//!   `P3DT0.500S` (day-time), `P1M2DT0.000000003S` (month-day-nano): each
//!   part keeps its own sign, as Arrow stores it.
//! - Decimal32/64/128/256 in full, with the scale's digits (`-12.340`).
//! - Float16 like the other floats. Fixed-size binary as its bytes, as
//!   binary is.
//! - List (lists of strings too, but SPEC's `warnings`, which the writer
//!   joins with `;`), LargeList, FixedSizeList, ListView, Struct and Map
//!   as JSON: strings
//!   escaped, nulls `null`, numbers and booleans bare; dates, times and
//!   durations as JSON strings of the text above; decimals as JSON
//!   numbers; non-finite floats `null` (JSON has no NaN); bytes as a JSON
//!   string (invalid UTF-8 replaced by U+FFFD). A map is an object whose
//!   keys are the keys' text.
//! - A dictionary is written as its values are.
//!
//! Unions and run-end encoded arrays, which neither Parquet nor JSON input
//! produces, are refused when the sink is created ([`writable`]).

use std::io::Write;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{AnyDictionaryArray, Array, OffsetSizeTrait};
use arrow_buffer::{IntervalDayTime, IntervalMonthDayNano};
use arrow_schema::{DataType, IntervalUnit, TimeUnit};

/// Whether a column of type `dt` can be written as text.
pub(super) fn writable(dt: &DataType) -> bool {
    use DataType::*;
    match dt {
        Union(..) | RunEndEncoded(..) => false,
        List(f) | LargeList(f) | FixedSizeList(f, _) | ListView(f) | LargeListView(f) => writable(f.data_type()),
        Struct(fields) => fields.iter().all(|f| writable(f.data_type())),
        Map(f, _) => writable(f.data_type()),
        Dictionary(_, v) => writable(v),
        _ => true,
    }
}

/// Writes cell `i` of `a` as CSV text into `out`; false (nothing written)
/// for a null.
pub(super) fn write_text(a: &dyn Array, i: usize, out: &mut Vec<u8>) -> bool {
    use DataType::*;
    if a.is_null(i) {
        return false;
    }
    match a.data_type() {
        Dictionary(..) => {
            let d = a.as_any_dictionary();
            return write_text(d.values().as_ref(), key(d, i), out);
        }
        List(_) | LargeList(_) | FixedSizeList(..) | ListView(_) | LargeListView(_) | Struct(_) | Map(..) => {
            write_json(a, i, out);
        }
        Utf8 | LargeUtf8 | Utf8View | Binary | LargeBinary | BinaryView | FixedSizeBinary(_) => {
            out.extend_from_slice(bytes(a, i));
        }
        _ => scalar(a, i, out),
    }
    true
}

/// Writes value `i` of `a` as JSON into `out`.
pub(super) fn write_json(a: &dyn Array, i: usize, out: &mut Vec<u8>) {
    use DataType::*;
    if a.is_null(i) {
        out.extend_from_slice(b"null");
        return;
    }
    match a.data_type() {
        Null => out.extend_from_slice(b"null"),
        Dictionary(..) => {
            let d = a.as_any_dictionary();
            write_json(d.values().as_ref(), key(d, i), out);
        }
        List(_) => json_list(a.as_list::<i32>(), i, out),
        LargeList(_) => json_list(a.as_list::<i64>(), i, out),
        ListView(_) => json_list_view(a.as_list_view::<i32>(), i, out),
        LargeListView(_) => json_list_view(a.as_list_view::<i64>(), i, out),
        FixedSizeList(_, n) => {
            let l = a.as_fixed_size_list();
            let start = l.value_offset_at(i);
            json_array(l.values().as_ref(), start..start + *n as usize, out);
        }
        Struct(fields) => {
            let s = a.as_struct();
            out.push(b'{');
            for (k, (f, c)) in fields.iter().zip(s.columns()).enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                json_string(f.name().as_bytes(), out);
                out.push(b':');
                write_json(c.as_ref(), i, out);
            }
            out.push(b'}');
        }
        Map(..) => {
            let m = a.as_map();
            let offsets = m.value_offsets();
            let (keys, values) = (m.keys().as_ref(), m.values().as_ref());
            out.push(b'{');
            let mut key_text = Vec::new();
            for (k, j) in (offsets[i] as usize..offsets[i + 1] as usize).enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                key_text.clear();
                write_text(keys, j, &mut key_text);
                json_string(&key_text, out);
                out.push(b':');
                write_json(values, j, out);
            }
            out.push(b'}');
        }
        // Their text is JSON's: `true`, digits.
        Boolean | Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | UInt64 => scalar(a, i, out),
        Decimal32(..) | Decimal64(..) | Decimal128(..) | Decimal256(..) => scalar(a, i, out),
        Float16 => json_float(a.as_primitive::<Float16Type>().value(i).to_f64(), out),
        Float32 => json_float(a.as_primitive::<Float32Type>().value(i) as f64, out),
        Float64 => json_float(a.as_primitive::<Float64Type>().value(i), out),
        Utf8 | LargeUtf8 | Utf8View | Binary | LargeBinary | BinaryView | FixedSizeBinary(_) => {
            json_string(bytes(a, i), out)
        }
        // Dates, times, durations, intervals: their text, which needs no
        // escaping, quoted.
        _ => {
            out.push(b'"');
            scalar(a, i, out);
            out.push(b'"');
        }
    }
}

fn json_list<O: OffsetSizeTrait>(l: &arrow_array::GenericListArray<O>, i: usize, out: &mut Vec<u8>) {
    let o = l.value_offsets();
    json_array(l.values().as_ref(), o[i].as_usize()..o[i + 1].as_usize(), out);
}

fn json_list_view<O: OffsetSizeTrait>(l: &arrow_array::GenericListViewArray<O>, i: usize, out: &mut Vec<u8>) {
    let start = l.value_offsets()[i].as_usize();
    json_array(l.values().as_ref(), start..start + l.value_sizes()[i].as_usize(), out);
}

fn json_array(values: &dyn Array, range: std::ops::Range<usize>, out: &mut Vec<u8>) {
    out.push(b'[');
    for (k, j) in range.enumerate() {
        if k > 0 {
            out.push(b',');
        }
        write_json(values, j, out);
    }
    out.push(b']');
}

fn json_float(v: f64, out: &mut Vec<u8>) {
    if v.is_finite() {
        let _ = write!(out, "{v}");
    } else {
        out.extend_from_slice(b"null");
    }
}

/// `s` as a JSON string; bytes that are not UTF-8 become U+FFFD.
fn json_string(s: &[u8], out: &mut Vec<u8>) {
    let text = String::from_utf8_lossy(s);
    serde_json::to_writer(&mut *out, text.as_ref()).expect("writing to a Vec");
}

/// The index into a dictionary's values of its row `i`.
fn key(d: &dyn AnyDictionaryArray, i: usize) -> usize {
    let k = d.keys();
    match k.data_type() {
        DataType::Int8 => k.as_primitive::<Int8Type>().value(i) as usize,
        DataType::Int16 => k.as_primitive::<Int16Type>().value(i) as usize,
        DataType::Int32 => k.as_primitive::<Int32Type>().value(i) as usize,
        DataType::Int64 => k.as_primitive::<Int64Type>().value(i) as usize,
        DataType::UInt8 => k.as_primitive::<UInt8Type>().value(i) as usize,
        DataType::UInt16 => k.as_primitive::<UInt16Type>().value(i) as usize,
        DataType::UInt32 => k.as_primitive::<UInt32Type>().value(i) as usize,
        DataType::UInt64 => k.as_primitive::<UInt64Type>().value(i) as usize,
        other => unreachable!("dictionary keys of type {other}"),
    }
}

/// The bytes of a string or binary value.
fn bytes(a: &dyn Array, i: usize) -> &[u8] {
    use DataType::*;
    match a.data_type() {
        Utf8 => a.as_string::<i32>().value(i).as_bytes(),
        LargeUtf8 => a.as_string::<i64>().value(i).as_bytes(),
        Utf8View => a.as_string_view().value(i).as_bytes(),
        Binary => a.as_binary::<i32>().value(i),
        LargeBinary => a.as_binary::<i64>().value(i),
        BinaryView => a.as_binary_view().value(i),
        FixedSizeBinary(_) => a.as_fixed_size_binary().value(i),
        other => unreachable!("bytes of a {other}"),
    }
}

/// The text of a non-null value of a type that is neither nested, bytes
/// nor a dictionary.
fn scalar(a: &dyn Array, i: usize, out: &mut Vec<u8>) {
    use DataType::*;
    macro_rules! display {
        ($t:ty) => {{
            let _ = write!(out, "{}", a.as_primitive::<$t>().value(i));
        }};
    }
    match a.data_type() {
        Null => {}
        Boolean => out.extend_from_slice(if a.as_boolean().value(i) { b"true" } else { b"false" }),
        Int8 => display!(Int8Type),
        Int16 => display!(Int16Type),
        Int32 => display!(Int32Type),
        Int64 => display!(Int64Type),
        UInt8 => display!(UInt8Type),
        UInt16 => display!(UInt16Type),
        UInt32 => display!(UInt32Type),
        UInt64 => display!(UInt64Type),
        Float16 => display!(Float16Type),
        Float32 => display!(Float32Type),
        Float64 => display!(Float64Type),
        Decimal32(_, s) => decimal(&a.as_primitive::<Decimal32Type>().value(i).to_string(), *s, out),
        Decimal64(_, s) => decimal(&a.as_primitive::<Decimal64Type>().value(i).to_string(), *s, out),
        Decimal128(_, s) => decimal(&a.as_primitive::<Decimal128Type>().value(i).to_string(), *s, out),
        Decimal256(_, s) => decimal(&a.as_primitive::<Decimal256Type>().value(i).to_string(), *s, out),
        Date32 => date(a.as_primitive::<Date32Type>().value(i) as i64, out),
        Date64 => {
            let ms = a.as_primitive::<Date64Type>().value(i);
            if ms.rem_euclid(MS_PER_DAY) == 0 {
                date(ms.div_euclid(MS_PER_DAY), out);
            } else {
                timestamp(ms, TimeUnit::Millisecond, false, out);
            }
        }
        Timestamp(unit, tz) => {
            let v = match unit {
                TimeUnit::Second => a.as_primitive::<TimestampSecondType>().value(i),
                TimeUnit::Millisecond => a.as_primitive::<TimestampMillisecondType>().value(i),
                TimeUnit::Microsecond => a.as_primitive::<TimestampMicrosecondType>().value(i),
                TimeUnit::Nanosecond => a.as_primitive::<TimestampNanosecondType>().value(i),
            };
            timestamp(v, *unit, tz.is_some(), out);
        }
        Time32(unit) => {
            let v = match unit {
                TimeUnit::Second => a.as_primitive::<Time32SecondType>().value(i),
                _ => a.as_primitive::<Time32MillisecondType>().value(i),
            };
            time_of_day(v as i64, *unit, out);
        }
        Time64(unit) => {
            let v = match unit {
                TimeUnit::Microsecond => a.as_primitive::<Time64MicrosecondType>().value(i),
                _ => a.as_primitive::<Time64NanosecondType>().value(i),
            };
            time_of_day(v, *unit, out);
        }
        Duration(unit) => {
            let v = match unit {
                TimeUnit::Second => a.as_primitive::<DurationSecondType>().value(i),
                TimeUnit::Millisecond => a.as_primitive::<DurationMillisecondType>().value(i),
                TimeUnit::Microsecond => a.as_primitive::<DurationMicrosecondType>().value(i),
                TimeUnit::Nanosecond => a.as_primitive::<DurationNanosecondType>().value(i),
            };
            if v < 0 {
                out.push(b'-');
            }
            out.extend_from_slice(b"PT");
            seconds(v.unsigned_abs() as u128, digits(*unit), out);
            out.push(b'S');
        }
        Interval(IntervalUnit::YearMonth) => {
            let _ = write!(out, "P{}M", a.as_primitive::<IntervalYearMonthType>().value(i));
        }
        Interval(IntervalUnit::DayTime) => {
            let IntervalDayTime { days, milliseconds } = a.as_primitive::<IntervalDayTimeType>().value(i);
            let _ = write!(out, "P{days}DT");
            signed_seconds(milliseconds as i64, 3, out);
        }
        Interval(IntervalUnit::MonthDayNano) => {
            let IntervalMonthDayNano {
                months,
                days,
                nanoseconds,
            } = a.as_primitive::<IntervalMonthDayNanoType>().value(i);
            let _ = write!(out, "P{months}M{days}DT");
            signed_seconds(nanoseconds, 9, out);
        }
        other => unreachable!("{other} has no text (refused by `writable`)"),
    }
}

const MS_PER_DAY: i64 = 86_400_000;
const SECONDS_PER_DAY: i64 = 86_400;

/// Digits after the seconds' point for `unit`.
fn digits(unit: TimeUnit) -> u32 {
    match unit {
        TimeUnit::Second => 0,
        TimeUnit::Millisecond => 3,
        TimeUnit::Microsecond => 6,
        TimeUnit::Nanosecond => 9,
    }
}

/// `units` of 10^-`digits` s as seconds with `digits` decimals.
fn seconds(units: u128, digits: u32, out: &mut Vec<u8>) {
    let per = 10u128.pow(digits);
    let _ = write!(out, "{}", units / per);
    if digits > 0 {
        let _ = write!(out, ".{:0width$}", units % per, width = digits as usize);
    }
}

/// Seconds with their sign and an `S`: the seconds part of an interval.
fn signed_seconds(units: i64, digits: u32, out: &mut Vec<u8>) {
    if units < 0 {
        out.push(b'-');
    }
    seconds(units.unsigned_abs() as u128, digits, out);
    out.push(b'S');
}

/// The proleptic Gregorian date `days` after 1970-01-01, as (year, month,
/// day): Howard Hinnant's `civil_from_days`, exact over all of `i64`'s
/// days that Arrow's types can hold.
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + (month <= 2) as i64, month, day)
}

/// `YYYY-MM-DD`; years outside 0..=9999 with a sign and at least four
/// digits, as ISO 8601's expanded form writes them.
fn date(days: i64, out: &mut Vec<u8>) {
    let (y, m, d) = civil(days);
    if (0..=9999).contains(&y) {
        let _ = write!(out, "{y:04}-{m:02}-{d:02}");
    } else {
        let sign = if y < 0 { '-' } else { '+' };
        let _ = write!(out, "{sign}{:04}-{m:02}-{d:02}", y.unsigned_abs());
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.fff…][Z]`.
fn timestamp(v: i64, unit: TimeUnit, utc: bool, out: &mut Vec<u8>) {
    let per = 10i64.pow(digits(unit));
    let (secs, frac) = (v.div_euclid(per), v.rem_euclid(per));
    date(secs.div_euclid(SECONDS_PER_DAY), out);
    out.push(b'T');
    clock(secs.rem_euclid(SECONDS_PER_DAY), frac, digits(unit), out);
    if utc {
        out.push(b'Z');
    }
}

/// `HH:MM:SS[.fff…]` of a time of day (a value past midnight keeps
/// counting hours, as it is).
fn time_of_day(v: i64, unit: TimeUnit, out: &mut Vec<u8>) {
    let per = 10i64.pow(digits(unit));
    clock(v.div_euclid(per), v.rem_euclid(per), digits(unit), out);
}

fn clock(secs: i64, frac: i64, digits: u32, out: &mut Vec<u8>) {
    let _ = write!(out, "{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if digits > 0 {
        let _ = write!(out, ".{frac:0width$}", width = digits as usize);
    }
}

/// A decimal of `scale` fractional digits (a negative scale multiplies),
/// from its unscaled integer's text.
fn decimal(unscaled: &str, scale: i8, out: &mut Vec<u8>) {
    let magnitude = match unscaled.strip_prefix('-') {
        Some(m) => {
            out.push(b'-');
            m
        }
        None => unscaled,
    };
    if scale <= 0 {
        out.extend_from_slice(magnitude.as_bytes());
        if magnitude != "0" {
            out.extend(std::iter::repeat_n(b'0', scale.unsigned_abs() as usize));
        }
        return;
    }
    let scale = scale as usize;
    if magnitude.len() > scale {
        let (int, frac) = magnitude.split_at(magnitude.len() - scale);
        let _ = write!(out, "{int}.{frac}");
    } else {
        let _ = write!(out, "0.{magnitude:0>scale$}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_buffer::i256;
    use arrow_array::builder::{MapBuilder, StringBuilder};
    use arrow_array::{
        ArrayRef, DictionaryArray, FixedSizeListArray, Int32Array, ListArray, PrimitiveArray, StringArray, StructArray,
    };
    use arrow_schema::Field;
    use std::sync::Arc;

    fn text(a: &dyn Array) -> Vec<String> {
        (0..a.len())
            .map(|i| {
                let mut out = Vec::new();
                write_text(a, i, &mut out);
                String::from_utf8(out).unwrap()
            })
            .collect()
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(19_844), (2024, 5, 1));
        assert_eq!(civil(-1), (1969, 12, 31));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(-719_468), (0, 3, 1));
        // Against a day-by-day walk over four centuries and more.
        let (mut y, mut m, mut d) = (1900i64, 1u32, 1u32);
        for days in -25_567..130_000 {
            assert_eq!(civil(days), (y, m, d), "{days}");
            let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
            let len = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m as usize - 1];
            d += 1;
            if d > len {
                (d, m) = (1, m + 1);
                if m > 12 {
                    (m, y) = (1, y + 1);
                }
            }
        }
    }

    #[test]
    fn dates_and_times() {
        let d32 = PrimitiveArray::<Date32Type>::from(vec![Some(19_844), None, Some(-719_529), Some(2_932_897)]);
        assert_eq!(text(&d32), ["2024-05-01", "", "-0001-12-31", "+10000-01-01"]);
        let d64 = PrimitiveArray::<Date64Type>::from(vec![19_844 * MS_PER_DAY, 19_844 * MS_PER_DAY + 21_600_000]);
        assert_eq!(text(&d64), ["2024-05-01", "2024-05-01T06:00:00.000"]);
        let v = 1_714_566_896_789_i64; // 2024-05-01T12:34:56.789 in ms
        let ts = PrimitiveArray::<TimestampMillisecondType>::from(vec![v, -1]);
        assert_eq!(text(&ts), ["2024-05-01T12:34:56.789", "1969-12-31T23:59:59.999"]);
        let utc = ts.clone().with_timezone("Europe/Berlin");
        assert_eq!(text(&utc)[0], "2024-05-01T12:34:56.789Z");
        let s = PrimitiveArray::<TimestampSecondType>::from(vec![v / 1000]).with_timezone("+00:00");
        assert_eq!(text(&s), ["2024-05-01T12:34:56Z"]);
        let us = PrimitiveArray::<TimestampMicrosecondType>::from(vec![v * 1000 + 1]);
        assert_eq!(text(&us), ["2024-05-01T12:34:56.789001"]);
        let ns = PrimitiveArray::<TimestampNanosecondType>::from(vec![v * 1_000_000 + 12]).with_timezone("UTC");
        assert_eq!(text(&ns), ["2024-05-01T12:34:56.789000012Z"]);
        let t = PrimitiveArray::<Time32MillisecondType>::from(vec![45_296_789]);
        assert_eq!(text(&t), ["12:34:56.789"]);
        let t = PrimitiveArray::<Time64NanosecondType>::from(vec![45_296_000_000_007]);
        assert_eq!(text(&t), ["12:34:56.000000007"]);
        let t = PrimitiveArray::<Time32SecondType>::from(vec![0]);
        assert_eq!(text(&t), ["00:00:00"]);
    }

    #[test]
    fn durations_intervals_decimals() {
        let d = PrimitiveArray::<DurationMillisecondType>::from(vec![90_061_500, -5000, i64::MIN]);
        assert_eq!(text(&d), ["PT90061.500S", "-PT5.000S", "-PT9223372036854775.808S"]);
        let d = PrimitiveArray::<DurationSecondType>::from(vec![5]);
        assert_eq!(text(&d), ["PT5S"]);
        let ym = PrimitiveArray::<IntervalYearMonthType>::from(vec![14, -3]);
        assert_eq!(text(&ym), ["P14M", "P-3M"]);
        let dt = PrimitiveArray::<IntervalDayTimeType>::from(vec![
            IntervalDayTime::new(3, 500),
            IntervalDayTime::new(-1, -1),
        ]);
        assert_eq!(text(&dt), ["P3DT0.500S", "P-1DT-0.001S"]);
        let mdn = PrimitiveArray::<IntervalMonthDayNanoType>::from(vec![IntervalMonthDayNano::new(1, 2, 3)]);
        assert_eq!(text(&mdn), ["P1M2DT0.000000003S"]);
        let dec = PrimitiveArray::<Decimal128Type>::from(vec![-12_340, 5, 0, i128::MAX])
            .with_precision_and_scale(38, 3)
            .unwrap();
        assert_eq!(
            text(&dec),
            ["-12.340", "0.005", "0.000", "170141183460469231731687303715884105.727"]
        );
        let neg = PrimitiveArray::<Decimal128Type>::from(vec![12, 0])
            .with_precision_and_scale(10, -2)
            .unwrap();
        assert_eq!(text(&neg), ["1200", "0"]);
        let big = PrimitiveArray::<Decimal256Type>::from(vec![i256::from_i128(-1), i256::MAX])
            .with_precision_and_scale(76, 2)
            .unwrap();
        assert_eq!(text(&big)[0], "-0.01");
        assert!(
            text(&big)[1].ends_with(".67") && text(&big)[1].len() == 78,
            "{}",
            text(&big)[1]
        );
        let d32 = PrimitiveArray::<Decimal32Type>::from(vec![-5])
            .with_precision_and_scale(9, 1)
            .unwrap();
        assert_eq!(text(&d32), ["-0.5"]);
        type F16 = <Float16Type as ArrowPrimitiveType>::Native;
        let h = PrimitiveArray::<Float16Type>::from(vec![F16::from_f32(1.5)]);
        assert_eq!(text(&h), ["1.5"]);
    }

    #[test]
    fn nested_values_as_json() {
        let ints = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![
            Some(vec![Some(1), None, Some(3)]),
            None,
            Some(vec![]),
        ]);
        assert_eq!(text(&ints), ["[1,null,3]", "", "[]"]);
        let names = Arc::new(StringArray::from(vec![Some("a \"q\"\n"), None])) as ArrayRef;
        let when = Arc::new(PrimitiveArray::<Date32Type>::from(vec![Some(19_844), None])) as ArrayRef;
        let s = StructArray::from(vec![
            (Arc::new(Field::new("name", DataType::Utf8, true)), names),
            (Arc::new(Field::new("when", DataType::Date32, true)), when),
        ]);
        assert_eq!(
            text(&s),
            [
                r#"{"name":"a \"q\"\n","when":"2024-05-01"}"#,
                r#"{"name":null,"when":null}"#
            ]
        );
        let mut m = MapBuilder::new(None, StringBuilder::new(), arrow_array::builder::Float64Builder::new());
        m.keys().append_value("x");
        m.values().append_value(0.5);
        m.keys().append_value("nan");
        m.values().append_value(f64::NAN);
        m.append(true).unwrap();
        assert_eq!(text(&m.finish()), [r#"{"x":0.5,"nan":null}"#]);
        let fixed = FixedSizeListArray::try_new(
            Arc::new(Field::new_list_field(DataType::Int32, true)),
            2,
            Arc::new(Int32Array::from(vec![1, 2, 3, 4])),
            None,
        )
        .unwrap();
        assert_eq!(text(&fixed.slice(1, 1)), ["[3,4]"]);
        let dict: DictionaryArray<Int8Type> = vec![Some("b"), None, Some("b")].into_iter().collect();
        let nested = ListArray::try_new(
            Arc::new(Field::new_list_field(dict.data_type().clone(), true)),
            arrow_buffer::OffsetBuffer::from_lengths([3]),
            Arc::new(dict),
            None,
        )
        .unwrap();
        assert_eq!(text(&nested), [r#"["b",null,"b"]"#]);
        let bad = arrow_array::BinaryArray::from(vec![&b"\xff"[..]]);
        let mut out = Vec::new();
        write_json(&bad, 0, &mut out);
        assert_eq!(out, "\"\u{fffd}\"".as_bytes());
    }

    #[test]
    fn what_is_writable() {
        assert!(writable(&DataType::Date32));
        assert!(writable(&DataType::new_list(
            DataType::Struct(Default::default()),
            true
        )));
        let union = DataType::Union(arrow_schema::UnionFields::empty(), arrow_schema::UnionMode::Dense);
        assert!(!writable(&union));
        assert!(!writable(&DataType::new_list(union, true)));
    }
}
