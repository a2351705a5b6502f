"""The manual (docs/, MkDocs): it builds with every warning an error, and its reference
pages are generated from the code, so they cannot drift from it.  (Its examples are run
by tests/test_readme.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from typer.testing import CliRunner

pytest.importorskip("mkdocs", reason="the manual needs MkDocs: pip install -e '.[docs]'")
pytest.importorskip(
    "mkdocstrings", reason="the manual needs mkdocstrings: pip install -e '.[docs]'"
)
sys.path.insert(0, str(ROOT / "scripts"))

import reference

from ghostdb.cli.group import app


def test_the_manual_builds_strictly(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text()
    assert "ghostdb lookup" in cli and "--min-length" in cli
    http = (tmp_path / "site" / "reference" / "http" / "index.html").read_text()
    assert "/api/{name}/position" in http
    schema = (tmp_path / "site" / "reference" / "schema" / "index.html").read_text()
    assert "kept_answers" in schema and "0001_initial" in schema


def test_the_command_reference_is_every_commands_own_help() -> None:
    text = reference.cli_reference()
    for command in ("lookup", "solve", "export site", "db upgrade"):
        shown = CliRunner().invoke(app, [*command.split(), "--help"], terminal_width=100)
        said = [line for line in shown.stdout.splitlines() if line.strip()][1:]  # past Usage
        assert f"## `ghostdb {command}`" in text
        assert all(line in text for line in said), command


def test_a_new_option_changes_the_command_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    import typer
    from typer.core import TyperOption

    before = reference.cli_reference()
    made = typer.main.get_command

    def with_a_new_option(typer_app: Any) -> Any:
        group = made(typer_app)
        lookup = group.get_command(group.context_class(group), "lookup")
        lookup.params.append(
            TyperOption(param_decls=["--brand-new"], help="An option added just now.")
        )
        return group

    monkeypatch.setattr(typer.main, "get_command", with_a_new_option)
    after = reference.cli_reference()
    assert after != before and "--brand-new" in after and "An option added just now." in after


def test_the_http_reference_names_every_route() -> None:
    spec = reference.openapi()
    text = reference.http_reference()
    for path, methods in spec["paths"].items():
        for method in methods:
            assert f"## `{method.upper()} {path}`" in text
