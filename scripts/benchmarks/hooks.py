"""Hooks: the other scripts/bench_*.py that --all runs.  A hook that defines ``rows()``
returning (measure, result, target, passed) tuples joins the table; any other is run as
a script and its output printed as it is."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

from .runner import SCRIPTS, SOLVE_TIMEOUT, Row, measure, run

HOOKS = ("bench_web.py",)


def hooks() -> tuple[list[Row], str]:
    """The rows of the hooks that define ``rows()``, and the output of the others (which are
    never imported: a script without a main guard would run on import)."""
    rows: list[Row] = []
    text = ""
    for file in HOOKS:
        path = SCRIPTS / file
        if not path.is_file():
            continue

        def rows_or_output(path: Path = path) -> list[Row]:
            nonlocal text
            tree = ast.parse(path.read_text(encoding="utf-8"))
            if not any(isinstance(f, ast.FunctionDef) and f.name == "rows" for f in tree.body):
                output = run([sys.executable, str(path)], SOLVE_TIMEOUT).out
                text += f"\n{path.name}:\n{output.rstrip()}\n"
                return []
            spec = importlib.util.spec_from_file_location(path.stem, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return [r if isinstance(r, Row) else Row(*r) for r in module.rows()]

        rows += measure(f"hook: {file}", rows_or_output)
    return rows, text
