"""Computer players that know only the most common words (the seat ``common:N``).

On random small lists, with a made-up vocabulary, the player's every move is checked
against the brute-force solver of tests/brute.py over its known words alone: it never
leaves its vocabulary while a move keeps a known word alive, and among those moves it
plays one its own game values best.  On ENABLE, with wordfreq's English frequencies,
the same holds move by move in self-play against the optimal player.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from brute import brute_force
from conftest import run, write_list
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, delete, select, update

from ghostdb import Rules, Store, open_store
from ghostdb.errors import BadMove
from ghostdb.games.registry import game_of
from ghostdb.play.vocabulary import choose_known, common_words, solve_vocabulary, word_zipfs
from ghostdb.store.answers.vocabularies import COMMON_WORDS, KEPT_AT_LEAST
from ghostdb.store.sql.schema import kept_answers

wordfreq = pytest.importorskip("wordfreq", reason="needs wordfreq: pip install 'ghostdb[freq]'")


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=st.lists(
        st.text(alphabet="abcd", min_size=3, max_size=6), min_size=2, max_size=12, unique=True
    ),
    data=st.data(),
)
def test_the_player_plays_its_own_games_best_move(
    tmp_path_factory: pytest.TempPathFactory, words: list[str], data: st.DataObject
) -> None:
    known = data.draw(st.lists(st.sampled_from(words), min_size=1, unique=True))
    rules = Rules(min_length=3)
    path = tmp_path_factory.mktemp("common") / "ghost.db"
    mine = brute_force(known, rules)  # the game as the player believes it is
    with open_store(str(path), create=True) as store:
        store.ingest(write_list(path.parent, " ".join(words), "small"))
        store.solve("small", rules)
        vocabulary = solve_vocabulary(game_of(rules, "abcd"), known)
        rng = random.Random(data.draw(st.integers(0, 10**6)))
        pos = store.solution("small", rules).lookup("")
        while not pos.is_final and pos.plays:
            play = choose_known(vocabulary, pos, rng)
            alive = [p for p in pos.plays if mine.is_fragment(p.fragment)]
            if alive:
                assert mine.is_fragment(play.fragment), (pos.fragment, play.move)

                # Its own best: a win soonest for it in its game, else the latest loss.
                def worth(fragment: str) -> tuple[int, int]:
                    wins, left = mine.value(fragment)
                    return (1, -left) if wins else (0, left)  # the opponent's value

                assert worth(play.fragment) == min(worth(p.fragment) for p in alive)
            if play.is_final:
                break
            pos = store.solution("small", rules).lookup(play.fragment)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=st.lists(
        st.text(alphabet="abc", min_size=3, max_size=5), min_size=2, max_size=10, unique=True
    ),
    data=st.data(),
)
def test_values_against_a_common_player_agree_with_brute_force(
    tmp_path_factory: pytest.TempPathFactory, words: list[str], data: st.DataObject
) -> None:
    """`lookup --against`: a minimax written here over the real game (brute force), the
    common player making only the moves its own game (brute force over its words) ranks
    best, any of them; the mover every move."""
    known = data.draw(st.lists(st.sampled_from(words), min_size=1, unique=True))
    rules = Rules(min_length=3)
    real, believed = brute_force(words, rules), brute_force(known, rules)

    def choices(f: str) -> list[str]:
        kids = real.plays(f)
        mine = [c for c in kids if believed.is_fragment(c)]
        if not mine:
            return kids

        def worth(c: str) -> tuple[int, int]:
            wins, left = believed.value(c)
            return (1, -left) if wins else (0, left)

        best = min(map(worth, mine))
        return [c for c in mine if worth(c) == best]

    def value(f: str, mine: bool) -> tuple[bool, int]:
        kids = real.plays(f)
        if not kids:  # a word: the player to move here has won
            return (mine, 0)
        results = [value(c, not mine) for c in (kids if mine else choices(f))]
        wins = [n for w, n in results if w]
        losses = [n for w, n in results if not w]
        if mine:
            return (True, min(wins) + 1) if wins else (False, max(losses) + 1)
        return (False, min(losses) + 1) if losses else (True, max(wins) + 1)

    path = tmp_path_factory.mktemp("against") / "ghost.db"
    with open_store(str(path), create=True) as store:
        store.ingest(write_list(path.parent, " ".join(words), "small"))
        store.solve("small", rules)
        solution = store.solution("small", rules)
        solution._known["common:9"] = solve_vocabulary(game_of(rules, "abc"), known)
        for fragment in ["", *real.plays("")]:
            if not real.plays(fragment):
                continue
            found = solution.against(solution.lookup(fragment), "common:9")
            for p in found["plays"]:
                wins, left = value(p["fragment"], False)
                assert (p["outcome"] == "win", p["game_length"]) == (wins, left), (fragment, p)


def test_common_words_are_the_dictionarys_most_frequent() -> None:
    found = common_words(["zebra", "the", "and", "xylophone", "of"], "en", 3)
    assert found == ["the", "and", "of"]
    assert common_words(["the"], "en-GB", 5) == ["the"]
    with pytest.raises(BadMove, match="wordfreq ranks no words of 'tlh'"):
        common_words(["the"], "tlh", 5)


def test_frequencies_read_from_the_list_are_wordfreqs(enable1: Path) -> None:
    """`word_zipfs` reads wordfreq's list itself (for puzzles' difficulty): each word's
    figure is wordfreq's own, in English and in a language with diacritics."""
    words = random.Random(5).sample(enable1.read_text(encoding="utf-8").split(), 3000)
    polish = ["dom", "żółw", "źdźbło", "gęślą", "zzzyx", "chrząszcz"]
    for language, sample in (("en", words), ("pl", polish), ("en-GB", ["colour"])):
        zipfs = word_zipfs(language)
        assert zipfs is not None
        tag = language.split("-")[0]
        assert zipfs(sample) == {w: wordfreq.zipf_frequency(w, tag) for w in sample}
    assert word_zipfs("tlh") is None


