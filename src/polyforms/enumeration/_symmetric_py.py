"""Readable twin of the compiled count of symmetric polyforms (:mod:`polyforms._core._symmetric`).

:mod:`polyforms.enumeration.burnside` counts free and one-sided polyforms by Burnside's
lemma; its terms are the polyforms one symmetry maps onto themselves, which
:func:`count_invariant` counts root by root; :func:`count_mirror` counts
those of a reflection in a plane, the costly terms, by searching one side.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["count_invariant", "count_mirror"]

Cell = tuple[int, ...]


def count_invariant(
    n: int,
    perm: Sequence[int],
    signs: Sequence[int],
    shift: Sequence[int],
    roots: Sequence[Cell],
) -> int:
    """Count the polyforms of ``n`` cells that ``h`` maps onto themselves, rooted at ``roots``.

    ``h(c)[i] = signs[i] * c[perm[i]] + shift[i]`` is an isometry of the
    lattice of finite order ``k``; a polyform is counted once for each root
    that is its least cell (in tuple order). See :mod:`polyforms.enumeration.burnside`
    for how the roots are chosen.

    Redelmeier's search on the *orbits* of cells under ``h``: a node of the
    tree is a set of orbits, connected as orbits (some cell of one next to
    some cell of another), each with a *representative* cell; its untried set
    lists the orbits it may still add. An orbit enters the untried set through
    a cell next to the representative of the orbit being added, and that cell
    becomes its representative, so the representatives ``T`` form one
    connected set, a spanning tree of the orbit graph lifted to cells.

    The union ``P`` of the orbits is the union of ``T, h(T), ..., h^(k-1)(T)``,
    each connected. Every cell of ``P`` is ``h^s(t)`` for one representative
    ``t``: its *sheet* ``s``. An edge between a representative ``t`` and a
    cell on sheet ``s`` joins ``h^j(T)`` to ``h^(j+s)(T)`` for every ``j``;
    an orbit of ``m < k`` cells joins ``h^j(T)`` to ``h^(j+m)(T)``. So ``P`` is
    connected exactly when these *voltages* generate the cyclic group of
    order ``k``: ``g = gcd(k, voltages) == 1`` (Gross and Tucker's derived
    graphs). Every edge is seen once, from the representative of the later of
    its two orbits.

    Pruning: while ``g == k``, ``P`` is ``k`` separate copies of ``T``; a
    voltage needs a representative next to a cell of another sheet, at least
    ``ceil((d - 1) / 2)`` new full orbits of ``k`` cells away (``d`` the least
    L1 distance from ``T`` to the rest of ``P``), or an orbit of fewer than
    ``k`` cells, after at least ``ceil(d / 2) - 1`` full orbits. A node that
    cannot pay the cheaper of the two with the cells it has left is dropped.
    """
    dim = len(perm)

    def image(c):
        return tuple(signs[i] * c[perm[i]] + shift[i] for i in range(dim))

    def orbit(c):
        cells = [c]
        while (c := image(c)) != cells[0]:
            cells.append(c)
        return cells

    k = len(orbit(tuple(10**i for i in range(dim))))  # the order of h: a generic orbit
    total = 0
    for root in roots:
        total += _invariant_sets(n, k, root, orbit)
    return total


def _l1(a, b) -> int:
    return sum(abs(x - y) for x, y in zip(a, b))


def _invariant_sets(n, k, root, orbit) -> int:
    dim = len(root)

    def usable(cell) -> bool:
        cells = orbit(cell)
        return min(cells) > root and len(cells) <= n and all(_l1(c, root) < n for c in cells)

    sheet: dict[Cell, int] = {}  # cell of P -> s such that cell = h^s(its representative)
    seen: set[Cell] = set(orbit(root))  # one cell per orbit ever pushed: its least

    def add(rep, g):
        cells = orbit(rep)
        for s, c in enumerate(cells):
            sheet[c] = s
        g = math.gcd(g, len(cells))
        for nb in neighbours(rep):
            if nb in sheet:
                g = math.gcd(g, sheet[nb])
        return cells, g

    def neighbours(c):
        for axis in range(dim):
            for step in (1, -1):
                yield c[:axis] + (c[axis] + step,) + c[axis + 1 :]

    def grow(weight, untried, g, d) -> int:
        found = 0
        for i, rep in enumerate(untried):
            cells, g2 = add(rep, g)
            size = weight + len(cells)
            if size == n:
                found += g2 == 1
            elif size < n:
                if g2 == k:
                    d2 = min([d] + [_l1(rep, c) for c in sheet if sheet[c] != 0])
                    if n - size < min(k * (d2 // 2), k * ((d2 + 1) // 2 - 1) + 1):
                        for c in cells:
                            del sheet[c]
                        continue
                else:
                    d2 = d
                fresh = []
                for nb in neighbours(rep):
                    least = min(orbit(nb))
                    if least not in seen and usable(nb):
                        seen.add(least)
                        fresh.append(nb)
                found += grow(size, untried[i + 1 :] + fresh, g2, d2)
                seen.difference_update(min(orbit(c)) for c in fresh)
            for c in cells:
                del sheet[c]
        return found

    return grow(0, [root], k, 2 * n)


def count_mirror(
    n: int,
    perm: Sequence[int],
    signs: Sequence[int],
    shift: Sequence[int],
    root: Cell,
) -> int:
    """Count the polyforms of ``n`` cells that the mirror ``h`` maps onto themselves.

    ``h(c)[i] = signs[i] * c[perm[i]] + shift[i]`` is a reflection in a plane
    (``h`` of order 2 with one eigenvalue -1). Such a polyform ``P`` is
    ``H`` and its mirror image, ``H`` its *half*: its cells ``c`` on the
    mirror (``h(c) == c``, weight 1) or on the side ``c > h(c)`` (in tuple
    order; weight 2, as they stand for two cells of ``P``). Folding ``P``
    onto that side (``c -> max(c, h(c))``) maps a path of ``P`` to a walk in
    ``H``, so ``P`` is connected exactly when ``H`` is connected and touches
    the mirror (has a cell next to its image: on the plane, or one step from
    it for a mirror between layers of cells). ``H`` then has weight ``n``.

    So this is Redelmeier's search on one side of the mirror, each half
    counted once at its least cell in the order of (distance to the image,
    cell): that cell is next to the mirror, and the caller gives one ``root``
    per class of such cells under the translations that commute with ``h``.
    Within ``n - 1`` steps of the root, cells after it in that order, of
    weight 1 or 2, are the search's cells; a node is a leaf when its weight
    is ``n``. The compiled kernel counts the children of a node one or two
    short of ``n`` from counts of the untried cells of each weight instead
    of visiting them.

    Examples
    --------
    >>> count_mirror(4, (0, 1), (1, -1), (0, 0), (0, 0))  # y -> -y: I and two Ts
    3
    """
    dim = len(perm)

    def image(c):
        return tuple(signs[i] * c[perm[i]] + shift[i] for i in range(dim))

    def key(c):
        return _l1(c, image(c)), c

    def weight(c) -> int:
        """1 on the mirror, 2 on the side searched, 0 elsewhere or before the root."""
        if c == root:
            return 1 if image(c) == c else 2
        if _l1(c, root) >= n or c < image(c) or key(c) <= key(root):
            return 0
        return 1 if image(c) == c else 2

    def neighbours(c):
        for axis in range(dim):
            for step in (1, -1):
                yield c[:axis] + (c[axis] + step,) + c[axis + 1 :]

    seen = {root}

    def grow(total_weight, untried) -> int:
        found = 0
        for i, c in enumerate(untried):
            size = total_weight + weight(c)
            if size == n:
                found += 1
            elif size < n:
                fresh = [nb for nb in neighbours(c) if nb not in seen and weight(nb)]
                seen.update(fresh)
                found += grow(size, untried[i + 1 :] + fresh)
                seen.difference_update(fresh)
        return found

    return grow(0, [root]) if weight(root) else 0
