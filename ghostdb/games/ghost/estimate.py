"""How many fragments a word list makes, estimated from samples before a solve.

A solve holds every fragment in memory at a few hundred bytes each, so a list too big
for the machine is to be refused before anything is written (`ghostdb.memory`).
The exact count is only known once the graph is built, which is most of that memory.
So the graphs of three evenly spread samples of the words (every 4k-th, 2k-th and k-th
word, the largest at most `SAMPLE` words) are built, and the count is extrapolated from
them by a quadratic in log-log: fragments grow more slowly than words, and ever more
slowly (a new word shares more of its prefixes and infixes with those already there), so
a straight line in log-log overshoots by half.  On Polish, ENABLE and their subsets the
estimate came within -5% to +32% of the count (+32%: SuperDuperGhost over all of Polish;
a test checks ENABLE's stays in a band).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ghostdb.games.ghost.rules import Rules

SAMPLE = 1 << 17
"""The largest sample: about 0.5 s for SuperDuperGhost on a list of long words."""


def estimate_positions(words: Sequence[str], rules: Rules) -> int:
    """About how many fragments `build_graph` makes of ``words`` (sorted game words)."""
    import numpy as np

    from ghostdb.games.ghost.graph import build_graph

    n = len(words)
    step = max(1, math.ceil(n / SAMPLE))
    if step == 1:  # small enough to count exactly
        return build_graph(words, rules).size
    points = []
    for k in (4 * step, 2 * step, step):
        sample = words[::k]
        points.append((math.log(len(sample)), math.log(build_graph(sample, rules).size)))
    x, y = np.array(points).T
    curve = np.polyfit(x, y, 2)
    if curve[0] > 0:  # growing faster than a power of the words: take the straight line
        curve = np.polyfit(x, y, 1)
    return int(math.exp(float(np.polyval(curve, math.log(n)))))
