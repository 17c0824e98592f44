"""hdlscan.spark against the CLI: the Spark job's report on the sample
export and on a generated 200k-row Parquet equals `hdlscan scan`'s
(records, values, present, valid, kinds, namespaces, codes with counts,
duplicate clusters), its enriched rows equal the CLI's output, and the
command keeps the CLI's exit statuses.

One SparkSession (local[2]) for the whole session; the CLI is conftest's.
Spark's CSV reader reads an empty field as null where the CLI reads an
empty string; both are `empty` to the scan.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "testdata" / "sample_export.csv"
TOTALS = ("records", "cells", "values", "present", "valid", "by_kind", "by_namespace")
CLUSTERS = ("unique_canonical", "clusters", "values_in_clusters", "records_in_clusters", "across_inputs", "across_columns", "repeated_in_record")


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    s = (
        SparkSession.builder.master("local[2]")
        .appName("hdlscan-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def cli_scan(cli: Path, tmp: Path, inp: Path, column: str, *extra) -> dict:
    out = tmp / "cli.json"
    subprocess.run([cli, "scan", str(inp), "-c", column, "-q", "--report", str(out), *extra], check=True)
    return json.loads(out.read_text())


def codes(report: dict, key: str) -> dict:
    return {code: c["count"] for code, c in report[key].items()}


def top(report: dict) -> list:
    return [
        (c["canonical"], c["count"], c["records"], c["first"]["record"], [(m["record"], m["value"], m["variant"]) for m in c["members"]])
        for c in report["duplicates"]["top"]
    ]


def assert_same(spark_report: dict, cli_report: dict):
    for k in TOTALS:
        assert spark_report[k] == cli_report[k], k
    for k in ("errors", "warnings"):
        assert codes(spark_report, k) == codes(cli_report, k), k
    for k in CLUSTERS:
        assert spark_report["duplicates"][k] == cli_report["duplicates"][k], k
    assert top(spark_report) == top(cli_report)


def read_sample(spark):
    return spark.read.csv(str(SAMPLE), header=True, multiLine=True, escape='"')


@pytest.fixture(scope="module")
def cli_sample(cli, tmp_path_factory):
    """The CLI's report, enriched rows and duplicates of the sample export."""
    tmp = tmp_path_factory.mktemp("cli")
    out, dups = tmp / "out.parquet", tmp / "dups.parquet"
    report = cli_scan(cli, tmp, SAMPLE, "dc.identifier.uri", "-o", str(out), "--duplicates", str(dups))
    return report, pq.read_table(out).to_pylist(), pq.read_table(dups).to_pylist()


@pytest.fixture(scope="module")
def sample_job(spark):
    from hdlscan.spark import Job

    job = Job(read_sample(spark), "dc.identifier.uri")
    yield job
    job.close()


def test_sample_export_report_equals_the_cli(sample_job, cli_sample):
    r = json.loads(sample_job.report().to_json())
    assert_same(r, cli_sample[0])
    # The job's wall time, not the partials' parsing time.
    assert r["run"]["elapsed_seconds"] > 0.1


def test_scan_writes_the_cli_columns(sample_job, cli_sample):
    header = SAMPLE.open().readline().strip().split(",")
    want = [{k: (None if k in header and v == "" else v) for k, v in r.items()} for r in cli_sample[1]]
    got = [r.asDict() for r in sample_job.output().orderBy("record").collect()]
    assert list(got[0]) == list(want[0])
    assert got == want


DUPLICATE_ROW = ("cluster", "canonical", "records", "count", "input", "record", "source_column", "value_index", "value", "first_record", "variant")


def test_duplicates_equal_the_cli(sample_job, cli_sample):
    got = [tuple(r[k] for k in DUPLICATE_ROW) for r in sample_job.duplicates().collect()]
    assert got == [tuple(r[k] for k in DUPLICATE_ROW) for r in cli_sample[2]]


def test_job_write_keeps_what_the_report_and_duplicates_read(spark, cli_sample, tmp_path):
    """`Job.write` writes the output in the pass that parses and keeps only
    what the report and clusters read: the written rows, the report and
    the duplicates are the CLI's."""
    from hdlscan.spark import Job

    job = Job(read_sample(spark), "dc.identifier.uri")
    try:
        assert job.write(tmp_path / "out.parquet") == len(cli_sample[1])
        header = SAMPLE.open().readline().strip().split(",")
        want = [{k: (None if k in header and v == "" else v) for k, v in r.items()} for r in cli_sample[1]]
        assert pq.read_table(tmp_path / "out.parquet").to_pylist() == want
        assert [r.asDict() for r in job.output().orderBy("record").collect()] == want
        assert_same(json.loads(job.report().to_json()), cli_sample[0])
        got = [tuple(r[k] for k in DUPLICATE_ROW) for r in job.duplicates().collect()]
        assert got == [tuple(r[k] for k in DUPLICATE_ROW) for r in cli_sample[2]]
        # What the pass kept: the valid values and the partial reports.
        assert job._internal().count() == cli_sample[0]["valid"] + 1
    finally:
        job.close()


@pytest.fixture(scope="module")
def generated(cli, tmp_path_factory):
    """A generated 200k-row Parquet file and the CLI's report and output of it."""
    tmp = tmp_path_factory.mktemp("gen")
    data, out = tmp / "gen.parquet", tmp / "out.parquet"
    subprocess.run([cli, "gen", "--rows", "200000", "--seed", "7", "-q", "-o", str(data)], check=True)
    report = cli_scan(cli, tmp, data, "identifier", "-o", str(out))
    return data, report, out


