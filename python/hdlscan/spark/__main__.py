"""`python -m hdlscan.spark`: `hdlscan scan` as a Spark job, with the CLI's
options and exit statuses where a cluster gives them a meaning (docs/spark.md).

Arguments become a `Job` (`hdlscan.spark`); the job writes the enriched
rows, the duplicates and the reports, then the gates give the status.
"""

from __future__ import annotations

import argparse
import enum
import os
import re
import sys
import time

EXAMPLES = """\
examples:
  # The sample export on two local cores: the CLI's report, as JSON
  python -m hdlscan.spark export.csv -c dc.identifier.uri --master 'local[2]' --report audit.json

  # On a cluster: spark-submit takes the module's file
  spark-submit "$(python3 -c 'import hdlscan.spark.__main__ as m; print(m.__file__)')" \\
      s3://bucket/works/ -c doi -c pmcid --long \\
      -o s3://bucket/out/values.parquet --duplicates s3://bucket/out/dups.parquet \\
      --report audit.json --fail-if 'invalid>1%'

Inputs are read by Spark (paths, directories, globs; s3://, gs://, abfss://
...); records are numbered as the CLI numbers them: inputs in the order
given (a directory's files in sorted order), rows in file order. -o and
--duplicates write directories of parts (-o's Parquet parts by the tasks
that parse the rows, CSV and --duplicates by Spark); --report writes one
file on the driver.

exit status: 0 success, 1 error (bad input, I/O, a failed job), 2 usage
error, 3 a --fail-if gate held.
"""


class Exit(enum.IntEnum):
    """The CLI's exit statuses."""

    OK = 0
    ERROR = 1
    USAGE = 2
    GATE = 3


class _Parser(argparse.ArgumentParser):
    """The command's parser: its missing-INPUT error says when --split's
    optional SEP took the only input (`-c doi --split export.csv`), as the
    CLI's does."""

    argv: list = []

    def error(self, message):
        if "INPUT" in message:
            took = next((b for a, b in zip(self.argv, self.argv[1:]) if a == "--split" and os.path.isfile(b)), None)
            if took is not None:
                message += (
                    f"\ntip: --split took '{took}' as its separator (SEP is optional): give the input before"
                    " --split, or SEP after it (--split auto, --split '||')"
                )
        super().error(message)


