"""``hdlscan_parse(varchar)`` in DuckDB: SPEC's columns as a struct.

::

    import duckdb
    import hdlscan.duckdb

    con = duckdb.connect()
    hdlscan.duckdb.register(con)
    con.sql("SELECT hdlscan_parse('doi:10.1000/182').canonical").fetchall()
    con.sql("SELECT p.* FROM (SELECT hdlscan_parse(doi) AS p FROM 'ids.csv')")

A vectorized (Arrow) function: DuckDB hands it a column at a time.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from ._hdlscan import parse

__all__ = ["register"]


def _plain(array: pa.Array) -> pa.Array:
    """Dictionary columns decoded: DuckDB takes plain strings back."""
    if pa.types.is_dictionary(array.type):
        return array.cast(array.type.value_type)
    return array


def register(con: duckdb.DuckDBPyConnection, name: str = "hdlscan_parse", *, repair: bool = False,
             expect=(), resolvers=()) -> None:
    """Makes ``name(varchar)`` available on ``con``: a struct of SPEC's
    columns (``hdlscan.SPEC``) per value, with ``hdlscan.parse``'s options.
    A NULL is an ``empty`` value, as in ``parse``."""
    options = {"repair": repair, "expect": tuple(expect), "resolvers": tuple(resolvers)}
    empty = parse(pa.array([], pa.string()), **options)
    fields = [pa.field(f.name, _plain(pa.nulls(0, f.type)).type) for f in empty.schema]

    def run(values: pa.Array) -> pa.Array:
        batch = parse(values, **options)
        return pa.StructArray.from_arrays([_plain(c) for c in batch.columns], fields=fields)

    struct = duckdb.struct_type({f.name: _duckdb_type(f.type) for f in fields})
    con.create_function(name, run, [duckdb.sqltype("VARCHAR")], struct, type="arrow",
                        null_handling="special")


def _duckdb_type(t: pa.DataType):
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return duckdb.list_type(duckdb.sqltype("VARCHAR"))
    return duckdb.sqltype("VARCHAR")
