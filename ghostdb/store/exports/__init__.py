"""A published solution written out: `packs` (the portable pack file, `ghostdb.pack`)
and `parquet` (one Parquet file a solution, for DuckDB, Polars and pandas)."""
