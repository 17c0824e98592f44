"""hdlscan inside Spark: the CLI's scan, columns and report over a
DataFrame, by `mapInArrow` (docs/spark.md).

- `scan(df, columns)`: `df` enriched with SPEC's columns, as
  `hdlscan scan -o` writes them.
- `write(df, columns, path)`: the same rows written as Parquet by the
  tasks that parse them (`_write`), without Spark's writer.
- `report(df, columns)`: the CLI's report (`hdlscan.Report`), from partial
  reports of every file split merged on the driver in record order, with
  the duplicate clusters found by `groupBy(canonical)`.
- `Job`: both from one pass, and the duplicates' rows (`Job.write`:
  the output written by that pass, as `write` does); what
  `python -m hdlscan.spark` runs.

Records are numbered as the CLI numbers them (`_records`): inputs in
sorted path order (or the order `inputs` gives), rows in file order.
"""

from __future__ import annotations

import os
import time

import pyarrow as pa
import pyarrow.compute as pc
from pyspark import StorageLevel
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema, to_arrow_schema

from . import _clusters, _scan, _write

__all__ = ["Job", "report", "scan", "write"]


class Job:
    """One scan of `df`: its enriched rows, report and duplicates, sharing
    one parse of every value.

    `columns` and `keep` take names, paths into structs and lists
    (`ids.doi`, `locations[].landing_page_url`: a value per element) or
    patterns (as `-c`); `inputs` orders
    the input files (their URIs as `_metadata.file_path` gives them);
    `repair`, `expect`, `resolvers`, `split`, `long` and `column_prefix`
    are the CLI's flags.
    """

    def __init__(
        self,
        df: DataFrame,
        columns,
        keep=(),
        *,
        repair=False,
        expect=(),
        resolvers=(),
        split=None,
        long=False,
        column_prefix=None,
        inputs=None,
    ):
        options = _scan.Options.of(
            repair=repair, expect=expect, resolvers=resolvers, split=split, long=long, column_prefix=column_prefix
        )
        self._pieces = _scan.prepared(df, columns, keep, options, inputs, partials=True)
        rows, task, schema, _, self.plan = self._pieces
        self._rows = rows.mapInArrow(task, schema)
        self._persisted = None
        self._written = None
        self._cached = False
        self._report = None
        self._started = time.monotonic()

    def _internal(self) -> DataFrame:
        # Every later action reads the parse once: the output, the partial
        # reports and the clusters.
        if not self._cached:
            self._rows = self._persisted = self._rows.persist(StorageLevel.MEMORY_AND_DISK)
            self._cached = True
        return self._rows

    def output(self) -> DataFrame:
        """The enriched rows, as `hdlscan scan -o` writes them (after
        `write`, read back from what it wrote)."""
        if self._written is not None:
            return self._pieces[0].sparkSession.read.parquet(self._written)
        return _scan.public(self._internal())

    def write(self, path, mode="error") -> int:
        """Writes the enriched rows to the directory `path` as
        `hdlscan.spark.write` does (`mode` as there), from the pass that
        parses them, which keeps for the report and the clusters only
        what they read: the partial reports and the valid values'
        canonical, place, value and warnings, not every column of every
        row. The rows written. Called after the report or the clusters,
        it writes the rows they kept."""
        if self._cached:
            out = self.output()
            return _write.write_parts(out, lambda batches: batches, to_arrow_schema(out.schema), path, mode)
        rows, task, _, arrow_out, plan = self._pieces
        public = pa.schema([f for f in arrow_out if f.name not in _scan.INTERNAL])
        read = [plan.added(n) for n in ("record", "value_index", "canonical", "warnings")] + list(_scan.INTERNAL)
        result = pa.schema([f for f in arrow_out if f.name in read] + list(_write.RESULT))
        canonical = plan.added("canonical")

        def split(b):
            if b.column(_scan.PARTIAL).null_count < b.num_rows:
                return None, b
            return b.select(public.names), b.filter(pc.is_valid(b.column(canonical)))

        parts = _write.Parts(path, mode)
        written = rows.mapInArrow(parts.task(task, public, result, split), from_arrow_schema(result))
        written = written.persist(StorageLevel.MEMORY_AND_DISK)
        try:
            done = written.where(F.col(_write.FILE).isNotNull()).select(*_write.RESULT.names).collect()
        except BaseException:
            written.unpersist()
            parts.abort()
            raise
        n = parts.commit(done, public)
        self._persisted = written
        self._rows = written.where(F.col(_write.FILE).isNull())
        self._cached = True
        self._written = os.fspath(path)
        return n

    def clusters(self) -> _clusters.Clusters:
        plan = self.plan
        return _clusters.Clusters(_clusters.values(self._internal(), plan.prefix), plan.options, plan.columns, plan.layout.inputs)

    def report(self, duplicates=True):
        """The report: partial reports merged in record order, then the
        clusters' numbers; its elapsed time is the job's, from its start.
        Made once: later calls return the same report."""
        if self._report is not None:
            return self._report
        plan = self.plan
        rows = self._internal()
        partials = (
            rows.where(F.col(_scan.PARTIAL).isNotNull())
            .select(_scan.INPUT, _scan.col(plan.added("record")).alias("record"), _scan.PARTIAL)
            .orderBy(_scan.INPUT, "record")
            .collect()
        )
        import hdlscan

        merged = plan.options.report(plan.columns, plan.layout.inputs)
        for p in partials:
            merged.merge(hdlscan.Report.from_partial(bytes(p[_scan.PARTIAL])))
        # The run's shape, prefix and kept columns, as the CLI's report
        # gives them (`python -m hdlscan.spark` adds the files' formats,
        # sizes and the output).
        merged.set_run(long=not plan.wide, column_prefix=plan.prefix, options={"keep": list(plan.keep)})
        if duplicates:
            merged.set_clusters(self.clusters().summary())
        # The partials timed their own parsing, summed over tasks: the job's
        # time is the driver's.
        merged.set_elapsed(time.monotonic() - self._started)
        self._report = merged
        return merged

    def duplicates(self) -> DataFrame:
        """A row per member of every cluster, as `--duplicates` writes."""
        return self.clusters().rows()

    def close(self):
        if self._persisted is not None:
            self._persisted.unpersist()
            self._persisted = None
        self._cached = False


