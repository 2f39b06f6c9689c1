"""Resumable count subtasks: a search counted for a budget of nodes, the rest handed back.

A count whose tree the probes weigh badly (a tiling count, an exact-cover
count) is cut into subtasks that each count below a few *nodes* of the tree
and stop after a budget: at most the larger of :data:`TASK_NODES` nodes and
1/:data:`BUDGET_SHARE` of the estimated whole (:func:`node_budget`), and at
most :data:`TASK_SECONDS` (in a worker process, also once another worker sits
idle). A subtask that stops returns a :class:`~polyforms.jobs.Continued`
naming the rest of its tree as groups of nodes, each weighed by Knuth's
estimate, which the job's ``resume`` turns into new subtasks. The budget is
small enough to share out a subtask the probes underweighed instead of leaving
it one worker's tail, large enough that the subtasks handed back cost nothing
a two-worker run shows; the time bound makes a long count journal its work
(``--checkpoint``) and move its progress at least that often, even where every
subtask holds more nodes than a run can visit. A split count starts from
:data:`SPLIT_TASKS` subtasks (:func:`~polyforms.jobs.plan` refines heavy ones).

:func:`resumable_count` is the subtask's loop; each side supplies only its
search, as a :class:`CountSearch`: start below a node, count a stretch, say
where it stopped, weigh a group of nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tasks import Continued


__all__ = [
    "BUDGET_SHARE",
    "SPLIT_TASKS",
    "TASK_NODES",
    "TASK_SECONDS",
    "CountSearch",
    "node_budget",
    "resumable_count",
]

#: Subtasks a split count starts from.
SPLIT_TASKS = 64
#: Nodes a count's subtask may always visit before it hands back the rest ...
TASK_NODES = 1 << 20
#: ... or this share (1/BUDGET_SHARE) of the estimated whole, if that is more ...
BUDGET_SHARE = 32
#: ... and at most this many seconds.
TASK_SECONDS = 60.0


def node_budget(whole: float) -> int:
    """The nodes a subtask may visit when the whole count is estimated at ``whole``."""
    return max(TASK_NODES, int(whole / BUDGET_SHARE))


class CountSearch:
    """One side's search as :func:`resumable_count` runs it below a list of nodes.

    A node and a group of nodes are the side's own values; the groups a
    stopped subtask hands back are JSON values (:meth:`as_json`), since a
    checkpoint journals them.

    Attributes
    ----------
    skips : bool
        True when the search skips subtrees without visiting them (a memo), so
        the nodes it visited undercount the work behind it; the share done is
        then weighed from the groups it searched (:meth:`stopped_at`).
    """

    skips = False

    def start(self, node: Any) -> None:
        """Count below ``node`` from now on."""
        raise NotImplementedError

    def count(self, budget: int, stop: Callable[[], bool]) -> tuple[int, int, bool]:
        """Go on counting for about ``budget`` nodes (0 or less once the subtask's
        earlier nodes used it up: stop at the first chance) or until ``stop()``;
        return what it found and visited, and True when the node's tree is done."""
        raise NotImplementedError

    def stopped_at(self, first: bool) -> tuple[list, list] | None:
        """What is left of the node's tree where the count stopped, as groups of
        nodes in the order the search takes them, and the groups it searched
        before (used when :attr:`skips`). None to go on counting instead (a stop
        that made no progress; ``first``: in the subtask's first node)."""
        raise NotImplementedError

    def group(self, nodes: Sequence[Any]) -> list:
        """The subtask's nodes not yet started, as one group."""
        return list(nodes)

    def weight(self, group: list) -> float:
        """Knuth's estimate of the nodes below a group of nodes
        (:func:`~polyforms.jobs.group_weight`)."""
        raise NotImplementedError

    def as_json(self, groups: list) -> list:
        """The groups as a checkpoint journals them."""
        return groups


def resumable_count(
    search: CountSearch, nodes: Sequence[Any], budget: int, seconds: float
) -> int | Continued:
    """A count subtask: what ``search`` counts below each of ``nodes``, or, once it
    has visited ``budget`` nodes or run ``seconds`` (or, in a worker process,
    while another worker sits idle: :func:`~polyforms.jobs.processes.stop_when`),
    a :class:`~polyforms.jobs.Continued` of what it found and the rest of its
    tree, each group weighed, with the share of its work done. The count is the
    same wherever it stops.
    """
    from .processes import stop_when

    stop = stop_when(seconds)
    found = visited = 0
    for j, node in enumerate(nodes):
        search.start(node)
        while True:
            counted, stretch, done = search.count(budget - visited, stop)
            found, visited = found + counted, visited + stretch
            if done:
                break
            left = search.stopped_at(j == 0)
            if left is not None:
                return _handed_back(search, nodes, j, left, found, visited)
    return found


def _handed_back(
    search: CountSearch, nodes: Sequence[Any], j: int, left: tuple[list, list], found: int,
    visited: int,
) -> Continued:  # fmt: skip
    """The :class:`Continued` of a subtask stopped in its ``j``-th node."""
    rest, searched = left
    if j + 1 < len(nodes):
        rest.append(search.group(nodes[j + 1 :]))
    weights = [search.weight(group) for group in rest]
    # The share done weighs what was searched against what is left, both in
    # Knuth's estimates (counting siblings instead, as Knuth's programs report
    # progress, makes the ETA swing by orders of magnitude on lopsided trees).
    if search.skips:
        if j:
            searched.append(search.group(nodes[:j]))
        behind = sum(search.weight(group) for group in searched)
    else:
        behind = float(visited)  # exact
    share = behind / (behind + sum(weights)) if behind > 0 else 0.0
    from .tasks import Continued  # here: a count that never splits does not load the job layer

    return Continued(found, search.as_json(rest), weights, share)
