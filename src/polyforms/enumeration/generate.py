"""Enumerate and count polyominoes and polycubes.

Two methods give the same sets:

``"redelmeier"`` (default)
    Redelmeier's algorithm (Redelmeier 1981), in :mod:`polyforms.enumeration.redelmeier`:
    a depth-first search that visits every fixed polyform exactly once and
    keeps, for the one-sided and free kinds, those that are the least of
    their images. Streams in constant memory; compiled when built.
``"naive"``
    Grow every polyform of size n-1 by one cell in every possible place and
    keep the canonical forms in a set. Simple to trust, so it serves as the
    check on Redelmeier; it holds a whole level in memory.
``"transfer-matrix"`` (counts only)
    Jensen's transfer matrices in :mod:`polyforms.enumeration.transfer`: counts 2D
    polyominoes without listing them, growing about 1.5ⁿ instead of 4.06ⁿ.
    :func:`count` takes it by itself where it is faster.

Every function yields :class:`~polyforms.polyform.Polyform` values whose cells
are the canonical form for the kind (for ``fixed``, simply normal position).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from ..errors import TooLargeError, UnknownNameError
from ..geometry import check_dim, check_kind, check_size, neighbours, normalise, symmetries
from ..polyform import Polyform, parse_symmetry_class

__all__ = [
    "estimate",
    "keep",
    "METHODS",
    "enumerate_polyforms",
    "polyominoes",
    "polycubes",
    "count",
    "estimate_fixed",
    "count_method",
    "CATALOGUE_LIMIT",
    "COUNT_LIMIT",
    "NAIVE_LIMIT",
]

METHODS = ("redelmeier", "naive", "transfer-matrix")

from ..limits import CATALOGUE_LIMIT, COUNT_LIMIT, NAIVE_LIMIT  # noqa: E402  (documented there)

_GROUP_ORDER = {
    (2, "fixed"): 1,
    (2, "one-sided"): 4,
    (2, "free"): 8,
    (3, "fixed"): 1,
    (3, "one-sided"): 24,
    (3, "free"): 48,
}


def estimate_fixed(n: int, dim: int = 2) -> float:
    """A rough estimate of the number of fixed polyforms of size ``n``.

    Used only to refuse enormous requests, never as an answer. 2D uses the
    asymptotic form 0.3169 λⁿ / n with λ = 4.0626 (Jensen 2003); 3D a growth
    fit to the known polycube counts (about 7.4 per cell near n = 12).

    Examples
    --------
    >>> round(estimate_fixed(16) / 1e8, 1)
    1.1
    """
    if dim == 2:
        return 0.3169 * 4.0626**n / n
    return math.exp(15.93 + 2.0 * (n - 10) + 0.005 * (n - 10) ** 2)


def _check(n: object, dim: int, kind: str, method: str, counting: bool = False) -> int:
    check_size(n)
    check_dim(dim)
    check_kind(kind)
    if method not in METHODS:
        raise UnknownNameError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if method == "transfer-matrix" and not counting:
        raise UnknownNameError(
            "the transfer-matrix method only counts (--count); "
            "catalogues list every polyomino with redelmeier or naive"
        )
    return n


def enumerate_polyforms(
    n: int,
    dim: int = 2,
    kind: str = "free",
    method: str = "redelmeier",
    *,
    jobs: int = 1,
    progress: Any = None,
    force: bool = False,
    holes: bool | None = None,
    symmetry: str | int | None = None,
    executor: Any = None,
    checkpoint: Any = None,
) -> Iterator[Polyform]:
    """Yield every polyform of size ``n`` of the given kind, each once.

    Parameters
    ----------
    n : int
        Number of cells (at least 1).
    dim : {2, 3}
        2 for polyominoes, 3 for polycubes.
    kind : {"free", "one-sided", "fixed"}
        Which images count as the same: all symmetries, rotations only, none.
    method : {"redelmeier", "naive"}
    jobs, progress, executor, checkpoint
        How the Redelmeier search runs (same output, same order): local
        worker processes, a callable taking :class:`polyforms.jobs.runner.Progress`
        (True: a bar on stderr), a job-layer executor or Dask client, a
        checkpoint file to resume from (see :func:`polyforms.enumeration.redelmeier.count`).
    force : bool
        Allow a catalogue estimated above :data:`CATALOGUE_LIMIT` polyforms.
    holes : bool, optional
        True: only polyforms with holes; False: only those without.
    symmetry : str or int, optional
        Only this symmetry class (:attr:`Polyform.symmetry`; text is parsed).

    Yields
    ------
    Polyform
        In canonical form for ``kind``. Redelmeier order is the order of its
        search (see :mod:`polyforms.enumeration.redelmeier`); naive order is sorted.

    Raises
    ------
    PolyformError, UnknownNameError, TooLargeError

    Examples
    --------
    >>> [p.cells for p in enumerate_polyforms(3, kind="free", method="naive")]
    [((0, 0), (0, 1), (0, 2)), ((0, 0), (0, 1), (1, 0))]
    """
    _check(n, dim, kind, method)
    if symmetry is not None:
        symmetry = parse_symmetry_class(symmetry, dim)
    test = keep(holes, symmetry)
    long_run = {"jobs": jobs, "progress": progress, "executor": executor, "checkpoint": checkpoint}
    if test is not None and method == "redelmeier" and n <= FILTER_MAX_CELLS:
        _check_catalogue(n, dim, kind, method, force)
        return _unpacked(filtered_chunks(n, dim, kind, holes, symmetry, **long_run), n, dim)
    stream = _unfiltered(n, dim, kind, method, long_run, force)
    return stream if test is None else (p for p in stream if test(p))


FILTER_MAX_CELLS = 64
"""The compiled filter's largest polyform (larger ones are filtered in Python)."""


