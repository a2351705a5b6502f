"""`python -m ghostdb` is the `ghostdb` command."""

from ghostdb.cli.start import main

main()
