"""Run the Examples sections of every module's docstrings.

They are documentation, so they must stay true.
"""

import doctest
import importlib
import pkgutil

import pytest

import polyforms

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(polyforms.__path__, prefix="polyforms.")
    if not info.name.startswith("polyforms._core.")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert failures == 0, f"{failures} docstring example(s) failed in {name}"
