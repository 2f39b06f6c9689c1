"""The hand-written graph code against networkx as an oracle, and the graph exports."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

import polyforms as pf
from polyforms.geometry import cell_graph, components, neighbours

cells_2d = st.sets(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=30)
cells_3d = st.sets(
    st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=25
)


@settings(max_examples=150, deadline=None)
@given(st.one_of(cells_2d, cells_3d))
def test_components_match_networkx(cells):
    expected = sorted(tuple(sorted(part)) for part in nx.connected_components(cell_graph(cells)))
    assert sorted(components(cells)) == expected


def _holes_by_networkx(cells) -> int:
    """Components of the empty cells of the box one wider, less the one holding the frame."""
    dim = len(next(iter(cells)))
    lows = [min(c[a] for c in cells) - 1 for a in range(dim)]
    highs = [max(c[a] for c in cells) + 1 for a in range(dim)]
    import itertools

    box = itertools.product(*(range(lo, hi + 1) for lo, hi in zip(lows, highs)))
    empty = [c for c in box if c not in cells]
    return nx.number_connected_components(cell_graph(empty)) - 1


@settings(max_examples=150, deadline=None)
@given(st.one_of(cells_2d, cells_3d))
def test_holes_match_networkx(cells):
    for part in components(cells):
        assert pf.Polyform(part).holes == _holes_by_networkx(set(part))


def test_tiling_labels_are_networkx_greedy_colouring():
    problem = pf.tile("6x6", "free:3", reuse=True)
    checked = 0
    for tiling in problem.solutions(limit=40):
        graph = tiling.adjacency()
        colours = nx.greedy_color(graph, strategy=lambda g, _: sorted(g))
        labels = tiling.labels()
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        for i, placement in enumerate(tiling):
            assert {labels[c] for c in placement.cells} == {letters[colours[i]]}
        # touching pieces differ
        for i, j in graph.edges:
            assert colours[i] != colours[j]
        checked += 1
    assert checked == 40


def test_adjacency_graph_of_a_tiling():
    tiling = pf.tile("2x4", "dominoes", reuse=True).first()
    graph = tiling.adjacency()
    assert graph.number_of_nodes() == 4
    owner = {c: i for i, p in enumerate(tiling) for c in p.cells}
    expected = {
        tuple(sorted((owner[c], owner[q])))
        for c in owner
        for q in neighbours(c)
        if q in owner and owner[q] != owner[c]
    }
    assert {tuple(sorted(e)) for e in graph.edges} == expected


def test_exact_cover_to_networkx_is_bipartite_and_complete():
    problem = pf.examples.queens(5)
    graph = problem.to_networkx()
    assert nx.is_bipartite(graph)
    choices = [n for n, d in graph.nodes(data=True) if d["bipartite"] == 0]
    assert len(choices) == len(problem.choices)
    assert graph.number_of_edges() == sum(len(problem.constraints_of(c)) for c in problem.choices)
    secondary = [n for n, d in graph.nodes(data=True) if d["bipartite"] == 1 and d["secondary"]]
    assert len(secondary) == sum(problem.is_secondary(k) for k in problem.constraints)
