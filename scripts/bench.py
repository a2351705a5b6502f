"""Speed and memory figures for ghostdb, each printed beside its target.

    python scripts/bench.py [--quick] [--scale] [--all] [--postgres URL] [--wordlist PATH]

The rows (the word list is ENABLE, ../shared/wordlists/enable1.txt, unless --wordlist):

- Ghost, words of 3+ letters: `ghostdb ingest` then `ghostdb solve` as two fresh processes,
  side by side with the notebook peer (../shared/peers/notebook_ghost.py, every fragment),
  alternating which goes first, median of 9 pairs;
- SuperDuperGhost: `ghostdb solve --rules superduper` (the list already ingested) side by
  side with the peer's, median of 3 pairs;
- lookups through the Python API, one at a time and a thousand at a time (`lookup_many`);
  `ghostdb lookup NAME gho` as a fresh process side by side
  with a bare Python process that imports SQLAlchemy and reads the same row with sqlite3,
  median of 21 pairs;
- Chopsticks under four rule sets and tic-tac-toe; Connect Four 4 x 4 and 5 x 4;
- Insert and Anagram Ghost, and Ghost for three players, on the word list;
- Debian's wamerican-insane list (/usr/share/dict/american-english-insane);
- Debian's Polish list (/usr/share/dict/polish): ingest, Ghost/3 and SuperDuperGhost/3
  solved, their bytes a position in memory and on disk, what keeping their whole-solution
  answers added to the solve, every whole-solution read command (report, survey, compare,
  openings --words, strategy) in a fresh process once kept against `ghostdb lookup`, each
  solution packed (`ghostdb pack`: bytes a position, target 2) and probed in a fresh
  process against `ghostdb lookup`, and verify of each;
- whole plans, a comparison of two rule sets, self-play;
- `ghostdb verify` of the stored Ghost and SuperDuperGhost solutions, best of 3;
- `ghostdb solve --all` (six rule sets) with --jobs 1 and --jobs 2;
- with --postgres URL, the Ghost solve and lookups on that server (and the bare round trip
  through the driver that one lookup at a time cannot beat), Polish there too.

--quick leaves out the SuperDuperGhost rows, the variants, Connect Four 5 x 4, --jobs and the
big list.
--scale adds a table of solve time, peak memory and database size against positions for
lists of growing size (every 16th, 8th, 4th, 2nd word of american-english-insane and of
Debian's Polish list, and the whole lists; the shared lists), Ghost and SuperDuperGhost, and
draws it to docs/figures/scaling.png (with matplotlib).  It takes about 11 minutes on 2
idle cores, 9 of them for Polish: SuperDuperGhost on its subsets about 8 (the whole list
alone 3 minutes and 6.5 GB of memory); each database (up to 2 GB) is deleted once measured.
--world builds the world store (`ghostdb world --jobs 2`, the shared lists added): its time
and peak memory, and the survey of it against a lookup; --all adds it too.  With --postgres
URL it is built again on that server, in a database of its own (ghostdb_bench_world, made
anew), with the size the server gives it.  --only world measures nothing else;
--only world-postgres only the server's; --only packs, --only learning and --only polish
only those rows.
--all adds --scale and the benchmarks of scripts/bench_web.py (the web server): a hook that
defines ``rows()`` returning (measure, result, target, passed) tuples joins the table; any
other is run as a script and its output printed as it is.

Everything that touches ghostdb runs in a child process: the `ghostdb` command, or this
script with ``--child`` for what the Python API measures.  A child's peak memory is its
own ru_maxrss as os.wait4 reports it; a child also inherits its parent's peak at the exec,
so this process imports nothing but the standard library while it measures.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib.util
import json
import os
import platform
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent
SHARED = SCRIPTS.parent.parent / "shared"
DEFAULT_LIST = SHARED / "wordlists" / "enable1.txt"
SHARED_LISTS = ("enable1.txt", "twl06.txt", "WORD.LST", "ubuntu-words.txt")
PEER = SHARED / "peers" / "notebook_ghost.py"
BIG_LIST = Path("/usr/share/dict/american-english-insane")
POLISH = Path("/usr/share/dict/polish")
BIG_LIST_PACKAGE = "wamerican-insane"
POLISH_PACKAGE = "wpolish"
SUBSETS = (16, 8, 4, 2, 1)  # --scale: every k-th word of the big list and of Polish
FIGURE = SCRIPTS.parent / "docs" / "figures" / "scaling.png"
HOOKS = ("bench_web.py",)

GHOST, DUPER = "ghost/3", "superduper/3"
GHOST_4 = "ghost/4"
VARIANTS = {GHOST: "Ghost", DUPER: "SuperDuperGhost"}
GAMES = (  # (label, game, rule set)
    ("Chopsticks", "chopsticks", "chopsticks/5"),
    ("Chopsticks --rollover", "chopsticks", "chopsticks/5/rollover"),
    ("Chopsticks --no-transfers", "chopsticks", "chopsticks/5/no-transfers"),
    ("Chopsticks --fingers 4", "chopsticks", "chopsticks/4"),
    ("tic-tac-toe", "tictactoe", "tictactoe"),
)
# A fresh process's time varies by a tenth from run to run here, as much as the margin of
# the two start-up ratios: their medians are taken over more pairs than the rest.
ENABLE_PAIRS, DUPER_PAIRS, LOOKUP_PAIRS = 9, 3, 21
# Plain Ghost on ENABLE, solve + persist in the process, as the README gave it before the
# schema took in other games (level in the key, four outcomes): not to be slower.
PLAIN_GHOST_BEFORE_GAMES = 1.32
SOLVE_TIMEOUT = 900.0  # seconds: a runaway solve on a shared machine is stopped, not waited for


class BenchError(Exception):
    """A measured command failed."""


# -- what a row says -----------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    measure: str
    result: str = ""
    target: str = ""
    passed: bool | None = None
    """None: a figure for information, or nothing measured."""
    note: str = ""

    @property
    def mark(self) -> str:
        return {None: "", True: "pass", False: "FAIL"}[self.passed]


def secs(x: float) -> str:
    return f"{x:.2f} s" if x < 10 else f"{x:.1f} s"


def ms(x: float) -> str:
    return f"{x * 1000:.0f} ms"


def mb(x: float) -> str:
    return f"{x:,.0f} MB"


def rate(x: float) -> str:
    return f"{x:,.0f} /s"


def times(x: float) -> str:
    return f"{x:.2f}x"


def pct(x: float) -> str:
    return f"{x:.1%}"


def at_most(
    measure: str, value: float, limit: float, unit: Callable[[float], str], note: str = ""
) -> Row:
    return Row(measure, unit(value), f"<= {unit(limit)}", value <= limit, note)


def at_least(
    measure: str, value: float, limit: float, unit: Callable[[float], str], note: str = ""
) -> Row:
    return Row(measure, unit(value), f">= {unit(limit)}", value >= limit, note)


def print_table(header: Sequence[str], rows: Iterable[Sequence[str]], right: set[int]) -> None:
    """Columns as wide as their widest cell; the columns in ``right`` right-aligned."""
    lines = [list(header), *[list(r) for r in rows]]
    widths = [max(len(r[i]) for r in lines) for i in range(len(header))]
    lines.insert(1, ["-" * w for w in widths])
    for r in lines:
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())


def print_rows(rows: list[Row]) -> None:
    print_table(
        ("measure", "result", "target", "mark", "note"),
        ((r.measure, r.result, r.target, r.mark, r.note) for r in rows),
        right={1},
    )


# -- running children ----------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    seconds: float
    """Wall time from start to exit."""
    peak_mb: float
    """The process's own peak resident memory."""
    out: str


