"""`ghostdb verify` as a fresh process on the word list's stored Ghost/3 and
SuperDuperGhost/3 solutions, best of 3."""

from __future__ import annotations

from .runner import DUPER, GHOST, VARIANTS, Bench, Row, at_most, ghostdb, mb, run, secs


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
