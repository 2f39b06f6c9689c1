"""A tiling search in its reduced form: the arguments of the tiling kernel, named.

Both twins of the kernel (``polyforms._core._tiling`` and its readable twin
:mod:`polyforms.tiling._tiling_py`) take these fields; the rest of the package
builds specs (:mod:`polyforms.tiling.layout`), sends them to subtasks and
keys jobs by them, without importing either twin.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["BoundedSearchSpec", "SearchSpec"]


class SearchSpec(NamedTuple):
    """A tiling search in its reduced form: the kernel's arguments, named.

    Picklable, so a subtask can rebuild the search in another process or on
    another machine (:func:`polyforms.tiling.engines.make_search`).
    """

    ncells: int
    placements: Sequence[tuple[int, Sequence[int]]]
    limits: Sequence[int]
    must_use: Sequence[bool]
    neighbours: Sequence[Sequence[int]] | None
    strategy: str
    flood_cap: int


class BoundedSearchSpec(NamedTuple):
    """A :class:`SearchSpec` with lower bounds: ``minimums[piece]`` copies at least
    (copy ranges). Exact counts keep the plain spec, whose fields (and subtask
    digests) stay as they were."""

    ncells: int
    placements: Sequence[tuple[int, Sequence[int]]]
    limits: Sequence[int]
    must_use: Sequence[bool]
    neighbours: Sequence[Sequence[int]] | None
    strategy: str
    flood_cap: int
    minimums: Sequence[int]