def run(cmd: Sequence[str], timeout: float | None = None) -> Run:
    """Run ``cmd`` to its end; raise BenchError if it fails or outlives ``timeout``."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        timed_out = threading.Event()

        def stop() -> None:
            timed_out.set()
            proc.kill()

        timer = threading.Timer(timeout, stop) if timeout else None
        if timer:
            timer.start()
        _, status, usage = os.wait4(proc.pid, 0)  # this child's rusage, not all children's
        seconds = time.perf_counter() - start
        if timer:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if timed_out.is_set():
            raise BenchError(f"{_shown(cmd)}: stopped after {timeout:.0f} s")
        if proc.returncode != 0:
            last = err.read().strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
            raise BenchError(f"{_shown(cmd)}: {last[0]}")
        return Run(seconds, usage.ru_maxrss / 1024, out.read())


def _shown(cmd: Sequence[str]) -> str:
    """The program and two arguments: ``ghostdb solve enable1``, ``bench.py --child solve``."""
    words = list(cmd[1:] if cmd[0] == sys.executable else cmd)
    return " ".join([Path(words[0]).name, *words[1:3]])


def ghostdb(*args: str) -> list[str]:
    """The `ghostdb` command installed beside this Python."""
    return [str(Path(sys.executable).with_name("ghostdb")), *args]


def peer(wordlist: Path, kind: str) -> list[str]:
    return [sys.executable, str(PEER), str(wordlist), "3", kind, "all"]


def child(task: str, *args: object, timeout: float | None = None) -> tuple[dict[str, Any], Run]:
    """Run one of `TASKS` in a fresh Python process: what it printed, and how it ran."""
    done = run([sys.executable, __file__, "--child", task, *map(str, args)], timeout)
    return json.loads(done.out), done


def side_by_side(
    ours: Callable[[], Run], theirs: Callable[[], Run], pairs: int
) -> tuple[list[Run], list[Run]]:
    """Run the two alternately, each going first in every other pair."""
    a: list[Run] = []
    b: list[Run] = []
    for i in range(pairs):
        order = ((ours, a), (theirs, b)) if i % 2 == 0 else ((theirs, b), (ours, a))
        for fn, runs in order:
            runs.append(fn())
    return a, b


def versus(
    title: str,
    ours: tuple[str, list[Run]],
    theirs: tuple[str, list[Run]],
    limit: float,
    note: str = "",
) -> list[Row]:
    """Both medians and their ratio, which is to be at most ``limit``."""
    medians = []
    rows = []
    for label, runs in (ours, theirs):
        seconds = [r.seconds for r in runs]
        medians.append(statistics.median(seconds))
        spread = f"median of {len(runs)}, {min(seconds):.2f}-{max(seconds):.2f} s"
        rows.append(Row(f"{title}: {label}", secs(medians[-1]), note=spread))
    rows.append(at_most(f"{title}: ratio", medians[0] / medians[1], limit, times, note))
    return rows


# -- the measures --------------------------------------------------------------------------


@dataclass(frozen=True)
class Solved:
    name: str
    words: int
    positions: int
    seconds: float
    """Solve + persist, as `Store.solve` reports it."""
    wall: float
    peak_mb: float
    db_mb: float = 0.0
    """The SQLite database after the solve (its words, positions and plans); 0 on a server."""


@dataclass
class Bench:
    """Where the measures keep their databases, and the solves already measured."""

    tmp: Path
    wordlist: Path
    lookups: int
    enable_db: str = ""
    duper_db: str = ""
    """A database holding the word list solved for SuperDuperGhost (words of 3+ letters)."""
    """A database holding the word list solved for Ghost (words of 3+ letters)."""
    solved: dict[tuple[Path, str], Solved] = field(default_factory=dict)
    _dbs: int = 0

    @property
    def name(self) -> str:
        return list_name(self.wordlist)

    def fresh_db(self) -> str:
        self._dbs += 1
        return str(self.tmp / f"bench-{self._dbs}.db")


def list_name(path: Path) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "-", path.stem)


def ingest(db: str, path: Path) -> tuple[str, int]:
    """Store ``path`` in ``db``: the dictionary's name (on a server, identical content may
    already be stored under another) and its word count."""
    data, _ = child("ingest", db, path, list_name(path))
    return data["name"], data["words"]


def solve_list(
    bench: Bench, path: Path, key: str, db: str | None = None, *, drop: bool = False
) -> Solved:
    """Ingest ``path`` into a fresh database (or ``db``) and solve it in a child process;
    ``drop``: delete the fresh database once measured (a big list's takes gigabytes)."""
    if db is None and (path, key) in bench.solved:
        return bench.solved[(path, key)]
    target = db or bench.fresh_db()
    try:
        name, words = ingest(target, path)
        data, done = child("solve", target, name, key, timeout=SOLVE_TIMEOUT)
        files = [Path(target + suffix) for suffix in ("", "-wal")]
        db_mb = sum(f.stat().st_size for f in files if f.is_file()) / 2**20
    finally:
        if drop and db is None:
            for suffix in ("", "-wal", "-shm"):
                Path(target + suffix).unlink(missing_ok=True)
    result = Solved(
        name, words, data["positions"], data["seconds"], done.seconds, done.peak_mb, db_mb
    )
    bench.solved[(path, key)] = result  # (also in a given database: later rows read it)
    return result


def enable_ghost(bench: Bench) -> list[Row]:
    """Ingest + solve + persist as two `ghostdb` processes against the notebook peer."""
    name = bench.name
    solve_peaks = []
    solve_seconds = []  # Store.solve's own time, as `ghostdb solve` reports it

    def ours() -> Run:
        db = bench.enable_db = bench.fresh_db()
        first = run(ghostdb("ingest", str(bench.wordlist), "--name", name, "--db", db))
        second = run(ghostdb("solve", name, "--db", db))
        solve_peaks.append(second.peak_mb)
        reported = re.search(r"([0-9.]+) s$", second.out.strip())
        if reported:
            solve_seconds.append(float(reported.group(1)))
        return Run(first.seconds + second.seconds, second.peak_mb, second.out)

    a, b = side_by_side(ours, lambda: run(peer(bench.wordlist, "ghost")), ENABLE_PAIRS)
    title = f"{name} Ghost/3 ingest + solve + persist"
    return [
        *versus(title, ("ghostdb, 2 processes", a), ("notebook peer, ghost all", b), 0.5),
        at_most(
            f"{name} Ghost/3 solve + persist, in the process (Store.solve)",
            statistics.median(solve_seconds) if solve_seconds else float("nan"),
            PLAIN_GHOST_BEFORE_GAMES,
            secs,
            f"median of {len(solve_seconds)}; the target is the figure before games joined",
        ),
        at_most(
            f"{name} Ghost/3 solve: peak memory",
            max(solve_peaks),
            600,
            mb,
            f"`ghostdb solve`, highest of {len(solve_peaks)}",
        ),
    ]


def enable_duper(bench: Bench) -> list[Row]:
    """The SuperDuperGhost solve + persist (the list already ingested) against the peer."""
    name = bench.name

    def ours() -> Run:
        db = bench.duper_db = bench.fresh_db()
        ingest(db, bench.wordlist)
        return run(ghostdb("solve", name, "--rules", "superduper", "--db", db), SOLVE_TIMEOUT)

    def theirs() -> Run:
        return run(peer(bench.wordlist, "duper"), SOLVE_TIMEOUT)

    a, b = side_by_side(ours, theirs, DUPER_PAIRS)
    peak = f"ghostdb's peak memory {mb(max(r.peak_mb for r in a))}"
    title = f"{name} SuperDuperGhost/3 solve + persist"
    return versus(title, ("ghostdb", a), ("notebook peer, duper all", b), 0.25, peak)


def api_lookups(bench: Bench, db: str, name: str, label: str, limit: float) -> list[Row]:
    """Lookups of random reachable fragments (with their plays) through the Python API:
    one at a time (`Solution.lookup`) and a thousand at a time (`Solution.lookup_many`),
    both against ``limit``."""
    data, _ = child("lookups", db, name, bench.lookups)
    note = (
        f"median of 3 rounds of {bench.lookups:,} random fragments "
        f"of {data['reachable']:,} reachable"
    )
    rows = [
        at_least(f"{label}, one at a time", data["rate"], limit, rate, note),
        at_least(f"{label}, 1,000 at a time", data["batch_rate"], limit, rate, "lookup_many"),
    ]
    if "round_trip" in data:
        rows.append(Row(f"{label}: one round trip (SELECT 1)", rate(data["round_trip"])))
    return rows


BARE_READ = """\
import sqlite3, sys
import sqlalchemy
db, solution, fragment = sys.argv[1:]
with sqlite3.connect(db) as con:
    row = con.execute(
        "SELECT * FROM positions WHERE solution_id = ? AND fragment = ?", (int(solution), fragment)
    ).fetchone()
sys.exit(row is None)
"""


def lookups(bench: Bench) -> list[Row]:
    """The API's rate, and the command's start-up against a bare Python process."""
    db, name = bench.enable_db, bench.name
    solution = str(child("solution", db, name, GHOST)[0]["id"])
    a, b = side_by_side(
        lambda: run(ghostdb("lookup", name, "gho", "--db", db)),
        lambda: run([sys.executable, "-c", BARE_READ, db, solution, "gho"]),
        LOOKUP_PAIRS,
    )
    return [
        *api_lookups(bench, db, name, f"{name} lookups through the Python API", 100_000),
        *versus(
            f"`ghostdb lookup {name} gho`",
            ("a fresh process", a),
            ("bare Python: import SQLAlchemy, read the row with sqlite3", b),
            1.2,
        ),
    ]


def verify(bench: Bench) -> list[Row]:
    """`ghostdb verify` as a fresh process on the stored ENABLE solutions."""
    rows = []
    for key, db, limit in ((GHOST, bench.enable_db, 2.0), (DUPER, bench.duper_db, 15.0)):
        if not db:
            rows.append(Row(f"{bench.name} {VARIANTS[key]}/3 verify", note="skipped (--quick)"))
            continue
        flags = ["--rules", "superduper"] if key == DUPER else []
        done = min(
            (run(ghostdb("verify", bench.name, *flags, "--db", db)) for _ in range(3)),
            key=lambda r: r.seconds,
        )
        note = f"best of 3; peak {mb(done.peak_mb)}"
        rows.append(
            at_most(f"{bench.name} {VARIANTS[key]}/3 verify", done.seconds, limit, secs, note)
        )
    return rows


def parallel(bench: Bench) -> list[Row]:
    """`solve --all` (six rule sets) in one worker process and in two."""
    walls = {}
    for jobs in (1, 2):
        db = bench.fresh_db()
        ingest(db, bench.wordlist)
        cmd = ghostdb("solve", bench.name, "--all", "--jobs", str(jobs), "--quiet", "--db", db)
        walls[jobs] = run(cmd, SOLVE_TIMEOUT * 3).seconds
    return [
        Row(f"{bench.name} solve --all --jobs 1", secs(walls[1])),
        at_most(
            f"{bench.name} solve --all --jobs 2 / --jobs 1",
            walls[2] / walls[1],
            0.65,
            times,
            f"--jobs 2 took {secs(walls[2])}",
        ),
    ]


def variants(bench: Bench) -> list[Row]:
    """The origin's open ideas on the word list: Insert and Anagram Ghost, three players."""
    rows = []
    for label, key, limit in (
        ("Insert Ghost/3", "insert/3", 20.0),
        ("Anagram Ghost/3", "anagram/3", 15.0),
        ("Ghost/3, 3 players", "ghost/3/3p", 3.0),
    ):
        s = solve_list(bench, bench.wordlist, key)
        note = f"{s.positions:,} positions; peak {mb(s.peak_mb)}; process {secs(s.wall)}"
        rows.append(at_most(f"{bench.name} {label} solve + persist", s.seconds, limit, secs, note))
    return rows


def games(bench: Bench) -> list[Row]:
    """Each game's solve + persist, in a fresh database."""
    rows = []
    for label, game, key in GAMES:
        data, done = child("solve", bench.fresh_db(), game, key)
        note = f"{data['positions']:,} positions; process {secs(done.seconds)}"
        rows.append(at_most(f"{label}: solve + persist", data["seconds"], 0.5, secs, note))
    return rows


def connect_four(bench: Bench, quick: bool) -> list[Row]:
    """Connect Four's boards: 4 x 4 always, 5 x 4 (about 4 million positions) unless quick."""
    rows = []
    for board, limit in (("4x4", 3.0), ("5x4", 60.0)):
        label = f"Connect Four {board.replace('x', ' x ')}"
        if quick and board != "4x4":
            rows.append(Row(f"{label}: solve + persist", note="skipped (--quick)"))
            continue
        data, done = child(
            "solve", bench.fresh_db(), "connectfour", f"connectfour/{board}", timeout=SOLVE_TIMEOUT
        )
        note = f"{data['positions']:,} positions; process {secs(done.seconds)}"
        rows.append(at_most(f"{label}: solve + persist", data["seconds"], limit, secs, note))
        rows.append(at_most(f"{label}: peak memory", done.peak_mb, 3072, mb))
    return rows


def big_list(bench: Bench) -> list[Row]:
    """Ghost and SuperDuperGhost on the largest Debian list."""
    name = list_name(BIG_LIST)
    if not BIG_LIST.is_file():
        return [Row(name, note=f"skipped: no {BIG_LIST} (apt-get install {BIG_LIST_PACKAGE})")]
    rows = []
    for key, limit in ((GHOST, 3.0), (DUPER, 8.0)):  # issue 21: SuperDuperGhost <= 8 s
        s = solve_list(bench, BIG_LIST, key)
        note = f"{s.words:,} words, {s.positions:,} positions; process {secs(s.wall)}"
        title = f"{name} {VARIANTS[key]}/3"
        rows.append(at_most(f"{title} solve + persist", s.seconds, limit, secs, note))
        if key == DUPER:
            rows.append(at_most(f"{title} solve: peak memory", s.peak_mb, 600, mb))
        else:
            rows.append(Row(f"{title} solve: peak memory", mb(s.peak_mb)))
    return rows


def polish(bench: Bench, quick: bool) -> list[Row]:
    """Debian's Polish list, the biggest real one: ingest, Ghost/3 and (unless quick)
    SuperDuperGhost/3 solved, stored and verified, the bytes a position costs on disk and
    at the solve's peak."""
    if not POLISH.is_file():
        return [Row("polish", note=f"skipped: no {POLISH} (apt-get install wpolish)")]
    db = bench.fresh_db()
    ingested = run(ghostdb("ingest", str(POLISH), "--db", db), SOLVE_TIMEOUT)
    note = f"a {POLISH.stat().st_size / 2**20:.0f} MB file; peak {mb(ingested.peak_mb)}"
    rows = [at_most("polish ingest", ingested.seconds, 5.0, secs, note)]
    solved = [(GHOST, 10.0, 1500)] + ([] if quick else [(DUPER, 90.0, 6000)])
    disk, _ = child("disk", db)
    for key, limit, peak_limit in solved:
        s = solve_list(bench, POLISH, key, db=db)
        title = f"polish {VARIANTS[key]}/3"
        note = f"{s.words:,} words, {s.positions:,} positions; process {secs(s.wall)}"
        rows.append(at_most(f"{title} solve + persist", s.seconds, limit, secs, note))
        per = s.peak_mb * 2**20 / s.positions
        note = f"{per:,.0f} bytes a position at the peak"
        rows.append(at_most(f"{title} solve: peak memory", s.peak_mb, peak_limit, mb, note))
        now, _ = child("disk", db)  # what this solve's rows added to the table
        size, count = now["bytes"] - disk["bytes"], now["rows"] - disk["rows"]
        disk = now
        note = f"{size / 2**20:,.0f} MB for {count:,} positions, with their plans"
        rows.append(
            at_most(f"{title} on disk (SQLite)", size / count, 40.0, lambda x: f"{x:.1f} B", note)
        )
    for key, _, _ in solved:
        s = bench.solved.get((POLISH, key)) or solve_list(bench, POLISH, key, db=db)
        kept = kept_seconds(db, key)
        note = f"{secs(kept)} of the solve's {secs(s.seconds)}: its figures, plans, openings"
        title = f"polish {VARIANTS[key]}/3 answers kept at publish"
        rows.append(at_most(title, kept / s.seconds, 0.15, times, note))
    # Decisive words at the start of Ghost/3, worked out and kept (a fresh process).
    done = run(ghostdb("decisive", "polish", "--db", db), SOLVE_TIMEOUT)
    rows.append(at_most("polish decisive words (Ghost/3), first request", done.seconds, 20.0, secs))
    rows.append(at_most("polish decisive words: peak memory", done.peak_mb, 1500, mb))
    if not quick:
        rows += polish_reads(db)
    rows += polish_packs(bench, db, [key for key, _, _ in solved])
    for key, _, _ in solved:
        flags = ["--rules", "superduper"] if key == DUPER else []
        # `run` raises unless verify exits 0: clean
        done = run(ghostdb("verify", "polish", *flags, "--db", db), SOLVE_TIMEOUT)
        note = f"clean; peak {mb(done.peak_mb)}"
        rows.append(Row(f"polish {VARIANTS[key]}/3 verify", secs(done.seconds), note=note))
    return rows


def polish_packs(bench: Bench, db: str, keys: list[str]) -> list[Row]:
    """Each Polish solution packed (`ghostdb pack`): bytes a position, keys included,
    beside the target (2); then `ghostdb probe` of the pack in a fresh process against
    `ghostdb lookup` of the store, side by side."""
    rows = []
    for key in keys:
        flags = ["--rules", "superduper"] if key == DUPER else []
        path = str(bench.tmp / f"polish-{VARIANTS[key]}.ghostpack")
        done = run(ghostdb("pack", "polish", *flags, "-o", path, "--db", db), SOLVE_TIMEOUT)
        positions = int(re.search(r"([\d,]+) positions", done.out)[1].replace(",", ""))  # type: ignore[index]
        size = Path(path).stat().st_size
        note = f"{size / 2**20:.1f} MB for {positions:,} positions, packed in {secs(done.seconds)}"
        rows.append(
            at_most(
                f"polish {VARIANTS[key]}/3 pack: bytes a position",
                size / positions,
                2.0,
                lambda x: f"{x:.2f}",
                note,
            )
        )
        probe = ghostdb("probe", path, "abc")
        lookup = ghostdb("lookup", "polish", "abc", *flags, "--db", db)
        ours, base_runs = side_by_side(
            functools.partial(run, probe), functools.partial(run, lookup), READ_PAIRS
        )
        a = statistics.median(r.seconds for r in ours)
        b = statistics.median(r.seconds for r in base_runs)
        note = f"{secs(a)} against {secs(b)}, medians of {READ_PAIRS}"
        rows.append(
            at_most(f"polish {VARIANTS[key]}/3 probe of the pack / lookup", a / b, 1.0, times, note)
        )
        rows += pack_costs(bench, key, done)
    rows += pack_probes(str(bench.tmp / f"polish-{VARIANTS[DUPER]}.ghostpack"))
    if DUPER in keys:
        out = bench.tmp / "parquet"
        done = run(
            ghostdb("export", "parquet", "polish", "-r", "superduper", "-o", str(out), "--db", db),
            SOLVE_TIMEOUT,
        )
        note = f"{sum(f.stat().st_size for f in out.rglob('*.parquet')) / 2**20:.0f} MB of Parquet"
        rows.append(
            at_most("polish SuperDuperGhost/3 Parquet export", done.seconds, 30.0, secs, note)
        )
    return rows


def pack_costs(bench: Bench, key: str, done: Run) -> list[Row]:
    """`ghostdb pack`'s time against the solve's (at most half) and its peak memory
    against the solve's (no more)."""
    s = bench.solved.get((POLISH, key))
    if s is None:
        return []
    title = f"polish {VARIANTS[key]}/3 pack"
    note = f"{secs(done.seconds)} against the solve's {secs(s.seconds)}"
    return [
        at_most(f"{title} / solve, time", done.seconds / s.seconds, 0.5, times, note),
        at_most(
            f"{title} / solve, peak memory",
            done.peak_mb / s.peak_mb,
            1.0,
            times,
            f"{mb(done.peak_mb)} against {mb(s.peak_mb)}",
        ),
    ]


def pack_probes(path: str) -> list[Row]:
    """Probes of a pack in process (random stored positions, each block read cold), and
    a fresh Python that opens it and probes one position."""
    if not Path(path).is_file():
        return []
    data, _ = child("pack_probes", path)
    note = f"{data['blocks']:,} blocks of 2,048; a cold block is inflated and decoded per miss"
    joined = "Pack.values, once the blocks are joined (the median of 3 later rounds)"
    rows = [
        at_least("pack: single value probes, in process", data["single"], 50_000, rate, note),
        at_least("pack: value probes in batches of 10,000, cold", data["batch"], 500_000, rate,
                 "Pack.values, the first round: each block inflated when first touched "
                 "(numpy imported before)"),
        at_least("pack: value probes in batches of 10,000, warm", data["warm"], 500_000, rate,
                 joined),
        Row("pack: whole probes (with every move), in process", rate(data["whole"])),
    ]  # fmt: skip
    code = f"from ghostdb.pack import open_pack; open_pack({path!r}).probe('abc')"
    fresh = [run([sys.executable, "-c", code]).seconds for _ in range(READ_PAIRS)]
    note = f"median of {READ_PAIRS}: import, open (root hash checked), one probe"
    rows.append(
        at_most(
            "pack: a fresh python -c that probes one position",
            statistics.median(fresh),
            0.080,
            ms,
            note,
        )
    )
    return rows


def task_pack_probes(path: str) -> dict[str, Any]:
    import random

    from ghostdb.pack import open_pack

    rng = random.Random(7)
    with open_pack(path) as pack:
        blocks = len(pack.index)
        keys = []
        for number in rng.choices(range(blocks), k=2_000):
            keys += [k.decode() for k in rng.sample(pack.block(number).keys, 10)]
    rng.shuffle(keys)
    import numpy  # noqa: F401 - once a process (80 ms), not a probe's: Pack.values needs it

    with open_pack(path) as pack:  # cold: no block decoded yet
        start = time.perf_counter()
        for key in keys:
            pack.record(key)
        single = len(keys) / (time.perf_counter() - start)
    with open_pack(path) as pack:
        rounds = []  # each key once a round: the first cold, then the blocks join
        for _ in range(7):
            start = time.perf_counter()
            for at in range(0, len(keys), 10_000):
                pack.values(keys[at : at + 10_000])
            rounds.append(len(keys) / (time.perf_counter() - start))
        batch, warm = rounds[0], statistics.median(rounds[-3:])
    with open_pack(path) as pack:
        start = time.perf_counter()
        for key in keys[:2_000]:
            pack.probe(key)
        whole = 2_000 / (time.perf_counter() - start)
    return {"blocks": blocks, "single": single, "batch": batch, "warm": warm, "whole": whole}


def task_pack_shares(path: str) -> dict[str, Any]:
    """Each column's compressed bytes a position, the columns deflated apart block by
    block as the writer lays them out (together they take a little less)."""

    from ghostdb.pack import open_pack
    from ghostdb.pack.format import NONE, deflate, put_varint

    def deflated(data: bytes) -> int:
        return len(deflate(data))

    def planes(numbers: list[int]) -> bytes:
        return bytes(v & 0xFF for v in numbers) + bytes(v >> 8 for v in numbers)

    shares = {"keys": 0, "values and lengths": 0, "reachable": 0, "safe seats and labels": 0}
    with open_pack(path) as pack:
        for number in range(len(pack.index)):
            records = pack.block(number).records()
            drops, lengths, rests, before = bytearray(), bytearray(), bytearray(), b""
            for record in records:
                key = record[0].encode()
                shared = len(os.path.commonprefix([before, key]))  # noqa: RUF071 - bytes
                put_varint(drops, len(before) - shared)
                put_varint(lengths, len(key) - shared)
                rests += key[shared:]
                before = key
            shares["keys"] += deflated(bytes(drops + lengths + rests))
            values = [(0 if r[3] is None else r[3] + 1) << 2 | r[2] for r in records]
            shares["values and lengths"] += deflated(planes(values))
            bits = bytearray((len(records) + 7) // 8)
            for i, r in enumerate(records):
                bits[i >> 3] |= r[1] << (i & 7)
            shares["reachable"] += deflated(bytes(bits))
            safe = planes([NONE if r[5] is None else r[5] for r in records])
            labels = bytes(len(r[6] or "") for r in records)
            shares["safe seats and labels"] += deflated(safe + labels)
        positions = pack.positions
    return {k: v / positions for k, v in shares.items()}


def learning(bench: Bench) -> list[Row]:
    """Analysis, puzzles and common players on the word list's Ghost/3: `analyse` in a
    fresh process against `lookup`, both side by side; over the API, an analysis and a
    puzzle; a common:50,000 player made the first time."""
    db = bench.fresh_db()
    name, _ = ingest(db, bench.wordlist)
    run(ghostdb("solve", name, "--db", db), SOLVE_TIMEOUT)
    record = _a_whole_game(bench.wordlist)
    analyse = ghostdb("analyse", name, *record, "--db", db)
    lookup = ghostdb("lookup", name, "gho", "--db", db)
    ours, theirs = side_by_side(
        functools.partial(run, analyse), functools.partial(run, lookup), READ_PAIRS
    )
    a = statistics.median(r.seconds for r in ours)
    b = statistics.median(r.seconds for r in theirs)
    note = f"{len(record)} moves: {secs(a)} against {secs(b)}, medians of {READ_PAIRS}"
    rows = [at_most("analyse / lookup, fresh processes", a / b, 1.2, times, note)]
    data, _ = child("learning_api", db, name, ",".join(record))
    rows.append(
        at_most("analyse over the API", data["analyse"], 0.005, ms, f"{len(record)} moves, median")
    )
    rows.append(at_most("a puzzle over the API", data["puzzle"], 0.005, ms, "median"))
    rows.append(at_most("common:50000 player, made the first time", data["common"], 1.0, secs))
    against = ghostdb("lookup", name, "q", "--against", "common:50000", "--db", db)
    with sqlite3.connect(db) as conn:  # the ranking the API child kept: gone again
        conn.execute("DELETE FROM kept_answers WHERE question = 'common words'")
    first = run(against).seconds  # ranks the words and keeps them
    then = statistics.median(run(against).seconds for _ in range(3))
    rows.append(
        at_most(
            "lookup --against common:50000, fresh process, from the store",
            then,
            first,
            secs,
            f"the first (ranked and kept) took {secs(first)}",
        )
    )
    for length in (3, 4):
        data, _ = child("puzzle_share", str(bench.wordlist), str(length))
        note = f"{ms(data['puzzles'])} of the solve job's {secs(data['solve'])}"
        rows.append(
            at_most(
                f"puzzles found, Ghost/{length}: share of the solve", data["share"], 0.1, pct, note
            )
        )
    return rows


def task_puzzle_share(wordlist: str, min_length: str) -> dict[str, float]:
    """A solve job of Ghost/N on a fresh store: its seconds, and those its puzzles took
    (found with word frequencies, kept with them)."""
    import tempfile

    from sqlalchemy import select

    from ghostdb import Rules, open_store
    from ghostdb.store.puzzles import PUZZLES
    from ghostdb.store.schema import kept_answers

    with tempfile.TemporaryDirectory() as folder, open_store(f"{folder}/s.db") as store:
        name = store.ingest(Path(wordlist)).dictionary.name
        solved = store.solve(name, Rules(min_length=int(min_length)))
        with store.engine.connect() as conn:
            taken = conn.execute(
                select(kept_answers.c.seconds).where(
                    kept_answers.c.solution_id == solved.job_id, kept_answers.c.question == PUZZLES
                )
            ).scalar_one()
    return {"solve": solved.seconds, "puzzles": taken, "share": taken / solved.seconds}


def _a_whole_game(wordlist: Path) -> list[str]:
    """A game of 20 moves: the first 20 letters of a word none of whose shorter prefixes
    (of 3 letters or more) is a word, so that no move before the last ends the game."""
    words = set(wordlist.read_text(encoding="utf-8", errors="replace").split())
    for word in sorted(words, key=len, reverse=True):
        if len(word) >= 20 and not any(word[:k] in words for k in range(3, 20)):
            return list(word[:20])
    raise BenchError(f"no word of {wordlist} makes a 20-move game")


def task_learning_api(db: str, name: str, record: str) -> dict[str, Any]:
    from fastapi.testclient import TestClient

    from ghostdb import open_store
    from ghostdb.web import create_app

    with open_store(db, create=False) as store, TestClient(create_app(store)) as client:

        def median_of(url: str) -> float:
            client.get(url)  # read once: the measure is of an answer, not a cold start
            times = []
            for _ in range(50):
                start = time.perf_counter()
                assert client.get(url).status_code == 200
                times.append(time.perf_counter() - start)
            return statistics.median(times)

        analyse = median_of(f"/api/{name}/analyse?moves={record}")
        puzzle = median_of(f"/api/{name}/puzzle")
        start = time.perf_counter()
        store.solution(name).vocabularies(["common:50000"])
        common = time.perf_counter() - start
    return {"analyse": analyse, "puzzle": puzzle, "common": common}


ENABLE_KEYS = ("ghost/3", "ghost/4", "super/3", "super/4", "superduper/3", "superduper/4")
SITE_RULES = ("ghost/3", "ghost/4", "super/3")


def enable_packs(bench: Bench) -> list[Row]:
    """Every standard rule set of the word list packed: bytes a position, keys included
    (target 2; GamesmanOne's records take 2, the SQLite store 36-42), with each column's
    share; then the offline site of the issue's set and its first move in Chromium."""
    db = bench.fresh_db()
    name, _ = ingest(db, bench.wordlist)
    run(ghostdb("solve", name, "--all", "--db", db), SOLVE_TIMEOUT)
    rows = []
    for key in ENABLE_KEYS:
        variant, length = key.split("/")
        path = str(bench.tmp / f"{name}-{variant}-{length}.ghostpack")
        flags = ["--rules", variant, "--min-length", length]
        run(ghostdb("pack", name, *flags, "-o", path, "--db", db), SOLVE_TIMEOUT)
        shares, _ = child("pack_shares", path)
        size = Path(path).stat().st_size
        positions = _positions(path)
        note = ", ".join(f"{k} {v:.2f}" for k, v in shares.items() if v >= 0.005)
        rows.append(
            at_most(
                f"{name} {key} pack: bytes a position",
                size / positions,
                2.0,
                lambda x: f"{x:.2f}",
                note,
            )
        )
    return rows + offline_site(bench, db, name)


def _positions(path: str) -> int:
    with open(path, "rb") as file:
        head = file.read(16)
        header = json.loads(file.read(int.from_bytes(head[12:16], "little")))
    return int(header["positions"])


def offline_site(bench: Bench, db: str, name: str) -> list[Row]:
    """`ghostdb export site` of the word list's Ghost/3, Ghost/4 and SuperGhost/3 with
    Chopsticks, tic-tac-toe and Connect Four 4 x 4: its bytes, and how long after opening
    it in Chromium the first move can be played."""
    for game in ("chopsticks", "tictactoe", "connectfour"):
        run(ghostdb("solve", game, "--db", db), SOLVE_TIMEOUT)
    folder = bench.tmp / "site"
    rules = [x for key in SITE_RULES for x in ("--rules", key)]
    games = ["chopsticks", "tictactoe", "connectfour"]
    run(ghostdb("export", "site", name, *games, *rules, "-o", str(folder), "--db", db))
    size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    note = f"{len(list(folder.rglob('*.ghostpack')))} packs and the page"
    rows = [at_most("offline site: bytes in all", size / 2**20, 3.0, lambda x: f"{x:.2f} MB", note)]
    data, _ = child("site_first_move", str(folder), name)
    if "skipped" in data:
        return [*rows, Row("offline site: first move playable", note=data["skipped"])]
    note = f"median of {len(data['times'])} fresh pages, from navigation to a key that plays"
    first = statistics.median(data["times"])
    return [*rows, at_most("offline site: first move playable in Chromium", first, 1.0, secs, note)]


def task_site_first_move(folder: str, name: str) -> dict[str, Any]:
    import functools as ft
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    chromium = Path("/usr/bin/chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ModuleNotFoundError:
        return {"skipped": "needs playwright (pip install -e '.[dev]')"}
    if not chromium.exists():
        return {"skipped": "needs /usr/bin/chromium (apt-get install chromium)"}

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

    handler = ft.partial(Quiet, directory=folder)
    times = []
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_address[1]}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(chromium), args=["--no-sandbox"])
            for _ in range(5):
                context = browser.new_context()  # a fresh cache each time
                page = context.new_page()
                page.goto(f"{base}/#name={name}&rules=ghost/3&players=human,computer")
                page.wait_for_selector("#keys .key:not([disabled])")
                times.append(page.evaluate("performance.now()") / 1000)
                context.close()
            browser.close()
        httpd.shutdown()
    return {"times": times}


KEPT_READS = (
    ("report", ("report", "polish")),
    ("survey", ("survey",)),
    ("compare two rule sets", ("compare", "polish", "--vs-rules", "superduper")),
    ("compare two dictionaries", ("compare", "polish", "polish-folded")),
    ("openings --words", ("openings", "polish", "--words")),
    ("openings --words, SuperDuperGhost", ("openings", "polish", "-r", "superduper", "--words")),
    ("strategy, player 0", ("strategy", "polish", "--player", "0")),
    ("strategy, player 1", ("strategy", "polish", "--player", "1")),
    ("strategy, SuperDuperGhost player 1", ("strategy", "polish", "-r", "superduper", "-p", "1")),
)
READ_PAIRS = 7


def kept_seconds(db: str, key: str) -> float:
    """What working out the kept answers of a published solution took (their recorded
    seconds), read with the standard library's sqlite3."""
    import sqlite3

    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT sum(k.seconds) FROM kept_answers k JOIN solutions s ON s.id = k.solution_id "
            "WHERE s.status = 'complete' AND s.rules = ? AND k.other_id = 0",
            (key,),
        ).fetchone()
    return float(row[0] or 0.0)


