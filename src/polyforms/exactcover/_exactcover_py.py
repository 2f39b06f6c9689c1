"""Readable twin of the compiled exact-cover cores (:mod:`polyforms._core._dlx`,
:mod:`polyforms._core._xcbits`): Algorithm X (and M, and C) on sets.

:class:`Walk` is the specification: one walk of the search tree, which yields
the solutions in the order both compiled cores yield them. :class:`Search`
wraps it in the compiled cores' interface, so :mod:`polyforms.exactcover.cores`
runs whichever :func:`polyforms._backend.kernel` gives it; :func:`search`,
:func:`children` and :func:`rest` describe the tree's nodes as subtasks.

References
----------
D. E. Knuth, "Dancing links", Millennial Perspectives in Computer Science
(2000) 187-214; The Art of Computer Programming 7.2.2.1 (Algorithms X, M, C).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .. import _walks

__all__ = ["MAX_BYTES", "PAUSE", "Search", "Walk", "children", "footprint", "rest", "search"]

MAX_BYTES = 1 << 62
"""No size limit here (the bitset core has one): the sets grow with the instance."""

PAUSE = object()
"""What a :class:`Walk` yields where its ``visit`` asks it to pause."""

Node = tuple[list[int], list[int]]  # (options taken, options excluded), as split_depth gives


def footprint(
    primary: Sequence[int],
    offsets: Sequence[int],
    items: Sequence[int],
    colours: Sequence[int] | None = None,
) -> int:
    """Bytes of search state beyond the instance: none worth counting here."""
    return 0


class Walk:
    """One walk of the search tree of a flat instance: Algorithm X with minimum
    remaining values, on sets.

    The instance comes flat, as the compiled cores take it: item ``i`` must be
    covered between ``lower[i]`` and ``upper[i]`` times (``primary[i]`` false:
    at most ``upper[i]``, by any number of options); option ``o`` holds the
    items ``items[offsets[o]:offsets[o + 1]]``.

    The state, in attributes:

    * ``options_of[i]``: the options still available that contain item ``i``;
      ``count[i]``: how many chosen options contain it. An item is *covered*
      when it is full (``count == upper``): every other option containing it is
      then removed from the sets of its other items.
    * ``active``: the primary items still to decide; ``chosen``: the options
      taken from the root down; ``excluded_now``: the options excluded on the
      way down (they describe a node as a subtask).
    * Colours: ``refs[i]``, ``tint[i]`` and ``purified[i]`` (below).

    The search branches on the active primary item of least degree
    ``len(options_of[i]) + 1 - max(need, 0)`` with ``need = lower - count``
    (the first such item in item order; a degree of 0 or 1 ends the scan).

    * Slack one (one more option fills the item): cover it and try each of its
      options in increasing number; then, when ``need <= 0``, one more branch
      that leaves the item as it is.
    * Slack more than one (Algorithm M): take the smallest option, and once its
      subtree is done, exclude it for the other branches of this level; when no
      option is left and ``need <= 0``, a last branch leaves the item as it is.

    Colours (Algorithm C): ``colours`` runs beside ``items``, ``colours[k] > 0``
    giving the secondary item ``items[k]`` a colour in its option (0: none).
    Choosing an option that colours item ``i`` with ``c`` *purifies* ``i``:
    the options still in ``options_of[i]`` that give it another colour (or
    none) are hidden, those of colour ``c`` stay; later options of colour ``c``
    just add to ``refs[i]``, and the last one to leave *unpurifies* it. A
    coloured use does not count towards the item's bound (the caller keeps
    coloured items at multiplicity 1).

    Parameters
    ----------
    lower, upper, primary, offsets, items, colours
        The flat instance (``colours`` None: no colours).
    visit : callable, optional
        Called on entering each node; while it returns true, the walk yields
        :data:`PAUSE` there instead (the caller stops and may go on later).
    pick : callable, optional
        ``pick(k)``, called at each node with ``k`` children (the degree),
        makes the walk go down one path instead of the whole tree: it gives the
        index, below ``k``, of the only child to enter, in the order above (a
        probe of Knuth's estimator, :meth:`Search.probe`).
    path : list, optional
        Filled with the option of each branch taken from the root to the node
        the walk is at (-1: a branch that leaves its item).
    """

    def __init__(
        self,
        lower: Sequence[int],
        upper: Sequence[int],
        primary: Sequence[int],
        offsets: Sequence[int],
        items: Sequence[int],
        colours: Sequence[int] | None = None,
        *,
        visit: Callable[[], bool] | None = None,
        pick: Callable[[int], int] | None = None,
        path: list[int] | None = None,
    ) -> None:
        n, m = len(lower), len(offsets) - 1
        self.lower, self.upper = lower, upper
        self.option_items = [items[offsets[o] : offsets[o + 1]] for o in range(m)]
        beside = colours or [0] * len(items)
        self.option_colours = [beside[offsets[o] : offsets[o + 1]] for o in range(m)]
        self.colour_at = [dict(zip(self.option_items[o], self.option_colours[o])) for o in range(m)]
        self.refs = [0] * n  # chosen options colouring each item
        self.tint = [0] * n  # the colour they give it
        self.purified: dict[int, list[int]] = {}  # item -> the options its purification hid
        self.options_of: list[set[int]] = [set() for _ in range(n)]
        for o, option_items in enumerate(self.option_items):
            for i in option_items:
                self.options_of[i].add(o)
        self.count = [0] * n
        self.primary = primary
        self.active = {i for i in range(n) if primary[i]}
        self.order = sorted(self.active)
        self.chosen: list[int] = []
        self.excluded_now: list[int] = []
        self.visit, self.pick, self.path = visit, pick, path
        self.split_depth: int | None = None
        self.follow: Sequence[int] | None = None

    # -- what a walk yields ------------------------------------------------------

    def run(
        self,
        forced: Iterable[int] = (),
        excluded: Iterable[int] = (),
        *,
        split_depth: int | None = None,
        follow: Sequence[int] | None = None,
    ) -> Iterator[Any]:
        """Walk the tree below the options ``forced`` with ``excluded`` left out.

        Yields the solutions as lists of option numbers (forced ones first,
        then in the order chosen). With ``split_depth`` it yields instead, for
        each branch alive at that depth (or solved above it), the pair (options
        taken, options excluded) describing that subtask. ``follow``, a path as
        ``path`` holds them, yields instead ``(depth, on, taken, excluded)`` for
        the node at its end (``on`` true) and, in search order, for every
        sibling of a node on the way (``on`` false), each described as with
        ``split_depth`` (:func:`rest` groups them). Nothing when a forced
        option is excluded or clashes with an earlier one.
        """
        self.split_depth, self.follow = split_depth, follow
        excluded = list(excluded)
        for option in excluded:
            if all(option in self.options_of[i] for i in self.option_items[option]):
                self.take_out(option)
        for option in forced:
            if not self.fits(option):
                return  # excluded, or clashes with an earlier forced option
            self.take_out(option)
            self.chosen.append(option)
            self.commit(option)
        self.excluded_now.extend(excluded)
        yield from self.node(0)

    def fits(self, option: int) -> bool:
        """Can a forced option still be taken? Not when excluded (or forced
        twice), nor when one of its items is full or coloured otherwise by an
        earlier forced option (purification leaves an option of another colour
        in the coloured item's own set: a look at its first item's set misses
        that when it is the coloured item)."""
        if option not in self.options_of[self.option_items[option][0]]:
            return False
        return all(
            self.count[i] < self.upper[i] and (not self.refs[i] or colour == self.tint[i])
            for i, colour in zip(self.option_items[option], self.option_colours[option])
        )

    # -- the search --------------------------------------------------------------

    def node(self, depth: int) -> Iterator[Any]:
        """The node ``depth`` levels below the root: pause, record a leaf, or
        choose an item and branch on it."""
        while self.visit is not None and self.visit():
            yield PAUSE
        if self.is_leaf(depth):
            yield from self.record(depth)
            return
        item, degree = self.choose()
        if degree <= 0:
            return
        take = None if self.pick is None else self.pick(degree)  # the one child a walk enters
        if self.upper[item] - self.count[item] == 1:
            yield from self.branch_slack_one(depth, item, take)
        else:
            yield from self.branch_slack_more(depth, item, take)

    def is_leaf(self, depth: int) -> bool:
        """Does the walk stop at this node: a solution, the followed path's end,
        or the split depth?"""
        if self.follow is not None and depth == len(self.follow):
            return True
        return depth == self.split_depth or not self.active

    def record(self, depth: int) -> Iterator[Any]:
        """What a leaf yields: its description when following a path or
        splitting, otherwise the solution it is (a leaf above the followed
        path's end is not on it: nothing)."""
        if self.follow is not None and depth == len(self.follow):
            yield (depth, True, list(self.chosen), list(self.excluded_now))
        elif self.split_depth is not None:
            yield (list(self.chosen), list(self.excluded_now))
        elif self.follow is None:
            yield list(self.chosen)

    def choose(self) -> tuple[int, int]:
        """The active primary item of least degree, and its degree (the number
        of children): the first in item order on ties."""
        best_item, best = -1, None
        for i in self.order:
            if i in self.active:
                degree = len(self.options_of[i]) + 1 - max(self.lower[i] - self.count[i], 0)
                if best is None or degree < best:
                    best_item, best = i, degree
                    if degree <= 1:
                        break
        return best_item, best  # type: ignore[return-value]

    def branch_slack_one(self, depth: int, item: int, take: int | None) -> Iterator[Any]:
        """Algorithm X's level: cover ``item``, try each of its options, then
        leave it as it is when it may (``take``: the one child a probe enters)."""
        self.cover(item)
        options = sorted(self.options_of[item])
        for k, option in enumerate(options):
            if take is not None and k != take:
                continue
            if self.aside(depth, option):
                yield self.described(depth, [*self.chosen, option])
            else:
                yield from self.try_option(depth, option, skip=item)
        if self.lower[item] <= self.count[item] and take in (None, len(options)):
            # The item gets none of its options: for a subtask, say so.
            self.excluded_now.extend(options)
            yield from self.enter(depth, -1)
            del self.excluded_now[len(self.excluded_now) - len(options) :]
        self.uncover(item)

    def branch_slack_more(self, depth: int, item: int, take: int | None) -> Iterator[Any]:
        """Algorithm M's level: take ``item``'s smallest option, then exclude it
        for the branches after; last, leave the item as it is when it may."""
        taken_out: list[int] = []
        options = self.options_of[item]
        while options and len(options) >= self.lower[item] - self.count[item]:
            option = min(options)
            self.take_out(option)
            if self.aside(depth, option):
                yield self.described(depth, [*self.chosen, option])
            elif take is None or len(taken_out) == take:
                yield from self.try_option(depth, option)
            taken_out.append(option)
            self.excluded_now.append(option)
        if self.lower[item] <= self.count[item] and take in (None, len(taken_out)):
            self.active.discard(item)
            yield from self.enter(depth, -1)
            self.active.add(item)
        for option in reversed(taken_out):
            self.put_back(option)
            self.excluded_now.pop()

    def try_option(self, depth: int, option: int, skip: int = -1) -> Iterator[Any]:
        """The child that takes ``option`` (``skip``: the branching item, already covered)."""
        self.chosen.append(option)
        self.commit(option, skip)
        yield from self.enter(depth, option)
        self.uncommit(option, skip)
        self.chosen.pop()

    def aside(self, depth: int, branch: int) -> bool:
        """Is the child ``branch`` described, not entered: a sibling of the
        followed path, or a node at the split depth? Its description needs no
        commit, which saves most of the work of a split or of naming what a
        paused count has left."""
        if self.follow is not None:
            return self.follow[depth] != branch
        return depth + 1 == self.split_depth

    def described(self, depth: int, taken: list[int]) -> tuple:
        """The subtask of a child set aside, which takes the options ``taken``."""
        if self.follow is not None:
            return (depth + 1, False, taken, list(self.excluded_now))
        return (taken, list(self.excluded_now))

    def enter(self, depth: int, branch: int) -> Iterator[Any]:
        """Go down the branch ``branch`` (-1: the item left as it is)."""
        if self.path is not None:
            self.path.append(branch)
        if self.aside(depth, branch):
            yield self.described(depth, list(self.chosen))
        else:
            yield from self.node(depth + 1)
        if self.path is not None:
            self.path.pop()

    # -- the set operations ------------------------------------------------------

    def hide(self, option: int, keep: int) -> None:
        """Remove ``option`` from the sets of its items other than ``keep``."""
        for i in self.option_items[option]:
            if i != keep:
                self.options_of[i].discard(option)

    def unhide(self, option: int, keep: int) -> None:
        for i in self.option_items[option]:
            if i != keep:
                self.options_of[i].add(option)

    def cover(self, item: int) -> None:
        """Decide ``item``: off the active set, its options out of its other items' sets."""
        self.active.discard(item)
        for option in self.options_of[item]:
            self.hide(option, item)

    def uncover(self, item: int) -> None:
        for option in self.options_of[item]:
            self.unhide(option, item)
        if self.primary[item]:
            self.active.add(item)

    def purify(self, item: int, colour: int) -> None:
        """Hide the options that give ``item`` another colour than ``colour`` (or none)."""
        self.tint[item] = colour
        at = self.colour_at
        hidden = [o for o in sorted(self.options_of[item]) if at[o][item] != colour]
        for option in hidden:
            self.hide(option, item)
        self.purified[item] = hidden

    def unpurify(self, item: int) -> None:
        for option in reversed(self.purified.pop(item)):
            self.unhide(option, item)

    def commit(self, option: int, skip: int = -1) -> None:
        """Count ``option`` in each of its items (but ``skip``, already covered),
        covering those that become full; purify the items it colours."""
        for i, colour in zip(self.option_items[option], self.option_colours[option]):
            if colour:
                self.refs[i] += 1
                if self.refs[i] == 1:
                    self.purify(i, colour)
                continue
            self.count[i] += 1
            if i != skip and self.count[i] == self.upper[i]:
                self.cover(i)

    def uncommit(self, option: int, skip: int = -1) -> None:
        pairs = list(zip(self.option_items[option], self.option_colours[option]))
        for i, colour in reversed(pairs):
            if colour:
                self.refs[i] -= 1
                if self.refs[i] == 0:
                    self.unpurify(i)
                continue
            if i != skip and self.count[i] == self.upper[i]:
                self.uncover(i)
            self.count[i] -= 1

    def take_out(self, option: int) -> None:
        """Remove ``option`` from every set (forced, excluded, or Algorithm M's exclusion)."""
        self.hide(option, -1)

    def put_back(self, option: int) -> None:
        self.unhide(option, -1)


def search(
    lower: Sequence[int],
    upper: Sequence[int],
    primary: Sequence[int],
    offsets: Sequence[int],
    items: Sequence[int],
    forced: Sequence[int] = (),
    excluded: Sequence[int] = (),
    split_depth: int | None = None,
    colours: Sequence[int] | None = None,
) -> Iterator[Any]:
    """The solutions of the instance below ``forced`` and ``excluded`` (a
    :class:`Walk`'s), or with ``split_depth`` the subtasks at that depth."""
    walk = Walk(lower, upper, primary, offsets, items, colours)
    return walk.run(forced, excluded, split_depth=split_depth)


class Search:
    """One search over a flat instance, with the compiled cores' interface."""

    def __init__(
        self,
        lower: Sequence[int],
        upper: Sequence[int],
        primary: Sequence[int],
        offsets: Sequence[int],
        items: Sequence[int],
        forced: Iterable[int] = (),
        excluded: Iterable[int] = (),
        colours: Sequence[int] | None = None,
    ) -> None:
        self._nodes = 0
        self._cap: float = math.inf  # count(nodes=...): pause on entering a node past it
        self._done = False
        self._instance = (lower, upper, primary, offsets, items, colours)
        self._prefix = (list(forced), list(excluded))
        self._path: list[int] = []
        walk = Walk(*self._instance, visit=self._visit, path=self._path)
        self._found = walk.run(*self._prefix)

    def _visit(self) -> bool:
        if self._nodes >= self._cap:
            return True  # pause here; this node is visited when the search goes on
        self._nodes += 1
        return False

    @property
    def nodes(self) -> int:
        """Search-tree nodes visited so far."""
        return self._nodes

    @property
    def done(self) -> bool:
        """Has the search ended (no solution left ahead)?"""
        return self._done

    @property
    def path(self) -> list[int]:
        """Where a paused count stands: the option chosen at each level from the
        root down to the node it enters when it goes on (-1 for a branch that
        leaves its item as it is). :func:`rest` reads what is left from it."""
        return list(self._path) if not self._done else []

    def next_solution(self) -> list[int] | None:
        """The next solution (option numbers), or None when there is no more."""
        found = next(self._found, None)
        self._done = found is None
        return found

    def probe(self, probes: int = 1, seed: int = 0) -> float:
        """Knuth's estimate of the nodes of this search (D. E. Knuth, Math. Comp.
        29 (1975) 121-136): the mean over ``probes`` random walks from the root
        of ``1 + d1 + d1*d2 + ...``, where ``d1, d2, ...`` are the numbers of
        children along the walk, drawn by :mod:`polyforms._walks` from ``seed``.
        0.0 when the forced options clash (no node at all). Only before the
        search starts: it estimates the whole tree, not what is left of it.
        """
        if probes < 1:
            raise ValueError(f"probes must be at least 1, not {probes}")
        if self._nodes or self._done:
            raise ValueError("a probe estimates a whole search: probe before counting")
        state = _walks.seeded(int(seed) & _walks.MASK64)
        total = 0.0
        for _ in range(probes):
            size, state = self._walk(state)
            total += size
        return total / probes

    def _walk(self, state: int) -> tuple[float, int]:
        """One probe from generator state ``state``: its ``1 + d1 + d1*d2 + ...``
        (0.0 if the root is never entered) and the generator's next state."""
        size, scale, entered = 1.0, 1.0, False

        def visit() -> bool:
            nonlocal entered
            entered = True
            return False  # never pause

        def pick(degree: int) -> int:
            nonlocal state, scale, size
            scale *= degree
            size += scale
            state = _walks.step(state)
            return _walks.draw(state, degree)

        for _ in Walk(*self._instance, visit=visit, pick=pick).run(*self._prefix):
            pass
        return (size if entered else 0.0), state

    def count(self, limit: int | None = None, nodes: int | None = None) -> int:
        """Count the remaining solutions (at most ``limit``); with ``nodes``, pause
        on entering a node once ``nodes`` more have been visited (``done`` then says
        whether the search ended; a later call goes on from there)."""
        if limit == 0:
            return 0
        if nodes is not None:
            if nodes < 0:
                raise ValueError(f"nodes must be at least 0, not {nodes}")
            self._cap = self._nodes + nodes
        total = 0
        try:
            for found in self._found:
                if found is PAUSE:
                    return total
                total += 1
                if total == limit:
                    return total
            self._done = True
            return total
        finally:
            self._cap = math.inf


def children(
    lower: Sequence[int],
    upper: Sequence[int],
    primary: Sequence[int],
    offsets: Sequence[int],
    items: Sequence[int],
    forced: Sequence[int],
    excluded: Sequence[int],
    colours: Sequence[int] | None = None,
) -> list[Node]:
    """The subtasks ``(forced, excluded)`` one level below the node given so, in the
    order the search takes them (:func:`search` with ``split_depth=1``); none at a
    leaf: a dead end, a solution, or a node whose one branch leaves an item as it
    is, which is described as the node itself (split again, it never ends)."""
    arrays = (lower, upper, primary, offsets, items)
    found = list(search(*arrays, forced, excluded, split_depth=1, colours=colours))
    return [] if found == [(list(forced), list(excluded))] else found


def rest(
    lower: Sequence[int],
    upper: Sequence[int],
    primary: Sequence[int],
    offsets: Sequence[int],
    items: Sequence[int],
    forced: Sequence[int],
    excluded: Sequence[int],
    path: Sequence[int],
    colours: Sequence[int] | None = None,
) -> tuple[list[list[Node]], list[list[Node]]]:
    """What a count from the node ``(forced, excluded)``, paused where its
    search's ``path`` leads, has left: the node it paused at, then, from the
    deepest level up, the siblings after the path's branch at each level, in
    search order, as groups of nodes. Together they partition the rest of the
    tree. Also what it searched: the siblings before the path's, from the
    root down.

    Raises ValueError when ``path`` is not a path of this search.
    """
    walk = Walk(lower, upper, primary, offsets, items, colours)
    ahead: list[list[Node]] = []
    behind: list[list[Node]] = []
    groups, last = behind, None  # the list being filled, and its last group's depth
    for depth, on, taken, left_out in walk.run(forced, excluded, follow=list(path)):
        if on:  # the node paused at: the siblings after the path's come next
            ahead.append([(taken, left_out)])
            groups, last = ahead, None
            continue
        if depth != last:
            groups.append([])
            last = depth
        groups[-1].append((taken, left_out))
    if not ahead:
        raise ValueError(f"not a path of this search: {list(path)!r:.80}")
    return ahead, behind
