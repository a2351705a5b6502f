"""The server's appends to the rooms' logs, committed together.

Every room commits each of its turns before anyone sees it (`ghostdb.web.rooms.hub`).
One transaction a turn would make the database's commits the server's pace: on SQLite
one writer at a time, each holding the write lock while its thread waits its turn for
Python's interpreter behind the event loop.  So the rooms' appends queue here, and one
task writes whatever has queued in one transaction (`RoomLog.append_many`), each room's
append under a savepoint of its own: while one batch is written the next one gathers,
so the busier the server, the more each commit carries, and a quiet server still
writes each turn at once.  Every append is answered on its own: written, `Stale`, or
the error that refused it.

The batches are written on a thread of their own, not the event loop's shared pool:
there the rulings' reads (a round's end grades every move) would keep the commits
waiting, and the batch would grow while nothing is written.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from ghostdb.store.rooms.rows import Append

if TYPE_CHECKING:
    from ghostdb.store.rooms.log import RoomLog

MAX_BATCH = 200
"""The most appends one transaction carries (a statement's parameters stay bounded)."""


class Writer:
    """Appends queued from the event loop, written in batches by one task at a time."""

    def __init__(self, log: Callable[[], RoomLog]) -> None:
        self._log = log
        self._queued: list[tuple[Append, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._thread: ThreadPoolExecutor | None = None  # made when first needed

    async def append(
        self,
        room_id: str,
        events: Sequence[dict[str, Any]],
        *,
        status: str | None = None,
        seat_updates: Sequence[tuple[int, str, str]] = (),
    ) -> None:
        """Append ``events`` to the room's log as `RoomLog.append` does, raising what it
        raises, once the batch it joined is committed."""
        prepared = Append.of(room_id, events, status=status, seat_updates=seat_updates)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queued.append((prepared, done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())
        await done

    async def _drain(self) -> None:
        """Write what has queued, batch after batch, until nothing is left."""
        batch: list[tuple[Append, asyncio.Future[None]]] = []
        try:
            while self._queued:
                batch, self._queued = self._queued[:MAX_BATCH], self._queued[MAX_BATCH:]
                try:
                    if self._thread is None:
                        self._thread = ThreadPoolExecutor(1, "ghostdb-rooms-writer")
                    results: list[Any] = await asyncio.get_running_loop().run_in_executor(
                        self._thread, self._log().append_many, [a for a, _ in batch]
                    )
                except Exception as exc:  # the whole transaction failed: every append
                    results = [exc] * len(batch)
                for (_, done), result in zip(batch, results, strict=True):
                    if done.done():
                        continue
                    if result is None:
                        done.set_result(None)
                    else:
                        done.set_exception(result)
                batch = []
        finally:  # cancelled (the server stops): nobody waits for ever
            for _, done in [*batch, *self._queued]:
                if not done.done():
                    done.set_exception(ConnectionError("the server stopped before writing"))
            self._queued = []

    def close(self) -> None:
        """Let the writer's thread end once what it is writing is written (a write
        after makes another)."""
        if self._thread is not None:
            self._thread.shutdown(wait=False)
            self._thread = None


__all__ = ["MAX_BATCH", "Writer"]
