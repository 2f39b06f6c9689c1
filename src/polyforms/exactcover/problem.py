"""Exact cover over hashable choices, with secondary constraints, multiplicities and colours.

An instance is a mapping from each *choice* to the *constraints* it satisfies.
A solution is a set of choices such that every primary constraint is satisfied
exactly once (or exactly ``k`` times, or between ``lo`` and ``hi`` times when a
multiplicity is given) and every secondary constraint at most once (or at most
``k`` times). This is Knuth's exact cover problem with secondary items and
multiplicities (TAOCP 7.2.2.1, Algorithms X and M); Knuth's items are our
constraints and his options are our choices.

*Colours* (Knuth's XCC problems, Algorithm C): a choice may name a secondary
constraint with a colour, ``Coloured(constraint, colour)``; choices may then
share that constraint when they all give it the same colour (an uncoloured
use still excludes every other). Colour problems run on the dancing-links
core and the readable twin; a coloured constraint must have multiplicity 1
(primary constraints keep their multiplicities).

Three backends yield the same solutions in the same order:
:mod:`polyforms.exactcover._exactcover_py`, a readable Algorithm X on sets; the
compiled dancing-links core :mod:`polyforms._core._dlx` (every instance); and
the compiled bitset core :mod:`polyforms._core._xcbits` (no multiplicities,
colours allowed; the default for those: 2-2.5x faster on tiling instances, 2-4x
on colour instances). ``POLYFORMS_BACKEND=python``
forces the reference.

Examples
--------
>>> xc = ExactCover({"A": [1, 4, 7], "B": [1, 4], "C": [4, 5, 7],
...                  "D": [3, 5, 6], "E": [2, 3, 6, 7], "F": [2, 7]})
>>> next(iter(xc))
['B', 'D', 'F']
>>> xc.count()
1
>>> ExactCover({"A": [1, 4, 7], "B": [1, 4], "C": [4, 5, 7], "D": [3, 5, 6],
...             "E": [2, 3, 6, 7], "F": [2, 7]}, multiplicity={7: 2}).first()
['A', 'D', 'F']
>>> red, blue = Coloured("x", "red"), Coloured("x", "blue")
>>> sorted(ExactCover({"A": ["a", red], "B": ["b", red], "C": ["b", blue]},
...                   secondary=["x"]).solutions())
[['A', 'B']]
"""

from __future__ import annotations

import random as _random
import zlib
from array import array
from collections.abc import Hashable, Iterable, Iterator, Mapping
from typing import Any

from .. import _backend
from ..errors import ExactCoverError, WrongTypeError
from ..jobs.options import wants_split
from ..limits import check_limit
from . import _exactcover_py
from .flat import MAX_MULTIPLICITY, Coloured, Multiplicity, _bounds, _Flat, _name

__all__ = ["MAX_MULTIPLICITY", "Coloured", "ExactCover", "Multiplicity"]


