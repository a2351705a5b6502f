"""The database layer: the `Store` façade and one module per concern beneath it."""

from ghostdb.store.store import Store, open_store

__all__ = ["Store", "open_store"]
