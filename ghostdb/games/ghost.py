"""Ghost and its variants over a dictionary, as a `ghostdb.games.base.Game`.

The rules, moves and notation live in `ghostdb.rules`; the fast whole-array builder of
every fragment lives in `ghostdb.graph`.  This module adapts them to the game interface:
positions are fragments, a fragment that is a game word is final (won by the player to
move there, lost in misère), and a fragment's level is its length.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ghostdb.errors import BadMove, NotSolved
from ghostdb.games.base import LOSS, NOT_FINAL, WIN, Game, PositionGraph
from ghostdb.rules import Rules, Variant, clean_fragment


class GhostGame(Game):
    """Ghost, SuperGhost or SuperDuperGhost (see `ghostdb.rules`) over a dictionary.

    ``alphabet`` (the dictionary's letters) is enough to list the moves of a fragment;
    `build` needs the words themselves.
    """

    name = "ghost"
    title = "Ghost"
    word_game = True
    position_noun = "fragment"

    def __init__(self, rules: Rules, alphabet: str = "") -> None:
        super().__init__(rules)
        self.alphabet = alphabet
        self._moves = rules.candidate_moves(alphabet)

    def build(self, words: Sequence[str] | None = None) -> PositionGraph:
        from ghostdb.graph import build_graph  # numpy-heavy: only solving needs it

        if not words:
            raise NotSolved("no words to build the game from")
        graph = build_graph(words, self.rules)
        length = graph.length
        # Storage order is (level, fragment); the builder's order is by fragment, so a
        # stable sort by length gives it.
        order = np.argsort(length, kind="stable").astype(np.int32)
        new = np.empty_like(order)
        new[order] = np.arange(len(order), dtype=np.int32)
        final = np.full(graph.size, NOT_FINAL, dtype=np.int8)
        final[graph.is_word] = LOSS if self.rules.misere else WIN
        parent, child = new[graph.edge_parent], new[graph.edge_child]
        by_parent = np.lexsort((graph.edge_rank, parent))
        fragments = graph.fragments
        return PositionGraph(
            keys=[fragments[i] for i in order.tolist()],
            level=length[order],
            final=final[order],
            edge_parent=parent[by_parent],
            edge_child=child[by_parent],
            edge_rank=graph.edge_rank[by_parent],
            start=int(new[0]),
            acyclic=True,
            word_length=length[order],
        )

    def start(self) -> str:
        return ""

    def level(self, key: str) -> int:
        return len(key)

    def to_move(self, key: str, players: int = 2) -> int | None:
        return self.rules.player_to_move(key, players)

    def candidates(self, key: str) -> list[tuple[str, str]]:
        variant = self.rules.variant
        if variant is Variant.GHOST:
            return [(m.letter, key + m.letter) for m in self._moves]
        seen: dict[str, str] = {}
        for move in self._moves:
            child = move.apply(key)
            if child not in seen:
                seen[child] = move.notation(variant)
        return [(notation, child) for child, notation in seen.items()]

    def clean_key(self, text: str) -> str:
        return clean_fragment(text)

    def parse_move(self, key: str, text: str) -> tuple[str, str]:
        move = self.rules.parse_move(text)
        return move.notation(self.rules.variant), move.apply(key)

    def describe_move(self, parent: str, child: str) -> str:
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
