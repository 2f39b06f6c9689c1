"""Polyform: canonical forms, symmetry classes, holes and pictures."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyforms import Polyform, pieces
from polyforms.errors import DisconnectedError, ParseError, PolyformError
from polyforms.geometry import KINDS, neighbours, symmetries
from polyforms.polyform import parse_lettered, parse_picture


@st.composite
def polyforms(draw, dim=None, max_size=12):
    """Random connected polyforms grown cell by cell from the origin."""
    dim = dim or draw(st.sampled_from([2, 3]))
    size = draw(st.integers(1, max_size))
    cells = [(0,) * dim]
    while len(cells) < size:
        base = draw(st.sampled_from(cells))
        extra = draw(st.sampled_from(sorted(neighbours(base))))
        if extra not in cells:
            cells.append(extra)
    return Polyform(cells)


@settings(max_examples=150, deadline=None)
@given(polyforms(), st.sampled_from(KINDS))
def test_canonical_form_is_the_same_for_every_image(p, kind):
    canonical = p.canonical(kind)
    for t in symmetries(p.dim, kind):
        assert p.transform(t).canonical(kind) == canonical
    assert canonical.canonical(kind) == canonical  # idempotent
    images = p.images(kind)
    assert canonical.cells in images and all(canonical.cells <= image for image in images)


@settings(max_examples=150, deadline=None)
@given(polyforms())
def test_ascii_round_trip(p):
    assert Polyform.from_ascii(p.to_ascii()) == p


@settings(max_examples=100, deadline=None)
@given(polyforms(dim=2))
def test_orientations_and_stabiliser_agree(p):
    # orbit-stabiliser: |orbit| * |stabiliser| = |group|
    for kind in KINDS:
        assert len(p.orientations(kind)) * len(p.stabiliser(kind)) == len(symmetries(2, kind))


def test_value_semantics():
    a = Polyform([(3, 3), (3, 4)])
    b = Polyform([(0, 0), (0, 1)])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Polyform([(0, 0), (1, 0)])
    assert a.canonical("free") == Polyform([(0, 0), (1, 0)]).canonical("free")
    with pytest.raises(AttributeError):
        a.size = 5


def test_the_issue_example():
    p = Polyform.from_ascii("""
.##
##.
.#.""")
    assert p.symmetry == "none"
    assert p.canonical("free") == pieces("pentominoes")["F"].canonical("free")
    assert p.bounding_box == (3, 3)
    assert p.perimeter == 12


def test_symmetry_classes_of_known_pieces():
    expected = {
        "I": "axis-mirrors",
        "X": "full",
        "T": "axis-mirror",
        "U": "axis-mirror",
        "V": "diagonal-mirror",
        "W": "diagonal-mirror",
        "Z": "rotation-180",
        "F": "none",
    }
    penta = pieces("pentominoes")
    assert {k: penta[k].symmetry for k in expected} == expected
    assert pieces("tetrominoes")["O"].symmetry == "full"
    swastika_like = Polyform.from_ascii("#.##\n####\n####\n##.#")
    assert swastika_like.symmetry in {"rotation-90", "rotation-180", "none"}
    pinwheel = Polyform.from_ascii(".#..\n.###\n###.\n..#.")
    assert pinwheel.symmetry == "rotation-90"
    assert Polyform.from_ascii(".#\n##\n#.").symmetry == "rotation-180"
    assert pieces("soma")["P"].symmetry == 6  # the branch: a 3-fold axis and three mirrors
    assert pieces("tetracubes")["I"].symmetry == 16


def test_holes_and_perimeter():
    ring = Polyform.from_ascii("###\n#.#\n###")
    assert ring.holes == 1 and ring.perimeter == 16
    assert Polyform.from_ascii("###\n#.#\n##.").holes == 1  # a hole touching a corner only
    assert Polyform.from_ascii("#####\n#.#.#\n#####").holes == 2
    assert Polyform.from_ascii("###\n#..\n###").holes == 0
    cube_shell = [
        (x, y, z) for x in range(3) for y in range(3) for z in range(3) if (x, y, z) != (1, 1, 1)
    ]
    assert Polyform(cube_shell).holes == 1
    assert Polyform(cube_shell).perimeter == 54 + 6  # the cavity's faces count too


def test_3d_pictures():
    p = Polyform([(0, 0, 0), (1, 0, 0), (1, 0, 1)])
    assert p.to_ascii() == "##\n--\n.#"
    assert p.to_ascii(layout="side") == "##  .#"
    assert Polyform.from_ascii("##\n--\n.#") == p
    flat = Polyform([(0, 0, 0), (1, 0, 0)])
    assert flat.to_ascii() == "##\n--" and Polyform.from_ascii(flat.to_ascii()) == flat


def test_parse_errors():
    with pytest.raises(ParseError, match="line 2, column 3"):
        parse_picture("##\n.#*")
    with pytest.raises(ParseError):
        Polyform.from_ascii("...\n")
    with pytest.raises(DisconnectedError):
        Polyform.from_ascii("#.#")
    with pytest.raises(PolyformError):
        Polyform([])
    with pytest.raises(PolyformError):
        Polyform([(0, 0), (0, 0, 1)])
    with pytest.raises(PolyformError):
        Polyform([(0,)])


def test_lettered_pictures_keep_positions():
    pieces_found = parse_lettered("""
AAB
.BB
CC.""")
    assert pieces_found == {
        "A": ((0, 0), (1, 0)),
        "B": ((1, 1), (2, 0), (2, 1)),
        "C": ((0, 2), (1, 2)),
    }
    with pytest.raises(DisconnectedError, match="'A'"):
        parse_lettered("A.A")


def test_the_lattice_comes_from_the_dimension_and_leaves_equality_alone():
    from polyforms import Region
    from polyforms.lattice import CUBE, SQUARE

    flat, solid = Polyform([(0, 0), (1, 0)]), Polyform([(0, 0, 0), (1, 0, 0)])
    assert flat.lattice is SQUARE and solid.lattice is CUBE
    assert flat == Polyform([(4, 7), (5, 7)]) and hash(flat) == hash(Polyform([(4, 7), (5, 7)]))
    assert Region.parse("2x3").lattice is SQUARE and Region.parse("2x3x4").lattice is CUBE
    # The canonical form, the class and the picture are the lattice's.
    f = pieces("pentominoes")["F"]
    assert f.canonical().cells == min(SQUARE.normalise(t.apply(f.cells)) for t in SQUARE.transforms)
    assert f.symmetry == SQUARE.symmetry_class(f.stabiliser())
    assert f.to_ascii() == SQUARE.to_ascii(f.cells)
    assert solid.to_ascii() == CUBE.to_ascii(solid.cells) == "##\n--"