class ExactCover:
    """An exact cover problem over hashable choices and constraints.

    Parameters
    ----------
    choices : Mapping
        Each choice (any hashable) mapped to an iterable of the constraints it
        satisfies (any hashables; plain ints are the fastest to build). A choice
        may not list a constraint twice nor list none.
        A secondary constraint may be given with a colour,
        ``Coloured(constraint, colour)``: choices that give it the same colour
        may share it (Knuth's Algorithm C).
    secondary : Iterable, optional
        Constraints that may be satisfied at most once (at most their
        multiplicity) instead of exactly once.
    multiplicity : Mapping, optional
        ``constraint -> k`` (a primary one exactly ``k`` times, a secondary one at
        most ``k`` times) or ``constraint -> (lo, hi)`` (between ``lo`` and ``hi``
        times; ``lo`` is 0 for a secondary constraint).
    initial : Iterable, optional
        Choices forced into every solution.
    primary : Iterable, optional
        The primary constraints in the order the search should prefer them on
        ties; constraints listed here need not occur in any choice. By default
        every constraint not in ``secondary`` is primary, in order of first
        appearance.

    Raises
    ------
    ExactCoverError
        For a choice without constraints or listing one twice, an unknown
        constraint in ``multiplicity`` or ``primary``, a bad multiplicity, or an
        initial choice that is not a choice.

    Notes
    -----
    The search is Knuth's Algorithm X with the minimum-remaining-values rule,
    extended to multiplicities as in his Algorithm M (Knuth, "Dancing links",
    2000; TAOCP 7.2.2.1). A choice that satisfies no primary constraint is never
    part of a solution unless it is forced. Building the instance costs one
    dictionary look-up per (choice, constraint) pair; memory stays proportional
    to the instance during the search, whatever the number of solutions.

    A search can be cut into independent subtasks: :meth:`split` returns
    ``(initial, excluded)`` pairs whose solution sets partition the whole set,
    and each one is solved with ``solutions(initial=..., excluded=...)`` or
    ``count(initial=..., excluded=...)``.

    Examples
    --------
    >>> xc = ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]})
    >>> sorted(xc.solutions())
    [['x', 'z'], ['y']]
    >>> ExactCover({"x": ["a"], "y": ["a", "b"]}, secondary=["b"]).count()
    2
    """

    def __init__(
        self,
        choices: Mapping[Hashable, Iterable[Hashable]],
        secondary: Iterable[Hashable] = (),
        multiplicity: Mapping[Hashable, Multiplicity] | None = None,
        initial: Iterable[Hashable] = (),
        *,
        primary: Iterable[Hashable] | None = None,
    ) -> None:
        if not isinstance(choices, Mapping):
            raise WrongTypeError("choices must be a mapping from each choice to its constraints")
        if multiplicity is not None and not isinstance(multiplicity, Mapping):
            raise WrongTypeError(
                "multiplicity must be a mapping from constraints to k or (lo, hi), "
                f"not {type(multiplicity).__name__}"
            )
        try:
            secondary_set = set(secondary)
        except TypeError as error:
            raise ExactCoverError(f"secondary constraints must be hashable: {error}") from None
        index: dict[Hashable, int] = {}
        names: list[Hashable] = []
        if primary is not None:
            for constraint in primary:
                if constraint in index:
                    raise ExactCoverError(f"primary constraint {constraint!r} is listed twice")
                if constraint in secondary_set:
                    raise ExactCoverError(
                        f"constraint {constraint!r} is both primary and secondary"
                    )
                index[constraint] = len(names)
                names.append(constraint)
        closed = primary is not None
        offsets, items = array("i", [0]), array("i")
        colours = array("i")  # beside items: 0, or 1 + the colour's number
        colour_index: dict[Hashable, int] = {}
        keys = list(choices)
        for key in keys:
            start = len(items)
            try:
                for constraint in choices[key]:
                    colour = 0
                    if isinstance(constraint, Coloured):
                        colour = colour_index.setdefault(constraint.colour, len(colour_index) + 1)
                        constraint = constraint.constraint
                    colours.append(colour)
                    k = index.get(constraint)
                    if k is None:
                        if closed and constraint not in secondary_set:
                            raise ExactCoverError(
                                f"choice {key!r} has constraint {constraint!r}, which is "
                                "neither primary nor secondary"
                            )
                        k = index[constraint] = len(names)
                        names.append(constraint)
                    items.append(k)
            except TypeError as error:
                raise ExactCoverError(f"constraints of choice {key!r}: {error}") from None
            size = len(items) - start
            if size == 0:
                raise ExactCoverError(f"choice {key!r} has no constraints (an empty option)")
            if size > 1 and len(set(items[start:])) != size:
                raise ExactCoverError(f"choice {key!r} lists a constraint twice")
            offsets.append(len(items))
        for constraint in secondary:
            if constraint not in index:
                index[constraint] = len(names)
                names.append(constraint)
        n = len(names)
        is_primary = array("i", [1]) * n
        lower = array("i", [1]) * n
        upper = array("i", [1]) * n
        if secondary_set:
            for constraint in secondary_set:
                k = index[constraint]
                is_primary[k] = 0
                lower[k] = 0
        for constraint, value in (multiplicity or {}).items():
            k = index.get(constraint)
            if k is None:
                raise ExactCoverError(f"multiplicity given for unknown constraint {constraint!r}")
            lower[k], upper[k] = _bounds(constraint, value, not is_primary[k])
        for k, colour in zip(items, colours):
            if colour and is_primary[k]:
                raise ExactCoverError(
                    f"constraint {_name(names[k])} has a colour but is primary; "
                    "only secondary constraints take colours"
                )
            if colour and upper[k] != 1:
                raise ExactCoverError(
                    f"constraint {_name(names[k])} has both a colour and a multiplicity; "
                    "a coloured constraint is satisfied at most once"
                )
        self._colours = list(colour_index)
        self._choices = keys
        self._constraints = names
        self._constraint_index = index
        self._choice_index: dict[Hashable, int] | None = None
        self._flat = _Flat(
            lower, upper, is_primary, offsets, items, colours if colour_index else None
        )
        self._initial = tuple(self._indices(initial, "initial"))

    # -- description ------------------------------------------------------------

    @property
    def choices(self) -> list[Hashable]:
        """The choices, in the order given."""
        return list(self._choices)

    @property
    def constraints(self) -> list[Hashable]:
        """The constraints: primary and secondary, in order of first appearance."""
        return list(self._constraints)

    @property
    def initial(self) -> list[Hashable]:
        """The choices forced into every solution."""
        return [self._choices[o] for o in self._initial]

    def constraints_of(self, choice: Hashable) -> list[Hashable]:
        """The constraints satisfied by ``choice`` (:class:`Coloured` for coloured ones)."""
        (o,) = self._indices([choice], "")
        flat = self._flat
        found: list[Hashable] = [self._constraints[k] for k in flat.option(o)]
        if flat.colours is not None:
            for j, colour in enumerate(flat.colours[flat.offsets[o] : flat.offsets[o + 1]]):
                if colour:
                    found[j] = Coloured(found[j], self._colours[colour - 1])
        return found

    def bounds(self, constraint: Hashable) -> tuple[int, int]:
        """How often ``constraint`` must be satisfied, as ``(lo, hi)``."""
        k = self._constraint_index.get(constraint)
        if k is None:
            raise ExactCoverError(f"{constraint!r} is not a constraint")
        return self._flat.lower[k], self._flat.upper[k]

    def is_secondary(self, constraint: Hashable) -> bool:
        """True when ``constraint`` is secondary (may be left unsatisfied)."""
        k = self._constraint_index.get(constraint)
        if k is None:
            raise ExactCoverError(f"{constraint!r} is not a constraint")
        return not self._flat.primary[k]

    def __len__(self) -> int:
        return len(self._choices)

    def __repr__(self) -> str:
        secondary = sum(1 for p in self._flat.primary if not p)
        return (
            f"<ExactCover: {len(self._choices)} choices, "
            f"{len(self._constraints) - secondary} primary and {secondary} secondary constraints>"
        )

    def _indices(self, chosen: Iterable[Hashable], what: str) -> list[int]:
        chosen = list(chosen)
        if not chosen:
            return []
        if self._choice_index is None:
            self._choice_index = {key: o for o, key in enumerate(self._choices)}
        result: list[int] = []
        for key in chosen:
            try:
                o = self._choice_index.get(key)
            except TypeError:
                o = None
            if o is None:
                label = f"{what} choice" if what else "choice"
                raise ExactCoverError(f"{label} {key!r} is not a choice of this problem")
            if o not in result:
                result.append(o)
        return result

    # -- search -----------------------------------------------------------------

    def _prefix(
        self, initial: Iterable[Hashable], excluded: Iterable[Hashable]
    ) -> tuple[list[int], list[int]]:
        """Option numbers forced (the problem's own, then ``initial``) and excluded."""
        forced = list(self._initial)
        for o in self._indices(initial, "initial"):
            if o not in forced:
                forced.append(o)
        return forced, self._indices(excluded, "excluded")

    def _search(
        self,
        initial: Iterable[Hashable],
        excluded: Iterable[Hashable],
        random: Any,
        backend: str | None,
    ) -> Iterator[list[int]]:
        """Yield solutions as lists of option numbers (in any order)."""
        forced, left_out = self._prefix(initial, excluded)
        flat, order = self._flat, None
        if random is not None and random is not False:
            rng = _random.Random() if random is True else _random.Random(random)
            flat, order = flat.shuffled(rng)
            position = {old: new for new, old in enumerate(order)}
            forced = [position[o] for o in forced]
            left_out = [position[o] for o in left_out]
        found = _solutions_of(_new_search(_core(backend, flat), flat, forced, left_out))
        if order is None:
            yield from found
        else:
            for solution in found:
                yield [order[o] for o in solution]

    def solutions(
        self,
        limit: int | None = None,
        random: Any = None,
        *,
        initial: Iterable[Hashable] = (),
        excluded: Iterable[Hashable] = (),
        backend: str | None = None,
    ) -> Iterator[list[Hashable]]:
        """Yield the solutions, each a list of choices.

        Parameters
        ----------
        limit : int, optional
            Stop after this many solutions.
        random : int, str, bytes or True, optional
            A seed: search in a random order, the same for the same seed (``True``
            for a fresh random order). Default: the deterministic order.
        initial : Iterable, optional
            Extra choices forced into every solution (a prefix of the search, on
            top of the problem's own ``initial``).
        excluded : Iterable, optional
            Choices kept out of every solution (used with ``initial`` by
            :meth:`split` subtasks).
        backend : {"python", "compiled", "dlx", "bitset"}, optional
            Force the pure-Python reference or a compiled core; default:
            compiled when built, unless ``POLYFORMS_BACKEND=python``.
            ``compiled`` takes the bitset core for plain instances (no
            multiplicities) whose bitsets take at most 256 MiB and dancing
            links for the others; ``dlx`` and ``bitset`` force one (``bitset`` raises
            ExactCoverError for an instance with multiplicities). All of them
            yield the same solutions in the same order.

        Yields
        ------
        list
            The choices of one solution, forced ones included, in the order in
            which they were given to the constructor.

        Raises
        ------
        ExactCoverError
            If ``initial`` or ``excluded`` names something that is not a choice.

        Notes
        -----
        The generator may be abandoned at any time; it holds only the search
        state (proportional to the instance). Contradictory forced choices give
        no solution.

        Examples
        --------
        >>> xc = ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]})
        >>> list(xc.solutions(initial=["z"]))
        [['x', 'z']]
        """
        if check_limit(limit) == 0:
            return
        keys = self._choices
        for k, solution in enumerate(self._search(initial, excluded, random, backend), 1):
            yield [keys[o] for o in sorted(solution)]
            if k == limit:
                return

    def __iter__(self) -> Iterator[list[Hashable]]:
        return self.solutions()

    def first(self, random: Any = None, **options: Any) -> list[Hashable] | None:
        """Return one solution, or None when there is none.

        Takes the keyword arguments of :meth:`solutions` (``initial``,
        ``excluded``, ``backend``).
        """
        return next(self.solutions(limit=1, random=random, **options), None)

    def count(
        self,
        limit: int | None = None,
        *,
        initial: Iterable[Hashable] = (),
        excluded: Iterable[Hashable] = (),
        backend: str | None = None,
        jobs: int = 1,
        executor: Any = None,
        checkpoint: Any = None,
        progress: Any = None,
    ) -> int:
        """Count the solutions (at most ``limit``) without building any of them.

        Takes the keyword arguments of :meth:`solutions`. With the compiled core
        the count runs without the GIL, and Ctrl-C stops it promptly
        (KeyboardInterrupt); the problem object stays usable.

        ``jobs``, ``executor``, ``checkpoint`` and ``progress`` run a count
        without ``limit`` on the job layer (:mod:`polyforms.jobs.runner`): the search
        is cut by :meth:`split` into at least 64 subtasks, weighed by Knuth's
        probes of their trees (which drive the progress, and cut the heaviest
        one level further), that run in worker processes or on Dask and resume
        from a checkpoint, as for the other searches. A subtask that runs past
        its share of the estimate, or a minute, or while another worker sits
        idle, hands back the rest of its tree as new subtasks.

        Examples
        --------
        >>> ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]}).count()
        2
        """
        if check_limit(limit) == 0:
            return 0
        flat = self._flat
        forced, left_out = self._prefix(initial, excluded)
        if (
            limit is None
            and wants_split(jobs, executor, checkpoint, progress)
            and forced == list(self._initial)
            and not left_out
        ):
            from ..jobs import runner as _jobs  # imported only by counts that split

            long_run = _jobs.LongRun(jobs, executor, checkpoint, progress)
            python = _core(backend, flat) is _exactcover_py.Search  # checks the name first
            return long_run.sum(_CountJob(flat, list(self._initial), python))
        search = _new_search(_core(backend, flat), flat, forced, left_out)
        if limit is not None and limit >= 2**63 - 1:
            limit = None  # no count reaches it: the compiled cores' counters stop there
        return search.count(limit)

    def estimate(self, budget: float = 0.8, seed: int = 0, *, backend: str | None = None):
        """Estimate the search of :meth:`count` without running it.

        Random probes with partial backtracking (Knuth 1975; Purdom 1978) for
        about ``budget`` seconds: each walks down random branches of the search
        tree to a few levels short of a solution and counts the subtree there
        exactly. Reproducible for a fixed ``seed``.

        Returns
        -------
        TimedEstimate
            ``nodes``, ``solutions`` and ``seconds`` of the whole search, and
            the number of ``probes``.

        Examples
        --------
        >>> ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]}).estimate().solutions
        2.0
        """
        from .estimate import estimate_search

        engine, flat = _core(backend, self._flat), self._flat
        return estimate_search(
            flat, list(self._initial), lambda f, e: _new_search(engine, flat, f, e), budget, seed
        )

    def split(self, depth: int = 1) -> list[tuple[list[Hashable], list[Hashable]]]:
        """Cut the search into subtasks at ``depth`` levels below the root.

        Returns
        -------
        list of (initial, excluded)
            Pairs of choice lists; the solution sets of
            ``solutions(initial=i, excluded=e)`` over all pairs are disjoint and
            together give every solution, so the subtasks can run in separate
            processes or machines. Branches found dead before ``depth`` are
            left out; solutions reached above ``depth`` form their own subtask.

        Examples
        --------
        >>> xc = ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]})
        >>> tasks = xc.split(1)
        >>> sum(xc.count(initial=i, excluded=e) for i, e in tasks)
        2
        """
        if depth < 0:
            raise ExactCoverError(f"depth must be at least 0, got {depth}")
        keys = self._choices
        flat = self._flat
        tasks = _exactcover_py.search(
            *flat.arrays, list(self._initial), [], split_depth=depth, colours=flat.colours
        )
        return [([keys[o] for o in f], [keys[o] for o in e]) for f, e in tasks]

    # -- Knuth's DLX format -----------------------------------------------------

    @classmethod
    def from_dlx(cls, text: str) -> ExactCover:
        """Read a problem in Knuth's DLX format (the input of DLX1/DLX3).

        The choices are the option numbers ``0, 1, ...`` in file order and the
        constraints are the item names; see :mod:`polyforms.exactcover.dlxformat`.

        Raises
        ------
        DLXFormatError
            With the line number, for a malformed file.
        """
        from .dlxformat import parse_dlx

        if not isinstance(text, str):
            raise WrongTypeError(f"DLX text is a str, not {type(text).__name__}")
        primary, secondary, bounds, options = parse_dlx(text)
        options = [
            [Coloured(*item) if isinstance(item, tuple) else item for item in option]
            for option in options
        ]
        return cls(
            dict(enumerate(options)),
            secondary=secondary,
            multiplicity=bounds,
            primary=primary,
        )

    def to_networkx(self):
        """The bipartite graph of choices and constraints, as a :class:`networkx.Graph`.

        Nodes are ``("choice", c)`` (attribute ``bipartite=0``) and
        ``("constraint", k)`` (``bipartite=1``, with ``secondary`` and
        ``bounds``); an edge joins a choice to each constraint it satisfies.
        networkx is imported on first use.

        Examples
        --------
        >>> graph = ExactCover({"x": ["a"], "y": ["a", "b"]}).to_networkx()
        >>> graph.number_of_nodes(), graph.number_of_edges()
        (4, 3)
        """
        import networkx as nx

        graph = nx.Graph()
        for constraint in self._constraints:
            graph.add_node(
                ("constraint", constraint),
                bipartite=1,
                secondary=self.is_secondary(constraint),
                bounds=self.bounds(constraint),
            )
        for choice in self._choices:
            graph.add_node(("choice", choice), bipartite=0)
            graph.add_edges_from(
                (("choice", choice), ("constraint", k)) for k in self.constraints_of(choice)
            )
        return graph

    def to_dlx(self) -> str:
        """Write the problem in Knuth's DLX format.

        Constraints that are not valid DLX names (1-8 characters, no whitespace,
        ``:`` or ``|``) are all renamed; a comment line ``| name = repr`` records
        each new name. Forced choices are not written (the format has no place
        for them).
        """
        from .dlxformat import write_dlx

        flat = self._flat
        m = len(flat.offsets) - 1
        options = [list(flat.option(o)) for o in range(m)]
        colours = None
        if flat.colours is not None:
            colours = [
                [self._colours[c - 1] if c else None for c in flat.colours[start:stop]]
                for start, stop in zip(flat.offsets, flat.offsets[1:])
            ]
        return write_dlx(self._constraints, flat.lower, flat.upper, flat.primary, options, colours)


