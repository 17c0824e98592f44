"""``pl.col("doi").hdlscan.parse()``: SPEC's columns as a Polars struct column.

Importing this module registers the ``hdlscan`` expression namespace (also
done by ``import hdlscan`` when Polars is already imported)::

    import polars as pl
    import hdlscan.polars  # noqa: F401

    df = pl.DataFrame({"doi": ["10.1000/182", "N/A"]})
    df.with_columns(pl.col("doi").hdlscan.parse().alias("id")).unnest("id")

The struct has SPEC's fields (``hdlscan.SPEC``), a row per value, with the
values ``hdlscan.parse`` gives (``kind`` and ``error`` as categoricals).
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa

from ._hdlscan import parse

__all__ = ["HdlscanExpr"]


def _struct(batch: pa.RecordBatch, name: str) -> pl.Series:
    return pl.from_arrow(batch).to_struct(name)


def _parse(s: pl.Series, options: dict) -> pl.Series:
    # `parse` reads a list as a cell of several values, a row each: not
    # the row for row struct this expression promises.
    if isinstance(s.dtype, pl.List):
        raise TypeError(f"column {s.name!r} holds lists ({s.dtype}): explode it first, pl.col({s.name!r}).explode()")
    return _struct(parse(s, **options), s.name)


@pl.api.register_expr_namespace("hdlscan")
class HdlscanExpr:
    """The ``hdlscan`` namespace of Polars expressions."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def parse(self, *, repair: bool = False, expect=(), resolvers=()) -> pl.Expr:
        """SPEC's columns of every value, as a struct (``hdlscan.parse``'s
        options; no ``split``, which would change the number of rows)."""
        options = {"repair": repair, "expect": tuple(expect), "resolvers": tuple(resolvers)}
        dtype = _struct(parse(pa.array([], pa.string()), **options), "").dtype
        return self._expr.map_batches(
            lambda s: _parse(s, options), return_dtype=dtype, is_elementwise=True
        )