def arguments(argv):
    p = _Parser(
        prog="python -m hdlscan.spark",
        description="Scan identifier columns of files with Spark: classify, normalize, report (hdlscan scan's columns and report).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="files, directories or globs Spark reads (.csv, .tsv, .parquet, .jsonl/.json; .gz too)")
    p.add_argument("-c", "--column", action="append", required=True, help="an identifier column, repeatable: a name, a 1-based number, a pattern with * and ?, or a path into structs and lists (ids.doi, 'locations[].landing_page_url'), as hdlscan scan reads them")
    p.add_argument("-o", "--output", help="write the input enriched with SPEC's columns here (.parquet or .csv, a directory of parts, replacing a job's earlier output); without it the run is an audit")
    p.add_argument("--report", action="append", default=[], help="write the report here (.json, .md, .html by the extension; - for stdout), repeatable")
    p.add_argument("--report-format", choices=("json", "md", "html"), help="the format of --report - and of other extensions")
    p.add_argument("--duplicates", help="write the duplicate clusters' members here (.parquet or .csv directory)")
    p.add_argument("--fail-if", action="append", default=[], metavar="EXPR", help="exit 3 (after writing) when EXPR holds, e.g. 'invalid>1%%' or 'dc.identifier.*:invalid>0' (COLUMN: selects as -c does); repeatable")
    p.add_argument("--warn-if", action="append", default=[], metavar="EXPR", help="print a warning when EXPR holds; repeatable")
    p.add_argument("--master", help="Spark master URL (local[2], yarn, spark://HOST:7077); default: spark-submit's")
    p.add_argument("--split", nargs="?", const="auto", help="split cells into values at SEP (or SPEC's separators with no SEP); output becomes long")
    p.add_argument("--keep", action="append", default=[], help="an input column to carry into long output, repeatable")
    p.add_argument("--long", action="store_true", help="long output (a row per value) even for one column not split")
    p.add_argument("--column-prefix", help="prefix for the added column names")
    p.add_argument("--input-format", choices=("csv", "tsv", "parquet", "jsonl"), help="input format, overriding the extensions")
    p.add_argument("-d", "--delimiter", help="field delimiter of CSV input (default , ; tab for .tsv)")
    p.add_argument("-n", "--no-headers", action="store_true", help="the first CSV line is data; columns are named column_1, column_2, ...")
    p.add_argument("--no-quoting", action="store_true", help='every " of CSV input is a plain character (files written without quoting, IANA TSV)')
    p.add_argument("--repair", action="store_true", help="apply SPEC's repairs (as hdlscan scan --repair)")
    p.add_argument("--expect", action="append", default=[], metavar="NS|COLUMN=NS", help="the namespace values should have, repeatable")
    p.add_argument("--resolver", action="append", default=[], metavar="HOST[/PATH]", help="also accept resolver URLs on this host, repeatable")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary on stderr")
    p.argv = list(sys.argv[1:] if argv is None else argv)
    return p.parse_args(argv)


def input_format(args) -> str:
    """The first input's format by its extension, looking through `.gz`
    and `.zst` as the CLI does (`works.jsonl.gz` is JSON Lines); CSV for
    any other name."""
    if args.input_format:
        return args.input_format
    first = args.inputs[0].rstrip("/").lower()
    first = first.removesuffix(".gz") if first.endswith(".gz") else first.removesuffix(".zst")
    exts = {"parquet": "parquet", "pq": "parquet", "tsv": "tsv", "tab": "tsv", "jsonl": "jsonl", "ndjson": "jsonl", "json": "jsonl"}
    return exts.get(first.rsplit(".", 1)[-1], "csv") if "." in first else "csv"


def uri(path: str) -> str:
    """A path as Spark's `_metadata.file_path` spells it."""
    if "://" in path or path.startswith("file:"):
        return path
    return "file:" + os.path.abspath(path)


class BadInput(Exception):
    """Input that is not what its format says: the CLI's exit status 1."""


# Where Spark's JSON reader puts a line it cannot read as an object.
CORRUPT = "_corrupt_record"


def read(spark, args):
    fmt = input_format(args)
    paths = args.inputs
    if fmt == "parquet":
        return spark.read.parquet(*paths)
    if fmt == "jsonl":
        # Spark's default (PERMISSIVE) makes a line that is not JSON a row
        # of nulls, counted as empty values where the CLI stops naming the
        # line; FAILFAST would fail in schema inference without naming
        # the file. The column only exists when such a line does.
        # `primitivesAsString`: a number is its text as written (`1.50`,
        # `1e5`), a boolean `true`, as the CLI reads them, not a double.
        df = spark.read.json(paths, mode="PERMISSIVE", columnNameOfCorruptRecord=CORRUPT, primitivesAsString=True)
        if CORRUPT in df.columns:
            corrupt(df, paths)
        schema = objects_as_text(df.schema, args.column + args.keep)
        return df if schema == df.schema else spark.read.schema(schema).json(paths, mode="PERMISSIVE")
    # Spark turns quoting off with an empty quote character. FAILFAST: a
    # record with more or fewer fields than the header is an error, as it
    # is for the CLI, not a row padded with nulls or cut short.
    def csv(sep):
        return spark.read.csv(
            paths,
            header=not args.no_headers,
            multiLine=True,
            escape='"',
            quote="" if args.no_quoting else '"',
            sep=sep,
            mode="FAILFAST",
        )

    df = csv(args.delimiter or ("\t" if fmt == "tsv" else ","))
    if fmt == "csv" and not args.delimiter and not args.no_headers and len(df.columns) == 1:
        # The CLI's sniffing (docs/usage.md, "The delimiter is sniffed"):
        # a header of one column that splits on `;`, a tab or `|` (an
        # OpenAPC file) is read with the one giving the most fields; the
        # report's options say which.
        fields, sep = max((len(df.columns[0].split(d)), d) for d in (";", "\t", "|"))
        if fields > 1:
            args.delimiter = sep
            df = csv(sep)
    if fmt == "csv" and not args.input_format and df.columns and df.columns[0].lstrip().startswith("{"):
        # OpenAlex's snapshot names its JSON Lines `part_000.gz`: the CLI
        # sees the object and says what to do, where Spark would take the
        # first record for a header.
        raise BadInput(f"{', '.join(paths)}: this is JSON Lines, not CSV: read it with --input-format jsonl (or name it .jsonl)")
    if args.no_headers:
        df = df.toDF(*[f"column_{i + 1}" for i in range(len(df.columns))])
    # Spark reads an empty field as null whatever its options say; every
    # column is a string and FAILFAST refuses short records, so a null is
    # an empty field, "" as the CLI reads it: the output's input and kept
    # columns are then the CLI's.
    return df.na.fill("")


def objects_as_text(schema, selectors):
    """`schema` with the objects and lists that `selectors` (paths, or
    names) end on read as strings: Spark's JSON reader then gives their
    text as the line holds it, where the CLI reads an object at the end of
    a path as its JSON. Through `[]` the elements' field is changed; one
    another selector goes into is left as it is."""
    from pyspark.sql.types import ArrayType, MapType, StringType, StructField, StructType

    from ._scan import split_key

    def text(dtype, steps):
        if not steps:
            return StringType() if isinstance(dtype, (StructType, ArrayType, MapType)) else dtype
        step, rest = steps[0], steps[1:]
        if step == "[]":
            return ArrayType(text(dtype.elementType, rest), dtype.containsNull) if isinstance(dtype, ArrayType) else text(dtype, rest)
        if not isinstance(dtype, StructType) or step not in dtype.names:
            return dtype
        return StructType([StructField(f.name, text(f.dataType, rest), f.nullable) if f.name == step else f for f in dtype.fields])

    paths = [[sel] if sel in schema.names else [k for part in sel.split(".") for k in split_key(part)] for sel in selectors]
    for sel, steps in zip(selectors, paths):
        if steps[0] not in schema.names or any(c in sel for c in "*?"):
            continue
        # Read as text, an object's fields could not be reached by another
        # path (`-c ids --keep ids.doi`): it stays a struct.
        if any(len(p) > len(steps) and p[: len(steps)] == steps for p in paths):
            continue
        schema = text(StructType(schema.fields), steps)
    return StructType([f for f in schema.fields if f.name != CORRUPT])


def corrupt(df, paths):
    """Raises `BadInput` naming the file and the first line of `df` (JSON
    read with `CORRUPT`, from `paths`) that is not a JSON object, and how
    many such."""
    from pyspark.sql import functions as F

    if df.columns == [CORRUPT]:
        # Spark refuses any query of that column alone, cached or not.
        raise BadInput(f"{', '.join(paths)}: no line is a JSON object: {DOCUMENT}")

    # Spark refuses a query of the corrupt column alone from the files:
    # every column is read and cached first (on the error path only).
    rows = df.select("*", F.col("_metadata.file_path").alias("__file"), F.monotonically_increasing_id().alias("__at")).cache()
    try:
        bad = rows.where(F.col(CORRUPT).isNotNull())
        n = bad.count()
        first = bad.orderBy("__file", "__at").select("__file", CORRUPT).first()
    finally:
        rows.unpersist()
    file, line = first
    text = line if len(line) <= 200 else line[:200] + "..."
    more = f" (and {n - 1} more)" if n > 1 else ""
    hint = f"; {DOCUMENT}" if line.strip() in ("{", "[") else ""
    raise BadInput(f"{file}: a line is not a JSON object{more}: {text!r}{hint}")


# What a JSON document over several lines needs, which Spark would read
# as lines that are not objects.
DOCUMENT = (
    "hdlscan.spark reads JSON Lines, a record a line; a document over several lines "
    "(Crossref's {\"items\": [...]}) is read by the CLI's --records, or write it a record a line (jq -c)"
)


def error_text(e: BaseException) -> str:
    """What went wrong, from an exception a Spark job raised: for the JVM's
    (Py4J), the first and the deepest of the messages in its trace
    (`Encountered error while reading file F`, `Malformed CSV record:
    ...`), not `An error occurred while calling o39.collectToPython`."""
    lines = str(e).strip().splitlines()
    found = []
    for line in lines:
        m = re.match(r"^(?:Caused by: |: )?(?:[\w$]+\.)*[\w$]*(?:Exception|Error): (.+)$", line.strip())
        if m:
            found.append(m.group(1))
    if not found:
        found = lines[:1] or [type(e).__name__]
    clean = []
    for m in found:
        m = re.sub(r"\s*SQLSTATE: \w+\s*$", "", re.sub(r"^\[[A-Z_.]+\]\s*", "", m)).rstrip()
        if m and m not in clean:
            clean.append(m)
    return clean[0] if len(clean) == 1 else f"{clean[0].rstrip('.')}: {clean[-1]}"


def write(df, target: str):
    if target.lower().rstrip("/").endswith((".csv", ".tsv")):
        from pyspark.sql import functions as F

        arrays = [f.name for f in df.schema.fields if f.dataType.typeName() == "array"]
        for a in arrays:
            df = df.withColumn(a, F.concat_ws(";", F.col(f"`{a}`")))
        sep = "\t" if target.lower().rstrip("/").endswith(".tsv") else ","
        # Spark's CSV writer trims every field by default, which would
        # write '  10.1000/182  ' back as '10.1000/182' beside its
        # `trimmed` warning, and quotes an empty string (""): the CLI
        # writes fields as they are and an empty one empty.
        df.write.mode("overwrite").csv(
            target, header=True, sep=sep, escape='"', ignoreLeadingWhiteSpace=False, ignoreTrailingWhiteSpace=False, emptyValue=""
        )
    else:
        df.write.mode("overwrite").parquet(target)


def report_text(report, target: str, fmt: str | None) -> str:
    ext = target.rsplit(".", 1)[-1].lower() if target != "-" else None
    kind = {"json": "json", "md": "md", "html": "html", "htm": "html"}.get(ext) or fmt or "json"
    return {"json": report.to_json, "md": report.to_markdown, "html": report.to_html}[kind]()


def describe(report, job, args):
    """The report's `run` as the CLI's says it: the inputs' format and
    size (as Spark's counting pass found it, any file system's, or a
    local file's; 0 for one Spark decompressed, whose size the CLI gives
    decompressed), the output, its shape and prefix, and the CSV reader's
    options where given."""
    fmt = input_format(args)
    sizes = []
    known = job.plan.layout.sizes or [None] * len(report.inputs)
    for path, size in zip(report.inputs, known):
        local = path.startswith("/") and os.path.isfile(path)
        packed = path.lower().endswith((".gz", ".bz2", ".zst", ".xz", ".lz4", ".snappy", ".deflate"))
        size = size if size is not None else os.path.getsize(path) if local else 0
        sizes.append(0 if packed else size)
    options = {"keep": list(job.plan.keep)}
    if fmt in ("csv", "tsv"):
        if args.delimiter:
            options["delimiter"] = args.delimiter
        if args.no_quoting:
            options["no_quoting"] = True
    report.set_run(
        output=args.output,
        long=not job.plan.wide,
        column_prefix=job.plan.prefix,
        formats=[fmt] * len(report.inputs),
        bytes=sizes,
        options=options,
        duplicates=args.duplicates,
    )


def replaceable(flag: str, target: str, inputs) -> str | None:
    """Why `target` (`-o` or `--duplicates`) must not be written over, or
    None: it is an input (the CLI's usage error), or a directory holding
    files no job wrote (`-o ~/data` would delete them: Spark's overwrite
    removes the whole directory). A job's output (`part-*`, `_SUCCESS`,
    hidden files) is replaced, as the CLI replaces its output file."""
    from pyarrow import fs as pafs

    from hdlscan.spark import _write

    if uri(target).rstrip("/") in {uri(p).rstrip("/") for p in inputs}:
        return f"{flag} {target} is also an input"
    try:
        fs, path = _write.filesystem(target)
        if fs.get_file_info(path).type != pafs.FileType.Directory:
            return None
        names = [f.base_name for f in fs.get_file_info(pafs.FileSelector(path))]
    except OSError:
        return None  # unreachable from here: Spark says why when it writes
    others = sorted(n for n in names if not n.startswith(("part-", "_", ".")))
    if others:
        shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
        return f"{flag} {target}: a directory holding files no job wrote ({shown}), which writing would delete: give another path"
    return None


def runs_here(master: str | None, environ) -> bool:
    """Whether the job's Python workers run on this machine, where this
    interpreter is, and nobody chose theirs: a local master (given, or
    pyspark's own default when spark-submit did not start us) and no
    `PYSPARK_PYTHON`."""
    if environ.get("PYSPARK_PYTHON"):
        return False
    if master is None:
        return "PYSPARK_GATEWAY_PORT" not in environ
    return master.startswith("local")


def run(args) -> Exit:
    from pyspark.sql import SparkSession

    from hdlscan.spark import Job

    started = time.monotonic()
    # The reports are written on the driver once the job is done, which
    # may be hours later: a directory that is not there fails now, as the
    # CLI checks its outputs before reading.
    for target in args.report:
        if target == "-":
            continue
        where = os.path.dirname(os.path.abspath(target))
        why = "no such directory" if not os.path.isdir(where) else None if os.access(where, os.W_OK) else "not writable"
        if why:
            print(f"hdlscan.spark: --report {target}: cannot create output in {where}: {why}", file=sys.stderr)
            return Exit.ERROR
    for flag, target in (("-o", args.output), ("--duplicates", args.duplicates)):
        why = replaceable(flag, target, args.inputs) if target else None
        if why:
            print(f"hdlscan.spark: {why}", file=sys.stderr)
            return Exit.USAGE
    seen = {}
    for p in args.inputs:
        u = uri(p).rstrip("/")
        if u in seen:
            print(f"hdlscan.spark: {p} is given twice (as {seen[u]} too): every record would count twice", file=sys.stderr)
            return Exit.USAGE
        seen[u] = p
    builder = SparkSession.builder.appName("hdlscan")
    if args.master:
        builder = builder.master(args.master)
    if args.quiet:
        # As the CLI's -q: Spark's stage bars are its progress bar.
        builder = builder.config("spark.ui.showConsoleProgress", "false")
    if runs_here(args.master, os.environ):
        # pyspark's workers run `python3` from PATH unless told: from a
        # virtual environment not activated, another Python, without
        # this hdlscan or pyarrow ("No module named 'pyarrow'").
        os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    if not sc.getConf().contains("spark.sql.shuffle.partitions"):
        # Spark's default (200) is a cluster's: on a few cores the
        # clusters' shuffles ran six times slower with it (docs/spark.md,
        # "Memory and batch size"). One the user set is kept.
        spark.conf.set("spark.sql.shuffle.partitions", str(max(2 * sc.defaultParallelism, 2)))
    df = read(spark, args)
    try:
        job = Job(
            df,
            args.column,
            args.keep,
            repair=args.repair,
            expect=args.expect,
            resolvers=args.resolver,
            split=args.split,
            # The CLI's JSON output is always long: `source_column` names
            # the path each value came from.
            long=args.long or input_format(args) == "jsonl",
            column_prefix=args.column_prefix,
            inputs=[uri(p) for p in args.inputs],
        )
    except ValueError as e:
        print(f"hdlscan.spark: {e}", file=sys.stderr)
        return Exit.USAGE
    import hdlscan

    # Judged on an empty report of the chosen columns, before any work: a
    # gate naming a column (`COLUMN:METRIC`) needs them.
    for g, warn in [(g, False) for g in args.fail_if] + [(g, True) for g in args.warn_if]:
        try:
            hdlscan.Report(job.plan.columns).check(g, warn=warn)
        except ValueError as e:
            print(f"hdlscan.spark: {g}: {e}", file=sys.stderr)
            job.close()
            return Exit.USAGE
    if args.output and not args.output.lower().rstrip("/").endswith((".csv", ".tsv")):
        # Parquet: written by the pass that parses (Job.write).
        job.write(args.output, mode="overwrite")
    elif args.output:
        write(job.output(), args.output)
    report = job.report()
    if args.duplicates:
        write(job.duplicates(), args.duplicates)
    failed = [g for g in args.fail_if if report.check(g)]
    for g in args.warn_if:
        if report.check(g, warn=True):
            print(f"hdlscan.spark: warning: {g} holds", file=sys.stderr)
    describe(report, job, args)
    report.set_elapsed(time.monotonic() - started)
    for target in args.report:
        text = report_text(report, target, args.report_format)
        if target == "-":
            sys.stdout.write(text)
        else:
            with open(target, "w", encoding="utf-8") as f:
                f.write(text)
    if not args.quiet:
        print(report.summary(), file=sys.stderr)
    for g in failed:
        print(f"hdlscan.spark: gate failed: {g}", file=sys.stderr)
    job.close()
    return Exit.GATE if failed else Exit.OK


def main(argv=None) -> int:
    args = arguments(argv)
    try:
        return int(run(args))
    except Exception as e:  # a failed job, an unreadable input, I/O
        print(f"hdlscan.spark: error: {error_text(e)}", file=sys.stderr)
        return int(Exit.ERROR)


if __name__ == "__main__":
    sys.exit(main())
