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
colours allowed; the default for those). :mod:`polyforms.exactcover.cores`
picks one; ``POLYFORMS_BACKEND=python`` forces the reference.

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
from collections.abc import Hashable, Iterable, Iterator, Mapping
from typing import Any

from ..errors import ExactCoverError, WrongTypeError
from ..jobs.options import LongRun
from ..limits import check_estimate, check_limit
from . import _exactcover_py, subtasks
from .cores import engine_for, new_search, solutions_of
from .flat import MAX_MULTIPLICITY, Coloured, Flat, Multiplicity, numbered

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
        problem = numbered(choices, secondary, multiplicity, primary)
        self._flat: Flat = problem.flat
        self._choices = problem.choices
        self._constraints = problem.constraints
        self._constraint_index = problem.index
        self._colours = problem.colours
        self._choice_index: dict[Hashable, int] | None = None
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
    def flat(self) -> Flat:
        """The problem as flat integer arrays (:class:`~polyforms.exactcover.flat.Flat`,
        options numbered in the order of :attr:`choices`, constraints in that of
        :attr:`constraints`): what every core of :mod:`polyforms.exactcover.cores`
        searches. Shared, not copied: read it, do not change it."""
        return self._flat

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
        found = solutions_of(new_search(engine_for(backend, flat), flat, forced, left_out))
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
        without ``limit`` on the job layer (:mod:`polyforms.jobs`): the search
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
        options = LongRun(jobs, executor, checkpoint, progress)
        flat = self._flat
        forced, left_out = self._prefix(initial, excluded)
        if limit is None and options.split and forced == list(self._initial) and not left_out:
            python = engine_for(backend, flat) is _exactcover_py.Search  # checks the name first
            return options.sum(subtasks.CountJob(flat, list(self._initial), python))
        search = new_search(engine_for(backend, flat), flat, forced, left_out)
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

        Raises
        ------
        WrongTypeError, PolyformError
            ``budget`` not a finite number of seconds, ``seed`` not a whole number.

        Examples
        --------
        >>> ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]}).estimate().solutions
        2.0
        """
        from .estimate import estimate_search

        budget, seed = check_estimate(budget, seed)
        engine, flat = engine_for(backend, self._flat), self._flat
        return estimate_search(
            flat, list(self._initial), lambda f, e: new_search(engine, flat, f, e), budget, seed
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
