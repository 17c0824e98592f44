//! The command line: argument definitions, the mapping of failures to
//! exit statuses ([`Exit`]; a closed stdout is success, as for any Unix
//! filter), and what the commands that write files share (the interrupt
//! handler, the refusal of `-o -`).

mod bench;
mod diff;
mod r#gen;
mod parse;
mod report_files;
mod scan;

use clap::{Parser as ClapParser, Subcommand};
use std::process::ExitCode;

#[derive(ClapParser, Debug)]
#[command(
    name = "hdlscan",
    version,
    propagate_version = true,
    about = "Audit Handle System handles, DOIs, hdl:/info: URIs and resolver URLs in bulk",
    long_about = None,
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    Scan(Box<scan::ScanArgs>),
    Diff(Box<diff::DiffArgs>),
    Parse(parse::ParseArgs),
    Gen(r#gen::GenArgs),
    Bench(bench::BenchArgs),
}

/// Every exit status hdlscan gives, as ruff and ripgrep document theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// The run finished, and no `--fail-if` gate held.
    Success = 0,
    /// The run could not finish: bad input, I/O, a failed check. Never
    /// 0 or 3: what a failed run would have reported is unknown.
    Error = 1,
    /// The command line asks for something impossible.
    Usage = 2,
    /// The run finished, output and reports were written, and a
    /// `--fail-if` gate held.
    GateFailed = 3,
    /// SIGINT or SIGTERM: nothing was written (or all of it, if the signal
    /// came while the outputs were renamed into place).
    Interrupted = 130,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

pub fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|e| split_took_the_input(e, std::env::args()).exit());
    let result = match cli.command {
        Command::Scan(args) => scan::run(*args),
        Command::Diff(args) => diff::run(*args),
        Command::Parse(args) => parse::run(args),
        Command::Gen(args) => r#gen::run(args),
        Command::Bench(args) => bench::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            say(format_args!("hdlscan: {e:#}"));
            if e.downcast_ref::<Usage>().is_some() {
                Exit::Usage.into()
            } else {
                Exit::Error.into()
            }
        }
    }
}

/// Clap's error when `--split`'s optional SEP took the only input
/// (`scan --split export.csv -c doi`): "INPUT not provided" then says why,
/// in a tip naming the file it took.
fn split_took_the_input(mut e: clap::Error, args: impl Iterator<Item = String>) -> clap::Error {
    if e.kind() != clap::error::ErrorKind::MissingRequiredArgument {
        return e;
    }
    let args: Vec<String> = args.collect();
    let took = args
        .windows(2)
        .find(|w| w[0] == "--split" && std::path::Path::new(&w[1]).is_file());
    if let Some(w) = took {
        let tip = format!(
            "--split took '{}' as its separator (SEP is optional): give the input before --split, \
             or SEP after it (--split auto, --split '||')",
            w[1]
        );
        e.insert(
            clap::error::ContextKind::Suggested,
            clap::error::ContextValue::StyledStrs(vec![tip.into()]),
        );
    }
    e
}

/// A command line that asks for something impossible, found after clap's
/// own checks (which exit 2 too): exit status 2, like them.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

impl Usage {
    /// `e` as a usage error, for `map_err`.
    fn error(e: impl std::fmt::Display) -> anyhow::Error {
        anyhow::Error::new(Usage(e.to_string()))
    }
}

use hdlscan::{Format, PlanError, Severity, Verdict};

/// A run that finished: its `summary` on stderr, or with `-q` (`quiet`)
/// one line for a nightly job's log when a `--fail-if` held: each failed
/// gate, then the baseline's caveat when a failed `change:` gate may owe
/// it. Exit 3 when a `--fail-if` gate held.
fn finished(quiet: bool, summary: &str, gates: &[Verdict], caveat: Option<String>) -> anyhow::Result<ExitCode> {
    let failed: Vec<&Verdict> = gates.iter().filter(|g| g.failed()).collect();
    if !quiet {
        use std::io::Write;
        let _ = std::io::stderr().lock().write_all(summary.as_bytes());
    } else if !failed.is_empty() {
        let mut said: Vec<String> = failed.iter().map(|g| g.describe()).collect();
        if failed.iter().any(|g| g.then.is_some())
            && let Some(caveat) = caveat
        {
            said.push(format!("note: {caveat}"));
        }
        say(format_args!("hdlscan: {}", said.join("; ")));
    }
    Ok(if failed.is_empty() {
        Exit::Success
    } else {
        Exit::GateFailed
    }
    .into())
}

/// `--fail-if` and `--warn-if`, read by `parse` before any work: a typo
/// in a metric is a usage error, not a finished run judged wrong.
fn gates<G>(
    fail_if: &[String],
    warn_if: &[String],
    parse: fn(&str, Severity) -> Result<G, String>,
) -> anyhow::Result<Vec<G>> {
    let fail = fail_if.iter().map(|e| parse(e, Severity::Fail));
    let warn = warn_if.iter().map(|e| parse(e, Severity::Warn));
    fail.chain(warn).collect::<Result<_, _>>().map_err(Usage::error)
}

