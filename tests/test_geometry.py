"""The symmetry groups are groups, and the cell helpers do what they say."""

import itertools

import pytest

from polyforms.errors import PolyformError, UnknownNameError
from polyforms.geometry import (
    KINDS,
    all_symmetries,
    bounding_box,
    components,
    dilate,
    is_connected,
    neighbours,
    normalise,
    symmetries,
)


@pytest.mark.parametrize("dim, sizes", [(2, (1, 4, 8)), (3, (1, 24, 48))])
def test_group_orders(dim, sizes):
    assert tuple(len(symmetries(dim, kind)) for kind in KINDS) == sizes
    assert len({t.matrix for t in all_symmetries(dim)}) == sizes[-1]
    assert len({t.name for t in all_symmetries(dim)}) == sizes[-1]


@pytest.mark.parametrize("dim", [2, 3])
@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_is_closed_under_composition_and_inverse(dim, kind):
    group = symmetries(dim, kind)
    matrices = {t.matrix for t in group}
    for a, b in itertools.product(group, repeat=2):
        assert a.compose(b).matrix in matrices
    for a in group:
        assert a.compose(a.inverse()).is_identity
    assert group[0].is_identity


def test_rotations_have_determinant_one_and_reflections_minus_one():
    for dim in (2, 3):
        rotations = [t for t in all_symmetries(dim) if t.is_rotation]
        assert len(rotations) == len(all_symmetries(dim)) // 2
        assert set(symmetries(dim, "one-sided")) == set(rotations)


def test_compose_applies_right_operand_first():
    rotate90, mirror = symmetries(2)[1], symmetries(2)[4]
    cell = (2, 5)
    assert rotate90.compose(mirror)(cell) == rotate90(mirror(cell))


def test_normalise_bounding_box_neighbours():
    assert normalise([(5, -1), (4, -1), (4, 0)]) == ((0, 0), (0, 1), (1, 0))
    assert normalise([]) == ()
    assert bounding_box([(1, 2, 3), (0, 5, 1)]) == ((0, 2, 1), (1, 5, 3))
    assert sorted(neighbours((0, 0))) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    assert len(list(neighbours((0, 0, 0)))) == 6
    with pytest.raises(PolyformError):
        bounding_box([])


def test_dilate_and_components():
    square = dilate([(0, 0)], 3)
    assert len(square) == 9 and is_connected(square)
    assert len(dilate([(0, 0, 0), (1, 0, 0)], 2)) == 16
    assert components([(0, 0), (2, 0), (1, 1)]) == [((0, 0),), ((1, 1),), ((2, 0),)]
    with pytest.raises(PolyformError):
        dilate([(0, 0)], 0)


def test_bad_kind_and_dimension():
    with pytest.raises(UnknownNameError):
        symmetries(2, "mirror")
    with pytest.raises(PolyformError):
        symmetries(4)
