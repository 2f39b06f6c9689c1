"""Read text input in one place: one decoding, one set of one-line errors.

Every file the library or the command line reads as text (regions, piece
sets, DLX problems, catalogues to draw) should come through :func:`read_text`
(or :func:`decode_text` for bytes obtained some other way), so that

* a UTF-8 byte-order mark is dropped (it is not part of the text);
* the bytes must be UTF-8; anything else is a :class:`~polyforms.errors.ParseError`
  ``"<name>: not UTF-8 text (byte 0xNN at offset K)"``, never a
  ``UnicodeDecodeError`` traceback;
* ``\\r\\n`` and a lone ``\\r`` become ``\\n``;
* a missing file, a directory, a file we may not read or an absurdly large
  input (or, read line by line, an absurdly long line) is an
  :class:`InputFileError`, one line naming the path and the reason.

:func:`shorten` makes a user-supplied string safe to put in such a message:
at most ``limit`` characters, control characters escaped, so every message is
one line of bounded length. :func:`piece_name` checks a name read from a file
before it reaches an output file, and :func:`load_json` reads one JSON record
with a one-line error for nesting too deep to parse.
"""

from __future__ import annotations

import codecs
import errno
import os
import re
import stat
import sys
from collections.abc import Iterator

from .errors import FileError, ParseError
from .limits import memory_text

__all__ = [
    "MAX_INPUT_BYTES",
    "MAX_LINE_CHARACTERS",
    "MAX_NAME_LENGTH",
    "InputFileError",
    "read_text",
    "iter_lines",
    "decode_text",
    "escape_controls",
    "load_json",
    "piece_name",
    "shorten",
]

#: The largest input :func:`read_text` accepts (256 MiB); larger ones are refused unread.
MAX_INPUT_BYTES = 256 * 1024 * 1024

#: The longest line :func:`iter_lines` yields (64 Mi characters): a jsonl record of
#: a tiling of the largest region (a million cells) takes about 30 MB, and a line
#: that never ends would otherwise be held whole.
MAX_LINE_CHARACTERS = 64 << 20

#: How much of a path goes into a message (see :func:`shorten`).
NAME_LIMIT = 160

#: The longest piece name :func:`piece_name` accepts.
MAX_NAME_LENGTH = 100


class InputFileError(FileError):
    """An input file cannot be read: missing, a directory, not readable, too large.

    Both a :class:`~polyforms.errors.PolyformError` (the command line prints it
    as one line, exit status 2) and an :class:`OSError` (code that caught the
    ``OSError`` of ``open`` keeps working). ``filename`` is the path as given,
    ``errno`` the system error number when there is one. ``str()`` is the
    one-line message.
    """


# Characters that would break a one-line message or a terminal: C0 and C1
# controls, DEL, Unicode line/paragraph separators, lone surrogates (the
# undecodable bytes of a file name under ``surrogateescape``).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte of a file name
        return f"\\x{code - 0xDC00:02x}"
    return match.group().encode("unicode_escape", "backslashreplace").decode("ascii")


def escape_controls(text: str) -> str:
    """``text`` with newlines, tabs and other control characters written as escapes,
    so that it stays on one line (``escape_controls("a\\nb") == "a\\\\nb"``)."""
    return _UNSAFE.sub(_escape, text)


def shorten(text: object, limit: int = 60) -> str:
    """``text`` fit for a one-line message: cut to ``limit`` characters, controls escaped.

    A longer text keeps its first ``limit`` characters and says how long it
    was: ``shorten("a" * 100000, 3) == "aaa…(100000 characters)"``. Newlines,
    tabs, other control characters and the undecodable bytes of a file name
    are written as escapes (``\\n``, ``\\t``, ``\\x1b``, ``\\xff``).
    """
    text = str(text)
    head = _UNSAFE.sub(_escape, text[:limit])
    if len(text) > limit:
        return f"{head}…({len(text)} characters)"
    return head


