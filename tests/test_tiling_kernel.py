"""The tiling kernel on synthetic instances: both twins, known counts, subtasks."""

from __future__ import annotations

import pytest

from polyforms.errors import PolyformError, TilingError
from polyforms.tiling import _tiling_py


def _backends(require_compiled):
    return [_tiling_py, require_compiled("tiling")]


def dominoes(h: int, w: int):
    """Domino placements in an h x w rectangle, cells numbered down the columns."""

    def index(y, x):
        return x * h + y

    placements, neighbours = [], [[] for _ in range(h * w)]
    for y in range(h):
        for x in range(w):
            if y + 1 < h:
                placements.append((0, (index(y, x), index(y + 1, x))))
            if x + 1 < w:
                placements.append((0, (index(y, x), index(y, x + 1))))
            for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= y + dy < h and 0 <= x + dx < w:
                    neighbours[index(y, x)].append(index(y + dy, x + dx))
    return h * w, placements, neighbours


def fibonacci(n: int) -> int:
    a, b = 1, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def check_cover(ncells, placements, solution):
    covered = [c for p in solution for c in placements[p][1]]
    assert sorted(covered) == list(range(ncells))


# Domino tilings of rectangles: 2 x n gives Fibonacci numbers; 4x4 = 36, 6x6 = 6728,
# 3x4 = 11, 4x5 = 95 (OEIS A004003 for the squares, A099390 for the table).
DOMINO_COUNTS = [((2, n), fibonacci(n)) for n in range(1, 11)] + [
    ((4, 4), 36),
    ((6, 6), 6728),
    ((3, 4), 11),
    ((4, 5), 95),
    ((3, 3), 0),
]


@pytest.mark.parametrize("strategy", ["first", "mrv"])
@pytest.mark.parametrize("shape,expected", DOMINO_COUNTS)
def test_domino_rectangles(require_compiled, shape, expected, strategy):
    n, placements, neighbours = dominoes(*shape)
    results = []
    for kernel in _backends(require_compiled):
        for nb in (None, neighbours):
            search = kernel.TilingSearch(n, placements, [-1], [False], nb, strategy=strategy)
            assert search.count() == expected
            solutions = list(search.solutions())
            for s in solutions:
                check_cover(n, placements, s)
            results.append(solutions)
    assert all(r == results[0] for r in results)  # same solutions, same order
    assert len({tuple(sorted(s)) for s in results[0]}) == expected


def test_multiword_bitsets(require_compiled):
    """Regions above 64 cells span two words: 3 x 22 (66 cells) by dominoes has
    1,542,841 tilings (3 x 2n: 1, 3, 11, 41, ..., a(n) = 4 a(n-1) - a(n-2), A001835)."""
    kernel = require_compiled("tiling")
    n, placements, neighbours = dominoes(3, 22)
    search = kernel.TilingSearch(n, placements, [-1], [False], neighbours)
    assert search.count() == _three_by_even(22)
    assert _three_by_even(22) == 1_542_841


