"""hdlscan.parse agrees with `hdlscan parse` value for value, on every
Arrow type of strings it reads; other types are a TypeError."""

import json
from collections import defaultdict

import pyarrow as pa
import pytest

import hdlscan
from conftest import TESTDATA, cli_parse, conformance_cases


def rows(batch: pa.RecordBatch) -> list[dict]:
    return batch.to_pylist()


def test_columns_are_spec():
    batch = hdlscan.parse(pa.array(["10.1000/182"]))
    assert batch.schema.names == list(hdlscan.SPEC)
    assert hdlscan.SPEC[0] == "kind" and hdlscan.SPEC[-1] == "warnings"


def test_conformance_corpus_agrees_with_the_cli(cli):
    by_options = defaultdict(list)
    for c in conformance_cases():
        by_options[json.dumps(c["options"], sort_keys=True)].append(c)
    assert sum(map(len, by_options.values())) > 1000
    for key, cases in by_options.items():
        options = json.loads(key)
        values = [c["value"] for c in cases]
        ours = rows(hdlscan.parse(pa.array(values, pa.binary()), **options))
        theirs = cli_parse(cli, values, options)
        for c, a, b in zip(cases, ours, theirs):
            assert a == b, (c["id"], options)


@pytest.mark.parametrize("arrow_type", [pa.string(), pa.large_string(), pa.string_view()])
def test_bench_values_agree_with_the_cli(cli, arrow_type):
    lines = (TESTDATA / "bench_values.txt").read_bytes().split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    values = [v.rstrip(b"\r").decode("utf-8", "replace") for v in lines]
    theirs = cli_parse(cli, [v.encode() for v in values], {})
    ours = rows(hdlscan.parse(pa.array(values, arrow_type)))
    assert len(ours) == len(theirs) == len(values)
    for v, a, b in zip(values, ours, theirs):
        assert a == b, v


def test_every_string_type_and_chunking_gives_the_same_rows():
    values = ["doi:10.1000/182", None, "N/A", "hdl:1721.1/5", "https://hdl.handle.net/1721.1/5?x=1#f", ""]
    expected = rows(hdlscan.parse(pa.array(values)))
    assert expected[1] == expected[5] and expected[1]["error"] == "empty"
    for arr in [
        pa.array(values, pa.large_string()),
        pa.array(values, pa.string_view()),
        pa.array(values).dictionary_encode(),
        pa.array([None if v is None else v.encode() for v in values], pa.binary()),
        pa.array([None if v is None else v.encode() for v in values], pa.large_binary()),
        pa.chunked_array([values[:2], values[2:]]),
        pa.chunked_array([pa.array([], pa.string()), pa.array(values)]),
        pa.table({"doi": values}),
    ]:
        assert rows(hdlscan.parse(arr)) == expected, arr.type if hasattr(arr, "type") else arr
    assert rows(hdlscan.parse(pa.nulls(2))) == [expected[1]] * 2
    assert hdlscan.parse(pa.chunked_array([], pa.string())).num_rows == 0


def test_options_are_the_flags():
    v = pa.array(["10.1000/182.", "hdl:1721.1/5", "https://repo.example.edu/handle/1721.1/5"])
    assert rows(hdlscan.parse(v, repair=True))[0]["canonical"] == "10.1000/182"
    assert rows(hdlscan.parse(v, expect=("doi",)))[1]["error"] == "unexpected_namespace"
    assert rows(hdlscan.parse(v, resolvers=("repo.example.edu/handle",)))[2]["canonical"] == "1721.1/5"
    assert rows(hdlscan.parse(v, max_len=5))[0]["error"] == "too_long"
    with pytest.raises(ValueError, match="not a namespace"):
        hdlscan.parse(v, expect=("no such",))
    with pytest.raises(ValueError, match="COLUMN=NS"):
        hdlscan.parse(v, expect=("doi_col=doi",))
    with pytest.raises(ValueError, match="separator is empty"):
        hdlscan.parse(v, split="")


