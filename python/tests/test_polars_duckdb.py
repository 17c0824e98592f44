"""The Polars namespace and the DuckDB function, as their docs show them."""

import duckdb
import polars as pl
import pyarrow as pa

import hdlscan
import hdlscan.duckdb
import hdlscan.polars  # noqa: F401

VALUES = ["doi:10.1000/182", None, "N/A", "https://hdl.handle.net/1721.1/5"]


def test_polars_expression():
    df = pl.DataFrame({"doi": VALUES})
    out = df.with_columns(pl.col("doi").hdlscan.parse().alias("id")).unnest("id")
    assert out.columns == ["doi", *hdlscan.SPEC]
    assert out["canonical"].to_list() == ["10.1000/182", None, None, "1721.1/5"]
    assert out["error"].cast(pl.String).to_list() == [None, "empty", "placeholder", None]
    assert out["warnings"].to_list()[0] == []
    # A Series is Arrow too.
    assert hdlscan.parse(df["doi"]).column("kind").to_pylist() == ["doi", "invalid", "invalid", "resolver_url"]
    lazy = pl.LazyFrame({"doi": VALUES}).select(pl.col("doi").hdlscan.parse(expect=["doi"]).struct.field("error"))
    assert lazy.collect()["error"].cast(pl.String).to_list()[3] == "unexpected_namespace"


def test_duckdb_function():
    con = duckdb.connect()
    hdlscan.duckdb.register(con)
    assert con.sql("SELECT hdlscan_parse('doi:10.1000/182').canonical").fetchall() == [("10.1000/182",)]
    con.sql("CREATE TABLE t AS SELECT * FROM (VALUES ('doi:10.1000/182'), (NULL), ('N/A')) v(doi)")
    got = con.sql("SELECT p.kind, p.error, p.warnings FROM (SELECT hdlscan_parse(doi) AS p FROM t)").fetchall()
    assert sorted(got, key=str) == sorted([("doi", None, []), ("invalid", "empty", []),
                                           ("invalid", "placeholder", [])], key=str)
    # A DuckDB result is an Arrow stream: parse reads it directly.
    batch = hdlscan.parse(con.sql("SELECT doi FROM t"))
    assert batch.num_rows == 3


def test_polars_expression_on_a_column_of_nulls():
    df = pl.DataFrame({"doi": [None, None, None]})
    out = df.with_columns(pl.col("doi").hdlscan.parse().alias("id")).unnest("id")
    assert out["error"].cast(pl.String).to_list() == ["empty"] * 3
    mixed = pl.DataFrame({"doi": [None] * 5 + ["10.1000/1"]})
    assert mixed.select(pl.col("doi").hdlscan.parse().struct.field("canonical"))["canonical"].to_list() == [None] * 5 + ["10.1000/1"]


def test_duckdb_function_on_a_column_of_nulls():
    con = duckdb.connect()
    hdlscan.duckdb.register(con)
    got = con.sql("SELECT hdlscan_parse(NULL::VARCHAR).error, hdlscan_parse(x).error FROM range(3) t(r), (SELECT NULL::VARCHAR AS x)").fetchall()
    assert got == [("empty", "empty")] * 3


def test_polars_expression_on_lists_says_to_explode():
    """`parse` takes a list as a cell of several values (a row each); the
    expression gives a struct row for row, so a list column is a
    TypeError saying what to do, not Polars' complaint about the schema."""
    df = pl.DataFrame({"urls": [["10.1000/1", None], ["N/A"]]})
    try:
        df.with_columns(pl.col("urls").hdlscan.parse().alias("id"))
    except Exception as e:  # Polars wraps what the function raises
        assert "explode it first, pl.col('urls').explode()" in str(e), e
    else:
        raise AssertionError("a list column parsed row for row")
    out = df.select(pl.col("urls").explode().hdlscan.parse().struct.field("canonical"))
    assert out["canonical"].to_list() == ["10.1000/1", None, None]
