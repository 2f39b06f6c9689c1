"""Exact cover: random instances against a brute-force enumerator, both backends."""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polyforms as pf
from polyforms._backend import compiled
from polyforms.errors import ExactCoverError, PolyformError, WrongTypeError
from polyforms.exactcover import _exactcover_py as twin_core
from polyforms.exactcover import cores, subtasks
from polyforms.exactcover.problem import ExactCover

HAVE_CORE = compiled("_dlx") is not None and compiled("_xcbits") is not None
# The two compiled cores, forced; "compiled" (the default) picks one of them.
COMPILED = ["dlx", "bitset"] if HAVE_CORE else []
BACKENDS = ["python", *COMPILED]


def fits(backend, xc):
    """Can ``backend`` run ``xc``? The bitset core takes no multiplicities."""
    return backend != "bitset" or xc.flat.once_each()


def backends_for(xc):
    return [b for b in BACKENDS if fits(b, xc)]


def forced_options(xc):
    """The option numbers of the problem's forced choices."""
    return [xc.choices.index(choice) for choice in xc.initial]


KNUTH = {
    "A": [1, 4, 7],
    "B": [1, 4],
    "C": [4, 5, 7],
    "D": [3, 5, 6],
    "E": [2, 3, 6, 7],
    "F": [2, 7],
}


def brute_force(choices, secondary=(), multiplicity=None, initial=()):
    """Every subset of the choices that is a solution, by the definition.

    A solution satisfies every primary constraint within its bounds, every
    secondary one at most its bound, and each choice that is not forced
    satisfies at least one primary constraint (as in Knuth's programs).
    """
    secondary = set(secondary)
    multiplicity = multiplicity or {}
    constraints = {c for cs in choices.values() for c in cs} | secondary
    bounds = {}
    for c in constraints:
        value = multiplicity.get(c, 1)
        if isinstance(value, tuple):
            bounds[c] = value
        else:
            bounds[c] = (0, value) if c in secondary else (value, value)
    keys = list(choices)
    free = [k for k in keys if k not in initial]
    found = set()
    for size in range(len(free) + 1):
        for subset in itertools.combinations(free, size):
            if any(all(c in secondary for c in choices[k]) for k in subset):
                continue
            chosen = list(initial) + list(subset)
            used = Counter(c for k in chosen for c in choices[k])
            if all(
                (0 if c in secondary else lo) <= used[c] <= hi for c, (lo, hi) in bounds.items()
            ):
                found.add(frozenset(chosen))
    return found


def assert_is_cover(xc, solution):
    used = Counter(c for choice in solution for c in xc.constraints_of(choice))
    for c in xc.constraints:
        lo, hi = xc.bounds(c)
        assert lo <= used[c] <= hi, (c, used[c], (lo, hi))
    assert len(set(solution)) == len(solution)
    positions = [xc.choices.index(choice) for choice in solution]
    assert positions == sorted(positions)  # documented order: order given


@st.composite
def instances(draw):
    n_items = draw(st.integers(1, 6))
    n_choices = draw(st.integers(0, 9))
    choices = {
        f"c{k}": sorted(draw(st.sets(st.integers(0, n_items - 1), min_size=1, max_size=n_items)))
        for k in range(n_choices)
    }
    items = sorted({c for cs in choices.values() for c in cs})
    secondary = draw(st.sets(st.sampled_from(items))) if items else set()
    multiplicity = {}
    for c in items:
        kind = draw(st.integers(0, 4))
        if kind == 1:
            multiplicity[c] = draw(st.integers(1, 3))
        elif kind == 2:
            hi = draw(st.integers(1, 3))
            lo = 0 if c in secondary else draw(st.integers(0, hi))
            multiplicity[c] = (lo, hi)
    initial = draw(st.lists(st.sampled_from(sorted(choices)), max_size=2)) if choices else []
    return choices, secondary, multiplicity, list(dict.fromkeys(initial))


