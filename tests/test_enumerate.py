"""Enumeration through the public API: both methods against OEIS, symmetry classes, holes."""

import collections
import csv

import pytest

import polyforms as pf
from polyforms.enumeration import estimate
from polyforms.enumeration.generate import estimate_fixed
from polyforms.errors import PolyformError, TooLargeError, UnknownNameError
from polyforms.files.catalogue import write_polyforms


@pytest.fixture(scope="module")
def oeis_counts():
    """{(dim, kind): [count for n = 1, 2, ...]} from data/oeis_counts.csv (cited there)."""
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "data" / "oeis_counts.csv"
    table = collections.defaultdict(list)
    rows = csv.DictReader(line for line in path.open() if not line.startswith("#"))
    for row in rows:
        table[int(row["dim"]), row["kind"]].append(int(row["count"]))
    return table


NAIVE_2D = [("fixed", 9), ("one-sided", 9), ("free", 9)]
NAIVE_3D = [("fixed", 5), ("one-sided", 6), ("free", 6)]


@pytest.mark.parametrize(
    "dim, kind, top", [(2, k, t) for k, t in NAIVE_2D] + [(3, k, t) for k, t in NAIVE_3D]
)
def test_naive_counts_match_oeis(oeis_counts, dim, kind, top):
    found = [
        sum(1 for _ in pf.enumerate_polyforms(n, dim, kind, "naive")) for n in range(1, top + 1)
    ]
    assert found == oeis_counts[dim, kind][:top]


@pytest.mark.parametrize(
    "dim, kind, top",
    [
        (2, "fixed", 10),
        (2, "one-sided", 10),
        (2, "free", 10),
        (3, "fixed", 6),
        (3, "one-sided", 6),
        (3, "free", 6),
    ],
)
def test_redelmeier_counts_match_oeis(oeis_counts, dim, kind, top):
    assert [pf.count(n, dim, kind) for n in range(1, top + 1)] == oeis_counts[dim, kind][:top]
    assert sum(1 for _ in pf.enumerate_polyforms(top, dim, kind)) == oeis_counts[dim, kind][top - 1]


@pytest.mark.parametrize(
    "dim, kind, n",
    [
        (2, "free", 8),
        (2, "one-sided", 7),
        (2, "fixed", 6),
        (3, "free", 5),
        (3, "one-sided", 5),
        (3, "fixed", 4),
    ],
)
def test_naive_and_redelmeier_give_the_same_sets(dim, kind, n):
    naive = list(pf.enumerate_polyforms(n, dim, kind, "naive"))
    redelmeier = list(pf.enumerate_polyforms(n, dim, kind, "redelmeier"))
    assert len(set(redelmeier)) == len(redelmeier)
    assert sorted(redelmeier) == naive  # naive is sorted; both are canonical forms
    assert all(p.canonical(kind) == p for p in redelmeier)


def test_symmetry_classes_and_holes_match_oeis(oracle):
    classes = oracle("oeis_symmetry_classes.csv")
    holes = oracle("oeis_holes.csv")
    for n in range(1, 11):
        found = collections.Counter()
        with_holes = 0
        for p in pf.polyominoes(n, kind="free"):
            found[p.symmetry] += 1
            with_holes += p.holes > 0
        assert {name: found[name] for name in classes} == {
            name: terms[n - 1] for name, terms in classes.items()
        }, n
        assert with_holes == holes["with-holes"][n - 1]
        assert sum(found.values()) - with_holes == holes["without-holes"][n - 1]


