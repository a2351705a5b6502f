"""`ghostdb verify` as a fresh process: of the word list's stored Ghost/3 and
SuperDuperGhost/3 solutions, best of 3 (`verify`); and side by side with the solve of
the same rules (`against_solve`, ``--only verify``), a stored solution's verify and its
pack's, on the word list's SuperDuperGhost/3 and Anagram Ghost/3 (whose pack is checked
from its own moves, not a graph made again) and Debian's Polish Ghost/3."""

from __future__ import annotations

import statistics
from pathlib import Path

from .runner import (
    ANAGRAM,
    DUPER,
    GHOST,
    POLISH,
    POLISH_PACKAGE,
    SOLVE_TIMEOUT,
    VARIANTS,
    Bench,
    Row,
    Run,
    at_most,
    ghostdb,
    list_name,
    mb,
    run,
    secs,
    times,
)
from .solving import ingest

ROUNDS = 3
"""Rounds of the solve and the two verifies, each round in another order."""
PACK_LIMIT, STORE_LIMIT = 1.5, 2.0
"""Issue 45's targets: a pack's verify and a stored solution's, against the solve."""


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


def against_solve(bench: Bench) -> list[Row]:
    """`ghostdb solve`, `ghostdb verify NAME` and `ghostdb verify FILE` (its pack) in
    turn, `ROUNDS` times, on the word list's SuperDuperGhost/3 and Anagram Ghost/3 and
    Polish Ghost/3: each
    verify's median against the solve's (targets 1.5 for the pack, 2 for the store) and
    its peak memory against the solve's."""
    rows = []
    for path, key in ((bench.wordlist, DUPER), (bench.wordlist, ANAGRAM), (POLISH, GHOST)):
        if path.is_file():
            rows += _side_by_side(bench, path, key)
        else:
            title = f"{list_name(path)} {VARIANTS[key]}/3 verify against the solve"
            rows.append(Row(title, note=f"skipped: no {path} (apt-get install {POLISH_PACKAGE})"))
    return rows


def _side_by_side(bench: Bench, path: Path, key: str) -> list[Row]:
    db = bench.fresh_db()
    name, _ = ingest(db, path)
    variant = key.split("/")[0]
    flags = ["--rules", variant, "--db", db]
    pack = str(bench.tmp / f"{name}-{variant}.ghostpack")
    commands = {
        "solve": ghostdb("solve", name, *flags, "--force", "--quiet"),
        "verify NAME (the store)": ghostdb("verify", name, *flags),
        "verify FILE (its pack)": ghostdb("verify", pack),
    }
    run(commands["solve"], SOLVE_TIMEOUT)  # a first solve to pack: not counted
    run(ghostdb("pack", name, "--rules", variant, "-o", pack, "--db", db), SOLVE_TIMEOUT)
    runs: dict[str, list[Run]] = {label: [] for label in commands}
    for i in range(ROUNDS):
        order = list(commands)[i % 3 :] + list(commands)[: i % 3]
        for label in order:
            runs[label].append(run(commands[label], SOLVE_TIMEOUT))
    title = f"{name} {VARIANTS[key]}/3"
    solve = runs["solve"]
    rows = [_median_row(f"{title} {label}", found) for label, found in runs.items()]
    for label, limit in (
        ("verify FILE (its pack)", PACK_LIMIT),
        ("verify NAME (the store)", STORE_LIMIT),
    ):
        found = runs[label]
        cpu = _median(found, "cpu") / _median(solve, "cpu")
        rows.append(
            at_most(
                f"{title} {label} / solve",
                _median(found, "seconds") / _median(solve, "seconds"),
                limit,
                times,
                f"medians of {ROUNDS}, wall; CPU time {cpu:.2f}x",
            )
        )
        rows.append(
            at_most(
                f"{title} {label}: peak memory",
                max(r.peak_mb for r in found),
                max(r.peak_mb for r in solve),
                mb,
                "the solve's own peak is the target",
            )
        )
    return rows


def _median(runs: list[Run], field: str) -> float:
    return statistics.median(getattr(r, field) for r in runs)


def _median_row(measure: str, runs: list[Run]) -> Row:
    seconds = [r.seconds for r in runs]
    note = (
        f"median of {len(runs)}, {min(seconds):.2f}-{max(seconds):.2f} s; CPU "
        f"{_median(runs, 'cpu'):.2f} s; peak {mb(max(r.peak_mb for r in runs))}"
    )
    return Row(measure, secs(statistics.median(seconds)), note=note)
