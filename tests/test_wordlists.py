"""Reading and normalising word lists (pure: no database, except through the CLI)."""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, dump, run

from ghostdb import wordfiles, wordlists
from ghostdb.errors import WordListError


def load_text(tmp_path: Path, data: bytes, **kw: bool | str) -> wordlists.WordList:
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
    kept = load_text(tmp_path, data, keep_capitalised=True)
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


# -- reading: never hangs, never eats memory, never mangles -------------------------------------


def finishes_within(seconds: float, action: Callable[[], object]) -> BaseException | None:
    """Run ``action`` in a thread; fail if it is still running after ``seconds``.  Returns
    what it raised (the point of the callers: a clear refusal, not a hang)."""
    raised: list[BaseException] = []

    def target() -> None:
        try:
            action()
        except BaseException as exc:
            raised.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {time.monotonic() - started:.1f} s"
    return raised[0] if raised else None


def test_a_device_is_refused_at_once() -> None:
    error = finishes_within(1, lambda: wordlists.load("/dev/zero"))
    assert isinstance(error, WordListError)
    assert "is a device, not a regular file" in str(error)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "words.fifo"
    os.mkfifo(fifo)
    error = finishes_within(1, lambda: wordlists.load(fifo))
    assert isinstance(error, WordListError)
    assert "is a FIFO, not a regular file" in str(error)


def test_a_nul_byte_anywhere_makes_a_binary_file(tmp_path: Path) -> None:
    with pytest.raises(WordListError, match="is a binary file"):
        load_text(tmp_path, b"cat\n" * 100_000 + b"\x00dog\n")


def test_a_file_over_the_size_cap_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wordfiles, "MAX_FILE_BYTES", 10_000)
    assert load_text(tmp_path, b"cat\n" * 2_500).words == ("cat",)
    with pytest.raises(WordListError, match=r"larger than 0\.01 MB"):
        load_text(tmp_path, b"cat\n" * 2_501)


def test_one_invalid_byte_falls_back_to_latin1_for_its_line_only(tmp_path: Path) -> None:
    data = "élève\ncafé\nüber\n".encode() + b"na\xefve\n" + "straße\n".encode()
    wl = load_text(tmp_path, data)
    assert wl.words == ("café", "naïve", "straße", "élève", "über")
    assert wl.report.encoding == "utf-8, some lines latin-1"
    (warning,) = wl.report.warnings
    assert "1 of 5 lines are not valid UTF-8" in warning


def test_line_by_line_also_means_cr_lines(tmp_path: Path) -> None:
    wl = load_text(tmp_path, "élève\r".encode() + b"na\xefve\r\n" + "über".encode())
    assert wl.words == ("naïve", "élève", "über")
    assert "1 of 3 lines" in wl.report.warnings[0]


def test_words_longer_than_the_limit_are_left_out_and_counted(tmp_path: Path) -> None:
    longest = "a" * wordlists.MAX_WORD_LETTERS
    wl = load_text(tmp_path, f"cat\n{longest}\n{'b' * 100}\n{'c' * 2_000_000}\n".encode())
    assert wl.words == (longest, "cat")
    assert wl.report.left_out == {wordlists.LEFT_OUT_TOO_LONG: 2}
    assert wl.report.examples[wordlists.LEFT_OUT_TOO_LONG] == [
        "b" * 24 + "… (100 letters)",
        "c" * 24 + "… (2,000,000 letters)",
    ]


def test_letters_are_checked_after_folding_capitals(tmp_path: Path) -> None:
    data = "cat\nİstanbul\n".encode()
    assert load_text(tmp_path, data).report.left_out == {wordlists.LEFT_OUT_PROPER: 1}
    kept = load_text(tmp_path, data, keep_capitalised=True)
    assert kept.words == ("cat",)  # "i" + combining dot: not all letters
    assert kept.report.examples[wordlists.LEFT_OUT_NON_LETTERS] == ["i\u0307stanbul"]
    folded = load_text(tmp_path, data, keep_capitalised=True, fold_accents=True)
    assert folded.words == ("cat", "istanbul")


