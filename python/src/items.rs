//! Cells of several items: a list column (`list<string>`), each row a
//! cell whose elements are the values a path through `[]` reached
//! (`locations[].landing_page_url`, flattened by `hdlscan.spark`), read
//! as the CLI reads a path's cells (`src/pipeline/classify.rs`,
//! `each_value`): a null element is an empty value in its place, a cell
//! of no items (an empty or null list) one empty value, and `value_index`
//! counts a cell's values across its items (and their pieces under
//! `--split`).

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BinaryArray, GenericListArray, OffsetSizeTrait};
use arrow_schema::DataType;
use hdlscan_core::strings::{IdColumn, integer_text};
use std::sync::Arc;

/// A list column's items, one a row, for `classify_cells`, and the cell
/// (the list's row) each came from, in order.
pub struct Items {
    pub flat: ArrayRef,
    pub cell: Vec<u32>,
}

/// Whether `dt` is a list of what the parser reads (strings, binary,
/// integers as their decimal text).
pub fn is_list_of_values(dt: &DataType) -> bool {
    match dt {
        DataType::List(f) | DataType::LargeList(f) => {
            f.data_type().is_integer() || IdColumn::new(&arrow_array::new_empty_array(f.data_type())).is_ok()
        }
        _ => false,
    }
}

/// The items of `list` (a type [`is_list_of_values`] takes), or None for
/// any other array.
pub fn items(list: &dyn Array) -> Option<Items> {
    match list.data_type() {
        DataType::List(_) => Some(flatten(list.as_list::<i32>())),
        DataType::LargeList(_) => Some(flatten(list.as_list::<i64>())),
        _ => None,
    }
}

fn flatten<O: OffsetSizeTrait>(list: &GenericListArray<O>) -> Items {
    let values = list.values();
    let text = integer_text(values.as_ref()).map(|t| Arc::new(t) as ArrayRef);
    let values = text.as_ref().unwrap_or(values);
    let column = IdColumn::new(values.as_ref()).expect("checked by is_list_of_values");
    let mut cell = Vec::with_capacity(values.len());
    let mut flat: Vec<Option<&[u8]>> = Vec::with_capacity(values.len());
    for (row, w) in list.offsets().windows(2).enumerate() {
        let (a, b) = (w[0].as_usize(), w[1].as_usize());
        if list.is_null(row) || a == b {
            // No item: one empty value, as the CLI's path that found nothing.
            flat.push(None);
            cell.push(row as u32);
            continue;
        }
        for i in a..b {
            flat.push(column.get_bytes(i));
            cell.push(row as u32);
        }
    }
    Items {
        flat: Arc::new(BinaryArray::from(flat)),
        cell,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::types::Int32Type;
    use arrow_array::{ListArray, StringArray};
    use arrow_schema::Field;

    fn list(rows: Vec<Option<Vec<Option<&str>>>>) -> ListArray {
        let mut offsets = vec![0i32];
        let mut values = Vec::new();
        let mut valid = Vec::new();
        for r in &rows {
            valid.push(r.is_some());
            values.extend(r.clone().unwrap_or_default());
            offsets.push(values.len() as i32);
        }
        ListArray::new(
            Arc::new(Field::new_list_field(DataType::Utf8, true)),
            arrow_buffer::OffsetBuffer::new(offsets.into()),
            Arc::new(StringArray::from(values)),
            Some(valid.into()),
        )
    }

    #[test]
    fn an_empty_or_null_list_is_one_empty_item_and_a_null_element_an_empty_one() {
        let l = list(vec![
            Some(vec![Some("a"), None]),
            Some(vec![]),
            None,
            Some(vec![Some("b")]),
        ]);
        let it = items(&l).unwrap();
        assert_eq!(it.cell, [0, 0, 1, 2, 3]);
        let flat = it.flat.as_binary::<i32>();
        let got: Vec<Option<&[u8]>> = flat.iter().collect();
        assert_eq!(got, [Some(&b"a"[..]), None, None, None, Some(&b"b"[..])]);
    }

    #[test]
    fn integers_are_their_decimal_text() {
        let l = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![Some(vec![Some(42), None])]);
        assert!(is_list_of_values(l.data_type()));
        let it = items(&l).unwrap();
        assert_eq!(it.flat.as_binary::<i32>().value(0), b"42");
    }
}