def polish_reads(db: str) -> list[Row]:
    """Every whole-solution read command on Polish in a fresh process, once worked out
    and kept, side by side with `ghostdb lookup polish` (its own time): the ratio of the
    medians is to be at most 1.3.  The first run of each (which works out what a solve did
    not keep: a comparison) is shown too."""
    # A second dictionary to compare with: the same list, its accents folded.
    folded = ("--fold-accents", "--name", "polish-folded")
    run(ghostdb("ingest", str(POLISH), *folded, "--db", db), SOLVE_TIMEOUT)
    run(ghostdb("solve", "polish-folded", "--db", db), SOLVE_TIMEOUT)
    rows = []
    for label, args in KEPT_READS:
        first = run(ghostdb(*args, "--db", db), SOLVE_TIMEOUT)
        ours, base = side_by_side(
            lambda args=args: run(ghostdb(*args, "--db", db)),
            lambda: run(ghostdb("lookup", "polish", "--db", db)),
            READ_PAIRS,
        )
        ratio = statistics.median(r.seconds for r in ours) / statistics.median(
            r.seconds for r in base
        )
        note = (
            f"{secs(statistics.median(r.seconds for r in ours))} against "
            f"{secs(statistics.median(r.seconds for r in base))}, medians of {READ_PAIRS}; "
            f"first run {secs(first.seconds)}, peak {mb(max(r.peak_mb for r in ours))}"
        )
        rows.append(at_most(f"polish {label} (kept) / lookup", ratio, 1.3, times, note))
    return rows


