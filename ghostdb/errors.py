"""Exceptions for mistakes a user can make.

Every message is one line that says what is wrong and what to do about it; the CLI
prints it as it is and exits with status 1.  Each class also subclasses the builtin
it refines, so callers can catch either.
"""

from __future__ import annotations

import re

USABLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
"""The form of a name a dictionary can be given (``ingest --name``, checked by the store):
only such a name is worth suggesting to ingest under."""


class GhostdbError(Exception):
    """Base class: a user-facing error with a one-line message."""


class WordListError(GhostdbError, ValueError):
    """A word list could not be read or holds no usable word."""


class NameConflict(GhostdbError, ValueError):
    """A dictionary name is already used for different content."""


class UnknownDictionary(GhostdbError, KeyError):
    """No dictionary of that name is stored."""

    @classmethod
    def named(cls, name: str) -> UnknownDictionary:
        listed = "`ghostdb dictionaries` lists them (and `ghostdb games` the games)"
        if not name.strip():  # `lookup "" q`: an ingest --name of nothing would not help
            return cls(f"the dictionary's name is empty: name a stored one; {listed}")
        if not USABLE_NAME.fullmatch(name):
            return cls(
                f"no dictionary named {name!r} is stored, nor can be (a name is letters, "
                f"digits, '.', '_' and '-'): {listed}"
            )
        return cls(
            f"no dictionary named {name!r} is stored: {listed}, "
            f"`ghostdb ingest PATH --name {name}` adds one"
        )

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class NotSolved(GhostdbError, LookupError):
    """The dictionary is stored but not solved under these rules."""


class MissingPlans(GhostdbError, LookupError):
    """The solution predates stored plans and must be solved again."""


class BadFragment(GhostdbError, ValueError):
    """A fragment or move holds something that is not a letter."""


class NotForThisGame(GhostdbError, ValueError):
    """A question that the game of that name does not have (plans of Chopsticks)."""


class TooLarge(GhostdbError, ValueError):
    """An answer larger than the reader takes (a line or plan walked for the web server)."""


class NotWorkedOut(GhostdbError, LookupError):
    """An answer kept on first request (decisive words) that nobody has asked for yet,
    asked of a reader that may not write it (the web server)."""


class DeadFragment(GhostdbError, LookupError):
    """A fragment that no word of the dictionary continues."""


class BadMove(GhostdbError, ValueError):
    """A move that the notation or the rules do not allow."""


class DatabaseError(GhostdbError, RuntimeError):
    """The database cannot be used as it is: missing, unreachable, damaged, full, read-only,
    or from a newer ghostdb."""


class TooBig(GhostdbError, RuntimeError):
    """A solve that would not fit in the memory available, refused before it starts."""


class SolveFailed(GhostdbError, RuntimeError):
    """A solve job failed; its job row says why."""


class KeepFailed(GhostdbError, RuntimeError):
    """A solution was published, but keeping its whole-solution answers failed."""


class LockTimeout(DatabaseError):
    """Another process held the database's write lock for longer than we may wait."""


class Stale(GhostdbError, RuntimeError):
    """Another writer changed the room first: read its new events and try again."""


class NoRooms(DatabaseError):
    """The database's schema predates rooms (revision 0012): it must be upgraded first."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM during a solve), with a one-line note on what it left behind."""