_BACKENDS = ("python", "compiled", "dlx", "bitset")


def _core(backend: str | None, flat: _Flat):
    """The ``Search`` class for ``flat``: a compiled core's, or the readable twin's.

    ``compiled`` (the default when built) picks the bitset core
    (:mod:`polyforms._core._xcbits`) for instances without multiplicities
    (colours allowed) whose bitsets fit in ``MAX_BYTES`` (256 MiB), and dancing
    links (:mod:`polyforms._core._dlx`) for the others; ``dlx`` and ``bitset``
    force one of them; ``python`` the twin.
    """
    if backend not in (None, *_BACKENDS):
        raise ExactCoverError(
            "backend must be one of " + ", ".join(map(repr, _BACKENDS)) + f", not {backend!r}"
        )
    if backend == "python":
        return _exactcover_py.Search
    dlx = _backend.compiled("dlx")
    if dlx is None:
        if backend is None:
            return _exactcover_py.Search
        raise ExactCoverError("the compiled exact-cover core is not available")
    bits = _backend.compiled("xcbits")
    if backend == "dlx" or bits is None:
        return dlx.Search
    once = flat.once_each()
    if backend == "bitset":
        if not once:
            raise ExactCoverError("the bitset core takes exact cover without multiplicities only")
        return bits.Search
    if (
        once
        and bits.footprint(flat.primary, flat.offsets, flat.items, flat.colours) <= bits.MAX_BYTES
    ):
        return bits.Search
    return dlx.Search


