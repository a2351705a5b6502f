"""Reading and normalising word lists (pure: no database)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghostdb import wordlists
from ghostdb.errors import WordListError


def load_text(tmp_path: Path, data: bytes, **kw: bool) -> wordlists.WordList:
    path = tmp_path / "list.txt"
    path.write_bytes(data)
    return wordlists.load(path, **kw)


def test_crlf_and_any_white_space_separate_words(tmp_path: Path) -> None:
    wl = load_text(tmp_path, b"cat\r\ndog  eel\tfox\r\n\r\n")
    assert wl.words == ("cat", "dog", "eel", "fox")


def test_all_upper_case_list_is_folded(tmp_path: Path) -> None:
    wl = load_text(tmp_path, b"CAT\nDOG\n")
    assert wl.words == ("cat", "dog")
    assert wl.report.left_out == {}


def test_mixed_case_list_leaves_out_proper_nouns_unless_kept(tmp_path: Path) -> None:
    data = b"cat\nParis\nNASA\ndog\n"
    wl = load_text(tmp_path, data)
    assert wl.words == ("cat", "dog")
    assert wl.report.left_out == {wordlists.LEFT_OUT_PROPER: 2}
    assert wl.report.examples[wordlists.LEFT_OUT_PROPER] == ["Paris", "NASA"]
    kept = load_text(tmp_path, data, keep_proper_nouns=True)
    assert kept.words == ("cat", "dog", "nasa", "paris")


def test_non_letters_are_left_out_but_accented_letters_are_letters(tmp_path: Path) -> None:
    wl = load_text(tmp_path, "can't\nx-ray\nr2d2\ncafé\nstraße\nüber\n".encode())
    assert wl.words == ("café", "straße", "über")
    assert wl.report.left_out == {wordlists.LEFT_OUT_NON_LETTERS: 3}
    assert set(wl.alphabet) == set("café" + "straße" + "über")


def test_nfc_merges_two_spellings_of_one_word(tmp_path: Path) -> None:
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    wl = load_text(tmp_path, f"{composed}\n{decomposed}\n".encode())
    assert wl.words == (composed,)
    assert wl.report.left_out == {wordlists.LEFT_OUT_DUPLICATES: 1}


def test_latin1_fallback_warns(tmp_path: Path) -> None:
    wl = load_text(tmp_path, "café\nthé\n".encode("latin-1"))
    assert wl.words == ("café", "thé")
    assert wl.report.encoding == "latin-1"
    assert "not valid UTF-8" in wl.report.warnings[0]


def test_sha256_depends_only_on_the_normalised_words(tmp_path: Path) -> None:
    a = load_text(tmp_path, b"dog\ncat\n")
    b = load_text(tmp_path, b"CAT\r\nDOG\r\nCAT\r\n")
    assert a.sha256 == b.sha256 == wordlists.content_sha256(["cat", "dog"])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "holds no words"),
        (b"  \n\n", "holds no words"),
        (b"can't\n123\n", "no usable word"),
        (b"\x00\x01\x02binary", "binary file"),
    ],
)
def test_unusable_lists_raise_one_line_errors(tmp_path: Path, data: bytes, message: str) -> None:
    with pytest.raises(WordListError, match=message) as info:
        load_text(tmp_path, data)
    assert "\n" not in str(info.value)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(WordListError, match="no such file"):
        wordlists.load(tmp_path / "nope.txt")
    with pytest.raises(WordListError, match="is a directory"):
        wordlists.load(tmp_path)


def test_builtin_web2_is_a_real_dictionary() -> None:
    wl = wordlists.load("builtin:web2")
    assert len(wl.words) > 200_000
    assert "ghost" in wl.words
    assert wl.report.left_out[wordlists.LEFT_OUT_PROPER] > 10_000
