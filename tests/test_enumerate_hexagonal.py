"""Polyiamonds and polyhexes: Redelmeier's search, Burnside's lemma and the filters
against the OEIS (data/oeis_hexagonal.csv), the naive method and the readable twin."""

from __future__ import annotations

import pytest

from polyforms import _backend
from polyforms.enumeration import _lattice_redelmeier_py as twin
from polyforms.enumeration import hexagonal
from polyforms.enumeration.generate import count, enumerate_polyforms, plan_listing
from polyforms.errors import PolyformError, UnknownNameError
from polyforms.jobs import LongRun
from polyforms.lattice import HEX, TRIANGLE

SEQUENCES = {
    ("triangle", "fixed"): "A001420",
    ("triangle", "one-sided"): "A006534",
    ("triangle", "free"): "A000577",
    ("hex", "fixed"): "A001207",
    ("hex", "one-sided"): "A006535",
    ("hex", "free"): "A000228",
}
KINDS = ("fixed", "one-sided", "free")
LATTICES = {"triangle": TRIANGLE, "hex": HEX}


@pytest.fixture(scope="module")
def terms(oracle):
    table = oracle("oeis_hexagonal.csv")
    return lambda lattice, kind: table[SEQUENCES[lattice, kind]]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_counts_match_oeis_through_14(terms, lattice, kind):
    expected = terms(lattice, kind)[:14]
    assert [count(n, kind=kind, lattice=lattice) for n in range(1, 15)] == expected


@pytest.mark.slow
@pytest.mark.parametrize(
    "lattice, kind, sizes",
    [
        ("triangle", "fixed", range(15, 21)),
        ("triangle", "one-sided", range(15, 21)),
        ("triangle", "free", range(15, 21)),
        ("hex", "fixed", range(15, 17)),
        ("hex", "free", range(15, 17)),
    ],
)
def test_counts_match_oeis_slow(terms, lattice, kind, sizes):
    expected = terms(lattice, kind)
    for n in sizes:
        assert count(n, kind=kind, lattice=lattice) == expected[n - 1], n


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_listings_count_what_the_oeis_counts(terms, lattice, kind):
    top = 10 if lattice == "triangle" else 8
    expected = terms(lattice, kind)[:top]
    found = [
        sum(1 for _ in enumerate_polyforms(n, kind=kind, lattice=lattice))
        for n in range(1, top + 1)
    ]
    assert found == expected


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_naive_and_redelmeier_list_the_same_canonical_forms(lattice, kind):
    for n in range(1, 8):
        naive = [
            p.cells for p in enumerate_polyforms(n, kind=kind, lattice=lattice, method="naive")
        ]
        found = [p.cells for p in enumerate_polyforms(n, kind=kind, lattice=lattice)]
        assert len(found) == len(set(found)), "a polyform listed twice"
        assert set(found) == set(naive), (n, kind)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_listed_polyforms_are_canonical_and_carry_their_lattice(lattice, kind):
    for polyform in enumerate_polyforms(7, kind=kind, lattice=lattice):
        assert polyform.lattice is LATTICES[lattice]
        assert polyform.connected
        assert polyform.canonical(kind).cells == polyform.cells


@pytest.mark.parametrize("kind", ["one-sided", "free"])
@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_burnside_equals_the_listing(lattice, kind):
    lat = LATTICES[lattice]
    for n in range(1, 10 if lattice == "triangle" else 9):
        listed = sum(1 for _ in hexagonal.iter_cells(n, lat, kind))
        assert hexagonal.count(n, lat, kind) == listed, n


@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_each_symmetry_term_counts_the_symmetric_fixed_polyforms(lattice):
    """fix(g) for one element of each class against the fixed listing tested image by image."""
    lat = LATTICES[lattice]
    for n in range(1, 9):
        fixed = list(hexagonal.iter_cells(n, lat, "fixed"))
        for matrix, _ in hexagonal.terms(lat, "free"):
            element = next(t for t in lat.transforms if t.matrix == matrix)
            symmetric = sum(1 for cells in fixed if lat.normalise(element.apply(cells)) == cells)
            assert hexagonal.fix(n, lat, matrix) == symmetric, (n, element.name)


