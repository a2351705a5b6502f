"""Debian's Polish list (wpolish: 4.3 million lines, 4,017,544 lower-case words after
ingest), the biggest real list: ingested as the word loop would, and a sixteenth of it
solved, counted independently and verified.

The full list's figures (6,754,229 Ghost fragments of words of 3+ letters) are in the
README; solving all of it takes half a minute and 2.4 GB, too long for every test run.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from test_wordlists import debian_list

from ghostdb import Rules, open_store, wordlists

pytestmark = [pytest.mark.slow, pytest.mark.long]  # Polish's big list: a minute


@pytest.fixture(scope="module")
def polish() -> Path:
    return debian_list("polish", "wpolish")


def test_ingest_takes_the_words_as_the_word_loop_does(polish: Path) -> None:
    """The whole-list pass for words already in normal form (most of Polish) accepts what
    a word-by-word reading, written here without ghostdb's code, accepts."""
    found = wordlists.load(polish)
    raw = polish.read_text(encoding="utf-8").split()
    expected = sorted(
        {
            w
            for w in (unicodedata.normalize("NFC", r) for r in raw)
            if w.isalpha() and w == w.lower() and len(w) <= wordlists.MAX_WORD_LETTERS
        }
    )
    assert list(found.words) == expected
    assert found.report.accepted == len(expected) == 4_017_544
    assert found.report.left_out == {
        wordlists.LEFT_OUT_NON_LETTERS: 1,
        wordlists.LEFT_OUT_PROPER: 310_154,
    }


def test_a_sixteenth_of_polish_counted_independently_and_verified(
    polish: Path, tmp_path: Path
) -> None:
    subset = tmp_path / "polish16.txt"
    with polish.open(encoding="utf-8") as src, subset.open("w", encoding="utf-8") as out:
        out.writelines(line for i, line in enumerate(src) if i % 16 == 0)
    with open_store(str(tmp_path / "ghost.db"), create=True) as store:
        name = store.ingest(subset).dictionary.name
        solved = store.solve(name, Rules(min_length=3))
        words = [w for w in store.words(name) if len(w) >= 3]
        prefixes = {w[:k] for w in words for k in range(len(w) + 1)}
        assert solved.fragment_count == len(prefixes)
        (verdict,) = store.verify(name, Rules(min_length=3))
        assert verdict.ok and verdict.positions == len(prefixes)
