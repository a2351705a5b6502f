"""The README's examples are true: its Python API example runs exactly as printed, and every
`$ ghostdb …` command of its console examples, run in order against one fresh database,
prints what the README shows.

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
BIN = Path(sys.executable).parent
TIMING = re.compile(r"\b\d+(\.\d+)? (s|ms)\b")
TYPED = re.compile(r"^player \d+> (.*)$")


@dataclass
class Example:
    line: int
    command: str
    expected: list[str]


def console_examples(text: str) -> list[Example]:
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
            examples.append(Example(number, line[2:], []))
        elif examples:
            examples[-1].expected.append(line)
    return [e for e in examples if e.command.startswith("ghostdb")]


def python_example(text: str) -> str:
    section = text.split("## Python API", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


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


def test_every_console_example_prints_what_the_readme_shows(tmp_path: Path) -> None:
    shared_list("enable1.txt")
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "GHOSTDB_URL": str(tmp_path / "ghost.db"),
        "COLUMNS": "200",
    }
    env.pop("GHOSTDB_DEBUG", None)
    examples = console_examples(README.read_text())
    assert len(examples) >= 20
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
            f"README line {example.line}: `{example.command}` exited {proc.returncode}:\n"
            f"{output[-2000:]}"
        )
        missing = shows(example.expected, output)
        assert missing is None, (
            f"README line {example.line}: `{example.command}` did not print\n{missing!r}\n"
            f"it printed:\n{output[-4000:]}"
        )


def test_the_python_api_example_runs_as_printed(tmp_path: Path) -> None:
    (tmp_path / "enable1.txt").symlink_to(shared_list("enable1.txt"))
    code = python_example(README.read_text())
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (tmp_path / "ghost.db").is_file()
