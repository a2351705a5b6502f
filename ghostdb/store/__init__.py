"""The database layer: the `Store` façade (`store`), the `Solution` handle on one
published solution, and beneath them one package per concern, each using only those
below it (import-linter's layers in pyproject.toml):

- `solving`: the solve jobs — a game's positions built, solved, written and published,
  one at a time or many in worker processes;
- `verification`: every check of what is stored — a solution re-derived from its rows,
  its plans, its kept answers and decisive words, a pack against the store;
- `rooms`: matches played together, kept as logs of events, and the store's side of the
  referee;
- `exports`: a published solution written out as a pack or as Parquet;
- `answers`: the questions a published solution answers — lookups, lines and plans,
  figures, summaries, decisive words, puzzles, comparisons — and the dictionaries;
- `sql`: the plumbing — opening databases, the schema, shared SQL, raw driver reads,
  and faults as one line.
"""

from ghostdb.store.answers.solution import Solution
from ghostdb.store.store import Store, open_store

__all__ = ["Solution", "Store", "open_store"]