def _three_by_even(width: int) -> int:
    a, b = 1, 3  # widths 0 and 2
    for _ in range(width // 2 - 1):
        a, b = b, 4 * b - a
    return b


def test_branch_splits_the_search(require_compiled):
    n, placements, neighbours = dominoes(4, 6)
    for kernel in _backends(require_compiled):
        search = kernel.TilingSearch(n, placements, [-1], [False], neighbours)
        total = search.count()
        children = search.branch(())
        # the placements covering one cell, the fewest: two at a corner
        assert len(children) == 2 and set(placements[children[0]][1]) & set(
            placements[children[1]][1]
        )
        assert sum(search.count(prefix=(p,)) for p in children) == total
        grandchildren = [(p, q) for p in children for q in search.branch((p,)) or []]
        assert sum(search.count(prefix=pq) for pq in grandchildren) == total
        # A forced start gives exactly the tilings that contain it.
        first = children[0]
        assert all(first in s for s in search.solutions(prefix=(first,)))


def test_limits_and_must_use(require_compiled):
    """Two piece kinds, limits and exact use: 2x3 with one vertical domino piece (0)
    used at most once and horizontal dominoes (1) any number of times."""
    n, placements, _ = dominoes(2, 3)
    vertical = [(0, c) for k, c in placements if c[1] - c[0] == 1]
    horizontal = [(1, c) for k, c in placements if c[1] - c[0] != 1]
    pl = vertical + horizontal
    for kernel in _backends(require_compiled):
        # at most one vertical: tilings V|HH and HH|V
        assert kernel.TilingSearch(n, pl, [1, -1], [False, False]).count() == 2
        # exactly one vertical, exactly two horizontal
        assert kernel.TilingSearch(n, pl, [1, 2], [True, True]).count() == 2
        # no vertical at all: impossible on width 3
        assert kernel.TilingSearch(n, pl, [0, -1], [False, False]).count() == 0


def test_bad_kernel_input(require_compiled):
    for kernel in _backends(require_compiled):
        with pytest.raises(TilingError):
            kernel.TilingSearch(4, [(0, (0, 5))], [1], [True])
        with pytest.raises(TilingError):
            kernel.TilingSearch(4, [(1, (0, 1))], [1], [True])
        with pytest.raises(TilingError):
            kernel.TilingSearch(2, [(0, (0, 1))], [1], [True], strategy="sideways")
        with pytest.raises(TilingError):
            kernel.TilingSearch(2, [(0, (0, 1)), (0, (0,))], [-1], [False], initial=[0, 1])


@pytest.mark.parametrize("shuffled", [False, True])
@pytest.mark.parametrize("strategy", ["first", "mrv"])
def test_twins_agree_on_a_box(require_compiled, strategy, shuffled):
    """Solid pieces in a box (the MRV kernel keeps per-level sets of fitting
    placements, as bitsets when the placements come piece by piece, as lists
    otherwise): same solutions, same order, same node count in both twins."""
    import random

    from polyforms import tile

    problem = tile("2x3x4", "soma", counts={"V": 0}, strategy=strategy)
    _, arguments, _ = problem.searches.over()
    ncells, placements, limits, must, neighbours, _, flood_cap = arguments
    if shuffled:
        placements = list(placements)
        random.Random(5).shuffle(placements)
    runs = []
    for kernel in _backends(require_compiled):
        search = kernel.TilingSearch(
            ncells, placements, limits, must, neighbours, strategy=strategy, flood_cap=flood_cap
        )
        solutions = list(search.solutions())
        runs.append((solutions, search.count(), search.nodes, search.branch()))
    assert runs[0] == runs[1]
    assert runs[0][1] == len(runs[0][0]) > 0
    for solution in runs[0][0]:
        check_cover(ncells, placements, solution)


def unfinished(search, prefix, path) -> list[tuple[int, ...]]:
    """The prefixes whose subtrees hold what a count from ``prefix``, stopped at
    ``path`` (its ``stopped_at``), has not counted: the node it stopped at, and
    the children after the path's at each level above it (``branch`` gives the
    children in the order the search takes them)."""
    prefix, path = tuple(prefix), tuple(path)
    left = [prefix + path]
    for level in range(len(path)):
        node = prefix + path[:level]
        siblings = list(search.branch(node) or ())
        left += [node + (p,) for p in siblings[siblings.index(path[level]) + 1 :]]
    return left


def _pictured(rows: list[str], pieces: str, **copies):
    """The kernel arguments of a pictured region tiled by a named set."""
    from polyforms import tile

    problem = tile("\n".join(rows), pieces, **copies)
    _, arguments, _ = problem.searches.over()
    return arguments


_DOMINO_TROMINOES = "AA\n\nBBB\n\nCC\nC."

# One-word boards (at most 64 cells: the compiled twin's bit-parallel fast path, whose
# neighbour offsets vary where a hole interrupts the columns) and a 66-cell board
# (several words: the general path; searched below a prefix to stay small).
_BOARDS = [
    (["#####", "#####", "##.##", "#####", "#####"], "tetrominoes", {"reuse": True}),
    (["########", "###..###", "###..###", "########"], "tetrominoes", {"reuse": True}),
    (["#" * 6] * 4, "free:3", {"reuse": True}),
    (["#" * 5] * 5, "free:5", {"reuse": True}),
    (["#" * 5] * 4, "pentominoes", {"optional": True}),
    (["#" * 33] * 2, "free:3", {"reuse": True}),
    (["2x3x4"], "soma", {"counts": {"V": 0}}),  # a box: branching on the fewest options
    (["2x2x5"], "free:4", {"reuse": True}),
    # Rows of eight cells down to one: a different offset below each row, more than
    # the unrolled shift form holds (the compiled twin's loop form).
    (["#" * k for k in range(8, 0, -1)], "free:3", {"reuse": True}),
    # Dominoes among the pieces: a lone cell is dead, a pair is not.
    (["#" * 6] * 4, _DOMINO_TROMINOES, {"reuse": True}),
]


@pytest.mark.parametrize("board", range(len(_BOARDS)))
@pytest.mark.parametrize("flood_cap", [0, 1, 2, 3, 5, 9, 64])
def test_twins_agree_on_area_pruning(require_compiled, board, flood_cap):
    """Same solutions, order and node count in both twins for every flood cap;
    measuring more areas prunes more but never changes the tilings."""
    rows, pieces, copies = _BOARDS[board]
    arguments = _pictured(rows, pieces, **copies)
    ncells, placements, limits, must, neighbours, strategy, _ = arguments[:7]
    minimums = getattr(arguments, "minimums", None)
    prefix = []
    if ncells > 64:
        whole = _tiling_py.TilingSearch(ncells, placements, limits, must, minimums=minimums)
        first = next(whole.solutions())
        prefix = [p for p in first if max(placements[p][1]) < ncells - 14]
    runs = []
    for kernel in _backends(require_compiled):
        search = kernel.TilingSearch(
            ncells, placements, limits, must, neighbours, strategy=strategy, flood_cap=flood_cap,
            minimums=minimums,
        )  # fmt: skip
        solutions = list(search.solutions(prefix=prefix))
        runs.append((solutions, search.count(prefix=prefix), search.nodes))
    assert runs[0] == runs[1]
    unpruned = _tiling_py.TilingSearch(
        ncells, placements, limits, must, strategy=strategy, minimums=minimums
    )
    assert unpruned.count(prefix=prefix) == runs[0][1] > 0
    assert unpruned.nodes >= runs[0][2]


@pytest.mark.parametrize("board", range(len(_BOARDS)))
def test_restrict_searches_as_a_kernel_without_them(require_compiled, board):
    """A kernel restricted to some placements searches as one built from those alone
    (the tilings in the same order, the same node count), in both twins, as the
    restricted searches of symmetry breaking use it; then the twins agree on the
    whole search again."""
    rows, pieces, copies = _BOARDS[board]
    arguments = _pictured(rows, pieces, **copies)
    ncells, placements, limits, must, neighbours, strategy, flood_cap = arguments[:7]
    options = dict(strategy=strategy, flood_cap=flood_cap,
                   minimums=getattr(arguments, "minimums", None))  # fmt: skip
    # Two thirds of the first piece's placements left out, as a breaker's are.
    breaker = placements[0][0]
    excluded = [p for p, (piece, _) in enumerate(placements) if piece == breaker and p % 3]
    kept = [p for p in range(len(placements)) if p not in set(excluded)]
    alone_placements = [placements[p] for p in kept]
    prefix = []
    if ncells > 64:  # searched below a prefix to stay small
        first = next(_tiling_py.TilingSearch(ncells, alone_placements, limits, must).solutions())
        prefix = [p for p in first if max(alone_placements[p][1]) < ncells - 14]
    whole_prefix = [kept[i] for i in prefix]
    runs = []
    for kernel in _backends(require_compiled):
        whole = kernel.TilingSearch(ncells, placements, limits, must, neighbours, **options)
        alone = kernel.TilingSearch(ncells, alone_placements, limits, must, neighbours, **options)
        expected = [[kept[i] for i in s] for s in alone.solutions(prefix=prefix)]
        whole.restrict(excluded)
        found = list(whole.solutions(prefix=whole_prefix))
        assert found == expected
        assert whole.count(prefix=whole_prefix) == alone.count(prefix=prefix) == len(expected)
        assert whole.nodes == alone.nodes
        with pytest.raises(TilingError):
            whole.count(prefix=[excluded[0]])
        whole.restrict()
        runs.append((found, whole.count(prefix=whole_prefix), whole.nodes))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("memo", [False, True])
@pytest.mark.parametrize("board", range(len(_BOARDS)))
def test_a_count_stopped_after_some_nodes_leaves_a_rest_that_adds_up(require_compiled, board, memo):
    """``count(nodes=K)`` stops before entering node K + 1, in both twins at the same
    node; the node it stopped at and the later children above it (:func:`unfinished`)
    count the remaining tilings, and cutting again the same way adds up to the
    whole count (as split counts do with a subtask that runs long). With the memo
    (free pieces), each cut run starts from an empty memo, as a fresh worker does:
    a kernel's memo outlives its counts, so counting the same node again takes
    one node."""
    rows, pieces, copies = _BOARDS[board]
    arguments = _pictured(rows, pieces, **copies)
    ncells, placements, limits, must, neighbours, strategy, flood_cap = arguments[:7]
    options = dict(strategy=strategy, flood_cap=flood_cap,
                   minimums=getattr(arguments, "minimums", None))  # fmt: skip
    prefix: list[int] = []
    if ncells > 64:  # searched below a prefix to stay small
        first = next(_tiling_py.TilingSearch(ncells, placements, limits, must).solutions())
        prefix = [p for p in first if max(placements[p][1]) < ncells - 14]
    stops = []
    for kernel in _backends(require_compiled):

        def fresh(kernel=kernel):
            made = kernel.TilingSearch(ncells, placements, limits, must, neighbours, **options)
            made.memo = memo
            return made

        search = fresh()
        total = search.count(prefix=prefix)
        assert search.stopped_at is None
        whole_nodes = search.nodes
        if memo and search.memo_ok:
            assert search.count(prefix=prefix) == total and search.nodes == 1
        search = fresh()
        assert search.count(prefix=prefix, nodes=0) == 0 and search.stopped_at == ()
        search = fresh()  # a budget past a 64-bit counter is no limit (not an OverflowError)
        assert search.count(prefix=prefix, nodes=1 << 70) == total and search.stopped_at is None
        for budget in (5, whole_nodes // 5, whole_nodes // 2):
            search = fresh()
            pending, found, pieces_run = [tuple(prefix)], 0, 0
            while pending:
                node = pending.pop()
                found += search.count(prefix=node, nodes=budget)
                pieces_run += 1
                assert search.nodes <= budget
                if search.stopped_at is not None:
                    pending.extend(unfinished(search, node, search.stopped_at))
            assert found == total, budget
            assert pieces_run > 1
        search = fresh()
        reported: list[float] = []
        search.count(prefix=prefix, progress=reported.append, nodes=whole_nodes // 3)
        assert 1.0 not in reported  # a stopped count is not finished
        stops.append((search.nodes, search.stopped_at))
        search.count(prefix=prefix, nodes=whole_nodes)
        assert search.stopped_at is None  # the whole search fits: it finishes
    assert stops[0] == stops[1]
    with pytest.raises(TilingError):
        search.count(nodes=-1)


@pytest.mark.parametrize("board,pieces,copies,whole", [
    (["#" * 10] * 6, "pentominoes", {}, True),
    (["#" * 10] * 10, "pentominoes", {"reuse": True}, False),  # the memo's count
])  # fmt: skip
def test_a_count_told_to_stop_stops_where_a_budget_would(
    require_compiled, board, pieces, copies, whole
):
    """``count(stop=f)`` asks ``f()`` every STOP_CHUNK nodes and stops at once when
    it says so: at the node a budget of that many nodes stops at, in both twins;
    the rest then adds up to the whole count."""
    arguments = _pictured(board, pieces, **copies)
    ncells, placements, limits, must, neighbours, strategy, flood_cap = arguments[:7]
    prefix: tuple[int, ...] = ()
    if whole:  # below two placements of a tiling, to stay small
        first = next(_tiling_py.TilingSearch(ncells, placements, limits, must).solutions())
        prefix = tuple(first[:2])
    chunk = _tiling_py.STOP_CHUNK
    runs: list[list] = []
    for kernel in _backends(require_compiled):
        search = kernel.TilingSearch(ncells, placements, limits, must, neighbours,
                                     strategy=strategy, flood_cap=flood_cap)  # fmt: skip
        assert search.memo_ok != whole
        runs.append([])
        asked: list = []

        def second_time(asked=asked):
            asked.append(1)
            return len(asked) == 2

        found = search.count(prefix=prefix, stop=second_time)
        stopped = (found, search.nodes, search.stopped_at)
        assert search.nodes == 2 * chunk and len(asked) == 2
        search.restrict()  # a fresh memo, as the first count had
        assert search.count(prefix=prefix, nodes=2 * chunk) == found
        assert (search.nodes, search.stopped_at) == stopped[1:]
        runs[-1].append(stopped)
        if not whole:
            continue
        total = search.count(prefix=prefix, stop=lambda: False)
        assert search.stopped_at is None and search.nodes > 3 * chunk
        pending, count = [prefix], 0
        while pending:
            node = pending.pop()
            count += search.count(prefix=node, stop=lambda: True)
            assert search.nodes <= chunk
            if search.stopped_at is not None:
                pending.extend(unfinished(search, node, search.stopped_at))
        assert count == total
        runs[-1].append(total)
    assert runs[0] == runs[1]


# Tilings of k x 3n rectangles by trominoes of both shapes, any number of each
# (OEIS A233339, A233340, A233343): counts in the billions and beyond, which the
# memo of free-piece counts reaches in a few thousand nodes. 4x18, 5x15 and 7x12
# take two words a board.
TROMINO_COUNTS = [
    ("4x12", 1895145),
    ("4x18", 3924499731),
    ("4x21", 178682349823),
    ("5x12", 198253934),
    ("5x15", 31111319376),
    ("7x9", 1064557805),
    ("7x12", 1949314526229),
    # past 2**64 - 1: the sweep widens its ways, the memoized search refuses
    ("4x48", 150280779093325614402294089),
    ("5x30", 2979300461790704311162),
    ("5x42", 1816295465197137076501207582877),
    ("7x27", 43734844458505039459034141789),
]


@pytest.mark.parametrize("region,expected", TROMINO_COUNTS)
def test_memo_counts_tromino_rectangles(require_compiled, region, expected):
    """The count (by the sweep over boards, in one thread and two) and the
    memoized depth-first search."""
    from polyforms import tile

    require_compiled("tiling")
    problem = tile(region, "free:3", reuse=True)
    assert problem.count() == expected
    assert problem.count(jobs=2) == expected
    search = problem.searches.over().search
    if expected >> 64:
        with pytest.raises(TilingError, match="POLYFORMS_BACKEND=python"):
            search.count()
    else:
        assert search.count() == expected
    assert search.nodes < 100_000  # the memo at work: the tree has billions of nodes


def test_counts_past_64_bits(require_compiled, in_process, monkeypatch):
    """5x27 by trominoes has 18,960,353,496,615,710,993 tilings (OEIS A233340), more
    than a 64-bit count holds: the compiled depth-first search says so instead of
    wrapping around; the count, by the sweep over boards (which widens its
    ways), and the Python twin, whose integers have no limit, count them. A
    count that splits (with --dask too), or takes the search for want of
    memory for the sweep, counts a subtree past the kernel's counter child by
    child, exactly."""
    from polyforms import tile
    from polyforms.errors import CountOverflowError
    from polyforms.tiling import count_exactly
    from polyforms.tiling.engines import make_search

    compiled = require_compiled("tiling")
    exact = 18960353496615710993
    assert tile("5x24", "free:3", reuse=True).count() == 120664440361104580
    spec = tile("5x27", "free:3", reuse=True).searches.over().spec
    search = make_search(spec)
    assert isinstance(search, compiled.TilingSearch)
    with pytest.raises(CountOverflowError, match="POLYFORMS_BACKEND=python"):
        search.count()
    assert count_exactly(search) == exact
    # 2 x 100 by dominoes: Fibonacci(101) tilings, past 2**63 - 1 in every subtask
    # the plan makes of the whole tree; each hands its children back until they count.
    split = in_process()
    whole = tile("2x100", "free:2", reuse=True).count(symmetry=False, executor=split)
    assert whole == 573147844013817084101
    # the children handed back (ids "<task>.c<k>") ran as subtasks too
    assert any(".c" in task.id for task in split.ran)
    # --distinct: the mirror across the long side fixes every tiling, so Burnside's
    # fixed counts pass it too. A tiling is a row of | and = (2 x 1, 2 x 2): the
    # mirror end to end fixes the palindromes, F(51) + F(50) of them (an = at the
    # middle or not), and so does the half turn: (2 F(101) + 2 F(52)) / 4.
    f = [0, 1]
    while len(f) < 102:
        f.append(f[-1] + f[-2])
    assert tile("2x100", "free:2", reuse=True).count(distinct=True) == (f[101] + f[52]) // 2
    assert tile("5x27", "free:3", reuse=True).count() == exact
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    assert tile("5x27", "free:3", reuse=True).count() == 18960353496615710993


@pytest.mark.parametrize("strategy", ["first", "mrv"])
@pytest.mark.parametrize(
    "region,pieces", [("4x6", "free:3"), ("3x8", "fixed:4"), ("2x3x4", "free:3"), ("5x6", "free:3")]
)
@pytest.mark.parametrize("entries", [None, 3, 40])
def test_twins_agree_with_the_memo(require_compiled, region, pieces, strategy, entries):
    """Counts with free pieces memoize in both twins by the same rules: the same
    count and node count, also when the memo fills up and starts over (a few
    boards only), and the same count as the whole tree without the memo."""
    from polyforms import tile

    arguments = tile(region, pieces, reuse=True, strategy=strategy).searches.over().spec
    ncells, placements, limits, must, neighbours, _, flood_cap = arguments[:7]
    runs = []
    for kernel in _backends(require_compiled):
        search = kernel.TilingSearch(
            ncells, placements, limits, must, neighbours, strategy=strategy, flood_cap=flood_cap
        )
        assert search.memo and search.memo_min_empty == 2 * max(len(c) for _, c in placements)
        if entries is not None:
            search.memo_entries = entries
        found = search.count()
        runs.append((found, search.nodes))
        search.memo = False
        assert search.count() == found
        assert search.nodes > runs[-1][1]  # the whole tree
    assert runs[0] == runs[1]


def test_the_memo_takes_most_of_the_free_memory_unless_told(monkeypatch):
    """limits.memo_bytes: three quarters of what the machine can give, shared by
    the worker processes of a run, at least the old fixed 128 MiB; POLYFORMS_MEMO
    sets it."""
    from polyforms import limits

    monkeypatch.delenv("POLYFORMS_MEMO", raising=False)
    monkeypatch.setattr(limits, "available_memory", lambda: 16 << 30)
    assert limits.memo_bytes() == 12 << 30
    monkeypatch.setattr(limits, "memo_sharers", 2)
    assert limits.memo_bytes() == 6 << 30
    monkeypatch.setattr(limits, "available_memory", lambda: 0)  # not known
    assert limits.memo_bytes() == limits.MEMO_LEAST == 128 << 20
    sizes = {"4G": 4 << 30, "512m": 512 << 20, "1.5GiB": 3 << 29, "300000": 300000, "2kb": 2048}
    for text, size in sizes.items():
        monkeypatch.setenv("POLYFORMS_MEMO", text)
        assert limits.memo_bytes() == size
    for text in ["lots", "-1G", "nan", "G", "9999999T", "4 G B"]:
        monkeypatch.setenv("POLYFORMS_MEMO", text)
        with pytest.raises(PolyformError, match="POLYFORMS_MEMO must be a size"):
            limits.memo_bytes()


@pytest.mark.parametrize("words", [1, 2, 5])
def test_memo_entries_fit_their_memory(words):
    """The boards a memo may hold: a power of two whose table, while it doubles for
    the last time (old and new: three slots a board), fits the budget; up to a
    petabyte without overflow (the compiled kernel once doubled a C int)."""
    from polyforms import limits

    slot = (words + 2) * 8
    for budget in (0, 1000, 128 << 20, 12 << 30, 1 << 50):
        entries = limits.memo_entries(words, budget)
        assert entries >= 1 and entries & (entries - 1) == 0
        assert entries == 1 or 3 * entries * slot <= budget
        assert 3 * 2 * entries * slot > budget
    assert limits.memo_entries(2, 12 << 30) == 1 << 27  # 10x10: 130 million boards


def test_a_count_keeps_its_memo_to_the_memory_given(require_compiled, monkeypatch):
    """Both twins size the memo by limits.memo_entries; in too little memory the
    count starts its memo over, visits more nodes, and finds the same number. A
    search without the memo never reads the setting."""
    from polyforms import limits, tile

    monkeypatch.delenv("POLYFORMS_MEMO", raising=False)
    roomy = tile("5x7", "pentominoes", reuse=True).searches.over().search
    tilings = roomy.count()
    monkeypatch.setenv("POLYFORMS_MEMO", "2K")
    for kernel in _backends(require_compiled):
        arguments = tile("2x12", "free:3", reuse=True).searches.over().spec
        search = kernel.TilingSearch(*arguments[:5], flood_cap=arguments[6])
        assert search.memo_ok and search.memo_entries == limits.memo_entries(1, 2048) == 16
    tight = tile("5x7", "pentominoes", reuse=True).searches.over().search
    assert tight.memo_entries == limits.memo_entries(1, 2048)
    assert tight.count() == tilings and tight.nodes > 10 * roomy.nodes
    monkeypatch.setenv("POLYFORMS_MEMO", "lots")
    assert tile("6x10", "pentominoes").count() == 2339 * 4


class _Alarm(Exception):
    pass


def test_a_count_interrupted_while_its_memo_doubles_counts_right_after(require_compiled):
    """The compiled memo doubles its table between two runs of the search, a
    slice at a time, looking at signals in between (a table of gigabytes takes
    seconds to double, Ctrl-C must not wait): a signal handler that raises
    there drops the new table and keeps the old. Counts cut short by a timer,
    some of them inside a doubling, leave a memo from which the next count
    finds the same number as a kernel never interrupted."""
    import random
    import signal
    import traceback

    from polyforms import tile

    kernel = require_compiled("tiling")
    arguments = tile("7x10", "pentominoes", reuse=True).searches.over().spec

    def fresh():
        return kernel.TilingSearch(*arguments[:5], strategy=arguments[5], flood_cap=arguments[6])

    whole = fresh().count()
    assert whole == 756_605_877_809  # BENCHMARKS: an independent transfer count agrees

    def ring(signum, frame):
        raise _Alarm

    previous = signal.signal(signal.SIGALRM, ring)
    search, draw = fresh(), random.Random(7)
    cut = in_doubling = counted = running = 0
    try:
        for _ in range(2000):
            # Each cut in a row waits longer (a doubling that takes longer than
            # the timer would otherwise be cut for ever).
            running += 1
            signal.setitimer(signal.ITIMER_REAL, running * draw.uniform(0.0005, 0.02))
            try:
                found = search.count()
                signal.setitimer(signal.ITIMER_REAL, 0)
            except _Alarm as stop:
                cut += 1
                names = [frame.name for frame in traceback.extract_tb(stop.__traceback__)]
                in_doubling += any(name.endswith("_memo_grow") for name in names)
                continue
            assert found == whole, (cut, in_doubling)
            counted += 1
            running = 0
            if in_doubling >= 3:
                break
            search = fresh()  # again, for more cuts inside a doubling
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert in_doubling >= 3 and counted >= 1, (cut, in_doubling, counted)


def test_memo_only_with_free_pieces(require_compiled):
    """A piece of limited copies makes the copies left part of the state: no memo,
    the same nodes with it on or off."""
    from polyforms import tile

    arguments = tile("4x6", "free:3", counts={"1": (0, 3)}, reuse=True).searches.over().spec
    ncells, placements, limits, must, neighbours, strategy, flood_cap = arguments[:7]
    for kernel in _backends(require_compiled):
        search = kernel.TilingSearch(
            ncells, placements, limits, must, neighbours, strategy=strategy,
            flood_cap=flood_cap, minimums=arguments.minimums,
        )  # fmt: skip
        assert not search.memo_ok
        found = search.count()
        nodes = search.nodes
        search.memo = False
        assert (search.count(), search.nodes) == (found, nodes)


def test_restrict_forgets_the_memo(require_compiled):
    """Counts remembered before :meth:`restrict` are not used after it: each
    restricted count equals a fresh kernel's, and so does the whole again."""
    from polyforms import tile

    arguments = tile("4x6", "free:3", reuse=True).searches.over().spec
    ncells, placements, limits, must, neighbours, strategy, flood_cap = arguments[:7]
    options = dict(strategy=strategy, flood_cap=flood_cap)
    for kernel in _backends(require_compiled):
        search = kernel.TilingSearch(ncells, placements, limits, must, neighbours, **options)
        whole = search.count()
        for k in (2, 3, 5):
            excluded = [p for p in range(len(placements)) if p % k == 0]
            fresh = kernel.TilingSearch(ncells, placements, limits, must, neighbours, **options)
            fresh.restrict(excluded)
            search.restrict(excluded)
            assert search.count() == fresh.count() < whole
        search.restrict()
        assert search.count() == whole


@pytest.mark.parametrize("region", ["4x6", "5x6"])
def test_isolated_pairs(require_compiled, region):
    """Flood caps 2 and 3 catch an empty area of two or three cells only when no
    piece can fill it: with dominoes and trominoes among the pieces they prune
    nothing more than cap 1; once :meth:`restrict` leaves out every domino, pairs
    are dead, as in a kernel built without them. Both twins alike (the compiled
    one tests with shifts)."""
    from polyforms import tile

    arguments = tile(region, _DOMINO_TROMINOES, reuse=True).searches.over().spec
    ncells, placements, limits, must, neighbours, strategy = arguments[:6]
    dominoes = [p for p, (_, cells) in enumerate(placements) if len(cells) == 2]
    others = [placements[p] for p in range(len(placements)) if p not in set(dominoes)]
    runs = []
    for kernel in _backends(require_compiled):
        seen = []
        for cap in (1, 2, 3):
            search = kernel.TilingSearch(
                ncells, placements, limits, must, neighbours, strategy=strategy, flood_cap=cap
            )
            whole = (search.count(), search.nodes)
            search.restrict(dominoes)
            restricted = (search.count(), search.nodes)
            alone = kernel.TilingSearch(
                ncells, others, limits, must, neighbours, strategy=strategy, flood_cap=cap
            )
            assert restricted == (alone.count(), alone.nodes)
            seen.append((whole, restricted))
        (whole1, restricted1), (whole2, restricted2), (whole3, restricted3) = seen
        assert whole1 == whole2 == whole3  # dominoes and trominoes: nothing to prune
        assert restricted1[0] == restricted2[0] > 0
        assert restricted2[1] < restricted1[1]  # pairs now dead: fewer nodes
        assert restricted3 == restricted2  # three cells still take a tromino
        runs.append(seen)
    assert runs[0] == runs[1]


def test_small_areas_on_a_graph_with_triangles(require_compiled):
    """On a grid of triangles (cells joined across, down and down to the right), an
    empty area of three cells can be a triangle, which the compiled twin's shift
    test for three-cell areas (paths only) would miss: it floods instead, and the
    twins agree, with cap 3 pruning more than cap 1."""
    from itertools import combinations

    rows, cols = 4, 4
    ncells = rows * cols
    neighbours = [set() for _ in range(ncells)]
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1)):
                if r + dr < rows and c + dc < cols:
                    neighbours[r * cols + c].add((r + dr) * cols + c + dc)
                    neighbours[(r + dr) * cols + c + dc].add(r * cols + c)

    def connected(cells):
        seen, todo = {cells[0]}, [cells[0]]
        while todo:
            for q in neighbours[todo.pop()] & set(cells) - seen:
                seen.add(q)
                todo.append(q)
        return len(seen) == len(cells)

    # Every connected set of four cells, reused freely: areas of 1, 2 and 3 are dead.
    placements = [(0, cells) for cells in combinations(range(ncells), 4) if connected(cells)]
    neighbour_lists = [sorted(n) for n in neighbours]
    runs = []
    for kernel in _backends(require_compiled):
        seen = []
        for cap in (1, 3):
            search = kernel.TilingSearch(
                ncells, placements, [-1], [False], neighbour_lists, flood_cap=cap
            )
            search.memo = False
            seen.append((list(search.solutions()), search.count(), search.nodes))
        assert seen[0][:2] == seen[1][:2] and seen[0][1] > 0
        assert seen[1][2] < seen[0][2]
        runs.append(seen)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("board", range(len(_BOARDS)))
def test_twins_probe_alike(require_compiled, board):
    """Knuth's probes walk the same random paths in both twins (their own
    generator, the children of :meth:`branch` in order), so the estimates are
    equal; a seed gives the same estimate twice and another seed another one."""
    rows, pieces, copies = _BOARDS[board]
    arguments = _pictured(rows, pieces, **copies)
    ncells, placements, limits, must, neighbours, strategy, flood_cap = arguments[:7]
    options = dict(strategy=strategy, flood_cap=flood_cap,
                   minimums=getattr(arguments, "minimums", None))  # fmt: skip
    estimates = []
    for kernel in _backends(require_compiled):
        search = kernel.TilingSearch(ncells, placements, limits, must, neighbours, **options)
        child = search.branch()[0]
        found = [search.probe((), 30, seed) for seed in (0, 1, 2**64 - 1)]
        assert search.probe((), 30, -1) == found[2]  # seeds are taken modulo 2^64
        found.append(search.probe((child,), 30, 5))
        assert search.probe((), 30, 1) == found[1]
        assert len(set(found[:3])) > 1
        with pytest.raises(TilingError):
            search.probe((), 0)
        estimates.append(found)
    assert estimates[0] == pytest.approx(estimates[1], rel=1e-12)


def test_twins_agree_where_counts_are_wide(require_compiled):
    """On a one-word box whose cells are covered by more than 255 placements the
    compiled twin counts fitting placements in 16 bits a cell, then in 8 once all
    fit: random walks from the root (through both widths) and a search below a
    prefix agree with the Python twin's, as do the pieces branched on."""
    from polyforms import tile

    search, arguments, _ = tile("3x4x5", "solid-pentominoes").searches.over()
    ncells, placements, limits, must, neighbours, strategy, flood_cap = arguments[:7]
    per_cell = [0] * ncells
    for _, cells in placements:
        for c in cells:
            per_cell[c] += 1
    assert max(per_cell) > 255 and strategy == "mrv"
    runs = []
    for kernel in _backends(require_compiled):
        search = kernel.TilingSearch(
            ncells, placements, limits, must, neighbours, strategy=strategy, flood_cap=flood_cap
        )
        root = search.branch()
        first = next(iter(search.solutions()))
        found = (search.count(prefix=first[:5]), search.nodes)
        walks = [search.probe((), 20, seed) for seed in (1, 2)]
        runs.append((root, search.branch(root[:1]), walks, first, found))
    assert runs[0] == runs[1]
    assert len(runs[0][0]) == 12  # the root branches on the piece with 12 placements
    assert runs[0][4][0] >= 1 and runs[0][4][1] > 100


@pytest.mark.parametrize("region,pieces,copies", [
    ("4x7", "tetrominoes", {"counts": {"I": 2, "L": 2, "O": 1, "S": 1, "T": 1}}),
    ("2x3x4", "soma", {"counts": {"V": 0}}),
])  # fmt: skip
def test_kernel_probes_are_unbiased(require_compiled, region, pieces, copies):
    """The mean of many probes comes within a few percent of the nodes the search
    visits (the same tree: children that fit and leave no dead area)."""
    from polyforms import tile

    search, _, _ = tile(region, pieces, **copies).searches.over()
    search.count()
    nodes = search.nodes
    assert nodes > 1000
    assert search.probe((), 20_000, 11) == pytest.approx(nodes, rel=0.05)
