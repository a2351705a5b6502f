"""Kept answers (`ghostdb.store.answers.kept`): whole-solution answers worked out once
and read back.

What is kept must be what the positions give when worked out again (the census a solve
job counts from its arrays included), for every registered game, for real dictionaries
and for random small ones; a kept answer never outlives its solution; a reader that may
not write gets NotWorkedOut naming the command, and that command works.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, run, shared_list, write_list
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import and_, delete, func, select, update

from ghostdb import Rules, Store, open_store
from ghostdb.errors import NotWorkedOut
from ghostdb.games.ghost.rules import Variant
from ghostdb.games.registry import GAMES, parse_rules
from ghostdb.store.answers import kept
from ghostdb.store.answers.comparing import work_out_pair
from ghostdb.store.answers.keeping import work_out
from ghostdb.store.answers.kept import SUMMARY
from ghostdb.store.answers.puzzles import PUZZLES
from ghostdb.store.sql import queries as q
from ghostdb.store.sql.schema import kept_answers, solutions
from ghostdb.store.verification.kept import check_puzzles

WORDS = "cat cattle cow dog door dot toad"  # cattle: positions no game reaches


def kept_rows(store: Store) -> list[tuple[int, int, str]]:
    with store.engine.connect() as conn:
        stmt = select(
            kept_answers.c.solution_id, kept_answers.c.other_id, kept_answers.c.question
        ).order_by(kept_answers.c.solution_id, kept_answers.c.other_id, kept_answers.c.question)
        return [tuple(r) for r in conn.execute(stmt).all()]


def published_ids(store: Store) -> set[int]:
    with store.engine.connect() as conn:
        return {r.id for r in q.all_published(conn)}


def assert_kept_equal_fresh(store: Store) -> int:
    """Every answer kept about a published solution equals one worked out again from its
    positions; returns how many were compared."""
    compared = 0
    with store.engine.connect() as conn:
        names = {r.id: (r.name, parse_rules(r.rules)) for r in q.all_published(conn)}
        rows = {sid: kept.stored(conn, sid, names) for sid in names}
    for sid, answers in rows.items():
        solution = store.solution(*names[sid])
        assert solution.id == sid
        for key, body in answers:
            if key.other_id:
                other = store.solution(*names[key.other_id])
                fresh = work_out_pair(solution, other, body["limit"])
            elif key.question == PUZZLES:  # found over the solve's arrays: each checked
                assert check_puzzles(solution, body) == [], names[sid]
                compared += 1
                continue
            else:
                fresh = work_out(solution, key.question)
            assert kept.same(body, fresh), (names[sid], key)
            compared += 1
    return compared


@pytest.fixture
def every_game(tmp_path: Path) -> Iterator[Store]:
    """Every registered game solved at its default rules (Ghost over a small list under
    three rule sets)."""
    with open_store(tmp_path / "ghost.db", create=True) as store:
        store.ingest(write_list(tmp_path, WORDS, "tiny"))
        for game in GAMES:
            store.solve("tiny" if game.word_game else game.name)
        store.solve("tiny", Rules(min_length=4))
        store.solve("tiny", Rules(Variant.SUPERDUPER))
        yield store


def test_publishing_keeps_every_games_answers_and_they_are_the_positions(
    every_game: Store,
) -> None:
    rows = kept_rows(every_game)
    ids = published_ids(every_game)
    # Every solution has its figures kept; word games (two players) their plans too.
    assert {sid for sid, _, question in rows if question == SUMMARY} == ids
    questions = {question for _, _, question in rows}
    assert {"plan/0", "plan/1", "openings"} <= questions
    assert assert_kept_equal_fresh(every_game) == len(rows)


def test_a_report_read_from_kept_answers_equals_one_worked_out(every_game: Store) -> None:
    names = ["tiny", *(g.name for g in GAMES if not g.word_game)]
    kept_reports = {n: [r.as_dict() for r in every_game.report(n, compute=False)] for n in names}
    with every_game.engine.begin() as conn:
        conn.execute(delete(kept_answers))
    for name in names:
        fresh = [r.as_dict() for r in every_game.report(name)]
        assert kept_reports[name] == fresh
        for row in fresh:  # the census counts every position once
            assert sum(c["positions"] for c in row["positions_by_level"]) == row["fragments"]
            reachable = sum(c["reachable"] for c in row["positions_by_level"])
            assert reachable == sum(row["positions_by_outcome"].values())


def test_verify_finds_a_tampered_kept_answer(every_game: Store) -> None:
    assert all(v.ok and v.kept >= 1 for v in every_game.verify())
    solution = every_game.solution("tiny")
    with every_game.engine.begin() as conn:
        body = json.loads(
            conn.execute(
                select(kept_answers.c.body).where(
                    kept_answers.c.solution_id == solution.id, kept_answers.c.question == SUMMARY
                )
            ).scalar_one()
        )
        body["census"][0][2] += 1
        conn.execute(
            update(kept_answers)
            .where(kept_answers.c.solution_id == solution.id, kept_answers.c.question == SUMMARY)
            .values(body=kept.encode(body))
        )
    verdict = every_game.verify("tiny")[0]
    assert not verdict.ok
    assert [f.kind for f in verdict.inconsistencies()] == ["kept answer"]
    assert "summary" in verdict.inconsistencies()[0].examples[0]


def test_verify_of_either_side_finds_a_tampered_comparison(every_game: Store) -> None:
    every_game.compare("tiny", None, Rules(), Rules(min_length=4))
    sides = {every_game.solution("tiny", r).id: r for r in (Rules(), Rules(min_length=4))}
    pair = and_(kept_answers.c.solution_id.in_(sides), kept_answers.c.other_id.in_(sides))
    with every_game.engine.begin() as conn:
        body = json.loads(conn.execute(select(kept_answers.c.body).where(pair)).scalar_one())
        body["common"] += 1
        conn.execute(update(kept_answers).where(pair).values(body=kept.encode(body)))
    for rules in sides.values():  # the comparison is checked whichever side is verified
        (verdict,) = every_game.verify("tiny", rules)
        assert [f.kind for f in verdict.inconsistencies()] == ["kept answer"], rules
        assert "the comparison of tiny" in verdict.inconsistencies()[0].examples[0]
    # The whole store checks it once.
    found = [f for v in every_game.verify() for f in v.inconsistencies()]
    assert [f.count for f in found] == [1]


def test_no_kept_answer_outlives_its_solution(every_game: Store, tmp_path: Path) -> None:
    every_game.compare("tiny", None, Rules(), Rules(min_length=4))
    old = every_game.solution("tiny").id
    assert any(other for sid, other, _ in kept_rows(every_game) if sid == old)
    every_game.solve("tiny", force=True)
    ids = published_ids(every_game)
    rows = kept_rows(every_game)
    assert old not in ids
    assert all(sid in ids and other in (0, *ids) for sid, other, _ in rows)
    assert not any(other for _, other, _ in rows)  # the comparison went with the old side
    # Replacing the dictionary drops every answer about its solutions.
    every_game.ingest(write_list(tmp_path, "cat dog", "tiny"), replace=True)
    assert {sid for sid, _, _ in kept_rows(every_game)} <= published_ids(every_game)


def test_a_read_only_store_says_what_works_an_answer_out(every_game: Store, tmp_path: Path) -> None:
    path = Path(every_game.engine.url.database)
    with every_game.engine.begin() as conn:
        conn.execute(delete(kept_answers))
    with open_store(path, readonly=True) as reader:
        for ask in (
            lambda s: s.report("tiny"),
            lambda s: s.survey(),
            lambda s: s.solution("tiny").strategy(1),
            lambda s: s.solution("tiny").opening_plans(),
            lambda s: s.compare("tiny", None, Rules(), Rules(min_length=4)),
        ):
            with pytest.raises(NotWorkedOut, match=r"not worked out yet: run `ghostdb "):
                ask(reader)
    # The command named works it out and keeps it; the reader then has it.
    code, _, err = run("compare", "tiny", "--vs-min-length", "4", db=path)
    assert code == 0, err
    code, _, err = run("report", "tiny", db=path)
    assert code == 0, err
    with open_store(path, readonly=True) as reader:
        assert reader.compare("tiny", None, Rules(), Rules(min_length=4)).b.rules == "ghost/4"
        assert reader.report("tiny")
        # Either side's order reads the same kept comparison, sides swapped.
        swapped = reader.compare("tiny", None, Rules(min_length=4), Rules())
        assert swapped.a.rules == "ghost/4" and swapped.only_b > 0


def test_solving_again_keeps_what_an_interrupted_keep_left_out(every_game: Store) -> None:
    with every_game.engine.begin() as conn:
        conn.execute(delete(kept_answers))
    result = every_game.solve("tiny")
    assert result.skipped
    assert {sid for sid, _, q_ in kept_rows(every_game) if q_ == SUMMARY} == {
        every_game.solution("tiny").id
    }


def test_more_examples_than_kept_are_worked_out_again(every_game: Store) -> None:
    first = every_game.compare("tiny", None, Rules(), Rules(min_length=4), examples=1)
    assert len(first.examples) <= 1
    again = every_game.compare("tiny", None, Rules(), Rules(min_length=4), examples=100)
    assert again.different_outcomes == first.different_outcomes
    assert len(again.examples) == min(100, again.different_outcomes)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=st.lists(st.text("abc", min_size=1, max_size=5), min_size=1, max_size=12),
    variant=st.sampled_from(list(Variant)),
    misere=st.booleans(),
    min_length=st.integers(1, 3),
)
def test_kept_answers_of_random_lists_are_the_positions(
    tmp_path_factory: pytest.TempPathFactory,
    words: list[str],
    variant: Variant,
    misere: bool,
    min_length: int,
) -> None:
    from brute import brute_force

    if not any(len(w) >= min_length for w in words):
        return
    directory = tmp_path_factory.mktemp("random")
    rules = Rules(variant, min_length=min_length, misere=misere)
    with open_store(directory / "ghost.db", create=True) as store:
        store.ingest(write_list(directory, " ".join(words), "r"))
        store.solve("r", rules)
        store.solve("r", Rules(min_length=min_length))
        if rules != Rules(min_length=min_length):
            store.compare("r", None, rules, Rules(min_length=min_length))
        assert assert_kept_equal_fresh(store) >= 2
        summary = store.solution("r", rules).summary(compute=False)
        wins, _ = brute_force(sorted(set(words)), rules).value("")
        assert summary.winner == (0 if wins else 1)


@pytest.mark.slow
@pytest.mark.long  # two real dictionaries solved in every kept answer
@pytest.mark.parametrize("listname", ["enable1.txt", "twl06.txt"])
def test_kept_answers_of_real_lists_are_the_positions(tmp_path: Path, listname: str) -> None:
    with open_store(tmp_path / "ghost.db", create=True) as store:
        store.ingest(shared_list(listname), name="words")
        for rules in (Rules(), Rules(min_length=4), Rules(misere=True)):
            store.solve("words", rules)
        store.compare("words", None, Rules(), Rules(min_length=4))
        assert assert_kept_equal_fresh(store) >= 10


CI_LISTS = ("american-english-insane", "british-english-huge", "ngerman", "dutch", "swedish",
            "french", "polish")  # fmt: skip
"""Debian's lists CI installs (.ci/run)."""


