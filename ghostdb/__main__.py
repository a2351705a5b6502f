"""`python -m ghostdb` is the `ghostdb` command."""

from ghostdb.cli import app

app(prog_name="ghostdb")
