-- scripts/bench_duckdb.sql's classification on JSON Lines works (OpenAlex-like,
-- `hdlscan gen -o works.jsonl`): doi, ids.doi and every
-- locations[].landing_page_url as rows (record, column, identifier), as
-- `hdlscan scan works.jsonl -c doi -c ids.doi -c 'locations[].landing_page_url' -o out.parquet`
-- reads them. Not yet run by scripts/bench: replace ${IN} and ${OUT} and run
--   python3 -c 'import duckdb, sys; duckdb.execute(open(sys.argv[1]).read())' run.sql
-- DuckDB's unnest drops a record whose locations are empty, where hdlscan
-- writes one empty value, so the row counts differ by those records.
COPY (
  WITH works AS (
    SELECT row_number() OVER () AS record, doi, ids, locations
    FROM read_json('${IN}', format = 'newline_delimited',
      columns = {doi: 'VARCHAR', ids: 'STRUCT(openalex VARCHAR, doi VARCHAR)',
                 locations: 'STRUCT(landing_page_url VARCHAR)[]'})
  ),
  src AS (
    SELECT record, 'doi' AS "column", doi AS identifier, trim(coalesce(doi, '')) AS v FROM works
    UNION ALL
    SELECT record, 'ids.doi', ids.doi, trim(coalesce(ids.doi, '')) FROM works
    UNION ALL
    SELECT record, 'locations[].landing_page_url', l.landing_page_url, trim(coalesce(l.landing_page_url, ''))
    FROM (SELECT record, unnest(locations) AS l FROM works)
  ),
  forms AS (
    SELECT *,
      CASE
        WHEN regexp_matches(v, '^https?://(((dx\.|www\.)?doi\.org|hdl\.handle\.net)/|[^/]+/(hdl|handle)/)', 'i')
          THEN 'resolver_url'
        WHEN regexp_matches(v, '^(doi:\s*|urn:doi:)', 'i') THEN 'doi'
        WHEN regexp_matches(v, '^hdl:', 'i') THEN 'hdl_uri'
        WHEN regexp_matches(v, '^info:', 'i') THEN 'info_uri'
        WHEN regexp_matches(v, '^[0-9]') THEN 'bare'
      END AS form,
      regexp_extract(
        v,
        '(?i)^(?:https?://(?:[^/]+/(?:hdl|handle)/|(?:(?:dx\.|www\.)?doi\.org|hdl\.handle\.net)/)|doi:\s*|urn:doi:|hdl:(?://)?|info:(?:doi|hdl)/)?([^/]+)/(.+)$',
        ['prefix', 'suffix']
      ) AS ps,
      lower(regexp_extract(v, '^info:([A-Za-z][A-Za-z0-9+.-]*)/.', 1)) AS info_ns
    FROM src
  ),
  parts AS (
    SELECT *,
      CASE WHEN form IN ('resolver_url', 'hdl_uri', 'info_uri') THEN url_decode(ps.prefix) ELSE ps.prefix END AS p,
      CASE WHEN form IN ('resolver_url', 'hdl_uri', 'info_uri') THEN url_decode(ps.suffix) ELSE ps.suffix END AS s
    FROM forms
  ),
  classified AS (
    SELECT *,
      CASE
        WHEN form = 'info_uri' AND info_ns NOT IN ('', 'doi', 'hdl') THEN info_ns
        WHEN form IS NULL OR s = '' THEN NULL
        WHEN regexp_matches(p, '^10(\.[0-9]+)*$') THEN 'doi'
        WHEN form = 'doi' THEN NULL
        WHEN regexp_matches(p, '^[0-9]+(\.[^.]+)*$') THEN 'hdl'
        WHEN form IN ('hdl_uri', 'info_uri') AND regexp_matches(p, '^[^.]+(\.[^.]+)*$') THEN 'hdl'
      END AS namespace
    FROM parts
  )
  SELECT * EXCLUDE (v, form, ps, info_ns, p, s, namespace),
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
      WHEN namespace IS NOT NULL THEN 'info:' || namespace || '/' || regexp_extract(v, '^info:[^/]+/([^#]*)', 1)
    END AS canonical,
    CASE
      WHEN namespace = 'doi' THEN 'https://doi.org/' || p || '/' || s
      WHEN namespace = 'hdl' THEN 'https://hdl.handle.net/' || p || '/' || s
    END AS url,
    CASE WHEN namespace IS NULL THEN 'invalid' END AS error
  FROM classified
) TO '${OUT}' (FORMAT parquet, COMPRESSION zstd);
