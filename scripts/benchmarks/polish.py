"""Debian's Polish list, the biggest real one: ingest, Ghost/3 and SuperDuperGhost/3
solved, their bytes a position in memory and on disk, what keeping their whole-solution
answers added to the solve, decisive words, every whole-solution read command once kept
against `ghostdb lookup`, each solution packed and probed against `ghostdb lookup`, the
Parquet export, and verify of each."""

from __future__ import annotations

import functools
import re
import statistics
from pathlib import Path
from typing import Any

from .packs import pack_probes
from .runner import (
    DUPER,
    GHOST,
    POLISH,
    READ_PAIRS,
    SOLVE_TIMEOUT,
    VARIANTS,
    Bench,
    Row,
    Run,
    Task,
    at_most,
    child,
    ghostdb,
    mb,
    run,
    secs,
    side_by_side,
    times,
)
from .solving import solve_list

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


# -- the child's side ----------------------------------------------------------------------


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


TASKS: dict[str, Task] = {"disk": task_disk}
