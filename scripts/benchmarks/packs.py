"""Packs (`ghostdb pack`): every standard rule set of the word list packed, its bytes a
position and each column's share; the offline site (`ghostdb export site`) and its first
move in Chromium; probes of a pack in process and from a fresh Python (`pack_probes`,
which polish.py runs on Polish's SuperDuperGhost pack)."""

from __future__ import annotations

import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from .runner import (
    READ_PAIRS,
    SOLVE_TIMEOUT,
    Bench,
    Row,
    Task,
    at_least,
    at_most,
    child,
    ghostdb,
    ms,
    rate,
    run,
    secs,
)
from .solving import ingest

ENABLE_KEYS = ("ghost/3", "ghost/4", "super/3", "super/4", "superduper/3", "superduper/4")
SITE_RULES = ("ghost/3", "ghost/4", "super/3")


def enable_packs(bench: Bench) -> list[Row]:
    """Every standard rule set of the word list packed: bytes a position, keys included
    (target 2; GamesmanOne's records take 2, the SQLite store 36-42), with each column's
    share; then the offline site of the issue's set and its first move in Chromium."""
    db = bench.fresh_db()
    name, _ = ingest(db, bench.wordlist)
    run(ghostdb("solve", name, "--all", "--db", db), SOLVE_TIMEOUT)
    rows = []
    for key in ENABLE_KEYS:
        variant, length = key.split("/")
        path = str(bench.tmp / f"{name}-{variant}-{length}.ghostpack")
        flags = ["--rules", variant, "--min-length", length]
        run(ghostdb("pack", name, *flags, "-o", path, "--db", db), SOLVE_TIMEOUT)
        shares, _ = child("pack_shares", path)
        size = Path(path).stat().st_size
        positions = _positions(path)
        note = ", ".join(f"{k} {v:.2f}" for k, v in shares.items() if v >= 0.005)
        rows.append(
            at_most(
                f"{name} {key} pack: bytes a position",
                size / positions,
                2.0,
                lambda x: f"{x:.2f}",
                note,
            )
        )
    return rows + offline_site(bench, db, name)


def _positions(path: str) -> int:
    with open(path, "rb") as file:
        head = file.read(16)
        header = json.loads(file.read(int.from_bytes(head[12:16], "little")))
    return int(header["positions"])


def offline_site(bench: Bench, db: str, name: str) -> list[Row]:
    """`ghostdb export site` of the word list's Ghost/3, Ghost/4 and SuperGhost/3 with
    Chopsticks, tic-tac-toe and Connect Four 4 x 4: its bytes, and how long after opening
    it in Chromium the first move can be played."""
    for game in ("chopsticks", "tictactoe", "connectfour"):
        run(ghostdb("solve", game, "--db", db), SOLVE_TIMEOUT)
    folder = bench.tmp / "site"
    rules = [x for key in SITE_RULES for x in ("--rules", key)]
    games = ["chopsticks", "tictactoe", "connectfour"]
    run(ghostdb("export", "site", name, *games, *rules, "-o", str(folder), "--db", db))
    size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    note = f"{len(list(folder.rglob('*.ghostpack')))} packs and the page"
    rows = [at_most("offline site: bytes in all", size / 2**20, 3.0, lambda x: f"{x:.2f} MB", note)]
    data, _ = child("site_first_move", str(folder), name)
    if "skipped" in data:
        return [*rows, Row("offline site: first move playable", note=data["skipped"])]
    note = f"median of {len(data['times'])} fresh pages, from navigation to a key that plays"
    first = statistics.median(data["times"])
    return [*rows, at_most("offline site: first move playable in Chromium", first, 1.0, secs, note)]


def pack_probes(path: str) -> list[Row]:
    """Probes of a pack in process (random stored positions, each block read cold), and
    a fresh Python that opens it and probes one position."""
    if not Path(path).is_file():
        return []
    data, _ = child("pack_probes", path)
    note = f"{data['blocks']:,} blocks of 2,048; a cold block is inflated and decoded per miss"
    joined = "Pack.values, once the blocks are joined (the median of 3 later rounds)"
    rows = [
        at_least("pack: single value probes, in process", data["single"], 50_000, rate, note),
        at_least("pack: value probes in batches of 10,000, cold", data["batch"], 500_000, rate,
                 "Pack.values, the first round: each block inflated when first touched "
                 "(numpy imported before)"),
        at_least("pack: value probes in batches of 10,000, warm", data["warm"], 500_000, rate,
                 joined),
        Row("pack: whole probes (with every move), in process", rate(data["whole"])),
    ]  # fmt: skip
    code = f"from ghostdb.pack import open_pack; open_pack({path!r}).probe('abc')"
    fresh = [run([sys.executable, "-c", code]).seconds for _ in range(READ_PAIRS)]
    note = f"median of {READ_PAIRS}: import, open (root hash checked), one probe"
    rows.append(
        at_most(
            "pack: a fresh python -c that probes one position",
            statistics.median(fresh),
            0.080,
            ms,
            note,
        )
    )
    return rows