/// A plan refused: exit 2 when the command line is at fault, 1 when an
/// input is (its error as it came, with its chain).
fn plan_error(e: PlanError) -> anyhow::Error {
    match e {
        PlanError::Input(e) => e,
        e if e.is_usage() => Usage::error(e),
        e => anyhow::Error::new(e),
    }
}

/// The format of `-o PATH` (`diff`'s output), as `scan` reads it; `diff`
/// writes no output to stdout, where its summary goes.
fn output_format(path: &std::path::Path, flag: Option<Format>) -> anyhow::Result<Format> {
    if path.as_os_str() == "-" {
        anyhow::bail!(Usage(hdlscan::DASH_OUTPUT.into()));
    }
    hdlscan::output_format(path, flag).map_err(plan_error)
}

/// The formats `--output-format` takes.
const WRITTEN: &[(Format, &str)] = &[
    (Format::Parquet, ""),
    (Format::Csv, ""),
    (Format::Tsv, ""),
    (Format::Arrow, ""),
    (Format::Jsonl, "JSON Lines: a row an object"),
];

/// A `--…-format` flag taking these formats by name, each with its help
/// (none when empty).
fn formats(list: &'static [(Format, &'static str)]) -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = list.iter().map(|&(f, help)| match help {
        "" => PossibleValue::new(f.name()),
        help => PossibleValue::new(f.name()).help(help),
    });
    // Clap has checked the name against the list.
    PossibleValuesParser::new(values).map(|name| {
        list.iter()
            .find(|(f, _)| f.name() == name)
            .map_or(list[0].0, |&(f, _)| f)
    })
}

/// SIGINT/SIGTERM: remove temporary output files, then exit non-zero.
/// `scan` and `gen` install it: their outputs are `AtomicFile`s.
fn install_signal_handler() {
    let _ = ctrlc::set_handler(|| {
        hdlscan::remove_all_temp_files();
        if hdlscan::committed_any() {
            // The interrupt came while output and report were renamed into
            // place: they are complete.
            say(format_args!("hdlscan: interrupted after the output was written"));
        } else {
            say(format_args!("hdlscan: interrupted; no output written"));
        }
        std::process::exit(Exit::Interrupted as i32);
    });
}

/// One line on stderr. `eprintln!` panics when stderr is closed or full
/// (`2>/dev/full`); a message that cannot be shown is not worth a panic,
/// and the exit status still tells.
pub(crate) fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

pub(crate) fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Options shared by every command that parses identifiers.
#[derive(clap::Args, Debug, Clone)]
pub struct ParserArgs {
    /// Apply SPEC's repairs: trailing punctuation, look-alike dashes,
    /// invisible characters, HTML entities, publisher suffixes and double
    /// encoding in canonical, uri and url; and the whole-value repairs of
    /// SPEC §6 (a cell holding one identifier twice, a line break inside
    /// one, text glued to one, a publisher's landing page holding a DOI),
    /// which then read as that identifier. Codes stay as warnings, so
    /// reports show what was repaired.
    #[arg(long)]
    pub repair: bool,
    /// The namespace the values should have: doi, hdl, a scheme such as
    /// issn or orcid, an info: namespace such as lccn, or info:NAME for
    /// another. Repeatable. A valid value of any other
    /// namespace is then invalid with unexpected_namespace (a handle in a
    /// DOI column). `scan` also takes COLUMN=NS, for the columns COLUMN
    /// selects (a name, number or pattern, as --column).
    #[arg(long = "expect", value_name = "NS|COLUMN=NS")]
    pub expect: Vec<String>,
    /// Also accept resolver URLs on this host (HOST[:PORT][/PATH], e.g.
    /// repository.example.edu/handle). Repeatable.
    #[arg(long = "resolver", value_name = "HOST[/PATH]")]
    pub resolvers: Vec<String>,
    /// Values longer than this many bytes, once trimmed, are invalid
    /// (too_long).
    #[arg(long, value_name = "BYTES", default_value_t = 2048)]
    pub max_len: usize,
}

impl ParserArgs {
    /// The parser of values that have no column (`parse`, `bench`):
    /// `--expect NS` only (`scan` plans a parser per column).
    pub fn build(&self) -> anyhow::Result<hdlscan::id::Parser> {
        let mut opts = hdlscan::parser_options(self.repair, self.max_len, &self.resolvers).map_err(Usage::error)?;
        for ns in &self.expect {
            if ns.contains('=') {
                anyhow::bail!(Usage(format!(
                    "--expect {ns}: COLUMN=NS names a column of scan's input; parse reads values, not columns: use --expect NS"
                )));
            }
            opts.expect(ns).map_err(|e| Usage::error(format!("--expect {e}")))?;
        }
        Ok(hdlscan::id::Parser::new(opts))
    }
}
