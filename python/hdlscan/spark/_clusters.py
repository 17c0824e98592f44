"""Duplicate clusters by `groupBy(canonical)`, never by collecting values to
the driver: the numbers of the report's `duplicates` section, its largest
clusters, and the rows of `--duplicates`.

A cluster is a canonical held by two records or more (a record is an input
and its record number; across inputs too). The same canonical twice inside
one record is the record being consistent (a DOI in `dc.identifier.uri`
and `dc.identifier.doi`): it is counted as `repeated_in_record` (its
values beyond the first, and the records holding such a repeat), never
as a cluster. A cluster's `count` is its values, every value of its
records included, as `--duplicates` lists them.

Order, as the CLI's: clusters by records (most first), then by their
first value; values by input, record, column and position in the cell.
Each member's `variant` against its cluster's first is the wheel's rule
(`hdlscan.variant`), from both values and their warnings.
"""

from __future__ import annotations

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql.types import StringType, StructField, StructType

from . import _scan

TOP = 20
TOP_MEMBERS = 10


def values(df: DataFrame, prefix: str) -> DataFrame:
    """The valid values of an internal scan (`_scan.enriched`, its added
    columns named with `prefix`), with their place: canonical, input,
    record, column, value_index, value, warnings."""
    canonical = _scan.col(prefix + "canonical")
    index = _scan.col(prefix + "value_index") if prefix + "value_index" in df.columns else F.lit(1).cast("long")
    return df.where(F.col(_scan.PARTIAL).isNull() & canonical.isNotNull()).select(
        canonical.alias("canonical"),
        F.col(_scan.INPUT).alias("input"),
        _scan.col(prefix + "record").alias("record"),
        F.col(_scan.COLUMN).alias("column"),
        index.cast("long").alias("value_index"),
        F.col(_scan.VALUE).cast("string").alias("value"),
        _scan.col(prefix + "warnings").alias("warnings"),
    )


AT = ("input", "record", "column", "value_index")


