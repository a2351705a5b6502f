"""Finding many keys in many blocks at once: the front-coded scan of `Block.find`, done
by numpy for every key of a batch side by side (`find_many`).

A batch of keys spread over a large pack touches a block for every few keys, and reads
each such block for the first time: a block's keys are not worth decoding whole for a
few finds, and a find of one key in Python (`Block._scan`) costs about ten
microseconds.  Here every key of the batch steps through its own run at once, one
numpy operation over all the keys a step: a step is a few microseconds for thousands
of keys, and a run is at most `RESTART` keys long.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ghostdb.pack.block import Block
from ghostdb.pack.format import RESTART, PackError


def find_many(blocks: Sequence[Block], lane_block: Any, sought: Any) -> tuple[Any, Any]:
    """Where each of ``sought`` is in its block, and its value column (see
    `Block.value`): ``blocks`` distinct, in key order, each with its keys' columns
    of a byte a number (`Block.plain`); ``lane_block`` (numpy ints) the block, of
    ``blocks``, that each key of ``sought`` (fixed-width bytes, no NUL) would be in.
    Both answers -1 for a key its block does not hold."""
    import numpy as np

    lanes = len(sought)
    index = np.full(lanes, -1, np.int64)
    value = np.full(lanes, -1, np.int64)
    if lanes == 0:
        return index, value
    layouts = [block.plain() for block in blocks]
    table = np.array([layout[1:] for layout in layouts], np.int64).reshape(len(layouts), 5)
    count = table[:, 0]
    # The blocks' records side by side, as far as their value columns (the columns
    # after them are not read: a copy of them would be a third more to make), and
    # the bytes each key adds, apart.
    ends = (table[:, 4] + 2 * count).tolist()
    views = [memoryview(layout.raw) for layout in layouts]  # type: ignore[union-attr]
    big = np.frombuffer(b"".join([v[:end] for v, end in zip(views, ends, strict=True)]), np.uint8)
    base = np.zeros(len(layouts), np.int64)
    np.cumsum(ends[:-1], out=base[1:])
    drops, rests, reach, values = (base + table[:, i] for i in range(1, 5))
    pairs = table[:, :2].tolist()
    added = np.frombuffer(
        b"".join([v[d + n : d + 2 * n] for v, (n, d) in zip(views, pairs, strict=True)]), np.uint8
    )
    run_block, run_first, run_at, length_of = _runs(added, count, rests, reach)
    # Each run's first key, whole (it drops all of the key before), as fixed-width bytes
    width = max(sought.dtype.itemsize, int(length_of.max()))
    columns = np.arange(width)
    heads = big[run_at[:, None] + np.minimum(columns, length_of[:, None] - 1)]
    heads[columns >= length_of[:, None]] = 0
    whole = heads.view(f"S{width}").ravel()
    keys = sought.astype(f"S{width}")
    # A key's run: the last whose first key is not above it (the blocks are in key
    # order, and each key is within its own block's first and the next block's).
    run = np.searchsorted(whole, keys, side="right") - 1
    first_run = np.searchsorted(run_block, np.arange(len(layouts)))
    run = np.maximum(run, first_run[lane_block])
    want = keys.view(np.uint8).reshape(lanes, width)
    size = np.char.str_len(sought).astype(np.int64)
    have = heads[run]
    length = length_of[run]
    differ = have != want
    m = np.where(differ.any(axis=1), differ.argmax(axis=1), width)
    m = np.minimum(m, np.minimum(length, size))
    j = run_first[run]
    at = run_at[run] + length
    found = (m == size) & (length == size)
    index[found] = j[found]
    lane = np.flatnonzero(~found)
    block = lane_block[lane]
    j = j[lane]
    end = np.minimum(j + RESTART, count[block])
    state = np.stack(
        [lane, j, at[lane], m[lane], length[lane], end, drops[block], count[block], size[lane]],
        axis=1,
    )
    _step(big, want, state, index)
    hit = np.flatnonzero(index >= 0)
    where = values[lane_block[hit]] + index[hit]
    value[hit] = (
        big[where].astype(np.int64) | big[where + count[lane_block[hit]]].astype(np.int64) << 8
    )
    return index, value


def _step(big: Any, want: Any, state: Any, index: Any) -> None:
    """Step every sought key through its run at once, a key of the run a step, as
    `Block._scan` does one: ``state`` holds a row a sought key (its row of ``want``,
    the run's key at hand, where its added bytes end in ``big``, how much of the sought
    key it shares, its length, where the run ends, where its block's drops column
    begins, the block's count and the sought key's length); ``index`` gets each one
    found."""
    import numpy as np

    width = want.shape[1]
    while True:
        state[:, 1] += 1
        ended = state[:, 1] >= state[:, 5]  # past its run: the key is not held
        if ended.any():
            state = np.compress(~ended, state, axis=0)
        if not len(state):
            return
        lane, j, at, m, length, _, column, stride, size = state.T
        kept = length - big[column + j]
        step = big[column + stride + j]
        length[:] = kept + step
        at += step
        # Keeps more of the key before than it shares with the sought: still below it.
        # Keeps less: above it (keys ascend), and so is every key after.  Keeps as
        # much: its added bytes decide.
        alive = kept >= m
        s = np.flatnonzero(kept == m)
        if len(s):
            steps = step[s].astype(np.int64)
            start, ms, rows = at[s] - steps, m[s], lane[s]
            room = size[s] - ms
            c = _shared(big, start, steps, want, rows, ms)
            matched = (c == steps) & (steps <= room)
            hit = matched & (steps == room)
            lower = ~matched & (c < np.minimum(steps, room))
            lower &= (
                big[start + np.minimum(c, steps - 1)] < want[rows, np.minimum(ms + c, width - 1)]
            )
            index[rows[hit]] = j[s[hit]]
            m[s] = ms + np.where(matched, steps, np.where(lower, c, 0))
            alive[s] = (matched & ~hit) | lower
        if not alive.all():
            state = np.compress(alive, state, axis=0)  # (4 times as fast as state[alive])


def _runs(added: Any, count: Any, rests: Any, reach: Any) -> tuple[Any, Any, Any, Any]:
    """Every run of the blocks (``count`` keys each, the bytes each key adds counted
    in ``added``, a block's after another's; those bytes lie from ``rests`` to ``reach``
    in the blocks' records): its block, its first key's place in the block, where its
    first key's bytes begin and that key's length.  PackError for a block whose added
    bytes do not add up."""
    import numpy as np

    runs = -(-count // RESTART)
    total, blocks = int(runs.sum()), len(count)
    run_block = np.repeat(np.arange(blocks), runs)
    first_run = np.zeros(blocks, np.int64)
    np.cumsum(runs[:-1], out=first_run[1:])
    starts = np.zeros(blocks, np.int64)
    np.cumsum(count[:-1], out=starts[1:])
    run_first = (np.arange(total) - first_run[run_block]) * RESTART
    at = starts[run_block] + run_first
    # (a run adds at most 128 × 127 bytes: a u16 holds its sum)
    sums = np.add.reduceat(added, at, dtype=np.uint16).astype(np.int64)
    before = np.cumsum(sums) - sums
    run_at = rests[run_block] + before - before[first_run][run_block]
    last = first_run + runs - 1
    if (run_at[last] + sums[last] != reach).any():
        raise PackError("does not decode (its columns do not add up)")
    return run_block, run_first, run_at, added[at].astype(np.int64)


def _shared(big: Any, start: Any, step: Any, want: Any, rows: Any, m: Any) -> Any:
    """How many of each key's added bytes (``step`` of them from ``start`` in ``big``)
    agree with its sought key's (row ``rows`` of ``want``) from byte ``m`` on."""
    import numpy as np

    c = np.zeros(len(start), np.int64)
    width = want.shape[1]
    agree = np.ones(len(start), bool)
    for t in range(int(step.max())):
        # (past the sought key's end are NULs, which no key holds: they never agree)
        agree &= (t < step) & (m + t < width)
        agree &= big[start + np.minimum(t, step - 1)] == want[rows, np.minimum(m + t, width - 1)]
        if not agree.any():
            break
        c += agree
    return c