# -- other languages ---------------------------------------------------------------------------


def test_fold_accents_merges_accented_duplicates(tmp_path: Path) -> None:
    data = "élève\neleve\nécole\ngarçon\nnoël\nnoel\nsœur\nstraße\nøre\næble\nÅland\n".encode()
    plain = load_text(tmp_path, data)
    assert {"élève", "eleve", "noël", "noel"} <= set(plain.words)
    assert plain.report.folded == 0
    wl = load_text(tmp_path, data, fold_accents=True)
    assert wl.words == ("ecole", "eleve", "garcon", "noel", "straße", "sœur", "æble", "øre")
    assert wl.report.folded == 4
    assert wl.report.left_out == {
        wordlists.LEFT_OUT_DUPLICATES: 2,
        wordlists.LEFT_OUT_PROPER: 1,
    }
    assert wl.report.examples[wordlists.FOLDED_ACCENTS][0] == "élève→eleve"
    assert wl.report.options == {"keep_capitalised": False, "fold_accents": True, "language": ""}


def test_capitalised_nouns_of_a_german_like_list_are_reported_as_such() -> None:
    wl = wordlists.load(OWN_WORDLISTS / "deutsch.txt")
    assert wl.report.left_out == {wordlists.LEFT_OUT_CAPITALISED: 36}
    (note,) = wl.report.notes
    assert "look like ordinary words" in note and "--keep-capitalised" in note
    kept = wordlists.load(OWN_WORDLISTS / "deutsch.txt", keep_capitalised=True)
    assert {"haus", "häuser", "straße", "abc", "berlin"} <= set(kept.words)
    assert kept.report.left_out == {wordlists.LEFT_OUT_DUPLICATES: 1}  # arbeiten, Arbeiten
    assert kept.report.options["keep_capitalised"]


def test_names_of_an_english_like_list_are_not_taken_for_nouns(tmp_path: Path) -> None:
    names = "Ada Al Ann Bea Bob Cy Dan Di Ed Eve Flo Gus Hal Ian Ida Jo Kay Lea Max Ned Ola Pam"
    words = "apples bananas cherries dancing elephants fortunate gardening harmonies"
    wl = load_text(tmp_path, f"{names} {words} {words.upper()}".encode())
    assert set(wl.report.left_out) == {wordlists.LEFT_OUT_PROPER}
    assert wl.report.notes == ()


@pytest.mark.parametrize(
    ("figures", "ordinary"),
    [
        # title case, their letters, capitalised, lower case, their letters (Debian lists)
        ((118_662, 1_463_079, 119_025, 236_985, 2_822_682), True),  # ngerman
        ((79_059, 608_954, 85_424, 430_683, 4_129_833), False),  # american-english-insane
        ((36_862, 287_015, 38_205, 247_207, 2_286_281), False),  # british-english-huge
        ((30, 300, 30, 10, 100), True),
        ((19, 190, 19, 10, 100), False),  # too few to tell
        ((30, 300, 30, 100, 1_000), False),  # 23% of the list
        ((30, 280, 30, 10, 100), False),  # shorter than the lower-case words
        ((30, 300, 30, 0, 0), False),  # nothing to compare them with
    ],
)
def test_case_figures_rule(figures: tuple[int, int, int, int, int], ordinary: bool) -> None:
    assert wordlists.CaseFigures(*figures).look_ordinary is ordinary


def test_examples_are_spread_through_the_list(tmp_path: Path) -> None:
    assert wordlists.sample(list(range(100))) == [10, 30, 50, 70, 90]
    assert wordlists.sample([1, 2]) == [1, 2]
    acronyms = [f"AB{chr(c)}" for c in range(ord("A"), ord("Z") + 1)]
    wl = load_text(tmp_path, "\n".join(["cat", *acronyms]).encode())
    assert wl.report.examples[wordlists.LEFT_OUT_PROPER] == ["ABC", "ABH", "ABN", "ABS", "ABX"]


