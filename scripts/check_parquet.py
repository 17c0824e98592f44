#!/usr/bin/env python3
"""Check that a Parquet file is readable by pyarrow, DuckDB and polars.

Usage: check_parquet.py FILE [--expect-rows N]

Reads FILE with every one of pyarrow, duckdb and polars that is importable,
prints the row count and schema each one sees, and checks the row count
against N when given. Exits 0 only if every available reader succeeded (and
agreed on N); exits 2 if none of the three is importable, 1 on any failure.
"""

import argparse
import importlib
import sys


def check_pyarrow(path):
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    return table.num_rows, str(table.schema)


def check_duckdb(path):
    import duckdb

    con = duckdb.connect()
    try:
        rel = con.read_parquet(path)
        schema = ", ".join(f"{n}: {t}" for n, t in zip(rel.columns, rel.types))
        # Materialize every column, not just the count from the footer.
        (rows,) = con.execute(
            "SELECT count(*) FROM (SELECT * FROM read_parquet(?))", [path]
        ).fetchone()
        con.execute("SELECT * FROM read_parquet(?)", [path]).fetchall()
        return rows, schema
    finally:
        con.close()


def check_polars(path):
    import polars as pl

    df = pl.read_parquet(path)
    return df.height, str(df.schema)


READERS = [("pyarrow", "pyarrow.parquet", check_pyarrow),
           ("duckdb", "duckdb", check_duckdb),
           ("polars", "polars", check_polars)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--expect-rows", type=int, default=None)
    args = ap.parse_args()

    available = []
    for name, module, fn in READERS:
        try:
            importlib.import_module(module)
        except ImportError:
            print(f"{name}: not installed, skipped")
            continue
        available.append((name, fn))
    if not available:
        print("error: none of pyarrow, duckdb, polars is installed "
              "(pip install pyarrow duckdb polars)", file=sys.stderr)
        return 2

    failed = False
    for name, fn in available:
        try:
            rows, schema = fn(args.file)
        except Exception as e:  # noqa: BLE001 - report any reader failure
            print(f"{name}: FAILED to read {args.file}: {type(e).__name__}: {e}")
            failed = True
            continue
        print(f"{name}: {rows} rows")
        print("  schema: " + schema.replace("\n", "\n  "))
        if args.expect_rows is not None and rows != args.expect_rows:
            print(f"{name}: FAILED: expected {args.expect_rows} rows, got {rows}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
