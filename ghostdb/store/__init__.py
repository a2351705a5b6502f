"""The database layer: the `Store` façade, the `Solution` handle on one published
solution, and one module per concern beneath them."""

from ghostdb.store.solution import Solution
from ghostdb.store.store import Store, open_store

__all__ = ["Solution", "Store", "open_store"]
