"""The solve jobs: `jobs` (one solve: positions built, solved, written and published in
one transaction, its answers kept), `bulk` (the position rows made and written a chunk
at a time), `schedule` (many solves in worker processes, fitted to the memory each needs)
and `workers` (the worker processes themselves)."""
