"""Plans, principal lines, comparisons and reports: hand-made expected output on a small
list, and agreement with an independent brute-force search on random small lists."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from brute import brute_force
from conftest import run as cli
from conftest import write_list
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text, update

from ghostdb import Rules, Store, open_store
from ghostdb.errors import BadMove, DeadFragment, MissingPlans, TooLarge
from ghostdb.games.ghost.rules import Variant
from ghostdb.store.sql.schema import solutions
from ghostdb.text.plans import opening_plan_dict, opening_plans, opening_plans_of

# -- hand-made expected output on "ghost green tan tree tries" --------------------------------
#
# Player 1 wins: after g it plays h (gh and gr both end on one 5-letter word; h comes
# first), after t it plays a (tan, which player 0 completes).  Player 0 cannot win: g
# loses on both words, t loses on tan but player 1 may go wrong with tr, where player 0
# plays e and player 1 must complete tree.

TREE_PLAYER_1 = """\
player 1 from the start: a winning plan, 2 words
(start)  (player 0 to move)
  g  (player 1 to move)
    gh  (player 0 to move)
      gho  (player 1 to move)
        ghos  (player 0 to move)
          ghost  (word: player 1 wins)
  t  (player 1 to move)
    ta  (player 0 to move)
      tan  (word: player 1 wins)
"""

TREE_PLAYER_0 = """\
player 0 from the start: no winning plan; the best one ends on 2 words, 1 of them lost
(start)  (player 0 to move)
  t  (player 1 to move)
    ta  (player 0 to move)
      tan  (word: player 1 wins)
    tr  (player 0 to move)
      tre  (player 1 to move)
        tree  (word: player 0 wins)
