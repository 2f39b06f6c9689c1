"""Every lattice keeps the promises the ground floor relies on.

Each property runs over every lattice of :data:`polyforms.lattice.LATTICES`:
a new lattice is covered by adding it there and its point group's order to
``ORDERS`` below. Shapes for drawing are checked on the lattices of their
dimension (plane polygons in 2D, faces of solids in 3D).
"""

from __future__ import annotations

import itertools
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyforms import geometry
from polyforms.draw.svg import boundary_loops
from polyforms.errors import PolyformError, UnknownNameError, WrongTypeError
from polyforms.lattice import CUBE, KINDS, LATTICES, SQUARE, Lattice, lattice, of_dimension

ALL = list(LATTICES.values())
PLANE = [lat for lat in ALL if lat.dimension == 2]
SOLID = [lat for lat in ALL if lat.dimension == 3]

# The order of each lattice's point group; the rotations are half of it.
ORDERS = {"square": 8, "cube": 48, "triangle": 12, "hex": 12}


def by_name(lattices):
    return pytest.mark.parametrize("lat", lattices, ids=[lat.name for lat in lattices])


@st.composite
def cell_sets(draw, lat, max_size=12, connected=True):
    """Random cells of ``lat``: each new one a neighbour of an earlier one, or
    (unless ``connected``) an earlier one moved by a random translation."""
    cells = [lat.origin]
    size = draw(st.integers(1, max_size))
    while len(cells) < size:
        base = draw(st.sampled_from(cells))
        if connected or draw(st.booleans()):
            cell = draw(st.sampled_from(sorted(lat.neighbours(base))))
        else:
            cell = lat.translate([base], draw(vectors(lat, 4)))[0]
        if cell not in cells:
            cells.append(cell)
    return cells


def vectors(lat, reach=50):
    """Translations of ``lat``: one whole number per translated coordinate."""
    coordinate = st.integers(-reach, reach)
    return st.lists(coordinate, min_size=lat.dimension, max_size=lat.dimension)


def lattice_and(*strategies):
    """A lattice with values drawn for it: ``strategies`` map the lattice to strategies."""
    return st.sampled_from(ALL).flatmap(
        lambda lat: st.tuples(st.just(lat), *(make(lat) for make in strategies))
    )


def some_cells(lat):
    return cell_sets(lat, connected=False)


def some_transform(lat):
    return st.sampled_from(lat.transforms)


# -- look-up --------------------------------------------------------------------------


def test_each_lattice_is_found_by_name_and_the_bare_dimensions_name_square_and_cube():
    for name, lat in LATTICES.items():
        assert lattice(name) is lat and lat.name == name
        assert pickle.loads(pickle.dumps(lat)) is lat
    assert lattice(2) is of_dimension(2) is SQUARE
    assert lattice(3) is of_dimension(3) is CUBE
    assert set(ORDERS) == set(LATTICES), "give every lattice its group order in ORDERS"


@pytest.mark.parametrize("name", ["hexagon", "", "Square", 4, 1, True, None, 2.5, [2]])
def test_an_unknown_lattice_is_one_line_listing_the_lattices(name):
    with pytest.raises(UnknownNameError) as error:
        lattice(name)
    message = str(error.value)
    assert "\n" not in message
    assert all(known in message for known in LATTICES)


@pytest.mark.parametrize("dim", [4, 1, True, "2", [2]])
def test_a_bare_dimension_other_than_two_or_three_is_refused_as_before(dim):
    with pytest.raises(PolyformError, match="dimension must be 2 or 3"):
        of_dimension(dim)


# -- the point group ------------------------------------------------------------------


@by_name(ALL)
def test_the_group_has_its_order_identity_first_and_rotations_as_half(lat):
    group, rotations = lat.transforms, lat.rotations
    assert len(group) == ORDERS[lat.name]
    assert len(rotations) == len(group) // 2
    assert group[0].is_identity and not any(t.is_identity for t in group[1:])
    assert group[: len(rotations)] == rotations  # rotations first, then reflections
    assert len({t.name for t in group}) == len(group)
    assert all(lat.transform(t.name) is t for t in group)
    assert [len(lat.group(kind)) for kind in KINDS] == [1, len(rotations), len(group)]
    with pytest.raises(UnknownNameError):
        lat.group("mirror")
    with pytest.raises(UnknownNameError):
        lat.transform("no such symmetry")


