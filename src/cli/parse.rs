//! `hdlscan parse`: parse values from the command line or stdin and print
//! every column of SPEC §3, as a table, JSON lines or TSV; with `--split`,
//! a row for each value a cell holds, with its place in the cell.

use super::ParserArgs;
use super::Usage;
use anyhow::Result;
use hdlscan::id::{Parsed, Parser, Rendered, Scratch, Split};
use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  hdlscan parse '10.1045/April2006-Paskin' 'https://hdl.handle.net/1721.1/123?noredirect'
  hdlscan parse --format jsonl < identifiers.txt
  cut -d, -f6 export.csv | hdlscan parse --format tsv --repair > parsed.tsv
  hdlscan parse --split '||' 'hdl:1721.1/5||https://doi.org/10.1000/182'
  hdlscan parse --expect doi --split auto 'doi:10.1000/1, doi:10.1000/2' '20.1000/x'";

#[derive(clap::Args, Debug)]
#[command(about = "Parse identifiers given as arguments, or one per line on stdin", after_help = EXAMPLES)]
pub struct ParseArgs {
    /// Values to parse. Without any, one value per line is read from stdin
    /// (LF or CRLF; every line is a value, an empty one too).
    pub values: Vec<String>,
    /// Output format [default: table on a terminal, jsonl otherwise]. The
    /// table shows input, kind, canonical and error or warnings; jsonl and
    /// tsv every column.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Split each value into the values it holds (SPEC §6): at SEP (DSpace
    /// uses '||'), or, with no SEP or 'auto', at SPEC's separators (white
    /// space, '|', ';', ',', '::', ' / ', ' and ') of a value that holds
    /// several identifiers. Each piece gets a row with its place: 'line'
    /// (which value), 'value_index' (1-based) and its byte range in the
    /// value ('start', 'end'). A value that is not split is one piece.
    #[arg(long, value_name = "SEP", num_args = 0..=1, default_missing_value = "auto")]
    pub split: Option<String>,
    #[command(flatten)]
    pub parser: ParserArgs,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Jsonl,
    Tsv,
}

/// The output columns: the value read, then SPEC §3's columns.
fn columns() -> impl Iterator<Item = &'static str> {
    std::iter::once("input").chain(hdlscan::SPEC)
}

/// The columns `--split` puts first: where the piece stands.
const PLACE: [&str; 4] = ["line", "value_index", "start", "end"];

/// Where a piece stands, as [`PLACE`] names it: the value it is from
/// (1-based), its 1-based index among the value's pieces, and its byte
/// range in the value.
type Place = [usize; 4];