SPLIT_TASKS = 64
"""Subtasks a split count starts from (the first depth of :meth:`ExactCover.split` with as many)."""

PROBES = 16
"""Knuth probes per subtask for its weight (``Search.probe`` of dancing links: 0.1 s
for the 372 subtasks of 6x10 by the pentominoes, a 2-second count). The readable
twin takes a quarter of them: each of its probes builds the whole instance again
(6x10: 90 ms a subtask for 16, so about 8 s for 4 each, where its count, at
12,900 nodes a second over more than 3.6 million nodes, takes minutes)."""

#: A count subtask visits at most the larger of TASK_NODES nodes and 1/BUDGET_SHARE
#: of the estimated whole, and runs at most TASK_SECONDS (or, in a worker process,
#: until another worker sits idle); then it hands back the rest as new subtasks
#: (:func:`_count_task`), as a tiling count's do. Without it one underestimated
#: subtask was one worker's tail, and a count of days journalled nothing for hours.
TASK_NODES = 1 << 20
BUDGET_SHARE = 32
TASK_SECONDS = 60.0
#: Nodes a subtask counts between two looks at its budget, the clock and its peers
#: (dancing links: about 10 ms; the readable twin is some 500 times slower).
_SLICE = {False: 1 << 16, True: 1 << 7}

