"""Write a file so that the target path never holds a partial result.

:func:`atomic_output` is the one way the library writes an output file:

* ``None`` or ``"-"``: standard output.
* A regular file (or a new name): the data go to a temporary file
  ``.NAME.xxxxxxxx.part`` beside the target, are flushed to disk, and the
  temporary file is renamed onto the target in one step when the ``with``
  block ends without error. On any exception it is removed instead, and the
  target is untouched. A replaced file keeps its permission bits (and, when
  the current user may set them, its owner and group); a new file gets the
  default ``0o666`` less the umask (the kernel applies the umask and any
  default ACL of the directory, as for any new file).
* A symbolic link is written *through*: its final target
  (:func:`os.path.realpath`) is replaced as above and the link stays a link;
  a dangling link gets its target created.
* A character device, block device or FIFO (``/dev/null``, ``/dev/tty``, a
  named pipe) is opened and written directly: no temporary file, no rename.
  A write error there (``ENOSPC`` from ``/dev/full``) is an :class:`OSError`
  whose ``filename`` is the path as given.

The destination is checked before anything is written, and
:func:`check_output_path` makes the same check without writing, so a command
can refuse a bad ``-o`` before a long computation. Both raise
:class:`OutputPathError`, one line that starts with the path as given and says
what is wrong; the temporary name never appears in a message.

Signals: while an atomic output is open in the main thread, SIGTERM and SIGHUP
(when their handler is the default one) raise :class:`SignalExit`, a
:class:`SystemExit` with status ``128 + signal`` (143, 129), so the cleanup
runs and the process ends with the shell's conventional status; a second such
signal removes the temporary files at once and ends the process by the signal
itself. A handler someone else installed (or SIG_IGN) is left alone. The
previous handlers come back when the last atomic output closes. As a second
line of defence every open temporary file is registered and removed at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import io
import os
import signal
import stat
import sys
import threading
from collections.abc import Iterator
from typing import IO

from ._stop import SignalExit, note_signal, part_of_a_stop
from ._textio import NAME_LIMIT, shorten
from .errors import FileError, PolyformError

__all__ = [
    "atomic_output",
    "check_output_path",
    "OutputPathError",
    "SignalExit",
    "start_writeback",
]


class OutputPathError(FileError):
    """The output path cannot be written: empty, a directory, no parent, no permission...

    Both a :class:`~polyforms.errors.PolyformError` (the command line prints it
    as one line, exit status 2) and an :class:`OSError` (what this module
    raised before; code catching ``OSError`` keeps working). ``filename`` is
    the path as given, ``errno`` the system error number when there is one,
    and ``str()`` the one-line message, which starts with the path.
    """


# -- where to write ------------------------------------------------------------------

_DIRECT, _REPLACE, _CREATE = "direct", "replace", "create"


def _fail(shown: str, reason: str, code: int | None = None) -> OutputPathError:
    return OutputPathError(f"{shown}: {reason}", shown, code)


def _accessible(path: str, mode: int) -> bool:
    if os.access in os.supports_effective_ids:
        return os.access(path, mode, effective_ids=True)
    return os.access(path, mode)


def _read_only(path: str) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & getattr(os, "ST_RDONLY", 1))
    except (OSError, AttributeError):
        return False


def _describe_directory(directory: str) -> str:
    return (
        "the current directory"
        if directory in ("", ".")
        else f"the directory {shorten(directory, NAME_LIMIT)}"
    )


def _check_directory(shown: str, directory: str, creating: bool) -> None:
    """Raise unless a new file can be made in ``directory`` (``""``: the current one)."""
    where = directory or "."
    try:
        info = os.stat(where)
    except (FileNotFoundError, NotADirectoryError):
        # Name the first part of the path that is in the way.
        ancestor = os.path.abspath(where)
        while True:
            parent = os.path.dirname(ancestor)
            if parent == ancestor:
                break
            ancestor = parent
            try:
                found = os.stat(ancestor)
            except (FileNotFoundError, NotADirectoryError):
                continue
            except OSError:
                break
            if not stat.S_ISDIR(found.st_mode):
                raise _fail(
                    shown, f"{shorten(ancestor, NAME_LIMIT)} is not a directory", errno.ENOTDIR
                ) from None
            break
        raise _fail(
            shown, f"{_describe_directory(directory)} does not exist", errno.ENOENT
        ) from None
    except PermissionError:
        raise _fail(
            shown, f"no permission to reach {_describe_directory(directory)}", errno.EACCES
        ) from None
    except OSError as error:
        raise _fail(
            shown, f"cannot use {_describe_directory(directory)} ({error.strerror})", error.errno
        ) from None
    if not stat.S_ISDIR(info.st_mode):
        raise _fail(shown, f"{shorten(directory, NAME_LIMIT)} is not a directory", errno.ENOTDIR)
    if not _accessible(where, os.W_OK | os.X_OK):
        if _read_only(where):
            raise _fail(
                shown,
                f"{_describe_directory(directory)} is on a read-only file system",
                errno.EROFS,
            )
        action = "create" if creating else "replace"
        raise _fail(
            shown,
            f"no permission to {action} files in {_describe_directory(directory)}",
            errno.EACCES,
        )


def _plan(name: str) -> tuple[str, str, os.stat_result | None]:
    """How to write ``name``: (``_DIRECT`` | ``_REPLACE`` | ``_CREATE``, real target, its stat).

    Raises :class:`OutputPathError` for a destination that cannot be written.
    """
    shown = shorten(name, NAME_LIMIT)
    if name == "":
        raise OutputPathError("'': the output file name is empty", "")
    if "\0" in name:
        raise _fail(shown, "a file name cannot contain a NUL character")
    if name.endswith("/") or (os.altsep and name.endswith(os.altsep)):
        if os.path.isdir(name):
            raise _fail(shown, "is a directory, not a file", errno.EISDIR)
        raise _fail(shown, "ends in '/', so it names a directory, not a file", errno.EISDIR)
    try:
        info: os.stat_result | None = os.lstat(name)
    except FileNotFoundError:
        info = None
    except NotADirectoryError:
        _check_directory(shown, os.path.dirname(name), True)
        raise _fail(shown, "a part of the path is not a directory", errno.ENOTDIR) from None
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG:
            raise _fail(shown, "the name is too long", error.errno) from None
        if error.errno in (errno.EACCES, errno.EPERM):
            raise _fail(
                shown,
                f"no permission to reach {_describe_directory(os.path.dirname(name))}",
                error.errno,
            ) from None
        raise _fail(shown, f"cannot use this path ({error.strerror})", error.errno) from None
    target = name
    if info is not None and stat.S_ISLNK(info.st_mode):
        target = os.path.realpath(name)
        shown = f"{shown} (a link to {shorten(target, NAME_LIMIT)})"
        try:
            info = os.stat(name)
        except FileNotFoundError:
            info = None  # dangling: create what it points to
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise _fail(
                    shorten(name, NAME_LIMIT), "too many levels of symbolic links", error.errno
                ) from None
            info = None
    if info is None:
        _check_directory(shown, os.path.dirname(target), True)
        return _CREATE, target, None
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise _fail(shown, "is a directory, not a file", errno.EISDIR)
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode):
        if not _accessible(target, os.W_OK):
            raise _fail(shown, "no permission to write to it", errno.EACCES)
        return _DIRECT, target, info
    if not stat.S_ISREG(mode):
        kind = "a socket" if stat.S_ISSOCK(mode) else "not a regular file"
        raise _fail(shown, f"is {kind}, not a file to write", errno.EINVAL)
    if not _accessible(target, os.W_OK):
        if _read_only(target):
            raise _fail(shown, "is on a read-only file system", errno.EROFS)
        raise _fail(shown, "no permission to write this file", errno.EACCES)
    directory = os.path.dirname(target)
    _check_directory(shown, directory, False)
    euid = os.geteuid() if hasattr(os, "geteuid") else 0
    if euid != 0:
        parent = os.stat(directory or ".")
        if parent.st_mode & stat.S_ISVTX and euid not in (parent.st_uid, info.st_uid):
            raise _fail(
                shown, "cannot replace another user's file in a sticky directory", errno.EPERM
            )
    return _REPLACE, target, info


def check_output_path(path: str | os.PathLike[str] | None) -> None:
    """Raise :class:`OutputPathError` if :func:`atomic_output` could not write ``path``.

    Nothing is created or changed. ``None`` and ``"-"`` (standard output)
    are always fine. The message is one line that starts with the path as
    given and says what is wrong: an empty name, a name ending in ``/`` or
    naming a directory, a missing parent directory, a parent that is not a
    directory, no permission to write the file or to create one in the
    directory, a read-only file system, a socket.
    """
    if path is None or str(path) == "-":
        return
    _plan(os.fsdecode(os.fspath(path)))


# -- open temporary files and signals -----------------------------------------------

_lock = threading.RLock()
_temporaries: dict[str, int] = {}  # temporary path -> pid of the process that made it
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_installed: list[int] = []  # signals whose handler is ours
_depth = 0  # atomic outputs open in the main thread
_owner = 0  # pid that installed the handlers
_fired = False


def _remove_temporaries() -> None:
    """Remove every registered temporary file of this process (atexit, second signal)."""
    pid = os.getpid()
    for path, owner in list(_temporaries.items()):
        if owner == pid:
            with contextlib.suppress(OSError):
                os.unlink(path)
            _temporaries.pop(path, None)


atexit.register(_remove_temporaries)


def _die_by(signum: int) -> None:
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _on_signal(signum: int, frame) -> None:
    global _fired
    if part_of_a_stop():
        note_signal()
        return
    note_signal()
    if os.getpid() != _owner or _depth == 0:
        # A forked child inherited the handler, or it outlived its outputs:
        # behave as the default handler would.
        _die_by(signum)
        return
    if _fired:  # a second signal: do not wait for the cleanup
        _remove_temporaries()
        _die_by(signum)
        return
    _fired = True
    raise SignalExit(signum)


def _after_fork_in_child() -> None:
    """A forked child (a worker of the job layer) owns no output: default handlers again."""
    global _depth
    _temporaries.clear()
    for signum in _installed:
        with contextlib.suppress(ValueError, OSError):
            if signal.getsignal(signum) is _on_signal:
                signal.signal(signum, signal.SIG_DFL)
    _installed.clear()
    _depth = 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _enter_signals() -> bool:
    """Install the handlers for the first open output in the main thread; say if counted."""
    global _depth, _owner, _fired
    if threading.current_thread() is not threading.main_thread():
        return False
    with _lock:
        _depth += 1
        if _depth == 1:
            _owner, _fired = os.getpid(), False
            for signum in _SIGNALS:
                with contextlib.suppress(ValueError, OSError):
                    if signal.getsignal(signum) is signal.SIG_DFL:
                        signal.signal(signum, _on_signal)
                        _installed.append(signum)
    return True


def _leave_signals(counted: bool) -> None:
    global _depth
    if not counted:
        return
    with _lock:
        _depth -= 1
        if _depth == 0:
            for signum in _installed:
                with contextlib.suppress(ValueError, OSError):
                    if signal.getsignal(signum) is _on_signal:
                        signal.signal(signum, signal.SIG_DFL)
            _installed.clear()


# -- writing -------------------------------------------------------------------------

# Errors of writing a stream that carry no file name; they get the user's path.
_WRITE_ERRORS = {
    errno.ENOSPC,
    errno.EIO,
    errno.EFBIG,
    errno.EROFS,
    errno.EPIPE,
    errno.ENXIO,
    getattr(errno, "EDQUOT", errno.ENOSPC),
}


def _name_error(error: BaseException, shown: str, temporary: str | None = None) -> None:
    """Make a write error name the user's path (never the temporary file)."""
    if isinstance(error, OSError) and not isinstance(error, PolyformError):
        if (error.filename is None and error.errno in _WRITE_ERRORS) or (
            temporary is not None and error.filename == temporary
        ):
            error.filename = shown