@pytest.mark.slow
@pytest.mark.long  # half a minute to minutes, with the lists drawn (Polish's is big)
def test_kept_answers_of_a_random_sample_of_debian_lists_are_the_positions(
    tmp_path: Path,
) -> None:
    from ghostdb.world import DEBIAN_LISTS, DICT_DIR, WORLD_RULES

    entries = [e for e in DEBIAN_LISTS if e.file in CI_LISTS]
    missing = [e.package for e in entries if not (DICT_DIR / e.file).is_file()]
    if missing:
        pytest.skip(f"needs Debian's lists: apt-get install {' '.join(missing)}")
    chosen = random.sample(entries, 3)  # a new sample each run, named on failure
    with open_store(tmp_path / "ghost.db", create=True) as store:
        for entry in chosen:  # every 40th word: the lists' own letters, a small store
            # As bytes: some of Debian's lists are not UTF-8 (ingest reads their encoding).
            lines = (DICT_DIR / entry.file).read_bytes().splitlines()
            path = tmp_path / f"{entry.name}.txt"
            path.write_bytes(b"\n".join(lines[::40]) + b"\n")
            store.ingest(path, name=entry.name, keep_capitalised=entry.capitalised)
            for key in WORLD_RULES:
                store.solve(entry.name, parse_rules(key))
        a, b = (e.name for e in chosen[:2])
        store.compare(a, b, Rules(), None)
        store.compare(a, None, Rules(), Rules(Variant.SUPERDUPER))
        compared = assert_kept_equal_fresh(store)
        assert compared >= 3 * len(WORLD_RULES) + 2, [e.name for e in chosen]


