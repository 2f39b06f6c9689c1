"""Catalogue files round-trip, are deterministic, and are written atomically."""

import pytest

import polyforms as pf
from polyforms import Polyform, pieces, read_catalogue, write_catalogue
from polyforms.enumeration import _catalogue_py  # the compiled core's readable twin
from polyforms.errors import ParseError, UnknownNameError
from polyforms.files.catalogue import format_polyform


def sample(dim):
    if dim == 2:
        return list(pieces("hexominoes").values()) + [Polyform.from_ascii("###\n#.#\n###")]
    return list(pieces("pentacubes").values())


@pytest.mark.parametrize("fmt", ["txt", "jsonl", "csv"])
@pytest.mark.parametrize("dim", [2, 3])
def test_round_trip_and_determinism(tmp_path, fmt, dim):
    items = sample(dim)
    first, second = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
    assert write_catalogue(iter(items), first, fmt, kind="free") == len(items)
    write_catalogue(iter(items), second, fmt, kind="free")
    assert first.read_bytes() == second.read_bytes()
    assert list(read_catalogue(first, dim=dim)) == items
    assert [p.to_ascii() for p in read_catalogue(first, dim=dim)] == [p.to_ascii() for p in items]


def test_jsonl_records_carry_the_attributes(tmp_path):
    ring = Polyform.from_ascii("###\n#.#\n###")
    line = format_polyform(ring, "jsonl", "one-sided")
    assert line == (
        '{"cells":[[0,0],[0,1],[0,2],[1,0],[1,2],[2,0],[2,1],[2,2]],"size":8,'
        '"kind":"one-sided","symmetry":"full","holes":1}\n'
    )


def test_txt_layout(tmp_path):
    target = tmp_path / "t.txt"
    write_catalogue(iter(pieces("trominoes").values()), target, "txt")
    assert target.read_text() == "###\n\n##\n#.\n"


def test_failed_run_leaves_no_file(tmp_path):
    target = tmp_path / "out.jsonl"

    def broken():
        yield Polyform([(0, 0)])
        raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError):
        write_catalogue(broken(), target, "jsonl")
    assert list(tmp_path.iterdir()) == []


def test_failed_run_keeps_the_previous_file(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old\n")

    def broken():
        yield Polyform([(0, 0)])
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_catalogue(broken(), target, "txt")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_errors(tmp_path):
    with pytest.raises(UnknownNameError):
        write_catalogue([], tmp_path / "x", "pdf")
    with pytest.raises(OSError):
        write_catalogue([], tmp_path / "missing" / "x.txt", "txt")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"cells":[[0,0]]}\nnot json\n')
    with pytest.raises(ParseError, match="bad.jsonl: line 2"):
        list(read_catalogue(bad))
    # Cells that are no polyform are named by file and line too, in every format.
    bad.write_text('{"cells":[[0,0]]}\n{"cells":[[0,0],[5,5]]}\n')
    with pytest.raises(ParseError, match="bad.jsonl: line 2: .*not connected"):
        list(read_catalogue(bad))
    pictures = tmp_path / "bad.txt"
    pictures.write_text("##\n\n#.#\n")
    with pytest.raises(ParseError, match="bad.txt: the picture at line 3: .*not connected"):
        list(read_catalogue(pictures))
    rows = tmp_path / "bad.csv"
    rows.write_text("index,size,kind,symmetry,holes,cells\n1,2,fixed,x,0,0:0 5:5\n")
    with pytest.raises(ParseError, match="bad.csv: line 2: .*not connected"):
        list(read_catalogue(rows))


def _random_polyforms(seed, dim, count, size):
    import random

    from polyforms.geometry import neighbours

    rng = random.Random(seed)
    found = []
    while len(found) < count:
        cells = [(0,) * dim]
        while len(cells) < size:
            extra = rng.choice(list(neighbours(rng.choice(cells))))
            if extra not in cells:
                cells.append(extra)
        found.append(Polyform(cells))
    return found


