"""Which search core runs an exact-cover instance, and the searches it makes.

Three cores yield the same solutions in the same order, behind one interface
(``Search(lower, upper, primary, offsets, items, forced, excluded,
colours=...)`` with ``next_solution``, ``count``, ``probe``, ``nodes``,
``done`` and ``path``):

* :mod:`polyforms._core._xcbits`, the compiled bitset core: instances without
  multiplicities (colours allowed) whose bitsets fit in its ``MAX_BYTES``;
  the default for those, on which it outruns dancing links: a level builds
  its whole state from its parent's, so backing up costs nothing, where
  dancing links pays every unlink again with a relink (BENCHMARKS.md);
* :mod:`polyforms._core._dlx`, the compiled dancing links: every instance;
* :mod:`polyforms.exactcover._exactcover_py`, the readable twin of both:
  taken when the compiled cores are not built, or asked for
  (``backend="python"``, or ``POLYFORMS_BACKEND=python``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import _backend
from ..errors import ExactCoverError
from . import _exactcover_py
from .flat import Flat

__all__ = ["BACKENDS", "engine_for", "new_search", "prober", "solutions_of"]

BACKENDS = ("python", "compiled", "dlx", "bitset")
"""The names ``backend`` takes (None: ``compiled`` when built, else ``python``)."""


def engine_for(backend: str | None, flat: Flat) -> Any:
    """The ``Search`` class for ``flat``: a compiled core's, or the readable twin's.

    ``compiled`` (the default when built) picks the bitset core for instances
    without multiplicities (colours allowed) whose bitsets fit in its
    ``MAX_BYTES`` (256 MiB), and dancing links for the others; ``dlx`` and
    ``bitset`` force one of them; ``python`` the twin.

    Raises
    ------
    ExactCoverError
        For an unknown backend, a compiled core asked for but not built, or the
        bitset core asked for an instance with multiplicities.
    """
    if backend not in (None, *BACKENDS):
        raise ExactCoverError(
            "backend must be one of " + ", ".join(map(repr, BACKENDS)) + f", not {backend!r}"
        )
    if backend == "python":
        return _exactcover_py.Search
    dlx = _backend.compiled("dlx")
    if dlx is None:
        if backend is None:
            return _exactcover_py.Search
        raise ExactCoverError("the compiled exact-cover core is not available")
    bits = _backend.compiled("xcbits")
    if backend == "dlx" or bits is None:
        return dlx.Search
    once = flat.once_each()
    if backend == "bitset":
        if not once:
            raise ExactCoverError("the bitset core takes exact cover without multiplicities only")
        return bits.Search
    if (
        once
        and bits.footprint(flat.primary, flat.offsets, flat.items, flat.colours) <= bits.MAX_BYTES
    ):
        return bits.Search
    return dlx.Search


def prober(python: bool) -> Any:
    """The ``Search`` whose probes weigh subtasks: dancing links' (the bitset core
    walks the same tree), or the readable twin's when ``python`` or not built."""
    dlx = None if python else _backend.compiled("dlx")
    return _exactcover_py.Search if dlx is None else dlx.Search


def new_search(engine: Any, flat: Flat, forced: list[int], excluded: list[int]) -> Any:
    """A search of ``engine`` (a ``Search`` class) over ``flat``, below the
    options ``forced`` with the options ``excluded`` left out."""
    if flat.colours is not None:  # only the cores that run Algorithm C take colours
        return engine(*flat.arrays, forced, excluded, colours=flat.colours)
    return engine(*flat.arrays, forced, excluded)


def solutions_of(search: Any) -> Iterator[list[int]]:
    """The solutions a search yields, as lists of option numbers, until it ends."""
    while True:
        solution = search.next_solution()
        if solution is None:
            return
        yield solution
