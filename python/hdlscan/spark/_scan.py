"""The scan inside Spark: a `mapInArrow` whose tasks parse their rows with
the wheel and give back the CLI's output shapes (`hdlscan scan --help`,
"Output shapes"), in types Spark reads (no dictionaries, no unsigned
integers), with each split's partial report as one extra row when a
report is made.

- wide (one column, not split): every input column, `record`, SPEC's
  columns;
- long (several columns, `split`, `long` or a path through a list):
  `input` (with several inputs), `record`, `line` (always null: Spark
  does not say where a CSV record starts), `column`, `value_index`,
  `value`, the `keep` columns, SPEC's columns.

A scan that makes a report (`Job`) adds four internal columns
(`INTERNAL`), dropped from what users see: the input's index, the
column's index, the value parsed, and the partial report
(`Report.to_partial`) on the one row that closes a split, whose other
columns are null but `record`, its first record. A plain `scan` parses
with `hdlscan.parse` and adds nothing: its rows go to the writer as the
task made them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema, to_arrow_schema

from . import _records

INPUT = "__hdlscan_input"
COLUMN = "__hdlscan_column"
VALUE = "__hdlscan_value"
PARTIAL = "__hdlscan_partial"
INTERNAL = (INPUT, COLUMN, VALUE, PARTIAL)


def select(names: list[str], wanted) -> list[str]:
    """The chosen columns, as the CLI's `-c` resolves them (an exact name,
    a number, a pattern with `*` and `?`: `_hdlscan.select_columns`); a
    selector that chooses none raises `ValueError`."""
    from hdlscan import _hdlscan

    wanted = [wanted] if isinstance(wanted, str) else list(wanted)
    return [names[i] for i in _hdlscan.select_columns(list(names), wanted, "the DataFrame")]


def many(value) -> tuple:
    """A keyword that takes several strings, as a tuple: one string is one."""
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


@dataclass(frozen=True)
class Options:
    """What the scan does to every value, as the CLI's flags say it."""

    repair: bool = False
    expect: tuple = ()
    resolvers: tuple = ()
    split: str | None = None
    long: bool = False
    column_prefix: str | None = None

    @classmethod
    def of(cls, *, repair=False, expect=(), resolvers=(), split=None, long=False, column_prefix=None):
        """The options from the keywords `scan`, `report` and `Job` take;
        one string is one namespace or host (`expect="doi"`), as for
        `hdlscan.parse`, not its letters."""
        return cls(repair, many(expect), many(resolvers), split, long, column_prefix)

    def report(self, columns, inputs):
        import hdlscan

        return hdlscan.Report(
            list(columns),
            list(inputs),
            repair=self.repair,
            expect=list(self.expect),
            resolvers=list(self.resolvers),
            split=self.split,
            keep_canonicals=False,
        )


def col(name: str):
    """The column `name`, whatever it holds (dots, backticks)."""
    return F.col("`" + name.replace("`", "``") + "`")


def text(values: pa.Array) -> pa.Array:
    """A cell's `value` as the CLI's long output gives it: its text, a
    null (Spark's empty CSV field, a JSON null or missing key) an empty
    string, an integer its decimal text, as `split` gives them."""
    if not (pa.types.is_string(values.type) or pa.types.is_integer(values.type) or pa.types.is_null(values.type)):
        return values
    return pc.fill_null(values.cast(pa.string()), "")


def constant(value, n: int, type: pa.DataType) -> pa.Array:
    """`value` `n` times."""
    return pa.repeat(pa.scalar(value, type), n)


