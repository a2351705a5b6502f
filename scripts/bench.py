"""Speed and memory figures for ghostdb on ENABLE, printed as a table with the targets.

    python scripts/bench.py [--wordlist PATH] [--lookups N] [--quick]

Each row is measured on a fresh database in a temporary folder: ingest, then solve and
persist every fragment (each solve in a child process, so its peak memory is its own),
then lookups through the Python API, `ghostdb lookup` as a fresh process, plan extraction
and comparison.  ``--quick`` leaves out the SuperDuperGhost solve.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_LIST = ROOT.parent / "shared" / "wordlists" / "enable1.txt"


def build(db: str, wordlist: str, key: str) -> None:
    """Child process: ingest (if needed) and solve; print timings and peak memory as JSON."""
    from ghostdb import Rules, open_store

    with open_store(db) as store:
        t0 = time.perf_counter()
        store.ingest(wordlist)
        t1 = time.perf_counter()
        store.solve(Path(wordlist).stem, Rules.from_key(key))
        t2 = time.perf_counter()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"ingest": t1 - t0, "solve": t2 - t1, "peak_mb": peak_mb}))


def child(db: str, wordlist: str, key: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", db, wordlist, key],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    return json.loads(out)


def best_of(fn: Callable[[], object], runs: int = 5) -> float:
    """The median wall time of ``fn`` over ``runs`` calls, after one warm-up call."""
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def reads(db: str, name: str) -> list[tuple[str, str, str]]:
    from ghostdb import Rules, open_store

    rows = []
    with open_store(db) as store:
        for player, min_length in ((1, 3), (1, 4)):
            rules = Rules(min_length=min_length)
            size = len(store.strategy(name, player, "", rules).endings)
            seconds = best_of(lambda r=rules, p=player: store.strategy(name, p, "", r))
            label = f"whole plan, player {player}, min length {min_length} ({size} words)"
            rows.append((label, f"{seconds * 1000:.0f} ms", "<= 100 ms"))
        seconds = best_of(
            lambda: store.compare(name, rules=Rules(min_length=3), vs_rules=Rules(min_length=4)),
            runs=3,
        )
        rows.append(("compare min length 3 with 4", f"{seconds:.2f} s", "<= 2.0 s"))
        t0 = time.perf_counter()
        report = store.selfplay(name, Rules(), "optimal,optimal", games=1000, seed=0)
        seconds = time.perf_counter() - t0
        moves = sum(len(w) * n for w, n in report.final_words.items())
        rows.append((f"selfplay, 1,000 optimal games ({moves:,} moves)", f"{seconds:.2f} s",
                     "<= 10 s"))  # fmt: skip
    return rows


def lookups_per_second(db: str, name: str, count: int) -> float:
    from ghostdb import open_store

    with open_store(db) as store, store.engine.connect() as conn:
        from sqlalchemy import select

        from ghostdb.schema import positions

        fragments = list(
            conn.execute(
                select(positions.c.fragment).where(positions.c.reachable.is_(True))
            ).scalars()
        )
    random.seed(0)
    sample = random.choices(fragments, k=count)
    with open_store(db) as store:
        store.lookup(name, "")  # warm: caches the solution id and compiles the query
        t0 = time.perf_counter()
        for fragment in sample:
            store.lookup(name, fragment)
        return count / (time.perf_counter() - t0)


def cli_seconds(db: str, name: str, runs: int = 7) -> float:
    exe = shutil.which("ghostdb") or str(Path(sys.executable).with_name("ghostdb"))
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([exe, "lookup", name, "gho", "--db", db], check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordlist", default=str(DEFAULT_LIST))
    parser.add_argument("--lookups", type=int, default=20_000)
    parser.add_argument("--quick", action="store_true", help="leave out SuperDuperGhost")
    parser.add_argument("--child", nargs=3, metavar=("DB", "LIST", "RULES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        build(*args.child)
        return
    if not Path(args.wordlist).is_file():
        sys.exit(f"error: no word list at {args.wordlist}: pass --wordlist PATH")
    name = Path(args.wordlist).stem
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        figures = child(db, args.wordlist, "ghost/3")
        total = figures["ingest"] + figures["solve"]
        rows += [
            ("ingest (min length 3)", f"{figures['ingest']:.2f} s", ""),
            ("solve + persist every fragment", f"{figures['solve']:.2f} s", ""),
            ("ingest + solve + persist", f"{total:.2f} s", "<= 2.0 s"),
            ("peak memory of the above", f"{figures['peak_mb']:.0f} MB", "<= 600 MB"),
        ]
        rate = lookups_per_second(db, name, args.lookups)
        rows.append(("lookups through the Python API", f"{rate:,.0f} /s", ">= 20,000 /s"))
        rows.append(("`ghostdb lookup` as a fresh process", f"{cli_seconds(db, name):.2f} s",
                     "<= 0.5 s"))  # fmt: skip
        child(db, args.wordlist, "ghost/4")
        rows += reads(db, name)
        if not args.quick:
            figures = child(db, args.wordlist, "superduper/3")
            rows += [
                ("SuperDuperGhost min 3: solve + persist", f"{figures['solve']:.1f} s",
                 "<= 20 s"),
                ("peak memory of the above", f"{figures['peak_mb']:,.0f} MB", "<= 3,000 MB"),
            ]  # fmt: skip
    print(f"ghostdb benchmark on {Path(args.wordlist).name}; {platform.machine()}, "
          f"{platform.python_implementation()} {platform.python_version()}, "
          f"{_cores()} cores")  # fmt: skip
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'result':>14}  target")
    print(f"{'-' * width}  {'-' * 14}  {'-' * 14}")
    for label, value, target in rows:
        print(f"{label:<{width}}  {value:>14}  {target}")


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 0


if __name__ == "__main__":
    main()
