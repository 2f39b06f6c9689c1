"""Enumerate and count polyominoes, polycubes, polyiamonds and polyhexes.

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

``lattice="triangle"`` (polyiamonds) and ``lattice="hex"`` (polyhexes) run
Redelmeier's search on a neighbour table and count one-sided and free ones by
Burnside's lemma (:mod:`polyforms.enumeration.hexagonal`), or the naive method;
the transfer matrix is for polyominoes only.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, NamedTuple

from ..errors import PolyformError, TooLargeError, UnknownNameError
from ..geometry import check_dim, check_kind, check_size
from ..jobs.options import ONE_CALL, LongRun
from ..lattice import Lattice
from ..lattice import lattice as find_lattice
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
    "estimate_catalogue",
    "count_method",
    "count_memory",
    "plan_listing",
    "Listing",
    "FILTER_MAX_CELLS",
    "CATALOGUE_LIMIT",
    "COUNT_LIMIT",
    "NAIVE_LIMIT",
]

#: The enumeration methods by name (the ``method`` argument).
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


#: The fixed counts of the triangular and hexagonal lattices as ``a λⁿ / n``: λ the
#: growth constant (polyiamonds 2.8424, polyhexes 5.1831; Jensen), ``a`` fitted to
#: the counts of size 16 (A001420) and 14 (A001207).
_PLANE_GROWTH = {"triangle": (2.22, 2.8424), "hex": (0.263, 5.1831)}


def estimate_fixed(n: int, dim: int = 2, lattice: Lattice | None = None) -> float:
    """A rough estimate of the number of fixed polyforms of size ``n``.

    Used only to refuse enormous requests, never as an answer. 2D uses the
    asymptotic form 0.3169 λⁿ / n with λ = 4.0626 (Jensen 2003); 3D a growth
    fit to the known polycube counts (about 7.4 per cell near n = 12); the
    triangular and hexagonal ``lattice`` the same form with their constants.

    Examples
    --------
    >>> round(estimate_fixed(16) / 1e8, 1)
    1.1
    """
    if lattice is not None and lattice.name in _PLANE_GROWTH:
        scale, growth = _PLANE_GROWTH[lattice.name]
        return scale * growth**n / n
    if dim == 2:
        return 0.3169 * 4.0626**n / n
    return math.exp(15.93 + 2.0 * (n - 10) + 0.005 * (n - 10) ** 2)


def _check(n: object, dim: int, kind: str, method: str, counting: bool = False) -> None:
    """The checks every public entry point makes first (the functions they call trust them)."""
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


def estimate_catalogue(
    n: int, dim: int = 2, kind: str = "free", lattice: Lattice | None = None
) -> float:
    """A rough estimate of the number of polyforms of size ``n`` of a kind.

    The fixed estimate (:func:`estimate_fixed`) over the order of the kind's
    group: nearly all large polyforms have no symmetry. Used only to refuse
    enormous requests, never as an answer.

    Examples
    --------
    >>> round(estimate_catalogue(16, 2, "free") / 1e7, 1)
    1.4
    """
    if lattice is not None and lattice.name in _PLANE_GROWTH:
        return estimate_fixed(n, dim, lattice) / len(lattice.group(kind))
    return estimate_fixed(n, dim) / _GROUP_ORDER[dim, kind]


def _plane_lattice(dim: int, lattice: Lattice | str | None) -> tuple[Lattice | None, int]:
    """The triangular or hexagonal lattice asked for (None for squares and cubes), and ``dim``.

    ``lattice="square"`` or ``"cube"`` is the same as ``dim`` 2 or 3; a
    ``dim`` other than the default 2 must agree with the lattice.
    """
    if lattice is None:
        return None, dim
    found = find_lattice(lattice)
    if dim not in (2, found.dimension):
        raise PolyformError(
            f"dim {dim} does not match the {found.name} lattice ({found.dimension}D)"
        )
    if found.name in ("square", "cube"):
        return None, found.dimension
    return found, found.dimension


FILTER_MAX_CELLS = 64
"""The compiled filter's largest polyform (larger ones are filtered in Python)."""


