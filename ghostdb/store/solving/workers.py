"""Worker processes for solves run side by side (`solve --jobs`, `ghostdb world`).

Workers are spawned, not forked: a worker must not inherit the parent's open
connections.  They ignore SIGINT: Ctrl-C reaches the whole process group, and a worker
that died of it between two tasks would break the pool while the parent still waited on
it.  The parent stops them instead (`stop`), with SIGTERM, which a solving worker turns
into its job's failure (`jobs._fail_on_sigterm`) so that nothing is left half published.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

GRACE = 20.0
"""Seconds a stopped worker has to mark its job failed and roll back before it is killed."""


EVERY = 0.1
"""Seconds between two progress reports of one stage from a worker (its end always goes)."""

_reports: Any = None
"""In a worker: the queue its progress goes to (`pool`'s ``reports``), if any."""


def _start_worker(reports: Any) -> None:
    global _reports
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _reports = reports


def context() -> Any:
    """Spawn, not fork: a worker must not inherit this process's open connections."""
    return multiprocessing.get_context("spawn")


def pool(workers: int, reports: Any = None) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that leave Ctrl-C to their parent; their
    progress goes to ``reports`` (a queue of `context`'s) where given (see `reporter`)."""
    return ProcessPoolExecutor(
        max(1, workers), mp_context=context(), initializer=_start_worker, initargs=(reports,)
    )


def reporter(tag: object) -> Callable[[str, int, int], None] | None:
    """In a worker: a progress callback (stage, done, total) that sends ``(tag, stage,
    done, total)`` to its pool's queue, at most every `EVERY` seconds a stage; None when
    nobody listens."""
    if _reports is None:
        return None
    sent = {"stage": "", "at": 0.0}

    def report(stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if stage == sent["stage"] and done < total and now - sent["at"] < EVERY:
            return
        sent.update(stage=stage, at=now)
        _reports.put((tag, stage, done, total))

    return report


class Listener:
    """In the parent: a thread handing each report of a pool's workers to ``on_report(tag,
    stage, done, total)`` until `close`."""

    def __init__(self, on_report: Callable[[Any, str, int, int], None]) -> None:
        self.reports = context().Queue()
        self._closed = threading.Event()
        self._on_report = on_report
        self._thread = threading.Thread(target=self._listen, daemon=True, name="ghostdb-reports")
        self._thread.start()

    def _listen(self) -> None:
        # A timeout, not a sentinel: a worker stopped mid-report may leave nothing to read.
        while not self._closed.is_set():
            try:
                report = self.reports.get(timeout=0.2)
            except (queue.Empty, OSError, EOFError, ValueError):
                continue
            self._on_report(*report)

    def close(self) -> None:
        self._closed.set()
        self._thread.join(1.0)
        self.reports.close()
        self.reports.cancel_join_thread()  # what a killed worker left unread is dropped


def stop(executor: ProcessPoolExecutor) -> None:
    """Stop every worker of ``executor`` now, busy or idle, and wait (up to `GRACE`
    seconds) for them to end; then shut the pool down without waiting on its queue."""
    # The executor has no public way to stop its running tasks: its processes are read
    # from the attribute it keeps them in (pid -> Process) since Python 3.2.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + GRACE
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)
    executor.shutdown(wait=False, cancel_futures=True)
