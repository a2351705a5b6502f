"""`ghostdb world`: every Debian list installed, under the world's rule sets, in one store.

The lists here are real: every 60th word of Debian's German and Dutch lists (CI installs
wngerman and wdutch), put where the command looks for them, with ``five.txt`` added by
``--add``.  The whole world is the benchmark's (scripts/bench.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, run

from ghostdb import open_store
from ghostdb.games.registry import parse_rules
from ghostdb.store.solving.schedule import Task, next_task
from ghostdb.world import DEBIAN_LISTS, WORLD_RULES

DEBIAN = Path("/usr/share/dict")
SOURCES = {"ngerman": "wngerman", "dutch": "wdutch"}

pytestmark = pytest.mark.long  # worlds built, killed and resumed: minutes together


@pytest.fixture
def dict_dir(tmp_path: Path) -> Path:
    """Every 60th word of two real Debian lists, as Debian names them."""
    folder = tmp_path / "dict"
    folder.mkdir()
    for file, package in SOURCES.items():
        source = DEBIAN / file
        if not source.is_file():
            pytest.skip(f"needs {source}: apt-get install {package}")
        lines = source.read_text(encoding="utf-8").splitlines()
        (folder / file).write_text("\n".join(lines[::60]) + "\n", encoding="utf-8")
    return folder


def world(dict_dir: Path, db: Path, *more: str) -> subprocess.Popen[str]:
    """``ghostdb world`` as its own process (worker processes, signals)."""
    args = [sys.executable, "-m", "ghostdb", "world", "--dict-dir", str(dict_dir)]
    args += ["--add", str(OWN_WORDLISTS / "five.txt"), "--db", str(db), "-q", *more]
    return subprocess.Popen(
        args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def published(db: Path) -> Counter[tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT d.name, s.rules FROM solutions s JOIN dictionaries d "
            "ON d.id = s.dictionary_id WHERE s.status = 'complete'"
        ).fetchall()
    return Counter(rows)


def expected() -> set[tuple[str, str]]:
    return {(n, k) for n in ("german", "dutch", "five") for k in WORLD_RULES}


def test_the_world_is_built_verified_and_resumed(dict_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "world.db"
    proc = world(dict_dir, db)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert "3 lists, 15 solutions: 0 published already, 15 to solve" in err
    assert err.count(", verified (") == 15, err
    assert "apt-get install wbulgarian" in err  # the lists not installed, named
    assert "the world store is complete" in out
    counts = published(db)
    assert set(counts) == expected() and set(counts.values()) == {1}
    # Tagged with its language; every answer kept: the survey reads them read-only.
    with open_store(db, readonly=True) as store:
        rows = store.survey(compute=False)
        assert {(r.language, r.dictionary) for r in rows} >= {("de", "german"), ("nl", "dutch")}
        assert all(v.ok for v in store.verify())
    again = world(dict_dir, db)
    _, err = again.communicate(timeout=600)
    assert again.returncode == 0 and "15 published already, 0 to solve" in err, err
    # Answers whose keeping was cut short are kept by the next run, nothing solved again.
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM kept_answers WHERE question = 'summary'")
    again = world(dict_dir, db, "--no-verify")
    _, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    assert "0 published already, 15 published with answers to keep, 0 to solve" in err
    assert err.count("published already, its answers kept (") == 15, err
    assert published(db) == counts
    with open_store(db, readonly=True) as store:
        assert len(store.survey(compute=False)) == len(rows)


def test_two_builds_at_once_publish_each_solution_once(dict_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "world.db"
    code, _, err = run("ingest", str(OWN_WORDLISTS / "five.txt"), db=db)  # the file first
    assert code == 0, err
    procs = [world(dict_dir, db, "-j", "1") for _ in range(2)]
    for proc in procs:
        _, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err
    counts = published(db)
    assert set(counts) == expected() and set(counts.values()) == {1}


def test_ctrl_c_stops_the_build_and_a_second_run_finishes_it(
    dict_dir: Path, tmp_path: Path
) -> None:
    db = tmp_path / "world.db"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ghostdb",
            "world",
            "--dict-dir",
            str(dict_dir),
            "--add",
            str(OWN_WORDLISTS / "five.txt"),
            "--db",
            str(db),
            "-q",
            "--no-verify",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stderr is not None
    for line in proc.stderr:  # the first solve published: stop in the middle
        if line.startswith("[1/"):
            break
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: the whole process group
    _, err = proc.communicate(timeout=120)
    assert proc.returncode != 0
    assert err.strip().splitlines()[-1].startswith("interrupted: what was published is kept"), err
    before = published(db)
    assert 0 < len(before) < 15 and set(before.values()) == {1}
    again = world(dict_dir, db)
    _, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    # A solve stopped while keeping its answers stands published; this run keeps them.
    done = re.search(r"(\d+) published already(?:, (\d+) published with answers to keep)?", err)
    assert done is not None, err
    assert int(done[1]) + int(done[2] or 0) == len(before), err
    counts = published(db)
    assert set(counts) == expected() and set(counts.values()) == {1}
    with sqlite3.connect(db) as conn:
        statuses = {s for (s,) in conn.execute("SELECT status FROM solutions")}
    assert "running" not in statuses


def test_a_terminal_shows_the_whole_and_each_solve_running(dict_dir: Path, tmp_path: Path) -> None:
    import pexpect

    args = ["-m", "ghostdb", "world", "--dict-dir", str(dict_dir), "--no-verify"]
    args += ["--db", str(tmp_path / "world.db"), "-j", "2"]
    child = pexpect.spawn(sys.executable, args, encoding="utf-8", timeout=300)
    child.expect_exact("world store")  # the whole run's bar
    # A bar for each solve running, naming it and its stage, from its worker process.
    child.expect(r"(german|dutch) (ghost|misere|super|superduper)[/a-z0-9]*: (building|solving)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def test_a_worker_killed_fails_what_runs_and_the_rest_go_on(dict_dir: Path, tmp_path: Path) -> None:
    """A worker the system kills (as for memory) fails the solves running then (the pool
    goes down with it); the rest go on in new workers, and the next run solves what
    failed."""
    db = tmp_path / "world.db"
    proc = world(dict_dir, db, "--no-verify")
    assert proc.stderr is not None
    deadline = time.monotonic() + 120
    killed = None
    while killed is None and time.monotonic() < deadline:
        with contextlib.suppress(sqlite3.Error):
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
                running = conn.execute(
                    "SELECT pid FROM solutions WHERE status = 'running'"
                ).fetchall()
            workers = set(children(proc.pid))
            for (pid,) in running:
                if pid in workers:
                    os.kill(pid, signal.SIGKILL)
                    killed = pid
                    break
        time.sleep(0.05)
    assert killed is not None, "no worker was seen solving"
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 1, err
    assert "a worker process was killed" in err and "run `ghostdb world` again" in err, err
    assert len(published(db)) >= 1
    again = world(dict_dir, db, "--no-verify")
    _, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    counts = published(db)
    assert set(counts) == expected() and set(counts.values()) == {1}


def test_no_list_is_one_line_and_no_file(tmp_path: Path) -> None:
    db = tmp_path / "world.db"
    code, out, err = run("world", "--dict-dir", str(tmp_path / "nothing"), db=db)
    assert (code, out) == (1, "") and err.count("\n") == 1, err
    assert "no Debian word list in" in err and "apt-get install wbulgarian" in err
    code, _, err = run("world", "--add", str(tmp_path / "nope.txt"), db=db)
    assert code == 1 and "no word list at" in err
    assert not db.exists()


def test_the_world_names_every_package_once_and_its_rule_sets_parse() -> None:
    assert len(DEBIAN_LISTS) == 26 and len({e.name for e in DEBIAN_LISTS}) == 26
    assert len({e.language for e in DEBIAN_LISTS}) == 26
    assert [parse_rules(k).key for k in WORLD_RULES] == list(WORLD_RULES)


def test_the_scheduler_starts_what_fits_beside_what_runs() -> None:
    from ghostdb import Rules

    big, mid, small = (Task(n, Rules(), p) for n, p in (("b", 8), ("m", 5), ("s", 1)))
    pending = [big, mid, small]
    assert next_task(pending, [], 10) is big  # alone, the biggest first
    assert next_task(pending, [20], 10) is None  # nothing fits beside a task too big
    assert next_task(pending, [8], 10) is small  # a small one beside the big one
    assert next_task([big], [], 1) is big  # one task alone runs whatever its estimate
    assert next_task([], [], 10) is None


def test_the_json_of_a_world_survey_is_the_surveys(dict_dir: Path, tmp_path: Path) -> None:
    """The world store answers the survey from kept answers alone (no positions read)."""
    db = tmp_path / "world.db"
    proc = world(dict_dir, db, "--no-verify")
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM positions")  # the survey must not need them
    code, out, err = run("survey", "--json", db=db)
    assert code == 0, err
    rules = {row["rules"] for row in json.loads(out)}
    assert rules == set(WORLD_RULES)