def test_language_tag_is_checked(tmp_path: Path) -> None:
    assert load_text(tmp_path, b"cat\n", language="pt-BR").report.options["language"] == "pt-BR"
    with pytest.raises(WordListError, match="not a usable language tag"):
        load_text(tmp_path, b"cat\n", language="de de")


# -- the command line --------------------------------------------------------------------------


def test_cli_records_options_and_shows_them(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    path = OWN_WORDLISTS / "deutsch.txt"
    code, out, err = run("ingest", str(path), "--keep-capitalised", "--language", "de", db=db)
    assert code == 0 and err == ""
    assert "options: --keep-capitalised --language de" in out
    code, out, _ = run("dictionaries", db=db)
    assert out.splitlines()[0].split()[-1] == "options"
    assert out.splitlines()[2].endswith("--keep-capitalised --language de")
    code, out, _ = run("dictionaries", "--json", db=db)
    (item,) = json.loads(out)
    assert item["report"]["options"] == {
        "keep_capitalised": True,
        "fold_accents": False,
        "language": "de",
    }


def test_cli_same_words_other_options_need_replace(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    path = str(OWN_WORDLISTS / "five.txt")
    assert run("ingest", path, db=db)[0] == 0
    before = dump(db)
    code, out, _ = run("ingest", path, "--language", "en", db=db)
    assert code == 0 and "add --replace to record these" in out
    assert dump(db) == before
    code, out, _ = run("ingest", path, "--language", "en", "--replace", db=db)
    assert code == 0 and "updated five" in out
    assert "--language en" in run("dictionaries", db=db)[1]


def test_cli_prints_warnings_on_stderr(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes("élève\n".encode() + b"na\xefve\n")
    code, out, err = run("ingest", str(path), db=tmp_path / "ghost.db")
    assert code == 0
    assert "warning" not in out
    assert err == "warning: bad.txt: 1 of 2 lines are not valid UTF-8: read those as Latin-1 " \
        "(check their accented words)\n"  # fmt: skip


@pytest.fixture
def bad_inputs(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "words.fifo"
    os.mkfifo(fifo)
    late_nul = tmp_path / "late-nul.txt"
    late_nul.write_bytes(b"cat\n" * 100_000 + b"\x00")
    capitals = tmp_path / "capitals.txt"
    capitals.write_text("Haus\nAuto\n", encoding="utf-8")
    big = tmp_path / "big.txt"
    big.write_bytes(b"cat\n" * 3_000)
    return {"fifo": fifo, "late-nul": late_nul, "capitals": capitals, "big": big}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("/dev/zero",), "'/dev/zero' is a device, not a regular file"),
        (("{fifo}",), "is a FIFO, not a regular file"),
        (("{late-nul}",), "is a binary file"),
        (("{big}",), "is larger than 0.01 MB"),
        (("{capitals}",), "no usable word: all were left out (2 proper nouns and acronyms) "
         "(add --keep-capitalised to keep capitalised words)"),
        (("{capitals}", "--language", "d e"), "'d e' is not a usable language tag"),
    ],
)  # fmt: skip
def test_cli_ingest_errors_are_one_line_and_change_nothing(
    five: Path,
    bad_inputs: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    message: str,
) -> None:
    if "{big}" in args:
        monkeypatch.setattr(wordfiles, "MAX_FILE_BYTES", 10_000)
    args = tuple(a.format_map(bad_inputs) for a in args)
    before = dump(five)
    started = time.monotonic()
    code, out, err = run("ingest", *args, db=five)
    assert time.monotonic() - started < 1
    assert code == 1
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err
    assert dump(five) == before


# -- real lists (Debian packages) ----------------------------------------------------------------

DEBIAN_DICT = Path("/usr/share/dict")


def debian_list(name: str, package: str) -> Path:
    """A word list of a Debian package; skip naming the package if it is missing (pip cannot
    install it; `.ci/run` installs it and fails on any skip)."""
    path = DEBIAN_DICT / name
    if not path.is_file():
        pytest.skip(f"needs {path}: apt-get install {package}")
    return path


@pytest.mark.slow
def test_debian_german_capitals_look_like_nouns_and_can_be_kept() -> None:
    path = debian_list("ngerman", "wngerman")
    wl = wordlists.load(path)
    assert wl.report.left_out == {wordlists.LEFT_OUT_CAPITALISED: 119_025}
    (note,) = wl.report.notes
    assert "look like ordinary words" in note and "add --keep-capitalised" in note
    examples = wl.report.examples[wordlists.LEFT_OUT_CAPITALISED]
    assert len({e[0] for e in examples}) == len(examples)  # not all from the start of "A"
    kept = wordlists.load(path, keep_capitalised=True)
    assert len(kept.words) > 350_000
    assert {"straße", "geschwindigkeit", "häuser"} <= set(kept.words)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "package"),
    [
        ("american-english-insane", "wamerican-insane"),
        ("british-english-huge", "wbritish-huge"),
        ("dutch", "wdutch"),
        ("swedish", "wswedish"),
    ],
)
def test_debian_lists_with_names_are_not_taken_for_nouns(name: str, package: str) -> None:
    wl = wordlists.load(debian_list(name, package))
    assert wl.report.left_out[wordlists.LEFT_OUT_PROPER] > 4_000
    assert wordlists.LEFT_OUT_CAPITALISED not in wl.report.left_out
    assert wl.report.notes == ()


