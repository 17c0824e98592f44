"""hdlscan: audit Handle System handles, DOIs and info: URIs in bulk.

The CLI's parser, columns and report over Arrow, for Python, Polars, DuckDB
and Spark (``hdlscan.spark``):

- ``parse(values, *, repair=False, expect=(), resolvers=(), split=None)``:
  Arrow strings (or integers, read as their decimal text) in (a pyarrow
  Array or ChunkedArray, a Polars Series, ...),
  a ``pyarrow.RecordBatch`` of SPEC's columns (``SPEC``) out, a row per
  value, with the values ``hdlscan scan`` writes.
- ``variant(values, warnings, first_values, first_warnings, *, repair=False)``:
  how each duplicate cluster member differs from its cluster's first
  (``same``, ``case``, ``repair``, ``encoding``, ``form``), as the
  duplicates file says it.
- ``Report``: the report ``hdlscan scan --report`` writes, fed with batches,
  merged across workers, printed as JSON, Markdown or HTML, judged with
  gates.
- ``import hdlscan.polars``: ``pl.col("doi").hdlscan.parse()``.
- ``hdlscan.duckdb.register(con)``: ``hdlscan_parse(varchar)`` in SQL.
"""

import sys

from ._hdlscan import SPEC, Report, __version__, parse, variant

__all__ = ["SPEC", "Report", "__version__", "parse", "variant"]

# The Polars namespace registers itself on import; done here when Polars is
# already loaded, so `import polars, hdlscan` is enough (importing Polars
# for users who do not use it would cost them its start-up).
if "polars" in sys.modules:
    from . import polars as _polars  # noqa: F401
