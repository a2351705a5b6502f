"""The games: `base` says what a game declares, `registry` lists them, one module each."""
