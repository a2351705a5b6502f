"""The version of ghostdb, in a module of its own: the modules that record it (a pack's
header) read it here, not through the package's face, which imports the store."""

VERSION = "0.1.0"  # pyproject.toml's; tests/test_conventions.py checks the two agree