"""


def test_tree_output(five: Path) -> None:
    assert cli("strategy", "five", "--player", "1", "--format", "tree", db=five)[1] == TREE_PLAYER_1
    assert cli("strategy", "five", "--player", "0", "--format", "tree", db=five)[1] == TREE_PLAYER_0


def word(fragment: str, to_move: int, outcome: str, result: str) -> dict[str, object]:
    return {
        "fragment": fragment,
        "move": fragment[-1],
        "to_move": to_move,
        "outcome": outcome,
        "game_length": 0,
        "word": True,
        "result": result,
    }


def test_json_output(five: Path) -> None:
    code, out, _ = cli("strategy", "five", "-p", "0", "-f", "json", db=five)
    assert code == 0
    expected = {
        "dictionary": "five",
        "rules": "ghost/3",
        "player": 0,
        "from": "",
        "winning": False,
        "lossiness": 1,
        "outcomes": 2,
        "wins": 1,
        "losses": 1,
        "letters": 7,
        "endings": [
            {
                "word": "tan",
                "path": ["", "t", "ta", "tan"],
                "moves": ["t", "a", "n"],
                "completed_by": 0,
                "winner": 1,
            },
            {
                "word": "tree",
                "path": ["", "t", "tr", "tre", "tree"],
                "moves": ["t", "r", "e", "e"],
                "completed_by": 1,
                "winner": 0,
            },
        ],
        "tree": {
            "fragment": "",
            "move": None,
            "to_move": 0,
            "outcome": "loss",
            "game_length": 5,
            "children": [
                {
                    "fragment": "t",
                    "move": "t",
                    "to_move": 1,
                    "outcome": "win",
                    "game_length": 2,
                    "children": [
                        {
                            "fragment": "ta",
                            "move": "a",
                            "to_move": 0,
                            "outcome": "loss",
                            "game_length": 1,
                            "children": [word("tan", 1, "win", "loss")],
                        },
                        {
                            "fragment": "tr",
                            "move": "r",
                            "to_move": 0,
                            "outcome": "win",
                            "game_length": 2,
                            "children": [
                                {
                                    "fragment": "tre",
                                    "move": "e",
                                    "to_move": 1,
                                    "outcome": "loss",
                                    "game_length": 1,
                                    "children": [word("tree", 0, "win", "win")],
                                }
                            ],
                        },
                    ],
                }
            ],
        },
    }
    assert json.loads(out) == expected


def test_words_output(five: Path) -> None:
    code, out, _ = cli("strategy", "five", "-p", "0", db=five)
    assert code == 0
    assert out.splitlines()[1:] == ["tan   loss", "tree  win"]
    # Without --player: the plan of the player who wins from there.
    code, out, _ = cli("strategy", "five", "--from", "tr", db=five)
    assert out.splitlines() == ["player 0 from 'tr': a winning plan, 1 word", "tree  win"]


def test_dot_output(five: Path) -> None:
    code, out, _ = cli("strategy", "five", "-p", "0", "-f", "dot", db=five)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "digraph ghost {" and lines[-1] == "}"
    edges = {line.strip() for line in lines if "->" in line}
    assert edges == {
        '"f:" -> "f:t" [label="t"];',
        '"f:t" -> "f:ta" [label="a"];',
        '"f:t" -> "f:tr" [label="r"];',
        '"f:ta" -> "f:tan" [label="n"];',
        '"f:tr" -> "f:tre" [label="e"];',
        '"f:tre" -> "f:tree" [label="e"];',
    }
    assert '"f:tree" [label="tree", style="filled", fillcolor="palegreen"];' in lines[-3:-1] + [
        line.strip() for line in lines
    ]


@pytest.mark.skipif(
    shutil.which("dot") is None, reason="needs Graphviz `dot`: apt-get install graphviz"
)
def test_dot_draws_with_graphviz(five: Path) -> None:
    with open_store(str(five)) as store:
        store.solve("five", Rules(Variant.SUPERDUPER))
    for args in (("-p", "0"), ("--rules", "superduper")):
        _, out, _ = cli("strategy", "five", *args, "-f", "dot", db=five)
        drawn = subprocess.run(["dot", "-Tsvg"], input=out, capture_output=True, text=True)
        assert drawn.returncode == 0 and "<svg" in drawn.stdout, drawn.stderr


def test_principal_lines(five: Path) -> None:
    code, out, _ = cli("line", "five", db=five)
    assert code == 0
    # Player 0 loses and stalls: g (5 more moves) beats t (3); both g-words tie.
    assert out.splitlines()[0].endswith("player 1 wins in 5 moves; 2 principal lines")
    assert [line.split()[0] for line in out.splitlines()[4:]] == ["ghost", "green"]
    code, out, _ = cli("line", "five", "t", "--json", db=five)
    data = json.loads(out)
    assert [e["word"] for e in data["endings"]] == ["tan"]  # the winner hurries
    assert data["winner"] == 1 and data["game_length"] == 2


def test_openings_words(five: Path) -> None:
    code, out, _ = cli("openings", "five", "--words", db=five)
    assert code == 0
    rows = out.split("\n\n", 1)[1].splitlines()  # each opening, then its words under it
    opening = "{}  player 1 wins knowing 1 word:"
    assert rows == [opening.format("g"), "   ghost", opening.format("t"), "   tan"]
    data = json.loads(cli("openings", "five", "--words", "--json", db=five)[1])
    assert data[0]["player_0"] is None
    assert [e["word"] for e in data[0]["player_1"]] == ["ghost"]


def test_compare_two_dictionaries(five: Path, tmp_path: Path) -> None:
    with open_store(str(five)) as store:
        store.ingest(write_list(tmp_path, "ghost green tan tree trie", "other"))
        store.solve("other")
        found = store.compare("five", "other")
    assert (found.only_a, found.only_a_examples) == (1, ("tries",))
    assert (found.only_b, found.only_b_examples) == (1, ("trie",))
    # At "tri" player 0 is to move.  In "five" the only word is tries, which player 0
    # completes; in "other" trie is a word, which player 1 completes: the outcome flips.
    differing = {d.fragment for d in found.examples}
    assert "tri" in differing
    assert found.different_outcomes == len(found.examples)
    assert found.common_fragments == 18  # every fragment of "other" but tries
    code, out, _ = cli("compare", "five", "other", "--json", db=five)
    assert code == 0 and json.loads(out)["only_b"] == {"count": 1, "examples": ["trie"]}
    code, out, _ = cli("compare", "five", "other", db=five)
    assert code == 0
    assert "game words only in a: 1: tries" in out and "game words only in b: 1: trie" in out
    assert "tri (loss/win)" in out or "tri (win/loss)" in out


def test_compare_rule_sets_and_report(five: Path) -> None:
    with open_store(str(five)) as store:
        store.solve("five", Rules(min_length=4))
        found = store.compare("five", rules=Rules(min_length=3), vs_rules=Rules(min_length=4))
        assert (found.only_a, found.only_a_examples) == (1, ("tan",))
        assert found.only_b == 0
        with pytest.raises(BadMove, match="nothing to compare"):
            store.compare("five")
        rows = store.report("five")
    assert [r.rules.key for r in rows] == ["ghost/3", "ghost/4"]
    assert [r.winner for r in rows] == [1, 0]  # without tan, t-r-e-e: player 0 wins
    code, out, _ = cli("report", "five", db=five)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == [
        "rules", "shortest", "word", "winner", "player", "0's", "plan",
        "player", "1's", "plan", "fragments",
    ]  # fmt: skip
    assert "2 words, 1 lost: tan tree" in lines[2] and lines[2].endswith("19")


def test_plan_errors(five: Path) -> None:
    with open_store(str(five)) as store:
        with pytest.raises(DeadFragment, match="cannot arise"):
            # "tann" extends the word "tan" in a list that also has "tanner".
            store.ingest(
                write_list(five.parent, "ghost green tan tanner tree tries", "six"), name="six"
            )
            store.solve("six")
            store.solution("six").strategy(0, "tann")
        with pytest.raises(BadMove, match="player 0 or 1"):
            store.solution("five").strategy(2)
        # A solution stored before plans existed (schema revision 0001) has none, nor
        # answers kept from them (revision 0011).
        with store.engine.begin() as conn:
            conn.execute(update(solutions).values(has_plans=False))
            conn.execute(text("DELETE FROM kept_answers"))
    with open_store(str(five)) as store, pytest.raises(MissingPlans, match="--force"):
        store.solution("five").strategy(0)
    code, _, err = cli("strategy", "five", db=five)
    assert code == 1 and err.startswith("error: ") and "ghostdb solve five --force" in err
    code, _, err = cli("strategy", "five", "--from", "te", db=five)
    assert code == 1 and "'te' begins no word" in err


def test_a_plan_move_that_is_not_stored_is_named_not_retried(five: Path) -> None:
    """A reachable position whose plan lost its move (a store written inconsistently)
    makes `strategy` say so and what to run, not that the solution changed."""
    with open_store(str(five)) as store:
        assert store.solution("five").strategy(0).as_dict()  # whole to begin with
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE positions SET plan_play = NULL WHERE level = 0"))
            # The plan from the start is kept: a store written so before it was kept.
            conn.execute(text("DELETE FROM kept_answers"))
    code, _, err = cli("strategy", "five", "--player", "0", db=five)
    assert code == 1 and err.count("\n") == 1, err
    assert "disagree with its positions" in err and "ghostdb verify five" in err, err


# -- against brute force ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def shared_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with open_store(str(tmp_path_factory.mktemp("brute") / "ghost.db"), create=True) as store:
        yield store


word_lists = st.lists(
    st.text(alphabet="abc", min_size=1, max_size=5), min_size=1, max_size=7, unique=True
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=word_lists,
    variant=st.sampled_from(list(Variant)),
    min_length=st.sampled_from([2, 3]),
    misere=st.booleans(),
    apart=st.booleans(),
)
def test_plans_and_lines_match_brute_force(
    shared_store: Store,
    tmp_path_factory: pytest.TempPathFactory,
    words: list[str],
    variant: Variant,
    min_length: int,
    misere: bool,
    apart: bool,
) -> None:
    """``apart``: plans worked out on the reachable positions renumbered on their own
    (as for plain Ghost's few), else on the whole graph (`ghostdb.solvers.plans.SPARSE`)."""
    from ghostdb.solvers import plans

    rules = Rules(variant, min_length, misere)
    if not any(len(w) >= min_length for w in words):
        return
    path = write_list(tmp_path_factory.mktemp("list"), " ".join(words), "random")
    name = shared_store.ingest(path, name=f"r{abs(hash(tuple(words)))}").dictionary.name
    share, plans.SPARSE = plans.SPARSE, (2.0 if apart else 0.0)
    try:
        shared_store.solve(name, rules, force=True)
    finally:
        plans.SPARSE = share
    brute = brute_force(words, rules)

    def principal(f: str) -> list[tuple[str, ...]]:
        win, n = brute.value(f)
        if n == 0:
            return [(f,)]
        return [
            (f, *rest)
            for g in brute.plays(f)
            if brute.value(g)[0] != win and brute.value(g)[1] == n - 1
            for rest in principal(g)
        ]

    # Every fragment a game can reach, each once.
    reachable, todo = {""}, [""]
    while todo:
        for g in brute.plays(todo.pop()):
            if g not in reachable:
                reachable.add(g)
                todo.append(g)
    for fragment in sorted(reachable):
        pos = shared_store.solution(name, rules).lookup(fragment)
        assert (pos.outcome.value == "win", pos.game_length) == brute.value(fragment)
        assert sorted(p.fragment for p in pos.plays) == sorted(brute.plays(fragment))
        for player in (0, 1):
            plan = shared_store.solution(name, rules).strategy(player, fragment)
            lossiness = 0 if plan.losses == 0 else 2 if plan.wins == 0 else 1
            found = (lossiness, len(plan.endings), plan.letters)
            expected = brute.plan(fragment, pos.to_move == player)
            assert found == expected, (fragment, player)
            assert (plan.rank.lossiness, plan.rank.outcomes, plan.rank.letters) == expected
        lines = shared_store.solution(name, rules).line(fragment)
        assert sorted(e.path for e in lines.endings) == sorted(principal(fragment))
        assert_limit_is_exact(shared_store.solution(name, rules), fragment, lines.tree)


def count_nodes(node: Any) -> int:
    return 1 + sum(count_nodes(c) for c in node.children)


def assert_limit_is_exact(solution: Any, fragment: str, tree: Any) -> None:
    """A walk of exactly ``limit`` positions is answered; one more is refused (a walk
    refuses early, before reading a level that must pass the limit)."""
    n = count_nodes(tree)
    assert count_nodes(solution.line(fragment, limit=n).tree) == n
    if n > 1:
        with pytest.raises(TooLarge):
            solution.line(fragment, limit=n - 1)


def test_openings_words_fit_the_terminal(solved_enable1: Store) -> None:
    """`openings --words` wraps each opening's words under it to the terminal's width
    (rows of a table ran to 260 characters), and loses none of them."""
    rules = Rules(min_length=4)
    items = solved_enable1.solution("enable1", rules).opening_plans()
    for width in (40, 80, 100):
        shown_text = opening_plans(items, rules, "enable1", width)
        assert max(map(len, shown_text.splitlines())) <= width
        shown = set(shown_text.split())
        assert all(e.word in shown for item in items for p in item.plans if p for e in p.endings)


@pytest.mark.parametrize("min_length", [3, 4])
def test_openings_words_as_kept_are_the_plans_trees_endings(
    solved_enable1: Store, min_length: int
) -> None:
    """`openings --words` shows the kept plans' words without building their trees
    (`opening_plan_dicts`): they are the trees' own endings, and show the same text."""
    rules = Rules(min_length=min_length)
    solution = solved_enable1.solution("enable1", rules)
    items = solution.opening_plans()
    kept = solution.opening_plan_dicts()
    assert kept == [opening_plan_dict(i) for i in items]
    assert opening_plans_of(kept, rules, "enable1", 80) == opening_plans(
        items, rules, "enable1", 80
    )
