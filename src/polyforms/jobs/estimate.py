"""Knuth's estimate of the size of a backtrack tree, by random probes.

D. E. Knuth, "Estimating the efficiency of backtrack programs", Mathematics
of Computation 29 (1975) 121-136. A probe walks from the root to a leaf,
choosing each child uniformly at random; with ``d1, d2, ...`` the branching
degrees met, ``1 + d1 + d1 d2 + ...`` is an unbiased estimate of the number
of nodes, and ``d1 d2 ... dk`` of the number of leaves of the kind the probe
ends on. The mean of many probes converges; its standard error is reported.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from .tasks import JobError, Task

__all__ = [
    "Estimate", "estimate_partial", "estimate_tree", "estimate_weights", "frontier", "group_weight"
]  # fmt: skip


# --------------------------------------------------------------------------
# Knuth's estimator


class Estimate(NamedTuple):
    """Means over ``probes`` random paths, and their standard errors (nan for one probe)."""

    nodes: float
    solutions: float
    probes: int
    nodes_error: float
    solutions_error: float


def estimate_tree(
    children: Callable[[Any], Sequence[Any]],
    root: Any,
    *,
    probes: int = 100,
    seed: int = 0,
    is_solution: Callable[[Any], bool] | None = None,
) -> Estimate:
    """Estimate the size of a search tree by Knuth's random probes.

    Each probe walks from ``root`` to a leaf, choosing a uniformly random child
    at each node; with branching degrees ``d1, d2, ...`` along the path its
    estimate of the node count is ``1 + d1 + d1*d2 + ...``, and of the
    solutions ``d1*d2*...*dk`` if the leaf reached is a solution
    (``is_solution(leaf)``; every leaf when it is None), else 0. Both are
    unbiased; the result is their mean over ``probes`` probes, reproducible
    for a fixed ``seed``.

    References
    ----------
    D. E. Knuth, "Estimating the efficiency of backtrack programs",
    Mathematics of Computation 29 (1975) 121-136.

    Examples
    --------
    >>> estimate_tree(lambda n: [2 * n, 2 * n + 1] if n < 8 else [], 1).nodes
    15.0
    """
    if probes < 1:
        raise JobError(f"probes must be at least 1, not {probes}")
    rng = random.Random(seed)
    nodes: list[float] = []
    solutions: list[float] = []
    for _ in range(probes):
        node, scale, size = root, 1, 1  # Python ints: exact however wide the tree
        while True:
            kids = children(node)
            if not isinstance(kids, Sequence):
                kids = list(kids)
            if not kids:
                break
            scale *= len(kids)
            size += scale
            node = kids[rng.randrange(len(kids))]
        nodes.append(float(size))
        solutions.append(float(scale) if is_solution is None or is_solution(node) else 0.0)
    (node_mean, node_error), (solution_mean, solution_error) = map(_mean, (nodes, solutions))
    return Estimate(node_mean, solution_mean, probes, node_error, solution_error)


def _mean(values: list[float]) -> tuple[float, float]:
    mean = math.fsum(values) / len(values)
    if len(values) < 2:
        return mean, math.nan
    variance = math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


def estimate_weights(
    tasks: Iterable[Task],
    estimator: Callable[[Task, int, int], float | Estimate],
    *,
    probes: int = 64,
    seed: int = 0,
) -> list[Task]:
    """The tasks with weights ``estimator(task, probes, task_seed)`` (a number or an Estimate).

    ``task_seed`` derives from ``seed`` and the task's id only, so a task gets
    the same weight wherever it stands, and plans stay deterministic. An
    :class:`Estimate` counts by its ``nodes``.
    """
    weighted = []
    for task in tasks:
        task_seed = zlib.crc32(f"{seed}:{task.id}".encode())
        value = estimator(task, probes, task_seed)
        weight = value.nodes if isinstance(value, Estimate) else float(value)
        weighted.append(dataclasses.replace(task, weight=weight))
    return weighted


#: Nodes of a group probed (one probe each) by :func:`group_weight`.
GROUP_PROBES = 4


def group_weight(probe: Callable[[Any, int], float], group: Sequence[Any]) -> float:
    """Knuth's estimate of the nodes below a group of nodes (what a stopped subtask
    hands back): ``probe(node, seed)`` of every ``len(group) // GROUP_PROBES``-th
    node, seeded by the node's repr, scaled to the group."""
    step = max(1, len(group) // GROUP_PROBES)
    sampled = group[::step]
    total = sum(probe(node, zlib.crc32(repr(node).encode())) for node in sampled)
    return total * len(group) / len(sampled)


def frontier(children: Callable[[Any], Sequence[Any]], root: Any, want: int) -> list[Any]:
    """About ``want`` nodes whose subtrees partition the tree below ``root``, in tree order.

    Breadth first, level by level, each node replaced in place by its children
    (which keeps the order of a depth-first search); a level is cut short once
    there are enough. Leaves and dead ends stay as they are.

    Examples
    --------
    >>> frontier(lambda n: [2 * n, 2 * n + 1] if n < 8 else [], 1, 5)
    [8, 9, 5, 6, 7]
    """
    nodes: list[Any] = [root]
    while len(nodes) < want:
        deeper: list[Any] = []
        for k, node in enumerate(nodes):
            if len(deeper) + len(nodes) - k >= want:
                deeper.extend(nodes[k:])
                break
            deeper.extend(children(node) or [node])
        if len(deeper) == len(nodes):
            break  # only leaves and dead ends left
        nodes = deeper
    return nodes


# --------------------------------------------------------------------------
# Partial backtracking: probes that count their last levels exactly


GIVE_UP = 5
"""An exact count of :func:`estimate_partial` may stop after this many times ``slow``."""


class TimedEstimate(NamedTuple):
    """Estimated nodes, solutions and seconds of a whole search, from ``probes`` probes."""

    nodes: float
    solutions: float
    seconds: float
    probes: int


def _as_float(value: int) -> float:
    """``float(value)``, or infinity for an int beyond the floats (an astronomical tree)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def estimate_partial(
    children: Callable[[Any], Sequence[Any]],
    count: Callable[[Any, float], tuple[int, int, float] | None],
    root: Any,
    *,
    depth: int,
    budget: float,
    seed: int = 0,
    slow: float = 0.2,
    min_probes: int = 2,
    max_probes: int = 100_000,
) -> TimedEstimate:
    """Estimate a search by random probes that count the subtree where they stop.

    A probe walks from ``root`` choosing a uniformly random child at each node
    (Knuth 1975) until it is ``depth`` levels deep or at a leaf, then counts
    the subtree there exactly: ``count(node, give_up)`` gives its (solutions,
    nodes, seconds), or None when it stopped after ``give_up`` seconds
    (``GIVE_UP`` times ``slow``) without finishing; the probe then walks one
    level further and counts there. The product of the branching degrees
    times the subtree's solutions (nodes) is an unbiased estimate of the whole
    search's solutions (nodes); counting the last levels exactly removes most
    of the variance that makes plain probes useless for rare solutions
    (Purdom, "Tree size by partial backtracking", SIAM J. Comput. 7 (1978)
    481-491). Where a probe stops may depend on the subtree (its size, or how
    long it took), not on the random choices below it, so giving up keeps the
    estimate unbiased. The depth grows by one each time a subtree takes more
    than ``slow`` seconds or is given up. Probes run for about ``budget``
    seconds (at least ``min_probes`` of them). The time of the whole search is
    the estimated number of nodes at the rate the exact counts ran (a per-node
    rate: the set-up of each count, which the whole search pays once, is not
    scaled up with it).

    Examples
    --------
    >>> tree = lambda n: [2 * n, 2 * n + 1] if n < 64 else []
    >>> found = estimate_partial(tree, lambda leaf, _: (1, 1, 0.0), 1, depth=9, budget=0)
    >>> found.nodes, found.solutions
    (127.0, 64.0)
    """
    if depth < 0:
        raise JobError(f"depth must be at least 0, not {depth}")
    rng = random.Random(seed)
    node_sum = solution_sum = 0  # Python ints: a product of degrees can pass any float
    counted_nodes, counted_seconds = 0, 0.0
    probes = 0
    deadline = time.perf_counter() + budget
    while probes < min_probes or (time.perf_counter() < deadline and probes < max_probes):
        node, scale, walked = root, 1, 1  # walked: nodes met on the way, Knuth's weighting
        level = 0
        while True:
            kids = children(node) if level < depth else ()
            if kids:
                scale *= len(kids)
                walked += scale
                node = kids[rng.randrange(len(kids))]
                level += 1
                continue
            # A leaf has nothing below to walk to: its count is never given up.
            found = count(node, GIVE_UP * slow if level == depth else math.inf)
            if found is not None:
                break
            depth = level + 1  # given up: walk one level further, here and from now on
        solutions, nodes, took = found
        if took > slow:
            depth = max(depth, level + 1)  # subtrees too costly to count many of: cut deeper
        node_sum += walked - scale + scale * max(nodes, 1)
        solution_sum += scale * solutions
        counted_nodes += max(nodes, 1)
        counted_seconds += took
        probes += 1
    node_estimate = _as_float(node_sum) / probes
    return TimedEstimate(
        node_estimate,
        _as_float(solution_sum) / probes,
        node_estimate * counted_seconds / counted_nodes,
        probes,
    )