def _wrap(descriptor: int, binary: bool) -> IO:
    if binary:
        return os.fdopen(descriptor, "wb")
    return os.fdopen(descriptor, "w", encoding="utf-8", newline="\n")


def _make_temporary(shown: str, target: str, mode: int) -> tuple[int, str]:
    directory = os.path.dirname(target)
    base = os.fsencode(os.path.basename(target))[:200]  # room for the decoration
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        temporary = os.path.join(
            directory, os.fsdecode(b".%s.%s.part" % (base, os.urandom(4).hex().encode()))
        )
        try:
            return os.open(temporary, flags, mode), temporary
        except FileExistsError:
            continue
        except OSError as error:
            raise _fail(
                shown,
                f"cannot create a file in {_describe_directory(directory)} ({error.strerror})",
                error.errno,
            ) from None
    raise _fail(shown, "cannot find a free temporary name beside it", errno.EEXIST)


@contextlib.contextmanager
def _write_direct(shown: str, target: str, binary: bool) -> Iterator[IO]:
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(target, flags)
    except OSError as error:
        raise type(error)(error.errno, error.strerror, shown) from None
    stream = _wrap(descriptor, binary)
    try:
        yield stream
        stream.close()  # a write error (ENOSPC on /dev/full) surfaces here at the latest
    except BaseException as error:
        with contextlib.suppress(OSError, ValueError):
            stream.close()
        _name_error(error, shown)
        raise