@by_name(ALL)
def test_the_group_and_its_rotations_are_closed_under_composition_and_inverse(lat):
    group, rotations = set(lat.transforms), set(lat.rotations)
    identity = lat.transforms[0]
    for a, b in itertools.product(lat.transforms, repeat=2):
        product = a.compose(b)
        assert product is lat.compose(a, b) and product in group
        if a in rotations and b in rotations:
            assert product in rotations
    for a in lat.transforms:
        assert a.compose(a.inverse()) is identity and a.inverse().compose(a) is identity
        assert identity.compose(a) is a is a.compose(identity)
        assert (a.inverse() in rotations) == (a in rotations)


@settings(max_examples=60, deadline=None)
@given(lattice_and(some_cells, some_transform, some_transform, some_transform))
def test_transforms_act_on_cells_as_the_group_composes_them(case):
    lat, cells, a, b, c = case
    assert a.apply(cells) == tuple(a(cell) for cell in cells)
    assert [a.compose(b)(cell) for cell in cells] == [a(b(cell)) for cell in cells]
    assert a.compose(b).compose(c) is a.compose(b.compose(c))
    assert a.lattice is lat
    assert pickle.loads(pickle.dumps(a)) == a


# Pickles name what they hold by its public home, ``polyforms.lattice``, whichever
# module of the package defines it: these bytes load, and are what pickling gives.
SAVED_PICKLES = [
    (
        b"\x80\x02cpolyforms.lattice\nTransform\nq\x00X\x08\x00\x00\x00rotate90q\x01K\x00J"
        b"\xff\xff\xff\xff\x86q\x02K\x01K\x00\x86q\x03\x86q\x04\x86q\x05Rq\x06.",
        SQUARE.transform("rotate90"),
    ),
    (b"\x80\x02cpolyforms.lattice\nlattice\nq\x00X\x04\x00\x00\x00cubeq\x01\x85q\x02Rq\x03.", CUBE),
]


@pytest.mark.parametrize(("saved", "value"), SAVED_PICKLES, ids=["transform", "lattice"])
def test_a_pickle_names_the_package_not_the_module_that_defines_the_value(saved, value):
    assert pickle.loads(saved) == value
    assert pickle.dumps(value, protocol=2) == saved


# -- normal position ------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(lattice_and(some_cells, vectors, some_transform))
def test_normal_position_is_idempotent_translation_invariant_and_sorted(case):
    lat, cells, vector, transform = case
    normal = lat.normalise(cells)
    assert lat.normalise(normal) == normal
    assert lat.normalise(lat.translate(cells, vector)) == normal
    assert list(normal) == sorted(set(normal)) and len(normal) == len(set(cells))
    for axis in range(lat.dimension):
        assert min(cell[axis] for cell in normal) == 0
    # A symmetry maps translates to translates.
    assert lat.normalise(transform.apply(normal)) == lat.normalise(transform.apply(cells))
    assert lat.normalise([]) == ()


# -- neighbours -----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(lattice_and(some_cells, vectors))
def test_neighbours_are_symmetric_and_kept_by_every_symmetry_and_translation(case):
    lat, cells, vector = case
    degree = len(set(lat.neighbours(lat.origin)))
    for cell in cells:
        near = set(lat.neighbours(cell))
        assert len(near) == degree and cell not in near
        assert all(cell in set(lat.neighbours(other)) for other in near)
        for t in lat.transforms:
            assert set(lat.neighbours(t(cell))) == {t(other) for other in near}
        (moved,) = lat.translate([cell], vector)
        assert set(lat.neighbours(moved)) == set(lat.translate(near, vector))


@settings(max_examples=60, deadline=None)
@given(lattice_and(some_cells))
def test_components_are_the_parts_joined_by_neighbours(case):
    lat, cells = case
    parts = lat.components(cells)
    assert sorted(c for part in parts for c in part) == sorted(set(cells))
    assert parts == sorted(parts)
    for part in parts:
        assert len(lat.components(part)) == 1


# -- cells and pictures ---------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(lattice_and(some_cells))
def test_a_picture_reads_back_as_the_cells_in_normal_position(case):
    lat, cells = case
    text = lat.to_ascii(cells)
    found = [cell for cell, _ in lat.parse_picture(text)]
    assert len(found) == len(set(map(tuple, cells)))
    assert lat.normalise(found) == lat.normalise(cells)
    if lat in (SQUARE, CUBE):  # a picture of boxes starts at the origin
        assert sorted(found) == list(lat.normalise(cells))
    assert set(text) <= {"#", ".", " ", "\n", "-"}
    assert lat.to_ascii(lat.normalise(cells), mark="A") == text.replace("#", "A")


