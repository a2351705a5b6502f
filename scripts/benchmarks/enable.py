"""The word list's solves (ENABLE unless --wordlist): Ghost/3 as two `ghostdb` processes
and SuperDuperGhost/3 side by side with the notebook peer, Insert and Anagram Ghost and
three players, and `solve --all` in one worker process and in two."""

from __future__ import annotations

import re
import statistics

from .runner import (
    SOLVE_TIMEOUT,
    Bench,
    Row,
    Run,
    at_most,
    ghostdb,
    mb,
    peer,
    run,
    secs,
    side_by_side,
    times,
    versus,
)
from .solving import ingest, solve_list

# A fresh process's time varies by a tenth from run to run here, as much as the margin of
# the two start-up ratios (this and lookups.py's): their medians are taken over more pairs
# than the rest.
ENABLE_PAIRS, DUPER_PAIRS = 9, 3
# Plain Ghost on ENABLE, solve + persist in the process, as the README gave it before the
# schema took in other games (level in the key, four outcomes): not to be slower.
PLAIN_GHOST_BEFORE_GAMES = 1.32


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
