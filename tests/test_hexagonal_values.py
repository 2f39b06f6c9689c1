"""Polyiamonds and polyhexes as values: cells, pictures, regions and named sets.

The lattices' own promises (group, neighbours, normal position, polygons) are
checked for every lattice in ``test_lattice.py``; here are the values built on
them: :class:`Polyform`, :class:`Region` and the named piece sets of the
triangular and the hexagonal lattice, with the counts of the naive method
against the OEIS (``ORACLES.md``).
"""

from __future__ import annotations

import pickle

import pytest

from polyforms import PieceSet, Polyform, Region, pieces
from polyforms.enumeration.generate import enumerate_polyforms
from polyforms.errors import DisconnectedError, ParseError, PolyformError, TilingError
from polyforms.lattice import HEX, SQUARE, TRIANGLE

# ORACLES.md: fixed, one-sided, free, n = 1.. (A001420, A006534, A000577;
# A001207, A006535, A000228).
OEIS = {
    ("triangle", "fixed"): [2, 3, 6, 14, 36, 94, 250, 675],
    ("triangle", "one-sided"): [1, 1, 1, 4, 6, 19, 43, 120],
    ("triangle", "free"): [1, 1, 1, 3, 4, 12, 24, 66],
    ("hex", "fixed"): [1, 3, 11, 44, 186, 814, 3652, 16689],
    ("hex", "one-sided"): [1, 1, 3, 10, 33, 147, 620, 2821],
    ("hex", "free"): [1, 1, 3, 7, 22, 82, 333, 1448],
}


@pytest.mark.parametrize("lattice, kind", sorted(OEIS), ids="-".join)
def test_the_naive_method_counts_as_the_oeis(lattice, kind):
    found = [
        sum(1 for _ in enumerate_polyforms(n, kind=kind, method="naive", lattice=lattice))
        for n in range(1, 9 if lattice == "triangle" else 8)
    ]
    assert found == OEIS[lattice, kind][: len(found)]


def test_a_hexagon_and_a_square_with_the_same_numbers_differ():
    cells = [(0, 0), (1, 0)]
    square, hexagon = Polyform(cells), Polyform(cells, lattice="hex")
    assert square.lattice is SQUARE and hexagon.lattice is HEX
    assert square != hexagon
    assert repr(hexagon) == "Polyform([(0, 0), (1, 0)], lattice='hex')"
    assert pickle.loads(pickle.dumps(hexagon)) == hexagon
    # (1, 0) and (0, 1) touch on the hexagonal lattice, not on the square one.
    assert Polyform([(1, 0), (0, 1)], lattice="hex").size == 2
    with pytest.raises(DisconnectedError):
        Polyform([(1, 0), (0, 1)])


def test_a_triangle_is_refused_a_third_coordinate_other_than_0_or_1():
    with pytest.raises(PolyformError, match="0 .* or 1"):
        Polyform([(0, 0, 2)], lattice="triangle")
    with pytest.raises(PolyformError, match="3 coordinates"):
        Polyform([(0, 0)], lattice="triangle")


@pytest.mark.parametrize(
    "text, lattice, size, holes, symmetry",
    [
        ("##\n", "triangle", 2, 0, "two-mirrors"),  # the diamond
        ("###\n", "triangle", 3, 0, "diagonal-mirror"),  # a trapezoid: one mirror, at 90
        (".#.\n###\n", "triangle", 4, 0, "diagonal-mirrors"),  # the big triangle
        ("###\n###\n", "triangle", 6, 0, "two-mirrors"),
        ("####\n.##.\n", "triangle", 6, 0, "diagonal-mirror"),
        ("###.\n.###\n", "triangle", 6, 0, "none"),
        (" # #\n# . #\n # #\n", "hex", 6, 1, "full"),  # the ring of six
        ("# # #\n", "hex", 3, 0, "two-mirrors"),
        ("# #\n #\n", "hex", 3, 0, "diagonal-mirrors"),  # three round a vertex
        ("# #\n", "hex", 2, 0, "two-mirrors"),
    ],
)
def test_pictures_give_the_shape_its_holes_and_its_class(text, lattice, size, holes, symmetry):
    piece = Polyform.from_ascii(text, lattice=lattice)
    assert (piece.size, piece.holes, piece.symmetry) == (size, holes, symmetry)
    assert Polyform.from_ascii(piece.to_ascii(), lattice=lattice) == piece