def test_the_server_reads_a_comparison_the_command_line_kept(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from ghostdb.web.app import create_app

    path = tmp_path / "ghost.db"
    with open_store(path, create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.solve("five")
        store.solve("five", Rules(min_length=4))
    before = sqlite3.connect(path).execute("SELECT count(*) FROM kept_answers").fetchone()
    with open_store(path, readonly=True) as reader, TestClient(create_app(reader)) as client:
        url = "/api/compare?a=five&vs_min_length=4"
        missing = client.get(url)
        assert missing.status_code == 404
        command = missing.json()["error"].split("`")[1]
        assert command == "ghostdb compare five --vs-min-length 4"
        code, out, err = run(*command.split()[1:], "--json", db=path)
        assert code == 0, err
        assert client.get(url).json() == json.loads(out)
        # Report, plans and openings were kept at publish: answered at once.
        for route in ("/api/five/report", "/api/five/strategy", "/api/five/openings?words=true"):
            assert client.get(route).status_code == 200, route
    with open_store(path, create=True) as store, store.engine.connect() as conn:
        after = conn.execute(select(func.count()).select_from(kept_answers)).scalar_one()
        assert after == before[0] + 1
        assert conn.execute(select(func.count()).select_from(solutions)).scalar_one() == 2


def test_the_server_reads_the_solution_published_after_it_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's handles keep solution ids: a rule set solved again meanwhile is read at
    its new id (not a 404, nor the old answer held)."""
    from starlette.testclient import TestClient

    from ghostdb.web import conventions
    from ghostdb.web.app import create_app

    monkeypatch.setattr(conventions, "STATE_SECONDS", 0.0)  # a publication seen at once
    path = tmp_path / "ghost.db"
    with open_store(path, create=True) as store:
        store.ingest(write_list(tmp_path, "cat cow dog", "w"))
        store.solve("w")
    with open_store(path, readonly=True) as reader, TestClient(create_app(reader)) as client:
        routes = ("/api/w/report", "/api/w/openings?words=true", "/api/w/strategy?player=1")
        before = [client.get(r).json() for r in routes]
        with open_store(path, create=True) as store:
            store.ingest(write_list(tmp_path, "cat cattle cow dog door", "w"), replace=True)
            store.solve("w")
        after = [client.get(r) for r in routes]
        assert [a.status_code for a in after] == [200, 200, 200]
        assert after[0].json()["solutions"][0]["fragments"] > before[0]["solutions"][0]["fragments"]