@contextlib.contextmanager
def _write_replacing(
    shown: str, target: str, old: os.stat_result | None, binary: bool
) -> Iterator[IO]:
    # A new file: mode 0o666 and the kernel applies the umask (and default ACLs).
    # A replacement: private until it has the old file's owner and mode.
    descriptor, temporary = _make_temporary(shown, target, 0o600 if old else 0o666)
    with _lock:
        _temporaries[temporary] = os.getpid()
    counted = _enter_signals()
    done = False
    try:
        if old is not None:
            mine = os.fstat(descriptor)
            if hasattr(os, "fchown") and (mine.st_uid, mine.st_gid) != (old.st_uid, old.st_gid):
                with contextlib.suppress(OSError):  # only root may give a file away
                    os.fchown(descriptor, old.st_uid, old.st_gid)
            if hasattr(os, "fchmod"):  # after chown, which may clear set-id bits
                os.fchmod(descriptor, stat.S_IMODE(old.st_mode))
            else:
                os.chmod(temporary, stat.S_IMODE(old.st_mode))
        stream = _wrap(descriptor, binary)
        try:
            yield stream
            if not stream.closed:
                stream.flush()
                try:
                    os.fsync(stream.fileno())
                except OSError as error:
                    if error.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
                        raise
        except BaseException:
            with contextlib.suppress(OSError, ValueError):
                stream.close()
            raise
        stream.close()
        try:
            os.replace(temporary, target)
        except OSError as error:
            raise type(error)(error.errno, error.strerror, shown) from None
        done = True
    except BaseException as error:
        _name_error(error, shown, temporary)
        raise
    finally:
        if not done:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        with _lock:
            _temporaries.pop(temporary, None)
        _leave_signals(counted)


