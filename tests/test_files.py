"""Output files are never damaged (_atomic) and input text is decoded in one place (_textio)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polyforms
from polyforms import _atomic
from polyforms._atomic import OutputPathError, SignalExit, atomic_output, check_output_path
from polyforms._textio import InputFileError, decode_text, read_text, shorten
from polyforms.errors import ParseError, PolyformError

ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False
PACKAGE_ROOT = str(Path(polyforms.__file__).resolve().parent.parent)


def snapshot(directory: Path) -> dict:
    """Every entry under ``directory``: its type and mode, a file's bytes, a link's target."""
    result = {}
    for dirpath, dirnames, filenames in os.walk(directory):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            info = os.lstat(path)
            entry = [stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode)]
            if stat.S_ISREG(info.st_mode):
                entry.append(Path(path).read_bytes())
            elif stat.S_ISLNK(info.st_mode):
                entry.append(os.readlink(path))
            result[os.path.relpath(path, directory)] = entry
    return result


def python(code: str, *args: str, **kwargs) -> subprocess.Popen:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [PACKAGE_ROOT, env.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kwargs,
    )


def one_line_naming(error: BaseException, name: str) -> None:
    message = str(error)
    assert "\n" not in message and len(message) < 400, message
    assert message.startswith(name), message
    assert ".part" not in message, message


# -- bad destinations ------------------------------------------------------------------


def _setup(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "file.txt").write_text("keep\n")
    os.chmod(tmp_path / "file.txt", 0o640)
    os.symlink("nowhere/out.txt", tmp_path / "dangling-into-missing")
    os.symlink("loop", tmp_path / "loop")
    os.symlink("dir", tmp_path / "link-to-dir")


# (path relative to tmp_path, words the message must contain)
BAD = [
    ("dir", "is a directory"),
    ("dir/", "is a directory"),
    ("new/", "names a directory"),
    ("link-to-dir", "is a directory"),
    ("missing/out.txt", "directory missing does not exist"),
    ("missing/deeper/out.txt", "does not exist"),
    ("file.txt/out.txt", "file.txt is not a directory"),
    ("file.txt/a/out.txt", "file.txt is not a directory"),
    ("dangling-into-missing", "does not exist"),
    ("loop", "too many levels of symbolic links"),
    ("x" * 300, "too long"),
]


@pytest.mark.parametrize("relative, words", BAD, ids=[case[0][:20] for case in BAD])
def test_bad_destination_is_one_clear_line_and_changes_nothing(
    tmp_path, monkeypatch, relative, words
):
    _setup(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    with pytest.raises(OutputPathError) as checked:
        check_output_path(relative)
    with pytest.raises(OutputPathError) as written:
        with atomic_output(relative) as out:
            out.write("never\n")
    for error in (checked.value, written.value):
        assert isinstance(error, PolyformError) and isinstance(error, OSError)
        one_line_naming(error, relative[:100])
        assert words in str(error)
    assert str(checked.value) == str(written.value)
    assert snapshot(tmp_path) == before


def test_empty_and_nul_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, words in (("", "empty"), ("a\0b", "NUL")):
        with pytest.raises(OutputPathError, match=words):
            check_output_path(name)
        with pytest.raises(OutputPathError, match=words):
            with atomic_output(name):
                pass
    assert list(tmp_path.iterdir()) == []


def test_control_characters_are_escaped_in_messages(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OutputPathError) as caught:
        check_output_path("a\nb/out.txt")
    assert str(caught.value).startswith("a\\nb/out.txt: ")
    assert "\n" not in str(caught.value)


def test_stdout_is_always_fine(capsys):
    check_output_path(None)
    check_output_path("-")
    with atomic_output("-") as out:
        out.write("to stdout\n")
    with atomic_output(None) as out:
        out.write("again\n")
    assert capsys.readouterr().out == "to stdout\nagain\n"


@pytest.mark.skipif(ROOT, reason="root may write anywhere")
@pytest.mark.parametrize("case", ["read-only directory", "read-only file"])
def test_no_permission(tmp_path, case):
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "old.txt").write_text("old\n")
    if case == "read-only directory":
        target, words = locked / "new.txt", "no permission to create"
        os.chmod(locked, 0o555)
    else:
        target, words = locked / "old.txt", "no permission to write this file"
        os.chmod(target, 0o444)
    try:
        before = snapshot(tmp_path)
        for attempt in (check_output_path, lambda p: atomic_output(p).__enter__()):
            with pytest.raises(OutputPathError) as caught:
                attempt(str(target))
            one_line_naming(caught.value, str(target))
            assert words in str(caught.value)
        assert snapshot(tmp_path) == before
    finally:
        os.chmod(locked, 0o755)


def test_no_permission_message_when_access_is_denied(tmp_path, monkeypatch):
    # As root access() always says yes; simulate a directory we may not write.
    monkeypatch.setattr(_atomic, "_accessible", lambda path, mode: False)
    monkeypatch.setattr(_atomic, "_read_only", lambda path: False)
    with pytest.raises(OutputPathError, match="no permission to create files in the directory"):
        check_output_path(str(tmp_path / "new.txt"))
    (tmp_path / "old.txt").write_text("x")
    with pytest.raises(OutputPathError, match="no permission to write this file"):
        check_output_path(str(tmp_path / "old.txt"))
    assert os.listdir(tmp_path) == ["old.txt"]


# -- devices, FIFOs, links ---------------------------------------------------------------


@pytest.mark.skipif(
    not (os.path.exists("/dev/full") and stat.S_ISCHR(os.stat("/dev/full").st_mode)),
    reason="no /dev/full",
)
@pytest.mark.parametrize("mode, data", [("w", "line\n" * 20000), ("wb", b"x" * 100000)])
def test_dev_full_reports_no_space_and_stays_a_device(mode, data):
    before = {name for name in os.listdir("/dev") if name.endswith(".part")}
    check_output_path("/dev/full")
    with pytest.raises(OSError) as caught:
        with atomic_output("/dev/full", mode) as out:
            out.write(data)
    assert not isinstance(caught.value, PolyformError)
    assert caught.value.errno == 28 and caught.value.filename == "/dev/full"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    assert {name for name in os.listdir("/dev") if name.endswith(".part")} == before


def test_dev_null_is_written_directly():
    directory = os.path.dirname(os.devnull) or "."
    before = {name for name in os.listdir(directory) if name.endswith(".part")}
    with atomic_output(os.devnull) as out:
        out.write("gone\n")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert {name for name in os.listdir(directory) if name.endswith(".part")} == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_fifo_receives_the_bytes_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    with atomic_output(str(fifo)) as out:
        out.write("hello\r\nworld é\n")
    reader.join(10)
    assert received == ["hello\r\nworld é\n".encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["pipe"]


def test_symlink_is_written_through(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "data.txt"
    target.write_text("old\n")
    os.chmod(target, 0o600)
    link = tmp_path / "link.txt"
    os.symlink("real/data.txt", link)
    with atomic_output(str(link)) as out:
        out.write("new\n")
    assert os.path.islink(link) and os.readlink(link) == "real/data.txt"
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["link.txt", "real"]
    assert os.listdir(tmp_path / "real") == ["data.txt"]


def test_dangling_symlink_creates_its_target(tmp_path):
    (tmp_path / "real").mkdir()
    link = tmp_path / "link.txt"
    os.symlink("real/created.txt", link)
    check_output_path(str(link))
    with atomic_output(str(link)) as out:
        out.write("made\n")
    assert os.path.islink(link)
    assert (tmp_path / "real" / "created.txt").read_bytes() == b"made\n"


# -- modes, content, failures ------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o600, 0o755, 0o640])
def test_replaced_file_keeps_its_mode(tmp_path, mode):
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    os.chmod(target, mode)
    with atomic_output(str(target)) as out:
        out.write("new\n")
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == mode


@pytest.mark.skipif(not ROOT, reason="only root may give a file away")
def test_replaced_file_keeps_its_owner(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    os.chown(target, 65534, 65534)
    with atomic_output(str(target)) as out:
        out.write("new\n")
    info = os.stat(target)
    assert (info.st_uid, info.st_gid) == (65534, 65534) and target.read_text() == "new\n"


@pytest.mark.parametrize("umask", [0o027, 0o022, 0o077])
def test_new_file_follows_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        with atomic_output(str(tmp_path / "new.txt")) as out:
            out.write("x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.txt").st_mode) == 0o666 & ~umask


def test_text_mode_is_utf8_with_newlines_and_binary_is_raw(tmp_path):
    with atomic_output(str(tmp_path / "a.txt")) as out:
        out.write("é\nz\n")
    with atomic_output(tmp_path / "b.bin", "wb") as out:
        out.write(b"\r\n\xff")
    assert (tmp_path / "a.txt").read_bytes() == "é\nz\n".encode()
    assert (tmp_path / "b.bin").read_bytes() == b"\r\n\xff"
    with pytest.raises(ValueError):
        with atomic_output(str(tmp_path / "c"), "a"):
            pass


@pytest.mark.parametrize("existing", [True, False])
def test_exception_leaves_everything_as_it_was(tmp_path, existing):
    target = tmp_path / "out.txt"
    if existing:
        target.write_text("old\n")
        os.chmod(target, 0o604)
    before = snapshot(tmp_path)
    for error in (RuntimeError("boom"), KeyboardInterrupt()):
        with pytest.raises(type(error)):
            with atomic_output(str(target)) as out:
                out.write("half")
                assert [p for p in os.listdir(tmp_path) if p.endswith(".part")]
                raise error
        assert snapshot(tmp_path) == before
    assert not _atomic._temporaries


def test_long_name_still_gets_a_temporary_file(tmp_path):
    target = tmp_path / ("n" * 250)
    with atomic_output(str(target)) as out:
        out.write("x")
    assert target.read_text() == "x" and os.listdir(tmp_path) == ["n" * 250]


def test_caller_closing_the_stream_is_fine(tmp_path):
    with atomic_output(str(tmp_path / "out.txt")) as out:
        out.write("closed early\n")
        out.close()
    assert (tmp_path / "out.txt").read_text() == "closed early\n"


# -- signals ---------------------------------------------------------------------------------


def test_handlers_installed_only_over_the_default_and_restored(tmp_path):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("not the main thread")
    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}

    def theirs(signum, frame):
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGHUP, theirs)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        with atomic_output(str(tmp_path / "a")):
            with atomic_output(str(tmp_path / "b")):
                assert signal.getsignal(signal.SIGHUP) is theirs
                assert signal.getsignal(signal.SIGTERM) is _atomic._on_signal
            assert signal.getsignal(signal.SIGTERM) is _atomic._on_signal
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        assert signal.getsignal(signal.SIGHUP) is theirs
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


_WRITER = """
    import os, sys, time
    from polyforms._atomic import atomic_output
    with atomic_output(sys.argv[1]) as out:
        out.write("partial\\n" * 1000)
        out.flush()
        if sys.argv[2] == "fork":
            read, write = os.pipe()
            child = os.fork()
            if child == 0:
                os.write(write, b"x")
                time.sleep(30)
                os._exit(0)
            os.read(read, 1)
            os.kill(child, 15)
            print(os.waitpid(child, 0)[1], flush=True)
        try:
            print("ready", flush=True)
            time.sleep(30)
        finally:
            if sys.argv[2] == "slow-cleanup":
                print("cleaning", flush=True)
                time.sleep(30)