def used_memory() -> int:
    """Bytes in use on the machine now (MemTotal - MemAvailable), to follow the memory
    of a command whose worker processes the command's own rusage does not add up."""
    fields = {}
    for line in Path("/proc/meminfo").read_text().splitlines():
        key, value = line.split(":", 1)
        fields[key] = int(value.split()[0]) * 1024
    return fields["MemTotal"] - fields["MemAvailable"]


def world_store(bench: Bench, server: str | None = None) -> list[Row]:
    """`ghostdb world --jobs 2` with the four shared lists added: every Debian list
    installed under five rule sets, each verified, in a fresh store (SQLite, or a new
    database on the PostgreSQL ``server``); the machine's memory in use sampled every half
    second (the workers are separate processes, and so is the server); then the survey of
    the whole store in a fresh process against `ghostdb lookup`."""
    lists, _ = child("world_lists")
    present, absent = lists["present"], lists["absent"]
    db, where = (bench.fresh_db(), "") if server is None else (fresh_server_db(server), "PG ")
    shared = [SHARED / "wordlists" / f for f in SHARED_LISTS]
    added = [a for path in shared if path.is_file() for a in ("--add", str(path))]
    base, peak, stop = used_memory(), [0], threading.Event()

    def sample() -> None:
        while not stop.wait(0.5):
            peak[0] = max(peak[0], used_memory() - base)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        done = run(ghostdb("world", "--jobs", "2", *added, "--db", db, "-q"), 3 * 3600)
    finally:
        stop.set()
        sampler.join()
    note = f"{present + len(added) // 2} lists x 5 rule sets, verified; " + (
        f"not installed: {' '.join(absent)}" if absent else "every Debian list"
    )
    size = child("db_size", db)[0]["bytes"] / 2**30
    rows = [
        at_most(f"{where}world store: build + verify, --jobs 2", done.seconds, 1800.0, secs, note),
        at_most(
            f"{where}world store: peak memory in use",
            peak[0] / 2**20,
            20_000,
            mb,
            f"{size:.1f} GB stored",
        ),
    ]
    ours, base_runs = side_by_side(
        lambda: run(ghostdb("survey", "--db", db)),
        lambda: run(ghostdb("lookup", "polish", "--db", db)),
        READ_PAIRS,
    )
    a = statistics.median(r.seconds for r in ours)
    b = statistics.median(r.seconds for r in base_runs)
    note = f"{secs(a)} against {secs(b)}, medians of {READ_PAIRS}"
    rows.append(at_most(f"{where}world store: survey (kept) / lookup", a / b, 1.3, times, note))
    return rows


