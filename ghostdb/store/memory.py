"""Whether a solve fits in memory, asked before it writes anything.

A solve holds every position at once — keys, graph arrays, values, the columns to write —
at about `BYTES_PER_POSITION` at its peak (measured: 340-360 bytes of resident memory a
position for Ghost, SuperGhost and SuperDuperGhost on Polish and ENABLE, and about 1.16
times that of address space).  A list too big for the machine would otherwise run for
minutes and then fail in the kernel's out-of-memory killer or in a MemoryError half-way;
`check` refuses it first, in one line, with the store untouched.

What is available is the least of: the memory the kernel reports available, the
address-space limit (``ulimit -v``) less what this process already uses, and a cgroup v2
memory limit less its usage.
"""

from __future__ import annotations

import resource
from pathlib import Path
from typing import TYPE_CHECKING

from ghostdb.errors import TooBig

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ghostdb.games.base import Game

BYTES_PER_POSITION = 400
"""A solve's peak address space per position (see the module's docstring)."""


def available() -> tuple[int, str] | None:
    """The bytes a solve may still use and what bounds them, or None when nothing says."""
    found: list[tuple[int, str]] = []
    meminfo = _read("/proc/meminfo")
    for line in meminfo.splitlines():
        if line.startswith("MemAvailable:"):
            found.append((int(line.split()[1]) * 1024, "available memory"))
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        used = _status_kb("VmSize") * 1024
        found.append((max(0, soft - used), "the address-space limit (ulimit -v)"))
    limit = _read("/sys/fs/cgroup/memory.max").strip()
    if limit.isdigit():
        current = _read("/sys/fs/cgroup/memory.current").strip()
        used = int(current) if current.isdigit() else 0
        found.append((max(0, int(limit) - used), "the cgroup's memory limit"))
    return min(found) if found else None


def check(game: Game, words: Sequence[str] | None, name: str) -> None:
    """Raise TooBig when solving ``game`` over ``words`` would not fit: a cheap upper
    bound first, the sampled estimate only when that bound does not fit."""
    room = available()
    if room is None:
        return
    free, bound_by = room
    most = game.positions_at_most(words)
    if most is None or most * BYTES_PER_POSITION <= free:
        return
    estimate = game.estimate_positions(words)
    if estimate is None or estimate * BYTES_PER_POSITION <= free:
        return
    need = estimate * BYTES_PER_POSITION
    raise TooBig(
        f"solving {name} for {game.rules.describe()} needs about {_gb(need)} "
        f"(about {estimate:,} positions at {BYTES_PER_POSITION} bytes each), but "
        f"{bound_by} leaves {_gb(free)}: free memory or raise the limit, or solve it on a "
        f"bigger machine (nothing was changed)"
    )


def _gb(n: float) -> str:
    return f"{n / 1e9:.1f} GB"


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def _status_kb(field: str) -> int:
    for line in _read("/proc/self/status").splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0
