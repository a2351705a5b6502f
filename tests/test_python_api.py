"""The Python API a script author meets (issue 45, item 9): any answer can be fed back,
rules given as a rule set, its label or a variant's name; a value of a wrong type is
refused in one line (TypeError, or BadMove for text that names nothing), never an
AttributeError from inside; `Store.rules_for` names the keywords it was given."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import OWN_WORDLISTS, write_list

from ghostdb import BadMove, Rules, Store, Variant, open_store
from ghostdb.games.registry import GAMES, parse_rules, rules_from_options
from ghostdb.pack import Pack, open_pack

RULE_SETS = (
    "ghost/3",
    "ghost/4",
    "ghost/3/misere",
    "super/3",
    "superduper/3",
    "superduper/4/misere",
    "insert/3",
    "anagram/3",
    "ghost/3/3p",
)
"""Labels as every answer prints them, each solved for five.txt below."""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """five.txt under `RULE_SETS` and every other game at its default rules: milliseconds
    each.  Solved from rule sets: `test_a_rule_label_is_taken_wherever_rules_are` gives
    labels."""
    path = tmp_path_factory.mktemp("api") / "ghost.db"
    with open_store(path, create=True) as opened:
        opened.ingest(OWN_WORDLISTS / "five.txt")
        for label in RULE_SETS:
            opened.solve("five", parse_rules(label))
        for game in GAMES:
            if not game.word_game:
                opened.solve(game.name)
        yield opened


@pytest.fixture(scope="module")
def pack(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pack]:
    path = tmp_path_factory.mktemp("api-pack") / "five.ghostpack"
    store.pack("five", Rules(Variant.SUPERDUPER), path)
    with open_pack(path) as opened:
        yield opened


def near_start(solution: Any, depth: int = 2) -> list[str]:
    """The start and every position up to ``depth`` moves on."""
    level = [solution.lookup()]
    keys = [level[0].fragment]
    for _ in range(depth):
        level = [solution.lookup(p.fragment) for pos in level for p in pos.plays]
        keys += [pos.fragment for pos in level]
    return keys


# -- any answer can be fed back ----------------------------------------------------------------


def test_every_answer_feeds_back_as_it_reads(store: Store) -> None:
    """`store.solution(p.name, p.rules).lookup(p.fragment)` is ``p`` again, for every
    rule set solved and every position near the start: ``p.rules`` is a label (text)."""
    published = [
        s for name in ("five", *(g.name for g in GAMES[1:])) for s in store.published(name)
    ]
    assert {s.rules.key for s in published} >= set(RULE_SETS)
    for solution in published:
        for key in near_start(solution):
            p = solution.lookup(key)
            assert isinstance(p.rules, str)
            again = store.solution(p.name, p.rules)
            assert again.rules == solution.rules, p.rules
            assert again.lookup(p.fragment) == p, (p.rules, p.fragment)


def test_a_pack_answer_feeds_back_to_the_store(store: Store, pack: Pack) -> None:
    for p in pack.probe_many(["", "re", "ee", "gho"]):
        assert not isinstance(p, Exception)
        assert store.solution(p.name, p.rules).lookup(p.fragment) == p
    assert store.solution(pack.name, pack.rules).rules == pack.rules


# -- rules by label, variants by name ----------------------------------------------------------


def test_a_rule_label_is_taken_wherever_rules_are(store: Store, tmp_path: Path) -> None:
    """solve, solve_many, solution, compare, verify, why, pack and export take a label."""
    assert store.solve("five", "ghost/3").skipped
    assert [r.key for r, _ in store.solve_many("five", ["ghost/5", "super/4"])] == [
        "ghost/5",
        "super/4",
    ]
    assert store.solution("five", "super/4").rules == Rules(Variant.SUPER, 4)
    assert store.solution("five", "ghost/3/misere").rules == Rules(misere=True)
    compared = store.compare("five", rules="ghost/3", vs_rules="superduper/3")
    assert (compared.a.rules, compared.b.rules) == ("ghost/3", "superduper/3")
    assert [v.rules for v in store.verify("five", "superduper/3")] == ["superduper/3"]
    store.ingest(write_list(tmp_path, "ghost green tan tree tries trek", "six"))
    store.solve("six", "ghost/4")
    assert store.why("five", "six", "ghost/4").rules == "ghost/4"
    assert store.pack("five", "superduper/4/misere", tmp_path / "sd4m.ghostpack")[0] > 0
    with open_pack(tmp_path / "sd4m.ghostpack") as opened:
        assert opened.rules.key == "superduper/4/misere"
    chopsticks = store.solution("chopsticks", "chopsticks/5")
    assert chopsticks.lookup("11-11").rules == "chopsticks/5"


def test_a_variant_is_taken_by_its_name(store: Store) -> None:
    """As every surface prints it, where a rule set or a variant is taken."""
    assert Rules(variant="superduper") == Rules(Variant.SUPERDUPER)
    assert Rules(variant="SuperDuper", min_length=4).key == "superduper/4"
    assert Rules(variant="superduper").describe() == "SuperDuperGhost, words of 3+ letters"
    assert hash(Rules(variant="super")) == hash(Rules(Variant.SUPER))
    assert store.rules_for("five", variant="superduper") == Rules(Variant.SUPERDUPER)
    for given in ("superduper", "SuperDuper", Variant.SUPERDUPER):
        assert store.solution("five", given).rules == Rules(Variant.SUPERDUPER)
    assert store.solution("five", "superduper").lookup("re").rules == "superduper/3"


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert text and "\n" not in text, text
    return text


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda s: Rules(variant="nope"), "'nope' is not a Ghost variant: the variants are"),
        (lambda s: s.solution("five", "superduper/x"), "'superduper/x' is not a rule set"),
        (lambda s: s.solution("five", "five/3"), "'five/3' is not a rule set"),
        (lambda s: s.solution("five", "chopsticks/5"), "give Ghost rules, not chopsticks/5"),
        (lambda s: s.solve("chopsticks", "superduper/3"), "own rules, not superduper/3"),
        (lambda s: s.solution("five").strategy(player="0"), "player 0 or 1, not '0'"),
    ],
)
def test_text_that_names_no_rules_is_refused_in_one_line(
    store: Store, call: Callable[[Store], Any], says: str
) -> None:
    with pytest.raises(BadMove) as caught:
        call(store)
    assert says in one_line(caught.value)


# -- a wrong type --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda s, p: s.solution("five").lookup(3), "a fragment is text, such as 'gho', not 3"),
        (lambda s, p: s.solution("five").get(3), "a fragment is text, such as 'gho', not 3"),
        (lambda s, p: s.solution("five").lookup(b"gh"), "a fragment is text"),
        (lambda s, p: s.solution("five").lookup_many(["g", 3]), "a fragment is text"),
        (lambda s, p: s.solution("five").lookup_many("gh"), "give a list of fragments"),
        (lambda s, p: s.solution("chopsticks").lookup(11), "a position is text, such as '12-11'"),
        (lambda s, p: s.solution("five").analyse(["g"], start=3), "a fragment is text"),
        (lambda s, p: s.solution("five").analyse(["g", 3]), "move 2 is 3: a move is text"),
        (lambda s, p: s.solution("five", 3), "rules are a rule set, such as Rules(), or its"),
        (lambda s, p: s.solution("tictactoe", 3.0), "such as TicTacToeRules()"),
        (lambda s, p: s.solve("five", ["ghost/3"]), "rules are a rule set"),
        (lambda s, p: Rules(variant=3), "variant is a Variant or its name"),
        (lambda s, p: Rules(min_length="4"), "min_length is a whole number, not '4'"),
        (lambda s, p: Rules(misere="no"), "misere is True or False, not 'no'"),
        (lambda s, p: p.probe(3), "a fragment is text, such as 'gho', not 3"),
        (lambda s, p: p.probe_many("gh"), "give a list of fragments"),
        (lambda s, p: p.probe_many([3]), "a fragment is text"),
        (lambda s, p: p.values([3]), "a key is text, not 3"),
        (lambda s, p: p.values("gh"), "give a list of keys"),
    ],
)
def test_a_wrong_type_is_a_type_error_in_one_line(
    store: Store, pack: Pack, call: Callable[[Store, Pack], Any], says: str
) -> None:
    with pytest.raises(TypeError) as caught:
        call(store, pack)
    assert says in one_line(caught.value)


def test_a_path_may_be_text(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert store.pack("five", "ghost/3", "five.ghostpack")[0] > 0
    with open_pack("five.ghostpack") as opened:
        assert opened.probe("gh").rules == "ghost/3"
    pytest.importorskip("pyarrow", reason="needs pyarrow: pip install -e '.[dev]'")
    written, rows = store.export_parquet("five", "ghost/3", "out")
    assert written.is_file() and rows > 0


def test_an_empty_position_or_none_is_still_the_start(store: Store, pack: Pack) -> None:
    solution = store.solution("five", "superduper/3")
    assert solution.lookup(None) == solution.lookup("") == solution.lookup()  # type: ignore[arg-type]
    assert pack.probe("") == solution.lookup()


# -- rules_for names the Python keywords ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options", "says"),
    [
        (
            "five",
            {"rules": "super"},
            "rules= is not a rule option of ghost (the command line's --rules is variant=): "
            "its rule options are variant=, min_length=, misere=, players=",
        ),
        (
            "chopsticks",
            {"variant": "super"},
            "variant= is not a rule option of chopsticks: its rule options are fingers=, "
            "rollover=, transfers=",
        ),
        ("five", {"variant": "nope"}, "variant= is one of ghost, super, superduper"),
        ("five", {"min_length": 0}, "min_length= must be from 1 to 64, not 0"),
        ("five", {"players": "two"}, "players= takes a whole number, not 'two'"),
        ("five", {"misere": "yes"}, "misere= is True or False, not 'yes'"),
    ],
)
def test_rules_for_names_the_python_keywords(
    store: Store, name: str, options: dict[str, Any], says: str
) -> None:
    with pytest.raises(BadMove) as caught:
        store.rules_for(name, **options)
    said = one_line(caught.value)
    assert says in said
    assert "--" not in said.split("(")[0]  # no flag, but where it says what a flag is


def test_the_command_line_keeps_its_flags() -> None:
    """The same checks from the command line's side name its flags, as before."""
    with pytest.raises(BadMove, match=r"^--fingers is not a rule option of ghost: its rule "):
        rules_from_options("five", fingers=3)
    with pytest.raises(BadMove, match=r"^--min-length must be from 1 to 64, not 0$"):
        rules_from_options("five", min_length=0)
