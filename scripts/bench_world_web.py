"""Benchmark `ghostdb serve` over a world store: 16 clients at once, every endpoint mixed,
over random dictionaries and rule sets; p99 latency, errors and the server's peak memory
beside their targets.

    python scripts/bench_world_web.py --db WORLD.db [--clients 16] [--seconds 30]
                                      [--compare 6]

``WORLD.db`` is a store `ghostdb world` built.  Before loading, ``--compare`` comparisons
of random pairs (two dictionaries, or two rule sets of one) are worked out with `ghostdb
compare` (the server only reads them); the clients then ask for those, for positions (a
random stored fragment of a random solution, as the page's play does), computer moves,
reports, plans from the start, the openings' plans, lines, the catalogue and the games,
and, a request in twenty, a comparison nobody worked out (a 404 naming the command: the
server never scans a solution).  Each client is a thread of this process with its own
keep-alive connection, sending its next request when the answer arrives.

Targets (issue "every question instant"): p99 <= 50 ms over every request, no error (a
5xx or a broken connection; the expected 404s are counted apart), server peak resident
memory <= 500 MB.  The first ``--warmup`` seconds of load (20) are not counted in the
latencies, only shown apart: meanwhile the server reads the store through into the
system's cache (`ghostdb.store.sql.db.warm`), and until then a request may wait on the disk.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlencode

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))

from bench_web import free_port  # noqa: E402


def solutions(db: Path) -> list[tuple[str, str]]:
    """Every published (dictionary, rule-set key) of the store."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(
            "SELECT d.name, s.rules FROM solutions s JOIN dictionaries d "
            "ON d.id = s.dictionary_id WHERE s.status = 'complete' ORDER BY 1, 2"
        ).fetchall()


def sample_fragments(db: Path, count: int = 40) -> dict[tuple[str, str], list[str]]:
    """A few reachable fragments of every solution, read with sqlite3 (short ones first:
    they are what a game passes through)."""
    found: dict[tuple[str, str], list[str]] = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT d.name, s.rules, s.id FROM solutions s JOIN dictionaries d "
            "ON d.id = s.dictionary_id WHERE s.status = 'complete'"
        ).fetchall()
        for name, key, sid in rows:
            frags = conn.execute(
                "SELECT fragment FROM positions WHERE solution_id = ? AND level <= 3 "
                "AND reachable LIMIT ?",
                (sid, count),
            ).fetchall()
            found[(name, key)] = [f for (f,) in frags]
    return found


def work_out_comparisons(db: Path, pairs: list[tuple[tuple[str, str], tuple[str, str]]]) -> None:
    """Work each comparison out and keep it, as `ghostdb compare` does."""
    from ghostdb import open_store
    from ghostdb.games.registry import parse_rules

    with open_store(db, create=True) as store:
        for (a, ra), (b, rb) in pairs:
            store.compare(a, b, parse_rules(ra), parse_rules(rb))


def urls(
    rng: random.Random,
    frags: dict[tuple[str, str], list[str]],
    kept: list[tuple[tuple[str, str], tuple[str, str]]],
    missing: list[tuple[tuple[str, str], tuple[str, str]]],
) -> str:
    """One request of the mix."""
    keys = list(frags)
    name, key = rng.choice(keys)
    rules = {"rules": key}
    pick = rng.random()
    if pick < 0.40:
        f = rng.choice(frags[(name, key)] or [""])
        return f"/api/{quote(name)}/position?{urlencode({**rules, 'position': f})}"
    if pick < 0.55:
        f = rng.choice(frags[(name, key)] or [""])
        return f"/api/{quote(name)}/move?{urlencode({**rules, 'position': f})}"
    if pick < 0.62:
        return f"/api/{quote(name)}/report"
    if pick < 0.70:
        return f"/api/{quote(name)}/strategy?{urlencode({**rules, 'player': rng.randint(0, 1)})}"
    if pick < 0.77:
        return f"/api/{quote(name)}/openings?{urlencode({**rules, 'words': 'true'})}"
    if pick < 0.82:
        f = rng.choice(frags[(name, key)] or [""])
        return f"/api/{quote(name)}/line?{urlencode({**rules, 'position': f})}"
    if pick < 0.86:
        return rng.choice(["/api/solutions", "/api/games"])
    pairs = missing if pick > 0.95 and missing else kept
    (a, ra), (b, rb) = rng.choice(pairs)
    return "/api/compare?" + urlencode({"a": a, "b": b, "rules": ra, "vs_rules": rb})


