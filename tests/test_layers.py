"""The package's shape: imports point one way (import-linter's contracts in
pyproject.toml) and nothing is forwarded by a module-level ``__getattr__``."""

from __future__ import annotations

import ast
import re
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


def _imported_modules(tree: ast.Module) -> dict[str, str]:
    """The local names bound to ghostdb's modules (and names) by the imports of a module."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ghostdb"):
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("ghostdb"):
                    bound[alias.asname or alias.name.split(".")[0]] = alias.name
    return bound


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_uses_another_modules_private_names() -> None:
    """A name with a leading underscore is its module's own: a module that needs one of
    another's makes it public there (or the two are one concern, and one module).  Both
    spellings are found: ``from m import _x`` and ``m._x`` on an imported module."""
    found = []
    for path in sorted((ROOT / "ghostdb").rglob("*.py")):
        tree = ast.parse(path.read_text())
        here = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ghostdb"):
                found += [
                    f"{here}:{node.lineno}: from {node.module} import {a.name}"
                    for a in node.names
                    if _private(a.name)
                ]
        modules = _imported_modules(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and _private(node.attr)
            ):
                found.append(f"{here}:{node.lineno}: {node.value.id}.{node.attr}")
    assert not found, "\n".join(found)


def test_no_function_is_over_80_lines() -> None:
    """The house's limit for a function (its decorators and docstring included): past it,
    a function is doing two things."""
    long = []
    for path in sorted((ROOT / "ghostdb").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if (n := (node.end_lineno or node.lineno) - first + 1) > 80:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {n}")
    assert not long, long


def test_each_packages_docstring_says_what_lives_where() -> None:
    """A package's docstring names each of its modules and subpackages (or points at the
    manual's page that does), so a reader finds a concern's room from its door."""
    missing = {}
    for init in sorted((ROOT / "ghostdb").rglob("__init__.py")):
        package = init.parent
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        if re.search(r"docs/[\w/.-]+\.md", doc):
            continue
        parts = {p.stem for p in package.glob("*.py") if p.stem not in ("__init__", "__main__")}
        parts |= {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
        unnamed = sorted(p for p in parts if not re.search(rf"`{p}`|\b{p}\b", doc))
        if unnamed:
            missing[str(package.relative_to(ROOT))] = unnamed
    assert not missing, missing


def test_every_package_is_installed() -> None:
    """pyproject.toml lists the packages an install carries: a package missing from the
    list works in an editable install and is absent from a wheel."""
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "ghostdb").rglob("__init__.py")
    }
    assert found - listed == set(), "not installed: " + ", ".join(sorted(found - listed))
