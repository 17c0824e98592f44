//! The inputs a user has (issue 28), each on a fixture shaped like the
//! real file that showed it: a typo in a JSON or Parquet path, a `;` CSV
//! (OpenAPC's German and Czech files), a ragged CSV (DBLP's VIS papers),
//! an Excel export (a DSpace one), and output to stdout.
//!
//! Run: `cargo test --test tests inputs`

use crate::hostile::write_parquet;
use crate::scan::{Run, assert_no_temp_files, entries, read_json, scan};
use std::path::{Path, PathBuf};

/// Asserts the run said `note` on stderr (its summary's notes).
#[track_caller]
fn says(run: &Run, note: &str) {
    assert!(run.stderr.contains(note), "no {note:?} in:\n{}", run.stderr);
}

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata").join(path)
}

/// `-c dooi` on OpenAlex works: every record is read before the path is
/// known to reach nothing, and then nothing is left of the output, the
/// report or the duplicates file.
#[test]
fn a_json_path_that_reaches_nothing_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let works = fixture("jsonl/openalex_works.jsonl");
    let works = works.to_str().unwrap();
    let outputs = ["-o", "out.parquet", "--report", "r.json", "--duplicates", "d.csv"];
    let run = |args: &[&str]| scan(d, &[&[works][..], args, &outputs].concat());
    run(&["-c", "dooi"]).usage_error(&[
        "--column dooi: reaches nothing in any record of",
        "openalex_works.jsonl",
        "(did you mean 'doi'?)",
        "keys seen there: id, doi, title",
    ]);
    run(&["-c", "doi", "-c", "ids.dooi"]).usage_error(&["--column ids.dooi", "(did you mean 'ids.doi'?)"]);
    run(&["-c", "locations[].landing_page_uri"]).usage_error(&["(did you mean 'locations[].landing_page_url'?)"]);
    run(&["-c", "doi", "--keep", "titel"]).usage_error(&["--keep titel", "(did you mean 'title'?)"]);
    assert_no_temp_files(d);
    assert!(entries(d).is_empty(), "{:?}", entries(d));

    // A key only the last record has, or one always null, is reached.
    std::fs::write(
        d.join("late.jsonl"),
        "{\"id\":1}\n{\"id\":2,\"doi\":null}\n{\"id\":3,\"x\":{\"doi\":\"10.1000/1\"}}\n",
    )
    .unwrap();
    scan(d, &["late.jsonl", "-c", "doi", "-c", "x.doi", "-q"]).ok();

    // A document whose records are a list under a key (DataCite's
    // {"data": [...]}) read as JSON Lines: the key holding a list is named
    // with the flag that reads it; read so, it works.
    std::fs::write(d.join("doc.json"), "{\"data\":[{\"id\":\"10.1/a\"}],\"meta\":{}}\n").unwrap();
    scan(d, &["doc.json", "-c", "id"]).usage_error(&[
        "keys seen there: data, meta",
        "if the records are the list under 'data', read them with --records data",
    ]);
    scan(d, &["doc.json", "-c", "id", "--records", "data", "-q"]).ok();

    // Crossref's API answers with the list one object down
    // ({"message": {"items": [...]}}): that path is named.
    std::fs::write(
        d.join("crossref.json"),
        "{\"status\":\"ok\",\"message\":{\"total-results\":1,\"facets\":{},\"items\":[{\"DOI\":\"10.1/a\"}]}}\n",
    )
    .unwrap();
    scan(d, &["crossref.json", "-c", "DOI"]).usage_error(&[
        "keys seen there: status, message",
        "if the records are the list under 'message.items', read them with --records message.items",
    ]);
    scan(d, &["crossref.json", "-c", "DOI", "--records", "message.items", "-q"]).ok();

    // A list whose elements lack the column's key is a field, not the
    // records (a DataCite record's attributes.identifiers): no hint.
    std::fs::write(
        d.join("one.json"),
        "{\"id\":\"10.1/a\",\"attributes\":{\"identifiers\":[{\"identifier\":\"x\"}]}}\n",
    )
    .unwrap();
    let message = scan(d, &["one.json", "-c", "doi"]).usage_error(&["keys seen there: id, attributes"]);
    assert!(!message.contains("--records"), "{message}");
}