def filtered_chunks(
    n: int, dim: int, kind: str, holes: bool | None, symmetry: str | int | None, **long_run: Any
) -> Iterator[bytes]:
    """Packed chunks of the polyforms that pass the filters, at compiled speed.

    Redelmeier's packed chunks go through the catalogue kernel's
    ``filter_chunk``, which tests holes and symmetry class without a Python
    object per polyform (``enumerate 13 --holes``: 214 s before, as fast as
    the unfiltered catalogue now). ``symmetry`` may be user text: it is parsed
    (:func:`polyforms.polyform.parse_symmetry_class`) before the search starts.
    """
    from .. import _backend
    from . import redelmeier

    if symmetry is not None:
        symmetry = parse_symmetry_class(symmetry, dim)
    kernel = _backend.kernel("catalogue")
    wanted = -1 if holes is None else int(bool(holes))
    for chunk in redelmeier.iter_packed(n, dim, kind, **long_run):
        kept = kernel.filter_chunk(chunk, n, dim, wanted, symmetry)
        if kept:
            yield kept


def _unpacked(chunks: Iterator[bytes], n: int, dim: int) -> Iterator[Polyform]:
    from ._catalogue_py import unpack

    for chunk in chunks:
        yield from unpack(chunk, n, dim)


def _check_catalogue(n, dim, kind, method, force) -> None:
    """Refuse, before any work, a catalogue estimated to be enormous."""
    estimate = estimate_fixed(n, dim) / _GROUP_ORDER[dim, kind]
    if estimate > CATALOGUE_LIMIT and not force:
        raise TooLargeError(
            f"a catalogue of size {n} would hold about {estimate:.2g} polyforms "
            f"(limit {CATALOGUE_LIMIT:.0e}); use force=True (--force) to insist"
        )
    if method == "naive" and estimate > NAIVE_LIMIT and not force:
        raise TooLargeError(
            f"the naive method keeps a whole level in memory: about {estimate:.2g} "
            f"polyforms at size {n} (limit {NAIVE_LIMIT:.0e}); use the redelmeier "
            "method, or force=True (--force) to insist"
        )


