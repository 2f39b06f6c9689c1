"""Typed exceptions raised by the library for bad input.

Every error a user can cause derives from :class:`PolyformError`, so the
command line can turn any of them into one line on stderr and exit status 2.
"""

from __future__ import annotations

__all__ = [
    "PolyformError",
    "ParseError",
    "DisconnectedError",
    "UnknownNameError",
    "TooLargeError",
    "ExactCoverError",
    "DLXFormatError",
    "TilingError",
    "CountOverflowError",
    "WrongTypeError",
    "FileError",
]


class PolyformError(ValueError):
    """Base class of every error caused by the caller's input."""


class ParseError(PolyformError):
    """A picture, region or file could not be read; the message names line and column."""


class DisconnectedError(PolyformError):
    """A set of cells that must be one connected polyform is not."""


class UnknownNameError(PolyformError):
    """A named kind, method, format, piece set or symmetry class does not exist."""


class TooLargeError(PolyformError):
    """A request whose output would be enormous; pass ``force=True`` to insist."""


class ExactCoverError(PolyformError):
    """An exact-cover instance or an initial choice is invalid."""


class DLXFormatError(ExactCoverError):
    """A file in Knuth's DLX format is malformed; the message names the line."""


class TilingError(PolyformError):
    """A tiling problem is malformed (for example 2D pieces in a 3D region)."""


class CountOverflowError(TilingError):
    """A count passed what the compiled kernel's counter holds (2**63 - 1).

    Counts that split (:meth:`polyforms.TilingProblem.count`) catch it and count
    the subtree child by child, so the total stays exact; it reaches a caller of
    the kernel itself.
    """


class WrongTypeError(PolyformError, TypeError):
    """An argument of the wrong type (a number where cells were expected, ...).

    Also a :class:`TypeError`, so code that checks types the usual way keeps working.
    """


class FileError(PolyformError, OSError):
    """A file cannot be read or written as asked: missing, a directory, no permission, ...

    Both a :class:`PolyformError` (the command line prints it as one line, exit
    status 2) and an :class:`OSError` (code that catches the ``OSError`` of
    ``open`` keeps working). ``filename`` is the path as given, ``errno`` the
    system error number when there is one, and ``str()`` the one-line message,
    which starts with the path.
    """

    def __init__(self, message: str, filename: str | None = None, code: int | None = None):
        PolyformError.__init__(self, message)
        self.filename = filename
        self.errno = code
        self.strerror = message

    def __str__(self) -> str:
        return str(self.args[0])