def piece_name(value: object) -> str:
    """A piece name read from a file, checked: text of printable characters.

    A whole number is taken as its digits (``5`` names the piece ``"5"``).
    Every name that passes can go into an output file as it is: no line
    break, no control character, no lone surrogate, at most
    :data:`MAX_NAME_LENGTH` characters.

    Raises
    ------
    ParseError
        Not text or a whole number, empty, too long, or holding a character that
        is not printable (the message shows it escaped).

    Examples
    --------
    >>> piece_name("F"), piece_name(12)
    ('F', '12')
    >>> piece_name("A\\nv 0 0 0")
    Traceback (most recent call last):
    ...
    polyforms.errors.ParseError: piece name 'A\\nv 0 0 0' holds a character that is not printable
    """
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ParseError(f"a piece name is text, not {type(value).__name__}")
    if not value:
        raise ParseError("a piece name is empty")
    if len(value) > MAX_NAME_LENGTH:
        raise ParseError(
            f"piece name '{shorten(value, 20)}' is longer than {MAX_NAME_LENGTH} characters"
        )
    if not value.isprintable():
        raise ParseError(
            f"piece name '{shorten(value, 40)}' holds a character that is not printable"
        )
    return value


def load_json(text: str) -> object:
    """``json.loads(text)``, with nesting too deep for the parser a ValueError too.

    Python's parser recurses once per level of ``[`` or ``{``; a line of
    100,000 brackets would end it with a RecursionError. Callers that turn a
    ValueError into a one-line :class:`~polyforms.errors.ParseError` then say
    "nested too deep" for it.
    """
    import json

    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None


def _too_large(shown: str, what: str, size: int | None, limit: int) -> InputFileError:
    amount = f"{memory_text(size)}; " if size is not None else "more than that; "
    most = memory_text(limit)
    return InputFileError(
        f"{shown}: the {what} is too large ({amount}at most {most} can be read)", shown
    )


def decode_text(data: bytes | bytearray | memoryview, name: str) -> str:
    """The text of ``data``: UTF-8 without byte-order mark, ``\\n`` line ends.

    ``name`` says where the bytes came from (a path, ``"standard input"``);
    it starts the error message.

    Raises
    ------
    ParseError
        ``"<name>: not UTF-8 text (byte 0xNN at offset K)"`` where K counts
        bytes from the start of ``data`` (the mark included).
    """
    view = memoryview(data)
    start = len(codecs.BOM_UTF8) if view[:3] == codecs.BOM_UTF8 else 0
    try:
        text = str(view[start:], "utf-8")
    except UnicodeDecodeError as error:
        offset = start + error.start
        hint = "; it looks like UTF-16" if bytes(view[:2]) in (b"\xff\xfe", b"\xfe\xff") else ""
        raise ParseError(
            f"{shorten(name, NAME_LIMIT)}: not UTF-8 text "
            f"(byte 0x{view[offset]:02x} at offset {offset}{hint})"
        ) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _open_error(error: OSError, shown: str, what: str) -> InputFileError:
    code = error.errno
    if code == errno.ENOENT:
        reason = f"no such {what}"
    elif code == errno.ENOTDIR:
        reason = f"no such {what} (a part of the path is not a directory)"
    elif code == errno.EISDIR:
        reason = f"is a directory, not a {what}"
    elif code in (errno.EACCES, errno.EPERM):
        reason = f"no permission to read this {what}"
    elif code == errno.ELOOP:
        reason = "too many levels of symbolic links"
    elif code == errno.ENAMETOOLONG:
        reason = "the name is too long"
    else:
        reason = f"cannot read this {what} ({error.strerror or error})"
    return InputFileError(f"{shown}: {reason}", shown, code)


def _read_stdin(what: str, limit: int) -> str:
    name = "standard input"
    stream = sys.stdin
    if stream is None:
        raise InputFileError(f"{name}: there is no standard input to read the {what} from")
    binary = getattr(stream, "buffer", None)
    try:
        if binary is not None:
            data = binary.read(limit + 1)
        else:  # replaced by a text-only object (tests, embedding): keep its characters
            data = stream.read(limit + 1).encode("utf-8", "surrogateescape")
    except OSError as error:
        raise _open_error(error, name, what) from None
    if len(data) > limit:
        raise _too_large(name, what, None, limit)
    return decode_text(data, name)


