"""Readable twin of the compiled exact-cover cores (:mod:`polyforms._core._dlx`,
:mod:`polyforms._core._xcbits`): Algorithm X (and M, and C) on sets.

:func:`search` is the specification: it yields the solutions in the order
both compiled cores yield them. :class:`Search` wraps it in the compiled
cores' interface, so :mod:`polyforms.exactcover.problem` runs whichever
:func:`polyforms._backend.kernel` gives it.

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

__all__ = ["MAX_BYTES", "PAUSE", "Search", "children", "footprint", "rest", "search"]

MAX_BYTES = 1 << 62
"""No size limit here (the bitset core has one): the sets grow with the instance."""

PAUSE = object()
"""What :func:`search` yields where its ``visit`` asks it to pause."""


def footprint(primary: Sequence[int], offsets: Sequence[int], items: Sequence[int]) -> int:
    """Bytes of search state beyond the instance: none worth counting here."""
    return 0


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
        self._instance = (lower, upper, primary, offsets, items, list(forced), list(excluded))
        self._colours = colours
        self._path: list[int] = []
        self._found = search(*self._instance, visit=self._visit, colours=colours, path=self._path)

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

        for _ in search(*self._instance, visit=visit, colours=self._colours, pick=pick):
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
) -> list[tuple[list[int], list[int]]]:
    """The subtasks ``(forced, excluded)`` one level below the node given so, in the
    order the search takes them (:func:`search` with ``split_depth=1``); none at a
    leaf: a dead end, a solution, or a node whose one branch leaves an item as it
    is, which is described as the node itself (split again, it never ends)."""
    arrays = (lower, upper, primary, offsets, items)
    found = list(search(*arrays, forced, excluded, split_depth=1, colours=colours))
    return [] if found == [(list(forced), list(excluded))] else found


def search(
    lower: Sequence[int],
    upper: Sequence[int],
    primary: Sequence[int],
    offsets: Sequence[int],
    items: Sequence[int],
    forced: Sequence[int] = (),
    excluded: Sequence[int] = (),
    split_depth: int | None = None,
    visit: Callable[[], bool] | None = None,
    colours: Sequence[int] | None = None,
    pick: Callable[[int], int] | None = None,
    path: list[int] | None = None,
    follow: Sequence[int] | None = None,
) -> Iterator[Any]:
    """Algorithm X with minimum remaining values, on dictionaries of sets.

    The readable twin of the compiled cores. The instance comes flat, as the
    compiled cores take it: item ``i`` must be covered between ``lower[i]``
    and ``upper[i]`` times (``primary[i]`` false: at most ``upper[i]``, by
    any number of options); option ``o`` holds the items
    ``items[offsets[o]:offsets[o + 1]]``. ``options_of[i]`` is the set of
    options still available that contain item ``i``; ``count[i]`` how many
    chosen options contain it. An item is *covered* when it is full (``count ==
    upper``): every other option containing it is then removed from the sets of
    its other items. The search branches on the active primary item of least
    degree ``len(options_of[i]) + 1 - max(need, 0)`` with ``need = lower -
    count`` (the first such item in item order; a degree of 0 or 1 ends the scan).

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

    Yields the solutions as lists of option numbers (forced ones first, then in
    the order chosen). With ``split_depth`` it yields instead, for each branch
    alive at that depth (or solved above it), the pair (options taken,
    options excluded) describing that subtask. ``visit()`` is called on
    entering each node; while it returns true, the search yields :data:`PAUSE`
    there instead (the caller stops and may go on later). ``pick(k)``, called
    at each node with ``k`` children (the degree), walks one path down the tree
    instead of all of it: it gives the index, below ``k``, of the only child to
    enter, in the order above (a probe of Knuth's estimator, :class:`Search`'s
    ``probe``). ``path``, a list, holds the option of each branch taken from the
    root to the node the search is at (-1: a branch that leaves its item).
    ``follow``, such a path, yields instead ``(depth, on, taken, excluded)`` for
    the node at its end (``on`` true) and, in search order, for every sibling
    of a node on the way (``on`` false), each described as with ``split_depth``
    (:func:`rest` groups them).
    """
    n, m = len(lower), len(offsets) - 1
    option_items = [items[offsets[o] : offsets[o + 1]] for o in range(m)]
    no_colour = [0] * len(items)
    option_colours = [(colours or no_colour)[offsets[o] : offsets[o + 1]] for o in range(m)]
    colour_at = [dict(zip(option_items[o], option_colours[o])) for o in range(m)]
    refs = [0] * n  # chosen options colouring each item
    tint = [0] * n  # the colour they give it
    purified: dict[int, list[int]] = {}  # item -> the options its purification hid
    options_of: list[set[int]] = [set() for _ in range(n)]
    for o, items in enumerate(option_items):
        for i in items:
            options_of[i].add(o)
    count = [0] * n
    active = {i for i in range(n) if primary[i]}  # primary items still to decide
    order = sorted(active)
    chosen: list[int] = []
    excluded_now: list[int] = []  # for split_depth: options excluded on the way down

    def hide(option: int, keep: int) -> None:
        for i in option_items[option]:
            if i != keep:
                options_of[i].discard(option)

    def unhide(option: int, keep: int) -> None:
        for i in option_items[option]:
            if i != keep:
                options_of[i].add(option)

    def cover(item: int) -> None:
        active.discard(item)
        for option in options_of[item]:
            hide(option, item)

    def uncover(item: int) -> None:
        for option in options_of[item]:
            unhide(option, item)
        if primary[item]:
            active.add(item)

    def purify(item: int, colour: int) -> None:
        tint[item] = colour
        hidden = [o for o in sorted(options_of[item]) if colour_at[o][item] != colour]
        for option in hidden:
            hide(option, item)
        purified[item] = hidden

    def unpurify(item: int) -> None:
        for option in reversed(purified.pop(item)):
            unhide(option, item)

    def commit(option: int, skip: int = -1) -> None:
        # skip: the branching item, already covered
        for i, colour in zip(option_items[option], option_colours[option]):
            if colour:
                refs[i] += 1
                if refs[i] == 1:
                    purify(i, colour)
                continue
            count[i] += 1
            if i != skip and count[i] == upper[i]:
                cover(i)

    def uncommit(option: int, skip: int = -1) -> None:
        for i, colour in reversed(list(zip(option_items[option], option_colours[option]))):
            if colour:
                refs[i] -= 1
                if refs[i] == 0:
                    unpurify(i)
                continue
            if i != skip and count[i] == upper[i]:
                uncover(i)
            count[i] -= 1

    def take_out(option: int) -> None:
        hide(option, -1)

    def put_back(option: int) -> None:
        unhide(option, -1)

    def least_degree() -> tuple[int, int]:
        best_item, best = -1, None
        for i in order:
            if i in active:
                degree = len(options_of[i]) + 1 - max(lower[i] - count[i], 0)
                if best is None or degree < best:
                    best_item, best = i, degree
                    if degree <= 1:
                        break
        return best_item, best  # type: ignore[return-value]

    def aside(depth: int, branch: int) -> bool:
        """Is the child ``branch`` described, not entered: a sibling of the
        followed path, or a node at the split depth? (Its description needs no
        commit: the split of 6x10 by the pentominoes at depth 2 took 107 ms
        with one, 23 ms without; what a paused count has left, 32 ms and 6 ms.)"""
        if follow is not None:
            return follow[depth] != branch
        return depth + 1 == split_depth

    def described(depth: int, taken: list[int]) -> tuple:
        if follow is not None:
            return (depth + 1, False, taken, list(excluded_now))
        return (taken, list(excluded_now))

    def enter(depth: int, branch: int) -> Iterator[Any]:
        if path is not None:
            path.append(branch)
        if aside(depth, branch):
            yield described(depth, list(chosen))
        else:
            yield from search(depth + 1)
        if path is not None:
            path.pop()

    def search(depth: int) -> Iterator[Any]:
        while visit is not None and visit():
            yield PAUSE
        if follow is not None and depth == len(follow):
            yield (depth, True, list(chosen), list(excluded_now))
            return
        if split_depth is not None and (depth == split_depth or not active):
            yield (list(chosen), list(excluded_now))
            return
        if not active:
            if follow is None:  # (a leaf above the followed path's end: not on it)
                yield list(chosen)
            return
        item, degree = least_degree()
        if degree <= 0:
            return
        take = None if pick is None else pick(degree)  # the one child a walk enters
        if upper[item] - count[item] == 1:
            cover(item)
            options = sorted(options_of[item])
            for k, option in enumerate(options):
                if take is not None and k != take:
                    continue
                if aside(depth, option):
                    yield described(depth, [*chosen, option])
                    continue
                chosen.append(option)
                commit(option, skip=item)
                yield from enter(depth, option)
                uncommit(option, skip=item)
                chosen.pop()
            if lower[item] <= count[item] and take in (None, len(options)):
                # The item gets none of its options: for a subtask, say so.
                leaving = options
                excluded_now.extend(leaving)
                yield from enter(depth, -1)
                del excluded_now[len(excluded_now) - len(leaving) :]
            uncover(item)
        else:
            taken_out: list[int] = []
            while options_of[item] and len(options_of[item]) >= lower[item] - count[item]:
                option = min(options_of[item])
                take_out(option)
                if aside(depth, option):
                    yield described(depth, [*chosen, option])
                elif take is None or len(taken_out) == take:
                    chosen.append(option)
                    commit(option)
                    yield from enter(depth, option)
                    uncommit(option)
                    chosen.pop()
                taken_out.append(option)
                excluded_now.append(option)
            if lower[item] <= count[item] and take in (None, len(taken_out)):
                active.discard(item)
                yield from enter(depth, -1)
                active.add(item)
            for option in reversed(taken_out):
                put_back(option)
                excluded_now.pop()

    for option in excluded:
        if all(option in options_of[i] for i in option_items[option]):
            take_out(option)

    def fits(option: int) -> bool:
        """Can a forced option still be taken? Not when excluded (or forced
        twice), nor when one of its items is full or coloured otherwise by an
        earlier forced option (purification leaves an option of another colour
        in the coloured item's own set: a look at its first item's set misses
        that when it is the coloured item)."""
        if option not in options_of[option_items[option][0]]:
            return False
        return all(
            count[i] < upper[i] and (not refs[i] or colour == tint[i])
            for i, colour in zip(option_items[option], option_colours[option])
        )

    for option in forced:
        if not fits(option):
            return  # excluded, or clashes with an earlier forced option
        take_out(option)
        chosen.append(option)
        commit(option)
    excluded_now.extend(excluded)
    yield from search(0)


Node = tuple[list[int], list[int]]  # (options taken, options excluded), as split_depth gives


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
    arrays = (lower, upper, primary, offsets, items)
    ahead: list[list[Node]] = []
    behind: list[list[Node]] = []
    groups, last = behind, None  # the list being filled, and its last group's depth
    for depth, on, taken, left_out in search(
        *arrays, forced, excluded, colours=colours, follow=list(path)
    ):
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
