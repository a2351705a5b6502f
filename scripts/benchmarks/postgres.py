"""With --postgres URL: the word list's Ghost/3 solve and lookups on that server (and the
bare round trip through the driver that one lookup at a time cannot beat), Polish's
Ghost/3 there too, then two solves from two processes at once."""

from __future__ import annotations

import json
import subprocess
import time

from .lookups import api_lookups
from .runner import (
    GHOST,
    GHOST_4,
    POLISH,
    SOLVE_TIMEOUT,
    Bench,
    Row,
    at_most,
    child_command,
    mb,
    secs,
)
from .solving import solve_list


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
            child_command("solve", url, name, key),
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
