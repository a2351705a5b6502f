"""The manual's reference pages, generated from the code itself, never copied by hand.

MkDocs runs this as a hook (``hooks:`` in ``mkdocs.yml``): a page holding a marker such
as ``<!-- reference: cli -->`` gets it replaced by

* ``cli``: every command's ``--help``, from the Typer app;
* ``http``: every route of the JSON API, from the OpenAPI schema the server publishes;
* ``schema``: every table, column and index, from a database the migrations build, and
  the migrations themselves.

``python scripts/reference.py cli`` prints one of them.
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MARKER = re.compile(r"<!-- reference: (\w+) -->")
WIDTH = 100
"""The width the commands' help is laid out at."""
ROOT = Path(__file__).resolve().parent.parent


def on_page_markdown(markdown: str, **_kwargs: Any) -> str:
    """MkDocs's hook: each marker replaced by its reference."""
    return MARKER.sub(lambda m: REFERENCES[m[1]](), markdown)


# -- the command line ----------------------------------------------------------------------


def cli_reference() -> str:
    """Every command's help, as ``ghostdb COMMAND --help`` prints it, in the order
    ``ghostdb --help`` lists them."""
    import typer

    from ghostdb.cli.group import app

    root = typer.main.get_command(app)
    context = root.context_class  # Typer's click, which may not be the one installed
    top = context(root, info_name="ghostdb", terminal_width=WIDTH, **root.context_settings)
    parts = ["Generated from the command line's own help (`ghostdb COMMAND --help`)."]
    for ctx in _contexts(top):
        shown = ctx.command.get_help(ctx)
        parts += [f"## `{ctx.command_path}`", "```text\n" + shown.strip() + "\n```"]
    return "\n\n".join(parts)


def _contexts(ctx: Any) -> Iterator[Any]:
    """The context of every command under ``ctx``'s (a group's), its own first: each
    inherits the settings of the ones above it, as when the command line runs it."""
    yield ctx
    group = ctx.command
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        child = command.context_class(
            command, info_name=name, parent=ctx, **command.context_settings
        )
        if hasattr(command, "list_commands"):  # a group (Typer may carry its own click)
            yield from _contexts(child)
        else:
            yield child


# -- the HTTP API ---------------------------------------------------------------------------


def http_reference() -> str:
    """Each route of the OpenAPI schema: what it answers, its parameters, its responses."""
    spec = openapi()
    parts = [
        f"Generated from the OpenAPI schema the server publishes ({spec['info']['title']} "
        f"{spec['info']['version']}); `ghostdb serve` also serves it at `/openapi.json` and "
        "renders it at `/docs`."
    ]
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            parts += [f"## `{method.upper()} {path}`", op.get("summary", "")]
            if op.get("description"):
                parts.append(op["description"].strip())
            rows = [
                f"| `{p['name']}` | {p['in']} | {_type(p.get('schema', {}))} | "
                f"{'yes' if p.get('required') else 'no'} | "
                f"{' '.join(p.get('description', '').split())} |"
                for p in op.get("parameters", [])
            ]
            if rows:
                parts.append(
                    "| parameter | in | type | required | meaning |\n|---|---|---|---|---|\n"
                    + "\n".join(rows)
                )
            answers = ", ".join(
                f"{code} ({' '.join(r.get('description', '').split())})"
                for code, r in op.get("responses", {}).items()
            )
            parts.append(f"Responses: {answers}.")
    return "\n\n".join(p for p in parts if p)


def openapi() -> dict[str, Any]:
    """The server's OpenAPI schema, over an empty store."""
    from ghostdb import open_store
    from ghostdb.web import create_app

    with (
        tempfile.TemporaryDirectory() as folder,
        open_store(f"{folder}/empty.db", create=True) as store,
    ):
        app: Any = create_app(store)
        while not hasattr(app, "openapi"):  # the FastAPI app inside the ASGI layers
            app = app.app
        return app.openapi()


def _type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " or ".join(_type(s) for s in schema["anyOf"])
    kind = schema.get("type", "any")
    if "enum" in schema:
        kind = " \\| ".join(f"`{v}`" for v in schema["enum"])
    bounds = [
        f"{label} {schema[key]}"
        for key, label in (("minimum", "≥"), ("maximum", "≤"), ("maxLength", "length ≤"))
        if key in schema
    ]
    return kind + (f" ({', '.join(bounds)})" if bounds else "")


# -- the database schema --------------------------------------------------------------------


def schema_reference() -> str:
    """The tables as the migrations build them (on SQLite; PostgreSQL's are the same), then
    the migrations, oldest first."""
    from sqlalchemy import create_engine, inspect

    from ghostdb import open_store

    parts = [
        "Generated from a database the migrations (`migrations/versions/`) build; "
        "`ghostdb db upgrade` applies them to an older one."
    ]
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/schema.db"
        with open_store(path, create=True):
            pass
        engine = create_engine(f"sqlite:///{path}")
        found = inspect(engine)
        for table in sorted(found.get_table_names()):
            if table == "alembic_version":
                continue
            keys = set(found.get_pk_constraint(table)["constrained_columns"])
            rows = [
                f"| `{c['name']}` | {c['type']} | {'' if c['nullable'] else 'not null'}"
                f"{' (key)' if c['name'] in keys else ''} |"
                for c in found.get_columns(table)
            ]
            indexes = [
                f"`{i['name']}` ({', '.join(str(c) for c in i['column_names'])})"
                + (", unique" if i.get("unique") else "")
                for i in found.get_indexes(table)
            ]
            parts += [
                f"## `{table}`",
                "| column | type | |\n|---|---|---|\n" + "\n".join(rows),
                f"Indexes: {'; '.join(indexes)}." if indexes else "",
            ]
        engine.dispose()
    parts.append("## Migrations")
    parts.append("\n".join(f"- `{name}`: {doc}" for name, doc in _migrations()))
    return "\n\n".join(p for p in parts if p)


def _migrations() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "migrations" / "versions").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        match = re.search(r'^"""(.*?)(\n\n|""")', text, re.S)
        first = " ".join(match[1].split()) if match else ""
        yield path.stem, first


REFERENCES = {"cli": cli_reference, "http": http_reference, "schema": schema_reference}


if __name__ == "__main__":
    print(REFERENCES[sys.argv[1]]())
