"""Count free and one-sided polyforms by Burnside's lemma.

A free (or one-sided) polyform is an orbit of fixed polyforms under the group
``G`` of the kind. Burnside's lemma counts orbits as the mean number of fixed
polyforms each element ``g`` maps to a translate of itself::

    count = (fix(identity) + sum of fix(g) over g != identity) / |G|

``fix(identity)`` is the fixed count, the big search. The other terms count
*symmetric* polyforms, which are few, with a small search each:

* A finite set that ``g`` maps to a translate of itself is invariant under an
  isometry ``h(c) = L c + t`` (``L`` the signed permutation of ``g``). Up to
  conjugation by translations, ``t`` is 0 except on the first coordinate of
  each cycle of ``L`` whose signs multiply to -1, where it is 0 or 1 (the
  centre of a rotation on a cell or a corner, a mirror through cells or
  between them). Different choices give different classes, and a finite set
  has one centre, so each symmetric polyform is counted once per class.
* Translations by vectors fixed by ``L`` commute with ``h``; they are factored
  out by requiring the least orbit of the polyform (the *root*) to have
  coordinate 0 at the first coordinate of each cycle whose signs multiply to
  +1.
* An invariant polyform is a union of orbits of ``h``. Redelmeier's search on
  the graph of orbits (weighted by orbit size) lists the sets of orbits that
  are connected in that graph and contain the root, among orbits after the
  root (the ``symmetric`` kernel's ``count_invariant``). Whether their union is
  connected as cells is read from the *voltages* of the edges between
  orbits, kept as the search grows, and a branch that can no longer become
  connected within ``n`` cells is dropped (see the kernel's twin).
* Every cell of a connected ``h``-invariant polyform with ``n`` cells lies
  within distance ``n - 1`` of its images and of the root, which bounds every
  search.

Conjugate elements of the full group of the lattice have equal ``fix``, so
one element per conjugacy class is searched.

References
----------
D. H. Redelmeier, "Counting polyominoes: yet another attack",
Discrete Mathematics 36 (1981) 191-203 (free counts from symmetric ones).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .. import _backend
from ..geometry import signed_permutations

__all__ = [
    "count",
    "fix",
    "classes",
    "searches",
    "is_mirror",
    "mirror_searches",
    "terms",
    "combine",
]

Cell = tuple[int, ...]
Element = tuple[tuple[int, ...], tuple[int, ...]]  # (perm, signs), as geometry.signed_permutations


def _matrix(element: Element) -> tuple[tuple[int, ...], ...]:
    perm, signs = element
    dim = len(perm)
    return tuple(tuple(signs[i] if perm[i] == j else 0 for j in range(dim)) for i in range(dim))


def _element(matrix: Sequence[Sequence[int]]) -> Element:
    perm = tuple(next(j for j, v in enumerate(row) if v) for row in matrix)
    signs = tuple(row[j] for row, j in zip(matrix, perm))
    return perm, signs


def _product(a, b):
    dim = len(a)
    return tuple(
        tuple(sum(a[i][k] * b[k][j] for k in range(dim)) for j in range(dim)) for i in range(dim)
    )


def _transpose(a):
    return tuple(zip(*a))


def classes(dim: int) -> dict[Element, Element]:
    """Map every element of the full lattice group to its conjugacy class representative."""
    elements = [
        (perm, signs)
        for perm in itertools.permutations(range(dim))
        for signs in itertools.product((1, -1), repeat=dim)
    ]
    matrices = [_matrix(e) for e in elements]
    representative: dict[Element, Element] = {}
    for element, matrix in zip(elements, matrices):
        if element in representative:
            continue
        for k in matrices:  # k^-1 = k^T for a signed permutation
            representative.setdefault(
                _element(_product(_product(k, matrix), _transpose(k))), element
            )
    return representative


def _cycles(element: Element) -> list[tuple[list[int], int]]:
    """Cycles of coordinates ``i -> perm[i]``, each with the product of its signs."""
    perm, signs = element
    done: set[int] = set()
    cycles = []
    for start in range(len(perm)):
        if start in done:
            continue
        cycle, sign, i = [], 1, start
        while i not in done:
            done.add(i)
            cycle.append(i)
            sign *= signs[i]
            i = perm[i]
        cycles.append((cycle, sign))
    return cycles


def _orbit(cell: Cell, element: Element, shift: Cell) -> tuple[Cell, ...]:
    perm, signs = element
    orbit = [cell]
    image = cell
    while True:
        image = tuple(s * image[p] + t for p, s, t in zip(perm, signs, shift))
        if image == cell:
            return tuple(orbit)
        orbit.append(image)


def _distance(a: Cell, b: Cell) -> int:
    return sum(abs(x - y) for x, y in zip(a, b))


def fix(n: int, dim: int, element: Element) -> int:
    """Number of fixed polyforms of size ``n`` that ``element`` maps to a translate of themselves.

    Not for the identity (that is the fixed count).

    Examples
    --------
    >>> fix(4, 2, ((0, 1), (-1, -1)))   # half turn: O, and I, S, Z in two orientations each
    7
    """
    perm, signs = element
    if is_mirror(element):
        count_mirror = _backend.kernel("symmetric").count_mirror
        return sum(
            count_mirror(n, perm, signs, shift, root) for shift, root in mirror_searches(element)
        )
    count_invariant = _backend.kernel("symmetric").count_invariant
    return sum(
        times * count_invariant(n, perm, signs, shift, _roots(n, element, shift))
        for shift, times in _alike_shifts(element).items()
        if times
    )


def _alike_shifts(element: Element) -> dict[Cell, int]:
    """Each shift of :func:`_shifts` -> how many shifts its search stands for (0: counted
    with an earlier one).

    A permutation of coordinates ``K`` that commutes with the linear part ``L``
    conjugates ``h(c) = L c + t`` into ``L c + K t``, and maps the polyforms
    ``h`` keeps one to one onto those the conjugate keeps: equal counts. (The
    inversion's eight centres are four searches: 0, a face, an edge, a corner.)
    """
    matrix = _matrix(element)
    dim = len(matrix)
    commuting = [
        k
        for k in (_matrix((perm, (1,) * dim)) for perm in itertools.permutations(range(dim)))
        if _product(k, matrix) == _product(matrix, k)
    ]
    shifts = _shifts(element)
    alike = dict.fromkeys(shifts, 0)
    for shift in shifts:
        images = (tuple(sum(row[j] * shift[j] for j in range(dim)) for row in k) for k in commuting)
        alike[min(image for image in images if image in alike)] += 1
    return alike


def is_mirror(element: Element) -> bool:
    """Whether the element is a reflection in a plane: of order 2, with one eigenvalue -1."""
    perm, signs = element
    involution = all(
        perm[perm[i]] == i and signs[i] * signs[perm[i]] == 1 for i in range(len(perm))
    )
    trace = sum(s for i, (p, s) in enumerate(zip(perm, signs)) if p == i)
    return involution and trace == len(perm) - 2


def mirror_searches(element: Element) -> list[tuple[Cell, Cell]]:
    """The searches of :func:`fix` for a mirror: ``(shift, root)`` pairs.

    One per position of the mirror (through cells, or between two layers for
    a coordinate plane), each with the least cell of a half next to it (see
    the symmetric kernel's ``count_mirror``); the translations along the
    mirror make every such cell equivalent, so the root's coordinates on the
    first coordinate of each cycle fixed by the element are 0.
    """
    dim = len(element[0])
    pinned = {cycle[0] for cycle, sign in _cycles(element) if sign > 0}
    found = []
    for shift in _shifts(element):
        ranges = [range(0, 1) if axis in pinned else range(-1, 2) for axis in range(dim)]

        images = {c: _orbit(c, element, shift)[-1] for c in itertools.product(*ranges)}
        half = [c for c, image in images.items() if c >= image]
        root = min(half, key=lambda c: (_distance(c, images[c]), c))
        found.append((shift, root))
    return found


def searches(n: int, dim: int, element: Element) -> list[tuple[Cell, list[Cell]]]:
    """The independent searches of :func:`fix`: ``(shift, roots)`` pairs.

    Each root is its own search (``count_invariant`` over any sub-list of the
    roots adds up), so the caller may cut the lists further.
    """
    return [(shift, _roots(n, element, shift)) for shift in _shifts(element)]


def _roots(n: int, element: Element, shift: Cell) -> list[Cell]:
    """The roots of one centre's search: the least cell of every orbit that may be a
    polyform's least orbit, up to the translations that commute with ``h``."""
    dim = len(shift)
    cycles = _cycles(element)
    positive = [cycle[0] for cycle, sign in cycles if sign > 0]
    # A coordinate on a cycle whose signs multiply to -1: on that cycle L^m = -1, so
    # (1 - L)(1 + L + ... + L^(m-1)) = 2 and each |c_i| <= (|c - h(c)| + |t|) / 2 <= n / 2
    # for a root cell c (its image within n - 1 steps).
    negated = {axis for cycle, sign in cycles if sign < 0 for axis in cycle}
    ranges = [
        range(0, 1)
        if axis in positive
        else range(-(n // 2) - 1, n // 2 + 2)
        if axis in negated
        else range(-n, n + 1)
        for axis in range(dim)
    ]
    roots = []
    for root_cell in itertools.product(*ranges):
        image = tuple(s * root_cell[p] + t for p, s, t in zip(*element, shift))
        if _distance(root_cell, image) > n - 1:  # cheap: most candidates stop here
            continue
        orbit = _orbit(root_cell, element, shift)
        if min(orbit) != root_cell or len(orbit) > n:
            continue
        if any(_distance(a, b) > n - 1 for a in orbit for b in orbit):
            continue
        roots.append(root_cell)
    return roots


def _shifts(element: Element) -> list[Cell]:
    """The translation parts ``t`` of one isometry per class (module notes): 0 or 1 on
    the first coordinate of each cycle whose signs multiply to -1, else 0."""
    negative = [cycle[0] for cycle, sign in _cycles(element) if sign < 0]
    found = []
    for bits in itertools.product((0, 1), repeat=len(negative)):
        shift = [0] * len(element[0])
        for axis, bit in zip(negative, bits):
            shift[axis] = bit
        found.append(tuple(shift))
    return found


def terms(dim: int, kind: str) -> list[tuple[Element, int]]:
    """The non-trivial terms of Burnside's sum: a class representative and how
    many elements of the kind's group it stands for (conjugates have equal fix)."""
    group = signed_permutations(dim, kind)
    representative = classes(dim)
    multiplicity: dict[Element, int] = {}
    for element in group[1:]:
        rep = representative[element]
        multiplicity[rep] = multiplicity.get(rep, 0) + 1
    return list(multiplicity.items())


def combine(fixed_count: int, symmetric: int, dim: int, kind: str) -> int:
    """``(fixed_count + symmetric) / |G|``, with ``symmetric`` the sum of the terms."""
    order = len(signed_permutations(dim, kind))
    total = fixed_count + symmetric
    if total % order:
        raise ArithmeticError(f"Burnside sum {total} is not a multiple of {order}")
    return total // order


def count(n: int, dim: int, kind: str, fixed_count: int) -> int:
    """Count the polyforms of a kind by Burnside's lemma.

    ``fixed_count`` is the number of fixed polyforms of size ``n`` (the
    caller decides how to count it: processes, progress). The orbit searches
    run on the symmetric kernel's ``count_invariant``.

    Examples
    --------
    >>> count(6, 2, "free", 216), count(5, 3, "one-sided", 534)
    (35, 29)
    """
    symmetric = sum(times * fix(n, dim, rep) for rep, times in terms(dim, kind))
    return combine(fixed_count, symmetric, dim, kind)