WORLD_DATABASE = "ghostdb_bench_world"
"""The database the world store is built in on a PostgreSQL server (made anew)."""


def fresh_server_db(url: str) -> str:
    """A new, empty database `WORLD_DATABASE` on the server of ``url``; its URL."""
    return child("fresh_server_db", url)[0]["url"]


def task_fresh_server_db(url: str) -> dict[str, Any]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {WORLD_DATABASE}"))
        conn.execute(text(f"CREATE DATABASE {WORLD_DATABASE}"))
    engine.dispose()
    made = make_url(url).set(database=WORLD_DATABASE)
    return {"url": made.render_as_string(hide_password=False)}


def task_db_size(url: str) -> dict[str, Any]:
    """The bytes a store takes: its SQLite file, or its PostgreSQL database."""
    from sqlalchemy import create_engine, text

    if "://" not in url:
        return {"bytes": Path(url).stat().st_size}
    engine = create_engine(url)
    with engine.connect() as conn:
        size = conn.execute(text("SELECT pg_database_size(current_database())")).scalar_one()
    engine.dispose()
    return {"bytes": int(size)}


def reads(bench: Bench) -> list[Row]:
    """Whole plans, a comparison and self-play over the stored ENABLE solutions."""
    data, _ = child("reads", bench.enable_db, bench.name)
    rows = [
        at_most(
            f"whole plan, player 1, min length {n} ({words} words)", seconds, 0.1, ms, "median of 5"
        )
        for n, words, seconds in data["plans"]
    ]
    rows.append(at_most("compare min length 3 with 4", data["compare"], 2.0, secs, "median of 3"))
    label = f"selfplay, 1,000 optimal games ({data['moves']:,} moves)"
    rows.append(at_most(label, data["selfplay"], 10.0, secs))
    return rows


