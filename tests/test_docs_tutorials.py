"""Run the tutorials' examples: every ``>>>`` line on docs/tutorials/ is a doctest.

Each tutorial runs in a fresh temporary directory (they write small files),
with ``ELLIPSIS`` and ``NORMALIZE_WHITESPACE`` as the docstrings' examples.
"""

import doctest
from pathlib import Path

import pytest

TUTORIALS = sorted((Path(__file__).resolve().parent.parent / "docs" / "tutorials").glob("*.rst"))


def test_there_are_tutorials():
    names = {path.stem for path in TUTORIALS}
    assert {"designing-a-puzzle", "counting-polyforms", "long-runs", "exact-cover"} <= names


@pytest.mark.parametrize("path", TUTORIALS, ids=[path.stem for path in TUTORIALS])
def test_tutorial_examples(path, tmp_path, monkeypatch):
    from polyforms import limits

    monkeypatch.chdir(tmp_path)
    # The long-runs page starts Dask workers in this process (processes=False), and a
    # Dask worker counts its machine's cores as sharers of the tiling memos' memory:
    # put this process's figure back afterwards, for the tests that follow.
    monkeypatch.setattr(limits, "memo_sharers", limits.memo_sharers)
    failures, tried = doctest.testfile(
        str(path),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        encoding="utf-8",
    )
    assert tried > 0, f"{path.name} has no examples"
    assert failures == 0, f"{failures} example(s) failed in {path.name}"