@pytest.fixture
def small_splits(spark):
    """Several splits a file, so records are numbered across tasks."""
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(1 << 20))
    yield
    spark.conf.unset("spark.sql.files.maxPartitionBytes")


def test_generated_parquet_report_equals_the_cli(spark, generated, small_splits):
    from hdlscan.spark import report

    data, want, _ = generated
    r = json.loads(report(spark.read.parquet(str(data)), "identifier").to_json())
    assert_same(r, want)


def test_parquet_scan_is_the_cli_output_without_a_pass_of_its_own(spark, generated, small_splits):
    """One Parquet file read whole: records are its row indexes, so no job
    runs before the output's own."""
    from hdlscan.spark import scan

    data, _, out = generated
    sc = spark.sparkContext
    read = spark.read.parquet(str(data))
    sc.setJobGroup("plan", "scan's plan")
    df = scan(read, "identifier")
    assert sc.statusTracker().getJobIdsForGroup("plan") == []
    got = df.toArrow().sort_by("record")
    want = pq.read_table(out)
    assert got.column_names == want.column_names
    assert got.to_pylist() == want.to_pylist()


def test_tasks_write_the_cli_output(spark, generated, small_splits, tmp_path):
    """`write`: the parts the tasks write, read back in their order, are
    the CLI's output row for row (the input in row groups of 25,000 rows
    read in several splits, so several parts), in the types `scan` gives;
    only the committed parts and `_SUCCESS` are left."""
    from hdlscan.spark import scan, write

    data, _, out = generated
    grouped = tmp_path / "grouped.parquet"
    pq.write_table(pq.read_table(data), grouped, row_group_size=25_000)
    target = tmp_path / "out.parquet"
    assert write(spark.read.parquet(str(grouped)), "identifier", str(target)) == 200_000
    parts = sorted(p.name for p in target.iterdir())
    assert parts[0] == "_SUCCESS" and len(parts) > 3 and all(p.endswith(".parquet") for p in parts[1:])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grouped.parquet", "out.parquet"]
    assert pq.read_table(target).to_pylist() == pq.read_table(out).to_pylist()
    assert spark.read.parquet(str(target)).schema == scan(spark.read.parquet(str(grouped)), "identifier").schema


def test_write_refuses_an_existing_target_unless_told(spark, tmp_path):
    from hdlscan.spark import write

    df = spark.createDataFrame([("1", "10.1000/x")], "id string, doi string")
    target = tmp_path / "t"
    target.mkdir()
    (target / "old.parquet").write_text("old")
    with pytest.raises(FileExistsError, match="mode='overwrite'"):
        write(df, "doi", str(target))
    assert write(df, "doi", str(target), mode="overwrite") == 1
    assert "old.parquet" not in {p.name for p in target.iterdir()}
    assert pq.read_table(target).column("canonical").to_pylist() == ["10.1000/x"]
    with pytest.raises(ValueError, match="mode='append'"):
        write(df, "doi", str(target), mode="append")


def test_write_of_no_rows_still_has_the_columns(spark, tmp_path):
    from hdlscan.spark import write

    df = spark.createDataFrame([], "id string, doi string")
    assert write(df, "doi", str(tmp_path / "t")) == 0
    table = pq.read_table(tmp_path / "t")
    assert table.num_rows == 0 and "canonical" in table.column_names


def test_a_failed_write_leaves_nothing(spark, tmp_path):
    """A task that fails fails the job: no target, no staging directory."""
    from pyspark.sql import functions as F
    from hdlscan.spark import write

    def boom(v):
        if v == "10.1000/b":
            raise RuntimeError("a bad row")
        return v

    df = spark.createDataFrame([("10.1000/a",), ("10.1000/b",)], "doi string").repartition(2)
    df = df.withColumn("doi", F.udf(boom, "string")("doi"))
    with pytest.raises(Exception, match="a bad row"):
        write(df, "doi", str(tmp_path / "t"))
    assert list(tmp_path.iterdir()) == []


def test_two_columns_report_equals_the_cli(spark, cli, tmp_path):
    """Canonicals repeated inside records and clusters across columns, as
    the CLI counts them: a second column holding the record's own value
    (every third record), another record's (every fifth), or nothing."""
    import csv

    with SAMPLE.open(newline="") as f:
        uris = [r["dc.identifier.uri"] for r in csv.DictReader(f)]
    data = tmp_path / "two.csv"
    with data.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "b"])
        for i, u in enumerate(uris):
            w.writerow([u, u.upper() if i % 3 == 0 else uris[i - 7] if i % 5 == 0 else ""])
    df = spark.read.csv(str(data), header=True, multiLine=True, escape='"')
    from hdlscan.spark import Job

    job = Job(df, ["a", "b"])
    try:
        r = json.loads(job.report().to_json())
        dups = [tuple(r[k] for k in DUPLICATE_ROW) for r in job.duplicates().collect()]
    finally:
        job.close()
    want = cli_scan(cli, tmp_path, data, "a", "-c", "b", "--duplicates", str(tmp_path / "d.parquet"))
    assert want["duplicates"]["repeated_in_record"]["values"] > 0 and want["duplicates"]["across_columns"] > 0
    assert_same(r, want)
    assert dups == [tuple(r[k] for k in DUPLICATE_ROW) for r in pq.read_table(tmp_path / "d.parquet").to_pylist()]