/// The same typo into nested Parquet is found before reading a row.
#[test]
fn a_parquet_path_that_reaches_nothing_names_the_nearest_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_parquet(&d.join("works.parquet"), &crate::nested::works());
    scan(d, &["works.parquet", "-c", "ids.dooi", "-o", "out.csv"])
        .usage_error(&["ids has no field 'dooi' (did you mean 'doi'?)"]);
    scan(d, &["works.parquet", "-c", "idss.doi"]).usage_error(&["(did you mean 'ids'?)"]);
    assert_eq!(entries(d), ["works.parquet"]);
}

/// OpenAPC's FWF file is `;`-separated: read so without `--delimiter`,
/// and the summary and the report say how.
#[test]
fn a_semicolon_csv_is_read_with_its_delimiter() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fwf = fixture("inputs/openapc_fwf_2016_semicolon.csv");
    let fwf = fwf.to_str().unwrap();
    let run = scan(d, &[fwf, "-c", "doi", "-o", "out.csv", "--report", "r.json"]).ok();
    says(
        &run,
        "read with ';' as the delimiter (--delimiter ';'): its header is one column with ','",
    );
    let r = read_json(&d.join("r.json"));
    assert_eq!(
        (r["records"].as_u64(), r["valid"].as_u64()),
        (Some(10), Some(10)),
        "{r}"
    );
    assert_eq!(r["run"]["options"]["delimiter"], ";");
    let out = std::fs::read_to_string(d.join("out.csv")).unwrap();
    assert!(out.starts_with("period,doi,record,kind,"), "{out}");
    // A delimiter given is used as it is: one column, and the hint.
    scan(d, &[fwf, "-c", "doi", "-d", ","]).usage_error(&["add --delimiter ';'"]);
    // A tab or `|` too; a TSV's tab is not second-guessed.
    std::fs::write(d.join("pipe.csv"), "id|doi\n1|10.1000/1\n").unwrap();
    scan(d, &["pipe.csv", "-c", "doi", "-q"]).ok();
    std::fs::write(d.join("semi.tsv"), "id;doi\n1;10.1000/1\n").unwrap();
    scan(d, &["semi.tsv", "-c", "doi"]).usage_error(&["add --delimiter ';'"]);
}

/// DBLP's VIS papers: 4 names, 5 fields a record.
#[test]
fn ragged_rows_are_an_error_or_padded_or_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let vis = fixture("inputs/dblp_vis_ragged.csv");
    let vis = vis.to_str().unwrap();
    scan(d, &[vis, "-c", "doi", "-o", "out.csv"]).fails_with(&[
        "dblp_vis_ragged.csv: record 1 (line 2): expected 4 fields, found 5",
        "--ragged extra",
    ]);
    scan(d, &[vis, "-c", "doi", "--ragged", "pad"]).fails_with(&["record 1 (line 2)", "--ragged extra"]);
    assert_eq!(entries(d), Vec::<String>::new());
    let run = scan(
        d,
        &[
            vis, "-c", "doi", "--ragged", "extra", "-o", "out.csv", "--report", "r.json",
        ],
    )
    .ok();
    says(
        &run,
        "records have up to 5 fields and the header 4 names: the fields past it are read as column_5",
    );
    let out = std::fs::read_to_string(d.join("out.csv")).unwrap();
    let mut lines = out.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("year,venue,title,doi,column_5,record,kind,"),
        "{out}"
    );
    assert!(
        lines
            .next()
            .unwrap()
            .contains(",https://dblp.org/rec/journals/tvcg/IsenbergHKIXSSCMS17,1,doi,")
    );
    let r = read_json(&d.join("r.json"));
    assert_eq!(
        (r["valid"].as_u64(), r["run"]["options"]["ragged"].as_str()),
        (Some(3), Some("extra"))
    );

    // Short rows: an error naming the record, or padded.
    std::fs::write(d.join("short.csv"), "id,doi,title\n1,10.1000/1,A\n2,10.1000/2\n").unwrap();
    scan(d, &["short.csv", "-c", "doi"]).fails_with(&[
        "short.csv: record 2 (line 3): expected 3 fields, found 2",
        "--ragged pad",
    ]);
    for how in ["pad", "extra"] {
        scan(d, &["short.csv", "-c", "doi", "--ragged", how, "-q"]).ok();
    }
    // The earlier flag is `--ragged pad`.
    scan(d, &["short.csv", "-c", "doi", "--allow-short-rows", "-q"]).ok();
    scan(d, &["short.csv", "-c", "doi", "--ragged", "wide"]).usage_error(&["pad or extra"]);
    let works = fixture("jsonl/openalex_works.jsonl");
    scan(d, &[works.to_str().unwrap(), "-c", "doi", "--ragged", "pad"])
        .usage_error(&["--ragged applies to CSV/TSV input only"]);
}

