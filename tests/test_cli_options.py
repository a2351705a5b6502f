"""The command line's rule options are the games' own: every option every game declares
is on every command that reads or makes a solution, and reaches the game as declared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from conftest import run
from typer.testing import CliRunner

from ghostdb.cli import options as cli_options
from ghostdb.cli.group import app, hoisted
from ghostdb.cli.options import RuleOptions, with_rule_options
from ghostdb.games.base import Option
from ghostdb.games.registry import GAMES, all_options

RULE_COMMANDS = (
    "solve",
    "lookup",
    "openings",
    "strategy",
    "line",
    "compare",
    "decisive",
    "verify",
    "play",
    "selfplay",
)
"""The commands that take rule options: those that read or make a solution."""


@pytest.mark.parametrize("command", RULE_COMMANDS)
def test_every_games_rule_options_are_on_every_command_that_takes_rules(command: str) -> None:
    group = typer.main.get_command(app)
    flags = {flag for param in group.commands[command].params for flag in param.opts}  # type: ignore[attr-defined]
    shown = CliRunner().invoke(app, [command, "--help"], terminal_width=200).stdout
    for game in GAMES:
        for option in game.options:
            assert option.flag in flags and option.flag in shown, (command, game.name, option)
            if option.short:
                assert option.short in flags, (command, game.name, option)


def test_a_new_games_option_appears_with_no_change_to_the_command_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pits = Option("pits", "--pits", int, 6, "Kalah: pits on a side.", 3, 8)
    monkeypatch.setattr(cli_options, "all_options", lambda: {**all_options(), "pits": pits})
    seen: RuleOptions = {}

    @with_rule_options
    def probe(name: str, *, rule_options: RuleOptions) -> None:
        seen.update(rule_options, name=name)

    probe_app = typer.Typer(rich_markup_mode=None)
    probe_app.command()(probe)
    runner = CliRunner()
    assert (
        "Kalah: pits on a side [default: 6]."
        in runner.invoke(probe_app, ["--help"], terminal_width=200).stdout
    )
    result = runner.invoke(
        probe_app, ["x", "--pits", "4", "-m", "5", "-r", "SUPER", "--no-transfers"]
    )
    assert result.exit_code == 0, result.output
    assert seen == {
        "name": "x",
        **dict.fromkeys(all_options(), None),
        "variant": "super",
        "min_length": 5,
        "transfers": False,
        "pits": 4,
    }
    result = runner.invoke(probe_app, ["x", "--pits", "9"])
    assert result.exit_code == 2 and "--pits" in result.output


def test_play_chooses_the_players_rule_from_its_list_of_seats(five: Path) -> None:
    """`play --players` and `selfplay --players` name the seats; more than two of them
    choose the rule option."""
    for command in ("play", "selfplay"):
        code, _, err = run(command, "five", "--players", "random,random,random", db=five)
        assert code == 1 and "--players 3" in err, err


def test_compare_takes_every_rule_option_again_for_its_second_side() -> None:
    group = typer.main.get_command(app)
    flags = {flag for param in group.commands["compare"].params for flag in param.opts}  # type: ignore[attr-defined]
    flags |= {
        flag
        for param in group.commands["compare"].params
        for flag in getattr(param, "secondary_opts", ())
    }
    for game in GAMES:
        for option in game.options:
            vs = "--vs-" + option.flag.removeprefix("--")
            assert vs in flags, (game.name, option)
            if option.type is bool:
                assert "--vs-" + option.opposite_flag.removeprefix("--") in flags, option


def test_the_database_may_be_named_before_the_command(five: Path) -> None:
    """`ghostdb --db FILE lookup …` reads as `ghostdb lookup … --db FILE`, as the
    manual says every command takes ``--db``; a sub-command's too."""
    after = CliRunner().invoke(app, ["lookup", "five", "gr", "--db", str(five)])
    assert after.exit_code == 0 and "player" in after.stdout
    for before in (["--db", str(five)], [f"--db={five}"]):
        found = CliRunner().invoke(app, [*before, "lookup", "five", "gr"])
        assert (found.exit_code, found.stdout) == (0, after.stdout)
    found = CliRunner().invoke(app, ["--db", str(five), "db", "upgrade"])
    assert found.exit_code == 0, found.stdout
    assert hoisted(["--db", "a.db", "analyse", "five", "--", "-x"]) == [
        "analyse",
        "five",
        "--db",
        "a.db",
        "--",
        "-x",
    ]
    for alone in (["--db"], ["--db", str(five)], [f"--db={five}"]):
        found = CliRunner().invoke(app, alone)
        assert found.exit_code == 1 and "no command: put one after it" in found.output


def test_json_may_be_given_before_the_command(five: Path) -> None:
    """The README: the global options, --db and --json, go either side of the command."""
    after = CliRunner().invoke(app, ["lookup", "five", "gr", "--json", "--db", str(five)])
    assert after.exit_code == 0 and json.loads(after.stdout)["position"] == "gr"
    for before in (["--json", "--db", str(five)], ["--db", str(five), "--json"]):
        found = CliRunner().invoke(app, [*before, "lookup", "five", "gr"])
        assert (found.exit_code, found.stdout) == (0, after.stdout), found.output
    found = CliRunner().invoke(app, ["--json"])
    assert found.exit_code == 1 and "`ghostdb --json lookup NAME`" in found.output
    found = CliRunner().invoke(app, ["--json", "db", "upgrade", "--db", str(five)])
    assert found.exit_code == 1 and found.output.startswith("error: No such option: --json")
