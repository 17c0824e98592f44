#!/usr/bin/env python3
"""What `hdlscan scan` does, with Polars string expressions, the way a
competent Polars user would write it: lazy scan_csv, classify the
`identifier` column with str.contains / str.extract_groups / when-then,
sink zstd Parquet (streaming).

    python3 scripts/bench_polars.py IN.csv OUT.parquet

Columns produced: every input column, then kind, namespace, prefix, suffix,
canonical, url, error -- as scripts/bench_duckdb.sql. Polars has no
percent-decoding, so URL forms keep %XX (the DuckDB query decodes them).
Used by scripts/bench.
"""
import sys

import polars as pl

RESOLVER = r"(?i)^https?://(((dx\.|www\.)?doi\.org|hdl\.handle\.net)/|[^/]+/(hdl|handle)/)"
SPLIT = (
    r"(?i)^(?:https?://(?:[^/]+/(?:hdl|handle)/|(?:(?:dx\.|www\.)?doi\.org|hdl\.handle\.net)/)"
    r"|doi:\s*|urn:doi:|hdl:(?://)?|info:(?:doi|hdl)/)?(?P<prefix>[^/]+)/(?P<suffix>.+)$"
)


def main(inp: str, out: str) -> None:
    v = pl.col("_v")
    form = (
        pl.when(v.str.contains(RESOLVER))
        .then(pl.lit("resolver_url"))
        .when(v.str.contains(r"(?i)^(doi:\s*|urn:doi:)"))
        .then(pl.lit("doi"))
        .when(v.str.contains(r"(?i)^hdl:"))
        .then(pl.lit("hdl_uri"))
        .when(v.str.contains(r"(?i)^info:"))
        .then(pl.lit("info_uri"))
        .when(v.str.contains(r"^[0-9]"))
        .then(pl.lit("bare"))
    )
    form_c, p, s, ns = pl.col("_form"), pl.col("_p"), pl.col("_s"), pl.col("_ns")
    info_ns = pl.col("_info_ns")
    namespace = (
        pl.when((form_c == "info_uri") & info_ns.is_not_null() & ~info_ns.is_in(["doi", "hdl"]))
        .then(info_ns)
        .when(form_c.is_null() | s.is_null() | (s == ""))
        .then(None)
        .when(p.str.contains(r"^10(\.[0-9]+)*$"))
        .then(pl.lit("doi"))
        .when(form_c == "doi")
        .then(None)
        .when(p.str.contains(r"^[0-9]+(\.[^.]+)*$"))
        .then(pl.lit("hdl"))
        .when(form_c.is_in(["hdl_uri", "info_uri"]) & p.str.contains(r"^[^.]+(\.[^.]+)*$"))
        .then(pl.lit("hdl"))
    )
    is_handle = ns.is_in(["doi", "hdl"])
    lf = (
        pl.scan_csv(inp, infer_schema=False)
        .with_columns(pl.col("identifier").str.strip_chars().alias("_v"))
        .with_columns(
            form.alias("_form"),
            v.str.extract_groups(SPLIT).alias("_ps"),
            v.str.extract(r"^info:([A-Za-z][A-Za-z0-9+.-]*)/.", 1).str.to_lowercase().alias("_info_ns"),
        )
        .with_columns(
            pl.col("_ps").struct.field("prefix").alias("_p"),
            pl.col("_ps").struct.field("suffix").alias("_s"),
        )
        .with_columns(namespace.alias("_ns"))
        .with_columns(
            pl.when(ns.is_null())
            .then(pl.lit("invalid"))
            .when((form_c == "bare") & (ns == "doi"))
            .then(pl.lit("doi"))
            .when(form_c == "bare")
            .then(pl.lit("handle"))
            .otherwise(form_c)
            .alias("kind"),
            ns.alias("namespace"),
            pl.when(is_handle).then(p).alias("prefix"),
            pl.when(is_handle).then(s).alias("suffix"),
            pl.when(ns == "doi")
            .then(pl.concat_str([p, pl.lit("/"), s]).str.to_lowercase())
            .when(ns == "hdl")
            .then(pl.concat_str([p, pl.lit("/"), s]))
            .when(ns.is_not_null())
            .then(pl.concat_str([pl.lit("info:"), ns, pl.lit("/"), v.str.extract(r"^info:[^/]+/([^#]*)", 1)]))
            .alias("canonical"),
            pl.when(ns == "doi")
            .then(pl.concat_str([pl.lit("https://doi.org/"), p, pl.lit("/"), s]))
            .when(ns == "hdl")
            .then(pl.concat_str([pl.lit("https://hdl.handle.net/"), p, pl.lit("/"), s]))
            .alias("url"),
            pl.when(ns.is_null()).then(pl.lit("invalid")).alias("error"),
        )
        .drop(["_v", "_form", "_ps", "_info_ns", "_p", "_s", "_ns"])
    )
    lf.sink_parquet(out, compression="zstd")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: bench_polars.py IN.csv OUT.parquet")
    main(sys.argv[1], sys.argv[2])
