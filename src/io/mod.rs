//! CSV input side of the pipeline.
//!
//! A sequential reader ([`csv_in::CsvBlockReader`]) decompresses the input
//! and cuts it into large blocks of whole records, using the quote-aware
//! boundary finder in [`split`]. Blocks are then parsed independently (e.g.
//! on rayon's pool) into columnar [`csv_in::RowBlock`]s by
//! [`csv_in::parse_block`]; the caller keeps them in input order.

pub mod csv_in;
pub mod split;
