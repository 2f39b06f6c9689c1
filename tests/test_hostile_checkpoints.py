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