@pytest.mark.parametrize("fmt", ["txt", "jsonl", "csv"])
@pytest.mark.parametrize("dim, size", [(2, 1), (2, 9), (2, 16), (3, 7), (3, 12)])
def test_compiled_formatter_equals_the_reference(monkeypatch, require_compiled, fmt, dim, size):
    from polyforms.files.catalogue import format_packed, pack

    core = require_compiled("catalogue")
    items = _random_polyforms(size * 10 + dim, dim, 200, size)
    if (dim, size) == (2, 16):
        assert sum(p.holes > 0 for p in items) > 5  # the hole counting is exercised
    packed = pack(items)
    compiled = format_packed(packed, size, dim, fmt, "one-sided", 5, False)
    expected = "".join(
        ("\n" if fmt == "txt" else "") + format_polyform(p, fmt, "one-sided", i)
        for i, p in enumerate(items, start=5)
    )
    assert compiled == expected
    # counted: the listing chunk of the job layer, its count first
    head = f"{len(items)}\n".encode()
    assert core.format_chunk(packed, size, dim, fmt, "one-sided", 5, False, True) == (
        head + expected.encode()
    )
    assert _catalogue_py.format_chunk(packed, size, dim, fmt, "one-sided", 5, False, True) == (
        head + expected.encode()
    )
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    assert format_packed(packed, size, dim, fmt, "one-sided", 5, False) == expected


def _dense_polyforms(seed, dim, side, count):
    """Largest connected parts of random dense subsets of a box: holes (cavities
    in 3D), cells closed in along every axis, and symmetric shapes, all common."""
    import itertools
    import random

    from polyforms.geometry import components

    rng = random.Random(seed)
    found = []
    while len(found) < count:
        chosen = {c for c in itertools.product(range(side), repeat=dim) if rng.random() < 0.75}
        if rng.random() < 0.3:  # mirror it, for symmetric shapes
            chosen |= {(side - 1 - c[0], *c[1:]) for c in chosen}
        found.append(Polyform(max(components(chosen), key=len)))
    return found


@pytest.mark.parametrize("dim, side", [(2, 6), (2, 8), (3, 4)])
def test_compiled_holes_and_symmetry_equal_the_reference(require_compiled, dim, side):
    """Holes (Euler's formula in 2D; the line-of-sight test, then the flood, in 3D)
    and symmetry classes of the compiled formatter against Polyform's own."""
    from polyforms.files.catalogue import format_packed, pack

    require_compiled("catalogue")
    items = _dense_polyforms(side * 10 + dim, dim, side, 150)
    assert sum(p.holes > 0 for p in items) > 10
    assert sum(p.symmetry not in ("none", 1) for p in items) > 10
    for p in items:
        expected = format_polyform(p, "jsonl", "free", 1)
        assert format_packed(pack([p]), len(p), dim, "jsonl", "free") == expected, p.cells


def _long_polycube():
    """64 cells with long jsonl text: three arms of 10 cells reaching 0 along each
    axis (two two-digit coordinates each), joined at (10, 10, 10) to 34 cells
    of the cube [10, 13]^3 (three two-digit coordinates each: 11 bytes)."""
    cells = [(i, 10, 10) for i in range(10)] + [(10, i, 10) for i in range(10)]
    cells += [(10, 10, i) for i in range(10)]
    todo = [(10, 10, 10)]
    while len(cells) < 64:
        x, y, z = todo.pop(0)
        for other in ((x + 1, y, z), (x, y + 1, z), (x, y, z + 1), (x, y, z)):
            if max(other) <= 13 and other not in cells and len(cells) < 64:
                cells.append(other)
                todo.append(other)
    return Polyform(cells)


