//! The files `scan` writes besides its output: `--report FILE` (repeatable;
//! JSON, Markdown or HTML by extension, `--report-format` for `-`) and
//! `--duplicates FILE` (`.csv`, `.tsv`, `.parquet`, `.arrow`, `.jsonl`). Each is an
//! `AtomicFile` created before any work,
//! so a file that cannot be written fails the run before anything is
//! touched, and none may name an input, the output or another of them.

use super::Usage;
use anyhow::{Context, Result, bail};
use hdlscan::{AtomicFile, Format, Grouped, Markup, Pages, Sink};
use std::io::Write;
use std::path::{Path, PathBuf};

/// `--report` and `--report-format`, as `scan` and `diff` take them.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Write the report here, repeatable: JSON, Markdown or HTML by the
    /// extension (.json, .md, .html); `-` for stdout. Another extension
    /// gets --report-format, or JSON.
    #[arg(long, value_name = "FILE")]
    pub report: Vec<String>,
    /// The format of `--report -` and of report files whose extension
    /// does not say.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub report_format: Option<ReportFormat>,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    Json,
    Md,
    Html,
}

impl ReportFormat {
    fn from_path(p: &Path) -> Option<ReportFormat> {
        let ext = p.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "json" => ReportFormat::Json,
            "md" | "markdown" => ReportFormat::Md,
            "html" | "htm" => ReportFormat::Html,
            _ => return None,
        })
    }

    fn render(self, r: &dyn Pages) -> Result<String> {
        Ok(match self {
            ReportFormat::Json => serde_json::to_string_pretty(&r.json())? + "\n",
            ReportFormat::Md => r.page(Markup::Markdown),
            ReportFormat::Html => r.page(Markup::Html),
        })
    }
}

/// One `--report`: its format, and its file (none for stdout).
pub struct ReportFile {
    format: ReportFormat,
    file: Option<AtomicFile>,
}

/// The paths a run writes, each with what it is, so that no two name one
/// file and none names an input.
pub struct Claimed {
    inputs: Vec<PathBuf>,
    written: Vec<(String, PathBuf)>,
}

impl Claimed {
    /// Nothing claimed yet; `inputs` may not be written.
    pub fn new(inputs: &[&Path]) -> Claimed {
        Claimed {
            inputs: inputs.iter().map(|p| p.to_path_buf()).collect(),
            written: Vec::new(),
        }
    }

    /// Claims `path` for `flag`, described as `what` ("the output file");
    /// an input, or a path already claimed (under any spelling), is a
    /// usage error: the command line names one file twice.
    pub fn claim(&mut self, flag: &str, what: &str, path: &Path) -> Result<()> {
        let inputs: Vec<&Path> = self.inputs.iter().map(PathBuf::as_path).collect();
        hdlscan::check_not_an_input(path, &inputs).map_err(|e| Usage(format!("{flag}: {e:#}")))?;
        if let Some((other, p)) = self.written.iter().find(|(_, p)| hdlscan::same_target(p, path)) {
            bail!(Usage(format!(
                "{flag} {} names {other} {} too; give each its own name",
                path.display(),
                p.display()
            )));
        }
        self.written.push((what.to_string(), path.to_path_buf()));
        Ok(())
    }
}

/// Opens every `--report` target.
pub fn open(args: &ReportArgs, claimed: &mut Claimed, inputs: &[&Path]) -> Result<Vec<ReportFile>> {
    let (specs, format) = (&args.report, args.report_format);
    if specs.iter().filter(|s| *s == "-").count() > 1 {
        bail!(Usage("--report -: stdout can take one report".into()));
    }
    let open = |spec: &String| {
        if spec == "-" {
            let format = format.unwrap_or(ReportFormat::Json);
            return Ok(ReportFile { format, file: None });
        }
        let path = Path::new(spec);
        // Another extension (`audit.txt`) is what --report-format says, or
        // JSON, as before reports had formats.
        let format = ReportFormat::from_path(path).or(format).unwrap_or(ReportFormat::Json);
        claimed.claim("--report", "the report file", path)?;
        let file = AtomicFile::create(path, inputs).with_context(|| format!("--report {spec}"))?;
        Ok(ReportFile {
            format,
            file: Some(file),
        })
    };
    specs.iter().map(open).collect()
}

/// Opens the duplicates file (`--duplicates`), refusing an input, the
/// output or a report's path (see [`Claimed::claim`]).
pub fn open_duplicates(path: &Path, claimed: &mut Claimed, inputs: &[&Path]) -> Result<Sink> {
    claimed.claim("--duplicates", "the duplicates file", path)?;
    let format = Format::from_path(path).ok_or_else(|| {
        Usage(format!(
            "--duplicates {}: unknown format; use a .csv, .tsv, .parquet, .arrow or .jsonl name",
            path.display()
        ))
    })?;
    Sink::create_with(path, format, Grouped::schema(), inputs, Grouped::sink_options())
        .with_context(|| format!("--duplicates {}", path.display()))
}

/// Writes `report` into every report file and to stdout for `-`, then
/// commits the files with `outputs` in one step: a report that cannot be
/// written (full disk) leaves no output behind, and an interrupt leaves
/// all or none. A reader that stopped reading stdout (`--report - | head`)
/// is not a failed run: the files are committed, and that error is
/// returned last (`main` exits 0 for it).
pub fn write_and_commit(
    mut reports: Vec<ReportFile>,
    report: &dyn Pages,
    outputs: impl IntoIterator<Item = AtomicFile>,
) -> Result<()> {
    let mut stdout_err = None;
    for r in &mut reports {
        let text = r.format.render(report)?;
        match &mut r.file {
            Some(f) => f
                .write_all(text.as_bytes())
                .with_context(|| format!("writing the report {}", f.target().display()))?,
            None => {
                let mut out = std::io::stdout().lock();
                if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                    stdout_err = Some(anyhow::Error::new(e).context("writing the report to stdout"));
                }
            }
        }
    }
    if let Some(e) = stdout_err.take_if(|e| !super::is_broken_pipe(e)) {
        return Err(e);
    }
    let files = outputs.into_iter().chain(reports.into_iter().filter_map(|r| r.file));
    hdlscan::commit_all(files.collect())?;
    stdout_err.map_or(Ok(()), Err)
}