@dataclass
class Plan:
    """The columns, the shape and the options of one scan, built once on the
    driver and shipped to every task."""

    names: list[str]
    columns: list[str]
    keep: list[str]
    options: Options
    layout: _records.Layout
    partials: bool
    lists: frozenset = frozenset()
    """The columns that are paths through lists: a cell of several values."""
    wide: bool = field(init=False)
    prefix: str = field(init=False)
    expects: list = field(init=False)

    def __post_init__(self):
        from hdlscan import _hdlscan

        o = self.options
        # A path through a list makes the output long, as the CLI's.
        self.wide = len(self.columns) == 1 and o.split is None and not o.long and not self.lists
        # The CLI's rule, from its own code: every added column gets the
        # prefix (`record` and long output's leading columns too).
        own = self.names if self.wide else self.keep
        self.prefix = _hdlscan.added_prefix(list(own), not self.wide, o.column_prefix)
        # `COLUMN=NS` resolved once against all the scan's columns, as a
        # `Report` resolves it (by name, number or pattern).
        self.expects = _hdlscan.expect_by_column(list(self.columns), list(o.expect))

    def added(self, name: str) -> str:
        """The output's name of an added column."""
        return self.prefix + name

    def parse(self, values, ci: int, input: int, first: int, report) -> pa.RecordBatch:
        """SPEC's columns of `values` (the scan's column `ci`) in types
        Spark reads, `record` numbered from `first` under `split`; counted
        into `report` if one is given."""
        try:
            if report is not None:
                return report.add(values, column=self.columns[ci], input=input, first_record=first, spark_types=True)
            import hdlscan

            o = self.options
            return hdlscan.parse(
                values, repair=o.repair, expect=self.expects[ci], resolvers=list(o.resolvers), split=o.split,
                first_record=first, spark_types=True,
            )
        except TypeError as e:
            # Raised on the driver, from the empty batch that makes the
            # schema: say which column, and what to do.
            raise TypeError(
                f"column {self.columns[ci]!r}: {e}; cast it to a string first (pyspark.sql.functions.col(...).cast('string'))"
            ) from None

    def enrich(self, rows: pa.RecordBatch, input: int, first: int, report) -> list[pa.RecordBatch]:
        """The output of `rows` (one split's run, records from `first`),
        counted into `report` if one is given."""
        out = []
        n = rows.num_rows
        for ci, name in enumerate(self.columns):
            values = rows.column(name)
            spec = self.parse(values, ci, input, first, report)
            cols, names = [], []
            many = self.options.split is not None or name in self.lists
            if not many:
                record = pa.array(np.arange(first, first + n, dtype=np.int64))
                take = None
                index = constant(1, n, pa.int64())
                parsed = text(values)
            else:
                record = spec.column("record")
                take = pc.subtract(record, first)
                index = spec.column("value_index")
                parsed = spec.column("value")
            if self.wide:
                for k in self.names:
                    cols.append(rows.column(k))
                    names.append(k)
                cols.append(record)
                names.append(self.added("record"))
            else:
                m = len(record)
                if len(self.layout.inputs) > 1:
                    cols.append(constant(self.layout.inputs[input], m, pa.string()))
                    names.append(self.added("input"))
                cols += [record, pa.nulls(m, pa.int64()), constant(name, m, pa.string()), index, parsed]
                names += [self.added(n) for n in ("record", "line", "source_column", "value_index", "value")]
                for k in self.keep:
                    cols.append(rows.column(k) if take is None else rows.column(k).take(take))
                    names.append(k)
            skip = {"record", "value_index", "value"} if many else set()
            for s in spec.schema.names:
                if s not in skip:
                    cols.append(spec.column(s))
                    names.append(self.added(s))
            if self.partials:
                m = len(record)
                cols += [constant(input, m, pa.int32()), constant(ci, m, pa.int32()), parsed, pa.nulls(m, pa.binary())]
                names += list(INTERNAL)
            out.append(pa.RecordBatch.from_arrays(cols, names=names))
        return out

    def closing(self, schema: pa.Schema, report, input: int, first: int) -> pa.RecordBatch:
        """The row carrying a split's partial report."""
        cols = []
        for f in schema:
            if f.name == PARTIAL:
                cols.append(pa.array([report.to_partial()], pa.binary()))
            elif f.name == INPUT:
                cols.append(pa.array([input], pa.int32()))
            elif f.name == self.added("record"):
                cols.append(pa.array([first], pa.int64()))
            else:
                cols.append(pa.nulls(1, f.type))
        return pa.RecordBatch.from_arrays(cols, schema=schema)