class Listing(NamedTuple):
    """A checked catalogue request and the way its polyforms are listed.

    Made by :func:`plan_listing`, which checks every field; its methods run
    the search. ``symmetry`` is parsed (a 2D class name or a 3D group order).
    ``lattice`` is the triangular or hexagonal lattice, or None (squares or
    cubes, by ``dim``).
    """

    n: int
    dim: int
    kind: str
    method: str
    holes: bool | None = None
    symmetry: str | int | None = None
    lattice: Lattice | None = None

    @property
    def filtered(self) -> bool:
        """True when a filter (``holes``, ``symmetry``) keeps some polyforms only."""
        return self.holes is not None or self.symmetry is not None

    @property
    def packed(self) -> bool:
        """True when the compiled search can hand the polyforms over as packed
        chunks (:meth:`chunks`), filtered by the catalogue kernel."""
        return self.method == "redelmeier" and self.n <= FILTER_MAX_CELLS and self.lattice is None

    def polyforms(self, options: LongRun = ONE_CALL) -> Iterator[Polyform]:
        """The polyforms, in the order of the method (see :func:`enumerate_polyforms`).

        ``options``: the long-run options of :func:`enumerate_polyforms` as one value.
        """
        n, dim = self.n, self.dim
        if self.lattice is not None:
            return self._plane_polyforms(options)
        if self.filtered and self.packed:
            from .records import unpack

            return (p for chunk in self.chunks(options) for p in unpack(chunk, n, dim))
        if self.method == "naive":
            stream = _naive(n, dim, self.kind, bool(options.progress))
        else:
            from . import redelmeier

            cells_stream = redelmeier.search_cells(n, dim, self.kind, options)
            stream = (Polyform._trusted(cells, dim) for cells in cells_stream)
        test = keep(self.holes, self.symmetry)
        return stream if test is None else (p for p in stream if test(p))

    def _plane_polyforms(self, options: LongRun) -> Iterator[Polyform]:
        """The polyiamonds or polyhexes (Redelmeier's search on the job layer)."""
        lattice = self.lattice
        assert lattice is not None
        if self.method == "naive":
            stream = _naive(self.n, lattice, self.kind, bool(options.progress))
        else:
            from . import hexagonal

            found = hexagonal.iter_cells(self.n, lattice, self.kind, options)
            stream = (Polyform._trusted(cells, lattice) for cells in found)
        test = keep(self.holes, self.symmetry)
        return stream if test is None else (p for p in stream if test(p))

    def chunks(self, options: LongRun = ONE_CALL) -> Iterator[bytes]:
        """The polyforms as packed chunks (only when :attr:`packed`), at compiled speed.

        Redelmeier's packed chunks, each through the catalogue kernel's
        ``filter_chunk`` when there is a filter: it tests holes and symmetry
        class without a Python object per polyform.
        """
        from . import redelmeier

        chunks = redelmeier.search_packed(self.n, self.dim, self.kind, options)
        if not self.filtered:
            return chunks
        from .. import _backend

        kernel = _backend.kernel("catalogue")
        wanted = -1 if self.holes is None else int(bool(self.holes))
        filtered = (
            kernel.filter_chunk(chunk, self.n, self.dim, wanted, self.symmetry) for chunk in chunks
        )
        return (kept for kept in filtered if kept)