def _unfiltered(n, dim, kind, method, long_run, force) -> Iterator[Polyform]:
    _check_catalogue(n, dim, kind, method, force)
    if method == "naive":
        return _naive(n, dim, kind, bool(long_run["progress"]))
    from . import redelmeier

    cells_stream = redelmeier.iter_cells(n, dim, kind, **long_run)
    return (Polyform._trusted(cells, dim) for cells in cells_stream)


def polyominoes(
    n: int, kind: str = "free", method: str = "redelmeier", **options
) -> Iterator[Polyform]:
    """Yield the polyominoes of size ``n``; see :func:`enumerate_polyforms`.

    Examples
    --------
    >>> sum(1 for _ in polyominoes(7, kind="free"))
    108
    """
    return enumerate_polyforms(n, 2, kind, method, **options)


def polycubes(
    n: int, kind: str = "free", method: str = "redelmeier", **options
) -> Iterator[Polyform]:
    """Yield the polycubes of size ``n``; see :func:`enumerate_polyforms`.

    Examples
    --------
    >>> sum(1 for _ in polycubes(4, kind="one-sided"))
    8
    """
    return enumerate_polyforms(n, 3, kind, method, **options)


def count(
    n: int,
    dim: int = 2,
    kind: str = "free",
    method: str = "redelmeier",
    *,
    jobs: int = 1,
    progress: Any = None,
    force: bool = False,
    holes: bool | None = None,
    symmetry: str | int | None = None,
    executor: Any = None,
    checkpoint: Any = None,
) -> int:
    """Count the polyforms of size ``n`` without building them.

    Parameters are those of :func:`enumerate_polyforms`; ``force`` allows a
    search tree estimated above :data:`COUNT_LIMIT` fixed polyforms (or, for
    the transfer matrix, tables above the memory available). With a filter
    (``holes``, ``symmetry``) the polyforms are listed and tested.
    ``method="redelmeier"`` (the default) counts 2D polyominoes without
    filters by the transfer matrix from size
    :data:`polyforms.enumeration.transfer.CROSSOVER` on, where that is faster (the
    numbers are the same; :func:`polyforms.enumeration.redelmeier.count` always searches);
    ``"transfer-matrix"`` forces it (2D, no filters, up to
    :data:`polyforms.enumeration.transfer.MAX_SIZE` cells).

    Notes
    -----
    Redelmeier's count visits every fixed polyform of size below ``n`` and
    adds the size of the untried set at the last level, so its cost grows
    like the number of fixed polyforms of size n-1 (about 4.06ⁿ in 2D). The
    transfer matrix grows about 1.5ⁿ (:mod:`polyforms.enumeration.transfer`).

    Examples
    --------
    >>> count(12, kind="fixed")
    505861
    >>> count(5, dim=3, kind="one-sided")
    29
    """
    _check(n, dim, kind, method, counting=True)
    if count_method(n, dim, method, holes is not None or symmetry is not None) == "transfer-matrix":
        if dim != 2 or holes is not None or symmetry is not None:
            raise UnknownNameError(
                "the transfer-matrix method counts 2D polyominoes without filters "
                "(no --holes, --symmetry); use redelmeier"
            )
        from . import transfer

        return transfer.count(
            n, kind, jobs=jobs, progress=progress, executor=executor, checkpoint=checkpoint,
            force=force,
        )  # fmt: skip
    if estimate_fixed(n, dim) > COUNT_LIMIT and not force:
        raise TooLargeError(
            f"counting size {n} means a search over about {estimate_fixed(n, dim):.2g} "
            f"polyforms (limit {COUNT_LIMIT:.0e}); use force=True (--force) to insist"
        )
    long_run = {"jobs": jobs, "progress": progress, "executor": executor, "checkpoint": checkpoint}
    filtered = holes is not None or symmetry is not None
    if filtered and method == "redelmeier" and n <= FILTER_MAX_CELLS:
        _check_catalogue(n, dim, kind, method, force)
        chunks = filtered_chunks(n, dim, kind, holes, symmetry, **long_run)
        return sum(len(chunk) for chunk in chunks) // (n * dim)
    if method == "naive" or filtered:
        found = enumerate_polyforms(
            n, dim, kind, method, force=force, holes=holes, symmetry=symmetry, **long_run
        )
        return sum(1 for _ in found)
    from . import redelmeier

    return redelmeier.count(n, dim, kind, **long_run)


