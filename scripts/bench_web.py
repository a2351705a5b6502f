"""Benchmark `ghostdb serve` on ENABLE: lookups a second under load, computer moves, start-up
and the page's first load, each beside its target.

    python scripts/bench_web.py [--db PATH] [--seconds 10] [--connections 32]

Without ``--db`` it ingests ENABLE from ``../shared/wordlists/enable1.txt`` and solves it
(words of 3+ and 4+) in a temporary database.  Lookups are measured by ``wrk`` (Debian:
``apt-get install wrk``) with keep-alive, 2 threads, on a rotating set of stored
fragments; the server and wrk share the machine, so the load average is printed too.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENABLE = ROOT.parent / "shared" / "wordlists" / "enable1.txt"


def prepare(db: Path) -> None:
    from ghostdb import Rules, open_store

    with open_store(str(db)) as store:
        store.ingest(ENABLE)
        store.solve("enable1", Rules(min_length=3))
        store.solve("enable1", Rules(min_length=4))


def fragments(db: Path, count: int = 500) -> list[str]:
    """Reachable stored fragments of ENABLE, words of 4+, for the lookups to rotate over."""
    with sqlite3.connect(db) as conn:
        (solution,) = conn.execute(
            "SELECT s.id FROM solutions s JOIN dictionaries d ON d.id = s.dictionary_id "
            "WHERE d.name = 'enable1' AND s.rules = 'ghost/4' AND s.status = 'complete'"
        ).fetchone()
        rows = conn.execute(
            "SELECT fragment FROM positions WHERE solution_id = ? AND reachable "
            "ORDER BY fragment LIMIT ?",
            (solution, count),
        ).fetchall()
    return [r[0] for r in rows]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far: what it cost, however busy the machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(db: Path, port: int) -> tuple[subprocess.Popen[bytes], float]:
    """Start the server; seconds until it answered its first request."""
    began = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghostdb", "serve", "--db", str(db), "--port", str(port)],
        stdout=subprocess.DEVNULL,
    )
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/api/enable1/position?fragment=&min_length=4")
            if conn.getresponse().status == 200:
                return proc, time.perf_counter() - began
        except OSError:
            if proc.poll() is not None or time.perf_counter() - began > 60:
                raise SystemExit("the server did not start") from None
            time.sleep(0.02)


def wrk(port: int, keys: list[str], seconds: int, connections: int) -> tuple[float, float, int]:
    """(requests a second, p99 latency in ms, requests) for lookups rotating over ``keys``."""
    paths = ",".join(f'"/api/enable1/position?min_length=4&fragment={k}"' for k in keys)
    script = (
        f"local paths = {{{paths}}}\nlocal i = 0\n"
        "request = function()\n  i = i % #paths + 1\n"
        "  return wrk.format(nil, paths[i])\nend\n"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
    try:
        out = subprocess.run(
            [
                *("wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"),
                *("-s", f.name, f"http://127.0.0.1:{port}"),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.unlink(f.name)
    if re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        raise SystemExit(f"wrk saw errors:\n{out}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])
    done = int(re.search(r"(\d+) requests in", out)[1])
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", out).groups()
    p99 = float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]
    return rate, p99, done


def move_median(port: int, keys: list[str], count: int = 1000) -> float:
    """Median milliseconds for the computer's reply, one keep-alive connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    for i in range(count):
        key = keys[i % len(keys)]
        began = time.perf_counter()
        conn.request("GET", f"/api/enable1/move?min_length=4&fragment={key}&seed={i}")
        response = conn.getresponse()
        response.read()
        times.append(time.perf_counter() - began)
        assert response.status in (200, 404), response.status  # 404: a finished game
    return statistics.median(times) * 1e3


def first_load(port: int) -> int:
    """Bytes of the page, its files and the two API answers it asks for on opening."""
    conn = http.client.HTTPConnection("127.0.0.1", port)

    def body(path: str) -> bytes:
        conn.request("GET", path)
        response = conn.getresponse()
        data = response.read()
        assert response.status == 200, path
        return data

    page = body("/").decode()
    total = len(page)
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
        total += len(body(asset))
    total += len(body("/api/solutions"))
    total += len(body("/api/enable1/position?rules=ghost/3"))
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a database with ENABLE solved (3+ and 4+)")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install wrk")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            db = Path(tmp) / "ghost.db"
            prepare(db)
        keys = fragments(db)
        load_before = os.getloadavg()
        port = free_port()
        proc, ready = start(db, port)
        startup_cpu = cpu_seconds(proc.pid)
        try:
            before = cpu_seconds(proc.pid)
            rate, p99, done = wrk(port, keys, args.seconds, args.connections)
            per_request = (cpu_seconds(proc.pid) - before) / done
            move = move_median(port, keys)
            loaded = first_load(port)
        finally:
            proc.send_signal(signal.SIGINT)
            stopped = proc.wait(10)
        load_after = os.getloadavg()
    rows = [
        ("`ghostdb serve` ready (first answer)", f"{ready:.2f} s", "<= 2 s"),
        ("  its CPU time until then", f"{startup_cpu:.2f} s", ""),
        (f"GET /position, wrk -t2 -c{args.connections}", f"{rate:,.0f} /s", ">= 2,000 /s"),
        ("  p99 latency", f"{p99:.1f} ms", "<= 20 ms"),
        ("  server CPU per request", f"{per_request * 1e6:.0f} us", ""),
        ("  = requests a second per busy core", f"{1 / per_request:,.0f} /s", ""),
        ("GET /move, median, one connection", f"{move:.2f} ms", "<= 5 ms"),
        ("first load of the page", f"{loaded / 1000:.0f} KB", "<= 300 KB"),
        ("Ctrl-C: exit status", str(stopped), "0"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure'.ljust(width)}  {'result':>12}  target")
    print(f"{'-' * width}  {'-' * 12}  ------------")
    for name, result, target in rows:
        print(f"{name.ljust(width)}  {result:>12}  {target}")
    print(
        f"\n{os.cpu_count()} cores; load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after (1 minute)"
    )


if __name__ == "__main__":
    main()