/// A DSpace export saved as `.xlsx` (the Eurographics one arrived so):
/// read as its CSV export would be, first sheet or `--sheet`.
#[test]
fn an_xlsx_export_is_read_as_csv() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let book = fixture("inputs/eurographics_dspace.xlsx");
    let book = book.to_str().unwrap();
    let keep = ["--keep", "dc.date.issued", "--keep", "pages", "--keep", "open"];
    let args = [
        &[book, "-c", "dc.identifier.*", "-o", "out.csv", "--report", "r.json"][..],
        &keep,
    ]
    .concat();
    let run = scan(d, &args).ok();
    says(
        &run,
        "read its first sheet, \"Items\", of 2 (Items, Statistics; --sheet NAME reads another)",
    );
    let out = std::fs::read_to_string(d.join("out.csv")).unwrap();
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split(',').take(9).collect()).collect();
    assert_eq!(
        rows[..4],
        [
            [
                "record",
                "line",
                "source_column",
                "value_index",
                "value",
                "dc.date.issued",
                "pages",
                "open",
                "kind"
            ],
            [
                "1",
                "2",
                "dc.identifier.uri",
                "1",
                "http://hdl.handle.net/10.2312/egs.20191001",
                "2019-05-06",
                "4",
                "TRUE",
                "resolver_url"
            ],
            [
                "1",
                "2",
                "dc.identifier.doi",
                "1",
                "10.2312/egs.20191001",
                "2019-05-06",
                "4",
                "TRUE",
                "doi"
            ],
            [
                "2",
                "3",
                "dc.identifier.uri",
                "1",
                "https://hdl.handle.net/10.2312/egs.20191002",
                "2019-05-06T12:00:00",
                "4.25",
                "FALSE",
                "resolver_url"
            ],
        ]
    );
    assert_eq!(rows[6][5..8], ["2019-05-07", "2019", "#N/A"]);
    let r = read_json(&d.join("r.json"));
    assert_eq!(r["run"]["inputs"][0]["format"], "xlsx");
    assert_eq!(r["records"], 3);

    // Another sheet, by name (any case when one fits); one it has not.
    scan(d, &[book, "-c", "collection", "--sheet", "statistics", "-q"]).ok();
    scan(d, &[book, "-c", "collection", "--sheet", "Stats"])
        .fails_with(&["no sheet named \"Stats\"; its sheets are: Items, Statistics"]);
    // --sheet on a CSV, or with JSON, is the command line's mistake.
    let csv = fixture("inputs/openapc_fwf_2016_semicolon.csv");
    scan(d, &[csv.to_str().unwrap(), "-c", "doi", "--sheet", "Items"]).usage_error(&["is not a spreadsheet"]);
    let works = fixture("jsonl/openalex_works.jsonl");
    scan(d, &[works.to_str().unwrap(), "-c", "doi", "--sheet", "Items"]).usage_error(&["--sheet applies to"]);
}

