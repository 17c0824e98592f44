"""Where each row of a DataFrame was read: its input and the CLI's record
number (1-based, counted across all inputs in their order, the header not
counted), so examples and clusters name the same records the CLI names.

A DataFrame read from files carries Spark's `_metadata`: a row's input is
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
from dataclasses import dataclass

from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

PATH = "__hdlscan_path"
BLOCK = "__hdlscan_block"
PART = "__hdlscan_part"
META = (PATH, BLOCK, PART)


def placed(df: DataFrame) -> DataFrame:
    """`df` with the three columns a row's place is read from."""
    try:
        out = df.withColumn(PATH, F.col("_metadata.file_path")).withColumn(
            BLOCK, F.col("_metadata.file_block_start").cast("long")
        )
        out.schema  # resolves the plan: a DataFrame without _metadata fails here
    except AnalysisException:
        out = df.withColumn(PATH, F.lit("")).withColumn(BLOCK, F.lit(0).cast("long"))
    return out.withColumn(PART, F.spark_partition_id())


def display_name(path: str) -> str:
    """A file URI as the CLI would print its path."""
    return path[len("file:") :] if path.startswith("file:/") else path


@dataclass(frozen=True)
class Layout:
    """Inputs in order and the first record of every split."""

    inputs: tuple[str, ...]
    """The inputs' display names, in input order."""
    first: dict
    """(path, block start, partition) -> (input index, records before it)."""
    records: int

    def place(self, key) -> tuple[int, int]:
        """The input index and records before the split `key`."""
        return self.first[key]


def layout(df_placed: DataFrame, inputs: list[str] | None = None) -> Layout:
    """Counts the rows of every split of `df_placed` (from `placed`) and
    numbers them. Files are in the order of the `inputs` that name them
    (URIs as `_metadata` gives them: a file, a directory or a glob), files
    named by one input (or by none) in sorted order, as a shell sorts
    `part-*.parquet`."""
    counts = df_placed.groupBy(PATH, BLOCK, PART).count().collect()
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
    return Layout(inputs=names, first=first, records=done)


def runs(batch):
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
