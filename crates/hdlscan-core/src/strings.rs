//! Arrow's string and binary arrays read without copying: [`IdColumn`]
//! reads any type an identifier column may have (`Utf8`, `LargeUtf8`,
//! `Utf8View`, a dictionary of those, the binary types older Spark and Hive
//! writers use for strings, `Null`) as `Option<&[u8]>`, the parser's input;
//! [`StrColumn`] reads the string types as `Option<&str>`; [`to_utf8`]
//! converts them to a plain `Utf8` array. [`integer_text`] gives an
//! integer column (a PubMed id stored as a number) its decimal text, as a
//! JSON number or a spreadsheet's whole number is read.

use std::sync::Arc;

use anyhow::{Result, bail};
use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, LargeBinaryArray, LargeStringArray, StringArray, StringViewArray,
};
use arrow_buffer::NullBuffer;
use arrow_schema::DataType;

/// Whether `dt` is a string type the pipeline accepts as the identifier
/// column.
pub fn is_string_type(dt: &DataType) -> bool {
    match dt {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => true,
        DataType::Dictionary(_, v) => {
            matches!(**v, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
        }
        _ => false,
    }
}

/// The decimal text of an integer array, nulls kept; `None` for an array
/// of another type.
pub fn integer_text(array: &dyn Array) -> Option<StringArray> {
    use arrow_array::builder::StringBuilder;
    use arrow_array::types::*;
    use std::fmt::Write;
    fn text<T: arrow_array::ArrowPrimitiveType>(a: &dyn Array) -> StringArray
    where
        T::Native: std::fmt::Display,
    {
        let a = a.as_primitive::<T>();
        // Written into the builder's one buffer: no string a value.
        let mut out = StringBuilder::with_capacity(a.len(), a.len() * 8);
        for v in a.iter() {
            match v {
                Some(x) => {
                    write!(out, "{x}").expect("a builder takes any text");
                    out.append_value("");
                }
                None => out.append_null(),
            }
        }
        out.finish()
    }
    Some(match array.data_type() {
        DataType::Int8 => text::<Int8Type>(array),
        DataType::Int16 => text::<Int16Type>(array),
        DataType::Int32 => text::<Int32Type>(array),
        DataType::Int64 => text::<Int64Type>(array),
        DataType::UInt8 => text::<UInt8Type>(array),
        DataType::UInt16 => text::<UInt16Type>(array),
        DataType::UInt32 => text::<UInt32Type>(array),
        DataType::UInt64 => text::<UInt64Type>(array),
        _ => return None,
    })
}

/// The identifier column of one batch, read as bytes (the parser's input),
/// whatever type `check_identifier_column` let through.
pub enum IdColumn<'a> {
    /// A string type.
    Str(StrColumn<'a>),
    /// `Binary`.
    Binary(&'a BinaryArray),
    /// `LargeBinary`.
    LargeBinary(&'a LargeBinaryArray),
    /// `BinaryView`.
    BinaryView(&'a BinaryViewArray),
    /// A `Null` column: every row is null.
    Null,
}

impl<'a> IdColumn<'a> {
    /// Reads `array`; fails unless it is a string, binary or null type.
    pub fn new(array: &'a dyn Array) -> Result<IdColumn<'a>> {
        Ok(match array.data_type() {
            DataType::Binary => IdColumn::Binary(array.as_binary::<i32>()),
            DataType::LargeBinary => IdColumn::LargeBinary(array.as_binary::<i64>()),
            DataType::BinaryView => IdColumn::BinaryView(array.as_binary_view()),
            DataType::Null => IdColumn::Null,
            _ => IdColumn::Str(StrColumn::new(array)?),
        })
    }

    /// Value of row `i` as bytes; `None` for null.
    #[inline]
    pub fn get_bytes(&self, i: usize) -> Option<&'a [u8]> {
        match self {
            IdColumn::Str(c) => c.get_bytes(i),
            IdColumn::Binary(a) => a.is_valid(i).then(|| a.value(i)),
            IdColumn::LargeBinary(a) => a.is_valid(i).then(|| a.value(i)),
            IdColumn::BinaryView(a) => a.is_valid(i).then(|| a.value(i)),
            IdColumn::Null => None,
        }
    }
}

#[derive(Clone, Copy)]
enum StrValues<'a> {
    Utf8(&'a StringArray),
    Large(&'a LargeStringArray),
    View(&'a StringViewArray),
}

impl<'a> StrValues<'a> {
    fn new(a: &'a dyn Array) -> Option<Self> {
        Some(match a.data_type() {
            DataType::Utf8 => StrValues::Utf8(a.as_string::<i32>()),
            DataType::LargeUtf8 => StrValues::Large(a.as_string::<i64>()),
            DataType::Utf8View => StrValues::View(a.as_string_view()),
            _ => return None,
        })
    }

    #[inline]
    fn nulls(&self) -> Option<&'a NullBuffer> {
        match *self {
            StrValues::Utf8(a) => a.nulls(),
            StrValues::Large(a) => a.nulls(),
            StrValues::View(a) => a.nulls(),
        }
    }

    #[inline]
    fn value(&self, i: usize) -> &'a str {
        match *self {
            StrValues::Utf8(a) => a.value(i),
            StrValues::Large(a) => a.value(i),
            StrValues::View(a) => a.value(i),
        }
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&'a str> {
        match self.nulls() {
            Some(n) if n.is_null(i) => None,
            _ => Some(self.value(i)),
        }
    }
}

/// Read access to any accepted string column (see the module doc), without
/// copying: downcast once per batch, then `get(i)` per row.
#[derive(Clone)]
pub struct StrColumn<'a> {
    values: StrValues<'a>,
    /// For dictionaries: keys as indexes into `values`, and the key nulls.
    /// `None` keys with `Some` dict means "all rows null" (empty values).
    dict: Option<(Option<Vec<usize>>, Option<&'a NullBuffer>)>,
    len: usize,
}

impl<'a> StrColumn<'a> {
    /// Errors if `array` is not of an accepted string type.
    pub fn new(array: &'a dyn Array) -> Result<StrColumn<'a>> {
        if let Some(values) = StrValues::new(array) {
            return Ok(StrColumn {
                values,
                dict: None,
                len: array.len(),
            });
        }
        if let Some(d) = array.as_any_dictionary_opt()
            && let Some(values) = StrValues::new(d.values().as_ref())
        {
            let keys = (!d.values().is_empty()).then(|| d.normalized_keys());
            return Ok(StrColumn {
                values,
                dict: Some((keys, d.keys().nulls())),
                len: array.len(),
            });
        }
        bail!("expected a string column, found {}", array.data_type())
    }

    /// Value of row `i`; `None` for null.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&'a str> {
        match &self.dict {
            None => self.values.get(i),
            Some((keys, nulls)) => {
                if nulls.is_some_and(|n| n.is_null(i)) {
                    return None;
                }
                self.values.get(keys.as_ref()?[i])
            }
        }
    }

    /// Value of row `i` as bytes; `None` for null.
    #[inline]
    pub fn get_bytes(&self, i: usize) -> Option<&'a [u8]> {
        self.get(i).map(str::as_bytes)
    }

    /// Every row's value, in order.
    pub fn iter(&self) -> impl Iterator<Item = Option<&'a str>> + '_ {
        (0..self.len).map(move |i| self.get(i))
    }
}

/// Converts any accepted string array to a plain `Utf8` array (returned as
/// is when it already is one).
pub fn to_utf8(array: &ArrayRef) -> Result<ArrayRef> {
    if array.data_type() == &DataType::Utf8 {
        return Ok(Arc::clone(array));
    }
    let col = StrColumn::new(array.as_ref())?;
    Ok(Arc::new(col.iter().collect::<StringArray>()))
}
