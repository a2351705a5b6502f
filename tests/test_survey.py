"""`survey`: every dictionary's two-player Ghost solutions in one table, checked against
`summary`, `strategy` and the brute-force solver on small hand-made lists."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from brute import brute_force
from conftest import ROOT, dump, run, write_list

from ghostdb import Rules, Store, open_store
from ghostdb.errors import NotSolved
from ghostdb.games.ghost.rules import Variant

FRENCH = "été étui étude état ami amie abri élan élève aube"
ENGLISH = "ghost green tan tree tries"
PLAIN = "cat camel gecko"
GERMAN = "Haus Hund Bäume gehen laufen über"
SCRIPT = ROOT / "scripts" / "survey.py"
GHOST_3_4 = (Rules(min_length=3), Rules(min_length=4))
SOLVED = {
    "english": (*GHOST_3_4, Rules(Variant.SUPER, 3)),
    "french": GHOST_3_4,
    "french-folded": GHOST_3_4,
    "plain": GHOST_3_4,
}
LANGUAGES = {"english": "en", "french": "fr", "french-folded": "fr", "plain": ""}
# Tagged languages in order, then the untagged; within one, by dictionary, then rules.
ORDER = [
    ("english", "ghost/3"),
    ("english", "ghost/4"),
    ("english", "super/3"),
    ("french", "ghost/3"),
    ("french", "ghost/4"),
    ("french-folded", "ghost/3"),
    ("french-folded", "ghost/4"),
    ("plain", "ghost/3"),
    ("plain", "ghost/4"),
]


@pytest.fixture
def surveyed(tmp_path: Path) -> Path:
    """Four small dictionaries (English, French with accents kept and folded, one without
    a language) solved as SOLVED says, and English for three players besides."""
    db = tmp_path / "ghost.db"
    with open_store(str(db), create=True) as store:
        french = write_list(tmp_path, FRENCH, "french")
        store.ingest(french, language="fr")
        store.ingest(french, name="french-folded", language="fr", fold_accents=True)
        store.ingest(write_list(tmp_path, ENGLISH, "english"), language="en")
        store.ingest(write_list(tmp_path, PLAIN, "plain"))
        for name, rule_sets in SOLVED.items():
            for rules in rule_sets:
                store.solve(name, rules)
        store.solve("english", Rules(min_length=3, players=3))
    return db


def test_survey_agrees_with_summary_strategy_and_brute_force(surveyed: Path) -> None:
    with open_store(str(surveyed)) as store:
        rows = store.survey()
        assert [(r.dictionary, r.rules) for r in rows] == ORDER  # no 3-player row
        for r in rows:
            rules = Rules.from_key(r.rules)
            assert r.language == LANGUAGES[r.dictionary]
            assert r.option("fold_accents") is r.dictionary.endswith("-folded")
            assert r.option("keep_capitalised") is False
            assert r.summary == store.solution(r.dictionary, rules).summary()
            plans = [store.solution(r.dictionary, rules).strategy(player) for player in (0, 1)]
            assert r.lost == (plans[0].losses, plans[1].losses)
            assert r.unit == plans[0].unit
            assert r.summary.plans is not None
            assert [p.outcomes for p in r.summary.plans] == [len(p.endings) for p in plans]

            brute = brute_force(store.words(r.dictionary), rules)
            first_wins = brute.value("")[0]
            assert r.summary.winner == (0 if first_wins else 1)
            assert r.summary.word_count == len(brute.game_words)
            for player, size in enumerate(r.summary.plans):
                rank = (size.lossiness, size.outcomes, size.letters)
                assert rank == brute.plan("", player == 0), (r.dictionary, r.rules, player)
            if rules.variant is Variant.GHOST:
                winning = [f for f in brute.plays("") if not brute.value(f)[0]]
                assert list(r.summary.winning_first_moves) == winning


def test_survey_by_hand(surveyed: Path) -> None:
    """ghost/3 on ghost green tan tree tries: after g both replies end on a word player 0
    completes, and after t player 1 answers a (tan); player 0's best hope is t, then tree
    if player 1 plays r.  In French player 0 wins with é (ét → état, él → élan), which
    folding turns into e."""
    code, out, err = run("survey", db=surveyed)
    assert code == 0, err
    cells = {}
    for line in out.splitlines()[2:]:
        parts = [p.strip() for p in line.split("  ") if p.strip()]
        cells[parts[1], parts[3]] = parts
    assert cells["english", "ghost/3"] == [
        "en", "english", "accents kept", "ghost/3", "5", "player 1", "none",
        "2 words, 1 lost", "2 words, all won",
    ]  # fmt: skip
    assert cells["french", "ghost/3"][5:8] == ["player 0", "é", "2 words, all won"]
    assert cells["french-folded", "ghost/3"][2] == "accents folded"
    assert cells["french-folded", "ghost/3"][5:8] == ["player 0", "e", "2 words, all won"]
    assert cells["plain", "ghost/3"][0] == "-"
    assert cells["english", "super/3"][7].endswith("sequences, 2 lost")


def test_survey_json_and_markdown(surveyed: Path) -> None:
    code, out, _ = run("survey", "--json", db=surveyed)
    assert code == 0
    data = json.loads(out)
    assert [(d["dictionary"], d["rules"]) for d in data] == ORDER
    keys = {
        "dictionary", "language", "fold_accents", "keep_capitalised", "rules", "words",
        "winner", "winning_first_moves", "plans",
    }  # fmt: skip
    for d in data:
        assert set(d) == keys
        assert d["language"] == (LANGUAGES[d["dictionary"]] or None)
        assert d["fold_accents"] is d["dictionary"].endswith("-folded")
        assert d["winner"] in (0, 1)
        assert [p["player"] for p in d["plans"]] == [0, 1]
        for p in d["plans"]:
            assert set(p) == {"player", "outcomes", "unit", "lost", "all_won"}
            assert p["all_won"] is (p["lost"] == 0)
            assert 0 <= p["lost"] <= p["outcomes"]
    english = data[0]
    assert english["winning_first_moves"] == [] and english["words"] == 5
    assert [(p["outcomes"], p["lost"]) for p in english["plans"]] == [(2, 1), (2, 0)]

    code, out, _ = run("survey", "--markdown", db=surveyed)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2 + len(ORDER)
    assert lines[0].startswith("| language | dictionary |")
    assert all(line.startswith("| ") and line.count(" | ") == 8 for line in lines)
    assert lines[2] == (
        "| en | english | accents kept | ghost/3 | 5 | player 1 | none | 2 words, 1 lost "
        "| 2 words, all won |"
    )


def _only_three_players(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, ENGLISH, "english"))
    store.solve("english", Rules(min_length=3, players=3))


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda store, tmp: None, "no dictionaries are stored: add one with `ghostdb ingest"),
        (
            lambda store, tmp: store.ingest(write_list(tmp, ENGLISH, "english")),
            "no dictionary is solved for two-player Ghost: run `ghostdb solve NAME`",
        ),
        (_only_three_players, "no dictionary is solved for two-player Ghost"),
    ],
)
def test_nothing_to_survey_is_one_line(tmp_path: Path, setup: object, message: str) -> None:
    db = tmp_path / "ghost.db"
    with open_store(str(db), create=True) as store:
        setup(store, tmp_path)  # type: ignore[operator]
        with pytest.raises(NotSolved, match=r"^no dictionar"):
            store.survey()
    before = dump(db)
    code, out, err = run("survey", db=db)
    assert (code, out) == (1, "")
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err
    assert dump(db) == before


def test_survey_errors(surveyed: Path, tmp_path: Path) -> None:
    code, out, err = run("survey", "--json", "--markdown", db=surveyed)
    assert (code, out) == (1, "") and err.count("\n") == 1 and "give one" in err
    missing = tmp_path / "none.db"
    code, _, err = run("survey", db=missing)
    assert code == 1 and "no database" in err
    assert not missing.exists()


def _survey_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("survey_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_survey_script_lists() -> None:
    """One list per language or variant, under a BCP 47 tag, in the table's order; the
    German ones (and only they) keep their capitalised nouns; the docstring counts them."""
    script = _survey_script()
    lists = script.LISTS
    assert len({e.language for e in lists}) == len(lists)
    assert len({e.name for e in lists}) == len(lists)
    assert len({e.file for e in lists}) == len(lists)
    assert all(re.fullmatch(r"[a-z]{2,3}(-[A-Z]{2}|-\d{4})?", e.language) for e in lists)
    assert all(re.fullmatch(r"w[a-z-]+", e.package) for e in lists)
    assert list(lists) == sorted(lists, key=lambda e: (e.language, e.name))  # as surveyed
    assert [e.name for e in lists if e.capitalised] == ["german", "german-1901", "swiss-german"]
    assert all(e.capitalised is e.language.startswith("de") for e in lists)
    assert {"wpolish", "wnorwegian", "wamerican-insane"} <= {e.package for e in lists}
    packages = len({e.package for e in lists})
    assert f"{len(lists)} lists from {packages} packages" in " ".join(script.__doc__.split())


def test_survey_script(tmp_path: Path) -> None:
    """The script reads what is there (accents kept and folded; a list without accents
    once, a list another one holds not at all; German with its capitalised nouns), names
    the package of each missing list, prints a Markdown table with each solution's
    fragments and, run again, solves only a list that has changed."""
    lists = tmp_path / "dict"
    lists.mkdir()
    write_list(lists, FRENCH, "french")
    write_list(lists, PLAIN, "spanish")
    write_list(lists, PLAIN, "brazilian")
    write_list(lists, GERMAN, "ngerman")
    for path in lists.iterdir():
        path.rename(path.with_suffix(""))
    db = tmp_path / "survey.db"

    def survey() -> tuple[list[list[str]], str]:
        proc = subprocess.run(
            [sys.executable, str(SCRIPT), "--dict-dir", str(lists), "--db", str(db)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        cells = [line.strip("| ").split(" | ") for line in proc.stdout.splitlines()]
        return cells, proc.stderr

    cells, err = survey()
    assert cells[0][3:6] == ["rules", "game words", "fragments"] and cells[1][5] == "---:"
    assert [row[:3] for row in cells[2:]] == [
        ["de", "german", "accents kept; capitalised words kept"],
        ["de", "german", "accents kept; capitalised words kept"],
        ["de", "german-folded", "accents folded; capitalised words kept"],
        ["de", "german-folded", "accents folded; capitalised words kept"],
        ["es", "spanish", "accents kept"],
        ["es", "spanish", "accents kept"],
        ["fr", "french", "accents kept"],
        ["fr", "french", "accents kept"],
        ["fr", "french-folded", "accents folded"],
        ["fr", "french-folded", "accents folded"],
    ]
    with open_store(str(db), create=True) as store:
        assert {d.name for d in store.dictionaries()} == {
            "french", "french-folded", "german", "german-folded", "spanish",
        }  # fmt: skip
        for row in cells[2:]:
            summary = store.solution(row[1], Rules.from_key(row[3])).summary()
            assert row[4:6] == [f"{summary.word_count:,}", f"{summary.fragment_count:,}"]
    assert "`apt-get install wbulgarian`" in err
    assert "spanish-folded: folding accents changes no word" in err
    assert "brazilian: the same words are stored as spanish: left out" in err
    missing = err.splitlines()[-2]
    assert missing.startswith("lists missing: `apt-get install wbulgarian wcatalan ")
    assert missing.count("wnorwegian") == 1 and "wngerman" not in missing
    assert err.count("solved in") == 10

    for name in ("spanish", "brazilian"):
        write_list(lists, PLAIN + " cab", name).rename(lists / name)
    again, err = survey()
    assert "spanish: replaced" in err and err.count("solved in") == 2
    assert err.count("already solved") == 8
    assert [row for row in again if row[1] != "spanish"] == [
        row for row in cells if row[1] != "spanish"
    ]
    assert [row[4] for row in again if row[1] == "spanish"] == ["4", "2"]  # cab: 3 letters