@pytest.mark.slow
def test_debian_swedish_latin1_list_keeps_its_letters() -> None:
    wl = wordlists.load(debian_list("swedish", "wswedish"))
    assert wl.report.encoding == "latin-1"
    assert {"åtta", "över", "människa"} <= set(wl.words)


@pytest.mark.slow
def test_debian_french_folds_accents() -> None:
    path = debian_list("french", "wfrench")
    plain = wordlists.load(path)
    assert {"élève", "élevé"} <= set(plain.words)
    wl = wordlists.load(path, fold_accents=True)
    assert "eleve" in wl.words and "élève" not in wl.words
    assert set(wl.alphabet) <= set("abcdefghijklmnopqrstuvwxyzæœ")
    assert wl.report.folded > 100_000
    assert len(wl.words) == len(plain.words) - wl.report.left_out[wordlists.LEFT_OUT_DUPLICATES]


def test_a_list_mostly_in_normal_form_reports_as_the_word_loop_does() -> None:
    """Words already in normal form are taken in whole-list passes; what is left out is
    still reported in the order met (a duplicate after a non-letter word)."""
    found = wordlists.normalise(["don't", "zoë", "cat", "cat", "Żal"], source="x")
    assert list(found.report.left_out) == [
        wordlists.LEFT_OUT_NON_LETTERS,
        wordlists.LEFT_OUT_DUPLICATES,
        wordlists.LEFT_OUT_PROPER,
    ]
    assert found.words == ("cat", "zoë")


# Words of every kind the rules tell apart: lower case (ASCII, accented, in NFD, with an
# uncased letter), capitalised (title case, all capitals, a titlecase digraph, İ), no
# letters or not only letters, uncased letters only, too long, and ß, ª, a lone mark.
KINDS = [
    "cat", "dog", "zebra", "żółw", "łąka", "élève", "e\u0301leve", "straße", "naïve", "ab中",
    "Cat", "Żółw", "NATO", "ÉLÈVE", "ǅungla", "İstanbul", "McDonald", "Łódź",
    "e-mail", "don't", "3d", "x1", "中文", "a" * 65, "ł" * 70, "ª", "\u0301", "ꞵeta",
]  # fmt: skip
SEPARATORS = [" ", "\n", "\r\n", "\t", "\u2003", "\u2000"]  # U+2000 is not in NFC


