"""hdlscan.Report gives the CLI's report for the same values: counts,
examples and clusters, whatever order batches are added or partial
reports merged in; its printers and gates are the CLI's."""

import json
import pickle
import random
import subprocess

import pyarrow as pa
import pyarrow.csv as pc
import pytest

import hdlscan
from conftest import ROOT

SAMPLE = "testdata/sample_export.csv"
COLUMN = "dc.identifier.uri"


@pytest.fixture(scope="module")
def values() -> pa.ChunkedArray:
    opts = pc.ConvertOptions(column_types={COLUMN: pa.string()}, strings_can_be_null=False)
    return pc.read_csv(ROOT / SAMPLE, convert_options=opts).column(COLUMN)


@pytest.fixture(scope="module")
def cli_report(cli, tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("cli") / "report.json"
    subprocess.run([cli, "scan", SAMPLE, "-c", COLUMN, "--report", out], cwd=ROOT, check=True,
                   capture_output=True)
    return json.loads(out.read_text())


def comparable(report: dict) -> dict:
    """What a report says of the values: everything but the run's own
    facts (time, formats), with places without `line` (a CSV's, which
    Arrow values do not have)."""
    def place(p):
        return {k: v for k, v in p.items() if k != "line"}

    def codes(c):
        return {k: {"count": v["count"], "examples": [place(e) for e in v["examples"]]} for k, v in c.items()}

    dups = dict(report["duplicates"])
    dups["top"] = [dict(c, first=place(c["first"]), members=[place(m) for m in c["members"]]) for c in dups["top"]]
    keys = ["records", "cells", "values", "present", "valid", "valid_of_present", "by_kind", "by_namespace",
            "columns", "top_prefixes", "resolvers", "verdict", "gates"]
    return {**{k: report[k] for k in keys}, "errors": codes(report["errors"]),
            "warnings": codes(report["warnings"]), "duplicates": dups}


def report_of(values, blocks=1, order=None, **kw) -> hdlscan.Report:
    """The report of `values`, added as `blocks` partial reports (each
    shipped through bytes) merged in `order`."""
    n = len(values)
    cuts = [n * i // blocks for i in range(blocks + 1)]
    parts = []
    for lo, hi in zip(cuts, cuts[1:]):
        r = hdlscan.Report([COLUMN], [SAMPLE], **kw)
        batch = r.add(values.slice(lo, hi - lo), column=COLUMN, first_record=lo + 1)
        assert batch.num_rows == hi - lo
        parts.append(hdlscan.Report.from_partial(r.to_partial()))
    first, *rest = [parts[i] for i in (order or range(blocks))]
    for p in rest:
        first.merge(p)
    return first


def test_the_report_is_the_clis(values, cli_report):
    r = report_of(values)
    r.compute_clusters()
    ours = json.loads(r.to_json())
    assert comparable(ours) == comparable(cli_report)
    assert ours["version"] == cli_report["version"]
    assert ours["run"]["inputs"][0]["records"] == cli_report["records"]


def test_merge_order_changes_nothing(values, cli_report):
    order = list(range(7))
    random.Random(29).shuffle(order)
    r = report_of(values, blocks=7, order=order)
    r.compute_clusters()
    assert comparable(json.loads(r.to_json())) == comparable(cli_report)


def test_add_returns_what_parse_returns(values):
    r = hdlscan.Report([COLUMN])
    assert r.add(values, column=COLUMN) == hdlscan.parse(values)
    split = hdlscan.Report([COLUMN], split="||").add(values, column=COLUMN, first_record=10).to_pylist()
    parsed = hdlscan.parse(values, split="||").to_pylist()
    assert split == [dict(row, record=row["record"] + 9) for row in parsed]


def test_clusters_given_are_printed(values):
    r = report_of(values, keep_canonicals=False)
    with pytest.raises(ValueError, match="keep_canonicals"):
        r.compute_clusters()
    place = {"input": 0, "record": 16, "column": 0, "value_index": 1}
    r.set_clusters({
        "values": 10, "unique": 8, "clusters": 1, "values_in_clusters": 3, "records_in_clusters": 3,
        "across_inputs": 0, "across_columns": 0, "repeated_in_record": {"values": 0, "records": 0},
        "top": [{"canonical": "10.1000/182", "count": 3, "records": 3, "first": place,
                 "members": [{"at": place, "value": "10.1000/182", "variant": "same"}]}],
    })
    d = json.loads(r.to_json())["duplicates"]
    assert (d["clusters"], d["records_in_clusters"], d["top"][0]["first"]["input"]) == (1, 3, SAMPLE)
    assert "10.1000/182" in r.to_markdown() and "10.1000/182" in r.to_html()
    with pytest.raises(ValueError, match="unknown field"):
        r.set_clusters({"values": 1, "unique": 1, "clusters": 0, "values_in_clusters": 0,
                        "records_in_clusters": 0, "across_inputs": 0, "across_columns": 0,
                        "repeated_in_record": {"values": 0, "records": 0}, "cluster_count": 3})


def test_gates_and_printers(values, cli_report):
    r = report_of(values)
    assert r.check("invalid>1%") is True
    assert r.check("records<10") is False
    ours = json.loads(r.to_json())
    assert ours["verdict"] == "fail" and [g["expr"] for g in ours["gates"]] == ["invalid>1%", "records<10"]
    with pytest.raises(ValueError, match="--fail-if"):
        r.check("invalid>>1")
    assert r.summary().startswith(f"hdlscan: {cli_report['records']} records")
    assert r.to_markdown().startswith("#") and "<html" in r.to_html()


def test_warn_gates_warn_and_fail_gates_fail(values):
    r = report_of(values)
    assert r.check("invalid>1%", warn=True) is True
    ours = json.loads(r.to_json())
    assert ours["verdict"] == "warn" and ours["gates"][0]["severity"] == "warn"
    with pytest.raises(ValueError, match="--warn-if"):
        r.check("invalid>>1", warn=True)
    r.check("invalid>1%")
    assert json.loads(r.to_json())["verdict"] == "fail"


def test_the_job_sets_its_wall_time(values):
    r = report_of(values, blocks=3)
    r.set_elapsed(12.5)
    assert json.loads(r.to_json())["run"]["elapsed_seconds"] == 12.5
    assert "12.50s" in r.summary()
    with pytest.raises(ValueError, match="not a time"):
        r.set_elapsed(-1.0)


def test_variant_is_the_duplicates_rule(values):
    """`variant` gives, member by member, the variant the report's top
    clusters show (the CLI's)."""
    r = report_of(values)
    r.compute_clusters()
    top = json.loads(r.to_json())["duplicates"]["top"]
    parsed = hdlscan.parse(values)
    rows = {i + 1: (values[i].as_py(), parsed.column("warnings")[i].as_py()) for i in range(len(values))}
    members = [(m, c["first"]["record"]) for c in top for m in c["members"]]
    got = hdlscan.variant(
        pa.array([rows[m["record"]][0] for m, _ in members]),
        pa.array([rows[m["record"]][1] for m, _ in members], pa.list_(pa.string())),
        pa.array([rows[f][0] for _, f in members]),
        pa.array([rows[f][1] for _, f in members], pa.list_(pa.string())),
    )
    assert got.to_pylist() == [m["variant"] for m, _ in members]
    assert {"same", "form"} <= set(got.to_pylist())
    names = pa.list_(pa.string())
    assert hdlscan.variant(
        pa.array(["10.1000/abc.", "10.1000/abc."]),
        pa.array([["trailing_punct"], ["trailing_punct"]], names),
        pa.array(["10.1000/abc", "10.1000/ABC"]),
        pa.array([None, []], names),
        repair=True,
    ).to_pylist() == ["repair", "repair"]
    with pytest.raises(ValueError, match="no warning"):
        hdlscan.variant(pa.array(["a"]), pa.array([["nope"]], names), pa.array(["a"]), pa.array([[]], names))
    with pytest.raises(ValueError, match="one row per member"):
        hdlscan.variant(pa.array(["a"]), pa.array([[]], names), pa.array(["a", "b"]), pa.array([[]], names))
    with pytest.raises(TypeError, match="lists of warning names"):
        hdlscan.variant(pa.array(["a"]), pa.array(["x"]), pa.array(["a"]), pa.array([[]], names))


def test_pickles_and_refuses_what_does_not_fit(values):
    r = report_of(values)
    back = pickle.loads(pickle.dumps(r))
    assert back.to_json() == r.to_json()
    with pytest.raises(ValueError, match="same columns"):
        r.merge(hdlscan.Report(["other"], [SAMPLE]))
    with pytest.raises(ValueError, match="not one of the report's"):
        r.add(values, column="other")
    with pytest.raises(ValueError, match="input 1"):
        r.add(values, column=COLUMN, input=1)
    with pytest.raises(ValueError, match="not a partial"):
        hdlscan.Report.from_partial(b"{}")


def test_several_columns_and_inputs_are_the_clis(cli, tmp_path):
    """Records numbered across inputs, as the CLI numbers them; a canonical
    held twice by one record, across columns and across inputs."""
    files = {
        "a.csv": "id,doi,uri\n1,10.1000/1,https://doi.org/10.1000/1\n2,10.1000/2,10.1000/3\n3,doi:10.1000/2,N/A\n",
        "b.csv": "id,doi,uri\n1,10.1000/3,\n2,10.1000/1,hdl:1721.1/5\n3,,https://hdl.handle.net/1721.1/5\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    subprocess.run([cli, "scan", *files, "-c", "doi", "-c", "uri", "--report", "r.json"], cwd=tmp_path,
                   check=True, capture_output=True)
    cli_report = json.loads((tmp_path / "r.json").read_text())
    r = hdlscan.Report(["doi", "uri"], list(files))
    first = 1
    for i, name in enumerate(files):
        opts = pc.ConvertOptions(column_types={"doi": pa.string(), "uri": pa.string()}, strings_can_be_null=False)
        table = pc.read_csv(tmp_path / name, convert_options=opts)
        for column in ["uri", "doi"]:
            r.add(table.column(column), column=column, input=i, first_record=first)
        first += table.num_rows
    r.compute_clusters()
    assert comparable(json.loads(r.to_json())) == comparable(cli_report)


def test_column_gates_select_as_the_clis(cli, tmp_path):
    """`COLUMN:` in a gate is a selector, as `--fail-if` reads it: a
    pattern sums the columns it matches, a number or a name in another case
    picks one; the outcome and the refusal are the CLI's, word for word."""
    columns = ["dc.identifier.uri", "dc.title"]
    gates = ["dc.*:invalid>50%", "dc.identifier.*:invalid>0", "2:valid>0", "DC.Title:present<1", "invalid>1%"]
    flags = [f for g in gates for f in ("--fail-if", g)]
    run = subprocess.run([cli, "scan", SAMPLE, *(f for c in columns for f in ("-c", c)), *flags,
                          "--report", tmp_path / "r.json", "-q"], cwd=ROOT, capture_output=True)
    assert run.returncode == 3, run.stderr
    cli_gates = json.loads((tmp_path / "r.json").read_text())["gates"]

    opts = pc.ConvertOptions(column_types={c: pa.string() for c in columns}, strings_can_be_null=False)
    table = pc.read_csv(ROOT / SAMPLE, convert_options=opts)
    r = hdlscan.Report(columns, [SAMPLE])
    for c in columns:
        r.add(table.column(c), column=c)
    held = [r.check(g) for g in gates]
    ours = json.loads(r.to_json())["gates"]
    assert ours == cli_gates
    assert held == [g["holds"] for g in cli_gates]

    bad = "dc.x*:invalid>0"
    run = subprocess.run([cli, "scan", SAMPLE, "-c", columns[0], "--fail-if", bad, "-q"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 2
    with pytest.raises(ValueError) as e:
        hdlscan.Report([columns[0]]).check(bad)
    assert f"hdlscan: {e.value}\n" == run.stderr


def test_select_columns_is_the_clis():
    from hdlscan import _hdlscan

    names = ["id", "dc.identifier.uri", "dc.identifier.uri[en_US]", "doi\u00a0", "URL"]
    assert _hdlscan.select_columns(names, ["dc.identifier.uri*", "2", "doi", "url"], "x.csv") == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="no column named 'dio' in x.csv .did you mean 'doi"):
        _hdlscan.select_columns(names, ["dio"], "x.csv")


def test_set_run_fills_the_run_section_as_the_cli_does():
    r = hdlscan.Report(["doi", "url"], ["a.csv"])
    r.add(pa.array(["10.1000/1"]), column="doi")
    r.add(pa.array(["x"]), column="url")
    run = json.loads(r.to_json())["run"]
    # Several columns make long output for the CLI, even without a split.
    assert run["output_shape"] == "long" and run["output"] is None
    assert run["inputs"][0]["format"] == "arrow" and run["inputs"][0]["bytes"] == 0
    r.set_run(output="out.parquet", column_prefix="hdl_", formats=["csv"], bytes=[123],
              options={"keep": ["id"], "no_quoting": True})
    run = json.loads(r.to_json())["run"]
    assert (run["output"], run["output_shape"], run["column_prefix"]) == ("out.parquet", "long", "hdl_")
    assert run["inputs"] == [{"path": "a.csv", "format": "csv", "bytes": 123, "records": 1}]
    assert list(run["options"])[-2:] == ["keep", "no_quoting"] and run["options"]["keep"] == ["id"]
    assert hdlscan.Report.from_partial(r.to_partial()).to_json() == r.to_json()
    with pytest.raises(ValueError, match="formats has 2 items, for 1 inputs"):
        r.set_run(formats=["csv", "csv"])
    one = hdlscan.Report(["doi"])
    assert json.loads(one.to_json())["run"]["output_shape"] == "wide"


def test_lists_are_cells_of_several_values_as_the_clis_paths(cli, tmp_path):
    """A list array is a column of cells of several values, as the CLI
    reads a path through `[]`: a value per element, `value_index` its place
    in the record, a null element an empty value, an empty or null list
    one empty value. The report (counts, examples, clusters) is the CLI's
    on the same records as JSON Lines, added in two blocks."""
    urls = [
        ["https://doi.org/10.7717/peerj.4375", None, "http://hdl.handle.net/2027.42/40123"],
        [],
        None,
        ["hdl:2027.42/40123", "10.7717/PEERJ.4375", "N/A"],
    ]
    works = tmp_path / "works.jsonl"
    works.write_text("".join(
        json.dumps({"locations": None if u is None else [{"url": x} for x in u]}) + "\n" for u in urls
    ))
    out = tmp_path / "cli.json"
    subprocess.run([cli, "scan", works, "-c", "locations[].url", "--report", out, "-q"], check=True)
    col = "locations[].url"
    r = hdlscan.Report([col], [str(works)])
    values = pa.array(urls, pa.list_(pa.string()))
    first = r.add(values.slice(0, 2), column=col).to_pylist()
    second = hdlscan.Report([col], [str(works)])
    rows = first + second.add(values.slice(2), column=col, first_record=3).to_pylist()
    r.merge(second)
    r.compute_clusters()
    assert comparable(json.loads(r.to_json())) == comparable(json.loads(out.read_text()))
    assert [(x["record"], x["value_index"], x["value"]) for x in rows] == [
        (1, 1, "https://doi.org/10.7717/peerj.4375"), (1, 2, ""), (1, 3, "http://hdl.handle.net/2027.42/40123"),
        (2, 1, ""), (3, 1, ""), (4, 1, "hdl:2027.42/40123"), (4, 2, "10.7717/PEERJ.4375"), (4, 3, "N/A"),
    ]
    assert [x["record"] for x in hdlscan.parse(values).to_pylist()] == [1, 1, 1, 2, 3, 4, 4, 4]
