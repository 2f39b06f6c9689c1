"""An exact-cover search cut into subtasks for the job layer (:mod:`polyforms.jobs`).

A node of the search tree is a pair ``(forced, excluded)`` of option lists: the
search below it is the search with those options forced and excluded, so a
node is a subtask any process can run (:meth:`ExactCover.split` hands such
pairs to the user). :class:`SplitJob` cuts a search into the nodes of its
first levels, in search order, each weighed by Knuth's probes of its subtree;
a count (:class:`CountJob`) runs each node with a budget of nodes and
seconds, and a node that runs past it stops where it stands and hands back
the rest of its tree as new nodes (:func:`count_task`).
"""

from __future__ import annotations

import zlib
from typing import Any

from ..jobs import resumable
from ..jobs.resumable import CountSearch
from . import _exactcover_py
from .cores import engine_for, new_search, prober
from .flat import Flat, shared_flat

__all__ = ["CountJob", "CoverCount", "SplitJob", "count_task", "split_tasks"]

PROBES = 16
"""Knuth probes per subtask for its weight. Probes of dancing links cost little
beside the subtask they weigh; the readable twin takes a quarter of them, each
of its probes building its sets again."""

#: Nodes a subtask counts between two looks at its budget, the clock and its peers:
#: a few milliseconds of either core (the readable twin is hundreds of times slower).
_SLICE = {False: 1 << 16, True: 1 << 7}

Node = _exactcover_py.Node  # (options forced, options excluded): a node of the search


def count_task(
    digest: str, arrays: tuple, python: bool, nodes: list[Node], budget: int, seconds: float
) -> int | Any:
    """A subtask: the solutions below each of ``nodes``, a node being the options
    forced and the options excluded there, counted by
    :func:`polyforms.jobs.resumable_count`.

    After ``budget`` nodes or ``seconds`` (or in a worker process once another
    worker sits idle) it stops where it stands and returns a
    :class:`~polyforms.jobs.Continued` naming what is left, as groups of nodes
    (:func:`_exactcover_py.rest`) with their weights; the count is the same
    wherever it stops.
    """
    search = CoverCount(shared_flat(digest, arrays), python)
    return resumable.resumable_count(search, nodes, budget, seconds)


class CoverCount(CountSearch):
    """An exact-cover core as a resumable count (:class:`polyforms.jobs.CountSearch`):
    its nodes are ``(forced, excluded)`` pairs, searched by the bitset core or
    dancing links (:func:`~polyforms.exactcover.cores.engine_for`), or the twin
    when ``python``."""

    def __init__(self, flat: Flat, python: bool) -> None:
        self.flat, self.python = flat, python
        self.engine = _exactcover_py.Search if python else engine_for(None, flat)
        self.stretch = _SLICE[python]
        self.node: Node = ([], [])

    def start(self, node: Node) -> None:
        self.node = node
        self.search = new_search(self.engine, self.flat, *node)

    def count(self, budget: int, stop) -> tuple[int, int, bool]:
        search, found, visited = self.search, 0, 0
        while True:
            stretch = self.stretch
            if visited < budget:
                stretch = min(stretch, budget - visited)
            before = search.nodes
            found += search.count(nodes=stretch)
            visited += search.nodes - before
            if search.done:
                return found, visited, True
            if visited >= budget or stop():
                return found, visited, False

    def stopped_at(self, first: bool) -> tuple[list, list] | None:
        """The rest of the node's tree from where the search stands. None when it
        stopped where it started: a branch that leaves an item with no option is
        described as its parent, and a chain of them would be handed back
        unchanged for ever; the subtask goes on instead."""
        forced, excluded = self.node
        flat = self.flat
        rest = _exactcover_py.rest(*flat.arrays, forced, excluded, self.search.path, flat.colours)[
            0
        ]
        if first and rest[0][0] == (list(forced), list(excluded)):
            return None
        # Nodes visited and Knuth's estimates measure the same tree (the children
        # given up during their commit count in both; the bitset core's count may
        # differ by a node here and there), so the share done is as good as the
        # rest's estimate.
        return rest, []

    def weight(self, group: list) -> float:
        from ..jobs.estimate import group_weight

        weigher = prober(self.python)

        def probe(node: Node, seed: int) -> float:
            return new_search(weigher, self.flat, *node).probe(1, seed)

        return group_weight(probe, group)

    def as_json(self, groups: list) -> list:
        return [[[list(f), list(e)] for f, e in group] for group in groups]


