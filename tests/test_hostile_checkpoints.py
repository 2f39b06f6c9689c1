"""A checkpoint's folder of chunks is private and link-proof: links planted there
by someone else are refused in one line, and nothing outside the folder is read
into the output or written through a link."""

from __future__ import annotations

import os
import stat

import pytest

from polyforms.jobs import Checkpoint, CheckpointError, plan, run
from polyforms.jobs.tasks import Task


def _lines(prefix: str) -> bytes:
    return f"{prefix}\n".encode() * 3


class Lines:
    """A listing job of four tasks whose results are bytes (journalled as chunks)."""

    key = "lines for the link tests"
    chunks = True

    def tasks(self) -> list[Task]:
        return [Task(str(k), _lines, (f"line {k}",), 1.0) for k in range(4)]

    def refine(self, task: Task) -> None:
        return None


def _listed(journal) -> bytes:
    return b"".join(result for _, result in run(Lines(), checkpoint=journal))


@pytest.fixture
def outside(tmp_path):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_bytes(b"not yours\n")
    return secret


def test_the_folder_of_chunks_is_private(tmp_path):
    journal = tmp_path / "run.ckpt"
    whole = _listed(journal)
    folder = tmp_path / "run.ckpt.chunks"
    assert whole == b"".join(_lines(f"line {k}") for k in range(4))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert sorted(os.listdir(folder)) == ["0", "1", "2", "3"]  # no temporary left


def test_a_chunk_replaced_by_a_link_is_refused_and_the_outside_file_not_read(tmp_path, outside):
    journal = tmp_path / "run.ckpt"
    _listed(journal)
    chunk = tmp_path / "run.ckpt.chunks" / "1"
    size = chunk.stat().st_size
    chunk.unlink()
    outside.write_bytes(b"x" * size)  # the size the journal expects
    chunk.symlink_to(outside)
    with pytest.raises(CheckpointError, match="is a link or not a regular file") as error:
        _listed(journal)
    assert "\n" not in str(error.value)


def test_a_folder_of_chunks_that_is_a_link_is_refused(tmp_path, outside):
    journal = tmp_path / "run.ckpt"
    _listed(journal)
    folder = tmp_path / "run.ckpt.chunks"
    for name in os.listdir(folder):
        os.replace(folder / name, outside.parent / name)
    folder.rmdir()
    folder.symlink_to(outside.parent)
    with pytest.raises(CheckpointError, match="is a link or not a directory"):
        _listed(journal)


def test_a_new_run_refuses_a_folder_of_chunks_planted_as_a_link(tmp_path, outside):
    (tmp_path / "run.ckpt.chunks").symlink_to(outside.parent)
    with pytest.raises(CheckpointError, match="is a link or not a directory"):
        _listed(tmp_path / "run.ckpt")
    assert os.listdir(outside.parent) == ["secret.txt"]
    assert outside.read_bytes() == b"not yours\n"


def test_links_planted_under_the_temporary_names_are_never_written_through(tmp_path, outside):
    folder = tmp_path / "run.ckpt.chunks"
    folder.mkdir(mode=0o700)
    for task in plan(Lines(), 1):  # every name a temporary file used to have
        (folder / f"{task.id}.part").symlink_to(outside)
    whole = _listed(tmp_path / "run.ckpt")
    assert whole == b"".join(_lines(f"line {k}") for k in range(4))
    assert outside.read_bytes() == b"not yours\n"


def test_a_journalled_chunk_is_read_back_only_from_a_regular_file(tmp_path):
    journal = tmp_path / "run.ckpt"
    _listed(journal)
    checkpoint = Checkpoint(journal, Lines.key)
    checkpoint.open(1)
    try:
        assert checkpoint.result("2") == _lines("line 2")
    finally:
        checkpoint.close()


def _square(k: int) -> int:
    return k * k


class Squares:
    """A count of four tasks (0 + 1 + 4 + 9)."""

    key = "squares for the journal tests"

    def tasks(self) -> list[Task]:
        return [Task(str(k), _square, (k,), 1.0) for k in range(4)]

    def refine(self, task: Task) -> None:
        return None


@pytest.mark.parametrize("forged", [-5, -(2**64), 2.5, "7", None, True])
def test_a_journalled_count_that_is_not_a_whole_number_at_least_0_is_refused(tmp_path, forged):
    import json

    from polyforms.jobs import run_sum

    journal = tmp_path / "squares.ckpt"
    assert run_sum(Squares(), checkpoint=journal) == 14
    header, *entries = journal.read_text().splitlines()
    entry = json.loads(entries[1])
    entry["result"] = forged
    entries[1] = json.dumps(entry)
    journal.write_text("\n".join([header, *entries]) + "\n")
    with pytest.raises(CheckpointError, match="is not a count") as error:
        run_sum(Squares(), checkpoint=journal)
    assert "\n" not in str(error.value)


# -- forged rests: a journalled task that stopped early, and what it left --------------

