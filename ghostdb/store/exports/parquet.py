"""Published solutions exported as Parquet, for DuckDB, Polars, pandas and the like.

One file a solution, ``DIR/NAME/RULES.parquet`` (the rule set's key with ``-`` for
``/``: ``ghost-3``, ``superduper-3-misere``), so a folder holds every exported solution
partitioned by name and rule set, and ``read_parquet('DIR/*/*.parquet')`` reads them all.
Each row is a stored position (`SCHEMA`).  pyarrow writes them (the ``parquet`` extra:
``pip install 'ghostdb[parquet]'``); a file is written beside its name and renamed into
place once whole.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import BigInteger, case, cast, func, select

from ghostdb.games.base import VALUE_NAMES
from ghostdb.positions import seats
from ghostdb.store.sql import raw
from ghostdb.store.sql.schema import positions

if TYPE_CHECKING:
    from ghostdb.store.answers.handle import Handle

BATCH = 100_000
"""Rows a Parquet row group."""

COLUMNS = (
    ("name", "string", "the dictionary (word games) or the game"),
    ("rules", "string", "the rule set's key, e.g. ghost/3"),
    ("fragment", "string", "the position's key, as `ghostdb lookup` takes it"),
    ("level", "int16", "moves made to reach it"),
    ("reachable", "bool", "whether a game can arrive here"),
    ("outcome", "string", "loss, draw, tie or win, for the player to move"),
    ("game_length", "int32", "moves left with best play; null for a draw"),
    ("best_play", "int16", "the best move's number among the position's moves in move "
     "order (as `ghostdb lookup --json` lists them before ranking); null where final"),
    ("safe_seats", "list<int8>", "more than two players: the seats safe from here"),
    ("label", "string", "how the position is said (Anagram Ghost), else null"),
)  # fmt: skip
"""The columns, their Parquet types and meanings (the manual's schema is made from this)."""


def file_name(rules_key: str) -> str:
    return rules_key.replace("/", "-") + ".parquet"


def export_solution(solution: Handle, folder: Path) -> tuple[Path, int]:
    """Write ``solution``'s positions to ``folder/NAME/RULES.parquet``; (the file, rows)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema(
        [
            ("name", pa.dictionary(pa.int8(), pa.string())),
            ("rules", pa.dictionary(pa.int8(), pa.string())),
            ("fragment", pa.string()),
            ("level", pa.int16()),
            ("reachable", pa.bool_()),
            ("outcome", pa.dictionary(pa.int8(), pa.string())),
            ("game_length", pa.int32()),
            ("best_play", pa.int16()),
            ("safe_seats", pa.list_(pa.int8())),
            ("label", pa.string()),
        ]
    )
    solution.refresh()  # the one published now, read by its id
    target = folder / solution.name / file_name(solution.rules.key)
    made = not target.parent.exists()
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    rows = 0
    try:
        with pq.ParquetWriter(partial, schema, compression="zstd") as writer:
            for batch in _batches(solution, schema):
                writer.write_batch(batch)
                rows += batch.num_rows
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        if made:  # a failed export leaves nothing behind
            with contextlib.suppress(OSError):
                target.parent.rmdir()
        raise
    return target, rows


def _packed() -> Any:
    """A row's small columns as one integer, made by the database (bits 0-15 the level,
    16 reachable, 17-19 the outcome, 20-39 the game length + 1, 40-55 the best play + 1;
    0 for null): a row crosses into Python as four objects, not eight, and numpy takes
    them apart a batch at a time."""
    c, big = positions.c, BigInteger()
    return (
        cast(c.level, big)
        + case((c.reachable, 1 << 16), else_=0)
        + cast(c.outcome, big) * (1 << 17)
        + func.coalesce(cast(c.game_length, big) + 1, 0) * (1 << 20)
        + func.coalesce(cast(c.best_play, big) + 1, 0) * (1 << 40)
    )


def _batches(solution: Handle, schema: Any) -> Iterator[Any]:
    """The solution's positions as record batches of `BATCH` rows, level by level in key
    order (the table's own order: nothing to sort), read on a raw DB-API connection in a
    thread that fetches the next batch while this one is made (`raw.stream_ahead`);
    each column made whole by pyarrow and numpy, not a row at a time (the outcome's
    codes are the dictionary's indices as they are)."""
    import numpy as np
    import pyarrow as pa

    stmt = (
        select(positions.c.fragment, _packed(), positions.c.safe_seats, positions.c.label)
        .where(positions.c.solution_id == solution.id)
        .order_by(positions.c.level, positions.c.fragment)
    )
    outcomes = pa.array(VALUE_NAMES)
    for part in raw.stream_ahead(solution.engine, stmt, BATCH):
        fragment, packed, safe, label = zip(*part, strict=True)
        n = len(fragment)
        bits = np.array(packed, dtype=np.int64)
        outcome = (bits >> 17 & 7).astype(np.int8)
        length, best = bits >> 20 & 0xFFFFF, bits >> 40 & 0xFFFF
        constant = pa.array(np.zeros(n, np.int8))
        if safe.count(None) != n:  # (counted in C: a generator a row costs a second)
            listed = [None if (f := seats(v)) is None else list(f) for v in safe]
            safe_seats = pa.array(listed, pa.list_(pa.int8()))
        else:  # two players: none
            safe_seats = pa.nulls(n, pa.list_(pa.int8()))
        columns = [
            pa.DictionaryArray.from_arrays(constant, pa.array([solution.name])),
            pa.DictionaryArray.from_arrays(constant, pa.array([solution.rules.key])),
            pa.array(fragment, pa.string()),
            pa.array((bits & 0xFFFF).astype(np.int16)),
            pa.array((bits >> 16 & 1).astype(np.bool_)),
            pa.DictionaryArray.from_arrays(pa.array(outcome), outcomes),
            pa.array((length - 1).astype(np.int32), mask=length == 0),
            pa.array((best - 1).astype(np.int16), mask=best == 0),
            safe_seats,
            pa.array(label, pa.string()),
        ]
        yield pa.RecordBatch.from_arrays(columns, schema=schema)