def decisive(bench: Bench) -> list[Row]:
    """Decisive words on the stored ENABLE solutions: Ghost/3 with TWL06 as the pool
    (worked out, then read back), and SuperDuperGhost/3's single deletions."""
    pool = SHARED / "wordlists" / "twl06.txt"
    pool_name, _ = ingest(bench.enable_db, pool)
    data, _ = child("decisive", bench.enable_db, bench.name, pool_name)
    name, n = bench.name, data["words"]
    rows = [
        at_most(
            f"{name} Ghost/3: every single deletion ({n:,}) and {pool_name} addition "
            f"({data['pool']:,})",
            data["singles"],
            3.0,
            secs,
            f"reading the stored rows {secs(data['read'])} of it; "
            f"{data['flips']} change the winner",
        ),
        at_most(f"{name} Ghost/3: the fewest edits, exact", data["fewest"], 1.0, secs),
        at_most(
            f"{name} Ghost/3: decisive words kept, read again",
            data["kept"],
            0.05,
            ms,
            f"median of 5; worked out and kept in {secs(data['first'])}",
        ),
    ]
    if bench.duper_db:
        data, done = child("duper_decisive", bench.duper_db, bench.name)
        rows.append(
            at_most(
                f"{name} SuperDuperGhost/3: every single deletion ({data['words']:,})",
                data["singles"],
                60.0,
                secs,
                f"peak memory {mb(done.peak_mb)}; the fewest (a bound, "
                f"{data['fewest']}) {secs(data['bound'])}",
            )
        )
    return rows


def postgres(bench: Bench, url: str) -> list[Row]:
    """The Ghost solve and lookups on a PostgreSQL server (solved again with force), and
    Polish: Ghost/3 alone, then two solves from two processes at once."""
    s = solve_list(bench, bench.wordlist, GHOST, db=url)
    note = f"{s.positions:,} positions; process {secs(s.wall)}"
    title = f"PostgreSQL: {s.name} Ghost/3 solve + persist"
    lookups = f"PostgreSQL: {s.name} lookups through the API"
    rows = [
        at_most(title, s.seconds, 3.0, secs, note),
        *api_lookups(bench, url, s.name, lookups, 30e3),
    ]
    if not POLISH.is_file():
        skipped = f"skipped: no {POLISH} (apt-get install wpolish)"
        return [*rows, Row("PostgreSQL: polish", note=skipped)]
    s = solve_list(bench, POLISH, GHOST, db=url)
    note = f"{s.positions:,} positions; process {secs(s.wall)}, peak {mb(s.peak_mb)}"
    rows.append(at_most("PostgreSQL: polish Ghost/3 solve + persist", s.seconds, 30.0, secs, note))
    rows.append(two_writers(url, s.name))
    return rows


def two_writers(url: str, name: str) -> Row:
    """Two machines' worth of solves into one server: Polish Ghost/4 and Ghost/3 (again)
    in two processes at once; both must publish."""
    start = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--child", "solve", url, name, key],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for key in (GHOST_4, GHOST)
    ]
    outs = [p.communicate(timeout=SOLVE_TIMEOUT) for p in procs]
    wall = time.perf_counter() - start
    title = "PostgreSQL: polish Ghost/4 and Ghost/3 from two processes at once"
    failed = [err.strip() for p, (_, err) in zip(procs, outs, strict=True) if p.returncode]
    if failed:
        return Row(title, "failed", passed=False, note=(failed[0].splitlines() or ["?"])[-1])
    each = [json.loads(out)["seconds"] for out, _ in outs]
    return Row(title, secs(wall), note=f"each solve + persist {secs(each[0])}, {secs(each[1])}")


# -- --scale -------------------------------------------------------------------------------


SCALED = (  # --scale: (family, the whole list, its Debian package); subsets of each
    ("English", BIG_LIST, BIG_LIST_PACKAGE),
    ("Polish", POLISH, POLISH_PACKAGE),
)


def subsets(source: Path, tmp: Path) -> list[Path]:
    """Every k-th word of ``source`` for each k of SUBSETS (written once, streaming), the
    whole list for k = 1; the fewest words first."""
    parts = {k: tmp / f"{list_name(source)}-1-in-{k}.txt" for k in SUBSETS if k > 1}
    handles = {k: path.open("w", encoding="utf-8") for k, path in parts.items()}
    with source.open(encoding="utf-8") as lines:
        for i, line in enumerate(lines):
            for k, handle in handles.items():
                if i % k == 0:
                    handle.write(line)
    for handle in handles.values():
        handle.close()
    return [parts.get(k, source) for k in SUBSETS]


def scale_lists(tmp: Path) -> tuple[dict[str, list[Path]], list[str]]:
    """The lists of each family: the subsets of its list (the shared lists join the
    English ones); why a family's list is missing."""
    lists: dict[str, list[Path]] = {}
    missing = []
    for family, source, package in SCALED:
        if source.is_file():
            lists[family] = subsets(source, tmp)
        else:
            missing.append(f"skipped: no {source} (apt-get install {package})")
    shared = [p for p in (SHARED / "wordlists" / f for f in SHARED_LISTS) if p.is_file()]
    lists["English"] = lists.get("English", []) + shared
    return lists, missing


Scaling = dict[tuple[str, str], list[Solved]]
"""Per rule set and family of lists, the solves of every list, smallest first."""


