"""Reading a word-list file: a regular text file of at most `MAX_FILE_BYTES`, refused if
it holds a NUL byte (binary); each line decoded as UTF-8, and only a line that is not
valid UTF-8 read as Latin-1, with a warning that counts them.  Pure: no database.
`ghostdb.wordlists` makes game words of what this reads.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from ghostdb.errors import WordListError

MAX_FILE_BYTES = 128_000_000
"""The largest file read: twice Debian's Polish list (60 MB, the largest common one), which
already takes some 800 MB of memory to normalise."""
READ_CHUNK = 1 << 20
_ESCAPED_BYTES = re.compile("[\udc80-\udcff]")


def read_bytes(path: str | Path) -> bytearray:
    """The bytes of a regular text file of at most MAX_FILE_BYTES.  Raise WordListError.

    Devices, FIFOs and sockets are refused before they are opened (opening a FIFO blocks,
    reading /dev/zero never ends); the size is checked again while reading, since a file
    can grow and /proc files report none.
    """
    shown = repr(str(path))
    try:
        mode = os.stat(path).st_mode
        _check_regular(mode, shown)
        # O_NONBLOCK: should the path become a FIFO after the check, open does not wait.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise WordListError(f"no such file: {shown}: check the path") from None
    except OSError as exc:
        raise WordListError(f"cannot read {shown}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        _check_regular(info.st_mode, shown)
        _check_size(info.st_size, shown)
        data = bytearray()
        try:
            while chunk := file.read(READ_CHUNK):
                if b"\x00" in chunk:
                    raise WordListError(
                        f"{shown} is a binary file (it holds NUL bytes, as UTF-16 text does), "
                        "not a word list: give a UTF-8 or Latin-1 text file, one word a line"
                    )
                data += chunk
                _check_size(len(data), shown)
        except OSError as exc:
            raise WordListError(f"cannot read {shown}: {exc.strerror}") from None
    return data


def _check_regular(mode: int, shown: str) -> None:
    if stat.S_ISDIR(mode):
        raise WordListError(f"{shown} is a directory: give the path of a word-list file")
    if not stat.S_ISREG(mode):
        kind = (
            "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        )
        raise WordListError(
            f"{shown} is {kind}, not a regular file: give the path of a word-list file"
        )


def _check_size(size: int, shown: str) -> None:
    if size > MAX_FILE_BYTES:
        raise WordListError(
            f"{shown} is larger than {MAX_FILE_BYTES / 1e6:g} MB, the most a word list "
            "may have: split it or give a smaller list"
        )


def decode(data: bytes | bytearray, name: str) -> tuple[str, str, list[str]]:
    """Decode line by line: (text, encoding, warnings).

    A line that is valid UTF-8 stays UTF-8; only a line that is not is read as Latin-1,
    so one stray byte does not mangle every accented word of the list.
    """
    try:
        return _without_bom(data.decode("utf-8")), "utf-8", []
    except UnicodeDecodeError:
        pass
    # surrogateescape keeps each undecodable byte as a lone surrogate, which valid UTF-8
    # never yields: the bad lines are found by them and re-read from their bytes.
    text = _without_bom(data.decode("utf-8", "surrogateescape"))
    pieces: list[str] = []
    bad_lines = 0
    utf8_beyond_ascii = False
    done = 0
    for match in _ESCAPED_BYTES.finditer(text):
        if match.start() < done:
            continue  # in a line already re-read
        start, end = _line_bounds(text, match.start())
        good = text[done:start]
        utf8_beyond_ascii = utf8_beyond_ascii or not good.isascii()
        pieces.append(good)
        pieces.append(text[start:end].encode("utf-8", "surrogateescape").decode("latin-1"))
        bad_lines += 1
        done = end
    rest = text[done:]
    utf8_beyond_ascii = utf8_beyond_ascii or not rest.isascii()
    pieces.append(rest)
    lines = len(re.findall(r"\r\n|\r|\n", text)) + (not text.endswith(("\n", "\r")))
    if utf8_beyond_ascii:
        encoding = "utf-8, some lines latin-1"
        warning = (
            f"{name}: {bad_lines:,} of {lines:,} lines are not valid UTF-8: read those as "
            "Latin-1 (check their accented words)"
        )
    else:
        encoding = "latin-1"
        warning = f"{name} is not valid UTF-8: read its {bad_lines:,} non-ASCII lines as Latin-1"
    return "".join(pieces), encoding, [warning]


def _without_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def _line_bounds(text: str, position: int) -> tuple[int, int]:
    """Start and end of the line (ended by LF, CR or CRLF) around ``position``.

    CR is looked for only within the LF-delimited line, so that a file without CRs
    is not scanned to its end for every bad line.
    """
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    end = len(text) if end < 0 else end
    start = max(start, text.rfind("\r", start, position) + 1)
    cr = text.find("\r", position, end)
    return start, end if cr < 0 else cr


def read_file(path: str | Path) -> tuple[str, str, list[str]]:
    """Read a word-list file: (text, encoding used, warnings).  Raise WordListError."""
    return decode(read_bytes(path), Path(path).name)
