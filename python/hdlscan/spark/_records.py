"""Where each row of a DataFrame was read: its input and the CLI's record
number (1-based, counted across all inputs in their order, the header not
counted), so examples and clusters name the same records the CLI names.

A plain read of one Parquet file needs no pass of its own: Spark gives
every row its place in the file (`_metadata.row_index`, Parquet only), so
a row's record is that place plus one, computed in the JVM. Otherwise,
a DataFrame read from files carries Spark's `_metadata`: a row's input is
its `file_path`, and its place is the file split (`file_block_start`) it
was read from plus its position in that split. One task reads one split
from its start, row by row, so one cheap counting pass (rows per split)
gives every split its first record; the scan then numbers rows as they
stream by. A DataFrame not read from files (or one whose `_metadata` is
gone after a join or a shuffle) is one input, numbered in the order of its
partitions and of rows within them, which is only meaningful where that
order is (a DataFrame built from a list, or one file read without
shuffles).
"""

from __future__ import annotations

import fnmatch
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

PATH = "__hdlscan_path"
BLOCK = "__hdlscan_block"
PART = "__hdlscan_part"
META = (PATH, BLOCK, PART)
RECORD = "__hdlscan_record"


def placed(df: DataFrame, inputs: list[str] | None = None) -> tuple[DataFrame, Layout]:
    """`df` with the columns a row's record is read from, and the `Layout`
    that reads them: `RECORD` itself for a plain read of one Parquet file,
    else `META` and the rows counted per split (`layout`)."""
    with quiet_analysis():
        try:
            meta = df.select("_metadata").schema[0].dataType.names
        except AnalysisException:
            meta = []
    if meta and "row_index" in meta and plain_read(df) and len(files := df.inputFiles()) == 1:
        out = df.withColumn(RECORD, F.col("_metadata.row_index") + 1)
        return out, Layout(inputs=(display_name(files[0]),), first=None)
    if meta:
        out = df.withColumn(PATH, F.col("_metadata.file_path")).withColumn(
            BLOCK, F.col("_metadata.file_block_start").cast("long")
        )
    else:
        out = df.withColumn(PATH, F.lit("")).withColumn(BLOCK, F.lit(0).cast("long"))
    out = out.withColumn(PART, F.spark_partition_id())
    return out, layout(out, inputs, files=bool(meta))


@contextmanager
def quiet_analysis():
    """PySpark 4 logs every failed analysis of a DataFrame call, with the
    JVM's whole stack trace, at ERROR on stderr, even one its caller
    catches: asking a DataFrame built from a list for `_metadata` printed
    a screenful on every scan. Silenced while asking."""
    try:
        from pyspark.logger import PySparkLogger
    except ImportError:  # Spark 3.5: no such log
        yield
        return
    logger = PySparkLogger.getLogger("DataFrameQueryContextLogger")
    was = logger.disabled
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = was


def plain_read(df: DataFrame) -> bool:
    """Whether `df` is a file read with at most columns chosen: every
    row of its files, once (not filtered, joined or unioned), so a
    row's place in its file is its record."""
    try:
        node = df._jdf.queryExecution().optimizedPlan()
    except AttributeError:  # Spark Connect: no plan to look at
        return False
    while node.nodeName() == "Project":
        node = node.child()
    return node.nodeName() == "LogicalRelation"


def display_name(path: str) -> str:
    """A file URI (`file:/x`, `file:///x`) as the CLI would print its path."""
    return "/" + path[len("file:") :].lstrip("/") if path.startswith("file:/") else path


@dataclass(frozen=True)
class Layout:
    """Inputs in order and how a task numbers its rows."""

    inputs: tuple[str, ...]
    """The inputs' display names, in input order."""
    first: dict | None
    """(path, block start, partition) -> (input index, records before it);
    None where the rows carry their record (`RECORD`)."""
    sizes: tuple[int, ...] | None = None
    """Each input's size in bytes as Spark's file system gives it (a
    remote file's too), from the counting pass; None without one."""

    def runs(self, batches):
        """(rows, input index, first record) of every run of consecutive
        records of one input in `batches` (a task's, in order)."""
        key_now = None
        for batch in batches:
            if self.first is None:
                yield from record_runs(batch)
                continue
            for key, off, n in split_runs(batch):
                if key != key_now:
                    key_now, done = key, 0
                input, before = self.first[key]
                yield batch.slice(off, n), input, before + done + 1
                done += n


def layout(df_placed: DataFrame, inputs: list[str] | None = None, files: bool = False) -> Layout:
    """Counts the rows of every split of `df_placed` (with `META`) and
    numbers them. Files are in the order of the `inputs` that name them
    (URIs as `_metadata` gives them: a file, a directory or a glob), files
    named by one input (or by none) in sorted order, as a shell sorts
    `part-*.parquet`. With `files` (`df_placed` has `_metadata`), the
    pass gives the files' sizes too."""
    # The files' sizes ride on the pass: Spark knows them for every file
    # system it reads, where the driver sees only local files.
    size = F.max("_metadata.file_size") if files else F.lit(0)
    counts = df_placed.groupBy(PATH, BLOCK, PART).agg(F.count(F.lit(1)).alias("count"), size.alias("size")).collect()
    given = [p.rstrip("/") for p in inputs or ()]

    def rank(path):
        hit = (i for i, p in enumerate(given) if path == p or path.startswith(p + "/") or fnmatch.fnmatchcase(path, p))
        return (next(hit, len(given)), path)

    paths = sorted({r[PATH] for r in counts}, key=rank)
    order = {p: i for i, p in enumerate(paths)}
    first, done = {}, 0
    for r in sorted(counts, key=lambda r: (order[r[PATH]], r[BLOCK], r[PART])):
        first[(r[PATH], r[BLOCK], r[PART])] = (order[r[PATH]], done)
        done += r["count"]
    names = tuple(display_name(p) for p in paths) or ("",)
    sizes = {r[PATH]: r["size"] or 0 for r in counts}
    return Layout(inputs=names, first=first, sizes=tuple(sizes[p] for p in paths) or (0,))


def record_runs(batch):
    """The runs of `batch` whose `RECORD`s follow each other: a task may
    read several splits of the file, in any order."""
    n = batch.num_rows
    if n == 0:
        return
    records = batch.column(RECORD).to_numpy()
    starts = [0, *(np.flatnonzero(np.diff(records) != 1) + 1).tolist(), n]
    for a, b in zip(starts, starts[1:]):
        yield batch.slice(a, b - a), 0, int(records[a])


def split_runs(batch):
    """The runs of consecutive rows of `batch` read from one split:
    (key, offset, length). A task reads each split whole and in order, so a
    batch whose first and last rows share a split is one run."""
    n = batch.num_rows
    if n == 0:
        return
    ends = [tuple(batch.column(c)[i].as_py() for c in META) for i in (0, n - 1)]
    if ends[0] == ends[1]:
        yield ends[0], 0, n
        return
    cols = [batch.column(n).to_pylist() for n in META]
    keys = list(zip(*cols))
    start = 0
    for i in range(1, len(keys) + 1):
        if i == len(keys) or keys[i] != keys[start]:
            yield keys[start], start, i - start
            start = i