def paths(df: DataFrame, columns: list, keep: list) -> tuple[DataFrame, list[str]]:
    """`df` with a column for each selector of `columns` and `keep` that
    names no column but a path into its structs and lists (`ids.doi`,
    `locations[].landing_page_url` of an OpenAlex work, as the CLI reads
    JSON and nested Parquet: docs/usage.md, "Paths"), named by the path,
    and those names; they are read, not written back as input columns.
    A path through a list is a column of lists (`reach`), a cell of
    several values to the parser; a kept one is a `ValueError`, as it is
    a usage error for the CLI."""
    names = set(df.columns)
    added = []
    for sel in columns + keep:
        if not isinstance(sel, str) or sel in names or sel in added:
            continue
        steps = [s for k in sel.split(".") for s in split_key(k)]
        if len(steps) < 2 or any(c in sel for c in "*?") or steps[0] not in names:
            continue
        top = df.schema[steps[0]].dataType
        if not reaches(top, steps, sel):
            continue
        if "[]" in steps and sel in keep:
            # The CLI's words (src/plan/columns.rs).
            raise ValueError(f"--keep {sel!r}: a kept path gives one cell per record; drop the [] to keep the whole list as JSON")
        df = df.withColumn(sel, reach(col(steps[0]), top, steps[1:], "[]" in steps))
        added.append(sel)
    return df, added


def split_key(key: str) -> list[str]:
    """`locations[]` as its steps, `locations` then `[]`; a key holding
    other brackets as it is, which then names no field."""
    bare = key.rstrip("[]")
    n = (len(key) - len(bare)) // 2
    return [bare, *["[]"] * n] if key == bare + "[]" * n and bare else [key]


def reaches(dtype, steps: list[str], sel: str) -> bool:
    """Whether Spark's schema (`dtype`, the type of the top column
    `steps[0]`) has the path `steps` (the selector `sel`): each key a
    struct's field (a `[]` steps into a list, or stays on a value that is
    not one). A key asked of a list is a `ValueError` naming the path
    that reads its elements, where the CLI finds that the path reaches
    nothing (a usage error too)."""
    from pyspark.sql.types import ArrayType, StructType

    spelt = steps[0]
    for step in steps[1:]:
        if step == "[]":
            dtype = dtype.elementType if isinstance(dtype, ArrayType) else dtype
        elif isinstance(dtype, StructType) and step in dtype.names:
            dtype = dtype[step].dataType
        elif isinstance(dtype, ArrayType):
            fix = spelt + "[]" + sel[len(spelt) :]
            raise ValueError(f"{sel}: {spelt} is a list, not a struct: it has no field '{step}'; a path reads its elements: {fix!r}")
        else:
            return False
        spelt += "[]" if step == "[]" else "." + step
    return True


def reach(expr, dtype, steps: list[str], many: bool):
    """What the path `steps` (which `reaches` has checked) reaches from
    `expr`, of Spark type `dtype`: the value itself, or with `many` (a path
    through `[]`) an array of strings, as the CLI walks JSON: a null
    struct or list on the way one null (an empty value) in its place, an
    empty list nothing, and a value that is not a list where `[]` is a
    list of one."""
    from pyspark.sql.types import ArrayType

    if not steps:
        return F.array(leaf(expr, dtype)) if many else expr
    step, rest = steps[0], steps[1:]
    if step != "[]":
        return reach(expr.getField(step), dtype[step].dataType, rest, many)
    if not isinstance(dtype, ArrayType):
        return reach(expr, dtype, rest, many)
    one_null = F.array(F.lit(None).cast(dtype.elementType))
    each = lambda x: reach(x, dtype.elementType, rest, many)  # noqa: E731
    return F.flatten(F.transform(F.coalesce(expr, one_null), each))