_FLATS: dict[str, _Flat] = {}

Node = _exactcover_py.Node  # (options forced, options excluded): a node of the search


def _flat_of(digest: str, arrays: tuple) -> _Flat:
    """The instance of ``arrays`` (a :class:`_Flat`'s, colours last, None: no
    colours); each process rebuilds it once per digest and keeps it."""
    flat = _FLATS.get(digest)
    if flat is None:
        _FLATS.clear()
        flat = _FLATS[digest] = _Flat(*arrays)
    return flat


def _count_task(
    digest: str, arrays: tuple, python: bool, nodes: list[Node], budget: int, seconds: float
) -> int | Any:
    """A subtask: the solutions below each of ``nodes``, a node being the options
    forced and the options excluded there.

    After ``budget`` nodes or ``seconds`` (or in a worker process once another
    worker sits idle) it stops where it stands and returns a
    :class:`~polyforms.jobs.runner.Continued` naming what is left, as groups of nodes
    (:func:`_exactcover_py.rest`) with their weights; the count is the same
    wherever it stops.
    """
    from ..jobs.processes import stop_when

    flat = _flat_of(digest, arrays)
    engine = _exactcover_py.Search if python else _core(None, flat)
    stop = stop_when(seconds)
    found, visited = 0, 0
    for j, (forced, excluded) in enumerate(nodes):
        search = _new_search(engine, flat, forced, excluded)
        while True:
            slice_ = _SLICE[python]
            if visited < budget:
                slice_ = min(slice_, budget - visited)
            before = search.nodes
            found += search.count(nodes=slice_)
            visited += search.nodes - before
            if search.done:
                break
            if visited >= budget or stop():
                left = _continued(flat, python, nodes, j, search.path, found, visited)
                if left is not None:
                    return left
    return found