pub fn run(args: ParseArgs) -> Result<ExitCode> {
    let parser = args.parser.build()?;
    let split = args.split.as_deref().map(Split::at).transpose();
    let split = split.map_err(|e| Usage::error(format!("--split: {e}")))?;
    let stdout = io::stdout();
    let format = args.format.unwrap_or(if stdout.is_terminal() {
        Format::Table
    } else {
        Format::Jsonl
    });
    let mut out = io::BufWriter::new(stdout.lock());
    // Someone typing values wants each row as soon as its line is read.
    let interactive = args.values.is_empty() && io::stdin().is_terminal();
    let mut printer = Printer::new(format, parser, split, if interactive { 1 } else { TABLE_BLOCK });
    printer.start(&mut out)?;
    if !args.values.is_empty() {
        for v in &args.values {
            printer.value(v.as_bytes(), &mut out)?;
        }
    } else {
        let mut input = io::stdin().lock();
        let mut line = Vec::new();
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            // CR LF ends a line as LF does; a CR without LF stays.
            let value = line
                .strip_suffix(b"\n")
                .map_or(&line[..], |l| l.strip_suffix(b"\r").unwrap_or(l));
            printer.value(value, &mut out)?;
        }
    }
    printer.finish(&mut out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Rows a table holds before it writes them: enough to size its columns
/// on most inputs, few enough that memory stays small on any.
const TABLE_BLOCK: usize = 1000;

/// Writes one value at a time; a table, which sizes its columns by its
/// rows, a block of rows at a time, its columns only ever widening.
struct Printer {
    format: Format,
    parser: Parser,
    split: Option<Split>,
    pieces: Vec<std::ops::Range<usize>>,
    /// Values read so far.
    line: usize,
    scratch: Scratch,
    rendered: Rendered,
    table: Table,
}

impl Printer {
    fn new(format: Format, parser: Parser, split: Option<Split>, block: usize) -> Printer {
        Printer {
            format,
            parser,
            split,
            pieces: Vec::new(),
            line: 0,
            scratch: Scratch::default(),
            rendered: Rendered::default(),
            table: Table {
                rows: Vec::new(),
                block,
                width: [0; 4],
                started: false,
            },
        }
    }

    /// The TSV header, even for no values.
    fn start(&mut self, out: &mut impl Write) -> Result<()> {
        if self.format == Format::Tsv {
            let place = self.split.is_some().then_some(PLACE).into_iter().flatten();
            writeln!(out, "{}", place.chain(columns()).collect::<Vec<_>>().join("\t"))?;
        }
        Ok(())
    }

    /// One value read: one row, or with `--split` a row for each piece.
    fn value(&mut self, raw: &[u8], out: &mut impl Write) -> Result<()> {
        self.line += 1;
        let Some(split) = &self.split else {
            return self.row(raw, None, out);
        };
        // An empty value is one empty piece: nothing read goes unaccounted.
        hdlscan::cell_values(Some(split), &self.parser, raw, &mut self.scratch, &mut self.pieces);
        for index in 0..self.pieces.len() {
            let r = self.pieces[index].clone();
            let place = [self.line, index + 1, r.start, r.end];
            self.row(&raw[r], Some(place), out)?;
        }
        Ok(())
    }

    fn row(&mut self, raw: &[u8], place: Option<Place>, out: &mut impl Write) -> Result<()> {
        let p = self.parser.parse(raw, &mut self.scratch);
        self.parser.render(&p, &mut self.rendered);
        let input = String::from_utf8_lossy(raw);
        let fields = fields(&input, &p, &self.rendered);
        match self.format {
            Format::Jsonl => write_json(place, &fields, &p, out)?,
            Format::Tsv => {
                let place = place.into_iter().flatten().map(|n| n.to_string());
                let line: Vec<String> = place
                    .chain(fields.iter().map(|f| tsv_escape(f.as_deref().unwrap_or(""))))
                    .collect();
                writeln!(out, "{}", line.join("\t"))?;
            }
            Format::Table => {
                let mut row = fields.map(|f| f.unwrap_or_default());
                row[0] = match place {
                    Some([line, index, ..]) => format!("{line}.{index} {:?}", row[0]),
                    None => format!("{:?}", row[0]),
                };
                self.table.push(row, out)?
            }
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut impl Write) -> Result<()> {
        if self.format == Format::Table {
            self.table.write(out)?;
        }
        Ok(())
    }
}

/// The 13 columns as text; `None` where SPEC says absent. `warnings` is
/// joined with `;` here (JSON writes it as an array).
fn fields(input: &str, p: &Parsed<'_>, r: &Rendered) -> [Option<String>; 13] {
    let warnings = if p.warnings.is_empty() {
        None
    } else {
        let mut s = String::new();
        p.warnings.join_into(";", &mut s);
        Some(s)
    };
    let own = |s: Option<&str>| s.map(str::to_owned);
    [
        Some(input.to_owned()),
        Some(p.kind.as_str().to_owned()),
        own(p.namespace),
        own(p.prefix),
        own(p.suffix),
        own(r.canonical()),
        own(r.uri()),
        own(r.url()),
        own(p.resolver),
        own(p.query),
        own(p.fragment),
        p.error.map(|e| e.as_str().to_owned()),
        warnings,
    ]
}

fn write_json(place: Option<Place>, fields: &[Option<String>; 13], p: &Parsed<'_>, out: &mut impl Write) -> Result<()> {
    let mut obj = serde_json::Map::new();
    for (k, n) in place.map(|p| PLACE.into_iter().zip(p)).into_iter().flatten() {
        obj.insert(k.into(), n.into());
    }
    for (k, v) in columns().zip(fields.iter()).take(12) {
        obj.insert(
            k.into(),
            v.clone().map_or(serde_json::Value::Null, serde_json::Value::String),
        );
    }
    obj.insert(
        "warnings".into(),
        p.warnings.iter().map(|w| serde_json::Value::from(w.as_str())).collect(),
    );
    // As an `io::Error`, so that a closed pipe is told apart (exit 0).
    serde_json::to_writer(&mut *out, &obj).map_err(io::Error::from)?;
    out.write_all(b"\n")?;
    Ok(())
}

fn tsv_escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\t', "\\t")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

/// The table a terminal shows: input, kind, canonical and error/warnings
/// (the other columns are in `--format jsonl` and `tsv`).
struct Table {
    rows: Vec<[String; 4]>,
    /// Rows written together.
    block: usize,
    width: [usize; 4],
    started: bool,
}

impl Table {
    const HEAD: [&str; 4] = ["INPUT", "KIND", "CANONICAL", "ERROR / WARNINGS"];

    fn push(&mut self, r: [String; 13], out: &mut impl Write) -> Result<()> {
        let diag = if r[11].is_empty() {
            r[12].clone()
        } else {
            format!("error: {}", r[11])
        };
        self.rows.push([r[0].clone(), r[1].clone(), r[5].clone(), diag]);
        if self.rows.len() >= self.block {
            self.write(out)?;
        }
        Ok(())
    }

    /// Writes the rows held (with the header first), and forgets them.
    fn write(&mut self, out: &mut impl Write) -> Result<()> {
        let head = (!self.started).then_some(Self::HEAD.map(String::from));
        for r in head.iter().chain(&self.rows) {
            for (w, c) in self.width.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        for r in head.iter().chain(&self.rows) {
            let mut line = String::new();
            for (i, (c, w)) in r.iter().zip(self.width).enumerate() {
                line.push_str(c);
                if i < 3 {
                    line.extend(std::iter::repeat_n(' ', w - c.chars().count() + 2));
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        self.started = true;
        self.rows.clear();
        out.flush()?;
        Ok(())
    }
}