def leaf(expr, dtype):
    """A value a path through `[]` reached, as text: a string as it is,
    a number or boolean its text as Spark holds it, a struct or list its
    JSON (`to_json`)."""
    from pyspark.sql.types import ArrayType, MapType, StringType, StructType

    if isinstance(dtype, (StructType, ArrayType, MapType)):
        return F.to_json(expr)
    return expr if isinstance(dtype, StringType) else expr.cast("string")


def enriched(df: DataFrame, columns, keep=(), options: Options = Options(), inputs=None, partials=False):
    """The internal scan of `df`: output columns plus `INTERNAL`, and the
    `Plan` that made it."""
    rows, task, schema, _, plan = prepared(df, columns, keep, options, inputs, partials)
    return rows.mapInArrow(task, schema), plan


def prepared(df: DataFrame, columns, keep=(), options: Options = Options(), inputs=None, partials=False):
    """The pieces of a scan of `df`: the rows its tasks read, the task
    (Arrow batches in, output batches out), the output's schema for Spark
    and in Arrow, and the `Plan`."""
    names = list(df.columns)
    df, nested = paths(df, [columns] if isinstance(columns, str) else list(columns), [keep] if isinstance(keep, str) else list(keep))
    plan_columns = select(names + nested, columns)
    keep = select(names + nested, keep) if keep else []
    placed, layout = _records.placed(df, inputs)
    lists = frozenset(c for c in plan_columns if c in nested and "[]" in c)
    for c in plan_columns:
        # The wheel would read a list as a cell of several values; the CLI
        # asks for the path that says so.
        if c not in lists and df.schema[c].dataType.typeName() == "array":
            raise TypeError(f"column {c!r} is a list ({df.schema[c].dataType.simpleString()}): a path reads its elements: {c + '[]'!r}")
    plan = Plan(names, plan_columns, keep, options, layout, partials, lists)
    arrow_in = to_arrow_schema(placed.schema)
    empty = pa.RecordBatch.from_arrays([pa.array([], f.type) for f in arrow_in], schema=arrow_in)
    # A report checks the options on the driver (`expect`'s columns), also
    # for a scan that counts nothing.
    checked = options.report(plan.columns, plan.layout.inputs)
    sample = plan.enrich(empty, 0, 1, checked if partials else None)[0]
    schema = from_arrow_schema(sample.schema)
    arrow_out = to_arrow_schema(schema)

    # mapInArrow cannot resolve names holding dots (`dc.identifier.uri`):
    # the columns travel by position and get their names back in the task.
    real = placed.columns
    safe = placed.toDF(*[f"__hdlscan_c{i}" if "." in n else n for i, n in enumerate(real)])

    def task(batches):
        report = start = after = None
        named = (pa.RecordBatch.from_arrays(b.columns, names=real) for b in batches)
        for rows, input, first in plan.layout.runs(named):
            if (input, first) != after:
                # Records that do not follow the last run's: another split,
                # with a partial report of its own.
                if start is not None and partials:
                    yield plan.closing(arrow_out, report, *start)
                report = options.report(plan.columns, plan.layout.inputs) if partials else None
                start = (input, first)
            for b in plan.enrich(rows, input, first, report):
                yield b.cast(arrow_out) if b.schema != arrow_out else b
            after = (input, first + rows.num_rows)
        if start is not None and partials:
            yield plan.closing(arrow_out, report, *start)

    return safe, task, schema, arrow_out, plan


def public(df: DataFrame) -> DataFrame:
    """The rows and columns users see."""
    if PARTIAL not in df.columns:
        return df
    return df.where(df[PARTIAL].isNull()).drop(*INTERNAL)
