"""The other games' solves: Chopsticks under four rule sets, tic-tac-toe, Connect Four
4 x 4 and 5 x 4."""

from __future__ import annotations

from .runner import SOLVE_TIMEOUT, Bench, Row, at_most, child, mb, secs

GAMES = (  # (label, game, rule set)
    ("Chopsticks", "chopsticks", "chopsticks/5"),
    ("Chopsticks --rollover", "chopsticks", "chopsticks/5/rollover"),
    ("Chopsticks --no-transfers", "chopsticks", "chopsticks/5/no-transfers"),
    ("Chopsticks --fingers 4", "chopsticks", "chopsticks/4"),
    ("tic-tac-toe", "tictactoe", "tictactoe"),
)


def games(bench: Bench) -> list[Row]:
    """Each game's solve + persist, in a fresh database."""
    rows = []
    for label, game, key in GAMES:
        data, done = child("solve", bench.fresh_db(), game, key)
        note = f"{data['positions']:,} positions; process {secs(done.seconds)}"
        rows.append(at_most(f"{label}: solve + persist", data["seconds"], 0.5, secs, note))
    return rows


def connect_four(bench: Bench, quick: bool) -> list[Row]:
    """Connect Four's boards: 4 x 4 always, 5 x 4 (about 4 million positions) unless quick."""
    rows = []
    for board, limit in (("4x4", 3.0), ("5x4", 60.0)):
        label = f"Connect Four {board.replace('x', ' x ')}"
        if quick and board != "4x4":
            rows.append(Row(f"{label}: solve + persist", note="skipped (--quick)"))
            continue
        data, done = child(
            "solve", bench.fresh_db(), "connectfour", f"connectfour/{board}", timeout=SOLVE_TIMEOUT
        )
        note = f"{data['positions']:,} positions; process {secs(done.seconds)}"
        rows.append(at_most(f"{label}: solve + persist", data["seconds"], limit, secs, note))
        rows.append(at_most(f"{label}: peak memory", done.peak_mb, 3072, mb))
    return rows
