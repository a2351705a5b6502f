"""The runner every area shares: what a row says, running a child and timing it, the
rows of two commands side by side, where a run keeps its databases, and the child's side
(a task of the registry run in a fresh process, its answer printed as JSON).

Only the standard library is imported here, as in every module of the package at its top:
the measuring process stays small, since a child inherits its parent's peak at the exec.
"""

from __future__ import annotations

import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent.parent
ENTRY = SCRIPTS / "bench.py"
"""The script a child runs (``bench.py --child TASK ARG...``)."""
SHARED = SCRIPTS.parent.parent / "shared"
DEFAULT_LIST = SHARED / "wordlists" / "enable1.txt"
SHARED_LISTS = ("enable1.txt", "twl06.txt", "WORD.LST", "ubuntu-words.txt")
PEER = SHARED / "peers" / "notebook_ghost.py"
BIG_LIST = Path("/usr/share/dict/american-english-insane")
POLISH = Path("/usr/share/dict/polish")
BIG_LIST_PACKAGE = "wamerican-insane"
POLISH_PACKAGE = "wpolish"

GHOST, DUPER, ANAGRAM = "ghost/3", "superduper/3", "anagram/3"
GHOST_4 = "ghost/4"
VARIANTS = {GHOST: "Ghost", DUPER: "SuperDuperGhost", ANAGRAM: "Anagram Ghost"}
READ_PAIRS = 7  # a fresh read command side by side with `ghostdb lookup`: pairs
SOLVE_TIMEOUT = 900.0  # seconds: a runaway solve on a shared machine is stopped, not waited for

Task = Callable[..., dict[str, Any]]
"""What a child runs: strings in, a JSON-able dict out."""


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
    cpu: float = 0.0
    """The process's own CPU time, user and system (steadier than the wall on a busy
    machine)."""


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
            raise BenchError(f"{shown(cmd)}: stopped after {timeout:.0f} s")
        if proc.returncode != 0:
            last = err.read().strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
            raise BenchError(f"{shown(cmd)}: {last[0]}")
        return Run(seconds, usage.ru_maxrss / 1024, out.read(), usage.ru_utime + usage.ru_stime)


def shown(cmd: Sequence[str]) -> str:
    """The program and two arguments: ``ghostdb solve enable1``, ``bench.py --child solve``."""
    words = list(cmd[1:] if cmd[0] == sys.executable else cmd)
    return " ".join([Path(words[0]).name, *words[1:3]])


def ghostdb(*args: str) -> list[str]:
    """The `ghostdb` command installed beside this Python."""
    return [str(Path(sys.executable).with_name("ghostdb")), *args]


def peer(wordlist: Path, kind: str) -> list[str]:
    return [sys.executable, str(PEER), str(wordlist), "3", kind, "all"]


def child_command(task: str, *args: object) -> list[str]:
    """The command that runs the task ``task`` of the registry in a fresh Python."""
    return [sys.executable, str(ENTRY), "--child", task, *map(str, args)]


def child(task: str, *args: object, timeout: float | None = None) -> tuple[dict[str, Any], Run]:
    """Run one of the registry's tasks (`suite.TASKS`) in a fresh Python process: what it
    printed, and how it ran."""
    done = run(child_command(task, *args), timeout)
    return json.loads(done.out), done


def answer_child(tasks: Mapping[str, Task], argv: Sequence[str]) -> None:
    """The child's side: run the task named by ``argv[0]`` on the rest, print its JSON."""
    print(json.dumps(tasks[argv[0]](*argv[1:])))


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


# -- where a run keeps its databases -------------------------------------------------------


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
    """A database holding the word list solved for Ghost (words of 3+ letters)."""
    duper_db: str = ""
    """A database holding the word list solved for SuperDuperGhost (words of 3+ letters)."""
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


# -- the run as a whole --------------------------------------------------------------------


def progress(message: str) -> None:
    print(f"... {message}", file=sys.stderr, flush=True)


def measure(name: str, fn: Callable[[], list[Row]]) -> list[Row]:
    """``fn``'s rows, or one failed row saying why it could not measure."""
    progress(name)
    try:
        return fn()
    except Exception as exc:  # a broken measure must not lose the others' figures
        return [Row(name, "error", passed=False, note=str(exc)[:160])]


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