@settings(max_examples=300, deadline=None)
@given(instances())
def test_random_instances_against_brute_force(instance):
    choices, secondary, multiplicity, initial = instance
    xc = pf.ExactCover(choices, secondary=secondary, multiplicity=multiplicity, initial=initial)
    expected = brute_force(choices, secondary, multiplicity, initial)
    for backend in backends_for(xc) + (["compiled"] if HAVE_CORE else []):
        solutions = list(xc.solutions(backend=backend))
        for solution in solutions:
            assert_is_cover(xc, solution)
        assert {frozenset(s) for s in solutions} == expected
        assert len(solutions) == len(expected)  # each solution once
        assert xc.count(backend=backend) == len(expected)
    seeded = [sorted(map(sorted, xc.solutions(random=7, backend=b))) for b in backends_for(xc)]
    assert all(s == sorted(map(sorted, expected)) for s in seeded)


@settings(max_examples=150, deadline=None)
@given(instances(), st.integers(0, 3))
def test_split_partitions_the_solutions(instance, depth):
    choices, secondary, multiplicity, initial = instance
    xc = pf.ExactCover(choices, secondary=secondary, multiplicity=multiplicity, initial=initial)
    whole = Counter(frozenset(s) for s in xc.solutions(backend="python"))
    pieces = Counter()
    for forced, excluded in xc.split(depth):
        for backend in backends_for(xc):
            part = [frozenset(s) for s in xc.solutions(initial=forced, excluded=excluded,
                                                       backend=backend)]  # fmt: skip
            assert xc.count(initial=forced, excluded=excluded, backend=backend) == len(part)
        pieces.update(part)
    assert pieces == whole


@pytest.mark.parametrize("backend", BACKENDS)
def test_knuth_example(backend):
    xc = pf.ExactCover(KNUTH)
    assert next(iter(xc)) == ["B", "D", "F"]
    assert xc.first(backend=backend) == ["B", "D", "F"]
    assert xc.count(backend=backend) == 1
    assert list(xc.solutions(backend=backend, limit=10, random=3)) == [["B", "D", "F"]]
    twice = pf.ExactCover(KNUTH, multiplicity={7: 2})
    if fits(backend, twice):
        assert twice.first(backend=backend) == ["A", "D", "F"]
    else:
        with pytest.raises(ExactCoverError, match="without multiplicities"):
            twice.first(backend=backend)
    some = pf.ExactCover(KNUTH, secondary=[5])
    assert sorted(some.solutions(backend=backend)) == [["B", "D", "F"], ["B", "E"]]


@pytest.mark.parametrize("backend", BACKENDS)
def test_limit_and_first(backend):
    xc = pf.ExactCover({k: [k % 3] for k in range(9)})  # 3 * 3 * 3 solutions
    assert xc.count(backend=backend) == 27
    assert xc.count(limit=5, backend=backend) == 5
    assert xc.count(limit=0, backend=backend) == 0
    assert len(list(xc.solutions(limit=4, backend=backend))) == 4
    assert list(xc.solutions(limit=0, backend=backend)) == []
    assert xc.first(backend=backend) == [0, 1, 2]
    if backend != "bitset":
        assert pf.ExactCover({"x": ["a"]}, multiplicity={"a": 2}).first(backend=backend) is None


@pytest.mark.parametrize("backend", BACKENDS)
def test_random_order_is_reproducible_and_differs(backend):
    xc = pf.ExactCover({(k, j): [k, 10 + j] for k in range(5) for j in range(5)})  # 120
    plain = list(xc.solutions(backend=backend))
    a = list(xc.solutions(random=1, backend=backend))
    b = list(xc.solutions(random=1, backend=backend))
    c = list(xc.solutions(random=2, backend=backend))
    assert a == b
    assert a != plain and a != c
    assert sorted(a) == sorted(plain) == sorted(c)
    assert len(plain) == 120


def test_backends_walk_the_same_tree():
    if not HAVE_CORE:
        pytest.skip("compiled core not built")
    xc = pf.ExactCover(
        {(i, j): [("r", i), ("c", j), ("d", i + j)] for i in range(6) for j in range(6)},
        secondary=[("d", k) for k in range(11)],
        multiplicity={("r", 0): (0, 2), ("c", 1): 2, ("d", 4): 2},
    )
    for seed in (None, 5):
        assert list(xc.solutions(random=seed, backend="python")) == list(
            xc.solutions(random=seed, backend="compiled")
        )


