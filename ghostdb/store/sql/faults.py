"""Low-level failures as one line: what the database driver, the operating system or the
interpreter raises, turned into a message for the user.

The one place that knows SQLite's and PostgreSQL's errors; the pure core (`ghostdb.errors`)
holds only the exceptions ghostdb raises itself.
"""

from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

from ghostdb.errors import GhostdbError

# -- low-level failures as one line ------------------------------------------------------------
#
# The one place that turns what the database driver, the operating system or the
# interpreter raises into a message for the user.  `describe` never fails and always
# returns one line; it names the database as the user gave it (never with a password).

HELP_URL = "use a file path, sqlite:///PATH or postgresql+psycopg://USER@HOST/NAME"
BUG = "a bug in ghostdb: please report it with the command; GHOSTDB_DEBUG=1 shows where"


def describe(exc: BaseException, url: str | None = None) -> str:
    """One line saying what went wrong and what to do, for any exception."""
    try:
        return _one_line(_describe(exc, url))
    except Exception:  # describing must never be the failure
        return _one_line(f"{type(exc).__name__}: {exc} ({BUG})")


def _describe(exc: BaseException, url: str | None) -> str:
    from sqlalchemy.exc import (
        ArgumentError,
        DBAPIError,
        NoSuchModuleError,
        SAWarning,
        SQLAlchemyError,
    )

    url = _masked(url)
    where = _where(url)
    if isinstance(exc, GhostdbError):
        cause = exc.__cause__
        if cause is not None and _low_level(cause):  # e.g. a solve that failed on a full disk
            return _describe(cause, url)
        return str(exc)
    if isinstance(exc, MemoryError):
        return (
            "out of memory: close other programs, or use a smaller word list "
            "(or a machine with more memory)"
        )
    if isinstance(exc, NoSuchModuleError):
        scheme = (url or "").split("://", 1)[0]
        return f"{url!r} names a kind of database ghostdb cannot use ({scheme}): {HELP_URL}"
    if isinstance(exc, ImportError):
        scheme = (url or "").split("://", 1)[0].split("+")[0]
        fix = (
            "install ghostdb[postgres] and use postgresql+psycopg://USER@HOST/NAME"
            if scheme.startswith("postgres")
            else f"install the Python driver for it, or {HELP_URL}"
        )
        return f"the driver for {scheme} is not installed ({exc.name}): {fix}"
    if isinstance(exc, ArgumentError | ValueError | SAWarning) and not isinstance(exc, DBAPIError):
        return f"{url!r} is not a database URL that ghostdb can use ({_first(exc)}): {HELP_URL}"
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        return _describe(exc.orig, url)
    if isinstance(exc, sqlite3.Error):
        return _sqlite(exc, url, where)
    if _is_psycopg(exc):
        return _postgres(exc, where)
    if isinstance(exc, OSError):
        return _os(exc, url, where)
    if isinstance(exc, SQLAlchemyError):
        return f"the database {where} failed: {_first(exc)}"
    return f"unexpected {type(exc).__name__}: {_first(exc)} ({BUG})"


def _low_level(exc: BaseException) -> bool:
    from sqlalchemy.exc import SQLAlchemyError

    return isinstance(exc, SQLAlchemyError | sqlite3.Error | OSError | MemoryError) or (
        _is_psycopg(exc)
    )


def _sqlite(exc: sqlite3.Error, url: str | None, where: str) -> str:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    reason = _first(exc)
    path = _path(url)
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return _not_a_database(where, path, reason)
    if code == sqlite3.SQLITE_FULL or (
        code in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN) and path and _no_space(path)
    ):
        return _disk_full(where)
    if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM):
        if path is not None:
            return _access(path, reason)
        return f"cannot write to {where} ({reason}): check its permissions"
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return f"{where} is locked by another process ({reason}): try again when it has finished"
    if code == sqlite3.SQLITE_NOMEM:
        return _describe(MemoryError(), url)
    if code == sqlite3.SQLITE_IOERR:
        return (
            f"reading or writing {where} failed ({reason}): check that its disk works and "
            "has free space"
        )
    return f"the database {where} failed: {reason}"


def _access(path: Path, reason: str) -> str:
    """Why SQLite could not open or write ``path`` (as far as the file system tells)."""
    folder = path.parent
    if _read_only_fs(folder):
        return (
            f"{path} is on a read-only file system ({reason}): copy it to a writable disk "
            "to change it"
        )
    if path.exists() and not os.access(path, os.R_OK):
        return f"you may not read {path} ({reason}): check its permissions"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{path} is read-only ({reason}): make it writable (chmod u+w) or work on a copy"
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"the folder {folder} is read-only ({reason}), and SQLite needs to create files "
            f"beside {path.name} (-wal, -shm): make the folder writable or move the database"
        )
    return f"cannot open {path} ({reason}): check the permissions of the file and its folder"


