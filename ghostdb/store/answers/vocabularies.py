"""The common words a ``common:N`` player knows, kept with the solution.

Ranking a dictionary's words by wordfreq reads every word of it and most of wordfreq's
list (a quarter of a second for ENABLE, seconds for Debian's 4 million Polish words);
the game over the N words it gives is then solved in memory in a tenth of a second
(`ghostdb.play.vocabulary`).  So the ranking is worked out once, on the first request
from a store that may write, and kept (`ghostdb.store.answers.kept`, question `COMMON_WORDS`):
the dictionary's game words most common first, at least `KEPT_AT_LEAST` of them, and
every N up to that many is a prefix of it.  A reader that may not write (the web
server) works it out in memory.  `verify` ranks the words again and compares.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ghostdb.store.answers import kept

if TYPE_CHECKING:
    from ghostdb.store.answers.handle import Handle

COMMON_WORDS = "common words"
"""The question the ranked words are kept under."""
KEPT_AT_LEAST = 50_000
"""How many words are ranked and kept at the least: the page's largest common player."""


def common_words(solution: Handle, n: int, *, compute: bool = True) -> list[str]:
    """The ``n`` most common game words of the solution's dictionary (fewer when wordfreq
    ranks fewer of them), from the kept ranking when it holds them; else ranked now, and
    kept when the store may write.  With ``compute=False`` a store that may not write
    raises NotWorkedOut instead (the command line then opens it for writing)."""
    key = kept.Key(solution.id, COMMON_WORDS)
    with solution.engine.connect() as conn:
        body = kept.read(conn, key)
    if body is not None and (body["all"] or len(body["words"]) >= n):
        return body["words"][:n]
    if not (compute or solution.writable):
        what = f"the {n:,} most common words of {solution.name}"
        raise kept.not_worked_out(
            what, f"ghostdb selfplay {solution.name} --seats common:{n},optimal"
        )
    started = time.perf_counter()
    body = rank(solution, max(n, KEPT_AT_LEAST))
    if solution.writable:
        kept.keep(solution.engine, {key: (body, time.perf_counter() - started)})
    return body["words"][:n]


def rank(solution: Handle, n: int) -> dict[str, Any]:
    """The kept body: the ``n`` most common game words, and whether they are all the
    words wordfreq ranks (so that any larger N is these too)."""
    from ghostdb.play.vocabulary import common_words as ranked
    from ghostdb.store.answers import dictionaries

    words = dictionaries.words(solution.engine, solution.name, solution.rules.min_length)
    found = ranked(words, solution.language(), n)
    return {"words": found, "all": len(found) < n}
