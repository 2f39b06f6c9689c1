"""Count polyominoes by transfer matrices, far beyond enumeration.

Redelmeier's search visits every polyomino, about 4.06ⁿ of them. The transfer
matrix (Jensen 2001, 2003; Knuth's POLYNUM) never builds one: for each width
of the bounding box it sweeps the box cell by cell, keeping only the states of
the frontier (which of its cells are filled and how they are joined), merged
and pruned, about 1.5ⁿ of them. The method is explained in the readable twin
:mod:`polyforms.enumeration._transfer_py`; the compiled core is :mod:`polyforms._core._transfer`.

Free and one-sided counts follow by Burnside's lemma from the fixed count and
the numbers of polyominoes each non-trivial symmetry of the square maps to
themselves (:mod:`polyforms.enumeration.burnside`, an orbit search: the symmetric
polyominoes are about 2ⁿ, far fewer than 4.06ⁿ, but their search dominates
from n = 26 or so).

Subtasks
--------
The widths are independent sweeps: each is one :class:`polyforms.jobs.Task`
(id ``w<width>``, weighted by a model of its cost), and so is each part of a
Burnside term (id ``s<k>``: one centre of one symmetry, a quarter of its
roots), so a count runs on several processes or Dask, and resumes from a
checkpoint; the result does not depend on how it ran. Each width's result
carries its peak number of states and peak memory, reported by
:func:`count_report`.

Exactness: counts are kept modulo 2**64 while that is provably enough
(``4.5252**n < 2**64``, n <= 29: the growth constant of polyominoes is at most
4.5252, Barequet and Shalah 2022, and ``A(n) <= λⁿ`` since ``A`` is
supermultiplicative), and modulo 2**128 above (two words a coefficient).

References
----------
I. Jensen, "Enumerations of lattice animals and trees", J. Stat. Phys. 102
(2001); "Counting polyominoes: a parallel implementation for cluster
computing", ICCS 2003. D. E. Knuth, POLYNUM and POLYSLAVE (2001).
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from .. import _backend, geometry
from .. import jobs as _jobs
from ..errors import TooLargeError
from ..jobs import executors as _executors
from ..jobs.options import ONE_CALL, LongRun
from ..limits import available_memory
from . import burnside as _burnside
from .redelmeier import Estimate

__all__ = [
    "count",
    "count_report",
    "estimate",
    "memory_needed",
    "sweep",
    "sweep_estimate",
    "Report",
    "CROSSOVER",
    "MAX_SIZE",
    "WIDE_FROM",
    "TIME_LIMIT",
]

#: The largest size: its widest box, (n + 1) // 2 columns, must fit the packed frontier
#: (26 cells in base 5); counts stay exact (modulo 2**128) to n = 58.
MAX_SIZE = 51
#: From this size on, counts are kept modulo 2**128 (below it 4.5252**n < 2**64).
WIDE_FROM = 30
#: Refuse (without ``force``) a count estimated to run longer than this, in seconds.
TIME_LIMIT = 3600.0
#: :func:`polyforms.enumeration.generate.count` uses the transfer matrix for 2D
#: counts from this size on: the first size whose fixed count it finishes before
#: Redelmeier's search does on one core (a few milliseconds each at n = 13; the
#: transfer matrix's lead then grows about 2.7 times a size). Free and one-sided
#: counts add the same Burnside terms to either, so the crossover is the same.
CROSSOVER = 13


def _kernel():
    return _backend.kernel("transfer")


def _check(n: object, kind: object) -> None:
    """The checks of the public entry points: a size and a kind."""
    geometry.check_size(n)
    geometry.check_kind(kind)


def _check_reach(n: int) -> None:
    """Refuse a size beyond the counter's reach (every entry point, trusted or not)."""
    if n > MAX_SIZE:
        raise TooLargeError(
            f"the transfer-matrix counter goes up to size {MAX_SIZE} (boxes "
            f"{(MAX_SIZE + 1) // 2} wide fill its packed frontier), not {n}"
        )