def test_long_output_numbers_values(spark, tmp_path):
    from hdlscan.spark import scan, write

    df = spark.createDataFrame([("1", "10.1/a||10.1/b", "hdl:1/x"), ("2", "", None)], "id string, a string, b string")
    rows = [r.asDict() for r in scan(df, ["a", "b"], keep=["id"], split="||").orderBy("record", "source_column", "value_index").collect()]
    assert write(df, ["a", "b"], tmp_path / "w", keep=["id"], split="||") == len(rows)
    written = sorted(pq.read_table(tmp_path / "w").to_pylist(), key=lambda r: (r["record"], r["source_column"], r["value_index"]))
    assert written == rows
    assert [(r["record"], r["source_column"], r["value_index"], r["value"], r["id"]) for r in rows] == [
        (1, "a", 1, "10.1/a", "1"),
        (1, "a", 2, "10.1/b", "1"),
        (1, "b", 1, "hdl:1/x", "1"),
        (2, "a", 1, "", "2"),
        (2, "b", 1, "", "2"),
    ]
    assert "input" not in rows[0]


@pytest.mark.parametrize("expect", ["2=doi", "B=doi", "b=doi", "?=hdl"], ids=["number", "case-blind", "name", "pattern"])
def test_scan_applies_column_expectations_as_the_cli(spark, cli, tmp_path, expect):
    """`COLUMN=NS` selects columns by the CLI's `-c` rules (number,
    case-blind name, pattern) in a plain `scan` as in a report: each
    task resolves it against all the scan's columns, not its own."""
    data = tmp_path / "in.csv"
    data.write_text("a,B\n10.1000/x,hdl:1721.1/5\nhdl:1721.1/6,10.1000/y\n")
    want = tmp_path / "cli.parquet"
    subprocess.run([cli, "scan", str(data), "-c", "a", "-c", "B", "--expect", expect, "-q", "-o", str(want)], check=True)
    want = sorted(pq.read_table(want).to_pylist(), key=lambda w: (w["record"], w["source_column"]))
    from hdlscan.spark import scan

    got = scan(spark.read.csv(str(data), header=True), ["a", "B"], expect=[expect])
    rows = [r.asDict() for r in got.orderBy("record", "source_column").collect()]
    assert [(r["record"], r["source_column"], r["kind"], r["error"]) for r in rows] == [
        (w["record"], w["source_column"], w["kind"], w["error"]) for w in want
    ]
    assert {r["error"] for r in rows} == {None, "unexpected_namespace"}
    assert rows == [{**w, "line": None} for w in want]
    # One string is one expectation, as for hdlscan.parse, not its letters.
    one = scan(spark.read.csv(str(data), header=True), ["a", "B"], expect=expect)
    assert [r.asDict() for r in one.orderBy("record", "source_column").collect()] == rows


@pytest.mark.parametrize(
    "header, flags",
    [
        (["url", "doi"], []),
        (["record", "doi"], []),
        (["url", "doi"], ["--column-prefix", "x."]),
        (["value", "doi"], ["--long", "--keep", "value"]),
        (["url", "doi"], ["--long"]),
    ],
    ids=["openapc url", "a record column", "given prefix with a dot", "long, keeping value", "long, url not kept"],
)
def test_added_columns_are_named_as_the_cli_names_them(spark, cli, tmp_path, header, flags):
    """Every added column gets the prefix (`record` and long output's
    leading columns too), and an input column named like one of them
    makes it `hdl_`, as the CLI decides; the duplicates still read them."""
    data = tmp_path / "in.csv"
    data.write_text(",".join(header) + "\n1,10.1000/x\n2,10.1000/X\n")
    want = tmp_path / "cli.parquet"
    subprocess.run([cli, "scan", str(data), "-c", "doi", "-q", "-o", str(want), *flags], check=True)
    want = pq.read_table(want)
    from hdlscan.spark import Job

    opts = dict(zip(flags[::2], flags[1::2])) if "--long" not in flags else {}
    kwargs = {"column_prefix": opts["--column-prefix"]} if "--column-prefix" in opts else {}
    if "--long" in flags:
        kwargs["long"] = True
        kwargs["keep"] = flags[flags.index("--keep") + 1 :] if "--keep" in flags else ()
    job = Job(spark.read.csv(str(data), header=True), "doi", **kwargs)
    try:
        got = job.output()
        assert got.columns == want.column_names
        record = want.column_names[len(header) if "--long" not in flags else 0]
        # Spark does not say where a CSV record starts: `line` is null.
        line = want.column_names[1] if "--long" in flags else None
        rows = [{k: None if k == line else v for k, v in r.items()} for r in want.to_pylist()]
        assert [r.asDict() for r in got.orderBy(_col(record)).collect()] == rows
        assert job.clusters().summary()["clusters"] == 1
    finally:
        job.close()


def test_a_given_prefix_that_clashes_is_a_value_error(spark):
    from hdlscan.spark import scan

    df = spark.createDataFrame([("1", "10.1000/x")], "url string, doi string")
    with pytest.raises(ValueError, match=r'column named "url".*column_prefix="hdl_"'):
        scan(df, "doi", column_prefix="")


def _col(name):
    from pyspark.sql import functions as F

    return F.col("`" + name + "`")


def test_a_canonical_twice_in_one_record_is_no_cluster(spark):
    from hdlscan.spark import Job

    df = spark.createDataFrame(
        [("10.1/a", "https://doi.org/10.1/A"), ("10.1/b", None), ("10.1/B", None)], "x string, y string"
    )
    s = Job(df, ["x", "y"]).clusters().summary()
    assert (s["clusters"], s["values_in_clusters"]) == (1, 2)
    assert s["repeated_in_record"] == {"values": 1, "records": 1}
    assert [(c["canonical"], [m["at"]["record"] for m in c["members"]]) for c in s["top"]] == [("10.1/b", [2, 3])]


