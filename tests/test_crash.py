"""The crash matrix: a solve killed (SIGKILL) at every stage, on SQLite and PostgreSQL.

Afterwards only the old complete solution is visible, never part of the new one; SQLite's
integrity check passes; `verify` is clean; and the next solve marks the killed job failed
and publishes normally.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import POSTGRES_SKIP, reset_postgres, shared_list

from ghostdb import Rules, open_store

PG_URL = os.environ.get("GHOSTDB_TEST_POSTGRES_URL", "")
pytestmark = pytest.mark.slow

# Where the solving process kills itself: the progress callback sees every stage.  Writes
# come in chunks (`ghostdb.store.solving.bulk.CHUNK_ROWS`): killed after the first, and after
# the last.
STAGES = ["build", "solve", "write first chunk", "write last chunk", "publish"]

KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from ghostdb import Rules, open_store

    url, stage, min_length = sys.argv[1], sys.argv[2], int(sys.argv[3])
    def progress(name, done, total):
        here = name
        if name == "write":
            here = "write last chunk" if done >= total else "write first chunk"
        if here == stage:
            os.kill(os.getpid(), signal.SIGKILL)

    with open_store(url, create=True) as store:
        store.solve("words", Rules(min_length=min_length), force=True, progress=progress)
    """
)


@pytest.fixture(scope="module")
def words(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ENABLE's words beginning with b or c: enough rows for several write chunks."""
    source = shared_list("enable1.txt").read_text().split()
    path = tmp_path_factory.mktemp("crash") / "words.txt"
    path.write_text("\n".join(w for w in source if w[0] in "bc") + "\n")
    return path


def backends() -> list[str]:
    return ["sqlite", "postgresql"]


@pytest.fixture(params=backends())
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "ghost.db")
    if not PG_URL:
        pytest.skip(POSTGRES_SKIP)
    reset_postgres(PG_URL)
    return PG_URL


@pytest.mark.parametrize("stage", STAGES)
def test_a_solve_killed_at_any_stage_publishes_nothing(url: str, words: Path, stage: str) -> None:
    with open_store(url, create=True) as store:
        store.ingest(words)
        store.solve("words", Rules(min_length=3))
        before = store.solution("words").lookup("bo")
        old = [s.id for s in store.solutions("words") if s.status == "complete"]

    # Solving again (min 3), and solving anew (min 4): both killed at the same stage.
    for min_length in (3, 4):
        proc = subprocess.run(
            [sys.executable, "-c", KILLER, url, stage, str(min_length)],
            capture_output=True,
            timeout=600,
        )
        assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()[-2000:]

    if not url.startswith("postgresql"):
        with sqlite3.connect(url) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with open_store(url, create=True) as store:
        listed = store.solutions("words")
        assert [s.id for s in listed if s.status == "complete"] == old
        assert store.solution("words").lookup("bo") == before
        assert not [s for s in listed if s.rules == "ghost/4" and s.status == "complete"]
        verdicts = store.verify("words", every=True)
        assert [v.rules for v in verdicts] == ["ghost/3"]
        assert verdicts[0].ok, [f.as_dict() for f in verdicts[0].inconsistencies()]
        # The next solve finds the killed jobs, marks them failed, and publishes.
        store.solve("words", Rules(min_length=4))
        statuses = {(s.rules, s.status) for s in store.solutions("words")}
        assert ("ghost/4", "failed") in statuses and ("ghost/4", "complete") in statuses
        assert all(v.ok for v in store.verify("words", every=True))