def count_method(n: int, dim: int, method: str, filtered: bool = False) -> str:
    """The method :func:`count` runs for ``method``: the transfer matrix where it is faster.

    Examples
    --------
    >>> count_method(10, 2, "redelmeier"), count_method(20, 2, "redelmeier")
    ('redelmeier', 'transfer-matrix')
    >>> count_method(20, 3, "redelmeier"), count_method(20, 2, "redelmeier", filtered=True)
    ('redelmeier', 'redelmeier')
    """
    if method != "redelmeier" or dim != 2 or filtered:
        return method
    from .transfer import CROSSOVER, MAX_SIZE

    return "transfer-matrix" if CROSSOVER <= n <= MAX_SIZE else method


def estimate(
    n: int,
    dim: int = 2,
    kind: str = "free",
    budget: float = 0.5,
    method: str = "redelmeier",
    *,
    counting: bool = False,
):
    """Estimate a search without running it: nodes, polyforms, seconds and probes.

    For Redelmeier's search (a catalogue, or a count that searches) see
    :func:`polyforms.enumeration.redelmeier.estimate`: ``nodes`` are tree nodes, and free
    and one-sided polyforms are estimated as the fixed ones over the order of
    the kind's group (nearly all large polyforms have no symmetry). For a
    count (``counting``) that :func:`count_method` sends to the transfer
    matrix, see :func:`polyforms.enumeration.transfer.estimate`: ``nodes`` is then the
    peak number of frontier states one sweep holds, which sets its memory
    (:func:`polyforms.enumeration.transfer.memory_needed`).

    Examples
    --------
    >>> round(estimate(12, kind="fixed").solutions / 505861, 1)
    1.0
    """
    _check(n, dim, kind, method, counting)
    if counting and count_method(n, dim, method) == "transfer-matrix":
        if dim != 2:
            raise UnknownNameError("the transfer-matrix method counts 2D polyominoes only")
        from . import transfer

        return transfer.estimate(n, kind, budget)
    from . import redelmeier

    found = redelmeier.estimate(n, dim, budget)
    return found._replace(solutions=found.solutions / _GROUP_ORDER[dim, kind])


def keep(holes: bool | None = None, symmetry: str | int | None = None):
    """A test on polyforms for the catalogue filters, or None when there is none.

    ``holes``: True keeps the polyforms with holes, False those without;
    ``symmetry``: the class :attr:`Polyform.symmetry` must equal (see
    :func:`polyforms.polyform.parse_symmetry_class`).
    """
    if holes is None and symmetry is None:
        return None

    def test(polyform: Polyform) -> bool:
        if holes is not None and (polyform.holes > 0) != holes:
            return False
        return symmetry is None or polyform.symmetry == symmetry

    return test


def _naive(n: int, dim: int, kind: str, progress: bool) -> Iterator[Polyform]:
    """Grow level by level; each level is the set of canonical forms of size k."""
    group = symmetries(dim, kind)
    level = {tuple([(0,) * dim])}
    sizes = range(2, n + 1)
    if progress:
        from tqdm import tqdm

        sizes = tqdm(sizes, desc=f"naive size {n}", unit="level", leave=False, delay=1.0)
    for _ in sizes:
        grown = set()
        for cells in level:
            filled = set(cells)
            tried = set()
            for cell in cells:
                for extra in neighbours(cell):
                    if extra in filled or extra in tried:
                        continue
                    tried.add(extra)
                    bigger = cells + (extra,)
                    grown.add(min(normalise(t.apply(bigger)) for t in group))
        level = grown
    for cells in sorted(level):
        yield Polyform._trusted(cells, dim)
