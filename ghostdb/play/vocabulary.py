"""Computer players that know only the words people know: the seat ``common:N``.

Such a player knows the N most frequent game words of the dictionary's language (word
frequencies from `wordfreq <https://pypi.org/project/wordfreq/>`_, which ranks 40-odd
languages) and plays as if they were the whole dictionary: the game over them is solved
once (a few tenths of a second for 50,000 words) and it plays that solution's best move.
It so walks into words it does not know, as a person would, and never plays a move that
leaves its vocabulary while another keeps a word of it alive; where no move is one it
knows, it plays any legal move.

Pure but for wordfreq (an optional extra, ``pip install 'ghostdb[freq]'``: 58 MB of
word lists).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ghostdb.errors import BadMove, TooLarge
from ghostdb.games.base import FLIP, LOSS, WIN, Game
from ghostdb.values import Outcome, Play, Position

SEAT = re.compile(r"^common:([1-9][0-9]{0,6})$")
"""``common:N``: a player who knows the N most common words (N up to 9,999,999)."""
ENGLISH = "en"
"""The language of a dictionary ingested without ``--language``."""


def vocabulary_size(seat: str) -> int | None:
    """N of a ``common:N`` seat, else None."""
    match = SEAT.match(seat)
    return int(match[1]) if match else None


def common_words(words: Iterable[str], language: str, n: int) -> list[str]:
    """The ``n`` most frequent of ``words`` in ``language`` by wordfreq, most frequent
    first (fewer if wordfreq ranks fewer of them).  BadMove (one line) when wordfreq is
    missing or does not rank the language."""
    try:
        import wordfreq
    except ImportError:
        raise BadMove(
            "a common:N player needs word frequencies from wordfreq, which this install "
            "lacks: pip install 'ghostdb[freq]'"
        ) from None
    tag = (language or ENGLISH).split("-")[0].lower()
    ranked = wordfreq.available_languages()
    if tag not in ranked:
        raise BadMove(
            f"wordfreq ranks no words of {language!r}, so a common:N player cannot play in "
            f"it: it ranks {', '.join(sorted(ranked))}"
        )
    known = set(words)
    found: list[str] = []
    for word in wordfreq.iter_wordlist(tag, wordlist="best"):
        if word in known:
            found.append(word)
            if len(found) == n:
                break
    return found


@dataclass(frozen=True)
class Vocabulary:
    """The game over a player's known words, solved: each of its positions' value code
    and game length."""

    size: int
    words: tuple[str, ...]
    values: dict[str, tuple[int, int]]


def solve_vocabulary(game: Game, words: Sequence[str]) -> Vocabulary:
    """The game over ``words`` (its rules), solved in memory."""
    import numpy as np

    from ghostdb.solvers import solve

    if not words:
        return Vocabulary(0, (), {})
    graph = game.build(sorted(words))
    values = solve(graph)
    keys = graph.keys.take(np.arange(graph.size))
    codes, lengths = values.value.tolist(), values.length.tolist()
    return Vocabulary(
        len(words),
        tuple(words),
        {k: (v, n) for k, v, n in zip(keys, codes, lengths, strict=True) if k is not None},
    )


@lru_cache(maxsize=16)
def vocabulary(game: Game, words: tuple[str, ...]) -> Vocabulary:
    """`solve_vocabulary`, kept for the process (a server's requests share it)."""
    return solve_vocabulary(game, words)


def choose_known(known: Vocabulary, position: Position, rng: random.Random) -> Play:
    """The move of a player who knows only ``known``'s words: among the moves to positions
    of its game, the best by its game's values (a win soonest, else a loss latest; ties at
    random); where it knows none, any legal move."""
    return rng.choice(known_choices(known, position))


AGAINST_LIMIT = 250_000
"""The most positions one `against` search reads (ENABLE's whole game is 80,120)."""


def known_choices(known: Vocabulary, position: Position) -> list[Play]:
    """Every move a ``common:N`` player may make here: its equally best known moves, or
    every legal move where it knows none (see `choose_known`)."""
    plays = [p for p in position.plays if p.fragment in known.values]
    if not plays:
        return list(position.plays)

    def rank(play: Play) -> tuple[int, int]:
        value, length = known.values[play.fragment]
        mine = FLIP[value]
        return WIN - mine, -length if mine == LOSS else length

    best = min(rank(p) for p in plays)
    return [p for p in plays if rank(p) == best]


def against(
    lookup: Callable[[str], Position], known: Vocabulary, position: Position
) -> list[tuple[Play, bool, int]]:
    """Each move at ``position`` with its value for its mover against a ``common:N``
    player who moves next (two-player word games): whether the mover wins with best play
    against that player's way of playing, and in how many moves.  One search over the real
    game: the mover tries every move, the other player makes only the moves it would
    (`known_choices`), any of them (the worst for the mover counts).  TooLarge past
    `AGAINST_LIMIT` positions."""
    memo: dict[str, tuple[bool, int]] = {}
    me = len(position.fragment) % 2

    def value(fragment: str) -> tuple[bool, int]:
        """(the mover at ``position`` wins, moves left) from ``fragment``."""
        found = memo.get(fragment)
        if found is not None:
            return found
        if len(memo) >= AGAINST_LIMIT:
            raise TooLarge(
                f"against a common player from {position.fragment!r} the search passes "
                f"{AGAINST_LIMIT:,} positions: ask from a position further on"
            )
        pos = lookup(fragment)
        mine = len(fragment) % 2 == me
        if pos.is_final or not pos.plays:
            # The player to move here has won (the last mover completed a word) or lost.
            to_move_wins = pos.outcome is Outcome.WIN
            found = (to_move_wins == mine, 0)
        else:
            options = pos.plays if mine else known_choices(known, pos)
            results = [value(p.fragment) for p in options]
            wins = [n for w, n in results if w]
            losses = [n for w, n in results if not w]
            if mine:
                found = (True, min(wins) + 1) if wins else (False, max(losses) + 1)
            else:  # the common player: any of its choices; the worst for the mover counts
                found = (False, min(losses) + 1) if losses else (True, max(wins) + 1)
        memo[fragment] = found
        return found

    return [(p, *value(p.fragment)) for p in position.plays]


def word_rarity(language: str) -> Callable[[str], float]:
    """How often a word is used (wordfreq's frequency, 0 for one it does not know);
    every word 0 without wordfreq or for a language it does not rank."""
    try:
        import wordfreq
    except ImportError:
        return lambda _word: 0.0
    tag = (language or ENGLISH).split("-")[0].lower()
    if tag not in wordfreq.available_languages():
        return lambda _word: 0.0
    return lambda word: wordfreq.word_frequency(word, tag)


def word_zipfs(language: str) -> Callable[[Collection[str]], dict[str, float]] | None:
    """The Zipf frequencies of many words at once in ``language`` (log10 of uses in a
    billion words, as `wordfreq.zipf_frequency` gives a one-word token; 0 for a word it
    does not know; none at all from a list it cannot read); None without wordfreq or for
    a language it does not rank.

    Read from wordfreq's list itself, in the "cBpack" form its `read_cBpack` documents (a
    header, then lists of words, the i-th holding those used 10^(-i/100) of the time):
    importing wordfreq and asking word by word takes 0.2 s, a third of the solve of
    ENABLE's Ghost/3 whose puzzles weigh their words this way; this takes 0.05 s, and
    in a thread from the moment it is asked for, so a solve's build and sweep hide it.
    """
    from importlib.util import find_spec

    spec = find_spec("wordfreq")
    if spec is None or spec.origin is None:
        return None
    data = Path(spec.origin).parent / "data"
    tag = (language or ENGLISH).split("-")[0].lower()
    path = next(
        (p for size in ("large", "small") if (p := data / f"{size}_{tag}.msgpack.gz").is_file()),
        None,
    )
    if path is None:
        return None

    def read() -> list[list[str]]:
        import gzip

        import msgpack  # wordfreq's own dependency

        header, *buckets = msgpack.unpackb(gzip.decompress(path.read_bytes()), raw=False)
        if header != {"format": "cB", "version": 1}:
            raise ValueError(f"{path.name} is not a word frequency list this version reads")
        return buckets

    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(1, thread_name_prefix="wordfreq")
    reading = pool.submit(read)
    pool.shutdown(wait=False)  # its one thread ends when the list is read

    def zipfs(words: Collection[str]) -> dict[str, float]:
        try:
            buckets = reading.result()
        except Exception:  # a list this version cannot read: the words go unweighed
            return {}
        found = dict.fromkeys(words, 0.0)
        wanted = set(found)
        for centibels, bucket in enumerate(buckets):
            for word in wanted.intersection(bucket):
                found[word] = round(9 - centibels / 100, 2)
            wanted.difference_update(bucket)
            if not wanted:
                break
        return found

    return zipfs


def choose_trap(
    lookup: Callable[[str], Position],
    position: Position,
    rng: random.Random,
    frequency: Callable[[str], float],
) -> Play:
    """The ``trap`` player: where it can win, a winning move (soonest); where every move
    loses against perfect play, the one whose refutation is hardest to find: the line of
    best play after it ends on the rarest word, and among those lasts longest."""
    plays = list(position.plays)
    winning = [p for p in plays if p.wins]
    if winning:
        shortest = min(p.game_length or 0 for p in winning)
        return rng.choice([p for p in winning if (p.game_length or 0) == shortest])
    if position.outcome is not Outcome.LOSS:  # a tie or a draw: keep it
        keeping = [p for p in plays if p.category == position.outcome.value]
        return rng.choice(keeping or plays)

    def hardest(play: Play) -> tuple[float, int]:
        return frequency(_refutation(lookup, play)), -(play.game_length or 0)

    best = min(hardest(p) for p in plays)
    return rng.choice([p for p in plays if hardest(p) == best])


def _refutation(lookup: Callable[[str], Position], play: Play) -> str:
    """Where the line of best play after ``play`` ends (a word, in a word game)."""
    for _ in range(100):
        if play.is_final:
            break
        pos = lookup(play.fragment)
        nxt = next((p for p in pos.plays if p.move == pos.best_move), None)
        if nxt is None:
            break
        play = nxt
    return play.fragment
