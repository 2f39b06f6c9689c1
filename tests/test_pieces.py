"""Named piece sets: sizes, distinctness, names."""

import pytest

from polyforms import piece_set_names, pieces
from polyforms.errors import UnknownNameError

EXPECTED = {
    # name: (number of pieces, cells per piece, kind under which they are distinct)
    "monomino": (1, 1, "free"),
    "dominoes": (1, 2, "free"),
    "trominoes": (2, 3, "free"),
    "tetrominoes": (5, 4, "free"),
    "one-sided-tetrominoes": (7, 4, "one-sided"),
    "pentominoes": (12, 5, "free"),
    "one-sided-pentominoes": (18, 5, "one-sided"),
    "hexominoes": (35, 6, "free"),
    "solid-pentominoes": (12, 5, "free"),
    "tetracubes": (8, 4, "one-sided"),
    "pentacubes": (29, 5, "one-sided"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_named_sets_are_complete_and_distinct(name):
    number, size, kind = EXPECTED[name]
    found = pieces(name)
    assert len(found) == number
    assert {p.size for p in found.values()} == {size}
    assert len({p.canonical(kind) for p in found.values()}) == number


def test_soma():
    soma = pieces("soma")
    assert list(soma) == ["V", "L", "T", "Z", "A", "B", "P"]
    assert sum(p.size for p in soma.values()) == 27
    assert len({p.canonical("one-sided") for p in soma.values()}) == 7
    # A and B are mirror images of each other, not rotations.
    assert soma["A"].canonical("free") == soma["B"].canonical("free")
    assert soma["A"].canonical("one-sided") != soma["B"].canonical("one-sided")


def test_names_are_conventional():
    assert "".join(pieces("pentominoes")) == "FILNPTUVWXYZ"
    assert "".join(pieces("one-sided-tetrominoes")) == "IOTSZLJ"
    assert sorted(pieces("one-sided-pentominoes")) == sorted("FILNPTUVWXYZflnpyz")
    assert set(piece_set_names()) >= set(EXPECTED) | {"soma"}


def test_generated_sets():
    assert len(pieces("free:5")) == 12
    assert len(pieces("one-sided:4")) == 7
    assert len(pieces("fixed:3")) == 6
    assert len(pieces("one-sided:5", dim=3)) == 29


@pytest.mark.parametrize("name", ["octominoes", "free:x", "free:0", "weird:3", ""])
def test_unknown_sets_name_the_known_ones(name):
    with pytest.raises(UnknownNameError) as error:
        pieces(name)
    assert "pentominoes" in str(error.value) or "KIND:N" in str(error.value)


@pytest.mark.parametrize(
    ("name", "kind", "switches"),
    [
        ("pentominoes", "free", {}),
        ("pentominoes", "free", {"reflections": False}),
        ("pentominoes", "free", {"rotations": False}),
        ("one-sided-tetrominoes", "one-sided", {}),
        ("tetracubes", "one-sided", {}),
        ("tetracubes", "free", {"rotations": False}),
        ("tetrominoes", "fixed", {}),
    ],
)
def test_permutation_is_the_image_of_every_orientation(name, kind, switches):
    """PieceSet.permutation reads the image of one orientation where the orientations
    are orbits of a normal subgroup; it must map each piece to one whose orientations
    are the images of all of its own, or give None when some piece has no such image."""
    from polyforms.geometry import all_symmetries, normalise
    from polyforms.piece_sets import PieceSet

    piece_set = PieceSet(pieces(name), kind=kind, **switches)
    orientations = {n: frozenset(o) for n, o in piece_set.orientations.items()}
    for transform in all_symmetries(piece_set.dim):
        images = {
            n: frozenset(normalise(transform.apply(o)) for o in shapes)
            for n, shapes in orientations.items()
        }
        mapping = piece_set.permutation(transform)
        if set(images.values()) <= set(orientations.values()):
            assert mapping is not None and sorted(mapping.values()) == sorted(orientations)
            assert all(orientations[mapping[n]] == images[n] for n in orientations)
        else:
            assert mapping is None