def test_without_wordfreq_the_seat_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "wordfreq", None)
    with pytest.raises(BadMove, match=r"pip install 'ghostdb\[freq\]'"):
        common_words(["the"], "en", 5)


def test_enable_common_players_stay_in_their_vocabulary(solved_enable1: Store) -> None:
    """ENABLE Ghost/3 self-play, a 2,000-word player against the optimal one: at every
    move the player makes where some move keeps one of its words alive, its move does;
    and it loses more than it wins (player 0 loses with best play anyway)."""
    solution = solved_enable1.solution("enable1", Rules(min_length=3))
    known = solution.vocabularies(["common:2000"])["common:2000"]
    assert known.size == 2000 and min(map(len, known.words)) == 3  # game words only
    assert known.words[:3] == ("the", "and", "for")
    match_moves = 0
    for seed in range(20):
        match = solution.new_game(("common:2000", "optimal"), seed=seed)
        while match.result is None:
            before = match.position
            turn = match.computer_move()
            if turn.player == 0:
                alive = [p for p in before.plays if p.fragment in known.values]
                if alive:
                    match_moves += 1
                    assert turn.fragment in known.values, (before.fragment, turn.move)
    assert match_moves > 20


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory, enable1: Path) -> Path:
    path = tmp_path_factory.mktemp("common-cli") / "ghost.db"
    assert run("ingest", str(enable1), db=path)[0] == 0
    for name in ("enable1", "tictactoe"):
        assert run("solve", name, db=path)[0] == 0
    return path


def test_play_and_selfplay_take_the_seat(db: Path) -> None:
    code, out, err = run(
        "selfplay",
        "enable1",
        "--players",
        "common:10000,common:500",
        "--games",
        "20",
        "--seed",
        "2",
        db=db,
    )
    assert code == 0 and "common:10000" in out and "common:500" in out, err
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ghostdb",
            "play",
            "enable1",
            "--players",
            "human,common:2000",
            "--seed",
            "1",
            "--db",
            str(db),
        ],
        input="q\nu\ni\nz\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "player 1 (common:2000) plays" in proc.stdout, proc.stderr
    for seats, said in (
        ("human,common:0", "'common:0' is not a player"),
        ("optimal,common:20,random", "two players only"),
    ):
        code, _, err = run("play", "enable1", "--players", seats, db=db)
        assert code == 1 and said in err and err.count("\n") == 1, err
    code, _, err = run("selfplay", "tictactoe", "--players", "common:20,optimal", db=db)
    assert code == 1 and "no word game" in err and err.count("\n") == 1