TILING = ("5x12", "pentominoes")  # 4,040 tilings; about 2,000 placements, 60 cells


def _forged_rest(journal, count, rest, weights) -> None:
    """Count once into ``journal``, then make its first entry a task that stopped
    early leaving ``rest`` (the journal ends there)."""
    import json

    assert count(journal) > 0
    header, first, *_ = journal.read_text().splitlines()
    entry = dict(json.loads(first), rest=rest, weights=weights)
    journal.write_text(f"{header}\n{json.dumps(entry)}\n")


def _tiling_count(journal) -> int:
    import polyforms as pf

    return pf.tile(*TILING).count(checkpoint=journal)


def _exact_cover_count(journal) -> int:
    import polyforms as pf

    return pf.examples.queens(8).count(checkpoint=journal)


# (count, the rest left, fragment of the one-line error). The rest's groups each
# weigh 1.0. A tiling's rest is groups of prefixes (lists of placements); an exact
# cover's, groups of nodes (a list of options forced, a list excluded).
FORGED_RESTS = [
    (_tiling_count, [[[2**64]]], "is not a node of this search"),
    (_tiling_count, [[[2**64, 3, 5]]], "is not a node of this search"),
    (_tiling_count, [[[-5]]], "is not a node of this search"),
    (_tiling_count, [[[10**6]]], "is not a node of this search"),
    (_tiling_count, [[list(range(61))]], "at most 60"),
    (_tiling_count, [[[1.5]]], "a prefix is not a list of placements"),
    (_tiling_count, [[[True]]], "a prefix is not a list of placements"),
    (_tiling_count, [[5]], "a group is not a list of prefixes"),
    (_tiling_count, [5], "a group is not a list of prefixes"),
    (_exact_cover_count, [[[[2**64], []]]], "a node is not two lists of options"),
    (_exact_cover_count, [[[[], [-1]]]], "a node is not two lists of options"),
    (_exact_cover_count, [[[[1, 2**70], [3]]]], "a node is not two lists of options"),
]


def test_a_forged_rest_of_overlapping_placements_is_refused_by_its_subtask(tmp_path):
    """Placements in range that overlap are refused where the kernel places them."""
    journal = tmp_path / "count.ckpt"
    _forged_rest(journal, _tiling_count, [[[0, 0]]], [1.0])
    with pytest.raises(CheckpointError, match="initial placement 0") as error:
        _tiling_count(journal)
    assert "is not a node of the count's search" in str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("count,rest,message", FORGED_RESTS)
def test_a_forged_rest_is_refused_before_any_task_is_made(tmp_path, count, rest, message):
    journal = tmp_path / "count.ckpt"
    _forged_rest(journal, count, rest, [1.0] * len(rest))
    with pytest.raises(CheckpointError, match="cannot be taken up") as error:
        count(journal)
    assert message in str(error.value) and "\n" not in str(error.value)


def _cli_journal(cli, tmp_path, args: list[str]) -> list[str]:
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    return (tmp_path / "count.ckpt").read_text().splitlines()


@pytest.mark.parametrize("command", ["tile", "solve"])
def test_the_command_line_refuses_a_rest_of_2_to_the_64_in_one_line(cli, tmp_path, command):
    """The audit's forgery: a rest's first placement (option) made 2**64 used to
    overflow in the worker, a traceback; it is one line and exit status 2."""
    import json

    import polyforms as pf

    journal = str(tmp_path / "count.ckpt")
    if command == "tile":
        args = ["tile", *TILING[:1], "--pieces", TILING[1], "--count", "--checkpoint", journal]
        rest = [[[2**64, 12]]]
    else:
        (tmp_path / "queens.dlx").write_text(pf.examples.queens(8).to_dlx())
        args = ["solve", str(tmp_path / "queens.dlx"), "--count", "--checkpoint", journal]
        rest = [[[[2**64], []]]]
    header, first, *_ = _cli_journal(cli, tmp_path, args)
    entry = dict(json.loads(first), rest=rest, weights=[1.0])
    (tmp_path / "count.ckpt").write_text(f"{header}\n{json.dumps(entry)}\n")
    done = cli(*args)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "the rest of subtask" in done.stderr and "cannot be taken up" in done.stderr


# -- bounded reads ------------------------------------------------------------------------


def _header_line(key: str) -> bytes:
    import json

    return (json.dumps({"polyforms-checkpoint": 1, "key": key, "workers": 1}) + "\n").encode()


def _sparse(path, head: bytes, size: int) -> None:
    """``path`` holds ``head`` then zero bytes up to ``size`` (a hole: no disk used)."""
    with open(path, "wb") as handle:
        handle.write(head)
        handle.truncate(size)


