//! Spreadsheets (`.xlsx`, `.xlsm`, `.xlsb`, `.xls`, `.ods`), read with
//! calamine and handed on as the CSV a spreadsheet program would export,
//! so every CSV option and message applies: librarians' exports often
//! arrive so. One sheet is read: the first, or the one `--sheet` names.
//!
//! Cells are written as their text would read in such a CSV export: a
//! number that is a whole number without `.0` (`2019`, not `2019.0`), any
//! other to 15 significant digits as Excel shows it (`0.3`, not
//! `0.30000000000000004`), booleans `TRUE` and `FALSE`, dates as ISO 8601
//! (`2024-05-01`, with `T12:30:00` when there is a time), error cells as
//! Excel spells them (`#N/A`). Every field is quoted, so a header cell
//! holding `;` is never taken for a delimiter.

use calamine::{Data, Reader, Sheets};
use std::io::{Cursor, Read};

/// How [`to_csv`]'s error starts when the bytes hold no workbook.
pub const NOT_A_WORKBOOK: &str = "not a spreadsheet";

/// The sheet a run read, for the report and the notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetRead {
    /// The sheet's name.
    pub name: String,
    /// The workbook's sheets, in order.
    pub sheets: Vec<String>,
    /// `xlsx`, `xls`, `ods`, … as the format's name.
    pub format: &'static str,
}

/// The workbook `src` holds as CSV text, and which sheet it was; `Err`
/// says why not, naming the sheets there are when `sheet` names none of
/// them. `src` is read whole first, as calamine needs.
pub fn to_csv(mut src: impl Read, sheet: Option<&str>) -> Result<(Vec<u8>, SheetRead), String> {
    let mut bytes = Vec::new();
    src.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    let mut book = calamine::open_workbook_auto_from_rs(Cursor::new(bytes))
        .map_err(|e| format!("{NOT_A_WORKBOOK} calamine reads ({e})"))?;
    let format = match &book {
        Sheets::Xls(_) => "xls",
        Sheets::Xlsx(_) => "xlsx",
        Sheets::Xlsb(_) => "xlsb",
        Sheets::Ods(_) => "ods",
    };
    let sheets = book.sheet_names();
    let name = match sheet {
        None => sheets.first().cloned().ok_or("the workbook has no sheet")?,
        Some(want) => sheets
            .iter()
            .find(|s| *s == want)
            .or_else(|| {
                let mut same = sheets.iter().filter(|s| s.eq_ignore_ascii_case(want));
                same.next().filter(|_| same.next().is_none())
            })
            .cloned()
            .ok_or_else(|| {
                format!(
                    "no sheet named {want:?}; its sheets are: {}",
                    super::describe_columns(sheets.iter().map(String::as_str))
                )
            })?,
    };
    let range = book
        .worksheet_range(&name)
        .map_err(|e| format!("sheet {name:?} cannot be read: {e}"))?;
    let mut w = csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Always)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Columns keep their letters (`-c 3` is column C) whatever the first
    // used column; rows start at the first used one, the header.
    let first_col = range.start().map_or(0, |(_, c)| c as usize);
    let mut record: Vec<String> = Vec::new();
    for row in range.rows() {
        record.clear();
        record.extend(std::iter::repeat_n(String::new(), first_col));
        record.extend(row.iter().map(cell_text));
        w.write_record(&record).map_err(|e| e.to_string())?;
    }
    let csv = w.into_inner().map_err(|e| e.to_string())?;
    Ok((csv, SheetRead { name, sheets, format }))
}

/// A cell as a spreadsheet program's CSV export writes it.
fn cell_text(cell: &Data) -> String {
    match cell {
        Data::Empty => String::new(),
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => s.clone(),
        Data::Int(i) => i.to_string(),
        Data::Float(f) => number(*f),
        Data::Bool(b) => (if *b { "TRUE" } else { "FALSE" }).to_string(),
        Data::Error(e) => e.to_string(),
        Data::DateTime(d) if d.is_duration() => format!("PT{}S", (d.as_f64() * 86_400.0 * 1000.0).round() / 1000.0),
        Data::DateTime(d) => {
            let (y, mo, day, h, mi, s, ms) = d.to_ymd_hms_milli();
            let mut text = format!("{y:04}-{mo:02}-{day:02}");
            if (h, mi, s, ms) != (0, 0, 0, 0) {
                text += &format!("T{h:02}:{mi:02}:{s:02}");
                if ms > 0 {
                    text += &format!(".{ms:03}");
                }
            }
            text
        }
    }
}

/// A number as Excel shows it: whole numbers without `.0`, others to 15
/// significant digits, trailing zeros dropped.
fn number(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        return (f as i64).to_string();
    }
    let shown: f64 = format!("{f:.14e}").parse().unwrap_or(f);
    shown.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use calamine::{ExcelDateTime, ExcelDateTimeType};

    fn text(cell: Data) -> String {
        cell_text(&cell)
    }

    #[test]
    fn cells_read_as_a_csv_export_writes_them() {
        assert_eq!(text(Data::Float(2019.0)), "2019");
        assert_eq!(text(Data::Float(-3.0)), "-3");
        assert_eq!(text(Data::Float(0.1 + 0.2)), "0.3");
        assert_eq!(text(Data::Float(1200.5)), "1200.5");
        assert_eq!(text(Data::Int(12345678)), "12345678");
        assert_eq!(text(Data::Bool(true)), "TRUE");
        assert_eq!(text(Data::Empty), "");
        assert_eq!(text(Data::Error(calamine::CellErrorType::NA)), "#N/A");
        let date = |v| Data::DateTime(ExcelDateTime::new(v, ExcelDateTimeType::DateTime, false));
        assert_eq!(text(date(45413.0)), "2024-05-01");
        assert_eq!(text(date(45413.5)), "2024-05-01T12:00:00");
    }

    #[test]
    fn not_a_workbook() {
        let e = to_csv(&b"PK\x03\x04not really"[..], None).unwrap_err();
        assert!(e.starts_with(NOT_A_WORKBOOK), "{e}");
    }
}
