"""Exact cover over hashable choices, with secondary constraints and multiplicities.

An instance is a mapping from each *choice* to the *constraints* it satisfies.
A solution is a set of choices such that every primary constraint is satisfied
exactly once (or exactly ``k`` times, or between ``lo`` and ``hi`` times when a
multiplicity is given) and every secondary constraint at most once (or at most
``k`` times). This is Knuth's exact cover problem with secondary items and
multiplicities (TAOCP 7.2.2.1, Algorithms X and M); Knuth's items are our
constraints and his options are our choices.

Three backends yield the same solutions in the same order:
:func:`_reference_search`, a readable Algorithm X on dictionaries of sets; the
compiled dancing-links core :mod:`polyforms._core._dlx` (every instance); and
the compiled bitset core :mod:`polyforms._core._xcbits` (plain exact cover, the
default for it: 2-2.5x faster on tiling instances). ``POLYFORMS_BACKEND=python``
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
"""

from __future__ import annotations

import random as _random
from array import array
from collections.abc import Hashable, Iterable, Iterator, Mapping
from typing import Any

from ._backend import compiled
from .errors import ExactCoverError

__all__ = ["ExactCover"]

Multiplicity = int | tuple[int, int]


def _bounds(constraint: Hashable, value: Any, secondary: bool) -> tuple[int, int]:
    """Turn a multiplicity (``k`` or ``(lo, hi)``) into bounds ``(lo, hi)``."""
    if isinstance(value, int) and not isinstance(value, bool):
        low, high = (0, value) if secondary else (value, value)
    elif (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        low, high = value
    else:
        raise ExactCoverError(
            f"multiplicity of {constraint!r} must be an int or a pair (lo, hi), not {value!r}"
        )
    if high < 1 or low < 0 or low > high:
        raise ExactCoverError(
            f"multiplicity of {constraint!r} must satisfy 0 <= lo <= hi and hi >= 1, got {value!r}"
        )
    if secondary and low > 0:
        raise ExactCoverError(
            f"secondary constraint {constraint!r} cannot have a lower bound {low}; "
            "make it primary instead"
        )
    return low, high


class _Flat:
    """An instance in integer form: the input of both search backends.

    Items (constraints) are numbered ``0..n-1`` and options (choices) ``0..m-1``;
    option ``o`` holds the items ``items[offsets[o]:offsets[o + 1]]``.
    """

    __slots__ = ("items", "lower", "offsets", "primary", "upper")

    def __init__(self, lower: array, upper: array, primary: array, offsets: array, items: array):
        self.lower = lower
        self.upper = upper
        self.primary = primary
        self.offsets = offsets
        self.items = items

    def is_plain(self) -> bool:
        """No multiplicities: primary items exactly once, secondary at most once."""
        return all(hi == 1 and lo == p for lo, hi, p in zip(self.lower, self.upper, self.primary))

    def option(self, o: int) -> array:
        return self.items[self.offsets[o] : self.offsets[o + 1]]

    def shuffled(self, rng: _random.Random) -> tuple[_Flat, list[int]]:
        """The same instance with options and items in a random order.

        Returns the new instance and ``order``: new option ``j`` is old option
        ``order[j]``.
        """
        n, m = len(self.lower), len(self.offsets) - 1
        order = list(range(m))
        rng.shuffle(order)
        relabel = list(range(n))
        rng.shuffle(relabel)  # old item k becomes item relabel[k]
        old_of = [0] * n
        for k, new in enumerate(relabel):
            old_of[new] = k
        offsets, items = array("i", [0]), array("i")
        for o in order:
            items.extend(relabel[k] for k in self.option(o))
            offsets.append(len(items))
        return (
            _Flat(
                array("i", (self.lower[old_of[j]] for j in range(n))),
                array("i", (self.upper[old_of[j]] for j in range(n))),
                array("i", (self.primary[old_of[j]] for j in range(n))),
                offsets,
                items,
            ),
            order,
        )


class ExactCover:
    """An exact cover problem over hashable choices and constraints.

    Parameters
    ----------
    choices : Mapping
        Each choice (any hashable) mapped to an iterable of the constraints it
        satisfies (any hashables; plain ints are the fastest to build). A choice
        may not list a constraint twice nor list none.
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
            raise ExactCoverError("choices must be a mapping from each choice to its constraints")
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
        keys = list(choices)
        for key in keys:
            start = len(items)
            try:
                for constraint in choices[key]:
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
        self._choices = keys
        self._constraints = names
        self._constraint_index = index
        self._choice_index: dict[Hashable, int] | None = None
        self._flat = _Flat(lower, upper, is_primary, offsets, items)
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
        """The constraints satisfied by ``choice``."""
        (o,) = self._indices([choice], "")
        return [self._constraints[k] for k in self._flat.option(o)]

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
        engine = _core(backend, flat)
        if engine is None:
            found = _reference_search(flat, forced, left_out)
        else:
            found = _compiled_search(engine, flat, forced, left_out)
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
        if limit is not None and limit <= 0:
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
    ) -> int:
        """Count the solutions (at most ``limit``) without building any of them.

        Takes the keyword arguments of :meth:`solutions`. With the compiled core
        the count runs without the GIL, and Ctrl-C stops it promptly
        (KeyboardInterrupt); the problem object stays usable.

        Examples
        --------
        >>> ExactCover({"x": ["a"], "y": ["a", "b"], "z": ["b"]}).count()
        2
        """
        if limit is not None and limit <= 0:
            return 0
        flat = self._flat
        engine = _core(backend, flat)
        if engine is None:
            found = self._search(initial, excluded, None, "python")
            total = 0
            for _ in found:
                total += 1
                if total == limit:
                    break
            return total
        return _new_search(engine, flat, *self._prefix(initial, excluded)).count(limit)

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
        tasks = _reference_search(self._flat, list(self._initial), [], split_depth=depth)
        return [([keys[o] for o in f], [keys[o] for o in e]) for f, e in tasks]

    # -- Knuth's DLX format -----------------------------------------------------

    @classmethod
    def from_dlx(cls, text: str) -> ExactCover:
        """Read a problem in Knuth's DLX format (the input of DLX1/DLX3).

        The choices are the option numbers ``0, 1, ...`` in file order and the
        constraints are the item names; see :mod:`polyforms._dlxformat`.

        Raises
        ------
        DLXFormatError
            With the line number, for a malformed file.
        """
        from ._dlxformat import parse_dlx

        primary, secondary, bounds, options = parse_dlx(text)
        return cls(
            dict(enumerate(options)),
            secondary=secondary,
            multiplicity=bounds,
            primary=primary,
        )

    def to_dlx(self) -> str:
        """Write the problem in Knuth's DLX format.

        Constraints that are not valid DLX names (1-8 characters, no whitespace,
        ``:`` or ``|``) are all renamed; a comment line ``| name = repr`` records
        each new name. Forced choices are not written (the format has no place
        for them).
        """
        from ._dlxformat import write_dlx

        flat = self._flat
        options = [list(flat.option(o)) for o in range(len(flat.offsets) - 1)]
        return write_dlx(self._constraints, flat.lower, flat.upper, flat.primary, options)


_BACKENDS = ("python", "compiled", "dlx", "bitset")


def _core(backend: str | None, flat: _Flat):
    """The compiled ``Search`` class for ``flat``, or None for the reference.

    ``compiled`` (the default when built) picks the bitset core
    (:mod:`polyforms._core._xcbits`) for plain instances whose bitsets fit in
    ``MAX_BYTES`` (256 MiB) and dancing links (:mod:`polyforms._core._dlx`) for
    the others; ``dlx`` and ``bitset`` force one of them.
    """
    if backend == "python":
        return None
    if backend not in (None, *_BACKENDS):
        raise ExactCoverError(
            "backend must be one of " + ", ".join(map(repr, _BACKENDS)) + f", not {backend!r}"
        )
    dlx = compiled("_dlx")
    if dlx is None:
        if backend is None:
            return None
        raise ExactCoverError("the compiled exact-cover core is not available")
    bits = compiled("_xcbits")
    if backend == "dlx" or bits is None:
        return dlx.Search
    plain = flat.is_plain()
    if backend == "bitset":
        if not plain:
            raise ExactCoverError(
                "the bitset core takes plain exact cover only (no multiplicities)"
            )
        return bits.Search
    if plain and bits.footprint(flat.primary, flat.offsets, flat.items) <= bits.MAX_BYTES:
        return bits.Search
    return dlx.Search


def _new_search(engine, flat: _Flat, forced: list[int], excluded: list[int]):
    return engine(flat.lower, flat.upper, flat.primary, flat.offsets, flat.items, forced, excluded)


def _compiled_search(engine, flat: _Flat, forced: list[int], excluded: list[int]):
    search = _new_search(engine, flat, forced, excluded)
    while True:
        solution = search.next_solution()
        if solution is None:
            return
        yield solution


def _reference_search(
    flat: _Flat, forced: list[int], excluded: list[int], split_depth: int | None = None
) -> Iterator[Any]:
    """Algorithm X with minimum remaining values, on dictionaries of sets.

    The readable twin of the compiled core. ``options_of[i]`` is the set of
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

    Yields the solutions as lists of option numbers (forced ones first, then in
    the order chosen). With ``split_depth`` it yields instead, for each branch
    alive at that depth (or solved above it), the pair (options taken,
    options excluded) describing that subtask.
    """
    n, m = len(flat.lower), len(flat.offsets) - 1
    lower, upper = flat.lower, flat.upper
    option_items = [flat.option(o) for o in range(m)]
    options_of: list[set[int]] = [set() for _ in range(n)]
    for o, items in enumerate(option_items):
        for i in items:
            options_of[i].add(o)
    count = [0] * n
    active = {i for i in range(n) if flat.primary[i]}  # primary items still to decide
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
        if flat.primary[item]:
            active.add(item)

    def commit(option: int, skip: int = -1) -> None:
        # skip: the branching item, already covered
        for i in option_items[option]:
            count[i] += 1
            if i != skip and count[i] == upper[i]:
                cover(i)

    def uncommit(option: int, skip: int = -1) -> None:
        for i in reversed(option_items[option]):
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

    def search(depth: int) -> Iterator[Any]:
        if split_depth is not None and (depth == split_depth or not active):
            yield (list(chosen), list(excluded_now))
            return
        if not active:
            yield list(chosen)
            return
        item, degree = least_degree()
        if degree <= 0:
            return
        if upper[item] - count[item] == 1:
            cover(item)
            for option in sorted(options_of[item]):
                chosen.append(option)
                commit(option, skip=item)
                yield from search(depth + 1)
                uncommit(option, skip=item)
                chosen.pop()
            if lower[item] <= count[item]:
                # The item gets none of its options: for a subtask, say so.
                leaving = sorted(options_of[item])
                excluded_now.extend(leaving)
                yield from search(depth + 1)
                del excluded_now[len(excluded_now) - len(leaving) :]
            uncover(item)
        else:
            taken_out: list[int] = []
            while options_of[item] and len(options_of[item]) >= lower[item] - count[item]:
                option = min(options_of[item])
                take_out(option)
                taken_out.append(option)
                chosen.append(option)
                commit(option)
                yield from search(depth + 1)
                uncommit(option)
                chosen.pop()
                excluded_now.append(option)
            if lower[item] <= count[item]:
                active.discard(item)
                yield from search(depth + 1)
                active.add(item)
            for option in reversed(taken_out):
                put_back(option)
                excluded_now.pop()

    for option in excluded:
        if all(option in options_of[i] for i in option_items[option]):
            take_out(option)
    for option in forced:
        first = option_items[option][0]
        if count[first] >= upper[first] or option not in options_of[first]:
            return  # excluded, or clashes with an earlier forced option
        take_out(option)
        chosen.append(option)
        commit(option)
    excluded_now.extend(excluded)
    yield from search(0)
