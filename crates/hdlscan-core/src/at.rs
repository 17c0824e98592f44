//! Where a value was read: the reference every value carries from the
//! reader through the report's examples to the duplicates file. A cell of
//! a record is one value, or several under `--split`.

/// One value's place.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct At {
    /// Index of the input among the run's inputs.
    pub input: u32,
    /// 1-based data record, counted across all inputs (the header is not
    /// a record).
    pub record: u64,
    /// The line where the record starts (CSV and TSV; none for Parquet).
    pub line: Option<u64>,
    /// Index of the column among the run's chosen columns.
    pub column: u32,
    /// 1-based position of the value in its cell.
    pub value_index: u32,
}
