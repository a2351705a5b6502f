"""`Store.warm`: a server's store read into the system's cache in the background."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import write_list

from ghostdb import memory, open_store


def test_a_sqlite_store_that_fits_is_read_ahead_and_one_too_big_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ghost.db"
    with open_store(path, create=True) as store:
        store.ingest(write_list(tmp_path, "cat cow dog", "tiny"))
        assert store.warm() == path.stat().st_size > 0
        readers = [t for t in threading.enumerate() if t.name == "ghostdb-warm"]
        for reader in readers:  # a background thread, which ends once it has read the file
            reader.join(10)
            assert reader.daemon and not reader.is_alive()
        # Not more than half the memory left: the cache is the machine's, not the server's.
        room = [(path.stat().st_size * 2 - 1, "available memory", 1)]
        monkeypatch.setattr(memory, "available", lambda: room)
        assert store.warm() == 0


def test_an_in_memory_store_has_no_file_to_read(tmp_path: Path) -> None:
    with open_store("sqlite://", create=True) as store:
        assert store.warm() == 0
