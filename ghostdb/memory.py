"""Whether a solve fits in memory, asked before it writes anything.

A solve holds every position at once — its key packed as letter codes, graph arrays,
values — at about `BYTES_PER_POSITION` at its peak (measured, the interpreter and the word
list included: 170-230 bytes of resident memory a position for Ghost and SuperDuperGhost
on Debian's Polish and american-english-insane lists, 190-240 of address space).  A list
too big for the machine would otherwise run for minutes and then fail in the kernel's
out-of-memory killer or in a MemoryError half-way; `check` refuses it first, in one line,
with the store untouched.

What is available is the least of: the memory the kernel reports available, the
address-space limit (``ulimit -v``) less what this process already uses, and a cgroup v2
memory limit less its usage (less its reclaimable page cache).  The first and last are
resident memory, compared with `RESIDENT_PER_POSITION`; the address-space limit with
`BYTES_PER_POSITION`.  Workers of ``solve --all --jobs N`` solve side by side: each
counts on its share of the available memory and of a cgroup's room, and on the whole
of its own address space.

Working out decisive words holds every stored fragment of the solution at once too:
`check_decisive` asks the same bounds, at `DECISIVE_PER_FRAGMENT`, before anything is
read.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ghostdb.errors import TooBig

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ghostdb.games.base import Game

BYTES_PER_POSITION = 280
"""A solve's peak address space per position (see the module's docstring)."""
RESIDENT_PER_POSITION = 240
"""A solve's peak resident memory per position: what available memory and a cgroup's
limit are compared with."""
DECISIVE_PER_FRAGMENT = {True: (200, 220), False: (900, 1000)}
"""Working out decisive words: peak (resident, address-space) bytes a stored fragment,
for plain Ghost's arrays (True) and the Super variants' dicts of strings (False).  See
`check_decisive`."""
SKIP_ENV = "GHOSTDB_MEMORY_CHECK"
"""Set to 0 to solve (or work out decisive words) without the check (an estimate errs
high by up to a quarter)."""
ADDRESS_SPACE = "the address-space limit (ulimit -v)"
"""The bound that is each process's own: solves side by side do not share it."""


def available() -> list[tuple[int, str, int]]:
    """What bounds the memory a solve may still use: (bytes, what, bytes a position
    costs against it), one entry a bound found."""
    found: list[tuple[int, str, int]] = []
    for line in _read("/proc/meminfo").splitlines():
        if line.startswith("MemAvailable:"):
            found.append((int(line.split()[1]) * 1024, "available memory", RESIDENT_PER_POSITION))
    try:
        import resource
    except ImportError:  # not a POSIX system: no address-space limit to read
        resource = None  # type: ignore[assignment]
    if resource is not None:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            used = _status_kb("VmSize") * 1024
            found.append((max(0, soft - used), ADDRESS_SPACE, BYTES_PER_POSITION))
    cgroup = _cgroup_room()
    if cgroup is not None:
        found.append((cgroup, "the cgroup's memory limit", RESIDENT_PER_POSITION))
    return found


def _cgroup_room() -> int | None:
    """A cgroup v2 memory limit (this process's own cgroup, else the root) less what the
    cgroup uses but cannot give back: its page cache of files not recently used is
    reclaimed before the limit bites."""
    folders = []
    for line in _read("/proc/self/cgroup").splitlines():
        if line.startswith("0::"):
            folders.append(Path("/sys/fs/cgroup") / line[3:].lstrip("/"))
    folders.append(Path("/sys/fs/cgroup"))
    for folder in folders:
        limit = _read(str(folder / "memory.max")).strip()
        if not limit.isdigit():
            continue
        current = _read(str(folder / "memory.current")).strip()
        used = int(current) if current.isdigit() else 0
        for line in _read(str(folder / "memory.stat")).splitlines():
            name, _, value = line.partition(" ")
            if name == "inactive_file" and value.strip().isdigit():
                used -= int(value)
        return max(0, int(limit) - max(0, used))
    return None


def check(game: Game, words: Sequence[str] | None, name: str, workers: int = 1) -> None:
    """Raise TooBig when solving ``game`` over ``words`` would not fit: a cheap upper
    bound first, the sampled estimate only when that bound does not fit.  ``workers``:
    how many solves run side by side (``solve --all --jobs N``), sharing the memory."""
    if os.environ.get(SKIP_ENV, "").strip() == "0":
        return
    room = [
        (free if what == ADDRESS_SPACE else free // workers, what, per)
        for free, what, per in available()
    ]
    if not room:
        return
    most = game.positions_at_most(words)
    if most is None or all(most * per <= free for free, _, per in room):
        return
    try:
        estimate = game.estimate_positions(words)
    except MemoryError:  # even the samples did not fit
        estimate = most
    if estimate is None:
        return
    estimate = min(estimate, most)
    doing = f"solving {name} for {game.rules.describe()}"
    elsewhere = f"solve it on a bigger machine ({SKIP_ENV}=0 solves anyway"
    _refuse(doing, estimate, room, workers, "positions", elsewhere)


def check_decisive(fragments: int, plain: bool, name: str, rules: str) -> None:
    """Raise TooBig when working out decisive words over a solution of ``fragments``
    stored fragments would not fit (``plain``: plain Ghost's arrays, else the Super
    variants' dicts; see `DECISIVE_PER_FRAGMENT`), before anything is read."""
    if os.environ.get(SKIP_ENV, "").strip() == "0":
        return
    resident, address = DECISIVE_PER_FRAGMENT[plain]
    room = [
        (free, what, address if what == ADDRESS_SPACE else resident)
        for free, what, _ in available()
    ]
    doing = f"working out the decisive words of {name} for {rules}"
    elsewhere = f"work them out on a bigger machine ({SKIP_ENV}=0 works them out anyway"
    _refuse(doing, fragments, room, 1, "fragments", elsewhere)


def _refuse(
    doing: str,
    estimate: int,
    room: list[tuple[int, str, int]],
    workers: int,
    what: str,
    elsewhere: str,
) -> None:
    """Raise TooBig, in one line, when ``estimate`` items (``what``) at their bytes each
    exceed one of the bounds in ``room``."""
    for free, bound_by, per in sorted(room):
        if estimate * per > free:
            shared = workers > 1 and bound_by != ADDRESS_SPACE
            each = f" for each of {workers} solves side by side" if shared else ""
            fewer = " or solve with fewer --jobs," if shared else ""
            raise TooBig(
                f"{doing} needs about "
                f"{_gb(estimate * per)} (about {estimate:,} {what} at {per} bytes each), "
                f"but {bound_by} leaves {_gb(free)}{each}: free memory or raise the limit,"
                f"{fewer} or {elsewhere}; nothing was changed)"
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


def give_back() -> None:
    """Hand the memory freed so far back to the system (glibc's ``malloc_trim``; nothing
    elsewhere).  glibc keeps freed memory that is not at the top of its heap, and a
    solve frees its plans' temporaries just before it makes the rows to write."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@cache
def _malloc_trim() -> Any:
    import ctypes

    try:
        return ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):  # not glibc
        return None