def _widths(n: int) -> range:
    return range(1, (n + 1) // 2 + 1)


def _weight(n: int, width: int) -> float:
    """A model of a width's cost, for planning (peak at ``p = n // 2 - 2``).

    The cost grows about 2.6 times a column up to ``p``; the next width costs
    1.25 times as much at n = 26, 1.03 at 28, 0.76 at 30 (measured CPU), and
    the widest boxes hold few polyominoes (every one spans a near-square box).
    """
    peak = max(1, n // 2 - 2)
    weight = 2.6 ** min(width, peak)
    if width == peak + 1:
        weight *= min(1.3, max(0.3, 1.25 - 0.12 * (n - 26)))
    elif width > peak + 1:
        weight *= 0.1
    return weight


def _width_task(n: int, width: int, wide: bool) -> list[int]:
    """One subtask: ``[count of size n for this width, peak states, peak bytes]``."""
    square, tall, states, memory = _kernel().count_width(n, width, 0, wide)
    return [square[n] + 2 * tall[n], states, memory]


#: Each search of a Burnside term (one centre of one symmetry) is cut into this
#: many tasks, its roots dealt out in turn.
SYMMETRIC_PARTS = 4
# The share of each term's CPU time (measured at n = 28; only for weights).
_TERM_SHARE = {
    ((0, 1), (-1, -1)): 0.90,  # half turn
    ((0, 1), (1, -1)): 0.07,  # mirror in an axis
    ((1, 0), (1, 1)): 0.03,  # mirror in a diagonal
    ((1, 0), (1, -1)): 0.001,  # quarter turn
}


def _symmetric_task(n: int, element: Any, shift: Any, roots: Any, times: int) -> int:
    """One subtask of a Burnside term: ``times`` the symmetric polyominoes rooted at ``roots``."""
    perm, signs = element
    return times * _backend.kernel("symmetric").count_invariant(n, perm, signs, shift, roots)


class _Job:
    """A count of size ``n`` cut into subtasks (see jobs.Job): one per box width
    (``w<width>``, the fixed count) and, for the other kinds, the Burnside
    terms by centre and part of the roots (``s<k>``, the symmetric counts)."""

    def __init__(self, n: int, kind: str = "fixed") -> None:
        self.n, self.kind = n, kind
        self.wide = n >= WIDE_FROM
        self.key = f"transfer-matrix count n={n}" + ("" if kind == "fixed" else f" kind={kind}")

    def tasks(self) -> list[_jobs.Task]:
        """One task a width, the heaviest first.

        The results are summed, so any order merges to the same count; the
        job layer dispatches in this order, and longest first keeps two
        workers level (at n = 30 the widest three widths are 37, 28 and 20 %
        of the CPU: 37 + 8 + 3 + ... against 28 + 20 + 2 + ...).
        """
        widths = sorted(_widths(self.n), key=lambda width: (-_weight(self.n, width), width))
        tasks = [
            _jobs.Task(f"w{width}", _width_task, (self.n, width, self.wide), _weight(self.n, width))
            for width in widths
        ]
        if self.kind == "fixed":
            return tasks
        # weights on the widths' scale, by the time models of the two parts
        scale = sum(task.weight for task in tasks) / _seconds(self.n, "fixed")
        symmetric = _seconds(self.n, self.kind) - _seconds(self.n, "fixed")
        terms = _burnside.terms(2, self.kind)
        shares = sum(_TERM_SHARE.get(element, 0.01) for element, _ in terms)
        parts = []
        for element, times in terms:
            found = _burnside.searches(self.n, 2, element)
            roots = sum(len(cells) for _, cells in found) or 1
            seconds = symmetric * _TERM_SHARE.get(element, 0.01) / shares
            for shift, cells in found:
                for part in range(SYMMETRIC_PARTS):
                    chunk = cells[part::SYMMETRIC_PARTS]
                    if chunk:
                        weight = scale * seconds * len(chunk) / roots
                        parts.append((weight, (self.n, element, shift, chunk, times)))
        order = sorted(range(len(parts)), key=lambda i: -parts[i][0])
        tasks += [_jobs.Task(f"s{i}", _symmetric_task, parts[i][1], parts[i][0]) for i in order]
        return sorted(tasks, key=lambda task: -task.weight)


class Report(NamedTuple):
    """A transfer-matrix count with what it cost: peak states and bytes over the widths."""

    count: int
    fixed: int
    states: int
    memory: int
    seconds: float


def memory_needed(n: int) -> int:
    """Estimated peak bytes of one width's tables at size ``n`` (the widest costs most).

    Measured peaks (two tables, hash index included): 14 MB at n = 24, 28 MB at
    n = 28, 56 MB at n = 30, 112 MB at n = 32 (words of 2**128 from 30): about
    doubling every two sizes. The model adds a third for safety.

    Examples
    --------
    >>> memory_needed(28)
    37240000
    """
    _check(n, "fixed")
    _check_reach(n)
    return _memory(n)


def _memory(n: int) -> int:
    """:func:`memory_needed` of a size already checked."""
    if n <= 20:
        return 4 << 20
    return int(1.33 * 28e6 * 2.0 ** ((n - 28) / 2) * (1.3 if n >= WIDE_FROM else 1.0))


def _seconds(n: int, kind: str) -> float:
    """A model of a count's time on one core (measured on the 2-core benchmark machine).

    The fixed count: 3.6 s at n = 28, about 2.5 times more every two sizes.
    The symmetric polyominoes of Burnside's lemma (an orbit search, dominated
    by the half-turn): 0.27 s at n = 20, 12 s at n = 26, 1.9 times more a size.
    """
    seconds = 3.6 * 2.5 ** ((n - 28) / 2)
    if kind != "fixed":
        seconds += 0.27 * 1.9 ** (n - 20)
    return seconds


def _refuse_if_too_big(n: int, kind: str, workers: int, force: bool) -> None:
    if force:
        return
    seconds = _seconds(n, kind)
    if seconds > TIME_LIMIT:
        raise TooLargeError(
            f"counting {kind} polyominoes of size {n} would take about {seconds / 3600:.2g} "
            f"hours (limit {TIME_LIMIT / 3600:.2g}); use force=True (--force) to insist"
        )
    need = _memory(n) * max(1, workers)
    have = available_memory()
    if have and need > have:
        raise TooLargeError(
            f"the transfer-matrix count of size {n} needs about {need / 2**30:.1f} GiB "
            f"({max(1, workers)} worker(s)), more than the {have / 2**30:.1f} GiB available; "
            "use fewer jobs, or force=True (--force) to insist"
        )


def count_report(
    n: int,
    kind: str = "fixed",
    *,
    jobs: int = 1,
    progress: Any = None,
    executor: Any = None,
    checkpoint: Any = None,
    force: bool = False,
) -> Report:
    """Count the polyominoes of size ``n`` of a kind; report the cost too.

    Parameters are those of :func:`count`.

    Returns
    -------
    Report
        ``count`` (of the kind), ``fixed`` (the fixed count), ``states`` and
        ``memory``: the peak over the widths of one sweep's states and bytes,
        ``seconds``: wall time.
    """
    _check(n, kind)
    return sweep(n, kind, LongRun(jobs, executor, checkpoint, progress), force=force)


def sweep(
    n: int, kind: str = "fixed", options: LongRun = ONE_CALL, *, force: bool = False
) -> Report:
    """:func:`count_report` without its checks of ``n`` and ``kind``, which are trusted,
    the long-run options one value.

    Its callers have checked them (:func:`count_report`,
    :func:`polyforms.enumeration.generate.count`); the counter's own limits
    (:data:`MAX_SIZE`, and unless ``force`` the time and memory) are checked here.
    """
    _check_reach(n)
    start = time.perf_counter()
    # Worker processes hold a sweep each; they are capped at the cores (Processes).
    cores = _executors.available_cores()
    workers = 1 if not options.split else min(options.jobs or cores, cores)
    _refuse_if_too_big(n, kind, workers if options.executor is None else 1, force)
    job = _Job(n, kind)
    if options.split:
        done = list(options.run(job))
    else:
        done = [(task, task.function(*task.args)) for task in job.tasks()]
    results = [result for task, result in done if task.id.startswith("w")]
    fixed = sum(result[0] for result in results) % (1 << (128 if job.wide else 64))
    if kind != "fixed":
        symmetric = sum(result for task, result in done if task.id.startswith("s"))
        total = _burnside.combine(fixed, symmetric, 2, kind)
    else:
        total = fixed
    return Report(
        total,
        fixed,
        max(result[1] for result in results),
        max(result[2] for result in results),
        time.perf_counter() - start,
    )


def count(
    n: int,
    kind: str = "fixed",
    *,
    jobs: int = 1,
    progress: Any = None,
    executor: Any = None,
    checkpoint: Any = None,
    force: bool = False,
) -> int:
    """Count the polyominoes of size ``n`` of a kind by transfer matrices.

    Parameters
    ----------
    n : int
        Number of cells, 1 to :data:`MAX_SIZE`.
    kind : {"fixed", "one-sided", "free"}
    jobs, progress, executor, checkpoint
        As for :func:`polyforms.enumeration.redelmeier.count`: the widths are subtasks of
        the job layer (local processes, Dask, resumable checkpoints).
    force : bool
        Run even when the estimated memory exceeds what the machine has, or
        the estimated time exceeds :data:`TIME_LIMIT`.

    Returns
    -------
    int

    Raises
    ------
    TooLargeError
        Above :data:`MAX_SIZE`, when the tables would not fit in memory, or
        when the count would take longer than :data:`TIME_LIMIT` (free and
        one-sided counts from n = 35: the symmetric polyominoes).

    Notes
    -----
    Time grows about 2.5 times every two sizes (fixed n = 28 in a few
    seconds, n = 32 in about half a minute on one core); memory doubles every
    two sizes (:func:`memory_needed`). Free and one-sided counts add the
    symmetric polyominoes counted by :mod:`polyforms.enumeration.burnside`, which grow
    about 1.9 times a size and dominate from n = 26 or so (free n = 28 in
    about a minute).

    Examples
    --------
    >>> count(12), count(12, "one-sided"), count(12, "free")
    (505861, 126759, 63600)
    """
    _check(n, kind)
    return sweep(n, kind, LongRun(jobs, executor, checkpoint, progress), force=force).count


def estimate(n: int, kind: str = "fixed", budget: float = 0.5) -> Estimate:
    """Estimate a transfer-matrix count without running it.

    Two small counts (sizes ``m - 2`` and ``m``, ``m = min(n, 22)`` with the
    parity of ``n``) are run and timed; their peak states and seconds grow
    geometrically every two sizes, which gives those of size ``n``.

    Returns
    -------
    Estimate
        ``nodes``: the peak number of frontier states held by one sweep (the
        tables' size, which is what memory is spent on: see
        :func:`memory_needed`); ``solutions``: the count of the kind, from the
        asymptotic formula 0.3169 λⁿ / n with λ = 4.0626 (Jensen 2003) over
        the order of the kind's group; ``seconds``: on one core, the fixed
        count plus, for the other kinds, the symmetric counts (a model:
        0.27 s at n = 20, 1.9 times more a size); ``probes``: the small counts run.

    Examples
    --------
    >>> found = estimate(24)
    >>> 0.8 < found.solutions / 5239988770268 < 1.2
    True
    """
    _check(n, kind)
    return sweep_estimate(n, kind, budget)


def sweep_estimate(n: int, kind: str = "fixed", budget: float = 0.5) -> Estimate:
    """:func:`estimate` without its checks of ``n`` and ``kind``, which are trusted.

    Its callers have checked them (:func:`estimate`,
    :func:`polyforms.enumeration.generate.estimate`); :data:`MAX_SIZE` is checked here.
    """
    _check_reach(n)
    top = min(n, 22 if n % 2 == 0 else 21)
    sizes = [size for size in (top - 2, top) if size >= 1]
    measured = []
    for size in sizes:
        started = time.perf_counter()
        report = sweep(size, "fixed")
        measured.append((report.states, max(time.perf_counter() - started, 1e-6)))
    if len(measured) == 2:
        state_growth = max(measured[1][0] / max(measured[0][0], 1), 1.0)
        time_growth = max(measured[1][1] / measured[0][1], 1.0)
    else:
        state_growth = time_growth = 1.0
    steps = (n - sizes[-1]) / 2
    states, seconds = measured[-1][0] * state_growth**steps, measured[-1][1] * time_growth**steps
    if n >= WIDE_FROM:
        seconds *= 1.05  # two words a coefficient
    if kind != "fixed":
        seconds += _seconds(n, kind) - _seconds(n, "fixed")
    group = {"fixed": 1, "one-sided": 4, "free": 8}[kind]
    solutions = 0.3169 * 4.0626**n / n / group
    return Estimate(float(states), solutions, seconds, len(measured))
