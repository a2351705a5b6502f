"""Packs: one solution in one checksummed file of about a byte a position, keys
included, read without a database (see `ghostdb.pack.format` for the layout).

    from ghostdb.pack import open_pack

    with open_pack("enable1.ghostpack") as pack:
        pack.probe("gho").outcome

This package imports neither SQLAlchemy nor Typer: a script that only asks questions of
a pack needs nothing but ghostdb's pure core (`ghostdb pack` writes one from a store).

`format` is the layout, byte by byte, and its encoding; `writer` writes a pack, whole or not
at all, from positions that `sorting` puts in key order; `reader` opens one (`Pack`: its
header, a position as a lookup answers it, values for many keys), `block` decodes a block
only as far as a probe needs, and `search` finds many keys in many blocks at once;
`verify` checks a pack whole, without the store it came from (``ghostdb verify FILE``):
`whole` reads every block's columns into arrays, and `moves` checks them against the
rule set's moves by whole arrays, as the solvers work.
"""

from __future__ import annotations

from pathlib import Path

from ghostdb.pack.format import PackError
from ghostdb.pack.reader import CACHE_BYTES, Pack
from ghostdb.pack.writer import write_pack

__all__ = ["Pack", "PackError", "open_pack", "write_pack"]


def open_pack(path: str | Path, cache_bytes: int = CACHE_BYTES) -> Pack:
    """Open the pack at ``path``: PackError (one line) if it is not one or is damaged,
    OSError if it cannot be read.  It keeps the blocks it reads decoded, those read
    most recently, up to about ``cache_bytes``."""
    return Pack(Path(path), cache_bytes)
