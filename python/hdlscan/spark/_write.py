"""Parquet parts written by the tasks that parse the rows, and committed by
the driver: `hdlscan.spark.write` and `Job.write`.

A scan's rows are Arrow batches in the Python worker already. Handing them
back to the JVM (Arrow to Spark's rows) for Spark's own Parquet writer
costs more than the parse (docs/spark.md); pyarrow writes them where they
are, and each task gives back only what the driver needs: the file it
wrote and its rows (and, for a `Job`, what its report and clusters read).

The commit, as Spark's own file commit does it: every task attempt writes
into a hidden staging directory beside the target (`.NAME.hdlscan-JOB`),
its file named by partition, attempt and job; the driver moves only the
files of the attempts whose rows it collected (one a partition: a failed
or speculative attempt's file is never committed) into the target, then
writes `_SUCCESS` and removes the staging directory. A job that fails
leaves no part of its output. A task run again after the commit (a lost
cached partition recomputed) finds no staging directory and writes
nothing. The target and the staging directory must be one filesystem
every worker and the driver see (a local path on `local[N]`; a shared
mount, `s3://`, `gs://`, `hdfs://` on a cluster: the filesystems pyarrow
opens).
"""

from __future__ import annotations

import os
import uuid

import pyarrow as pa
import pyarrow.parquet as pq
from pyarrow import fs as pafs

# The CLI's Parquet: zstd at level 1 (`PARQUET_ZSTD_LEVEL`).
COMPRESSION = "zstd"
ZSTD_LEVEL = 1
FILE = "__hdlscan_file"
ROWS = "__hdlscan_rows"
# What a writing task gives back: the file it wrote and its rows.
RESULT = pa.schema([(FILE, pa.string()), (ROWS, pa.int64())])


def filesystem(path: str):
    """The filesystem of `path` and the path within it; a path without a
    scheme is local, made absolute."""
    if "://" not in path and not path.startswith("file:"):
        path = os.path.abspath(path)
    return pafs.FileSystem.from_uri(path)


class Parts:
    """One write of Parquet parts to the directory `path`: its staging
    directory, the task that writes, and the commit. `mode`: `error` (a
    `path` that exists is a `FileExistsError`) or `overwrite`."""

    def __init__(self, path, mode: str = "error"):
        if mode not in ("error", "overwrite"):
            raise ValueError(f"mode={mode!r}: give 'error' or 'overwrite'")
        self.path = os.fspath(path)
        self.mode = mode
        self.fs, self.target = filesystem(self.path)
        if mode == "error" and self.fs.get_file_info(self.target).type != pafs.FileType.NotFound:
            raise FileExistsError(f"{self.path} exists (mode='overwrite' replaces it)")
        self.job = uuid.uuid4().hex[:12]
        parent, name = os.path.split(self.target.rstrip("/"))
        self.staging = f"{parent}/.{name}.hdlscan-{self.job}"
        self.fs.create_dir(self.staging)

    def task(self, task, schema: pa.Schema, result: pa.Schema, split=None):
        """A task running `task` (batches in, output batches out) and
        writing its output of `schema` as one Parquet file; it yields
        `result` batches (`RESULT`'s columns last): what `split` keeps of
        each output batch (`split` gives the batch to write and the rows
        to keep, either `None`; without it every batch is written, nothing
        kept), then one row naming the file (`FILE`, `ROWS`; its other
        columns null)."""
        path, staging, job = self.path, self.staging, self.job
        kept_schema = pa.schema([f for f in result if f.name not in RESULT.names])

        def writing(batches):
            from pyspark import TaskContext

            tc = TaskContext.get()
            file = f"part-{tc.partitionId():05d}-{job}-{tc.attemptNumber()}.parquet"
            fs, _ = filesystem(path)
            live = fs.get_file_info(staging).type == pafs.FileType.Directory
            writer, sink, rows = None, None, 0
            try:
                for b in task(batches):
                    out, kept = split(b) if split else (b, None)
                    if out is not None and out.num_rows and live:
                        if writer is None:
                            sink = fs.open_output_stream(f"{staging}/{file}")
                            writer = pq.ParquetWriter(sink, schema, compression=COMPRESSION, compression_level=ZSTD_LEVEL)
                        writer.write_batch(out)
                        rows += out.num_rows
                    if kept is not None and kept.num_rows:
                        cols = [kept.column(f.name) for f in kept_schema]
                        cols += [pa.nulls(kept.num_rows, f.type) for f in RESULT]
                        yield pa.RecordBatch.from_arrays(cols, schema=result)
            finally:
                if writer is not None:
                    writer.close()
                    sink.close()
            if live:
                cols = [pa.nulls(1, f.type) for f in kept_schema]
                name = pa.array([file if writer else None], pa.string())
                yield pa.RecordBatch.from_arrays(cols + [name, pa.array([rows], pa.int64())], schema=result)

        return writing

    def commit(self, done: list, schema: pa.Schema) -> int:
        """Moves the files of `done` (the collected `FILE`, `ROWS` rows)
        into the target, `_SUCCESS` last; the rows written. An empty
        output is one file without rows, so readers still find the
        columns."""
        fs, target = self.fs, self.target
        try:
            files = sorted(r[FILE] for r in done if r[FILE] is not None)
            if self.mode == "overwrite":
                kind = fs.get_file_info(target).type
                if kind == pafs.FileType.Directory:
                    fs.delete_dir(target)
                elif kind != pafs.FileType.NotFound:
                    fs.delete_file(target)
            fs.create_dir(target)
            if not files:
                with fs.open_output_stream(f"{target}/part-00000-{self.job}.parquet") as sink:
                    pq.ParquetWriter(sink, schema, compression=COMPRESSION).close()
            for f in files:
                fs.move(f"{self.staging}/{f}", f"{target}/{f.rsplit('-', 1)[0]}.parquet")
            with fs.open_output_stream(f"{target}/_SUCCESS"):
                pass
            return sum(r[ROWS] for r in done if r[ROWS] is not None)
        finally:
            self.abort()

    def abort(self):
        """Removes the staging directory and whatever it holds."""
        if self.fs.get_file_info(self.staging).type != pafs.FileType.NotFound:
            self.fs.delete_dir(self.staging)


def write_parts(df, task, schema: pa.Schema, path, mode: str = "error") -> int:
    """Runs `task` (batches in, output batches of `schema` out) over `df`'s
    partitions, each task writing its batches as one Parquet file, and
    commits the files to the directory `path`; the rows written."""
    from pyspark.sql.pandas.types import from_arrow_schema

    parts = Parts(path, mode)
    try:
        done = df.mapInArrow(parts.task(task, schema, RESULT), from_arrow_schema(RESULT)).collect()
    except BaseException:
        parts.abort()
        raise
    return parts.commit(done, schema)