def scan(df: DataFrame, columns, keep=(), **options) -> DataFrame:
    """`df` enriched with SPEC's columns, as `hdlscan scan -o` writes them
    (`Job` takes the same options), without a report."""
    inputs = options.pop("inputs", None)
    rows, _ = _scan.enriched(df, columns, keep, _scan.Options.of(**options), inputs)
    return _scan.public(rows)


def write(df: DataFrame, columns, path, keep=(), *, mode="error", **options) -> int:
    """`scan(df, columns, keep, **options)` written to the directory `path`
    as Parquet parts (zstd, as the CLI writes), each by the task that
    parsed its rows, committed by the driver when every task is done; the
    rows written. `path`: a string or a path-like object. `mode`: `error`
    (`path` must not exist) or `overwrite`.
    `path` must be a filesystem the driver and every worker reach (local on
    `local[N]`; a shared mount, `s3://`, `gs://`, `hdfs://`: docs/spark.md).
    Faster than `scan(...).write.parquet(path)`, which hands every row
    back to the JVM first."""
    inputs = options.pop("inputs", None)
    rows, task, _, arrow_out, _ = _scan.prepared(df, columns, keep, _scan.Options.of(**options), inputs)
    return _write.write_parts(rows, task, arrow_out, path, mode)


def report(df: DataFrame, columns, **options):
    """The CLI's report of `df`'s `columns` (see `Job` for the options)."""
    job = Job(df, columns, **options)
    try:
        return job.report()
    finally:
        job.close()
