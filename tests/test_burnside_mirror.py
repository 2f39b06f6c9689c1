"""Burnside's terms for reflections in a plane: the half-space search (``count_mirror``)
against the orbit search (``count_invariant``) it replaced, for every mirror of the
square and cubic lattices, and the compiled kernel against its readable twin.

The counts of whole kinds (one-sided A000162, free A038119) are checked against
OEIS in tests/test_polycubes.py.
"""

from __future__ import annotations

import itertools

import pytest

from polyforms.enumeration import _symmetric_py as twin
from polyforms.enumeration import burnside


def _elements(dim: int) -> list[burnside.Element]:
    return [
        (perm, signs)
        for perm in itertools.permutations(range(dim))
        for signs in itertools.product((1, -1), repeat=dim)
    ]


def _mirrors(dim: int) -> list[burnside.Element]:
    return [element for element in _elements(dim) if burnside.is_mirror(element)]


def _orbit_search(n: int, dim: int, element: burnside.Element, kernel) -> int:
    perm, signs = element
    return sum(
        kernel.count_invariant(n, perm, signs, shift, roots)
        for shift, roots in burnside.searches(n, dim, element)
    )


def _half_search(n: int, element: burnside.Element, kernel) -> int:
    perm, signs = element
    return sum(
        kernel.count_mirror(n, perm, signs, shift, root)
        for shift, root in burnside.mirror_searches(element)
    )


def test_the_mirrors_are_the_reflections_in_a_plane():
    # 2D: two axes and two diagonals; 3D: three coordinate planes and six diagonal ones
    assert len(_mirrors(2)) == 4
    assert len(_mirrors(3)) == 9
    assert sum(perm == (0, 1, 2) for perm, _ in _mirrors(3)) == 3
    # the inversion, half turns and rotoreflections are not mirrors
    assert not burnside.is_mirror(((0, 1, 2), (-1, -1, -1)))
    assert not burnside.is_mirror(((0, 1, 2), (1, -1, -1)))
    assert not burnside.is_mirror(((0, 2, 1), (-1, 1, -1)))


@pytest.mark.parametrize(
    "dim,sizes",
    [(2, range(1, 13)), (3, range(1, 9)), pytest.param(3, range(9, 11), marks=pytest.mark.slow)],
)
def test_half_search_equals_the_orbit_search_for_every_mirror(dim, sizes, require_compiled):
    kernel = require_compiled("symmetric")
    for element in _mirrors(dim):
        for n in sizes:
            assert _half_search(n, element, kernel) == _orbit_search(n, dim, element, kernel), (
                element,
                n,
            )


@pytest.mark.parametrize("dim,top", [(2, 10), (3, 7)])
def test_twin_counts_mirrors_as_the_compiled_kernel(dim, top, require_compiled):
    kernel = require_compiled("symmetric")
    for element in _mirrors(dim):
        for n in range(1, top + 1):
            assert _half_search(n, element, twin) == _half_search(n, element, kernel), (element, n)


def test_mirror_between_layers_halves_a_fixed_polycube(require_compiled):
    """Through no cell, z -> 1 - z: the half above is any fixed polycube of n / 2
    cells (A001931: 1, 3, 15, 86)."""
    kernel = require_compiled("symmetric")
    between = burnside.mirror_searches(((0, 1, 2), (1, 1, -1)))
    assert [shift for shift, _ in between] == [(0, 0, 0), (0, 0, 1)]
    shift, root = between[1]
    counts = [kernel.count_mirror(n, (0, 1, 2), (1, 1, -1), shift, root) for n in range(1, 9)]
    assert counts == [0, 1, 0, 3, 0, 15, 0, 86]
