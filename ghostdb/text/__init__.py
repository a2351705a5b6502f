"""Plain-text renderers: what the command line and the console print."""