def run_command(*argv) -> int:
    from hdlscan.spark.__main__ import main

    return main([*argv, "--master", "local[2]", "-q"])


def test_command_writes_the_report_and_judges_gates(spark, tmp_path, cli_sample):
    rep, out, dups = tmp_path / "r.json", tmp_path / "out.parquet", tmp_path / "dups.parquet"
    argv = [str(SAMPLE), "-c", "dc.identifier.uri", "--report", str(rep), "-o", str(out),
            "--duplicates", str(dups), "--fail-if", "invalid>1%", "--fail-if", "invalid>50%"]
    assert run_command(*argv) == 3
    r = json.loads(rep.read_text())
    # The report names the duplicates file, as the CLI's does.
    assert cli_sample[0]["duplicates"]["file"].endswith("dups.parquet")
    assert r["duplicates"]["file"] == str(dups)
    assert [(g["expr"], g["holds"]) for g in r["gates"]] == [("invalid>1%", True), ("invalid>50%", False)]
    for k in TOTALS:
        assert r[k] == cli_sample[0][k], k
    assert pq.read_table(out).num_rows == len(cli_sample[1])
    assert pq.read_table(out).column("canonical").to_pylist() == [w["canonical"] for w in cli_sample[1]]


def test_command_warn_gates_warn(spark, tmp_path):
    rep = tmp_path / "r.json"
    argv = [str(SAMPLE), "-c", "dc.identifier.uri", "--report", str(rep), "--warn-if", "invalid>1%",
            "--fail-if", "dc.identifier.uri:invalid>99%"]
    assert run_command(*argv) == 0
    r = json.loads(rep.read_text())
    assert r["verdict"] == "warn"
    assert [(g["expr"], g["severity"], g["holds"]) for g in r["gates"]] == [
        ("dc.identifier.uri:invalid>99%", "fail", False),
        ("invalid>1%", "warn", True),
    ]


@pytest.mark.parametrize(
    "argv",
    [
        [str(SAMPLE), "-c", "no_such_column"],
        [str(SAMPLE), "-c", "dc.identifier.uri", "--fail-if", "invalid>>1"],
        [str(SAMPLE), str(SAMPLE), "-c", "dc.identifier.uri"],
        [str(SAMPLE), "-c", "dc.identifier.uri", "--fail-if", "dc.x*:invalid>0"],
        [str(SAMPLE), "-c", "dc.x*"],
    ],
    ids=["missing column", "bad gate", "input twice", "gate pattern matching nothing", "column pattern matching nothing"],
)
def test_command_usage_errors(spark, argv):
    assert run_command(*argv) == 2


def test_command_pattern_gates_exit_as_the_clis(spark, cli, tmp_path):
    """`-c` and `COLUMN:` are read by the CLI's selectors: a column number
    and patterns, judged as the CLI judges them, with its exit status."""
    argv = [str(SAMPLE), "-c", "6", "--fail-if", "dc.identifier.*:invalid>1%", "--warn-if", "dc.*:valid<1"]
    cli_run = subprocess.run([cli, "scan", *argv, "-q", "--report", str(tmp_path / "cli.json")])
    assert cli_run.returncode == 3
    assert run_command(*argv, "--report", str(tmp_path / "spark.json")) == cli_run.returncode
    gates = [json.loads((tmp_path / f).read_text())["gates"] for f in ("cli.json", "spark.json")]
    assert gates[0] == gates[1]


def test_command_no_quoting_reads_as_the_cli(spark, cli, tmp_path):
    """A TSV written without quoting, titles opening with stray quotes:
    with --no-quoting both read four records and the same canonicals."""
    tsv = tmp_path / "in.tsv"
    tsv.write_text('id\ttitle\tdoi\n1\t"Quoted start\t10.1/a\n2\tplain\t10.1/B\n3\t"x" y\t10.1/c\n4\t""\tdoi:10.1/d\n')
    argv = [str(tsv), "-c", "doi", "--no-quoting"]
    subprocess.run([cli, "scan", *argv, "-q", "--report", str(tmp_path / "cli.json")], check=True)
    assert run_command(*argv, "--report", str(tmp_path / "spark.json"), "-o", str(tmp_path / "out.parquet")) == 0
    reports = [json.loads((tmp_path / f).read_text()) for f in ("cli.json", "spark.json")]
    assert reports[0]["records"] == reports[1]["records"] == 4
    for k in TOTALS:
        assert reports[1][k] == reports[0][k], k
    out = pq.read_table(tmp_path / "out.parquet").sort_by("id")
    assert out.column("title").to_pylist() == ['"Quoted start', "plain", '"x" y', '""']
    assert out.column("canonical").to_pylist() == ["10.1/a", "10.1/b", "10.1/c", "10.1/d"]


def test_command_help_has_an_example(capsys):
    from hdlscan.spark.__main__ import main

    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    assert "python -m hdlscan.spark export.csv -c" in capsys.readouterr().out