def _read_only_fs(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _no_space(path: Path) -> bool:
    """Whether the disk of ``path`` has less free space than SQLite needs to go on."""
    try:
        stat = os.statvfs(path.parent)
    except OSError:
        return False
    return stat.f_bavail * stat.f_frsize < 64 * 1024


def _disk_full(where: str) -> str:
    return f"the disk holding {where} is full: free some space and run the command again"


def _is_psycopg(exc: BaseException) -> bool:
    return type(exc).__module__.startswith("psycopg")


def _postgres(exc: BaseException, where: str) -> str:
    state = getattr(exc, "sqlstate", None) or ""
    reason = _first(exc)
    if state == "53100":
        return _disk_full(where)
    if state == "53200":
        return _describe(MemoryError(), None)
    if state in ("28000", "28P01"):
        return f"the server refused the login to {where} ({reason}): check the user and password"
    if state == "3D000":
        return f"{where} does not exist ({reason}): create it first (createdb NAME)"
    if state == "42501":
        return f"the database user may not do this on {where} ({reason}): ask for the rights"
    if state == "25006":
        return f"{where} is read-only ({reason}): use the primary server"
    if state in ("40001", "40P01", "23505"):
        return (
            f"another process changed the same data in {where} at the same moment ({reason}): "
            "run the command again"
        )
    lost = "connection is lost" in reason or "server closed the connection" in reason
    if state in ("57P01", "57P02", "57P03") or (lost and not state):
        return (
            f"the connection to {where} was lost during the command ({reason}): what it was "
            "writing was not kept; run it again when the server is back"
        )
    if not state and type(exc).__name__ == "OperationalError":
        return (
            f"cannot connect to {where} ({reason}): check that the server is running and the "
            "URL is right"
        )
    return f"the database {where} failed: {reason}"


def _os(exc: OSError, url: str | None, where: str) -> str:
    import errno

    name = exc.filename or where
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk holding {name} is full: free some space and run the command again"
    if exc.errno == errno.EROFS:
        return f"{name} is on a read-only file system: copy it to a writable disk to change it"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied for {name}: check its permissions"
    if exc.errno == errno.ENOMEM:
        return _describe(MemoryError(), url)
    return f"{exc.strerror or type(exc).__name__}: {name}"


def _masked(url: str | None) -> str | None:
    """``url`` without its password, even where it does not parse."""
    return re.sub(r"(://[^:/@?#]*:)[^@/]*@", r"\1***@", url) if url else url


def _where(url: str | None) -> str:
    path = _path(url)
    if path is not None:
        return str(path)
    if not url:
        return "the database"
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


SQLITE_MAGIC = b"SQLite format 3\x00"


def _not_a_database(where: str, path: Path | None, reason: str) -> str:
    """Advice that fits what the file is: a text file or another kind of file given by
    mistake, or an SQLite database that is damaged."""
    try:
        head = path.open("rb").read(4096) if path is not None else None
    except OSError:
        head = None
    if head is not None and not head.startswith(SQLITE_MAGIC):
        kind = "a text file" if _is_text(head) else "some other kind of file"
        return (
            f"{where} is {kind}, not a ghostdb database: give --db a database file (a new "
            "name makes one when you ingest)"
        )
    return (
        f"{where} is a damaged database ({reason}): check it with `sqlite3 FILE 'PRAGMA "
        "integrity_check'`, or restore it from a copy"
    )


def _is_text(head: bytes) -> bool:
    """The bytes read as UTF-8 text (a cut-off last character allowed), with no NUL."""
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # a character cut off by the read
    return True


def _path(url: str | None) -> Path | None:
    if not url:
        return None
    if "://" not in url:
        return Path(url)
    if not url.startswith("sqlite"):
        return None
    rest = url.split("://", 1)[1]
    database = rest[1:].split("?", 1)[0] if rest.startswith("/") else ""
    return Path(database) if database and database != ":memory:" else None


def _first(exc: BaseException) -> str:
    """The first line of an exception's own message (SQLAlchemy appends SQL and links)."""
    from sqlalchemy.exc import DBAPIError

    if isinstance(exc, DBAPIError) and exc.orig is not None:
        exc = exc.orig
    text = str(exc).strip()
    text = text.splitlines()[0].strip() if text else type(exc).__name__
    return re.sub(r"\s*\(Background on this \w+ at: [^)]*\)", "", text)


def _one_line(message: str) -> str:
    return " ".join(message.split())
