"""One Spark job of `scripts/bench --spark`, timed inside its session (the
JVM's start-up is not the job's): hdlscan's scan by mapInArrow written by
Spark (`hdlscan`: `scan(df).write.parquet`), the same scan written by the
tasks themselves (`write`: `hdlscan.spark.write`), or Spark SQL doing
bench_duckdb.sql's classification with regular expressions (`sql`).

    python3 scripts/bench_spark.py hdlscan|write|sql IN.parquet OUT.parquet [CORES]
    python3 scripts/bench_spark.py warm IN.parquet OUTDIR [CORES] [ROUNDS]

Prints `seconds=S rows=N` on stdout: the job's wall time (read, classify,
write zstd Parquet at level 1, the CLI's, for all three) and the rows
written.

`warm` runs the three jobs in ONE session, alternated for ROUNDS rounds
(default 5), the steady state of a long job: the Python workers started,
the JVM's code compiled. It prints a line a job and round, `tool round
seconds cpu` (cpu: user+system seconds of the driver, the JVM and the
Python workers), then the medians with the first round dropped and the
ratios SQL / each hdlscan job round by round.

Both jobs run with `spark.sql.execution.arrow.maxRecordsPerBatch` at
65,536 rows (Spark's default is 10,000): it sizes the batches mapInArrow
hands to hdlscan in Python (fewer round trips), and the SQL statement,
which uses no Arrow, does not read it.
"""

import os
import statistics
import sys
import time

from pyspark.sql import SparkSession

# bench_duckdb.sql's statement in Spark's dialect: rlike for
# regexp_matches, one regexp_extract a group, try_url_decode for
# url_decode (a bad escape is null, not an error), the columns listed for
# EXCLUDE, raw literals for the patterns.
SQL = r"""
WITH src AS (
  SELECT *, trim(identifier) AS v FROM input
),
forms AS (
  SELECT *,
    CASE
      WHEN v RLIKE r'(?i)^https?://(((dx\.|www\.)?doi\.org|hdl\.handle\.net)/|[^/]+/(hdl|handle)/)' THEN 'resolver_url'
      WHEN v RLIKE r'(?i)^(doi:\s*|urn:doi:)' THEN 'doi'
      WHEN v RLIKE r'(?i)^hdl:' THEN 'hdl_uri'
      WHEN v RLIKE r'(?i)^info:' THEN 'info_uri'
      WHEN v RLIKE r'^[0-9]' THEN 'bare'
    END AS form,
    regexp_extract(v, r'(?i)^(?:https?://(?:[^/]+/(?:hdl|handle)/|(?:(?:dx\.|www\.)?doi\.org|hdl\.handle\.net)/)|doi:\s*|urn:doi:|hdl:(?://)?|info:(?:doi|hdl)/)?([^/]+)/(.+)$', 1) AS ps_prefix,
    regexp_extract(v, r'(?i)^(?:https?://(?:[^/]+/(?:hdl|handle)/|(?:(?:dx\.|www\.)?doi\.org|hdl\.handle\.net)/)|doi:\s*|urn:doi:|hdl:(?://)?|info:(?:doi|hdl)/)?([^/]+)/(.+)$', 2) AS ps_suffix,
    lower(regexp_extract(v, r'^info:([A-Za-z][A-Za-z0-9+.-]*)/.', 1)) AS info_ns
  FROM src
),
parts AS (
  SELECT *,
    CASE WHEN form IN ('resolver_url', 'hdl_uri', 'info_uri') THEN try_url_decode(ps_prefix) ELSE ps_prefix END AS p,
    CASE WHEN form IN ('resolver_url', 'hdl_uri', 'info_uri') THEN try_url_decode(ps_suffix) ELSE ps_suffix END AS s
  FROM forms
),
classified AS (
  SELECT *,
    CASE
      WHEN form = 'info_uri' AND info_ns NOT IN ('', 'doi', 'hdl') THEN info_ns
      WHEN form IS NULL OR s = '' THEN NULL
      WHEN p RLIKE r'^10(\.[0-9]+)*$' THEN 'doi'
      WHEN form = 'doi' THEN NULL
      WHEN p RLIKE r'^[0-9]+(\.[^.]+)*$' THEN 'hdl'
      WHEN form IN ('hdl_uri', 'info_uri') AND p RLIKE r'^[^.]+(\.[^.]+)*$' THEN 'hdl'
    END AS namespace
  FROM parts
)
SELECT record_id, identifier, title, date_issued, type, collection,
  CASE
    WHEN namespace IS NULL THEN 'invalid'
    WHEN form = 'bare' AND namespace = 'doi' THEN 'doi'
    WHEN form = 'bare' THEN 'handle'
    ELSE form
  END AS kind,
  namespace,
  CASE WHEN namespace IN ('doi', 'hdl') THEN p END AS prefix,
  CASE WHEN namespace IN ('doi', 'hdl') THEN s END AS suffix,
  CASE
    WHEN namespace = 'doi' THEN lower(p || '/' || s)
    WHEN namespace = 'hdl' THEN p || '/' || s
    WHEN namespace IS NOT NULL THEN 'info:' || namespace || '/' || regexp_extract(v, r'^info:[^/]+/([^#]*)', 1)
  END AS canonical,
  CASE
    WHEN namespace = 'doi' THEN 'https://doi.org/' || p || '/' || s
    WHEN namespace = 'hdl' THEN 'https://hdl.handle.net/' || p || '/' || s
  END AS url,
  CASE WHEN namespace IS NULL THEN 'invalid' END AS error
FROM classified
"""