def test_polycube_symmetry_orders_sum_by_burnside(oeis_counts):
    # Each free polycube stands for 48/|stabiliser| fixed ones.
    for n in range(1, 6):
        total = sum(48 // p.symmetry for p in pf.polycubes(n, kind="free"))
        assert total == oeis_counts[3, "fixed"][n - 1]


def test_the_issue_examples():
    assert sum(1 for _ in pf.polyominoes(7, kind="free")) == 108
    assert pf.count(12, kind="fixed") == 505861
    assert pf.count(5, dim=3, kind="free") == 23


@pytest.mark.parametrize("bad", [0, -3, 2.5, "5", True])
def test_bad_sizes(bad):
    with pytest.raises(PolyformError):
        pf.count(bad)
    with pytest.raises(PolyformError):
        pf.enumerate_polyforms(bad)


def test_bad_names_and_enormous_requests():
    with pytest.raises(UnknownNameError):
        pf.count(5, kind="mirror")
    with pytest.raises(UnknownNameError):
        pf.count(5, method="quick")
    with pytest.raises(PolyformError):
        pf.count(5, dim=4)
    with pytest.raises(TooLargeError, match="force"):
        pf.enumerate_polyforms(22)
    with pytest.raises(TooLargeError, match="force"):
        pf.count(40)
    with pytest.raises(TooLargeError, match="naive"):
        pf.enumerate_polyforms(15, kind="fixed", method="naive")


def test_estimate_is_within_a_factor_of_the_truth(oeis_counts):
    for dim, top in ((2, 20), (3, 14)):
        for n in range(8, top + 1):
            ratio = estimate_fixed(n, dim) / oeis_counts[dim, "fixed"][n - 1]
            assert 0.5 < ratio < 2, (dim, n, ratio)


def test_compiled_catalogue_symmetry_and_holes_match_oeis_through_12(oracle, require_compiled):
    """Issue 3: the fast path (compiled search + compiled formatter) against OEIS."""
    import json

    from polyforms.enumeration.redelmeier import iter_packed
    from polyforms.files.catalogue import format_packed

    require_compiled("catalogue")
    require_compiled("redelmeier")
    classes = oracle("oeis_symmetry_classes.csv")
    holes = oracle("oeis_holes.csv")
    for n in range(1, 13):
        found = collections.Counter()
        with_holes = 0
        for chunk in iter_packed(n, 2, "free"):
            for line in format_packed(chunk, n, 2, "jsonl", "free").splitlines():
                record = json.loads(line)
                found[record["symmetry"]] += 1
                with_holes += record["holes"] > 0
        assert dict(found) == {k: v[n - 1] for k, v in classes.items() if v[n - 1]}, n
        assert with_holes == holes["with-holes"][n - 1], n


@pytest.mark.parametrize(
    "call",
    [
        lambda tmp: pf.count(9, kind="free"),  # Redelmeier's search
        lambda tmp: pf.count(14, kind="free"),  # the transfer matrix
        lambda tmp: pf.count(9, holes=True),  # the compiled filter
        lambda tmp: pf.count(6, method="naive", symmetry="full"),
        lambda tmp: sum(1 for _ in pf.enumerate_polyforms(7, symmetry="axis-mirror")),
        lambda tmp: sum(1 for _ in pf.enumerate_polyforms(7, kind="one-sided")),
        lambda tmp: estimate(10),
        lambda tmp: estimate(20, kind="fixed", counting=True),
        lambda tmp: write_polyforms(8, tmp / "eight.jsonl", "jsonl"),
        lambda tmp: write_polyforms(8, tmp / "eight.csv", "csv", holes=False),
    ],
)
def test_a_call_checks_its_size_once(monkeypatch, tmp_path, call):
    """The public entry point checks its arguments; what it calls trusts them."""
    from polyforms import geometry
    from polyforms.enumeration import generate

    checked = []
    original = geometry.check_size

    def counted(n):
        checked.append(n)
        return original(n)

    monkeypatch.setattr(geometry, "check_size", counted)
    monkeypatch.setattr(generate, "check_size", counted)
    call(tmp_path)
    assert len(checked) == 1


def test_plan_listing_picks_the_search_and_both_writers_follow_it(tmp_path):
    from polyforms.enumeration.generate import FILTER_MAX_CELLS, plan_listing
    from polyforms.enumeration.redelmeier import iter_packed

    listing = plan_listing(8, kind="one-sided")
    assert listing.packed and not listing.filtered
    assert b"".join(listing.chunks()) == b"".join(iter_packed(8, 2, "one-sided"))
    assert list(listing.polyforms()) == list(pf.enumerate_polyforms(8, kind="one-sided"))
    filtered = plan_listing(9, symmetry="rotation-90")
    assert filtered.filtered and filtered.symmetry == "rotation-90"
    assert sum(len(c) for c in filtered.chunks()) // 18 == pf.count(9, symmetry="rotation-90")
    assert not plan_listing(6, method="naive").packed
    assert not plan_listing(FILTER_MAX_CELLS + 1, dim=3, kind="fixed", force=True).packed
    with pytest.raises(UnknownNameError, match="only counts"):
        plan_listing(8, method="transfer-matrix")
    with pytest.raises(TooLargeError, match="force"):
        plan_listing(22)
    with pytest.raises(PolyformError, match="symmetry"):
        plan_listing(5, symmetry="round")
    # The packed writer and the stream writer give the same bytes.
    packed, streamed = tmp_path / "packed.csv", tmp_path / "streamed.csv"
    write_polyforms(9, packed, "csv", symmetry="axis-mirror")
    pf.write_catalogue(pf.enumerate_polyforms(9, symmetry="axis-mirror"), streamed, "csv")
    assert packed.read_bytes() == streamed.read_bytes()


def test_packed_records_round_trip():
    from polyforms.enumeration.records import pack, pack_cells, unpack, unpack_cells

    items = list(pf.polycubes(4, kind="free"))
    packed = pack(items)
    assert len(packed) == len(items) * 4 * 3
    assert list(unpack(packed, 4, 3)) == items
    forms = [((0, 0), (-1, 1), (-128, 127))]  # signed bytes at both ends
    assert unpack_cells(3, 2, pack_cells(forms)) == forms