def client(
    port: int,
    seed: int,
    deadline: float,
    make: dict[str, object],
    out: list[tuple[float, int, str, float]],
) -> None:
    rng = random.Random(seed)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while time.perf_counter() < deadline:
        url = urls(rng, **make)  # type: ignore[arg-type]
        began = time.perf_counter()
        try:
            conn.request("GET", url)
            response = conn.getresponse()
            body = response.read()
            status = response.status
            if status >= 500 and len(ERRORS) < 5:
                ERRORS.append(f"{status} {url}: {body[:200]!r}")
        except OSError:
            status = 0
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        kind = url.split("?")[0].rsplit("/", 1)[-1]
        out.append((time.perf_counter() - began, status, kind, began))


ERRORS: list[str] = []
"""The first few error answers, shown after the table."""


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--compare", type=int, default=6)
    parser.add_argument(
        "--warmup",
        type=float,
        default=20,
        help="seconds of load first, not counted: the server reads the store into the "
        "system's cache meanwhile (shown apart)",
    )
    args = parser.parse_args()
    rng = random.Random(7)
    solved = solutions(args.db)
    by_name: dict[str, list[str]] = {}
    for name, key in solved:
        by_name.setdefault(name, []).append(key)
    pairs = []
    for _ in range(args.compare * 2):
        name, key = rng.choice(solved)
        if rng.random() < 0.5:
            other = rng.choice([k for k in by_name[name] if k != key])
            pairs.append(((name, key), (name, other)))
        else:
            others = [n for n in by_name if n != name and key in by_name[n]]
            pairs.append(((name, key), (rng.choice(others), key)))
    kept, missing = pairs[: args.compare], pairs[args.compare :]
    t = time.perf_counter()
    work_out_comparisons(args.db, kept)
    print(f"{len(kept)} comparisons worked out in {time.perf_counter() - t:.1f} s", flush=True)
    frags = sample_fragments(args.db)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "ghostdb", "serve", "--db", str(args.db), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
                probe.request("GET", "/api/games")
                if probe.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        results: list[tuple[float, int, str, float]] = []
        make = {"frags": frags, "kept": kept, "missing": missing}
        began = time.perf_counter()
        counted_from = began + args.warmup
        deadline = counted_from + args.seconds
        threads = [
            threading.Thread(target=client, args=(port, i, deadline, make, results))
            for i in range(args.clients)
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        memory = peak_mb(server.pid)
    finally:
        server.terminate()
        server.wait(10)
    warming = sorted(r[0] for r in results if r[3] < counted_from)
    errors = sum(1 for _, status, _, _ in results if status == 0 or status >= 500)
    results = [r for r in results if r[3] >= counted_from]
    times = sorted(r[0] for r in results)
    p99 = times[int(len(times) * 0.99)] * 1000
    not_kept = sum(1 for _, status, _, _ in results if status == 404)
    rows = []
    if warming:
        shown = f"{len(warming):,}, p99 {warming[int(len(warming) * 0.99)] * 1000:.1f} ms"
        rows.append((f"warm-up, first {args.warmup:.0f} s (not counted)", shown, "", ""))
    rows += [
        ("requests", f"{len(results):,} in {args.seconds:.0f} s", "", ""),
        ("median", f"{statistics.median(times) * 1000:.1f} ms", "", ""),
        ("p99", f"{p99:.1f} ms", "<= 50 ms", "pass" if p99 <= 50 else "FAIL"),
        ("errors (5xx, broken), warm-up too", f"{errors}", "0", "pass" if errors == 0 else "FAIL"),
        ("404: a comparison not worked out", f"{not_kept}", "", ""),
        (
            "server peak memory",
            f"{memory:.0f} MB",
            "<= 500 MB",
            "pass" if memory <= 500 else "FAIL",
        ),
    ]
    for kind in sorted({r[2] for r in results}):
        mine = sorted(r[0] for r in results if r[2] == kind)
        rows.append(
            (
                f"  {kind} ({len(mine):,}): p99",
                f"{mine[int(len(mine) * 0.99)] * 1000:.1f} ms",
                "",
                "",
            )
        )
    print(json.dumps({"clients": args.clients, "solutions": len(solved)}))
    for row in rows:
        print(f"{row[0]:<36} {row[1]:>22}  {row[2]:<10} {row[3]}")
    for line in ERRORS:
        print(f"error: {line}")


if __name__ == "__main__":
    main()
