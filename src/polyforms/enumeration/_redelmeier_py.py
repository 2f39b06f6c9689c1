"""Readable twin of the compiled Redelmeier kernel (:mod:`polyforms._core._redelmeier`).

Every function here has the name, arguments and results of its compiled twin,
so :mod:`polyforms.enumeration.redelmeier` calls whichever :func:`polyforms._backend.kernel`
gives it; tests hold the two to the same answers in the same order. The
search tree is described in :mod:`polyforms.enumeration.redelmeier`, and its rules
(the order of neighbours, allowed and seen cells, images) are those of
:mod:`polyforms.enumeration.search_tree`, which the dispatcher shares.

The data structure, as in the compiled core: a node of the tree is its cells
in the order they were added and its *untried set*, the allowed cells it may
still add, in order. A cell is *allowed* when it comes after the origin in the
order "last coordinate first"; a cell is *seen* once it has been pushed on an
untried set on the path from the root, and is never pushed again. A child
takes one untried cell; its untried set is the rest of its parent's after that
cell, followed by the taken cell's allowed neighbours not seen before, in the
order ``+x, +y, (+z), -x, -y, (-z)``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from ..errors import PolyformError
from ..geometry import normalise, signed_permutations
from .records import pack_cells, unpack_cells
from .search_tree import Cell, Form, allowed, image, offsets, seen_by

__all__ = [
    "count_levels",
    "count_prefix",
    "iter_chunks",
    "iter_packed",
    "pack_prefix",
    "unpack",
]

Group = Sequence[tuple[tuple[int, ...], tuple[int, ...]]]


def _fresh(cell: Cell, moves: Sequence[Cell], seen: set[Cell]) -> list[Cell]:
    """The allowed neighbours of ``cell`` not seen yet, marked seen now."""
    fresh = []
    for off in moves:
        neighbour = tuple(a + b for a, b in zip(cell, off))
        if neighbour not in seen and allowed(neighbour):
            seen.add(neighbour)
            fresh.append(neighbour)
    return fresh


def walk(n: int, dim: int, cells: Sequence[Cell], untried: Sequence[Cell]) -> Iterator[list[Cell]]:
    """Yield the polyforms of size ``n`` below a node, in depth-first order.

    Each is the list of its cells in the order they were added (shared and
    mutated afterwards: copy what you keep).
    """
    moves = offsets(dim)
    grown = list(cells)
    seen = seen_by(grown, dim)

    def grow(untried: list[Cell]) -> Iterator[list[Cell]]:
        for i, cell in enumerate(untried):
            grown.append(cell)
            if len(grown) == n:
                yield grown
            else:
                fresh = _fresh(cell, moves, seen)
                yield from grow(untried[i + 1 :] + fresh)
                seen.difference_update(fresh)
            grown.pop()

    if len(grown) < n:
        yield from grow(list(untried))


def _count_fixed(n: int, dim: int, cells: Sequence[Cell], untried: Sequence[Cell]) -> int:
    """Count the fixed polyforms of size ``n`` below a node (Redelmeier's shortcut:
    at the last level each untried cell completes one polyform)."""
    moves = offsets(dim)
    seen = seen_by(cells, dim)

    def grow(size: int, untried: list[Cell]) -> int:
        if size == n - 1:
            return len(untried)
        total = 0
        for i, cell in enumerate(untried):
            fresh = _fresh(cell, moves, seen)
            total += grow(size + 1, untried[i + 1 :] + fresh)
            seen.difference_update(fresh)
        return total

    return grow(len(cells), list(untried)) if len(cells) < n else 0


def is_least(form: Form, group: Group) -> bool:
    """True when ``form`` is the least of its images: the kind's canonical form."""
    return all(form <= image(form, perm, signs) for perm, signs in group[1:])


def forms(n: int, dim: int, kind: str, cells: Sequence[Cell], untried: Sequence[Cell]):
    """Yield the polyforms of a kind below a node, normalised, in search order."""
    group = signed_permutations(dim, kind)
    for grown in walk(n, dim, cells, untried):
        form = normalise(grown)
        if kind == "fixed" or is_least(form, group):
            yield form


# -- the kernel's interface ------------------------------------------------------------


def count_prefix(n: int, dim: int, kind: str, cells, untried) -> int:
    """Count the polyforms of size ``n`` of a kind below a prefix (cells, untried)."""
    if kind == "fixed":
        return _count_fixed(n, dim, cells, untried)
    return sum(1 for _ in forms(n, dim, kind, cells, untried))


def count_levels(n: int, dim: int) -> list[int]:
    """Fixed polyforms of every size 1..n (one search per size here)."""
    root = ((0,) * dim,)
    return [_count_fixed(size, dim, (), root) for size in range(1, n + 1)]


def iter_chunks(n: int, dim: int, kind: str, cells, untried, chunk: int = 16384):
    """Yield lists of polyforms (sorted cell tuples) below a prefix, in search order."""
    found = forms(n, dim, kind, cells, untried)
    while True:
        part = list(itertools.islice(found, chunk))
        if not part:
            return
        yield part


def iter_packed(n: int, dim: int, kind: str, cells, untried, chunk: int = 16384):
    """Like :func:`iter_chunks`, but each chunk as bytes: ``dim`` signed bytes per cell."""
    if n > 127:
        raise PolyformError("packed cells are signed bytes: at most 127 cells")
    for part in iter_chunks(n, dim, kind, cells, untried, chunk):
        yield pack_cells(part)


def pack_prefix(n: int, dim: int, kind: str, cells, untried) -> bytes:
    """All polyforms below a prefix as packed cells, ``dim`` signed bytes per cell."""
    if n > 127:
        raise PolyformError("packed cells are signed bytes: at most 127 cells")
    return pack_cells(forms(n, dim, kind, cells, untried))


def unpack(n: int, dim: int, packed: bytes) -> list[Form]:
    """Polyforms (sorted cell tuples) from packed cells, ``dim`` bytes per cell."""
    return unpack_cells(n, dim, packed)
