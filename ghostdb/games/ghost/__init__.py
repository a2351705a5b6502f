"""Ghost and its variants over a dictionary, as a `ghostdb.games.base.Game`.

The rules and the notation of Ghost, SuperGhost and SuperDuperGhost live in
`ghostdb.games.ghost.rules`; the fast whole-array builders of every fragment live in
`ghostdb.games.ghost.graph`, on the letter codes of `ghostdb.games.ghost.letters` (word
lists laid end to end, fragments kept packed); `ghostdb.games.ghost.estimate` counts the
fragments a list makes from samples, before a solve (`ghostdb.memory`).  After the solve,
`ghostdb.games.ghost.fragments` holds a stored solution's fragments compactly, for
`ghostdb.games.ghost.decisive`: the words that decide a game, found again from the
stored values; `ghostdb.games.ghost.multisets` finds Anagram Ghost's moves among a
pack's positions all at once, for its check.
This module adapts the rules and the graph to the game interface: positions are
fragments, a fragment that is a game word is final (won by the player to move there, lost
in misère), and a fragment's level is its length.  It also holds the moves of the two
variants that are not a letter at an end:

* **Insert Ghost**: a letter goes anywhere; written ``+s`` (in front), ``s+`` (at the end)
  or ``s@2`` (after the first 2 letters).  Move order: by letter, then insertion point
  from the left; where two points give the same fragment the first names it.
* **Anagram Ghost**: a position is a multiset of letters, its key the letters sorted
  (``era`` is ``aer``); a move adds a letter, written as the letter.  A position is final
  only when every arrangement of it that is part of a game word is itself a game word
  (a player who can say a non-word arrangement says it); the stored label of a position
  is an arrangement its mover can say.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ghostdb.errors import BadMove, NotForThisGame, NotSolved
from ghostdb.games.base import LOSS, NOT_FINAL, WIN, Game, PositionGraph
from ghostdb.games.ghost.rules import (
    MAX_PLAYERS,
    OPTIONS,
    Rules,
    Variant,
    clean_fragment,
    standard_rule_sets,
)

if TYPE_CHECKING:
    from ghostdb.games.ghost.graph import Graph

_INSERT_RE = re.compile(
    r"^(?:\+(?P<front>[^\W\d_])|(?P<end>[^\W\d_])\+?|(?P<letter>[^\W\d_])@(?P<at>\d+))$"
)


DECIDED = (Variant.GHOST, Variant.SUPER, Variant.SUPERDUPER)
"""The variants whose decisive words `GhostGame.decider` works out."""


ANAGRAM_WEIGHT = 1.4
"""An Anagram Ghost solve's peak memory for each infix of its words, in positions of the
others (the memory check's unit): its build holds every infix's letters sorted, and on
ENABLE its peak is 1.35 times SuperDuperGhost's over the same infixes."""


class GhostGame(Game):
    """Ghost, SuperGhost or SuperDuperGhost (see `ghostdb.games.ghost.rules`) over a dictionary.

    ``alphabet`` (the dictionary's letters) is enough to list the moves of a fragment;
    `build` needs the words themselves.
    """

    name = "ghost"
    title = "Ghost"
    rules_type = Rules
    options = OPTIONS
    word_game = True
    max_players = MAX_PLAYERS
    position_noun = "fragment"
    board = "letters"
    how_to_play = (
        "Players take turns adding a letter to a growing fragment, which must always "
        "begin some word of the dictionary. Whoever completes a word (of at least the "
        "minimum length) loses. SuperGhost lets a letter go at either end; SuperDuperGhost "
        "also lets the fragment be reversed first; Insert Ghost puts a letter anywhere; "
        "Anagram Ghost lets the letters be rearranged."
    )

    def explain(self) -> str:
        rules = self.rules
        seats = "Two players" if rules.players == 2 else f"{rules.players} players"
        where, must = {
            Variant.GHOST: ("to the end of a growing fragment", "begin some word"),
            Variant.SUPER: ("at either end of a growing fragment", "appear inside some word"),
            Variant.SUPERDUPER: (
                "at either end of a growing fragment, which they may first reverse",
                "appear inside some word, forwards or backwards",
            ),
            Variant.INSERT: ("anywhere in a growing fragment", "appear inside some word"),
            Variant.ANAGRAM: (
                "to a growing set of letters",
                "be rearrangeable into part of some word",
            ),
        }[rules.variant]
        ends = "wins" if rules.misere else "loses"
        return (
            f"{seats} take turns adding a letter {where}; it must always {must} of the "
            f"dictionary. Whoever completes a word of {rules.min_length} or more letters "
            f"{ends}."
        )

    example_positions = ("", "gho")

    def __init__(self, rules: Rules, alphabet: str = "") -> None:
        super().__init__(rules)
        self.alphabet = alphabet
        self._letters = frozenset(alphabet)
        self._moves = rules.candidate_moves(alphabet)
        # Each move with its notation, made once: walks ask for a position's candidates
        # at every node (SuperDuperGhost has four moves a letter).
        self._noted = [(move, move.notation(rules.variant)) for move in self._moves]
        self.children_extend_key = rules.variant is Variant.GHOST
        self.key = rules.key
        self._players = rules.players

    # -- rule sets -------------------------------------------------------------------------

    @classmethod
    def owns_key(cls, key: str) -> bool:
        """Ghost's keys start with the variant (``ghost/3``, ``super/4/misere``)."""
        return key.split("/", 1)[0] in {v.value for v in Variant}

    @classmethod
    def standard_rule_sets(cls, misere: bool = False) -> list[Rules]:
        """Ghost, SuperGhost and SuperDuperGhost, each with words of 3+ and 4+."""
        return standard_rule_sets(misere)

    def cost(self) -> int:
        return {Variant.SUPERDUPER: 3, Variant.SUPER: 2, Variant.INSERT: 4, Variant.ANAGRAM: 3}.get(
            self.rules.variant, 1
        )

    def check_decisive(self) -> None:
        """Ghost, SuperGhost and SuperDuperGhost for two players: their fragments are
        the prefixes or infixes of words, so an edit changes what `decider` can trace."""
        rules = self.rules
        if rules.variant not in DECIDED or rules.players != 2:
            raise NotForThisGame(
                f"decisive words are worked out for Ghost, SuperGhost and SuperDuperGhost "
                f"for two players, not for {rules.describe()}: give --rules ghost"
            )

    def decider(self, words: Sequence[str], values: Mapping[str, str]) -> Any:
        """Single-word edits re-evaluated from the stored values: one path a word in
        plain Ghost (the fewest edits exact), a word's infixes in the Super variants (the
        fewest edits bounded)."""
        self.check_decisive()
        if self.rules.variant is Variant.GHOST:
            from ghostdb.games.ghost.decisive.plain import Decider

            return Decider(words, values, self.rules.misere)
        from ghostdb.games.ghost.decisive.infix import InfixDecider

        reversals = self.rules.variant is Variant.SUPERDUPER
        return InfixDecider(words, values, self.rules.misere, reversals)

    @property
    def plan_unit(self) -> str:
        """What one outcome of a plan is: a word (plain Ghost) or a sequence of fragments."""
        return "word" if self.rules.variant is Variant.GHOST else "sequence"

    def not_stored(self, key: str, stored: Callable[[str], bool], name: str) -> str:
        """No word continues ``key``: in plain Ghost the longest stored prefix tells which
        letter was the fatal one; a letter of no word of the dictionary is a typo."""
        typo = self._typo(key)
        if typo:
            return typo
        rules = self.rules
        if rules.variant is not Variant.GHOST:
            return (
                f"{key!r} is part of no word of {rules.min_length}+ letters in {name}: "
                "whoever made it has lost"
            )
        alive = next((key[:i] for i in range(len(key) - 1, 0, -1) if stored(key[:i])), "")
        fatal = key[len(alive)]
        where = "" if len(alive) == len(key) - 1 else f" (the game was lost at {alive + fatal!r})"
        return (
            f"{key!r} begins no word of {rules.min_length}+ letters in {name}: "
            f"whoever played the {fatal} has lost{where}"
        )

    # -- the graph -------------------------------------------------------------------------

    def positions_at_most(self, words: Sequence[str] | None) -> int | None:
        """Every prefix of every word (Ghost), every infix (the others); for Anagram, whose
        positions are sorted infixes (fewer), `ANAGRAM_WEIGHT` an infix."""
        if not words:
            return None
        if self.rules.variant is Variant.GHOST:
            return 1 + sum(map(len, words))
        infixes = 1 + sum(n * (n + 1) // 2 for n in map(len, words))
        return self._weighed(infixes)

    def estimate_positions(self, words: Sequence[str] | None) -> int | None:
        """From the graphs of three samples of the words (see
        `ghostdb.games.ghost.estimate`).  Insert Ghost's positions are the infixes, as
        SuperDuperGhost's, and Anagram's are at most those (`ANAGRAM_WEIGHT` each): both
        are estimated as SuperDuperGhost's."""
        if not words:
            return None
        from ghostdb.games.ghost.estimate import estimate_positions

        rules = self.rules
        if rules.variant in (Variant.INSERT, Variant.ANAGRAM):
            rules = dataclasses.replace(rules, variant=Variant.SUPERDUPER)
        return self._weighed(estimate_positions(words, rules))

    def _weighed(self, infixes: int) -> int:
        if self.rules.variant is not Variant.ANAGRAM:
            return infixes
        return math.ceil(infixes * ANAGRAM_WEIGHT)

    def build(self, words: Sequence[str] | None = None) -> PositionGraph:
        from ghostdb.games.ghost import graph as builders

        if not words:
            raise NotSolved("no words to build the game from")
        variant = self.rules.variant
        if variant is Variant.INSERT:
            graph = builders.build_insert_graph(words, self.rules.min_length)
        elif variant is Variant.ANAGRAM:
            graph = builders.build_anagram_graph(words, self.rules.min_length)
        else:
            graph = builders.build_graph(words, self.rules)
        return _in_storage_order(graph, LOSS if self.rules.misere else WIN)

    @property
    def keys_are_words(self) -> bool:
        return self.rules.variant is not Variant.ANAGRAM  # Anagram's keys: sorted letters

    def start(self) -> str:
        return ""

    def level(self, key: str) -> int:
        return len(key)

    def to_move(self, key: str, players: int | None = None) -> int | None:
        return len(key) % (players or self._players)  # every move adds one letter

    def candidates(self, key: str) -> list[tuple[str, str]]:
        variant = self.rules.variant
        if variant is Variant.GHOST:
            return [(m.letter, key + m.letter) for m in self._moves]
        if variant is Variant.ANAGRAM:
            return [(c, "".join(sorted(key + c))) for c in self.alphabet]
        if variant is Variant.INSERT:
            found: dict[str, str] = {}
            for c in self.alphabet:
                for i in range(len(key) + 1):
                    found.setdefault(key[:i] + c + key[i:], _insert_notation(c, i, len(key)))
            return [(notation, child) for child, notation in found.items()]
        seen: dict[str, str] = {}
        for move, notation in self._noted:
            child = move.apply(key)
            if child not in seen:
                seen[child] = notation
        return [(notation, child) for child, notation in seen.items()]

    def moves_among(self, keys: Any) -> tuple[Any, Any] | None:
        if self.rules.variant is not Variant.ANAGRAM:
            return None  # (the others' packs are checked against a graph made again)
        from ghostdb.games.ghost.multisets import moves_among

        return moves_among(keys)

    def clean_key(self, text: str) -> str:
        fragment = clean_fragment(text)
        if self.rules.variant is Variant.ANAGRAM:
            return "".join(sorted(fragment))
        return fragment

    def _typo(self, text: str) -> str | None:
        """A letter the dictionary has no word with is a typo, not a move that loses (no
        move plays it: `candidates` plays the dictionary's alphabet): what to say, or None."""
        if not self.alphabet or set(text) <= self._letters:
            return None
        bad = next(ch for ch in text if ch not in self._letters)
        return (
            f"{bad!r} is in no word of the dictionary (its letters: "
            f"{_ranges(self.alphabet)}): a typo?"
        )

    def parse_move(self, key: str, text: str) -> tuple[str, str]:
        notation, child = self._parse_move(key, text)
        typo = self._typo(child)
        if typo:
            raise BadMove(typo)
        return notation, child

    def _parse_move(self, key: str, text: str) -> tuple[str, str]:
        variant = self.rules.variant
        if variant is Variant.ANAGRAM:
            letter = unicodedata.normalize("NFC", text.strip()).lower()
            if len(letter) != 1 or not letter.isalpha():
                raise BadMove(f"{text.strip()!r} is not a move: {self.move_hint()}")
            return letter, "".join(sorted(key + letter))
        if variant is Variant.INSERT:
            match = _INSERT_RE.match(unicodedata.normalize("NFC", text.strip()).lower())
            if not match:
                raise BadMove(f"{text.strip()!r} is not a move: {self.move_hint()}")
            if match["front"]:
                letter, at = match["front"], 0
            elif match["end"]:
                letter, at = match["end"], len(key)
            else:
                letter, at = match["letter"], int(match["at"])
                if at > len(key):
                    raise BadMove(
                        f"{text.strip()!r}: the fragment has only {len(key)} letters: "
                        f"{self.move_hint()}"
                    )
            child = key[:at] + letter + key[at:]
            for notation, candidate in self.candidates(key):
                if candidate == child:
                    return notation, child
            return _insert_notation(letter, at, len(key)), child
        move = self.rules.parse_move(text)
        return move.notation(variant), move.apply(key)

    def describe_move(self, parent: str, child: str) -> str:
        if self.rules.variant in (Variant.INSERT, Variant.ANAGRAM):
            return super().describe_move(parent, child)
        try:
            return self.rules.describe_move(parent, child)
        except BadMove:
            raise BadMove(f"no single move turns {parent!r} into {child!r}") from None

    def move_hint(self) -> str:
        return self.rules.move_hint()

    def ending(self, key: str) -> str:
        return f"completed the word {key!r}"

    def label(self, key: str) -> str:
        return key or "(start)"

    def can_become(self, key: str, word: str) -> bool:
        """A word of the minimum length or more that begins with the fragment (Ghost),
        has it inside as written (Super, SuperDuper, Insert: the fragments are infixes)
        or has the letters of an Anagram position side by side in some order (a position
        is the letters of an infix, as the stored graph makes them)."""
        if len(word) < self.rules.min_length:
            return False
        variant = self.rules.variant
        if variant is Variant.GHOST:
            return word.startswith(key)
        if variant is Variant.ANAGRAM:
            n = len(key)
            return any("".join(sorted(word[i : i + n])) == key for i in range(len(word) - n + 1))
        return key in word

    def dead_play(self, after: str, continuations: Sequence[str]) -> str | None:
        """A letter no word continues loses, as in the spoken game; the message names the
        fragments that would have continued, so the player sees what they missed."""
        quoted = [repr(f) for f in continuations]
        if len(quoted) > 5:
            shown = ", ".join(quoted[:4]) + f" or {len(quoted) - 4} more"
        else:
            shown = ", ".join(quoted[:-1]) + " or " * (len(quoted) > 1) + "".join(quoted[-1:])
        verb = "begins with" if self.rules.variant is Variant.GHOST else "contains"
        return f"no word {verb} {after!r}; {shown} would have continued"


def _insert_notation(letter: str, at: int, length: int) -> str:
    """``+s`` in front, ``s+`` at the end, ``s@2`` after the first 2 letters."""
    if at == 0:
        return f"+{letter}"
    if at == length:
        return f"{letter}+"
    return f"{letter}@{at}"


def _in_storage_order(graph: Graph, word_value: int) -> PositionGraph:
    """A builder's graph (`ghostdb.games.ghost.graph.Graph`, nodes in fragment order)
    renumbered into storage order, (level, fragment), keys and labels still packed.

    A stable sort by length gives that order.  The builders give edges sorted by
    (parent, rank), and renumbering keeps the order of the nodes of one level, so a
    stable sort of the edges by their parent's level sorts them by (new parent, rank):
    two radix sorts of small integers, not a sort of 64-bit keys.
    """
    import numpy as np  # building only: lookups start without numpy

    length = graph.length
    small = np.int16 if int(length.max(initial=0)) < 1 << 15 else np.int32
    level = length.astype(small)
    order = np.argsort(level, kind="stable").astype(np.int32)
    new = np.empty_like(order)
    new[order] = np.arange(len(order), dtype=np.int32)
    final = np.full(graph.size, NOT_FINAL, dtype=np.int8)
    final[graph.is_word] = word_value
    by_parent = np.argsort(level[graph.edge_parent], kind="stable")
    del level
    keys = graph.fragments.reorder(order)
    in_order = keys.lengths  # the keys' lengths, level and word length alike: one array
    return PositionGraph(
        keys=keys,
        level=in_order,
        final=final[order],
        edge_parent=new[graph.edge_parent[by_parent]],
        edge_child=new[graph.edge_child[by_parent]],
        edge_rank=graph.edge_rank[by_parent],
        start=int(new[0]),
        acyclic=True,
        word_length=in_order,
        labels=None if graph.labels is None else graph.labels.reorder(order),
    )


def _ranges(alphabet: str) -> str:
    """The letters, runs of four or more in a row as ``a–z``: ``a–z``, ``aąbcćde…``."""
    runs: list[list[str]] = []
    for ch in sorted(alphabet):
        if runs and ord(ch) == ord(runs[-1][-1]) + 1:
            runs[-1].append(ch)
        else:
            runs.append([ch])
    return "".join(f"{r[0]}–{r[-1]}" if len(r) >= 4 else "".join(r) for r in runs)