@settings(max_examples=50, deadline=None)
@given(lattice_and(some_cells))
def test_as_cell_takes_the_lattices_cells_and_refuses_others(case):
    lat, cells = case
    for cell in cells:
        assert lat.as_cell(cell) == cell
        assert lat.as_cell([float(c) for c in cell]) == cell
    with pytest.raises(PolyformError):
        lat.as_cell(cells[0] + (0,))
    with pytest.raises(WrongTypeError):
        lat.as_cell(("a",) * lat.coordinates)


@settings(max_examples=100, deadline=None)
@given(lattice_and(cell_sets, some_transform))
def test_the_symmetry_class_is_a_listed_class_and_the_same_for_every_image(case):
    lat, cells, transform = case

    def stabiliser(shape):
        normal = lat.normalise(shape)
        return [t for t in lat.transforms if lat.normalise(t.apply(normal)) == normal]

    fixing = stabiliser(cells)
    assert fixing[0].is_identity and ORDERS[lat.name] % len(fixing) == 0
    found = lat.symmetry_class(fixing)
    assert found in lat.symmetry_classes
    assert lat.parse_symmetry_class(str(found)) == found
    assert lat.symmetry_class(stabiliser(transform.apply(cells))) == found
    with pytest.raises(UnknownNameError):
        lat.parse_symmetry_class("no such class")


# -- shapes for drawing ---------------------------------------------------------------


def shoelace(points) -> float:
    """Twice the signed area of a closed polygon; positive when clockwise with y down."""
    return sum(x * ny - nx * y for (x, y), (nx, ny) in zip(points, [*points[1:], points[0]]))


@by_name(PLANE)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_plane_cells_are_polygons_meeting_their_neighbours_side_to_side(lat, data):
    cells = data.draw(cell_sets(lat))
    area = shoelace([lat.to_page(v) for v in lat.cell_polygon(lat.origin)])
    assert area > 0  # clockwise on the page
    for cell in cells:
        edges = lat.cell_edges(cell)
        corners = lat.cell_polygon(cell)
        assert [start for start, _, _ in edges] == list(corners)
        assert all(end == edges[(k + 1) % len(edges)][0] for k, (_, end, _) in enumerate(edges))
        assert {across for _, _, across in edges} == set(lat.neighbours(cell))
        for start, end, across in edges:
            assert (end, start, cell) in lat.cell_edges(across)
        assert shoelace([lat.to_page(v) for v in corners]) == pytest.approx(area)
    # The sides in bulk are those of the cells one by one (a lattice may answer faster).
    outer, inner = lat.sides(cells)
    generic_outer, generic_inner = Lattice.sides(lat, cells)
    assert sorted(outer) == sorted(generic_outer) and sorted(inner) == sorted(generic_inner)
    assert lat.page_box(cells) == Lattice.page_box(lat, cells)
    # The drawn outline of the cells encloses exactly their area.
    loops = boundary_loops(cells, lat)
    drawn = sum(shoelace([lat.to_page(v) for v in loop]) for loop in loops)
    assert drawn == pytest.approx(area * len(set(cells)))


@by_name(SOLID)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_solid_cells_share_each_face_with_the_neighbour_across_it(lat, data):
    for cell in data.draw(cell_sets(lat)):
        faces = lat.cell_faces(cell)
        assert [across for across, _ in faces] == list(lat.neighbours(cell))
        for across, corners in faces:
            back = dict(lat.cell_faces(across))[cell]
            assert set(back) == set(corners) and len(set(corners)) == len(corners)


@by_name([lat for lat in ALL if lat not in PLANE])
def test_only_plane_lattices_have_polygons(lat):
    with pytest.raises(PolyformError):
        lat.cell_edges(lat.origin)


@by_name([lat for lat in ALL if lat not in SOLID])
def test_only_solid_lattices_have_faces(lat):
    with pytest.raises(PolyformError):
        lat.cell_faces(lat.origin)


# -- the ground floor asks the lattice ------------------------------------------------


@pytest.mark.parametrize("dim", [2, 3])
def test_geometry_answers_are_the_lattices(dim):
    lat = lattice(dim)
    assert geometry.all_symmetries(dim) is lat.transforms
    for kind in KINDS:
        assert geometry.symmetries(dim, kind) is lat.group(kind)
        assert geometry.signed_permutations(dim, kind) is lat.signed_permutations(kind)
    assert geometry.normalise is lat.normalise
    cells = [(0,) * dim, tuple(range(dim)), tuple(range(-5, 5, 10 // dim))[:dim]]
    assert all(list(geometry.neighbours(c)) == list(lat.neighbours(c)) for c in cells)
    assert geometry.check_dim(dim) == dim
