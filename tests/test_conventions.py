"""The command line behaves as the tools its users know: --version, -h, shell completion,
`games` with no database, --json on strategy, no file left by a failed ingest, and
`serve` on a port it cannot have refused in one line."""

from __future__ import annotations

import csv
import io
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, run
from typer.completion import get_completion_script

import ghostdb
from ghostdb.games.registry import GAMES

BIN = Path(sys.executable).parent / "ghostdb"


def ghostdb_cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """The installed command as a user runs it, in ``cwd`` (where ./ghost.db would be)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("GHOSTDB_URL", "GHOSTDB_DEBUG")}
    return subprocess.run(
        [str(BIN), *args],
        cwd=cwd,
        env={**environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_version(tmp_path: Path) -> None:
    done = ghostdb_cli("--version", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"ghostdb {ghostdb.__version__}\n",
        "",
    )
    # the version is said twice, in pyproject.toml and ghostdb/version.py (which a pack
    # records without importing the package's face): the two must agree
    import tomllib

    from conftest import ROOT

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == ghostdb.__version__


@pytest.mark.parametrize("where", [[], ["lookup"], ["db"], ["db", "current"]])
def test_dash_h_is_help_everywhere(tmp_path: Path, where: list[str]) -> None:
    short, long = (
        ghostdb_cli(*where, "-h", cwd=tmp_path),
        ghostdb_cli(*where, "--help", cwd=tmp_path),
    )
    assert short.returncode == long.returncode == 0, short.stderr
    assert short.stdout == long.stdout and short.stdout.startswith("Usage: ghostdb")


def test_shell_completion_completes_commands_and_options(tmp_path: Path) -> None:
    # --show-completion prints the script of the shell it runs under (Typer finds it among
    # the parent processes), so run it from bash, which every Debian has, whatever shell
    # started the tests; zsh's and fish's scripts are the same template, named for ghostdb.
    shown = subprocess.run(
        ["bash", "-c", '"$0" --show-completion; exit $?', str(BIN)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert shown.returncode == 0, shown.stderr
    assert "_GHOSTDB_COMPLETE=complete_bash" in shown.stdout
    for shell in ("zsh", "fish"):
        script = get_completion_script(
            prog_name="ghostdb", complete_var="_GHOSTDB_COMPLETE", shell=shell
        )
        assert f"complete_{shell}" in script
    words = ghostdb_cli(
        cwd=tmp_path,
        env={"_GHOSTDB_COMPLETE": "complete_bash", "COMP_WORDS": "ghostdb lo", "COMP_CWORD": "1"},
    )
    assert words.stdout.split() == ["lookup"]
    flags = ghostdb_cli(
        cwd=tmp_path,
        env={
            "_GHOSTDB_COMPLETE": "complete_bash",
            "COMP_WORDS": "ghostdb solve --wi",
            "COMP_CWORD": "2",
        },
    )
    assert flags.stdout.split() == ["--width"]


def test_games_lists_the_games_with_no_database_and_creates_none(tmp_path: Path) -> None:
    done = ghostdb_cli("games", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [g["game"] for g in json.loads(done.stdout)] == [game.name for game in GAMES]
    assert all(g["solved"] == [] for g in json.loads(done.stdout))
    text = ghostdb_cli("games", cwd=tmp_path)
    assert text.returncode == 0 and all(game.name in text.stdout for game in GAMES)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        (None, [], "error: no such file: 'missing.txt': check the path\n"),
        (b"\x00\x01\x02", [], None),
        (b"", [], "error: empty.txt holds no words: give a list with one word a line\n"),
        (b"cat\ndog\n", ["--name", "chopsticks"], None),
        (b"cat\ndog\n", ["--name", "no/slash"], None),
    ],
    ids=["missing", "binary", "empty", "a-game's-name", "bad-name"],
)
def test_a_failed_ingest_is_one_line_and_creates_no_database(
    tmp_path: Path, content: bytes | None, extra: list[str], message: str | None
) -> None:
    name = {None: "missing.txt", b"": "empty.txt"}.get(content, "list.txt")  # type: ignore[arg-type]
    if content is not None:
        (tmp_path / name).write_bytes(content)
    before = sorted(tmp_path.iterdir())
    done = ghostdb_cli("ingest", name, *extra, cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    if message is not None:
        assert done.stderr == message
    assert sorted(tmp_path.iterdir()) == before  # no ghost.db, no journal


def test_strategy_takes_json_as_every_command_does(five: Path) -> None:
    code, out, err = run("strategy", "five", "--json", db=five)
    assert code == 0, err
    assert json.loads(out) == json.loads(run("strategy", "five", "--format", "json", db=five)[1])
    code, out, err = run("strategy", "five", "--json", "--format", "tree", db=five)
    assert (code, out) == (1, "")
    assert err == "error: --json and --format tree are two formats: give one\n"


def test_serve_on_a_port_in_use_fails_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    assert run("ingest", str(OWN_WORDLISTS / "five.txt"), db=db)[0] == 0
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = ghostdb_cli("serve", "--db", str(db), "--port", str(port), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error: cannot listen on 127.0.0.1:{port}: Address already in use: stop what uses "
        "the port or give another with --port\n"
    )


@pytest.mark.parametrize(
    "command", [("dictionaries",), ("games",), ("solutions",), ("report", "five"), ("survey",)]
)
def test_listings_print_csv_and_newline_delimited_json_of_the_json_rows(
    five: Path, command: tuple[str, ...]
) -> None:
    code, out, err = run(*command, "--json", db=five)
    assert code == 0, err
    data = json.loads(out)
    rows = data["solutions"] if isinstance(data, dict) else data
    assert rows, command
    code, lines, err = run(*command, "--nl", db=five)
    assert code == 0, err
    assert [json.loads(line) for line in lines.splitlines()] == json.loads(json.dumps(rows))
    code, text, err = run(*command, "--csv", db=five)
    assert code == 0, err
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert len(parsed) == len(rows)
    for got, row in zip(parsed, rows, strict=True):
        for key, value in row.items():
            shown = json.dumps(value) if isinstance(value, (dict, list)) else value
            assert got[key] == ("" if value is None else str(shown)), (command, key)
    code, out, err = run(*command, "--csv", "--nl", db=five)
    assert (code, out) == (1, "") and err == "error: --csv and --nl are two formats: give one\n"


def test_values_are_coloured_on_a_terminal_only_and_never_with_no_color(five: Path) -> None:
    import pexpect

    command = f"{BIN} lookup five tr --db {five}"
    environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    on_terminal = pexpect.run(command, env=environ, encoding="utf-8", timeout=60)
    assert "wins\x1b[0m" in on_terminal or "loses\x1b[0m" in on_terminal
    muted = pexpect.run(command, env={**environ, "NO_COLOR": "1"}, encoding="utf-8", timeout=60)
    assert "\x1b[" not in muted
    piped = subprocess.run(command.split(), env=environ, capture_output=True, text=True, timeout=60)
    assert piped.returncode == 0 and "\x1b[" not in piped.stdout
    assert muted.replace("\r\n", "\n") == piped.stdout


PRINTS_DATA = (
    "ingest",
    "dictionaries",
    "games",
    "solve",
    "solutions",
    "verify",
    "lookup",
    "openings",
    "strategy",
    "line",
    "compare",
    "decisive",
    "report",
    "survey",
    "play",
    "selfplay",
)
"""Every command that prints data (serve serves, db upgrade only acts)."""


def test_every_command_that_prints_data_takes_json() -> None:
    import typer

    from ghostdb.cli.group import app

    group = typer.main.get_command(app)
    for name in PRINTS_DATA:
        flags = {flag for param in group.commands[name].params for flag in param.opts}  # type: ignore[attr-defined]
        assert "--json" in flags, name
    current = group.commands["db"].commands["current"]  # type: ignore[attr-defined]
    assert "--json" in {flag for param in current.params for flag in param.opts}


def test_ingest_solve_and_db_current_in_json(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    code, out, err = run("ingest", str(OWN_WORDLISTS / "five.txt"), "--json", db=db)
    assert code == 0, err
    ingested = json.loads(out)
    assert ingested["action"] == "added" and ingested["dictionary"]["word_count"] == 5
    assert ingested["report"]["accepted"] == 5
    code, out, err = run("solve", "five", "--json", db=db)
    assert code == 0, err
    [solved] = json.loads(out)
    assert (solved["rules"], solved["positions"], solved["skipped"]) == ("ghost/3", 19, False)
    code, out, err = run("solve", "five", "--json", db=db)
    assert json.loads(out)[0]["skipped"] is True
    code, out, err = run("db", "current", "--json", db=db)
    assert code == 0 and json.loads(out)["state"] == "head"