def plan_listing(
    n: int,
    dim: int = 2,
    kind: str = "free",
    method: str = "redelmeier",
    *,
    holes: bool | None = None,
    symmetry: str | int | None = None,
    force: bool = False,
    lattice: Lattice | str | None = None,
) -> Listing:
    """Check a catalogue request and choose how it is listed.

    The one start of :func:`enumerate_polyforms`, of a filtered or naive
    :func:`count` and of :func:`polyforms.files.catalogue.write_polyforms`: every
    argument is checked here, before any work, and the search the
    :class:`Listing` runs trusts them.

    Parameters
    ----------
    n, dim, kind, method, holes, symmetry, force, lattice
        As for :func:`enumerate_polyforms`.

    Raises
    ------
    PolyformError, UnknownNameError, TooLargeError

    Examples
    --------
    >>> listing = plan_listing(9, symmetry="diagonal-mirror")
    >>> listing.packed, sum(1 for _ in listing.polyforms())
    (True, 26)
    """
    plane, dim = _plane_lattice(dim, lattice)
    _check(n, dim, kind, method)
    return _plan(n, dim, kind, method, holes, symmetry, force, plane)


def _plan(n, dim, kind, method, holes, symmetry, force, lattice=None) -> Listing:
    """:func:`plan_listing` after :func:`_check`."""
    if symmetry is not None:
        if lattice is None:
            symmetry = parse_symmetry_class(symmetry, dim)
        else:
            symmetry = lattice.parse_symmetry_class(symmetry)
    _check_catalogue(n, dim, kind, method, force, lattice)
    return Listing(n, dim, kind, method, holes, symmetry, lattice)


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
    lattice: Lattice | str | None = None,
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
        worker processes, a callable taking :class:`polyforms.jobs.Progress`
        (True: a bar on stderr), a job-layer executor or Dask client, a
        checkpoint file to resume from (see :func:`polyforms.enumeration.redelmeier.count`).
    force : bool
        Allow a catalogue estimated above :data:`CATALOGUE_LIMIT` polyforms.
    holes : bool, optional
        True: only polyforms with holes; False: only those without.
    symmetry : str or int, optional
        Only this symmetry class (:attr:`Polyform.symmetry`; text is parsed).
    lattice : Lattice or str, optional
        ``"triangle"`` for polyiamonds, ``"hex"`` for polyhexes; by default
        the lattice of ``dim`` (squares or cubes). Their search runs on the
        job layer too; their catalogues are not packed (no compiled formatter).

    Yields
    ------
    Polyform
        In canonical form for ``kind``. Redelmeier order is the order of its
        search (see :mod:`polyforms.enumeration.redelmeier`); naive order is sorted.

    Raises
    ------
    PolyformError, UnknownNameError, TooLargeError
        Before any work (see :func:`plan_listing`).

    Examples
    --------
    >>> [p.cells for p in enumerate_polyforms(3, kind="free", method="naive")]
    [((0, 0), (0, 1), (0, 2)), ((0, 0), (0, 1), (1, 0))]
    >>> sum(1 for _ in enumerate_polyforms(6, kind="free", lattice="triangle"))
    12
    """
    listing = plan_listing(
        n, dim, kind, method, holes=holes, symmetry=symmetry, force=force, lattice=lattice
    )
    return listing.polyforms(LongRun(jobs, executor, checkpoint, progress))


def _check_catalogue(n, dim, kind, method, force, lattice=None) -> None:
    """Refuse, before any work, a catalogue estimated to be enormous."""
    estimate = estimate_catalogue(n, dim, kind, lattice)
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
    lattice: Lattice | str | None = None,
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
    :data:`polyforms.enumeration.transfer.MAX_SIZE` cells). On the triangular
    and hexagonal ``lattice`` Redelmeier's search counts the fixed polyforms
    and Burnside's lemma the others (:mod:`polyforms.enumeration.hexagonal`).

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
    >>> count(6, kind="free", lattice="hex")
    82
    """
    plane, dim = _plane_lattice(dim, lattice)
    _check(n, dim, kind, method, counting=True)
    options = LongRun(jobs, executor, checkpoint, progress)
    filtered = holes is not None or symmetry is not None
    if plane is not None:
        return _count_plane(n, plane, kind, method, holes, symmetry, force, options)
    if count_method(n, dim, method, filtered) == "transfer-matrix":
        if dim != 2 or filtered:
            raise UnknownNameError(
                "the transfer-matrix method counts 2D polyominoes without filters "
                "(no --holes, --symmetry); use redelmeier"
            )
        from . import transfer

        return transfer.sweep(n, kind, options, force=force).count
    # the polycube counter adds up four levels, not two (a polycube costs it a fifth):
    # its search is weighed one level lower
    searched = n - 1 if dim == 3 and method == "redelmeier" and not filtered else n
    if estimate_fixed(searched, dim) > COUNT_LIMIT and not force:
        raise TooLargeError(
            f"counting size {n} means a search over about {estimate_fixed(searched, dim):.2g} "
            f"polyforms (limit {COUNT_LIMIT:.0e}); use force=True (--force) to insist"
        )
    if method == "naive" or filtered:  # listed and counted one by one
        listing = _plan(n, dim, kind, method, holes, symmetry, force)
        if listing.packed:  # filtered by the catalogue kernel: count the bytes
            return sum(len(chunk) for chunk in listing.chunks(options)) // (n * dim)
        return sum(1 for _ in listing.polyforms(options))
    from . import redelmeier

    return redelmeier.search_count(n, dim, kind, options)