# -- the child's side ----------------------------------------------------------------------


def task_pack_shares(path: str) -> dict[str, Any]:
    """Each column's compressed bytes a position, the columns deflated apart block by
    block as the writer lays them out (together they take a little less)."""

    from ghostdb.pack import open_pack
    from ghostdb.pack.format import NONE, deflate, put_varint

    def deflated(data: bytes) -> int:
        return len(deflate(data))

    def planes(numbers: list[int]) -> bytes:
        return bytes(v & 0xFF for v in numbers) + bytes(v >> 8 for v in numbers)

    shares = {"keys": 0, "values and lengths": 0, "reachable": 0, "safe seats and labels": 0}
    with open_pack(path) as pack:
        for number in range(len(pack.index)):
            records = pack.block(number).records()
            drops, lengths, rests, before = bytearray(), bytearray(), bytearray(), b""
            for record in records:
                key = record[0].encode()
                shared = len(os.path.commonprefix([before, key]))  # noqa: RUF071 - bytes
                put_varint(drops, len(before) - shared)
                put_varint(lengths, len(key) - shared)
                rests += key[shared:]
                before = key
            shares["keys"] += deflated(bytes(drops + lengths + rests))
            values = [(0 if r[3] is None else r[3] + 1) << 2 | r[2] for r in records]
            shares["values and lengths"] += deflated(planes(values))
            bits = bytearray((len(records) + 7) // 8)
            for i, r in enumerate(records):
                bits[i >> 3] |= r[1] << (i & 7)
            shares["reachable"] += deflated(bytes(bits))
            safe = planes([NONE if r[5] is None else r[5] for r in records])
            labels = bytes(len(r[6] or "") for r in records)
            shares["safe seats and labels"] += deflated(safe + labels)
        positions = pack.positions
    return {k: v / positions for k, v in shares.items()}


def task_pack_probes(path: str) -> dict[str, Any]:
    import random

    from ghostdb.pack import open_pack

    rng = random.Random(7)
    with open_pack(path) as pack:
        blocks = len(pack.index)
        keys = []
        for number in rng.choices(range(blocks), k=2_000):
            keys += [k.decode() for k in rng.sample(pack.block(number).keys, 10)]
    rng.shuffle(keys)
    import numpy  # noqa: F401 - once a process (80 ms), not a probe's: Pack.values needs it

    with open_pack(path) as pack:  # cold: no block decoded yet
        start = time.perf_counter()
        for key in keys:
            pack.record(key)
        single = len(keys) / (time.perf_counter() - start)
    with open_pack(path) as pack:
        rounds = []  # each key once a round: the first cold, then the blocks join
        for _ in range(7):
            start = time.perf_counter()
            for at in range(0, len(keys), 10_000):
                pack.values(keys[at : at + 10_000])
            rounds.append(len(keys) / (time.perf_counter() - start))
        batch, warm = rounds[0], statistics.median(rounds[-3:])
    with open_pack(path) as pack:
        start = time.perf_counter()
        for key in keys[:2_000]:
            pack.probe(key)
        whole = 2_000 / (time.perf_counter() - start)
    return {"blocks": blocks, "single": single, "batch": batch, "warm": warm, "whole": whole}


def task_site_first_move(folder: str, name: str) -> dict[str, Any]:
    import functools as ft
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    chromium = Path("/usr/bin/chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ModuleNotFoundError:
        return {"skipped": "needs playwright (pip install -e '.[dev]')"}
    if not chromium.exists():
        return {"skipped": "needs /usr/bin/chromium (apt-get install chromium)"}

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

    handler = ft.partial(Quiet, directory=folder)
    times = []
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_address[1]}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(chromium), args=["--no-sandbox"])
            for _ in range(5):
                context = browser.new_context()  # a fresh cache each time
                page = context.new_page()
                page.goto(f"{base}/#name={name}&rules=ghost/3&players=human,computer")
                page.wait_for_selector("#keys .key:not([disabled])")
                times.append(page.evaluate("performance.now()") / 1000)
                context.close()
            browser.close()
        httpd.shutdown()
    return {"times": times}


TASKS: dict[str, Task] = {
    "pack_probes": task_pack_probes,
    "pack_shares": task_pack_shares,
    "site_first_move": task_site_first_move,
}
