"""The README's and the manual's examples are true: their Python examples run exactly as
printed, and every `$ ghostdb …` command of their console examples, run in order, prints
what the page shows.  The README runs after its quick start's main job, on a fresh
database; the tutorial on another; the other pages of the manual, in the order its
navigation lists them, on a third (each page goes on from where the one before left).

A console example's output lines must appear in the command's output in the same order
(lines the README leaves out are marked ``...``); timings (``1.60 s``) may differ.
Interactive games are fed the moves the example shows as typed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT, shared_list

pytestmark = pytest.mark.slow

README = ROOT / "README.md"
DOCS = ROOT / "docs"
QUICK_START = ("ghostdb ingest builtin:web2", "ghostdb solve web2")
"""The README's main job, before its examples (its one-liner installs as well)."""


def manual_pages() -> list[Path]:
    """The manual's pages in the order of its navigation (mkdocs.yml)."""
    nav = re.findall(
        r"^\s*- (?:[^:\n]+: )?([\w/.-]+\.md)$", (ROOT / "mkdocs.yml").read_text(), re.M
    )
    return [DOCS / page for page in nav]


BIN = Path(sys.executable).parent
TIMING = re.compile(r"\b\d+(\.\d+)? (s|ms)\b")
TYPED = re.compile(r"^player \d+> (.*)$")


@dataclass
class Example:
    line: int
    command: str
    expected: list[str]
    page: str = "README.md"


def console_examples(text: str, page: Path = README) -> list[Example]:
    """Every ``$ ghostdb …`` command in a console block, with the lines it shows."""
    examples: list[Example] = []
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            inside = line.strip() == "```console"
            continue
        if not inside:
            continue
        if line.startswith("$ "):
            examples.append(Example(number, line[2:], [], str(page.relative_to(ROOT))))
        elif examples:
            examples[-1].expected.append(line)
    return [e for e in examples if e.command.startswith("ghostdb")]


def python_example(text: str) -> str:
    """The page's first Python block."""
    return text.split("```python\n", 1)[1].split("```", 1)[0]


def normalise(line: str) -> str:
    return TIMING.sub("<time>", line.rstrip())


def shows(expected: list[str], output: str) -> str | None:
    """None if the expected lines appear in order in ``output``; else the first that
    does not."""
    lines = [normalise(x) for x in output.splitlines()]
    at = 0
    for want in expected:
        if want.strip() in ("...", "…") or not want.strip():
            continue
        want = normalise(want)
        while at < len(lines) and lines[at] != want:
            at += 1
        if at == len(lines):
            return want
        at += 1
    return None


@pytest.mark.parametrize(
    "group",
    [
        "readme",
        *(pytest.param(g, marks=pytest.mark.long) for g in ("tutorial", "manual")),
    ],  # minutes
)
def test_every_console_example_prints_what_its_page_shows(tmp_path: Path, group: str) -> None:
    shared_list("enable1.txt")
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "GHOSTDB_URL": str(tmp_path / "ghost.db"),
        "COLUMNS": "200",
    }
    env.pop("GHOSTDB_DEBUG", None)
    pages = {
        "readme": [README],
        "tutorial": [DOCS / "tutorial.md"],
        "manual": [p for p in manual_pages() if p.name != "tutorial.md"],
    }[group]
    if group == "readme":
        for command in QUICK_START:
            subprocess.run(command.split(), env=env, cwd=ROOT, check=True, capture_output=True)
    examples = [e for page in pages for e in console_examples(page.read_text(), page)]
    assert len(examples) >= {"readme": 4, "tutorial": 8, "manual": 20}[group]
    try:
        run_examples(examples, env)
    finally:  # what the examples write where they run (packs, the offline site)
        for written in ROOT.glob("*.ghostpack"):
            written.unlink()
        shutil.rmtree(ROOT / "offline-site", ignore_errors=True)


def run_examples(examples: list[Example], env: dict[str, str]) -> None:
    for example in examples:
        typed = [m.group(1) for x in example.expected if (m := TYPED.match(x))]
        proc = subprocess.run(
            ["bash", "-o", "pipefail", "-c", example.command],
            input="\n".join(typed) + "\n" if typed else "",
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=600,
        )
        output = proc.stdout + proc.stderr
        failing = any(x.startswith("error:") for x in example.expected)
        assert (proc.returncode != 0) == failing, (
            f"{example.page} line {example.line}: `{example.command}` exited {proc.returncode}:\n"
            f"{output[-2000:]}"
        )
        missing = shows(example.expected, output)
        assert missing is None, (
            f"{example.page} line {example.line}: `{example.command}` did not print\n{missing!r}\n"
            f"it printed:\n{output[-4000:]}"
        )


@pytest.mark.long  # ENABLE ingested and solved under several rule sets
def test_the_python_examples_run_as_printed(tmp_path: Path) -> None:
    """The README's (after its quick start, where it ran) prints what its comment says;
    the manual's walk through the API runs."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    env.pop("GHOSTDB_URL", None)
    for command in QUICK_START:
        subprocess.run(command.split(), env=env, cwd=tmp_path, check=True, capture_output=True)
    code = python_example(README.read_text())
    printed = re.search(r"# (.*)$", code.strip().splitlines()[-1])[1]  # type: ignore[index]
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=600
    )
    assert proc.returncode == 0 and proc.stdout.strip() == printed, proc.stderr[-3000:]
    walk = tmp_path / "walk"
    walk.mkdir()
    (walk / "enable1.txt").symlink_to(shared_list("enable1.txt"))
    code = python_example((DOCS / "guide" / "python.md").read_text())
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=walk, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (walk / "ghost.db").is_file()