def test_a_hexagon_picture_with_a_mark_between_two_hexagons_names_the_place():
    with pytest.raises(ParseError, match="line 2, column 1"):
        Polyform.from_ascii("# #\n##", lattice="hex")


@pytest.mark.parametrize(
    "text, lattice, size, symmetries",
    [
        ("6x6", "triangle", 72, 4),
        ("4x9", "triangle", 72, 2),
        ("3x12", "triangle", 72, 2),
        ("tri:4", "triangle", 16, 6),
        ("hex:2", "triangle", 24, 12),
        ("hex:3", "triangle", 54, 12),
        ("5x5", "hex", 25, 4),
        ("tri:4", "hex", 10, 6),
        ("hex:3", "hex", 19, 12),
    ],
)
def test_regions_by_name(text, lattice, size, symmetries):
    region = Region.parse(text, lattice=lattice)
    assert region.lattice.name == lattice
    assert (region.size, len(region.symmetries())) == (size, symmetries)
    assert len(region.components) == 1
    # The picture reads back to the same region.
    assert Region.parse(region.to_ascii(), lattice=lattice) == region


@pytest.mark.parametrize("text", ["2x3x4", "0x5", "tri:0"])
def test_a_shape_the_plane_lattices_do_not_have_is_one_clear_error(text):
    with pytest.raises(TilingError):
        Region.parse(text, lattice="hex")


EXPECTED = {
    "tetriamonds": (3, 4, TRIANGLE),
    "pentiamonds": (4, 5, TRIANGLE),
    "hexiamonds": (12, 6, TRIANGLE),
    "heptiamonds": (24, 7, TRIANGLE),
    "trihexes": (3, 3, HEX),
    "tetrahexes": (7, 4, HEX),
    "pentahexes": (22, 5, HEX),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_named_sets_of_the_plane_lattices_are_every_free_shape_once(name):
    number, size, lattice = EXPECTED[name]
    found = pieces(name)
    assert list(found) == [chr(ord("A") + i) for i in range(number)]
    assert {(p.size, p.lattice) for p in found.values()} == {(size, lattice)}
    assert len({p.canonical("free") for p in found.values()}) == number
    piece_set = PieceSet.resolve(name)
    assert piece_set.lattice is lattice and piece_set.kind == "free"


def test_kind_n_sets_and_pictures_take_the_lattice():
    assert len(pieces("one-sided:5", lattice="triangle")) == 6
    assert len(pieces("fixed:3", lattice="hex")) == 11
    drawn = PieceSet.resolve("AA\n\nBBB", lattice="triangle")
    assert drawn.lattice is TRIANGLE and [p.size for p in drawn.pieces.values()] == [2, 3]
    with pytest.raises(TilingError, match="hex and triangle"):
        PieceSet(
            {"a": Polyform([(0, 0)], lattice="hex"), "b": Polyform([(0, 0, 0)], lattice="triangle")}
        )


@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_each_free_shape_has_as_many_fixed_images_as_its_stabiliser_allows(lattice):
    # Orbit and stabiliser: a free polyform with a stabiliser of order s has
    # 12 / s fixed images and 6 / (its rotations) one-sided ones.
    for n in range(1, 7):
        free = list(enumerate_polyforms(n, kind="free", method="naive", lattice=lattice))
        fixed = sum(12 // len(p.stabiliser("free")) for p in free)
        one_sided = sum(
            2 if len(p.stabiliser("free")) == len(p.stabiliser("one-sided")) else 1 for p in free
        )
        assert fixed == OEIS[lattice, "fixed"][n - 1]
        assert one_sided == OEIS[lattice, "one-sided"][n - 1]
        assert {p.symmetry for p in free} <= set(TRIANGLE.symmetry_classes)


def test_the_least_polyiamond_of_each_class_is_as_the_literature_says():
    # Wikipedia, "Polyiamond", Symmetries: the fewest triangles with each
    # symmetry; a mirror "aligned with the grid" is axis-, "rotated 30°"
    # diagonal-. (Six-fold rotation alone and three axis mirrors need 18
    # triangles, beyond this quick test.)
    least = {
        "diagonal-mirrors": 1,
        "two-mirrors": 2,
        "diagonal-mirror": 3,
        "axis-mirror": 4,
        "rotation-180": 4,
        "none": 5,
        "full": 6,
        "rotation-120": 7,
    }
    first: dict[str, int] = {}
    for n in range(1, 8):
        for piece in enumerate_polyforms(n, kind="free", method="naive", lattice="triangle"):
            first.setdefault(piece.symmetry, n)
    assert first == least