_sync_file_range: object = None  # libc's, once looked up; False where there is none


def start_writeback(stream: IO) -> None:
    """Flush ``stream`` and have the kernel start writing what it holds to the disk now.

    Writers of large outputs call it after each chunk. Otherwise a 2 GB
    catalogue reaches the disk only at the fsync that ends every atomic
    write, which then holds the command for seconds after its work is done
    (free polyominoes of size 16 to jsonl: 2.4 s); started as the chunks come,
    the writing overlaps the search (0.1 s left at the end). Linux only
    (``sync_file_range``, asynchronous); elsewhere, and on pipes and
    terminals, it only flushes.
    """
    global _sync_file_range
    stream.flush()
    if _sync_file_range is None:
        _sync_file_range = False
        if sys.platform.startswith("linux"):
            import ctypes

            with contextlib.suppress(OSError, AttributeError):
                function = ctypes.CDLL(None, use_errno=True).sync_file_range
                function.argtypes = [ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint]
                _sync_file_range = function
    if _sync_file_range:
        with contextlib.suppress(OSError, ValueError):
            _sync_file_range(stream.fileno(), 0, 0, 2)  # type: ignore[operator]  # SYNC_FILE_RANGE_WRITE


class _TextSink(io.RawIOBase):
    """Bytes written to a text stream that has no binary buffer, decoded as UTF-8
    (incrementally: a character may arrive split between two writes)."""

    def __init__(self, text: IO[str]) -> None:
        import codecs

        self._text = text
        self._decoder = codecs.getincrementaldecoder("utf-8")()

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:  # type: ignore[override]
        self._text.write(self._decoder.decode(bytes(data)))
        return len(data)

    def flush(self) -> None:
        self._text.flush()

    def finish(self) -> None:
        """Write what the decoder holds (a cut character is an error) and flush."""
        self._text.write(self._decoder.decode(b"", final=True))
        self._text.flush()


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str] | None, mode: str = "w") -> Iterator[IO]:
    """Yield a file to write; on success it replaces ``path``, on failure it vanishes.

    ``path`` of None or ``"-"`` writes to standard output instead. A regular
    file is written beside the target (same directory, so the final rename
    is atomic) and renamed into place only when the ``with`` block ends
    without error; it keeps the replaced file's mode. A symbolic link is
    written through (its target is replaced, the link stays); a device or
    FIFO is written directly. Text mode (``"w"``) writes UTF-8 with ``\\n``
    line ends on every platform, for byte-identical files; ``"wb"`` is binary.
    See the module documentation for signals.

    Raises
    ------
    OutputPathError
        Before anything is written, if ``path`` cannot be written (see
        :func:`check_output_path`); one line starting with ``path``.
    OSError
        A write error (disk full, ``/dev/full``); ``filename`` is ``path``.
    SignalExit
        SIGTERM or SIGHUP arrived (main thread, default handlers only).
    """
    if mode not in ("w", "wt", "wb"):
        raise ValueError(f"atomic_output writes with mode 'w' or 'wb', not {mode!r}")
    binary = "b" in mode
    if path is None or str(path) == "-":
        if not binary:
            yield sys.stdout
        elif hasattr(sys.stdout, "buffer"):
            sys.stdout.flush()  # what was written as text goes first
            yield sys.stdout.buffer
        else:  # replaced by a text-only stream (contextlib.redirect_stdout, a notebook)
            sink = _TextSink(sys.stdout)
            yield sink
            sink.finish()
        return
    name = os.fsdecode(os.fspath(path))
    how, target, old = _plan(name)
    shown = shorten(name, NAME_LIMIT)
    writer = (
        _write_direct(shown, target, binary)
        if how == _DIRECT
        else _write_replacing(shown, target, old, binary)
    )
    with writer as stream:
        yield stream