def session(tool, cores):
    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName(f"bench-{tool}")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.parquet.compression.codec", "zstd")
        .config("spark.hadoop.parquet.compression.codec.zstd.level", "1")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "65536")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def job(spark, tool, src, out):
    """Runs `tool`'s job: `src` read, classified, written to `out`."""
    df = spark.read.parquet(src)
    if tool == "hdlscan":
        from hdlscan.spark import scan

        return scan(df, "identifier").write.mode("overwrite").parquet(out)
    if tool == "write":
        from hdlscan.spark import write

        return write(df, "identifier", out, mode="overwrite")
    if tool == "sql":
        df.createOrReplaceTempView("input")
        return spark.sql(SQL).write.mode("overwrite").parquet(out)
    sys.exit(f"bench_spark: no tool {tool!r} (hdlscan, write, sql or warm)")


def tree_cpu():
    """User+system seconds of this process and every process below it
    (the JVM, the Python workers), from /proc."""
    children, ticks = {}, {}
    for p in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{p}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        children.setdefault(int(fields[1]), []).append(int(p))
        ticks[int(p)] = int(fields[11]) + int(fields[12])
    total, todo = 0, [os.getpid()]
    while todo:
        p = todo.pop()
        total += ticks.get(p, 0)
        todo += children.get(p, [])
    return total / os.sysconf("SC_CLK_TCK")


def warm(src, outdir, cores, rounds):
    spark = session("warm", cores)
    runs = {"hdlscan": [], "write": [], "sql": []}
    for r in range(rounds):
        for tool in runs:
            cpu, started = tree_cpu(), time.perf_counter()
            job(spark, tool, src, os.path.join(outdir, tool))
            runs[tool].append((time.perf_counter() - started, tree_cpu() - cpu))
            print(tool, r + 1, f"{runs[tool][-1][0]:.3f}", f"{runs[tool][-1][1]:.2f}", flush=True)
    spark.stop()
    for i, what in ((0, "seconds"), (1, "cpu")):
        q = [x[i] for x in runs["sql"][1:]]
        for tool in ("hdlscan", "write"):
            h = [x[i] for x in runs[tool][1:]]
            ratios = ", ".join(f"{b / a:.2f}" for a, b in zip(h, q))
            print(f"median {what}: {tool} {statistics.median(h):.2f}, sql {statistics.median(q):.2f}; sql/{tool} by round: {ratios}")


def main():
    tool, src, out = sys.argv[1:4]
    cores = sys.argv[4] if len(sys.argv) > 4 else "2"
    if tool == "warm":
        return warm(src, out, cores, int(sys.argv[5]) if len(sys.argv) > 5 else 5)
    spark = session(tool, cores)
    started = time.perf_counter()
    job(spark, tool, src, out)
    seconds = time.perf_counter() - started
    rows = spark.read.parquet(out).count()
    print(f"seconds={seconds:.3f} rows={rows}")
    spark.stop()


if __name__ == "__main__":
    main()