def _continued(
    flat: _Flat, python: bool, nodes: list, j: int, path: list[int], found: int, visited: int
) -> Any:
    """What a count subtask stopped in its ``j``-th node at ``path`` leaves: the
    rest of that node's tree, then its nodes after the ``j``-th, each group weighed.
    None when it stopped where it started: a branch that leaves an item with no
    option is described as its parent, and a chain of them would be handed back
    unchanged for ever; the subtask goes on instead."""
    from ..jobs.estimate import group_weight
    from ..jobs.tasks import Continued

    forced, excluded = nodes[j]
    rest = _exactcover_py.rest(*flat.arrays, forced, excluded, path, flat.colours)[0]
    if j == 0 and rest[0][0] == (list(forced), list(excluded)):
        return None
    if j + 1 < len(nodes):
        rest.append(nodes[j + 1 :])
    prober = _prober(python)

    def probe(node: Node, seed: int) -> float:
        return _new_search(prober, flat, *node).probe(1, seed)

    weights = [group_weight(probe, group) for group in rest]
    rest = [[[list(f), list(e)] for f, e in group] for group in rest]  # as JSON has them
    # Nodes visited and Knuth's estimates measure the same tree (the children
    # given up during their commit count in both; the bitset core's count may
    # differ by a node here and there), so the share done is as good as the
    # rest's estimate.
    return Continued(found, rest, weights, visited / (visited + sum(weights)))