# (what the file holds: a head and its size, the fragment of the error). Squares'
# journals; each is refused having read at most its first ``most`` bytes.
LONG_FILES = [
    (b"", 1 << 30, "is not a polyforms checkpoint", 64 << 10),
    (b"x" * 10_000 + b"\n", 1 << 30, "is not a polyforms checkpoint", 64 << 10),
    (_header_line("k" * 5000), 1 << 20, "is not a polyforms checkpoint", 64 << 10),
    (_header_line(Squares.key), 200 << 20, "is corrupt at line 2 (longer than 64 MiB)", 66 << 20),
    (_header_line(Squares.key) + b'{"id":"0","result":0}\n' + b"[" * (65 << 20) + b"\n"
     + b'{"id":"1","result":1}\n', None, "is corrupt at line 3 (longer than 64 MiB)", 67 << 20),
]  # fmt: skip


@pytest.mark.parametrize("head,size,message,most", LONG_FILES)
def test_a_long_file_is_refused_without_reading_it_whole(tmp_path, monkeypatch, head, size,
                                                         message, most):  # fmt: skip
    from polyforms.jobs import checkpoint as module

    path = tmp_path / "long.ckpt"
    _sparse(path, head, size if size is not None else len(head))
    read = []
    real_read = module.os.read

    def counted(fd: int, n: int) -> bytes:
        chunk = real_read(fd, n)
        read.append(len(chunk))
        return chunk

    monkeypatch.setattr(module.os, "read", counted)
    from polyforms.jobs import run_sum

    with pytest.raises(CheckpointError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run_sum(Squares(), checkpoint=path)
    monkeypatch.undo()
    assert sum(read) <= most
    assert path.stat().st_size == (size if size is not None else len(head))  # left alone


def test_the_command_line_refuses_a_gigabyte_that_is_no_checkpoint(cli, tmp_path):
    for what in ("--count", "--reuse"):  # a journal of the job layer; a sweep's file
        _sparse(tmp_path / "big.ckpt", b"", 1 << 30)
        done = cli("tile", "6x10", "--pieces", "pentominoes", what, "--count", "--checkpoint",
                   str(tmp_path / "big.ckpt"))  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "is not a polyforms checkpoint" in done.stderr


def test_a_sweep_refuses_a_header_line_longer_than_a_checkpoint_writes(tmp_path):
    import polyforms as pf

    path = tmp_path / "sweep.ckpt"
    _sparse(path, b'{"polyforms-checkpoint": 1, "key": "' + b"k" * 5000 + b'"}\n', 1 << 20)
    with pytest.raises(CheckpointError, match="is not a polyforms checkpoint"):
        pf.tile("5x10", "pentominoes", reuse=True).count(checkpoint=path)


def test_a_line_too_long_for_the_journal_is_never_written(tmp_path, monkeypatch):
    """A result the reader would refuse stops the run before it is journalled,
    so the journal stays one the next run takes up."""
    from polyforms.jobs import JobError, StaticJob, run_sum
    from polyforms.jobs import checkpoint as module

    monkeypatch.setattr(module, "MAX_JOURNAL_LINE", 200)
    journal = tmp_path / "squares.ckpt"
    tasks = [Task("0", _square, (3,), 1.0), Task("1", list, (range(100),), 1.0)]
    job = StaticJob("squares and a big one", tasks)
    with pytest.raises(JobError, match="more than a line of checkpoint"):
        run_sum(job, checkpoint=journal)
    assert len(journal.read_text().splitlines()) == 2  # the header and the first result


def test_a_key_too_long_for_a_header_line_is_refused(tmp_path):
    from polyforms.jobs import StaticJob, run_sum

    job = StaticJob("k" * 5000, [Task("0", _square, (3,), 1.0)])
    with pytest.raises(CheckpointError, match="too long for a checkpoint"):
        run_sum(job, checkpoint=tmp_path / "long-key.ckpt")
    assert list(tmp_path.iterdir()) == []  # refused before any file is made


@pytest.mark.parametrize(
    "forged,into",
    [
        (b'"piece"', b'"pieXe"'),  # a key no tiling has
        (b"{", b"["),  # not JSON
        (b'"cells":[[', b'"cells":[7'),  # not JSON
        (b'"cells":[[0,0],', b'"cells":[7,    '),  # a number where a cell goes
    ],
)
def test_a_forged_chunk_of_a_listing_is_refused_as_it_is_read_back(tmp_path, forged, into):
    """Tilings listed by subtasks come back from their chunks, kept as side files
    by a journal: a chunk edited there is a CheckpointError, not a KeyError."""
    import polyforms as pf

    problem = pf.tile("5x6", "pentominoes", counts={"I": (0, 2)}, optional=True)
    journal = tmp_path / "list.ckpt"
    assert sum(1 for _ in problem.solutions(checkpoint=journal)) == 3420
    chunk = tmp_path / "list.ckpt.chunks" / "0.0"
    text = chunk.read_bytes()
    assert forged in text and len(forged) == len(into)  # the size the journal says
    chunk.write_bytes(text.replace(forged, into, 1))
    with pytest.raises(CheckpointError, match="cannot be read back"):
        sum(1 for _ in problem.solutions(checkpoint=journal))
