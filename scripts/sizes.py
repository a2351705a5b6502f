"""What each solution adds to a SQLite database: the manual's "Database size" table (How it works).

    python scripts/sizes.py [--only RULES ...] [--timeout SECONDS]

For each row a fresh SQLite database in a temporary directory: for the word-list rows,
`ghostdb ingest` of ENABLE (../shared/wordlists/enable1.txt), then `VACUUM` and its size
with only the list; then `ghostdb solve` of the rule set, `VACUUM` again, and the size the
solution adds.  A stand-alone game's figure is its whole file (no list to subtract).
Positions are the solve job's count (`ghostdb solutions NAME --json`); bytes a position is
the size added over the positions.  MB are 10^6 bytes.

Prints the markdown table in the manual's form, then the size of the ingested list alone.
--only keeps the rows of the given rule sets (e.g. --only ghost/3 tictactoe).
Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

WORDLIST = Path(__file__).resolve().parents[1].parent / "shared" / "wordlists" / "enable1.txt"
DICTIONARY = "enable1"
TIMEOUT = 1800.0  # seconds a command may take; Connect Four 5 x 4 takes a minute or two


@dataclass(frozen=True)
class Case:
    label: str
    """The row's label in the manual's table."""
    rules: str
    """The rule set as `ghostdb solutions` names it."""
    solve: tuple[str, ...]
    """The `ghostdb solve` arguments: the name, then options."""
    wordlist: bool
    """Whether the rule set plays over the ingested list (else a stand-alone game)."""


def enable(label: str, rules: str) -> Case:
    variant, min_length = rules.split("/")
    return Case(
        f"ENABLE, {label} (`{rules}`)",
        rules,
        (DICTIONARY, "--rules", variant, "--min-length", min_length),
        wordlist=True,
    )


def connect_four(width: int, height: int) -> Case:
    return Case(
        f"Connect Four {width} × {height}",
        f"connectfour/{width}x{height}",
        ("connectfour", "--width", str(width), "--height", str(height)),
        wordlist=False,
    )


CASES = (
    enable("Ghost 3+", "ghost/3"),
    enable("Ghost 4+", "ghost/4"),
    enable("SuperGhost 3+", "super/3"),
    enable("SuperDuperGhost 3+", "superduper/3"),
    enable("Insert Ghost 3+", "insert/3"),
    enable("Anagram Ghost 3+", "anagram/3"),
    Case("Chopsticks (`chopsticks/5`)", "chopsticks/5", ("chopsticks",), wordlist=False),
    Case("tic-tac-toe", "tictactoe", ("tictactoe",), wordlist=False),
    connect_four(4, 4),
    connect_four(4, 5),
    connect_four(5, 4),
)


@dataclass(frozen=True)
class Size:
    case: Case
    positions: int
    added: int
    """Bytes the solution adds after VACUUM."""
    listed: int
    """Bytes of the database with only the ingested list (0 for a stand-alone game)."""


class SizesError(Exception):
    """A ghostdb command failed or answered something unexpected."""


def ghostdb(*args: str) -> list[str]:
    """The `ghostdb` command installed beside this Python."""
    return [str(Path(sys.executable).with_name("ghostdb")), *args]


def run(cmd: Sequence[str], cwd: Path, timeout: float) -> str:
    """Run ``cmd`` to its end and return its stdout; raise SizesError if it fails."""
    try:
        done = subprocess.run(
            cmd,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as e:
        raise SizesError(f"{' '.join(cmd[1:4])}: stopped after {timeout:.0f} s") from e
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        raise SizesError(f"{' '.join(cmd[1:4])}: {last[0]}")
    return done.stdout


def vacuumed_size(db: Path) -> int:
    """VACUUM the database, fold its write-ahead log in, and return its size in bytes."""
    con = sqlite3.connect(db)
    try:
        con.execute("VACUUM")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (pages,) = con.execute("PRAGMA page_count").fetchone()
        (page_size,) = con.execute("PRAGMA page_size").fetchone()
    finally:
        con.close()
    return int(pages) * int(page_size)


def positions(db: Path, case: Case, cwd: Path, timeout: float) -> int:
    """The positions of the case's complete solve job, as `ghostdb solutions` lists them."""
    name = case.solve[0]
    jobs = json.loads(run(ghostdb("solutions", name, "--json", "--db", str(db)), cwd, timeout))
    counts = [
        job["fragment_count"]
        for job in jobs
        if job["rules"] == case.rules and job["status"] == "complete"
    ]
    if len(counts) != 1:
        raise SizesError(f"{name}: {len(counts)} complete solutions of {case.rules}")
    return int(counts[0])


def measure(case: Case, timeout: float) -> Size:
    """Solve ``case`` in a fresh database and measure what the solution adds."""
    with tempfile.TemporaryDirectory(prefix="ghostdb-sizes-") as tmp:
        cwd = Path(tmp)
        db = cwd / "sizes.db"
        listed = 0
        if case.wordlist:
            ingest = ghostdb("ingest", str(WORDLIST), "--name", DICTIONARY, "--db", str(db))
            run(ingest, cwd, timeout)
            listed = vacuumed_size(db)
        run(ghostdb("solve", *case.solve, "--quiet", "--db", str(db)), cwd, timeout)
        total = vacuumed_size(db)
        return Size(case, positions(db, case, cwd, timeout), total - listed, listed)


def megabytes(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def table(sizes: Sequence[Size]) -> list[str]:
    """The manual's markdown table."""
    lines = [
        "| what | positions | database | bytes a position |",
        "|---|---:|---:|---:|",
    ]
    for s in sizes:
        per = round(s.added / s.positions) if s.positions else 0
        lines.append(f"| {s.case.label} | {s.positions:,} | {megabytes(s.added)} | {per:,} |")
    return lines


def chosen(only: Sequence[str] | None) -> list[Case]:
    if not only:
        return list(CASES)
    known = {c.rules for c in CASES}
    unknown = sorted(set(only) - known)
    if unknown:
        raise SizesError(f"no row for {', '.join(unknown)} (rows: {', '.join(sorted(known))})")
    return [c for c in CASES if c.rules in only]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="RULES", help="only these rule sets")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds a command may take")
    args = parser.parse_args(argv)
    try:
        cases = chosen(args.only)
        if any(c.wordlist for c in cases) and not WORDLIST.is_file():
            raise SizesError(f"the ENABLE word list is missing: {WORDLIST}")
        sizes = []
        for case in cases:
            print(f"{case.rules} ...", end=" ", file=sys.stderr, flush=True)
            start = time.perf_counter()
            sizes.append(measure(case, args.timeout))
            print(f"{time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    except SizesError as e:
        print(f"\nsizes.py: {e}", file=sys.stderr)
        return 1
    print("\n".join(table(sizes)))
    listed = [s.listed for s in sizes if s.case.wordlist]
    if listed:
        print(f"\nThe ingested ENABLE list itself takes {megabytes(max(listed))}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