def test_split_rows_say_where_each_value_came_from():
    cells = pa.array(["hdl:1721.1/5||https://doi.org/10.1000/182", None, "10.1000/1"])
    out = rows(hdlscan.parse(cells, split="||"))
    assert [(r["record"], r["value_index"], r["value"], r["kind"]) for r in out] == [
        (1, 1, "hdl:1721.1/5", "hdl_uri"),
        (1, 2, "https://doi.org/10.1000/182", "resolver_url"),
        (2, 1, "", "invalid"),
        (3, 1, "10.1000/1", "doi"),
    ]
    auto = rows(hdlscan.parse(pa.array(["10.1000/1, 10.1000/2"]), split="auto"))
    assert [r["canonical"] for r in auto] == ["10.1000/1", "10.1000/2"]
    later = rows(hdlscan.parse(cells, split="||", first_record=101))
    assert [r["record"] for r in later] == [101, 101, 102, 103]
    chunked = rows(hdlscan.parse(pa.chunked_array([cells[:1], cells[1:]]), split="||", first_record=101))
    assert [r["record"] for r in chunked] == [101, 101, 102, 103]


def test_integers_are_read_as_their_decimal_text_as_the_cli_reads_parquet():
    # A PMID column as pandas writes it: int64, a missing id a null.
    ids = pa.array([29486196, None, 12], pa.int64())
    out = rows(hdlscan.parse(ids, expect=["pmid"]))
    assert [(r["kind"], r["error"], r["canonical"]) for r in out] == [
        ("other_pid", None, "pmid:29486196"),
        ("invalid", "empty", None),
        ("other_pid", None, "pmid:12"),
    ]
    split = rows(hdlscan.parse(ids, split="auto"))
    assert [(r["record"], r["value"]) for r in split] == [(1, "29486196"), (2, ""), (3, "12")]
    assert rows(hdlscan.parse(pa.array([7], pa.uint8())))[0]["error"] == "no_slash"
    report = hdlscan.Report(["pmid"], expect=["pmid"])
    report.add(ids, column="pmid")
    assert json.loads(report.to_json())["valid"] == 2


@pytest.mark.parametrize("bad, named", [
    (["10.1000/182"], "list"),
    ("10.1000/182", "str"),
    (None, "NoneType"),
    (pa.array([1.5, 2.0]), "(?i)double"),
    (pa.table({"a": ["x"], "b": ["y"]}), "Table with 2 columns"),
])
def test_other_types_are_a_type_error_naming_the_type(bad, named):
    with pytest.raises(TypeError, match=named):
        hdlscan.parse(bad)
    with pytest.raises(TypeError, match=named):
        hdlscan.Report(["c"]).add(bad, column="c")


def test_one_string_is_one_namespace_host_or_column():
    v = pa.array(["hdl:1721.1/5", "https://repo.example.edu/handle/1721.1/5"])
    assert rows(hdlscan.parse(v, expect="doi")) == rows(hdlscan.parse(v, expect=["doi"]))
    assert rows(hdlscan.parse(v, expect="doi"))[0]["error"] == "unexpected_namespace"
    assert rows(hdlscan.parse(v, resolvers="repo.example.edu/handle"))[1]["canonical"] == "1721.1/5"
    r = hdlscan.Report("doi", "a.csv", expect="doi")
    assert r.columns == ["doi"] and r.inputs == ["a.csv"]
    with pytest.raises(TypeError, match="expect: expected a string or a list of strings, got int"):
        hdlscan.parse(v, expect=5)
    with pytest.raises(TypeError, match="columns: expected"):
        hdlscan.Report(3)


def test_a_polars_column_of_nulls_is_empty_values():
    import polars as pl

    # Polars' Null type: every value null, as a DataFrame built from Nones has it.
    s = pl.Series("doi", [None, None])
    assert s.dtype == pl.Null
    assert [r["error"] for r in rows(hdlscan.parse(s))] == ["empty", "empty"]
    report = hdlscan.Report(["doi"])
    report.add(s, column="doi")
    assert json.loads(report.to_json())["values"] == 2


def test_a_negative_count_is_a_value_error_naming_its_argument():
    v = pa.array(["10.1000/1"])
    with pytest.raises(ValueError, match="max_len=-1: give 0 or more"):
        hdlscan.parse(v, max_len=-1)
    with pytest.raises(ValueError, match="first_record=-5: give 0 or more"):
        hdlscan.parse(v, split="||", first_record=-5)
    with pytest.raises(ValueError, match="max_len=-1"):
        hdlscan.Report(["doi"], max_len=-1)
    with pytest.raises(ValueError, match="first_record=-1"):
        hdlscan.Report(["doi"]).add(v, column="doi", first_record=-1)
