"""The command line: output, exit status and one-line errors that change nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from conftest import OWN_WORDLISTS, dump, run, write_list
from typer.testing import CliRunner

from ghostdb.cli.group import app


def test_ingest_reports_what_it_kept(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    code, out, _ = run("ingest", str(OWN_WORDLISTS / "mixed.txt"), db=db)
    assert code == 0
    assert "stored mixed: 4 words from mixed.txt" in out
    assert "left out: 2 proper nouns and acronyms (e.g. 'Boston', 'NATO')" in out
    assert "left out: 2 words with non-letter characters (e.g. \"isn't\", 'x-ray')" in out
    code, out, _ = run("ingest", str(OWN_WORDLISTS / "mixed.txt"), db=db)
    assert code == 0 and "nothing to do" in out


def test_lookup_text_and_json(five: Path) -> None:
    code, out, _ = run("lookup", "five", "tr", db=five)
    assert code == 0
    assert "player 0 to move" in out
    assert "tre" in out and "tri" in out
    code, out, _ = run("lookup", "five", "tr", "--json", db=five)
    data = json.loads(out)
    assert [p["fragment"] for p in data["plays"]] == ["tre", "tri"]
    assert data["outcome"] in ("win", "loss")


def test_openings(five: Path) -> None:
    code, out, _ = run("openings", "five", db=five)
    assert code == 0
    assert out.splitlines()[0].startswith("five, Ghost, words of 3+ letters: player 0")


def test_listings(five: Path) -> None:
    code, out, _ = run("dictionaries", db=five)
    assert code == 0 and "five" in out and "5" in out
    code, out, _ = run("solutions", db=five)
    assert code == 0 and "ghost/3" in out and "complete" in out
    code, out, _ = run("db", "current", db=five)
    assert code == 0 and "(head)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("lookup", "five", "ghot"), "'ghot' begins no word of 3+ letters in five: whoever "
         "played the t has lost"),
        (("lookup", "five", "ghé"), "'é' is in no word of the dictionary (its letters: "
         "aeghinorst): a typo?"),
        (("lookup", "five", "gh0"), "'gh0' has '0', which is not a letter"),
        (("lookup", "nope", "gh"), "no dictionary named 'nope' is stored"),
        (("lookup", "five", "gh", "--min-length", "4"), "five is not solved for Ghost, "
         "words of 4+ letters: run `ghostdb solve five --min-length 4`"),
        (("solve", "nope"), "no dictionary named 'nope'"),
        (("ingest", "missing.txt"), "no such file: 'missing.txt'"),
        (("ingest", "."), "is a directory"),
        (("ingest", str(OWN_WORDLISTS / "five.txt"), "--name", "bad name"),
         "is not a usable dictionary name"),
        (("strategy", "five", "--from", "t1"), "'t1' has '1', which is not a letter"),
        (("strategy", "five", "--from", "te"), "'te' begins no word"),
        (("strategy", "nope"), "no dictionary named 'nope'"),
        (("strategy", "five", "--rules", "super"), "five is not solved for SuperGhost"),
        (("line", "five", "gh-"), "'gh-' has '-', which is not a letter"),
        (("line", "five", "ght"), "'ght' begins no word"),
        (("openings", "five", "--words", "-m", "4"), "run `ghostdb solve five --min-length 4`"),
        (("compare", "five", "nope"), "no dictionary named 'nope'"),
        (("compare", "five"), "nothing to compare"),
        (("compare", "five", "--vs-misere"), "not solved for misère Ghost"),
        (("report", "nope"), "no dictionary named 'nope'"),
        (("play", "five", "--moves", "t,+a"), "'+a' is not allowed in Ghost"),
        (("play", "five", "--players", "human"), "at least two players"),
        (("selfplay", "five", "--players", "random,optimal,random"), "two players only"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_exit_1_and_changes_nothing(
    five: Path, args: tuple[str, ...], message: str
) -> None:
    before = dump(five)
    code, out, err = run(*args, db=five)
    assert code == 1
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err
    assert dump(five) == before


@pytest.mark.parametrize("content", [b"", b"\x00\x01\x02\x03", b"123 can't\n"])
def test_bad_files_change_nothing(five: Path, tmp_path: Path, content: bytes) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    before = dump(five)
    code, _, err = run("ingest", str(bad), db=five)
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert dump(five) == before


def test_name_conflict(five: Path, tmp_path: Path) -> None:
    other = write_list(tmp_path, "cat camel gecko", name="five")
    before = dump(five)
    code, _, err = run("ingest", str(other), db=five)
    assert code == 1 and "--replace" in err
    assert dump(five) == before
    code, out, _ = run("ingest", str(other), "--replace", db=five)
    assert code == 0 and "replaced five" in out


def test_read_commands_need_a_database(tmp_path: Path) -> None:
    db = tmp_path / "none.db"
    code, _, err = run("lookup", "x", "y", db=db)
    assert code == 1 and "no database" in err
    assert not db.exists()


def test_not_a_database_file(tmp_path: Path) -> None:
    db = tmp_path / "text.db"
    db.write_text("hello, this is not sqlite\n" * 100)
    code, _, err = run("dictionaries", db=db)
    assert code == 1 and "is a text file, not a ghostdb database" in err


def test_every_command_has_help() -> None:
    group = typer.main.get_command(app)
    commands = [[]] + [[name] for name in group.commands]  # type: ignore[attr-defined]
    commands += [["db", "upgrade"], ["db", "current"]]
    assert len(commands) > 10
    for args in commands:
        result = CliRunner().invoke(app, [*args, "--help"])
        assert result.exit_code == 0 and "Usage" in result.stdout, args


def test_console_script_runs_as_a_process(five: Path) -> None:
    env = {**os.environ, "GHOSTDB_URL": str(five)}
    proc = subprocess.run(
        [sys.executable, "-m", "ghostdb", "lookup", "five", "gr"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "gre" in proc.stdout


def test_commands_are_made_when_looked_up() -> None:
    """The group lists every command without making any, and makes each once."""
    group = typer.main.get_command(app)
    commands = group.commands  # type: ignore[attr-defined]
    assert list(commands)[:4] == ["ingest", "dictionaries", "games", "solve"]
    assert list(commands)[-4:] == ["serve", "join", "export", "db"] and len(commands) == 25
    assert "lookup" in commands and "bogus" not in commands
    assert commands.get("bogus") is None
    assert commands["lookup"] is commands["lookup"]
    assert commands["lookup"].name == "lookup"
    assert [p.name for p in commands["lookup"].params][:2] == ["name", "fragment"]