def scaling(bench: Bench) -> tuple[Scaling, list[str]]:
    """Solve each list for Ghost and SuperDuperGhost, each in its own process; what failed.
    The databases of these solves are deleted once measured, but the one of a solve
    measured before (the big list's, by `big_list`) is reused."""
    lists, missing = scale_lists(bench.tmp)
    found: Scaling = {}
    for key, variant in VARIANTS.items():
        for family, paths in lists.items():
            runs = found[(key, family)] = []
            for path in paths:
                progress(f"--scale: {path.name}, {variant}")
                try:
                    runs.append(solve_list(bench, path, key, drop=True))
                except BenchError as exc:
                    missing.append(f"{path.name}, {variant}: {exc}")
            runs.sort(key=lambda s: s.positions)
    return found, missing


def print_scaling(found: Scaling, missing: list[str]) -> None:
    print(
        "\nscaling: solve + persist as Store.solve reports it; the solve process's peak "
        "memory;\nthe SQLite database after the solve (the words, positions and plans)\n"
    )
    print_table(
        ("rules", "list", "words", "positions", "seconds", "peak MB", "database MB"),
        (
            (
                VARIANTS[key],
                s.name,
                f"{s.words:,}",
                f"{s.positions:,}",
                f"{s.seconds:.2f}",
                f"{s.peak_mb:,.0f}",
                f"{s.db_mb:,.0f}",
            )
            for (key, _), runs in found.items()
            for s in runs
        ),
        right={2, 3, 4, 5, 6},
    )
    for line in missing:
        print(line)


def draw(found: Scaling) -> str:
    """Seconds, peak MB and database MB against positions, log-log, a line per rule set
    and family of lists (colour: rule set; dashed: Polish); what was done."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    except ImportError:
        return "no figure: matplotlib is not installed (pip install matplotlib)"
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5), constrained_layout=True)
    panels = (
        (axes[0], "seconds", "solve + persist (s)"),
        (axes[1], "peak_mb", "peak memory of the solve process (MB)"),
        (axes[2], "db_mb", "SQLite database after the solve (MB)"),
    )
    colours = {key: f"C{i}" for i, key in enumerate(VARIANTS)}
    for ax, attr, ylabel in panels:
        for (key, family), runs in found.items():
            if not runs:
                continue
            ax.plot(
                [s.positions for s in runs],
                [getattr(s, attr) for s in runs],
                marker="o",
                color=colours[key],
                linestyle="--" if family == "Polish" else "-",
                label=f"{VARIANTS[key]}, {family}",
            )
        ax.set(xscale="log", yscale="log", xlabel="positions (fragments)", ylabel=ylabel)
        for axis, label in ((ax.xaxis, compact), (ax.yaxis, "{:,g}".format)):
            axis.set_major_locator(LogLocator(subs=(1, 2, 5)))  # plain numbers, not powers
            axis.set_major_formatter(FuncFormatter(lambda v, _, label=label: label(v)))
            axis.set_minor_formatter(NullFormatter())
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"ghostdb, words of 3+ letters: {machine()}", fontsize=9)
    FIGURE.parent.mkdir(exist_ok=True)
    fig.savefig(FIGURE, dpi=120)
    plt.close(fig)
    return f"figure: {FIGURE.relative_to(SCRIPTS.parent)}"


def compact(n: float) -> str:
    """20k, 1.5M."""
    for size, suffix in ((1e6, "M"), (1e3, "k")):
        if n >= size:
            return f"{n / size:g}{suffix}"
    return f"{n:g}"


# -- hooks: the other scripts/bench_*.py ---------------------------------------------------


def hooks() -> tuple[list[Row], str]:
    """The rows of the hooks that define ``rows()``, and the output of the others (which are
    never imported: a script without a main guard would run on import)."""
    rows: list[Row] = []
    text = ""
    for file in HOOKS:
        path = SCRIPTS / file
        if not path.is_file():
            continue

        def rows_or_output(path: Path = path) -> list[Row]:
            nonlocal text
            tree = ast.parse(path.read_text(encoding="utf-8"))
            if not any(isinstance(f, ast.FunctionDef) and f.name == "rows" for f in tree.body):
                output = run([sys.executable, str(path)], SOLVE_TIMEOUT).out
                text += f"\n{path.name}:\n{output.rstrip()}\n"
                return []
            spec = importlib.util.spec_from_file_location(path.stem, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return [r if isinstance(r, Row) else Row(*r) for r in module.rows()]

        rows += measure(f"hook: {file}", rows_or_output)
    return rows, text


# -- the child's side ----------------------------------------------------------------------


def rules_of(key: str) -> Any:
    from ghostdb.games.registry import parse_rules

    return parse_rules(key)


def task_ingest(db: str, path: str, name: str) -> dict[str, Any]:
    from ghostdb import open_store

    with open_store(db) as store:
        info = store.ingest(path, name=name).dictionary
    return {"name": info.name, "words": info.word_count}


def task_solve(db: str, name: str, key: str) -> dict[str, Any]:
    from ghostdb import open_store

    with open_store(db) as store:
        result = store.solve(name, rules_of(key), force=True)
    return {"positions": result.fragment_count, "seconds": result.seconds}


def task_solution(db: str, name: str, key: str) -> dict[str, Any]:
    from ghostdb import open_store

    with open_store(db, create=False) as store:
        (info,) = (s for s in store.solutions(name) if s.rules == key and s.status == "complete")
    return {"id": info.id}


def task_lookups(db: str, name: str, count: str) -> dict[str, Any]:
    """Random reachable fragments: prefixes of game words up to the first word they hold."""
    import random

    from ghostdb import Rules, open_store

    rules = Rules()
    with open_store(db, create=False) as store:
        words = set(store.words(name, rules.min_length))
        reachable = set()
        for word in words:
            for end in range(len(word) + 1):
                reachable.add(word[:end])
                if word[:end] in words:
                    break
        sample = random.Random(0).choices(sorted(reachable), k=int(count))
        solution = store.solution(name, rules)
        solution.lookup()  # the one warm-up
        rates, batch_rates = [], []
        for _ in range(3):
            start = time.perf_counter()
            for fragment in sample:
                solution.lookup(fragment)
            rates.append(len(sample) / (time.perf_counter() - start))
            start = time.perf_counter()
            for lo in range(0, len(sample), 1000):
                solution.lookup_many(sample[lo : lo + 1000])
            batch_rates.append(len(sample) / (time.perf_counter() - start))
        found = {
            "rate": statistics.median(rates),
            "batch_rate": statistics.median(batch_rates),
            "reachable": len(reachable),
        }
        if store.engine.dialect.name == "postgresql":  # what one lookup cannot beat
            with store.engine.connect() as conn:
                driver = conn.connection.driver_connection
                start = time.perf_counter()
                for _ in range(20_000):
                    driver.execute("SELECT 1").fetchall()
                found["round_trip"] = 20_000 / (time.perf_counter() - start)
    return found


def task_reads(db: str, name: str) -> dict[str, Any]:
    from ghostdb import Rules, open_store

    def median_time(fn: Callable[[], object], runs: int) -> float:
        fn()
        spent = []
        for _ in range(runs):
            start = time.perf_counter()
            fn()
            spent.append(time.perf_counter() - start)
        return statistics.median(spent)

    three, four = Rules(min_length=3), Rules(min_length=4)
    with open_store(db, create=False) as store:
        store.solve(name, four)
        plans = []
        for rules in (three, four):
            solution = store.solution(name, rules)
            size = len(solution.strategy(1).endings)
            seconds = median_time(lambda s=solution: s.strategy(1), 5)
            plans.append((rules.min_length, size, seconds))
        compare = median_time(lambda: store.compare(name, rules=three, vs_rules=four), 3)
        start = time.perf_counter()
        report = store.solution(name, three).selfplay("optimal,optimal", games=1000, seed=0)
        selfplay = time.perf_counter() - start
    moves = sum(len(word) * n for word, n in report.final_words.items())
    return {"plans": plans, "compare": compare, "selfplay": selfplay, "moves": moves}


def task_disk(db: str) -> dict[str, Any]:
    """Bytes of what a solution stores, from SQLite's dbstat: the positions table (its
    B-tree is its primary key; the plans are columns of its rows) and any index of its;
    and the position rows."""
    import sqlite3

    with sqlite3.connect(db) as conn:
        (size,) = conn.execute(
            "SELECT sum(pgsize) FROM dbstat WHERE name IN "
            "(SELECT name FROM sqlite_master WHERE tbl_name = 'positions')"
        ).fetchone()
        (rows,) = conn.execute("SELECT count(*) FROM positions").fetchone()
    return {"bytes": size or 0, "rows": rows}


def task_decisive(db: str, name: str, pool: str) -> dict[str, Any]:
    """Decisive words of Ghost/3: each step timed, then the whole first request (worked
    out and kept), then the kept answer read back."""
    from ghostdb import Rules, open_store
    from ghostdb.store import decisive, dictionaries

    with open_store(db, create=False) as store:
        solution = store.solution(name, Rules(min_length=3))
        start = time.perf_counter()
        words = dictionaries.words(solution.engine, name, 3)
        pool_words = dictionaries.words(solution.engine, pool, 3)
        values = decisive.values(solution)
        read = time.perf_counter() - start
        decider = solution.game.decider(words, values)
        flips = decider.single_deletions("") + decider.single_additions("", pool_words)
        singles = time.perf_counter() - start
        start = time.perf_counter()
        decider.fewest("", pool_words)
        fewest = time.perf_counter() - start
        start = time.perf_counter()
        solution.decisive("", pool)
        first = time.perf_counter() - start
        spent = []
        for _ in range(5):
            start = time.perf_counter()
            solution.decisive("", pool, compute=False)
            spent.append(time.perf_counter() - start)
    return {
        "words": len(words),
        "pool": len(set(pool_words) - set(words)),
        "read": read,
        "singles": singles,
        "flips": len(flips),
        "fewest": fewest,
        "first": first,
        "kept": statistics.median(spent),
    }


def task_duper_decisive(db: str, name: str) -> dict[str, Any]:
    """SuperDuperGhost/3's single deletions at the start, from the stored rows read."""
    from ghostdb import open_store
    from ghostdb.store import decisive, dictionaries

    with open_store(db, create=False) as store:
        solution = store.solution(name, rules_of("superduper/3"))
        start = time.perf_counter()
        words = dictionaries.words(solution.engine, name, 3)
        decider = solution.game.decider(words, decisive.values(solution))
        decider.single_deletions("")
        singles = time.perf_counter() - start
        start = time.perf_counter()
        bound = decider.fewest("")
        seconds = time.perf_counter() - start
    return {
        "words": len(words),
        "singles": singles,
        "bound": seconds,
        "fewest": f"at most {bound.count}" if bound.count else "none found",
    }


