"""Parquet parts written by the tasks that parse the rows, and committed by
the driver: `hdlscan.spark.write`.

A scan's rows are Arrow batches in the Python worker already. Handing them
back to the JVM (Arrow to Spark's rows) for Spark's own Parquet writer
costs more than the parse (docs/spark.md); pyarrow writes them where they
are, and each task gives back one row: the file it wrote and its rows.

The commit, as Spark's own file commit does it: every task attempt writes
into a hidden staging directory beside the target (`.NAME.hdlscan-JOB`),
its file named by partition, attempt and job; the driver moves only the
files of the attempts whose rows it collected (one a partition: a failed
or speculative attempt's file is never committed) into the target, then
writes `_SUCCESS` and removes the staging directory. A job that fails
leaves no part of its output. The target and the staging directory must
be one filesystem every worker and the driver see (a local path on
`local[N]`; a shared mount, `s3://`, `gs://`, `hdfs://` on a cluster: the
filesystems pyarrow opens).
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
RESULT = "file string, rows long"


def filesystem(path: str):
    """The filesystem of `path` and the path within it; a path without a
    scheme is local, made absolute."""
    if "://" not in path and not path.startswith("file:"):
        path = os.path.abspath(path)
    return pafs.FileSystem.from_uri(path)


def write_parts(df, task, schema: pa.Schema, path, mode: str = "error") -> int:
    """Runs `task` (batches in, output batches of `schema` out) over `df`'s
    partitions, each task writing its batches as one Parquet file, and
    commits the files to the directory `path`; the rows written. `mode`:
    `error` (a `path` that exists is a `FileExistsError`) or `overwrite`."""
    if mode not in ("error", "overwrite"):
        raise ValueError(f"mode={mode!r}: give 'error' or 'overwrite'")
    path = os.fspath(path)
    fs, target = filesystem(path)
    if mode == "error" and fs.get_file_info(target).type != pafs.FileType.NotFound:
        raise FileExistsError(f"{path} exists (mode='overwrite' replaces it)")
    job = uuid.uuid4().hex[:12]
    parent, name = os.path.split(target.rstrip("/"))
    staging = f"{parent}/.{name}.hdlscan-{job}"
    fs.create_dir(staging)

    def writing(batches):
        from pyspark import TaskContext

        tc = TaskContext.get()
        file = f"part-{tc.partitionId():05d}-{job}-{tc.attemptNumber()}.parquet"
        task_fs, _ = filesystem(path)
        writer, rows = None, 0
        try:
            for b in task(batches):
                if writer is None:
                    sink = task_fs.open_output_stream(f"{staging}/{file}")
                    writer = pq.ParquetWriter(sink, schema, compression=COMPRESSION, compression_level=ZSTD_LEVEL)
                writer.write_batch(b)
                rows += b.num_rows
        finally:
            if writer is not None:
                writer.close()
                sink.close()
        yield pa.RecordBatch.from_pydict({"file": [file if writer else None], "rows": [rows]}, schema=pa.schema([("file", pa.string()), ("rows", pa.int64())]))

    try:
        done = df.mapInArrow(writing, RESULT).collect()
        files = sorted(r["file"] for r in done if r["file"] is not None)
        if mode == "overwrite" and fs.get_file_info(target).type != pafs.FileType.NotFound:
            if fs.get_file_info(target).type == pafs.FileType.Directory:
                fs.delete_dir(target)
            else:
                fs.delete_file(target)
        fs.create_dir(target)
        if not files:
            # No row: one empty file, so readers still find the columns.
            with fs.open_output_stream(f"{target}/part-00000-{job}.parquet") as sink:
                pq.ParquetWriter(sink, schema, compression=COMPRESSION).close()
        for f in files:
            fs.move(f"{staging}/{f}", f"{target}/{f.rsplit('-', 1)[0]}.parquet")
        with fs.open_output_stream(f"{target}/_SUCCESS"):
            pass
        return sum(r["rows"] for r in done)
    finally:
        fs.delete_dir(staging)
