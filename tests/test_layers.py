"""The package's shape: imports point one way (import-linter's contracts in
pyproject.toml) and nothing is forwarded by a module-level ``__getattr__``."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def test_the_import_contracts_hold() -> None:
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    proc = subprocess.run(
        [lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " 0 broken" in proc.stdout, proc.stdout[-3000:]


def test_the_store_calls_no_module_that_calls_it_back() -> None:
    """The contracts of tests/layers_annotations.toml: they count the imports made for
    annotations, which the others leave out, so a module handed the `Store` (or the
    `Solution` that calls it) is a circle here."""
    lint = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    config = ROOT / "tests" / "layers_annotations.toml"
    proc = subprocess.run(
        [lint, "--no-cache", "--config", str(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "2 kept, 0 broken" in proc.stdout, proc.stdout[-3000:]


def test_no_module_forwards_names_with_getattr() -> None:
    found = []
    for path in sorted((ROOT / "ghostdb").rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name in ("__getattr__", "__dir__"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"module-level __getattr__ forwards names: {found}"


def test_no_module_is_over_600_lines() -> None:
    """The house's limit: a module (Python, or the page's JavaScript) that grows past
    600 lines is split by concern, not left to grow."""
    paths = [*(ROOT / "ghostdb").rglob("*.py"), *(ROOT / "ghostdb").rglob("*.js")]
    long = {
        str(p.relative_to(ROOT)): n
        for p in sorted(paths)
        if (n := len(p.read_text().splitlines())) > 600
    }
    assert not long, long