"""


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
@pytest.mark.parametrize("existing", [True, False])
def test_signal_removes_the_temporary_file(tmp_path, signum, status, existing):
    target = tmp_path / "out.txt"
    if existing:
        target.write_text("old\n")
    before = snapshot(tmp_path)
    child = python(_WRITER, str(target), "plain")
    assert child.stdout.readline() == b"ready\n"
    assert any(name.endswith(".part") for name in os.listdir(tmp_path))
    child.send_signal(signum)
    assert child.wait(20) == status, child.stderr.read()
    assert child.stderr.read() == b""
    assert snapshot(tmp_path) == before


def test_second_signal_during_cleanup_kills_and_still_removes(tmp_path):
    child = python(_WRITER, str(tmp_path / "out.txt"), "slow-cleanup")
    assert child.stdout.readline() == b"ready\n"
    child.send_signal(signal.SIGTERM)
    assert child.stdout.readline() == b"cleaning\n"
    child.send_signal(signal.SIGTERM)
    assert child.wait(20) == -signal.SIGTERM
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_forked_child_dies_by_the_signal_as_before(tmp_path):
    child = python(_WRITER, str(tmp_path / "out.txt"), "fork")
    status = int(child.stdout.readline())
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM
    assert child.stdout.readline() == b"ready\n"
    child.send_signal(signal.SIGTERM)
    assert child.wait(20) == 143
    assert os.listdir(tmp_path) == []


def test_signal_exit_is_a_system_exit():
    error = SignalExit(signal.SIGTERM)
    assert isinstance(error, SystemExit) and not isinstance(error, Exception)
    assert error.code == 143 and error.signum == signal.SIGTERM


def test_atexit_removes_registered_temporaries(tmp_path):
    leftover = tmp_path / ".out.txt.12345678.part"
    leftover.write_text("x")
    _atomic._temporaries[str(leftover)] = os.getpid() + 1  # another process's: kept
    _atomic._remove_temporaries()
    assert leftover.exists()
    _atomic._temporaries[str(leftover)] = os.getpid()
    _atomic._remove_temporaries()
    assert not leftover.exists() and not _atomic._temporaries


# -- reading text ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, text",
    [
        (b"ab\ncd\n", "ab\ncd\n"),
        (b"\xef\xbb\xbfab\n", "ab\n"),
        (b"a\r\nb\r\n", "a\nb\n"),
        (b"a\rb\r\r\nc", "a\nb\n\nc"),
        (b"\xef\xbb\xbf\xc3\xa9\r\n", "é\n"),
        (b"", ""),
    ],
)
def test_read_text_decodes(tmp_path, data, text):
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    assert read_text(str(path)) == text
    assert decode_text(data, "x") == text


@pytest.mark.parametrize(
    "data, where",
    [
        (b"abc\xffdef", "byte 0xff at offset 3)"),
        (b"\xef\xbb\xbfab\x80", "byte 0x80 at offset 5)"),
        (b"ok\n\xc3", "byte 0xc3 at offset 3)"),
        (b"\xff\xfea\x00", "byte 0xff at offset 0; it looks like UTF-16)"),
    ],
)
def test_read_text_rejects_bytes_that_are_not_utf8(tmp_path, data, where):
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    with pytest.raises(ParseError) as caught:
        read_text(str(path))
    one_line_naming(caught.value, str(path))
    assert str(caught.value) == f"{path}: not UTF-8 text ({where}"


@pytest.mark.parametrize(
    "make, words, what",
    [
        (lambda p: p.mkdir(), "is a directory, not a region file", "region file"),
        (lambda p: None, "no such file", "file"),
        (lambda p: p.write_bytes(b"x" * 11), "too large", "file"),
    ],
    ids=["directory", "missing", "too-large"],
)
def test_read_text_file_problems_are_one_line(tmp_path, make, words, what):
    path = tmp_path / "in.txt"
    make(path)
    with pytest.raises(InputFileError) as caught:
        read_text(str(path), what, limit=10)
    assert isinstance(caught.value, PolyformError)
    one_line_naming(caught.value, str(path))
    assert words in str(caught.value)


def test_read_text_below_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(InputFileError, match="not a directory"):
        read_text(str(tmp_path / "f" / "g"))


@pytest.mark.skipif(ROOT, reason="root may read anything")
def test_read_text_without_permission(tmp_path):
    path = tmp_path / "secret"
    path.write_text("x")
    os.chmod(path, 0)
    with pytest.raises(InputFileError, match="no permission to read"):
        read_text(str(path))


_STDIN = """
    import sys
    from polyforms._textio import read_text
    try:
        sys.stdout.write(ascii(read_text("-", limit=int(sys.argv[1]))))
    except Exception as error:
        sys.stdout.write(type(error).__name__ + ": " + str(error))