def task_world_lists() -> dict[str, Any]:
    """How many of the world's Debian lists are installed, and the packages missing."""
    from ghostdb.world import DEBIAN_LISTS, DICT_DIR

    present = [e for e in DEBIAN_LISTS if (DICT_DIR / e.file).is_file()]
    missing = {e.package for e in DEBIAN_LISTS} - {e.package for e in present}
    return {"present": len(present), "absent": sorted(missing)}


TASKS: dict[str, Callable[..., dict[str, Any]]] = {
    "world_lists": task_world_lists,
    "fresh_server_db": task_fresh_server_db,
    "db_size": task_db_size,
    "ingest": task_ingest,
    "solve": task_solve,
    "solution": task_solution,
    "lookups": task_lookups,
    "reads": task_reads,
    "decisive": task_decisive,
    "disk": task_disk,
    "duper_decisive": task_duper_decisive,
    "pack_probes": task_pack_probes,
    "pack_shares": task_pack_shares,
    "site_first_move": task_site_first_move,
    "learning_api": task_learning_api,
    "puzzle_share": task_puzzle_share,
}


# -- the machine and main ------------------------------------------------------------------


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{platform.system()} {platform.release()} {platform.machine()}, {cpu}, {cores} cores, "
        f"{platform.python_implementation()} {platform.python_version()}"
    )


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def progress(message: str) -> None:
    print(f"... {message}", file=sys.stderr, flush=True)


def measure(name: str, fn: Callable[[], list[Row]]) -> list[Row]:
    """``fn``'s rows, or one failed row saying why it could not measure."""
    progress(name)
    try:
        return fn()
    except Exception as exc:  # a broken measure must not lose the others' figures
        return [Row(name, "error", passed=False, note=str(exc)[:160])]


def compile_ghostdb() -> None:
    """Compile ghostdb's modules to bytecode, as `pip install` does for an installed
    package.  An editable install compiles them on first import, and every time when
    PYTHONDONTWRITEBYTECODE is set: fresh processes would then be timed compiling
    ghostdb's source while SQLAlchemy, the baseline's import, comes compiled.  In a child,
    so that this process imports nothing of ghostdb's."""
    code = (
        "import compileall, ghostdb, ghostdb.migrations as m\n"
        "for folder in (*ghostdb.__path__, *m.__path__):\n"
        "    compileall.compile_dir(folder, quiet=1)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


def everything(bench: Bench, args: argparse.Namespace) -> list[Row]:
    """Every row but the scaling table's (the world store's with --world)."""
    rows = measure("Ghost, side by side with the notebook", lambda: enable_ghost(bench))
    if not args.quick:
        rows += measure("SuperDuperGhost, side by side", lambda: enable_duper(bench))
    rows += measure("lookups", lambda: lookups(bench))
    rows += measure("games", lambda: games(bench))
    rows += measure("Connect Four", lambda: connect_four(bench, args.quick))
    if not args.quick:
        rows += measure("Insert, Anagram, 3 players", lambda: variants(bench))
    if args.quick:
        rows.append(Row(f"SuperDuperGhost, {list_name(BIG_LIST)}", note="skipped (--quick)"))
    else:
        rows += measure("big list", lambda: big_list(bench))
    rows += measure("packs and the offline site", lambda: enable_packs(bench))
    rows += measure("analysis, puzzles, common players", lambda: learning(bench))
    rows += measure("Polish", lambda: polish(bench, args.quick))
    rows += measure("plans, comparison, self-play", lambda: reads(bench))
    rows += measure("verify", lambda: verify(bench))
    # After verify: a kept answer is re-checked by verify too (about a second more).
    rows += measure("decisive words", lambda: decisive(bench))
    if not args.quick:
        rows += measure("solve --all in worker processes", lambda: parallel(bench))
    if args.postgres:
        rows += measure("PostgreSQL", lambda: postgres(bench, args.postgres))
    if args.world or args.all:
        rows += world_rows(bench, args.postgres)
    return rows


def world_rows(bench: Bench, server: str | None, *, sqlite: bool = True) -> list[Row]:
    """The world store on SQLite, and on the PostgreSQL ``server`` if given."""
    rows = measure("the world store", lambda: world_store(bench)) if sqlite else []
    if server:
        rows += measure("the world store on PostgreSQL", lambda: world_store(bench, server))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordlist", type=Path, default=DEFAULT_LIST)
    parser.add_argument("--lookups", type=int, default=100_000, help="lookups per round")
    parser.add_argument(
        "--quick", action="store_true", help="leave out the SuperDuperGhost rows and the big list"
    )
    parser.add_argument(
        "--scale", action="store_true", help="also solve lists of growing size and draw a figure"
    )
    parser.add_argument("--postgres", metavar="URL", help="also solve and look up on this server")
    parser.add_argument(
        "--all", action="store_true", help="--scale, and the other scripts/bench_*.py"
    )
    parser.add_argument(
        "--world", action="store_true", help="also build the world store (ghostdb world)"
    )
    parser.add_argument(
        "--only",
        choices=["world", "world-postgres", "packs", "learning", "polish"],
        help="measure only the world store (on SQLite and the --postgres server, or on the "
        "server), or only the word list's packs and the offline site, or only Debian's "
        "Polish list (its solves, kept answers, packs, probes, Parquet and verify)",
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(TASKS[args.child[0]](*args.child[1:])))
        return
    for path, why in (
        (args.wordlist, "pass --wordlist PATH"),
        (Path(ghostdb()[0]), "install ghostdb in this Python's environment"),
        (PEER, "the notebook peer is to be beside the project"),
    ):
        if not path.exists():
            sys.exit(f"error: no {path}: {why}")

    compile_ghostdb()
    print(f"ghostdb benchmark, {time.strftime('%Y-%m-%d %H:%M')}: {machine()}")
    print(f"load average (1, 5, 15 min) at start: {load()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="ghostdb-bench-") as tmp:
        bench = Bench(Path(tmp), args.wordlist.resolve(), args.lookups)
        if args.only == "world-postgres" and not args.postgres:
            sys.exit("error: --only world-postgres needs --postgres URL")
        if args.only == "packs":
            rows = measure("packs and the offline site", lambda: enable_packs(bench))
        elif args.only == "learning":
            rows = measure("analysis, puzzles, common players", lambda: learning(bench))
        elif args.only == "polish":
            rows = measure("Polish", lambda: polish(bench, args.quick))
        elif args.only:
            rows = world_rows(bench, args.postgres, sqlite=args.only == "world")
        else:
            rows = everything(bench, args)
        scaled = scaling(bench) if args.scale or args.all else None
    # Last: importing a hook may make this process big, and children inherit its peak.
    hook_rows, hook_text = hooks() if args.all else ([], "")
    print()
    print_rows(rows + hook_rows)
    failed = sum(r.passed is False for r in rows + hook_rows)
    print(f"\n{sum(r.passed is True for r in rows + hook_rows)} passed, {failed} failed")
    if scaled:
        print_scaling(*scaled)
        print(draw(scaled[0]))
    print(hook_text, end="")
    print(f"\nload average at end: {load()}")


if __name__ == "__main__":
    main()