@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_compiled_kernel_equals_the_readable_twin(lattice, require_compiled, monkeypatch):
    core = require_compiled("lattice_redelmeier")
    lat = LATTICES[lattice]
    for n in range(1, 9):
        table = hexagonal.Table(lat, n)
        for root in table.roots:
            args = (n, table.neighbours, table.degree, root)
            assert core.count_fixed(*args) == twin.count_fixed(*args)
            assert core.FixedWalk(*args).fill(10**6) == twin.FixedWalk(*args).fill(10**6)
    for root, cells, untried in hexagonal.prefixes(8, lat, 3):  # walks started below a node
        table = hexagonal.Table(lat, 8)
        args = (8, table.neighbours, table.degree, root, cells, untried)
        assert core.FixedWalk(*args).fill(10**6) == twin.FixedWalk(*args).fill(10**6)
        assert core.FixedWalk(*args).count() == twin.FixedWalk(*args).count()
    compiled_terms = {
        n: [hexagonal.fix(n, lat, m) for m, _ in hexagonal.terms(lat, "free")] for n in range(1, 9)
    }
    compiled_lists = {
        kind: [list(hexagonal.iter_cells(n, lat, kind)) for n in range(1, 8)]
        for kind in ("one-sided", "free")
    }
    monkeypatch.setattr(hexagonal, "_kernel", lambda: twin)
    for kind, lists in compiled_lists.items():  # the same polyforms in the same order
        assert lists == [list(hexagonal.iter_cells(n, lat, kind)) for n in range(1, 8)]
    assert compiled_terms == {
        n: [hexagonal.fix(n, lat, m) for m, _ in hexagonal.terms(lat, "free")] for n in range(1, 9)
    }


@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_compiled_and_readable_counts_agree_below_every_prefix(lattice, require_compiled):
    """The counts of the last levels (three in the twin, more in the core) from every
    node of the tree at small n, against the twin and against the listing."""
    core = require_compiled("lattice_redelmeier")
    lat = LATTICES[lattice]
    for n in range(2, 10):
        table = hexagonal.Table(lat, n)
        for depth in range(1, n):
            for root, cells, untried in hexagonal.prefixes(n, lat, depth):
                args = (n, table.neighbours, table.degree, root, cells, untried)
                found = core.FixedWalk(*args).count()
                assert found == twin.FixedWalk(*args).count(), (n, cells)
                if n <= 7:
                    assert found * n == len(twin.FixedWalk(*args).fill(10**6)), (n, cells)


def test_a_walk_resumes_where_a_full_chunk_stopped(require_compiled):
    core = require_compiled("lattice_redelmeier")
    table = hexagonal.Table(HEX, 6)
    args = (6, table.neighbours, table.degree, table.roots[0])
    whole = core.FixedWalk(*args).fill(10**6)
    walk, pieces = core.FixedWalk(*args), []
    while chunk := walk.fill(7):
        assert len(chunk) <= 7 * 6
        pieces += chunk
    assert pieces == whole and len(whole) == 814 * 6


def test_the_backend_chooses_the_twin_when_asked(monkeypatch):
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    assert _backend.kernel("lattice_redelmeier") is twin
    assert count(7, kind="free", lattice="hex") == 333


@pytest.mark.parametrize("lattice, sequence", [("triangle", "A070764"), ("hex", "A038144")])
def test_holes_filter_matches_oeis(oracle, lattice, sequence):
    expected = oracle("oeis_hexagonal.csv")[sequence]
    for n in range(1, len(expected) + 1):
        if n > (11 if lattice == "triangle" else 9):
            break
        assert count(n, kind="free", lattice=lattice, holes=True) == expected[n - 1], n