def random_text(rng: random.Random) -> str:
    kinds = KINDS if rng.random() < 0.3 else [w for w in KINDS if w != "e\u0301leve"]
    words = rng.sample(kinds, rng.randint(1, len(kinds)))
    if rng.random() < 0.5:
        words += rng.choices(words, k=rng.randint(1, 4))  # duplicates
        rng.shuffle(words)
    if rng.random() < 0.3:  # only lower-case ASCII: the list taken whole, even when folding
        words = rng.sample(["cat", "dog", "zebra", "eel", "ant"], rng.randint(1, 5))
    separators = rng.choices(rng.choice([SEPARATORS, SEPARATORS[:-1], ["\n"]]), k=len(words))
    return "".join(w + s for w, s in zip(words, separators, strict=True))


@pytest.mark.parametrize("seed", range(300))
def test_whole_list_passes_match_the_word_loop(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Differential: words taken in whole-list passes (`_take_normal_form`) end up exactly
    as the word loop alone leaves them — words, report (examples in order met), hash and
    alphabet — on random lists of every kind of word, with every option."""
    rng = random.Random(seed)
    text = random_text(rng)
    options = {"keep_capitalised": rng.random() < 0.5, "fold_accents": rng.random() < 0.3}

    def normalise(**kw: bool | str) -> wordlists.WordList | str:
        try:
            return wordlists.normalise(text.split(), source="x", **options, **kw)
        except WordListError as exc:
            return str(exc)

    fast = [normalise(), normalise(text=text)]
    monkeypatch.setattr(wordlists._Sorter, "_take_normal_form", lambda self, raw: raw)
    slow = normalise()
    for found in fast:
        if isinstance(slow, str):
            assert found == slow
            continue
        assert isinstance(found, wordlists.WordList)
        assert found.words == slow.words
        assert found.report.as_dict() == slow.report.as_dict()
        assert (found.sha256, found.alphabet) == (slow.sha256, slow.alphabet)
        assert found.alphabet == "".join(sorted(set("".join(slow.words))))


def test_hash_and_alphabet_over_many_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words are hashed a chunk at a time: the same hash as the whole text at once."""
    import hashlib

    monkeypatch.setattr(wordlists, "_HASH_CHUNK", 3)
    words = ["ant", "bee", "cat", "żółw", "łąka", "zebra", "中文"]
    sha, alphabet = wordlists.content_sha256_and_letters(words)
    assert sha == hashlib.sha256(("\n".join(words) + "\n").encode()).hexdigest()
    assert alphabet == "".join(sorted(set("".join(words))))
    assert wordlists.content_sha256([]) == hashlib.sha256(b"").hexdigest()


def test_a_byte_order_mark_is_no_letter(tmp_path: Path) -> None:
    """A UTF-8 BOM is dropped whether the whole file decodes as UTF-8 or a line falls
    back to Latin-1."""
    assert load_text(tmp_path, "\ufeffcafé\ndog\n".encode()).words == ("café", "dog")
    mixed = load_text(tmp_path, "\ufeffcafé\n".encode() + b"na\xefve\n")
    assert mixed.words == ("café", "naïve")
    assert mixed.report.encoding == "utf-8, some lines latin-1"


def test_prose_is_said_to_be_prose_and_no_word_list_is(tmp_path: Path, enable1: Path) -> None:
    """`ingest README.md` warns, in one line saying why; ENABLE, the other shared lists
    and every Debian list a machine has do not."""
    readme = Path(__file__).parent.parent / "README.md"
    code, out, err = run("ingest", str(readme), db=tmp_path / "g.db")
    assert code == 0 and "stored README" in out
    (warning,) = [line for line in err.splitlines() if "prose" in line]
    assert warning.startswith("warning: README.md looks like prose, not a word list: ")
    assert "% of its words are repeats" in warning
    lists = [
        enable1,
        *sorted(enable1.parent.glob("*.txt")),
        *sorted(Path("/usr/share/dict").glob("*")),
    ]
    for path in lists:
        if path.is_file() and not path.is_symlink() and "README" not in path.name:
            report = wordlists.load(path).report
            assert not [w for w in report.warnings if "prose" in w], path