def _prober(python: bool):
    """The ``Search`` whose probes weigh subtasks: dancing links' (the bitset core
    walks the same tree), or the readable twin's when ``python`` or not built."""
    dlx = None if python else _backend.compiled("dlx")
    return _exactcover_py.Search if dlx is None else dlx.Search


def _split_tasks(flat: _Flat, initial: list[int]) -> list[tuple[list[int], list[int]]]:
    """The (forced, excluded) subtasks of the first split depth with at least
    :data:`SPLIT_TASKS` of them (or the deepest that still widens), in search order."""
    depth, found = 0, [(list(initial), [])]
    while len(found) < SPLIT_TASKS:
        deeper = list(
            _exactcover_py.search(
                *flat.arrays, initial, [], split_depth=depth + 1, colours=flat.colours
            )
        )
        if len(deeper) <= len(found):
            break  # the tree is no wider below: nothing to gain
        depth, found = depth + 1, deeper
    return found


class _SplitJob:
    """What the exact-cover jobs share (see :class:`polyforms.jobs.runner.Job`): the subtasks
    of :func:`_exactcover_py.search` with ``split_depth``, colours (Algorithm C)
    included, each weighing Knuth's estimate of its nodes (:data:`PROBES` probes
    of dancing links, whose tree the bitset core walks too; of the twin when
    ``python``), so the progress follows the work and :func:`jobs.plan` cuts the
    heavy subtasks one level further (:meth:`refine`). A job defines ``task``,
    the :class:`~polyforms.jobs.runner.Task` of a node, with its weight given."""

    def __init__(self, flat: _Flat, initial: list[int], python: bool) -> None:
        self.flat, self.initial, self.python = flat, initial, python
        self.arrays = (*flat.arrays, flat.colours)
        self.prober = _prober(python)
        self.probes = PROBES if self.prober is not _exactcover_py.Search else PROBES // 4

    def task(self, task_id: str, forced: list[int], excluded: list[int], weight: float):
        raise NotImplementedError

    def _weighed(self, task_id: str, forced: list[int], excluded: list[int]):
        search = _new_search(self.prober, self.flat, forced, excluded)
        nodes = search.probe(self.probes, zlib.crc32(task_id.encode()))
        return self.task(task_id, forced, excluded, max(nodes, 1.0))

    def tasks(self) -> list:
        found = _split_tasks(self.flat, self.initial)
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