def test_command_says_when_split_took_the_input(capsys):
    """`--split`'s SEP is optional: written before the only input, it
    takes it; the usage error says so, naming the file, as the CLI's."""
    from hdlscan.spark.__main__ import main

    with pytest.raises(SystemExit) as e:
        main(["-c", "dc.identifier.uri", "--split", str(SAMPLE)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"tip: --split took '{SAMPLE}' as its separator" in err, err
    with pytest.raises(SystemExit) as e:
        main(["-c", "dc.identifier.uri", "--split", "||"])
    assert e.value.code == 2
    assert "tip:" not in capsys.readouterr().err


def test_command_refuses_ragged_csv_naming_the_file_and_record(spark, cli, tmp_path, capsys):
    """A record with more fields than the header: the CLI stops (exit 1);
    Spark's default reader would drop the extra field and count on."""
    csv = tmp_path / "ragged.csv"
    csv.write_text("id,doi\n1,10.1000/a\n2,10.1000/b,extra\n3,10.1000/c\n")
    assert subprocess.run([cli, "scan", str(csv), "-c", "doi", "-q"]).returncode == 1
    capsys.readouterr()
    assert run_command(str(csv), "-c", "doi", "--report", str(tmp_path / "r.json")) == 1
    err = capsys.readouterr().err
    assert "ragged.csv" in err and "2,10.1000/b,extra" in err, err
    assert "An error occurred while calling" not in err
    assert not (tmp_path / "r.json").exists()


def test_command_refuses_lines_that_are_not_json_naming_the_file(spark, cli, tmp_path, capsys):
    """Spark reads a line that is not JSON as a row of nulls, which the
    report would count as an empty value; the CLI stops at it (exit 1)."""
    jsonl = tmp_path / "works.jsonl"
    jsonl.write_text('{"doi":"10.1000/ok1"}\n{"doi":"10.1000/bad",}\n{"doi":"10.1000/ok2"}\n["x"]\n')
    assert subprocess.run([cli, "scan", str(jsonl), "-c", "doi", "-q"]).returncode == 1
    capsys.readouterr()
    assert run_command(str(jsonl), "-c", "doi") == 1
    err = capsys.readouterr().err
    assert "works.jsonl" in err and '{"doi":"10.1000/bad",}' in err and "1 more" in err, err


def test_command_checks_report_directories_before_the_job(spark, tmp_path, capsys):
    missing = tmp_path / "no" / "r.json"
    assert run_command(str(SAMPLE), "-c", "dc.identifier.uri", "--report", str(missing)) == 1
    assert f"--report {missing}: cannot create output in {missing.parent}" in capsys.readouterr().err


def test_command_report_says_how_the_run_was_made_as_the_cli(spark, cli, tmp_path):
    """The report's `run`: inputs' format, size and records, output, shape,
    prefix and options, as the CLI's (but its path as Spark read it, and
    the CLI's own `threads`)."""
    data = tmp_path / "in.csv"
    data.write_text("id,doi,url\n1,10.1000/a,https://doi.org/10.1000/a\n2,N/A,hdl:1721.1/5\n")
    argv = [str(data), "-c", "doi", "-c", "url", "--keep", "id"]
    subprocess.run([cli, "scan", *argv, "-q", "-o", str(tmp_path / "cli.parquet"), "--report", str(tmp_path / "cli.json")], check=True)
    out = str(tmp_path / "spark.parquet")
    assert run_command(*argv, "-o", out, "--report", str(tmp_path / "spark.json")) == 0
    runs = [json.loads((tmp_path / f).read_text())["run"] for f in ("cli.json", "spark.json")]
    for r in runs:
        r["options"].pop("threads", None)
    want, got = runs
    assert got["output"] == out and want["output"] == str(tmp_path / "cli.parquet")
    for k in ("output_shape", "column_prefix", "options"):
        assert got[k] == want[k], k
    assert [(i["format"], i["bytes"], i["records"]) for i in got["inputs"]] == [
        (i["format"], i["bytes"], i["records"]) for i in want["inputs"]
    ]
    assert want["output_shape"] == "long"


def test_command_sniffs_the_delimiter_as_the_cli(spark, cli, tmp_path):
    """An OpenAPC-style `;` file without -d: the CLI splits its one-column
    header on `;`; the command did not, and `-c doi` was a usage error."""
    data = tmp_path / "apc.csv"
    data.write_text("institution;doi\nA;10.1000/a\nB;N/A\nC;hdl:1721.1/5\n")
    argv = [str(data), "-c", "doi"]
    subprocess.run([cli, "scan", *argv, "-q", "--report", str(tmp_path / "cli.json")], check=True)
    assert run_command(*argv, "--report", str(tmp_path / "spark.json")) == 0
    want, got = [json.loads((tmp_path / f).read_text()) for f in ("cli.json", "spark.json")]
    for k in TOTALS:
        assert got[k] == want[k], k
    assert got["run"]["options"]["delimiter"] == want["run"]["options"]["delimiter"] == ";"


def test_command_reads_json_paths_as_the_cli(spark, cli, tmp_path):
    """OpenAlex works: `-c doi -c ids.doi --keep id`, a path into a struct
    as the CLI reads it (a null or missing struct an empty value); the
    output is long, as the CLI's JSON output always is."""
    works = ROOT / "testdata" / "jsonl" / "openalex_works.jsonl"
    argv = [str(works), "-c", "doi", "-c", "ids.doi", "--keep", "id"]
    subprocess.run([cli, "scan", *argv, "-q", "-o", str(tmp_path / "cli.parquet"), "--report", str(tmp_path / "cli.json")], check=True)
    assert run_command(*argv, "-o", str(tmp_path / "spark.parquet"), "--report", str(tmp_path / "spark.json")) == 0
    want, got = [json.loads((tmp_path / f).read_text()) for f in ("cli.json", "spark.json")]
    assert_same(got, want)
    assert got["run"]["output_shape"] == want["run"]["output_shape"] == "long"
    key = lambda r: (r["record"], r["source_column"], r["value_index"])
    cli_rows = sorted(pq.read_table(tmp_path / "cli.parquet").to_pylist(), key=key)
    spark_rows = sorted(pq.read_table(tmp_path / "spark.parquet").to_pylist(), key=key)
    assert [{**r, "line": None} for r in cli_rows] == spark_rows
    # One path alone is long too, as the CLI's.
    assert run_command(str(works), "-c", "ids.doi", "-o", str(tmp_path / "one.parquet")) == 0
    assert pq.read_table(tmp_path / "one.parquet").column_names[:5] == ["record", "line", "source_column", "value_index", "value"]


# OpenAlex-like works for paths through lists: several locations, the
# same landing page in two records (a cluster), an empty and a null
# `locations`, a null element, an element without the key, a null URL,
# `authorships[].institutions[].ror` (lists in lists, one empty or null).
WORKS = [
    {"id": "W1", "doi": "https://doi.org/10.7717/peerj.4375",
     "locations": [{"landing_page_url": "https://doi.org/10.7717/peerj.4375", "pdf_url": "https://peerj.com/articles/4375.pdf"},
                   {"landing_page_url": "https://europepmc.org/articles/pmc5815332", "pdf_url": None},
                   {"landing_page_url": "http://hdl.handle.net/2027.42/40123"}],
     "authorships": [{"institutions": [{"ror": "https://ror.org/02mhbdp94"}, {"ror": None}]}, {"institutions": []}]},
    {"id": "W2", "doi": None, "locations": [{"landing_page_url": "https://hdl.handle.net/2027.42/40123"}, None, {"pdf_url": "x"}],
     "authorships": []},
    {"id": "W3", "doi": "https://doi.org/10.1000/ABC/def", "locations": [], "authorships": None},
    {"id": "W4", "doi": "https://doi.org/10.5281/zenodo.1234567", "locations": None,
     "authorships": [{"institutions": [{"ror": "https://ror.org/02mhbdp94"}]}, {"institutions": None}, None]},
    {"id": "W5", "doi": "10.1000/xyz", "locations": [{"landing_page_url": None}, {"landing_page_url": "doi:10.1000/XYZ"}],
     "authorships": [{"institutions": [{"ror": "not a handle"}]}]},
]
LIST_ARGS = ["-c", "locations[].landing_page_url", "-c", "authorships[].institutions[].ror", "-c", "doi", "--keep", "id"]


def compare_with_the_cli(cli, tmp_path, data, argv):
    """Runs the CLI and the command on `data` with `argv`; asserts the
    same report (totals, codes, examples with their places, clusters) and
    the same output rows (but `line`), and returns both reports."""
    args = [str(data), *argv]
    cli_out, spark_out = tmp_path / "cli.parquet", tmp_path / "spark.parquet"
    subprocess.run([cli, "scan", *args, "-q", "-o", str(cli_out), "--report", str(tmp_path / "cli.json")], check=True)
    assert run_command(*args, "-o", str(spark_out), "--report", str(tmp_path / "spark.json")) == 0
    want, got = [json.loads((tmp_path / f).read_text()) for f in ("cli.json", "spark.json")]
    assert_same(got, want)
    # Examples where they were read, but the input's path as given and
    # the line, which Spark does not say.
    for k in ("errors", "warnings"):
        shown = lambda r: {c: [{f: x for f, x in e.items() if f not in ("input", "line")} for e in v["examples"]] for c, v in r[k].items()}  # noqa: E731
        assert shown(got) == shown(want), k
    assert got["columns"] == want["columns"]
    assert got["run"]["output_shape"] == want["run"]["output_shape"] == "long"
    key = lambda r: (r["record"], r["source_column"], r["value_index"])  # noqa: E731
    cli_rows = sorted(pq.read_table(cli_out).to_pylist(), key=key)
    spark_rows = sorted(pq.read_table(spark_out).to_pylist(), key=key)
    assert [{**r, "line": None} for r in cli_rows] == spark_rows
    return want, got


def test_command_reads_paths_through_lists_as_the_cli(spark, cli, tmp_path):
    """`-c 'locations[].landing_page_url'` on OpenAlex works: a value per
    element, numbered in its record; an empty or null list one empty
    value, a null element or one without the key an empty value in its
    place; lists in lists; the report's counts, examples and clusters
    and the long output are the CLI's."""
    works = tmp_path / "works.jsonl"
    works.write_text("".join(json.dumps(w) + "\n" for w in WORKS))
    want, got = compare_with_the_cli(cli, tmp_path, works, LIST_ARGS)
    assert got["duplicates"]["clusters"] >= 2
    rows = pq.read_table(tmp_path / "spark.parquet").to_pylist()
    w2 = [(r["value_index"], r["value"]) for r in rows if r["record"] == 2 and r["source_column"] == "locations[].landing_page_url"]
    assert sorted(w2) == [(1, "https://hdl.handle.net/2027.42/40123"), (2, ""), (3, "")]


def test_command_reads_paths_through_parquet_lists_as_the_cli(spark, cli, tmp_path):
    """The same works as nested Parquet (lists of structs): the CLI's
    output and report."""
    import pyarrow as pa

    from hdlscan.spark import scan

    data = tmp_path / "works.parquet"
    pq.write_table(pa.Table.from_pylist(WORKS), data)
    compare_with_the_cli(cli, tmp_path, data, LIST_ARGS)
    # From Python, without a report: the same rows.
    columns = [LIST_ARGS[1], LIST_ARGS[3], LIST_ARGS[5]]
    key = lambda r: (r["record"], r["source_column"], r["value_index"])  # noqa: E731
    got = sorted((r.asDict() for r in scan(spark.read.parquet(str(data)), columns, keep=["id"]).collect()), key=key)
    assert got == sorted(pq.read_table(tmp_path / "spark.parquet").to_pylist(), key=key)


def test_paths_through_lists_split_as_the_cli(spark, cli, tmp_path):
    """`--split` splits each element: `value_index` counts a record's
    values across elements and pieces, as the CLI counts them."""
    works = tmp_path / "works.jsonl"
    works.write_text(
        json.dumps({"id": "a", "ids": [{"v": "10.1000/a || hdl:2027/b"}, {"v": "10.1000/c"}]}) + "\n"
        + json.dumps({"id": "b", "ids": [{"v": ""}, {"v": "10.1000/a"}]}) + "\n"
    )
    compare_with_the_cli(cli, tmp_path, works, ["-c", "ids[].v", "--split", "||"])


def test_command_reads_json_numbers_booleans_and_objects_as_the_cli(spark, cli, tmp_path):
    """A number at the end of a path is its text as written (`1.50`, not
    Spark's double 1.5), a boolean `true`, an object or list its JSON
    (compact here, as OpenAlex writes it), in a list too; Spark stopped at
    the struct and gave `1.5`."""
    works = tmp_path / "works.jsonl"
    rows = [
        {"id": "a", "pmid": 29456894, "v": 1.50, "ok": True, "ids": {"doi": "10.1000/x", "n": 1e5}, "xs": [1.50, 2]},
        {"id": "b", "pmid": None, "v": 2, "ok": False, "ids": None, "xs": []},
    ]
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rows).replace("1.5,", "1.50,")
    works.write_text(text.replace('"n":100000.0', '"n":1e5'))
    assert '"v":1.50' in works.read_text() and '"n":1e5' in works.read_text()
    compare_with_the_cli(cli, tmp_path, works, ["-c", "pmid", "-c", "v", "-c", "ok", "-c", "ids", "-c", "xs[]", "--keep", "id"])
    values = {(r["source_column"], r["value"]) for r in pq.read_table(tmp_path / "spark.parquet").to_pylist()}
    assert {("v", "1.50"), ("ok", "true"), ("ids", '{"doi":"10.1000/x","n":1e5}'), ("xs[]", "1.50")} <= values


def test_command_reads_compressed_json_lines_as_the_cli(spark, cli, tmp_path, capsys):
    """`works.jsonl.gz` is JSON Lines, as the CLI reads it through the
    `.gz` (the command read it as CSV, its first record a header); its
    size is 0 in the report, where the CLI gives it decompressed
    (docs/spark.md). OpenAlex's `part_000.gz`: both say to give
    `--input-format jsonl` (exit 1)."""
    import gzip

    works = tmp_path / "works.jsonl.gz"
    text = "".join(json.dumps(w) + "\n" for w in WORKS)
    works.write_bytes(gzip.compress(text.encode()))
    want, got = compare_with_the_cli(cli, tmp_path, works, LIST_ARGS)
    assert [i["format"] for i in got["run"]["inputs"]] == [i["format"] for i in want["run"]["inputs"]] == ["jsonl"]
    assert (got["run"]["inputs"][0]["bytes"], want["run"]["inputs"][0]["bytes"]) == (0, len(text.encode()))
    part = tmp_path / "part_000.gz"
    part.write_bytes(works.read_bytes())
    assert subprocess.run([cli, "scan", str(part), "-c", "doi", "-q"], capture_output=True).returncode == 1
    capsys.readouterr()
    assert run_command(str(part), "-c", "doi") == 1
    assert "part_000.gz: this is JSON Lines, not CSV: read it with --input-format jsonl" in capsys.readouterr().err


def test_report_sizes_come_from_spark_for_any_file_system():
    """An input the driver cannot see (`s3a://…`, `dbfs:/…`) has the size
    Spark's counting pass found (it was 0); a compressed one stays 0, the
    CLI's being its size decompressed."""
    from types import SimpleNamespace

    import hdlscan
    from hdlscan.spark import _records
    from hdlscan.spark.__main__ import arguments, describe

    inputs = ("s3a://bucket/works/part-0.jsonl", "dbfs:/mnt/works/part_001.gz")
    r = hdlscan.Report(["doi"], list(inputs))
    layout = _records.Layout(inputs=inputs, first={}, sizes=(1234, 567))
    job = SimpleNamespace(plan=SimpleNamespace(layout=layout, keep=[], wide=False, prefix=""))
    describe(r, job, arguments([inputs[0], "-c", "doi"]))
    assert [i["bytes"] for i in json.loads(r.to_json())["run"]["inputs"]] == [1234, 0]


def test_a_list_column_is_read_through_its_path(spark):
    """A column of lists chosen by name is an error naming the path that
    reads its elements, as the CLI's (the wheel would take it as cells of
    several values); `urls[]` reads them."""
    from hdlscan.spark import scan

    df = spark.createDataFrame([("a", ["10.1000/x", None]), ("b", [])], "id string, urls array<string>")
    with pytest.raises(TypeError, match=r"a path reads its elements: 'urls\[\]'"):
        scan(df, "urls")
    rows = [(r["record"], r["value_index"], r["value"], r["kind"]) for r in scan(df, "urls[]").orderBy("record", "value_index").collect()]
    assert rows == [(1, 1, "10.1000/x", "doi"), (1, 2, "", "invalid"), (2, 1, "", "invalid")]


@pytest.mark.parametrize(
    "argv, said",
    [
        (["-c", "doi", "--keep", "locations[].landing_page_url"], "a kept path gives one cell per record"),
        (["-c", "locations.landing_page_url"], "a path reads its elements: 'locations[].landing_page_url'"),
    ],
    ids=["kept path through a list", "key of a list"],
)
def test_list_paths_usage_errors_as_the_clis(spark, cli, capsys, argv, said):
    works = ROOT / "testdata" / "jsonl" / "openalex_works.jsonl"
    assert subprocess.run([cli, "scan", str(works), *argv, "-q"], capture_output=True).returncode == 2
    assert run_command(str(works), *argv) == 2
    assert said in capsys.readouterr().err


def test_command_csv_output_keeps_values_as_the_cli_writes_them(spark, cli, tmp_path):
    """`-o out.csv`: Spark's CSV writer trimmed every field (the sample's
    '  10.1000/182  ' came out '10.1000/182') and quoted empty ones."""
    import csv

    subprocess.run([cli, "scan", str(SAMPLE), "-c", "dc.identifier.uri", "-q", "-o", str(tmp_path / "cli.csv")], check=True)
    assert run_command(str(SAMPLE), "-c", "dc.identifier.uri", "-o", str(tmp_path / "spark.csv")) == 0
    want = (tmp_path / "cli.csv").read_text(encoding="utf-8")
    parts = sorted((tmp_path / "spark.csv").glob("part-*.csv"))
    got = "".join(p.read_text(encoding="utf-8") for p in parts)
    rows = lambda text: list(csv.reader(text.splitlines(keepends=True)))
    assert rows(got) == rows(want)
    assert not [line for line in got.splitlines() if line.endswith(',""')]


def test_command_does_not_delete_a_directory_it_did_not_write(spark, tmp_path, capsys):
    """Spark's overwrite removes the whole `-o` directory: a user's
    directory of other files is refused, a job's earlier output replaced,
    an input refused (the CLI's usage error)."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("precious")
    assert run_command(str(SAMPLE), "-c", "dc.identifier.uri", "-o", str(mine)) == 2
    assert "a directory holding files no job wrote (notes.txt)" in capsys.readouterr().err
    assert (mine / "notes.txt").read_text() == "precious"
    out = tmp_path / "out.parquet"
    for _ in range(2):
        assert run_command(str(SAMPLE), "-c", "dc.identifier.uri", "-o", str(out)) == 0
    assert pq.read_table(out).num_rows == 3116
    copy = tmp_path / "in.csv"
    copy.write_bytes(SAMPLE.read_bytes())
    assert run_command(str(copy), "-c", "dc.identifier.uri", "--duplicates", str(copy)) == 2
    assert "is also an input" in capsys.readouterr().err
    assert copy.read_bytes() == SAMPLE.read_bytes()


def test_command_output_has_empty_fields_as_the_cli_reads_them(spark, cli, cli_sample, tmp_path):
    """The wide output's input columns: an empty CSV field is "" for the
    CLI; Spark's reader made it null."""
    out = tmp_path / "out.parquet"
    assert run_command(str(SAMPLE), "-c", "dc.identifier.uri", "-o", str(out)) == 0
    got = pq.read_table(out).to_pylist()
    assert got == cli_sample[1]
    assert any(r["dc.identifier.uri"] == "" for r in got)


def test_a_column_of_another_type_is_named(spark):
    from hdlscan.spark import scan

    df = spark.createDataFrame([(1.5, "10.1/x")], "score double, doi string")
    with pytest.raises(TypeError, match="column 'score': expected strings.*Float64.*cast it to a string"):
        scan(df, "score")


def test_a_dataframe_not_read_from_files_logs_no_error(spark, capfd):
    """Asking it for `_metadata` failed, as expected, and PySpark logged
    the JVM's stack trace at ERROR on stderr, on every scan."""
    from hdlscan.spark import scan

    df = spark.createDataFrame([("10.1/x",), (None,)], "doi string")
    assert [r["canonical"] for r in scan(df, "doi").collect()] == ["10.1/x", None]
    err = capfd.readouterr().err
    assert "UNRESOLVED_COLUMN" not in err and "_metadata" not in err


def test_command_says_a_json_document_is_not_json_lines(spark, capsys):
    crossref = ROOT / "testdata" / "jsonl" / "crossref_items.json"
    assert run_command(str(crossref), "-c", "DOI") == 1
    assert "a document over several lines" in capsys.readouterr().err
    assert run_command(str(ROOT / "testdata" / "jsonl" / "malformed.jsonl"), "--input-format", "jsonl", "-c", "doi") == 1
    capsys.readouterr()


def test_command_on_a_file_of_no_json_at_all_says_so(spark, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\nalso not\n")
    assert run_command(str(bad), "-c", "doi") == 1
    err = capsys.readouterr().err
    assert f"{bad}: no line is a JSON object" in err, err


def test_runs_here_only_for_local_jobs_whose_python_nobody_chose():
    from hdlscan.spark.__main__ import runs_here

    assert runs_here("local[2]", {})
    assert runs_here(None, {})
    assert not runs_here("local[2]", {"PYSPARK_PYTHON": "/opt/py/bin/python"})
    assert not runs_here("yarn", {})
    # Started by spark-submit, whose --master we cannot see.
    assert not runs_here(None, {"PYSPARK_GATEWAY_PORT": "4242"})


def test_command_workers_run_this_python_from_an_environment_not_activated(tmp_path):
    """A user runs the command with a virtual environment's python without
    activating it: `python3` on PATH is another interpreter, without
    pyarrow or hdlscan, which Spark's workers ran ("No module named
    'pyarrow'"). And -q hides Spark's stage bars, as the CLI's its own."""
    import os
    import sys

    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")}
    env["PATH"] = f"{bare / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    rep = tmp_path / "r.json"
    done = subprocess.run(
        [sys.executable, "-m", "hdlscan.spark", str(SAMPLE), "-c", "dc.identifier.uri", "--master", "local[1]", "-q",
         "--report", str(rep)],
        env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(rep.read_text())["values"] == 3116
    assert "[Stage" not in done.stderr