def read_text(
    path: str | os.PathLike[str], what: str = "file", *, limit: int = MAX_INPUT_BYTES
) -> str:
    """The text of the file ``path`` (``"-"``: standard input), decoded by :func:`decode_text`.

    ``what`` names the input in messages (``"region file"``, ``"DLX file"``):
    ``"r.txt: no such region file"``. Inputs over ``limit`` bytes (256 MiB by
    default) are refused without being read whole.

    Raises
    ------
    InputFileError
        Missing, a directory, not readable, too large, or a read error; the
        one-line message starts with the path as given.
    ParseError
        Not UTF-8 text (the message names the offending byte and its offset).
    """
    if isinstance(path, str) and path == "-":
        return _read_stdin(what, limit)
    name = os.fsdecode(os.fspath(path))
    shown = shorten(name, NAME_LIMIT)
    if not name:
        raise InputFileError(f"'': an empty name is not a {what}", shown)
    try:
        descriptor = os.open(name, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except ValueError:  # an embedded NUL character
        raise InputFileError(
            f"{shown}: a file name cannot contain a NUL character", shown
        ) from None
    except OSError as error:
        raise _open_error(error, shown, what) from None
    try:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            raise InputFileError(f"{shown}: is a directory, not a {what}", shown, errno.EISDIR)
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise _too_large(shown, what, info.st_size, limit)
        with open(descriptor, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
    except OSError as error:
        if isinstance(error, InputFileError):
            raise
        raise _open_error(error, shown, what) from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise _too_large(shown, what, None, limit)
    return decode_text(data, name)


def iter_lines(path: str | os.PathLike[str], what: str = "file") -> Iterator[str]:
    """The lines of a text file, decoded as :func:`read_text` decodes, read as a stream.

    For inputs too large to hold whole (catalogues): the file is checked and
    opened before the first line is yielded (the same one-line errors as
    :func:`read_text`), then decoded piece by piece; a byte that is not UTF-8
    is a :class:`~polyforms.errors.ParseError` naming its offset in the file.
    Each line ends with ``"\\n"`` (CRLF and CR converted), except perhaps the last.
    A line longer than :data:`MAX_LINE_CHARACTERS` is an :class:`InputFileError`
    as soon as that much of it has been read: memory stays bounded whatever the file.
    """
    name = os.fsdecode(os.fspath(path))
    shown = shorten(name, NAME_LIMIT)
    if not name:
        raise InputFileError(f"'': an empty name is not a {what}", shown)
    try:
        stream = open(name, "rb")  # noqa: SIM115  (closed by the generator below)
    except ValueError:
        raise InputFileError(
            f"{shown}: a file name cannot contain a NUL character", shown
        ) from None
    except OSError as error:
        raise _open_error(error, shown, what) from None
    if stat.S_ISDIR(os.fstat(stream.fileno()).st_mode):
        stream.close()
        raise InputFileError(f"{shown}: is a directory, not a {what}", shown, errno.EISDIR)
    return _decoded_lines(stream, name)


_BLOCK = 1 << 20  # bytes decoded at a time


def _decoded_lines(stream, name: str) -> Iterator[str]:
    decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")  # drops a BOM
    offset, rest, number = 0, "", 0
    with stream:
        while True:
            block = stream.read(_BLOCK)
            try:
                rest += decoder.decode(block, final=not block)
            except UnicodeDecodeError as error:
                # error.object: the bytes the decoder held back from the block
                # before, then this block (at the end: those held-back bytes alone)
                where = offset + len(block) - len(error.object) + error.start
                raise ParseError(
                    f"{shorten(name, NAME_LIMIT)}: not UTF-8 text "
                    f"(byte 0x{error.object[error.start]:02x} at offset {where})"
                ) from None
            offset += len(block)
            held = ""
            if block and rest.endswith("\r"):  # perhaps half of a CRLF: wait for the rest
                rest, held = rest[:-1], "\r"
            *lines, rest = rest.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            for line in lines:
                number += 1
                yield line + "\n"
            rest += held
            if len(rest) > MAX_LINE_CHARACTERS:
                shown = shorten(name, NAME_LIMIT)
                raise InputFileError(
                    f"{shown}: line {number + 1} is longer than {MAX_LINE_CHARACTERS:,} characters",
                    shown,
                )
            if not block:
                if rest:
                    yield rest
                return