class _CountJob(_SplitJob):
    """An exact-cover count cut into subtasks (:class:`_SplitJob`), each of which
    may stop and hand back the rest (:func:`_count_task`, :meth:`resume`)."""

    def __init__(self, flat: _Flat, initial: list[int], python: bool) -> None:
        import hashlib
        import pickle

        super().__init__(flat, initial, python)
        self.digest = hashlib.sha1(pickle.dumps((self.arrays, initial))).hexdigest()[:16]
        self.key = f"exact cover count {self.digest}"
        self.budget = TASK_NODES  # set from the estimates by tasks()

    def task(self, task_id: str, forced: list[int], excluded: list[int], weight: float):
        return self._task(task_id, [(forced, excluded)], weight)

    def _task(self, task_id: str, nodes: list, weight: float):
        from ..jobs.tasks import Task

        args = (self.digest, self.arrays, self.python, nodes, self.budget, TASK_SECONDS)
        return Task(task_id, _count_task, args, weight)

    def tasks(self) -> list:
        weighed = super().tasks()
        whole = sum(task.weight for task in weighed)
        self.budget = max(TASK_NODES, int(whole / BUDGET_SHARE))
        return [self._task(task.id, task.args[3], task.weight) for task in weighed]

    def _node(self, task) -> Node:
        [node] = task.args[3]
        return node

    def resume(self, task, rest: list, weights: list) -> list:
        """The subtasks that count what ``task`` left (see :func:`_count_task`)."""
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


def _new_search(engine, flat: _Flat, forced: list[int], excluded: list[int]):
    if flat.colours is not None:  # only the cores that run Algorithm C take colours
        return engine(*flat.arrays, forced, excluded, colours=flat.colours)
    return engine(*flat.arrays, forced, excluded)


def _solutions_of(search) -> Iterator[list[int]]:
    while True:
        solution = search.next_solution()
        if solution is None:
            return
        yield solution