def _count_plane(n, lattice, kind, method, holes, symmetry, force, options) -> int:
    """:func:`count` of polyiamonds or polyhexes, after its checks."""
    if method == "transfer-matrix":
        raise UnknownNameError(
            f"the transfer-matrix method counts polyominoes only, not on the {lattice.name} "
            "lattice; use redelmeier or naive"
        )
    guess = estimate_fixed(n, 2, lattice)
    if guess > COUNT_LIMIT and not force:
        raise TooLargeError(
            f"counting size {n} means a search over about {guess:.2g} "
            f"polyforms (limit {COUNT_LIMIT:.0e}); use force=True (--force) to insist"
        )
    if method == "naive" or holes is not None or symmetry is not None:
        listing = _plan(n, 2, kind, method, holes, symmetry, force, lattice)
        return sum(1 for _ in listing._plane_polyforms(options))
    from . import hexagonal

    return hexagonal.count(n, lattice, kind, options=options)


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


def count_memory(
    n: int, dim: int = 2, method: str = "redelmeier", filtered: bool = False
) -> int | None:
    """The estimated peak bytes of :func:`count`'s tables when it runs the transfer
    matrix (:func:`polyforms.enumeration.transfer.memory_needed`), else None: a
    search holds only its path.

    Examples
    --------
    >>> count_memory(10), count_memory(28)
    (None, 37240000)
    """
    if count_method(n, dim, method, filtered) != "transfer-matrix":
        return None
    from . import transfer

    return transfer.memory_needed(n)


def estimate(
    n: int,
    dim: int = 2,
    kind: str = "free",
    budget: float = 0.5,
    method: str = "redelmeier",
    *,
    counting: bool = False,
    lattice: Lattice | str | None = None,
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
    plane, dim = _plane_lattice(dim, lattice)
    _check(n, dim, kind, method, counting)
    if plane is not None:
        raise UnknownNameError(
            f"estimates are made for squares and cubes only, not on the {plane.name} lattice"
        )
    if counting and count_method(n, dim, method) == "transfer-matrix":
        if dim != 2:
            raise UnknownNameError("the transfer-matrix method counts 2D polyominoes only")
        from . import transfer

        return transfer.sweep_estimate(n, kind, budget)
    from . import redelmeier

    found = redelmeier.search_estimate(n, dim, budget)
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


def _naive(n: int, lattice: Lattice | int, kind: str, progress: bool) -> Iterator[Polyform]:
    """Grow level by level; each level is the set of canonical forms of size k.

    ``lattice`` may be a bare dimension (the square or the cubic lattice).
    The first level holds each cell of one translation (a triangle's two
    orientations are two fixed polyiamonds of one cell).
    """
    lattice = find_lattice(lattice)
    group = lattice.group(kind)
    neighbours, normalise = lattice.neighbours, lattice.normalise
    level = {min(normalise(t.apply([cell])) for t in group) for cell in lattice.fundamental}
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
        yield Polyform._trusted(cells, lattice)