def split_tasks(flat: Flat, initial: list[int]) -> list[Node]:
    """The (forced, excluded) subtasks of the first split depth with at least
    :data:`SPLIT_TASKS` of them (or the deepest that still widens), in search order."""
    depth, found = 0, [(list(initial), [])]
    while len(found) < resumable.SPLIT_TASKS:
        deeper = list(
            _exactcover_py.search(
                *flat.arrays, initial, [], split_depth=depth + 1, colours=flat.colours
            )
        )
        if len(deeper) <= len(found):
            break  # the tree is no wider below: nothing to gain
        depth, found = depth + 1, deeper
    return found


class SplitJob:
    """What the exact-cover jobs share (see :class:`polyforms.jobs.Job`): the
    subtasks of :func:`split_tasks`, colours (Algorithm C) included, each weighing
    Knuth's estimate of its nodes (:data:`PROBES` probes of dancing links, whose
    tree the bitset core walks too; of the twin when ``python``), so the progress
    follows the work and :func:`jobs.plan` cuts the heavy subtasks one level
    further (:meth:`refine`). A job defines ``task``, the
    :class:`~polyforms.jobs.Task` of a node, with its weight given."""

    def __init__(self, flat: Flat, initial: list[int], python: bool) -> None:
        self.flat, self.initial, self.python = flat, initial, python
        self.arrays = (*flat.arrays, flat.colours)
        self.prober = prober(python)
        self.probes = PROBES if self.prober is not _exactcover_py.Search else PROBES // 4

    def task(self, task_id: str, forced: list[int], excluded: list[int], weight: float):
        raise NotImplementedError

    def _weighed(self, task_id: str, forced: list[int], excluded: list[int]):
        search = new_search(self.prober, self.flat, forced, excluded)
        nodes = search.probe(self.probes, zlib.crc32(task_id.encode()))
        return self.task(task_id, forced, excluded, max(nodes, 1.0))

    def tasks(self) -> list:
        found = split_tasks(self.flat, self.initial)
        return [self._weighed(str(i), f, e) for i, (f, e) in enumerate(found)]

    def _node(self, task) -> Node:
        """The (forced, excluded) node ``task`` searches below."""
        return task.args[-2:]

    def refine(self, task) -> list | None:
        """The children of ``task``'s node in search order (one level of the twin's
        split), or None where there is nothing to share out."""
        forced, excluded = self._node(task)
        children = _exactcover_py.children(*self.flat.arrays, forced, excluded, self.flat.colours)
        if not children:
            return None
        return [self._weighed(f"{task.id}.{k}", f, e) for k, (f, e) in enumerate(children)]


class CountJob(SplitJob):
    """An exact-cover count cut into subtasks (:class:`SplitJob`), each of which
    may stop and hand back the rest (:func:`count_task`, :meth:`resume`)."""

    def __init__(self, flat: Flat, initial: list[int], python: bool) -> None:
        import hashlib
        import pickle

        super().__init__(flat, initial, python)
        self.digest = hashlib.sha1(pickle.dumps((self.arrays, initial))).hexdigest()[:16]
        self.key = f"exact cover count {self.digest}"
        self.budget = resumable.TASK_NODES  # set from the estimates by tasks()

    def task(self, task_id: str, forced: list[int], excluded: list[int], weight: float):
        return self._task(task_id, [(forced, excluded)], weight)

    def _task(self, task_id: str, nodes: list, weight: float):
        from ..jobs.tasks import Task

        args = (self.digest, self.arrays, self.python, nodes, self.budget, resumable.TASK_SECONDS)
        return Task(task_id, count_task, args, weight)

    def tasks(self) -> list:
        weighed = super().tasks()
        whole = sum(task.weight for task in weighed)
        self.budget = resumable.node_budget(whole)
        return [self._task(task.id, task.args[3], task.weight) for task in weighed]

    def _node(self, task) -> Node:
        [node] = task.args[3]
        return node

    def resume(self, task, rest: list, weights: list) -> list:
        """The subtasks that count what ``task`` left (see :func:`count_task`)."""
        m = len(self.flat.offsets) - 1

        def options(value: Any) -> bool:
            return isinstance(value, list) and all(type(o) is int and 0 <= o < m for o in value)

        for group in rest:
            for node in group:
                if not (isinstance(node, list) and len(node) == 2 and all(map(options, node))):
                    raise ValueError(f"a node is not two lists of options: {node!r:.60}")
        return [
            self._task(f"{task.id}.c{k}", [tuple(node) for node in group], weight)
            for k, (group, weight) in enumerate(zip(rest, weights))
        ]