"""


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"\xef\xbb\xbfa\r\nb\rc", "'a\\nb\\nc'"),
        (b"ab\xfe", "ParseError: standard input: not UTF-8 text (byte 0xfe at offset 2)"),
        (b"y" * 101, "InputFileError: standard input: the file is too large"),
    ],
)
def test_read_text_from_stdin(data, expected):
    child = python(_STDIN, "100")
    out, err = child.communicate(data, timeout=20)
    assert err == b"" and out.decode().startswith(expected)


def test_shorten():
    assert shorten("abc") == "abc"
    assert shorten("a" * 100000, 3) == "aaa…(100000 characters)"
    assert shorten("a\nb\tc\x1b") == "a\\nb\\tc\\x1b"
    assert shorten(os.fsdecode(b"caf\xe9")) == "caf\\xe9"
    assert len(shorten("z" * 10**6)) < 100


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "é", "€", "\n", "\r\n", "\r", "x y", "#"]), max_size=30),
    st.booleans(),
    st.integers(1, 7),
)
def test_iter_lines_streams_what_read_text_reads(tmp_path_factory, parts, bom, block):
    from polyforms import _textio

    data = ("\ufeff" if bom else "") + "".join(parts)
    path = tmp_path_factory.mktemp("lines") / "f.txt"
    path.write_bytes(data.encode())
    old = _textio._BLOCK
    _textio._BLOCK = block  # cut blocks inside CRLF pairs and multi-byte characters
    try:
        lines = list(_textio.iter_lines(path))
    finally:
        _textio._BLOCK = old
    assert "".join(lines) == _textio.read_text(path)
    assert all(line.endswith("\n") for line in lines[:-1])


def test_iter_lines_names_the_bad_byte_and_the_file(tmp_path):
    from polyforms import _textio
    from polyforms.errors import ParseError

    path = tmp_path / "bad.txt"
    path.write_bytes(b"ok\nno\xff\n")
    with pytest.raises(ParseError, match=r"bad.txt: not UTF-8 text \(byte 0xff at offset 5\)"):
        list(_textio.iter_lines(path))
    with pytest.raises(_textio.InputFileError, match="is a directory"):
        _textio.iter_lines(tmp_path)


# -- the command line's file arguments and tables ----------------------------------------------


def test_by_open_tables_in_both_formats(tmp_path):
    from polyforms.files.by_open import write_by_open
    from polyforms.tiling import by_open_rows

    problem = polyforms.tile("1x3", "dominoes", open=1)
    rows = by_open_rows(problem, problem.count_by_open())
    assert rows == [(((0, 0),), 1), (((1, 0),), 0), (((2, 0),), 1)]
    write_by_open(rows, tmp_path / "t.jsonl", "jsonl")
    assert (tmp_path / "t.jsonl").read_text() == (
        '{"open":[[0,0]],"tilings":1}\n{"open":[[1,0]],"tilings":0}\n{"open":[[2,0]],"tilings":1}\n'
    )
    distinct = by_open_rows(problem, problem.count_by_open(True), True)
    assert distinct == [(((0, 0),), 1), (((1, 0),), 0)]
    write_by_open(distinct, tmp_path / "t.csv", "csv")
    assert (tmp_path / "t.csv").read_text() == 'open,tilings\n"[[0,0]]",1\n"[[1,0]]",0\n'
    with pytest.raises(PolyformError, match="jsonl or csv"):
        write_by_open(rows, tmp_path / "t.txt", "txt")
    assert sorted(os.listdir(tmp_path)) == ["t.csv", "t.jsonl"]


def test_file_arguments_name_their_file_in_errors(tmp_path, monkeypatch):
    from polyforms.cli.arguments import read_dlx, read_piece_set, read_region

    monkeypatch.chdir(tmp_path)
    Path("ring.txt").write_text("###\n#.#\n###")  # no final newline: still a picture
    assert read_region("ring.txt") == polyforms.Region.parse("###\n#.#\n###\n")
    assert read_region("2x3") == polyforms.Region.box(2, 3)
    Path("odd.txt").write_text("#?#\n")
    with pytest.raises(ParseError, match=r"^odd\.txt: "):
        read_region("odd.txt")
    Path("pieces.txt").write_text("AA\nA.\n")
    assert list(read_piece_set("pieces.txt").pieces) == ["A"]
    assert len(read_piece_set("pentominoes", copies="I=0..2").pieces) == 12
    with pytest.raises(ParseError, match=r"^odd\.txt: "):
        read_piece_set("odd.txt")
    Path("p.dlx").write_text("a b\na\nb\na b\n")
    assert read_dlx("p.dlx").count() == 2
    Path("bad.dlx").write_text("a\nz\n")
    with pytest.raises(PolyformError, match=r"^bad\.dlx: "):
        read_dlx("bad.dlx")