@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_symmetry_classes_partition_the_free_polyforms(lattice):
    lat = LATTICES[lattice]
    for n in (6, 8):
        listed = list(enumerate_polyforms(n, kind="free", lattice=lattice, method="naive"))
        total = 0
        for name in lat.symmetry_classes:
            found = count(n, kind="free", lattice=lattice, symmetry=name)
            assert found == sum(1 for p in listed if p.symmetry == name), (n, name)
            total += found
        assert total == len(listed)
        assert count(n, kind="free", lattice=lattice, holes=False) + count(
            n, kind="free", lattice=lattice, holes=True
        ) == len(listed)


def test_known_symmetric_shapes():
    # the hexagon of six triangles has every symmetry; so has the lone hexagon
    assert count(6, kind="free", lattice="triangle", symmetry="full") == 1
    assert count(1, kind="free", lattice="hex", symmetry="full") == 1
    assert count(7, kind="free", lattice="hex", symmetry="full") == 1  # the flower


def test_square_and_cube_are_names_for_dim():
    assert count(6, kind="free", lattice="square") == count(6, kind="free") == 35
    assert count(4, kind="free", lattice="cube") == count(4, dim=3, kind="free") == 7
    listing = plan_listing(6, lattice="hex")
    assert listing.lattice is HEX and not listing.packed


def test_refusals_are_typed_and_name_the_lattice():
    with pytest.raises(UnknownNameError, match="hex lattice"):
        count(6, lattice="hex", method="transfer-matrix")
    with pytest.raises(UnknownNameError, match="only counts"):
        list(enumerate_polyforms(6, lattice="triangle", method="transfer-matrix"))
    with pytest.raises(PolyformError, match="does not match the hex lattice"):
        count(6, dim=3, lattice="hex")
    with pytest.raises(UnknownNameError, match="unknown lattice"):
        count(6, lattice="hexagon")
    with pytest.raises(UnknownNameError, match="unknown symmetry class"):
        count(6, lattice="triangle", symmetry="rotation-90")
    with pytest.raises(UnknownNameError, match="triangle lattice"):
        from polyforms.enumeration.generate import estimate

        estimate(6, lattice="triangle")


@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_prefixes_partition_the_search(lattice):
    lat = LATTICES[lattice]
    n = 9
    whole = list(hexagonal.iter_cells(n, lat, "fixed"))
    for depth in (1, 2, 4):
        found = []
        for prefix in hexagonal.prefixes(n, lat, depth):
            found.append(hexagonal.count_task(n, lattice, prefix))
        assert sum(found) == len(whole)
    # the fixed counts of the smaller sizes are the numbers of nodes at each depth
    assert [len(hexagonal.prefixes(n, lat, d)) for d in (1, 2, 3)] == [
        hexagonal.count_fixed(d, lat) for d in (1, 2, 3)
    ]


@pytest.mark.parametrize("lattice", ["triangle", "hex"])
def test_the_job_layer_gives_the_same_counts_and_order(lattice, tmp_path):
    lat = LATTICES[lattice]
    n = 11 if lattice == "triangle" else 9
    for kind in ("fixed", "free"):
        alone = list(hexagonal.iter_cells(n, lat, kind))
        split = list(hexagonal.iter_cells(n, lat, kind, LongRun(jobs=2)))
        assert split == alone
    seen = []
    long_run = {"jobs": 1, "progress": seen.append, "checkpoint": tmp_path / "count.journal"}
    expected = count(n, kind="free", lattice=lattice)
    assert count(n, kind="free", lattice=lattice, **long_run) == expected
    assert seen and seen[-1].done == seen[-1].total
    assert count(n, kind="free", lattice=lattice, **long_run) == expected  # from the journal
    assert count(n, kind="one-sided", lattice=lattice, jobs=2) == count(
        n, kind="one-sided", lattice=lattice
    )