def test_the_ranking_is_kept_once_and_verify_checks_it(db: Path) -> None:
    """The first common player ranks the dictionary's words and keeps at least 50,000;
    a later process (any N up to that) reads them; `verify` ranks again and compares,
    and finds a tampered ranking."""
    engine = create_engine(f"sqlite:///{db}")
    question = kept_answers.c.question == COMMON_WORDS
    with engine.begin() as conn:
        conn.execute(delete(kept_answers).where(question))
    assert run("lookup", "enable1", "q", "--against", "common:2000", db=db)[0] == 0
    with engine.connect() as conn:
        body = json.loads(conn.execute(select(kept_answers.c.body).where(question)).scalar_one())
    assert len(body["words"]) == KEPT_AT_LEAST and not body["all"]
    assert body["words"][:3] == ["the", "and", "for"]
    with open_store(str(db), create=True) as store:  # read back: the kept words, not a new ranking
        solution = store.solution("enable1")
        with engine.begin() as conn:
            conn.execute(
                update(kept_answers)
                .where(question)
                .values(body=json.dumps({"words": ["zzz", *body["words"][1:]], "all": False}))
            )
        assert solution.vocabularies(["common:3"])["common:3"].words == ("zzz", "and", "for")
    code, out, err = run("verify", "enable1", db=db)
    assert code == 1 and "kept common words of enable1 ghost/3 differ" in out + err
    with engine.begin() as conn:
        conn.execute(update(kept_answers).where(question).values(body=json.dumps(body)))
    engine.dispose()
    code, out, err = run("verify", "enable1", db=db)
    assert code == 0, out + err


def test_lookup_against_a_common_player(db: Path) -> None:
    code, out, err = run("lookup", "enable1", "q", "--against", "common:2000", "--json", db=db)
    assert code == 0, err
    found = json.loads(out)
    assert found["fragment"] == "q" and found["against"]["player"] == "common:2000"
    assert {p["move"] for p in found["against"]["plays"]} == {p["move"] for p in found["plays"]}
    code, out, err = run("lookup", "enable1", "q", "--against", "common:2000", db=db)
    assert code == 0 and "against common:2000 (who moves next)" in out
    code, _, err = run("lookup", "enable1", "--against", "optimal", db=db)
    assert code == 1 and "give common:N" in err and err.count("\n") == 1


def test_the_trap_player_picks_the_rarest_refutation(solved_enable1: Store) -> None:
    """Where it can win, a shortest win; where every move loses, a move whose line of best
    play ends on the least used word (wordfreq, read here), the longest among those."""
    solution = solved_enable1.solution("enable1", Rules(min_length=3))

    def ends(fragment: str) -> str:
        pos = solution.lookup(fragment)
        while not pos.is_final:
            play = next(p for p in pos.plays if p.move == pos.best_move)
            if play.is_final:
                return play.fragment
            pos = solution.lookup(play.fragment)
        return pos.fragment

    checked = 0
    for seed in range(6):
        match = solution.new_game(("trap", "trap"), seed=seed)
        while match.result is None:
            pos = match.position
            turn = match.computer_move()
            play = next(p for p in pos.plays if p.fragment == turn.fragment)
            if any(p.wins for p in pos.plays):
                assert play.wins
                assert play.game_length == min(p.game_length for p in pos.plays if p.wins)
            else:

                def rank(p):
                    word = p.fragment if p.is_final else ends(p.fragment)
                    return wordfreq.word_frequency(word, "en"), -(p.game_length or 0)

                assert rank(play) == min(map(rank, pos.plays)), (pos.fragment, turn.move)
                checked += 1
    assert checked >= 6


@pytest.mark.parametrize("seat", ["common:2000", "trap"])
def test_the_seats_in_a_terminal(db: Path, seat: str) -> None:
    import os

    import pexpect

    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "ghostdb",
            "play",
            "enable1",
            "--players",
            f"human,{seat}",
            "--seed",
            "1",
            "--db",
            str(db),
        ],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        encoding="utf-8",
        timeout=30,
    )
    child.expect("player 0> ")
    child.sendline("q")
    child.expect(rf"player 1 \({seat}\) plays (\S+):")
    child.expect("player 0> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
