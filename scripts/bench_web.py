"""Benchmark `ghostdb serve` on ENABLE: lookups a second and their p99 latency, 304
revalidations against lookups, computer moves, start-up, the page's first load and how
soon it is ready to play in Chromium, each beside its target.

    python scripts/bench_web.py [--db PATH] [--runs 3] [--seconds 10] [--connections 32]
                                [--rate 2500]

Without ``--db`` it ingests ENABLE from ``../shared/wordlists/enable1.txt`` and solves it
(words of 3+ and 4+) in a temporary database.

Lookups are loaded by ``wrk`` (Debian: ``apt-get install wrk``): one thread, ``--connections``
keep-alive connections, rotating over 500 stored fragments, ``--seconds`` a run.  Each run
starts a server and loads it twice:

- closed loop: every connection sends its next request as soon as the answer arrives, so
  the server is never idle: the most it answers a second.  Its latency is mostly the
  queue that ``--connections`` requests always in flight build, so it has no target.
- paced: every connection pauses a random (exponential) time between requests, so about
  ``--rate`` requests a second arrive independently of the answers: a load just above
  the 2,000/s of the target, at which the p99 target applies (and the rate answered must
  reach 2,000/s).  wrk times each request from when it is sent; a stalled server delays
  the next requests of each connection rather than queueing them, so a stall counts once
  a connection.

wrk's one thread is plenty (at 20,000 requests a second it uses a sixth of a core); a
second thread would only compete with the server for the cores.  The figures are medians
over ``--runs`` runs, with their range.  On a machine shared with other work the server
waits for a core at times, and that wait is the tail: the load average and the share of
the run the server spent waiting (runnable, not running) are printed too.
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENABLE = ROOT.parent / "shared" / "wordlists" / "enable1.txt"


def prepare(db: Path) -> None:
    from ghostdb import Rules, open_store

    with open_store(str(db), create=True) as store:
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


@dataclass(frozen=True)
class Load:
    """One wrk run: requests answered a second, p99 latency, requests, and the server's
    CPU seconds and seconds waiting for a core (runnable, not running) during it."""

    rate: float
    p99_ms: float
    requests: int
    cpu: float
    waited: float
    seconds: float


def lookup_path(key: str) -> str:
    return f"/api/enable1/position?min_length=4&position={key}"


def wrk_script(keys: list[str], gap_ms: float | None, tags: list[str] | None = None) -> str:
    """Lua for wrk: requests rotating over ``keys``; with ``gap_ms``, each connection
    pauses an exponential random time of that mean before each request (wrk counts a
    request's latency from when it is sent, after the pause); with ``tags``, each request
    revalidates with the key's ETag (If-None-Match), which the server answers 304."""
    paths = ",".join(f'"{lookup_path(k)}"' for k in keys)
    script = f"local paths = {{{paths}}}\nlocal i = 0\n"
    if tags is None:
        script += (
            "request = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n"
        )
    else:
        quoted = ",".join("'" + tag + "'" for tag in tags)
        script += (
            f"local tags = {{{quoted}}}\n"
            "request = function()\n  i = i % #paths + 1\n"
            "  return wrk.format(nil, paths[i], {['If-None-Match'] = tags[i]})\nend\n"
        )
    if gap_ms is not None:
        # wrk takes whole milliseconds: round rather than truncate, to keep the mean.
        script += (
            f"local mean = {gap_ms}\nmath.randomseed(os.time())\n"
            "delay = function()\n"
            "  return math.floor(-mean * math.log(1 - math.random()) + 0.5)\nend\n"
        )
    return script


def waited(pid: int) -> float:
    """Seconds a process's main thread has been runnable but waiting for a core, from the
    kernel's scheduler statistics (0 where the kernel keeps none)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def wrk(
    port: int,
    pid: int,
    keys: list[str],
    seconds: int,
    connections: int,
    rate: float | None,
    tags: list[str] | None = None,
) -> Load:
    """Load the server with lookups rotating over ``keys``: closed loop, or paced to about
    ``rate`` requests a second when given; revalidations (304) with ``tags``."""
    gap_ms = None if rate is None else connections / rate * 1000
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(wrk_script(keys, gap_ms, tags))
    try:
        cpu_before, waited_before = cpu_seconds(pid), waited(pid)
        began = time.perf_counter()
        out = subprocess.run(
            [
                *("wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency"),
                *("-s", f.name, f"http://127.0.0.1:{port}"),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        wall = time.perf_counter() - began
        cpu, wait = cpu_seconds(pid) - cpu_before, waited(pid) - waited_before
    finally:
        os.unlink(f.name)
    if re.search(r"Non-2xx or 3xx responses: (\d+)", out) or "Socket errors" in out:
        raise SystemExit(f"wrk saw errors:\n{out}")
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", out).groups()
    return Load(
        rate=float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1]),
        p99_ms=float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit],
        requests=int(re.search(r"(\d+) requests in", out)[1]),
        cpu=cpu,
        waited=wait,
        seconds=wall,
    )


def etags(port: int, keys: list[str]) -> list[str]:
    """Each key's lookup's ETag, as a client that cached the answer holds it."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    found = []
    for key in keys:
        conn.request("GET", lookup_path(key))
        response = conn.getresponse()
        response.read()
        found.append(response.getheader("ETag"))
    return found


def interactive_ms(port: int) -> float | None:
    """Milliseconds from navigation until the page is ready to play (its board, moves and
    chart drawn) in headless Chromium; None without Playwright or /usr/bin/chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not Path("/usr/bin/chromium").exists():
        return None
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        try:
            times = []
            for _ in range(5):
                page = browser.new_page(bypass_csp=True)
                page.goto(f"http://127.0.0.1:{port}/#name=enable1&rules=ghost/3")
                page.wait_for_function(
                    "document.querySelector('#chart svg') && document.querySelector('#keys .key')"
                )
                times.append(page.evaluate("performance.now()"))
                page.close()
            return statistics.median(times)
        finally:
            browser.close()


def move_median(port: int, keys: list[str], count: int = 1000) -> float:
    """Median milliseconds for the computer's reply, one keep-alive connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    for i in range(count):
        key = keys[i % len(keys)]
        began = time.perf_counter()
        conn.request("GET", f"/api/enable1/move?min_length=4&position={key}&seed={i}")
        response = conn.getresponse()
        response.read()
        times.append(time.perf_counter() - began)
        assert response.status in (200, 400), response.status  # 400: a finished game
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


@dataclass(frozen=True)
class Run:
    """One server's figures: start-up, the two loads, moves, the page, Ctrl-C."""

    ready: float
    startup_cpu: float
    closed: Load
    paced: Load
    revalidated: Load
    move_ms: float
    page_bytes: int
    interactive_ms: float | None
    exit_status: int


def one_run(db: Path, keys: list[str], args: argparse.Namespace) -> Run:
    """Start a server, load it closed-loop then paced, time moves and the page, stop it."""
    port = free_port()
    proc, ready = start(db, port)
    startup_cpu = cpu_seconds(proc.pid)
    try:
        closed = wrk(port, proc.pid, keys, args.seconds, args.connections, None)
        paced = wrk(port, proc.pid, keys, args.seconds, args.connections, args.rate)
        tags = etags(port, keys)
        revalidated = wrk(port, proc.pid, keys, args.seconds, args.connections, None, tags)
        move = move_median(port, keys)
        loaded = first_load(port)
        interactive = interactive_ms(port)
    finally:
        proc.send_signal(signal.SIGINT)
        stopped = proc.wait(10)
    return Run(ready, startup_cpu, closed, paced, revalidated, move, loaded, interactive, stopped)


def median(runs: Sequence[Run], value: Callable[[Run], float], fmt: str) -> str:
    """The median over runs, formatted as ``fmt`` (a number, then its unit), with the range
    when there are several: ``4.9 ms (4.4-5.4)``."""
    number, unit = fmt[: fmt.index("}") + 1], fmt[fmt.index("}") + 1 :]
    values = [value(r) for r in runs]
    shown = number.format(statistics.median(values)) + unit
    if len(values) > 1:
        shown += f" ({number.format(min(values))}-{number.format(max(values))})"
    return shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a database with ENABLE solved (3+ and 4+)")
    parser.add_argument("--runs", type=int, default=3, help="servers started and measured")
    parser.add_argument("--seconds", type=int, default=10, help="length of each wrk run")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument(
        "--rate", type=float, default=2500, help="requests a second offered by the paced load"
    )
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
        runs = [one_run(db, keys, args) for _ in range(args.runs)]
        load_after = os.getloadavg()
    c = args.connections
    rows = [
        (
            "`ghostdb serve` ready (first answer)",
            median(runs, lambda r: r.ready, "{:.2f} s"),
            "<= 2 s",
        ),
        ("  its CPU time until then", median(runs, lambda r: r.startup_cpu, "{:.2f} s"), ""),
        (
            f"GET /position, paced at {args.rate:,.0f}/s: answered",
            median(runs, lambda r: r.paced.rate, "{:,.0f} /s"),
            ">= 2,000 /s",
        ),
        ("  p99 latency", median(runs, lambda r: r.paced.p99_ms, "{:.1f} ms"), "<= 20 ms"),
        (
            "  server waiting for a core",
            median(runs, lambda r: 100 * r.paced.waited / r.paced.seconds, "{:.0f}%"),
            "",
        ),
        (
            "GET /position, closed loop: answered",
            median(runs, lambda r: r.closed.rate, "{:,.0f} /s"),
            ">= 2,000 /s",
        ),
        (
            f"  p99 latency ({c} in flight; no target)",
            median(runs, lambda r: r.closed.p99_ms, "{:.1f} ms"),
            "",
        ),
        (
            "  server waiting for a core",
            median(runs, lambda r: 100 * r.closed.waited / r.closed.seconds, "{:.0f}%"),
            "",
        ),
        (
            "  server CPU per request",
            median(runs, lambda r: 1e6 * r.closed.cpu / r.closed.requests, "{:.0f} us"),
            "",
        ),
        (
            "GET /position revalidated (If-None-Match: 304), closed loop",
            median(runs, lambda r: r.revalidated.rate, "{:,.0f} /s"),
            "",
        ),
        (
            "  server CPU per 304 / per lookup",
            median(
                runs,
                lambda r: (
                    (r.revalidated.cpu / r.revalidated.requests)
                    / (r.closed.cpu / r.closed.requests)
                ),
                "{:.2f}x",
            ),
            "<= 1.00x",
        ),
        (
            "GET /move, median, one connection",
            median(runs, lambda r: r.move_ms, "{:.2f} ms"),
            "<= 5 ms",
        ),
        (
            "first load of the page",
            median(runs, lambda r: r.page_bytes / 1000, "{:.0f} KB"),
            "<= 150 KB",
        ),
        (
            "page interactive in Chromium (board, moves, chart)",
            "no Chromium"
            if any(r.interactive_ms is None for r in runs)
            else median(runs, lambda r: r.interactive_ms or 0.0, "{:.0f} ms"),
            "<= 300 ms",
        ),
        ("Ctrl-C: exit status", ",".join(str(r.exit_status) for r in runs), "0"),
    ]
    width = max(len(r[0]) for r in rows)
    result = max(len(r[1]) for r in rows)
    print(f"{'measure'.ljust(width)}  {'result'.rjust(result)}  target")
    print(f"{'-' * width}  {'-' * result}  -----------")
    for name, shown, target in rows:
        print(f"{name.ljust(width)}  {shown.rjust(result)}  {target}")
    print(
        f"\nwrk {wrk_version()} -t1 -c{c} -d{args.seconds}s, keep-alive; median (range) of "
        f"{len(runs)} runs, a server each; {os.cpu_count()} cores, shared by wrk and the "
        f"server; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after (1 minute)"
    )


def wrk_version() -> str:
    """wrk's version as it reports it (Debian's says ``debian/4.1.0-…``)."""
    out = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout
    found = re.search(r"wrk (\S+)", out)
    return found[1] if found else "?"


if __name__ == "__main__":
    main()