def test_compiled_formatter_rows_fit_their_room(require_compiled):
    """A jsonl row's cells are written unchecked into room reserved beforehand;
    here a row of 64 3D cells with two-digit coordinates is placed, by the length
    of ``kind``, to start just short of the end of the kernel's first buffer
    (64 KiB), where too little room once made it write past the buffer."""
    from polyforms.files.catalogue import format_packed, pack

    require_compiled("catalogue")
    polyform = _long_polycube()
    assert len(polyform) == 64
    capacity, prefix = 1 << 16, len('{"cells":[')
    cells_text = format_polyform(polyform, "jsonl", "k").index('],"size":') - prefix
    assert cells_text > 64 * 10  # more than the room once reserved
    for length in range(1, 400):
        kind = "k" * length
        row = len(format_polyform(polyform, "jsonl", kind))
        starts = [j * row + prefix for j in range(capacity // row + 1)]
        if any(64 * 10 <= capacity - start < cells_text for start in starts):
            break
    else:
        pytest.fail("no kind length puts a row at the buffer's end")
    items = [polyform] * (capacity // row + 2)
    text = format_packed(pack(items), 64, 3, "jsonl", kind)
    assert text == format_polyform(polyform, "jsonl", kind) * len(items)


@pytest.mark.parametrize("n,dim", [(8, 2), (9, 2), (6, 3)])
def test_compiled_filter_equals_the_twin(require_compiled, n, dim):
    """The catalogue kernel's filter keeps exactly the polyforms the twin keeps."""
    from polyforms.enumeration import redelmeier
    from polyforms.polyform import SYMMETRY_CLASSES

    core = require_compiled("catalogue")
    packed = b"".join(redelmeier.iter_packed(n, dim, "free"))
    classes = list(SYMMETRY_CLASSES) if dim == 2 else [1, 2, 4, 8, 24, 48]
    for holes in (-1, 0, 1):
        for symmetry in [None, *classes]:
            expected = _catalogue_py.filter_chunk(packed, n, dim, holes, symmetry)
            assert core.filter_chunk(packed, n, dim, holes, symmetry) == expected


def test_filtered_counts_match_oeis(oracle):
    """Free polyominoes with and without holes (A001419, A000104) and one
    symmetry class (A006749), through the compiled filter."""
    holes = oracle("oeis_holes.csv")
    with_holes = next(v for k, v in holes.items() if "with" in k)
    without = next(v for k, v in holes.items() if "without" in k)
    for n in (10, 12):
        assert pf.count(n, holes=True) == with_holes[n - 1]
        assert pf.count(n, holes=False) == without[n - 1]
    classes = oracle("oeis_symmetry_classes.csv")
    none = next(v for k, v in classes.items() if k.startswith("none"))
    assert pf.count(11, symmetry="none") == none[10]
    assert sum(1 for _ in pf.polyominoes(9, holes=True)) == with_holes[8]


@pytest.mark.parametrize(("fmt", "jobs"), [("jsonl", 1), ("txt", 2), ("csv", 1)])
def test_catalogue_to_a_text_only_stdout(tmp_path, fmt, jobs):
    """Standard output replaced by a text stream with no binary buffer
    (contextlib.redirect_stdout, notebooks) gets the same text as a file."""
    import contextlib
    import io

    from polyforms.files.catalogue import write_polyforms

    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        assert write_polyforms(9, None, fmt, kind="free", jobs=jobs) == 1285
    write_polyforms(9, tmp_path / "nine", fmt, kind="free", jobs=jobs)
    assert captured.getvalue() == (tmp_path / "nine").read_text()


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_packed_coordinates_outside_the_box_are_refused(monkeypatch, require_compiled, backend):
    """Both twins refuse a chunk whose coordinates leave 0..n-1 (a disconnected
    Polyform(check=False), bytes made by hand): the kernel indexes its scratch
    buffers by them."""
    from polyforms.files.catalogue import format_packed, pack

    kernel = require_compiled("catalogue") if backend == "compiled" else _catalogue_py
    far = pack([Polyform([(0, 0), (60, 0)], check=False)] * 3)
    good = bytes([0, 0, 0, 1, 0, 0, 2, 0, 0])  # a straight 3D tromino
    negative = bytes([0, 0, 0, 1, 0, 0, 1, 0, 0x80])  # a z of -128
    for fmt in ("txt", "jsonl", "csv"):
        with pytest.raises(ValueError, match="outside 0..1"):
            kernel.format_chunk(far, 2, 2, fmt, "free")
        with pytest.raises(ValueError, match="polyform 1 of the chunk"):
            kernel.format_chunk(good + negative, 3, 3, fmt, "free")
    with pytest.raises(ValueError, match="outside"):
        kernel.filter_chunk(far, 2, 2, 0, None)
    with pytest.raises(ValueError, match="polyform 1 of the chunk"):
        kernel.filter_chunk(good + negative, 3, 3, -1, 1)
    tromino = Polyform([(0, 0, 0), (1, 0, 0), (2, 0, 0)])
    expected = format_polyform(tromino, "csv", "free").encode()
    assert kernel.format_chunk(good, 3, 3, "csv", "free") == expected  # the good one alone
    if backend == "compiled":
        with pytest.raises(ValueError):
            format_packed(far, 2, 2, "jsonl")