class Clusters:
    """The clusters of `vals` (from `values`), computed lazily."""

    def __init__(self, vals: DataFrame, options, columns, inputs):
        self.vals = vals
        self.repair = options.repair
        self.columns = list(columns)
        self.inputs = list(inputs)
        per_record = vals.groupBy("canonical", "input", "record").agg(
            F.count(F.lit(1)).alias("n"),
            F.min(F.struct("column", "value_index", "value", "warnings")).alias("at"),
            F.min("column").alias("cmin"),
            F.max("column").alias("cmax"),
        )
        self.per_record = per_record
        self.canon = per_record.groupBy("canonical").agg(
            F.count(F.lit(1)).alias("records"),
            F.sum("n").alias("count"),
            F.min(
                F.struct(
                    "input",
                    "record",
                    F.col("at.column").alias("column"),
                    F.col("at.value_index").alias("value_index"),
                    F.col("at.value").alias("value"),
                    F.col("at.warnings").alias("warnings"),
                )
            ).alias("first"),
            (F.min("input") != F.max("input")).alias("across_inputs"),
            (F.min("cmin") != F.max("cmax")).alias("across_columns"),
        )
        self.clusters = self.canon.where(F.col("records") >= 2)

    def summary(self, top=TOP, top_members=TOP_MEMBERS) -> dict:
        """The report's `duplicates` numbers and largest clusters, as
        `Report.set_clusters` takes them."""
        c = F.col("records") >= 2
        self.per_record.persist()
        t = self.canon.agg(
            F.count(F.lit(1)).alias("unique"),
            F.coalesce(F.sum("count"), F.lit(0)).alias("values"),
            F.count(F.when(c, 1)).alias("clusters"),
            F.coalesce(F.sum(F.when(c, F.col("count"))), F.lit(0)).alias("values_in_clusters"),
            F.coalesce(F.sum(F.when(c, F.col("records"))), F.lit(0)).alias("records_in_clusters"),
            F.count(F.when(c & F.col("across_inputs"), 1)).alias("across_inputs"),
            F.count(F.when(c & F.col("across_columns"), 1)).alias("across_columns"),
        ).first()
        r = self.per_record.where(F.col("n") >= 2).agg(
            # The values beyond each canonical's first in its record.
            F.coalesce(F.sum(F.col("n") - 1), F.lit(0)).alias("values"),
            F.countDistinct("input", "record").alias("records"),
        ).first()
        best = self.clusters.orderBy(F.desc("records"), F.asc("first")).limit(top).collect()
        self.per_record.unpersist()
        members = {}
        if best:
            names = self.vals.sparkSession.createDataFrame([(b["canonical"],) for b in best], "canonical string")
            w = Window.partitionBy("canonical").orderBy(*AT)
            for m in (
                self.vals.join(F.broadcast(names), "canonical")
                .withColumn("n", F.row_number().over(w))
                .where(F.col("n") <= top_members)
                .collect()
            ):
                members.setdefault(m["canonical"], []).append(m)
        return {
            "values": t["values"],
            "unique": t["unique"],
            "clusters": t["clusters"],
            "values_in_clusters": t["values_in_clusters"],
            "records_in_clusters": t["records_in_clusters"],
            "across_inputs": t["across_inputs"],
            "across_columns": t["across_columns"],
            "repeated_in_record": {"values": r["values"], "records": r["records"]},
            "top": self._top(best, members),
        }

    def _top(self, best, members) -> list:
        """The largest clusters with their first members, as
        `Report.set_clusters` takes them (values as read: the wheel cuts
        them as it cuts examples)."""
        out = []
        for b in best:
            f = b["first"]
            ms = sorted(members[b["canonical"]], key=lambda m: tuple(m[k] for k in AT))
            kinds = variants(self.repair, [m["value"] for m in ms], [m["warnings"] for m in ms], f["value"], f["warnings"])
            out.append(
                {
                    "canonical": b["canonical"],
                    "count": b["count"],
                    "records": b["records"],
                    "first": at(f),
                    "members": [{"at": at(m), "value": m["value"], "variant": k} for m, k in zip(ms, kinds)],
                }
            )
        return out

    def rows(self) -> DataFrame:
        """`--duplicates`: a row per member of every cluster, as the CLI
        writes them (`line` null)."""
        ranked = (
            self.clusters.orderBy(F.desc("records"), F.asc("first"))
            .rdd.zipWithIndex()
            .map(lambda p: (p[0]["canonical"], p[1] + 1, p[0]["records"], p[0]["count"], p[0]["first"]))
            .toDF(
                "canonical string, cluster long, records long, count long, "
                "first struct<input:int,record:long,column:int,value_index:long,value:string,warnings:array<string>>"
            )
        )
        name = lambda seq, i: F.element_at(F.array(*[F.lit(s) for s in seq]), F.col(i) + 1)  # noqa: E731
        joined = self.vals.join(ranked, "canonical").select(
            "cluster",
            "canonical",
            "records",
            "count",
            name(self.inputs, "input").alias("input"),
            "record",
            F.lit(None).cast("long").alias("line"),
            name(self.columns, "column").alias("source_column"),
            "value_index",
            "value",
            F.col("first.record").alias("first_record"),
            F.col("warnings").alias(MEMBER_WARNINGS),
            F.col("first.value").alias(FIRST_VALUE),
            F.col("first.warnings").alias(FIRST_WARNINGS),
            F.col("input").alias(INPUT_INDEX),
            F.col("column").alias(COLUMN_INDEX),
        )
        repair = self.repair

        def task(batches):
            import hdlscan
            import pyarrow as pa

            for b in batches:
                kind = hdlscan.variant(
                    b.column("value"), b.column(MEMBER_WARNINGS), b.column(FIRST_VALUE), b.column(FIRST_WARNINGS), repair=repair
                )
                yield pa.RecordBatch.from_arrays([*b.columns, kind], names=[*b.schema.names, "variant"])

        schema = StructType([*joined.schema.fields, StructField("variant", StringType())])
        return (
            joined.mapInArrow(task, schema)
            .orderBy("cluster", INPUT_INDEX, "record", COLUMN_INDEX, "value_index")
            .drop(*HIDDEN)
        )


# What the variant and the order need, dropped from `rows`.
HIDDEN = MEMBER_WARNINGS, FIRST_VALUE, FIRST_WARNINGS, INPUT_INDEX, COLUMN_INDEX = (
    "__hdlscan_warnings",
    "__hdlscan_first_value",
    "__hdlscan_first_warnings",
    "__hdlscan_input",
    "__hdlscan_column",
)


def at(r) -> dict:
    """A row's place, as the report's `first` and members hold it."""
    return {"input": r["input"], "record": r["record"], "line": None, "column": r["column"], "value_index": r["value_index"]}


def variants(repair: bool, values: list, warnings: list, first: str, first_warnings) -> list[str]:
    """How each of `values` (with their `warnings`) differs from its
    cluster's `first`: the wheel's rule."""
    import hdlscan
    import pyarrow as pa

    n = len(values)
    names = pa.list_(pa.string())
    return hdlscan.variant(
        pa.array(values, pa.string()),
        pa.array(warnings, names),
        pa.array([first] * n, pa.string()),
        pa.array([first_warnings] * n, names),
        repair=repair,
    ).to_pylist()
