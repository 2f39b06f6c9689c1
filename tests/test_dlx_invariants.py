"""The dancing links of the compiled exact-cover core keep their invariants.

``Search._check()`` walks the linked structure of :mod:`polyforms._core._dlx`
(every item's list, the list of active items, the options between their
spacers, the search's stacks) and raises AssertionError where a link is broken.
Two Hypothesis state machines drive it on small random instances: one steps a
search (counts of a few nodes, solutions one at a time, probes), one covers and
uncovers items by hand, and both check the structure after every step and the
count at the end against the readable twin.
"""

from __future__ import annotations

from array import array

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from polyforms._backend import compiled
from polyforms.exactcover import _exactcover_py as twin

dlx = compiled("dlx")
pytestmark = pytest.mark.skipif(dlx is None, reason="compiled core not built")


@st.composite
def instances(draw, prefix=True):
    """A flat instance as the cores take it: ``(arrays, forced, excluded, colours)``.

    Primary items with bounds ``lo..hi`` (``lo`` may be 0), secondary items at
    most ``hi`` times, and colours on secondary items of multiplicity 1 (as
    :class:`~polyforms.exactcover.ExactCover` builds them). With ``prefix``,
    a few options forced and excluded.
    """
    n = draw(st.integers(1, 6))
    primary = [draw(st.booleans()) for _ in range(n)]
    upper = [draw(st.integers(1, 3)) for _ in range(n)]
    lower = [draw(st.integers(0, hi)) if p else 0 for p, hi in zip(primary, upper)]
    colourable = [not p and hi == 1 for p, hi in zip(primary, upper)]
    options = [
        sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n)))
        for _ in range(draw(st.integers(0, 9)))
    ]
    offsets, items, colours = [0], [], []
    for option in options:
        for i in option:
            items.append(i)
            colours.append(draw(st.integers(0, 2)) if colourable[i] else 0)
        offsets.append(len(items))
    arrays = tuple(array("i", a) for a in (lower, upper, primary, offsets, items))
    forced, excluded = [], []
    if prefix and options:
        some = st.lists(st.integers(0, len(options) - 1), max_size=2)
        forced, excluded = draw(some), draw(some)
    return arrays, forced, excluded, array("i", colours) if any(colours) else None


def twin_count(arrays, forced, excluded, colours) -> int:
    """The number of solutions, by the readable twin."""
    return twin.Search(*arrays, forced, excluded, colours=colours).count()


class SteppedSearch(RuleBasedStateMachine):
    """A search stepped a few nodes at a time: each step chooses items, covers
    and commits, gives up dead ends and backs up; the links hold at every pause,
    and once the search ends everything is undone."""

    @initialize(instance=instances())
    def build(self, instance):
        self.search = dlx.Search(*instance[0], *instance[1:3], colours=instance[3])
        self.expected = twin_count(*instance)
        self.start = self.search._check()  # the active items with the prefix taken
        self.found = 0

    @rule(nodes=st.integers(0, 12))
    def count_a_few_nodes(self, nodes):
        self.found += self.search.count(nodes=nodes)

    @rule()
    def next_solution(self):
        if self.search.next_solution() is not None:
            self.found += 1

    @precondition(lambda self: self.search.nodes == 0 and not self.search.done)
    @rule(probes=st.integers(1, 3), seed=st.integers(0, 2**32))
    def probe(self, probes, seed):
        self.search.probe(probes, seed)
        assert self.search._check() == self.start  # every step of the walks undone

    @invariant()
    def links_hold(self):
        self.search._check()

    def teardown(self):
        if not hasattr(self, "search"):
            return
        self.found += self.search.count()
        assert self.search.done
        assert self.search._check() == self.start
        assert self.found == self.expected


class CoversByHand(RuleBasedStateMachine):
    """Items covered and uncovered in any order (the last covered uncovered
    first): a covered item is off the active list, and uncovering them all
    gives back the structure the search starts from."""

    @initialize(instance=instances(prefix=False))
    def build(self, instance):
        arrays, _, _, colours = instance
        self.search = dlx.Search(*arrays, colours=colours)
        self.expected = twin_count(*instance)
        self.items = len(arrays[0])
        self.start = self.search._check()
        self.covered: list[int] = []

    @rule(data=st.data())
    def cover(self, data):
        free = [i for i in range(self.items) if i not in self.covered]
        if free:
            item = data.draw(st.sampled_from(free))
            self.search._cover_item(item)
            self.covered.append(item)

    @precondition(lambda self: self.covered)
    @rule()
    def uncover(self):
        self.search._uncover_item(self.covered.pop())

    @invariant()
    def links_hold(self):
        active = self.search._check()
        assert active == [i for i in self.start if i not in self.covered]

    def teardown(self):
        if not hasattr(self, "search"):
            return
        while self.covered:
            self.uncover()
        assert self.search._check() == self.start
        assert self.search.count() == self.expected


TestSteppedSearch = SteppedSearch.TestCase
TestSteppedSearch.settings = settings(max_examples=150, stateful_step_count=30, deadline=None)
TestCoversByHand = CoversByHand.TestCase
TestCoversByHand.settings = settings(max_examples=150, stateful_step_count=30, deadline=None)


def test_the_checker_sees_a_broken_structure():
    # Uncovering an item that was never covered links its options' nodes in
    # again where they already are: the lists hold, but every length counts
    # them twice, and the checker says so.
    arrays = tuple(array("i", a) for a in ([1, 1], [1, 1], [1, 1], [0, 2, 3], [0, 1, 1]))
    search = dlx.Search(*arrays)
    assert search._check() == [0, 1]
    search._uncover_item(0)
    with pytest.raises(AssertionError, match="length"):
        search._check()


def test_covers_by_hand_are_only_for_a_search_not_started():
    arrays = tuple(array("i", a) for a in ([1], [1], [1], [0, 1], [0]))
    search = dlx.Search(*arrays)
    with pytest.raises(IndexError):
        search._cover_item(1)
    assert search.count() == 1
    with pytest.raises(ValueError, match="before the search starts"):
        search._cover_item(0)