/// `-o -`: the output on stdout, CSV unless `--output-format` says TSV,
/// JSON Lines, or (into a pipe) Parquet; written only once the run is
/// done, so a failed run writes nothing there either.
#[test]
fn output_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fwf = fixture("inputs/openapc_fwf_2016_semicolon.csv");
    let fwf = fwf.to_str().unwrap();
    let out = |args: &[&str]| {
        scan(d, &[&[fwf, "-c", "doi", "-o", "-", "-q"][..], args].concat())
            .ok()
            .stdout
    };
    let csv = String::from_utf8(out(&[])).unwrap();
    assert!(csv.starts_with("period,doi,record,kind,"), "{csv}");
    assert_eq!(csv.lines().count(), 11);
    let tsv = String::from_utf8(out(&["--output-format", "tsv"])).unwrap();
    assert!(tsv.starts_with("period\tdoi\trecord\tkind\t"), "{tsv}");
    let jsonl = String::from_utf8(out(&["--long", "--output-format", "jsonl"])).unwrap();
    let rows: Vec<serde_json::Value> = jsonl.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 10);
    assert_eq!(rows[0]["source_column"], "doi");
    assert_eq!(rows[0]["record"], 1);
    assert_eq!(rows[0]["value"], "http://doi.org/f3s5pp");
    assert_eq!(rows[0]["warnings"], serde_json::json!(["short_doi", "http_resolver"]));
    assert!(rows[0]["query"].is_null());
    assert!(out(&["--output-format", "parquet"]).starts_with(b"PAR1"));
    // The same as a file.
    scan(d, &[fwf, "-c", "doi", "--long", "-o", "out.jsonl", "-q"]).ok();
    assert_eq!(std::fs::read_to_string(d.join("out.jsonl")).unwrap(), jsonl);

    scan(d, &[fwf, "-c", "doi", "-o", "-", "--report", "-"]).usage_error(&["both write to stdout"]);
    let works = fixture("jsonl/openalex_works.jsonl");
    let failed = scan(d, &[works.to_str().unwrap(), "-c", "dooi", "-o", "-"]);
    assert!(failed.stdout.is_empty());
    failed.usage_error(&["--column dooi"]);
}

/// `scan --help` names JSON Lines and Excel, and its examples of them run
/// as written, on fixtures under the names they use.
#[test]
fn help_examples_of_these_inputs_run() {
    let help = crate::scan::scan_help();
    assert!(
        help.contains("JSON Lines") && help.contains("Excel") && help.contains(".xlsx"),
        "{help}"
    );
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (name, from) in [
        ("apc_de.csv", "inputs/openapc_fwf_2016_semicolon.csv"),
        ("dblp_vis.csv", "inputs/dblp_vis_ragged.csv"),
        ("export.xlsx", "inputs/eurographics_dspace.xlsx"),
        ("export.csv", "sample_export.csv"),
    ] {
        std::fs::copy(fixture(from), d.join(name)).unwrap();
    }
    let works = std::fs::read(fixture("jsonl/openalex_works.jsonl")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &works).unwrap();
    std::fs::write(d.join("works.jsonl.gz"), gz.finish().unwrap()).unwrap();
    let mut ran = 0;
    for line in help.lines().map(str::trim).filter(|l| l.starts_with("hdlscan scan ")) {
        // The command before any pipe, its words unquoted.
        let command = line.split(" | ").next().unwrap();
        let args: Vec<String> = command
            .split('\'')
            .enumerate()
            .flat_map(|(i, part)| match i % 2 {
                1 => vec![part.to_string()],
                _ => part.split_whitespace().map(str::to_string).collect(),
            })
            .collect();
        if !["apc_de.csv", "dblp_vis.csv", "export.xlsx", "works.jsonl.gz", "-o -"]
            .iter()
            .any(|f| command.contains(f))
        {
            continue;
        }
        let args: Vec<&str> = args[2..].iter().map(String::as_str).collect();
        let run = scan(d, &args);
        assert_eq!(run.code, 0, "{line}: {}", run.stderr);
        ran += 1;
    }
    assert_eq!(ran, 5, "{help}");
}