@st.composite
def plain_instances(draw):
    """Instances without multiplicities, some with more than 64 items or options
    (several words per bitset in the bitset core)."""
    n_items = draw(st.integers(1, 80))
    n_choices = draw(st.integers(0, 150))
    choices = {
        k: sorted(draw(st.sets(st.integers(0, n_items - 1), min_size=1, max_size=4)))
        for k in range(n_choices)
    }
    items = sorted({c for cs in choices.values() for c in cs})
    secondary = draw(st.sets(st.sampled_from(items), max_size=len(items) // 3)) if items else set()
    return choices, secondary


@pytest.mark.skipif(not HAVE_CORE, reason="compiled core not built")
@settings(max_examples=200, deadline=None)
@given(plain_instances(), st.one_of(st.none(), st.integers(0, 3)))
def test_compiled_cores_yield_the_reference_order(instance, seed):
    choices, secondary = instance
    xc = pf.ExactCover(choices, secondary=secondary)
    # Small options over many items can have millions of solutions: compare
    # the first 300 of them.
    reference = list(xc.solutions(limit=300, random=seed, backend="python"))
    for backend in COMPILED:
        assert list(xc.solutions(limit=300, random=seed, backend=backend)) == reference
        assert xc.count(limit=300, backend=backend) == len(reference)


@pytest.mark.skipif(not HAVE_CORE, reason="compiled core not built")
def test_default_core_choice():
    dlx, xcbits = compiled("_dlx"), compiled("_xcbits")

    plain = pf.ExactCover(KNUTH, secondary=[5])
    assert cores.engine_for(None, plain.flat) is xcbits.Search
    assert cores.engine_for("dlx", plain.flat) is dlx.Search
    multiple = pf.ExactCover(KNUTH, multiplicity={7: 2})
    assert cores.engine_for(None, multiple.flat) is dlx.Search
    # 30,000 one-item choices: 30,000 levels of 30,000 counts would take 3.6 GB
    big = pf.ExactCover({k: [k] for k in range(30_000)})
    assert xcbits.footprint(big.flat.primary, big.flat.offsets, big.flat.items) > 2**31
    assert cores.engine_for(None, big.flat) is dlx.Search
    assert big.count() == 1
    assert cores.engine_for(None, pf.ExactCover({}).flat) is xcbits.Search
    assert pf.ExactCover({}).count() == 1
    with pytest.raises(ExactCoverError, match="without multiplicities"):
        multiple.count(backend="bitset")


@pytest.mark.skipif(not HAVE_CORE, reason="compiled core not built")
def test_compiled_cores_agree_on_a_many_word_instance():
    # The 12 pentominoes in the 8x8 square minus its centre: 1,568 options,
    # 72 items (25 and 2 words per bitset), 520 tilings.
    holed = {(r, c) for r in range(8) for c in range(8)} - {(3, 3), (3, 4), (4, 3), (4, 4)}
    xc = pf.tile(sorted(holed), "pentominoes").to_exactcover()
    first = list(xc.solutions(limit=40, backend="dlx"))
    assert list(xc.solutions(limit=40, backend="bitset")) == first
    assert xc.count(backend="bitset") == xc.count(backend="dlx") == 520
    # Both give up a child once an active item has no option left: same nodes.
    dlx, xcbits = compiled("_dlx"), compiled("_xcbits")

    flat = xc.flat
    arrays = (flat.lower, flat.upper, flat.primary, flat.offsets, flat.items)
    searches = [dlx.Search(*arrays), xcbits.Search(*arrays)]
    assert [s.count() for s in searches] == [520, 520]
    assert searches[0].nodes == searches[1].nodes > 520


def domino_tilings(height, width, squares=0):
    """Domino tilings of a box as exact cover; with ``squares``, that many
    monominoes too (a constraint with multiplicity: Algorithm M's levels)."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    choices = {}
    for r, c in cells:
        for dr, dc in ((0, 1), (1, 0)):
            if r + dr < height and c + dc < width:
                choices[(r, c, dr, dc)] = [(r, c), (r + dr, c + dc)]
    multiplicity = {}
    if squares:
        for cell in cells:
            choices[("square",) + cell] = [cell, "squares"]
        multiplicity["squares"] = squares
    return pf.ExactCover(choices, multiplicity=multiplicity)


@pytest.mark.skipif(not HAVE_CORE, reason="compiled core not built")
@pytest.mark.parametrize(
    ("height", "width", "squares", "expected"),
    # 4 x n domino tilings: OEIS A005178 (1, 1, 5, 11, 36, 95, 281, ...)
    [(4, 6, 0, 281), (4, 5, 0, 95), (3, 4, 2, None), (4, 4, 4, None)],
)
def test_dead_end_commits_keep_the_tree(height, width, squares, expected):
    # Boxes are full of dead ends (a cell walled in by dominoes): the compiled
    # core gives those children up during their commit, yet must yield the
    # reference's solutions in the reference's order.
    xc = domino_tilings(height, width, squares=squares)
    reference = list(xc.solutions(backend="python"))
    for backend in backends_for(xc):
        assert list(xc.solutions(backend=backend)) == reference
        assert xc.count(backend=backend) == len(reference)
    if expected is not None:
        assert len(reference) == expected
    else:
        assert len(reference) > 0
        for solution in reference:
            assert_is_cover(xc, solution)


@pytest.mark.parametrize("backend", BACKENDS)
def test_initial_choices(backend):
    xc = pf.ExactCover(KNUTH, secondary=[5])
    assert list(xc.solutions(initial=["E"], backend=backend)) == [["B", "E"]]
    assert pf.ExactCover(KNUTH, initial=["A"]).count(backend=backend) == 0
    # contradictory: A and B share constraint 1
    assert xc.count(initial=["A", "B"], backend=backend) == 0
    assert list(xc.solutions(initial=["A", "B"], backend=backend)) == []
    # forced and excluded at once: no solution
    assert xc.count(initial=["E"], excluded=["E"], backend=backend) == 0
    assert xc.count(excluded=["E"], backend=backend) == 1
    # forced twice is forced once
    assert xc.count(initial=["E", "E"], backend=backend) == 1


def test_bad_input_raises_typed_errors():
    with pytest.raises(ExactCoverError, match="not a choice"):
        pf.ExactCover(KNUTH, initial=["Z"])
    with pytest.raises(ExactCoverError, match="not a choice"):
        pf.ExactCover(KNUTH).count(initial=[["unhashable"]])
    with pytest.raises(ExactCoverError, match="no constraints"):
        pf.ExactCover({"A": []})
    with pytest.raises(ExactCoverError, match="twice"):
        pf.ExactCover({"A": [1, 1]})
    with pytest.raises(ExactCoverError, match="unknown constraint"):
        pf.ExactCover(KNUTH, multiplicity={99: 2})
    with pytest.raises(ExactCoverError, match="lower bound"):
        pf.ExactCover(KNUTH, secondary=[1], multiplicity={1: (1, 2)})
    with pytest.raises(ExactCoverError, match="lo <= hi"):
        pf.ExactCover(KNUTH, multiplicity={1: (3, 2)})
    with pytest.raises(WrongTypeError, match="mapping"):
        pf.ExactCover([("A", [1])])
    with pytest.raises(WrongTypeError, match="mapping"):
        pf.ExactCover(KNUTH, multiplicity=5)
    with pytest.raises(ExactCoverError, match="beyond the limit"):
        pf.ExactCover({"a": [1]}, multiplicity={1: 2**40})
    with pytest.raises(WrongTypeError, match="DLX text"):
        pf.ExactCover.from_dlx(None)
    with pytest.raises(PolyformError, match="at least 0"):
        list(pf.ExactCover(KNUTH).solutions(limit=-1))
    with pytest.raises(PolyformError, match="at least 0"):
        pf.ExactCover(KNUTH).count(limit=-1)
    with pytest.raises(ExactCoverError, match="neither primary nor secondary"):
        pf.ExactCover({"A": [1, 2]}, primary=[1])
    with pytest.raises(ExactCoverError, match="backend"):
        pf.ExactCover(KNUTH).count(backend="fortran")


@pytest.mark.parametrize("backend", BACKENDS)
def test_explicit_primary_constraint_without_choices(backend):
    assert pf.ExactCover({"A": [1]}, primary=[1, 2]).count(backend=backend) == 0
    optional = pf.ExactCover({"A": [1]}, primary=[1, 2], multiplicity={2: (0, 1)})
    if fits(backend, optional):
        assert optional.count(backend=backend) == 1
    assert optional.constraints == [1, 2]


def test_description():
    xc = pf.ExactCover(KNUTH, secondary=[5], multiplicity={7: (1, 2), 5: 2}, initial=["B"])
    assert xc.choices == list("ABCDEF")
    assert xc.constraints == [1, 4, 7, 5, 3, 6, 2]
    assert xc.initial == ["B"]
    assert xc.bounds(7) == (1, 2) and xc.bounds(5) == (0, 2) and xc.bounds(1) == (1, 1)
    assert xc.is_secondary(5) and not xc.is_secondary(1)
    assert xc.constraints_of("E") == [2, 3, 6, 7]
    assert len(xc) == 6
    assert "6 choices" in repr(xc)


def test_abandoned_generator_leaves_problem_usable():
    xc = pf.ExactCover({(k, j): [k, 10 + j] for k in range(6) for j in range(6)})
    generator = xc.solutions()
    next(generator)
    next(generator)
    generator.close()
    del generator
    assert xc.count() == 720


@pytest.mark.skipif(not HAVE_CORE, reason="compiled core not built")
def test_ctrl_c_stops_a_long_count():
    import _thread
    import signal

    # 16 queens takes about a minute: long enough to be interrupted
    from polyforms.puzzles.examples import queens

    xc = queens(16)
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals need the main thread")
    # A process a shell starts in the background inherits SIGINT ignored, and Python
    # then keeps it so: a simulated Ctrl-C does nothing (CI runs launched that way
    # failed here, 2026-11-23). This test is about Python's own handler: put it in.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.3, _thread.interrupt_main)
        started = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            xc.count()
        elapsed = time.perf_counter() - started
        timer.join()
        assert elapsed < 5.0
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # left alone
    finally:
        signal.signal(signal.SIGINT, previous)
    assert queens(6).count() == 4  # still usable
    assert xc.count(limit=3) == 3


def test_reference_recursion_is_not_needed_for_counting_large_instances():
    # The reference yields from nested generators; a 40-level instance is fine.
    xc = pf.ExactCover({k: [k] for k in range(40)})
    assert xc.count(backend="python") == 1


def test_top_level_exports():
    assert pf.ExactCover is ExactCover
    assert "ExactCover" in pf.__all__


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_count_paused_by_nodes_goes_on_to_the_same_total(backend):
    # 7 queens: 40 solutions. Paused every 50 nodes, the counts add up to the
    # whole count, over the same nodes, and ``done`` tells when it ended.
    problem = pf.examples.queens(7)
    flat = problem.flat
    engine = cores.engine_for(backend, flat)
    whole = cores.new_search(engine, flat, [], [])
    total = whole.count()
    assert whole.done and total == 40
    paused = cores.new_search(engine, flat, [], [])
    found, pauses = 0, 0
    while not paused.done:
        found += paused.count(nodes=50)
        pauses += 1
    assert found == total and paused.nodes == whole.nodes
    # The dancing-links core may pass the cap by the children it gives up
    # during their commit (counted between two looks at the cap).
    assert pauses >= whole.nodes // 100
    with pytest.raises(ValueError, match="at least 0"):
        paused.count(nodes=-1)
    # A cap past what a 64-bit counter holds is no cap (it was an OverflowError).
    unbounded = cores.new_search(engine, flat, [], [])
    assert unbounded.count(nodes=1 << 70) == 40 and unbounded.done


def _probe_instances():
    """Small searches of every kind of level: queens (secondary items), dominoes
    with monominoes (multiplicity: Algorithm M), word squares (colours:
    Algorithm C), and forced options."""
    words = ["bag", "ice", "tee", "bit", "ace", "gee", "sea", "gas", "ate", "tea", "eat",
             "sat", "set", "tag", "age", "ago", "ten", "net", "ant", "tan"]  # fmt: skip
    dominoes = domino_tilings(3, 4)
    choices = {choice: dominoes.constraints_of(choice) for choice in dominoes.choices}
    return {
        "queens 7": pf.examples.queens(7),
        "dominoes and monominoes": domino_tilings(3, 4, squares=2),
        "colours": pf.examples.word_squares(words),
        "forced": pf.ExactCover(choices, initial=[(0, 0, 0, 1)]),
    }


@pytest.mark.parametrize("backend", ["python", *(["dlx"] if HAVE_CORE else [])])
@pytest.mark.parametrize("name", list(_probe_instances()))
def test_probes_estimate_the_nodes_of_a_search(backend, name):
    # Knuth's estimator is unbiased: the mean of many probes (fixed seed) is
    # within a few percent of the nodes the search then visits, and probing
    # leaves the search as it was.
    problem = _probe_instances()[name]
    flat, engine = problem.flat, cores.engine_for(backend, problem.flat)
    forced = forced_options(problem)
    whole = cores.new_search(engine, flat, forced, [])
    total = whole.count()
    probed = cores.new_search(engine, flat, forced, [])
    estimate = probed.probe(3000, seed=11)
    assert whole.nodes > 20
    assert estimate == pytest.approx(whole.nodes, rel=0.05)
    assert probed.count() == total
    if backend != "python":  # the twin's nodes count only its generator's visits
        assert probed.nodes == whole.nodes
    with pytest.raises(ValueError, match="probe before counting"):
        probed.probe()
    with pytest.raises(ValueError, match="at least 1"):
        cores.new_search(engine, flat, forced, []).probe(0)
    # Same seed, same walks.
    again = [cores.new_search(engine, flat, forced, []).probe(50, seed=3) for _ in "ab"]
    assert again[0] == again[1]


@pytest.mark.parametrize("backend", ["python", *(["dlx"] if HAVE_CORE else [])])
def test_a_probe_of_clashing_forced_options_finds_no_node(backend):
    xc = pf.ExactCover(KNUTH)
    engine = cores.engine_for(backend, xc.flat)
    a, b = xc.choices.index("A"), xc.choices.index("B")  # both hold 1 and 4
    assert cores.new_search(engine, xc.flat, [a, b], []).probe(10) == 0.0


def test_split_count_subtasks_are_weighed_and_refined():
    # The subtasks of a split count weigh Knuth's estimate of their nodes (not
    # all the same), which sum to about the whole search's; jobs.plan cuts the
    # heaviest into children whose counts add up to the parent's.
    from polyforms import jobs

    holed = {(r, c) for r in range(8) for c in range(8)} - {(3, 3), (3, 4), (4, 3), (4, 4)}
    problem = pf.tile(sorted(holed), "pentominoes").to_exactcover()
    flat = problem.flat
    job = subtasks.CountJob(flat, [], python=not HAVE_CORE)
    tasks = job.tasks()
    weights = [task.weight for task in tasks]
    whole = cores.new_search(cores.engine_for(None, flat), flat, [], [])
    assert whole.count() == 520
    assert len(set(weights)) > len(weights) // 2
    assert whole.nodes / 2 < sum(weights) < whole.nodes * 2
    heaviest = max(tasks, key=lambda task: task.weight)
    children = job.refine(heaviest)
    assert [child.id for child in children] == [f"{heaviest.id}.{k}" for k in range(len(children))]

    def count(task):
        return subtasks.count_task(*task.args)

    planned = jobs.plan(job, 8)  # tasks above 1/32 of the whole are cut, maybe twice
    cut = {task.id.split(".")[0] for task in planned if "." in task.id}
    assert heaviest.id in cut and len(planned) > len(tasks)
    for parent in (task for task in tasks if task.id in cut):
        below = [task for task in planned if task.id.startswith(parent.id + ".")]
        assert sum(map(count, below)) == count(parent)


def test_refining_a_node_whose_only_child_is_itself_stops():
    # A primary item that may stay empty and has no option left: its one branch
    # (leave it) is described by the same options as the node, so refining it
    # would go on for ever; it is a task that cannot be cut.
    xc = pf.ExactCover({"x": ["a"], "y": ["a"]}, primary=["a", "b"], multiplicity={"b": (0, 1)})
    assert len(xc.split(1)) == 1 and xc.split(1) == xc.split(0)  # b is the one branched on
    job = subtasks.CountJob(xc.flat, [], python=True)
    assert job.refine(job.task("0", [], [], 1.0)) is None
    assert xc.count(jobs=2) == 2


@settings(max_examples=200, deadline=None)
@given(instances(), st.integers(0, 40))
def test_a_paused_count_leaves_what_its_path_says(instance, budget):
    # Paused after ``budget`` nodes, each core's path leads the twin's ``rest`` to
    # groups of nodes that hold exactly the solutions not yet counted, and to
    # groups before the path that hold exactly those counted.
    choices, secondary, multiplicity, initial = instance
    xc = pf.ExactCover(choices, secondary=secondary, multiplicity=multiplicity, initial=initial)
    flat, forced = xc.flat, forced_options(xc)
    total = xc.count(backend="python")

    def solutions(groups):
        twin = twin_core.Search
        return sum(cores.new_search(twin, flat, f, e).count() for g in groups for f, e in g)

    for backend in backends_for(xc):
        search = cores.new_search(cores.engine_for(backend, flat), flat, forced, [])
        found = search.count(nodes=budget)
        if search.done:
            assert found == total and search.path == []
            continue
        path = search.path
        ahead, behind = twin_core.rest(*flat.arrays, forced, [], path, flat.colours)
        [(taken, _)] = ahead[0]  # the node it paused at comes first
        assert taken == forced + [option for option in path if option >= 0]
        assert (solutions(behind), solutions(ahead)) == (found, total - found), backend


def test_rest_refuses_a_path_that_is_not_one():
    flat = pf.ExactCover(KNUTH).flat
    with pytest.raises(ValueError, match="not a path"):
        twin_core.rest(*flat.arrays, [], [], [99], flat.colours)
    # One that goes on below a solution (a leaf).
    search = twin_core.Search(*flat.arrays)
    assert search.next_solution() is not None
    below = [*search.path, 0]
    with pytest.raises(ValueError, match="not a path"):
        twin_core.rest(*flat.arrays, [], [], below, flat.colours)


@pytest.mark.parametrize("name", list(_probe_instances()))
def test_paths_of_every_kind_of_level_lead_to_the_rest(name):
    # Secondary items, Algorithm M's levels, colours (Algorithm C) and forced
    # options: wherever a core pauses, the rest its path names counts the
    # solutions it has not yet counted.
    problem = _probe_instances()[name]
    flat, forced = problem.flat, forced_options(problem)
    twin = twin_core.Search
    total = cores.new_search(twin, flat, forced, []).count()
    paused = 0
    for backend in backends_for(problem):
        for budget in (1, 3, 7, 50, 300, 2000):
            search = cores.new_search(cores.engine_for(backend, flat), flat, forced, [])
            found = search.count(nodes=budget)
            if search.done:
                continue
            paused += 1
            ahead, _ = twin_core.rest(*flat.arrays, forced, [], search.path, flat.colours)
            left = [cores.new_search(twin, flat, f, e).count() for g in ahead for f, e in g]
            assert found + sum(left) == total, (backend, budget)
    assert paused >= 3 * len(backends_for(problem))  # each core paused three times or more


def test_a_limit_past_the_counters_is_no_limit():
    """--limit 9223372036854775808 (2**63) reached the compiled cores' 64-bit
    argument: an OverflowError traceback."""
    problem = pf.examples.queens(6)
    for backend in ("python", "dlx", "bitset"):
        assert problem.count(limit=2**63, backend=backend) == 4
        assert problem.count(limit=2**63 - 1, backend=backend) == 4
