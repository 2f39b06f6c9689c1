"""An exact cover instance in integer form, the input of every search core.

:class:`~polyforms.exactcover.problem.ExactCover` numbers its constraints (items) and
choices (options) with :func:`numbered` and keeps them here as flat
``array('i')`` columns: bounds and a primary flag per item, the options' items
cut by offsets, and a colour beside each item of an option (colours only). The
cores, compiled or readable, take these arrays directly; the job layer pickles
them, and each process rebuilds an instance once (:func:`shared_flat`).
"""

from __future__ import annotations

import random as _random
from array import array
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, NamedTuple

from .._textio import shorten
from ..errors import ExactCoverError, WrongTypeError

__all__ = [
    "MAX_MULTIPLICITY",
    "Coloured",
    "Flat",
    "Multiplicity",
    "Numbered",
    "numbered",
    "shared_flat",
]


class Coloured(NamedTuple):
    """A secondary constraint named with a colour in one choice (Knuth's ``X:c``)."""

    constraint: Hashable
    colour: Hashable

    def __str__(self) -> str:
        return f"{self.constraint}:{self.colour}"


#: How often an item is covered: exactly N times, or a range (low, high).
Multiplicity = int | tuple[int, int]


MAX_MULTIPLICITY = 2**31 - 1
"""The largest multiplicity (the cores count in 32-bit integers)."""


def _name(thing: object) -> str:
    """A constraint or choice for a message: its repr, cut to 60 characters."""
    return shorten(repr(thing))


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
            f"multiplicity of {_name(constraint)} must satisfy 0 <= lo <= hi and hi >= 1, "
            f"got {str(value)[:40]}"
        )
    if high > MAX_MULTIPLICITY:
        raise ExactCoverError(
            f"multiplicity of {_name(constraint)} is beyond the limit of {MAX_MULTIPLICITY}"
        )
    if secondary and low > 0:
        raise ExactCoverError(
            f"secondary constraint {constraint!r} cannot have a lower bound {low}; "
            "make it primary instead"
        )
    return low, high


class Flat:
    """An instance in integer form: the input of both search backends.

    Items (constraints) are numbered ``0..n-1`` and options (choices) ``0..m-1``;
    option ``o`` holds the items ``items[offsets[o]:offsets[o + 1]]``.
    """

    __slots__ = ("colours", "items", "lower", "offsets", "primary", "upper")

    def __init__(
        self,
        lower: array,
        upper: array,
        primary: array,
        offsets: array,
        items: array,
        colours: array | None = None,
    ):
        self.lower = lower
        self.upper = upper
        self.primary = primary
        self.offsets = offsets
        self.items = items
        self.colours = colours  # beside ``items``: 0 or a colour number; None: no colours

    @property
    def arrays(self) -> tuple[array, array, array, array, array]:
        """``(lower, upper, primary, offsets, items)``: the searches' first arguments
        (colours go apart, by keyword)."""
        return self.lower, self.upper, self.primary, self.offsets, self.items

    def once_each(self) -> bool:
        """No multiplicities: primary items exactly once, secondary at most once
        (colours allowed)."""
        return all(hi == 1 and lo == p for lo, hi, p in zip(self.lower, self.upper, self.primary))

    def option(self, o: int) -> array:
        return self.items[self.offsets[o] : self.offsets[o + 1]]

    def shuffled(self, rng: _random.Random) -> tuple[Flat, list[int]]:
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
        colours = None if self.colours is None else array("i")
        for o in order:
            items.extend(relabel[k] for k in self.option(o))
            offsets.append(len(items))
            if colours is not None:
                colours.extend(self.colours[self.offsets[o] : self.offsets[o + 1]])
        return (
            Flat(
                array("i", (self.lower[old_of[j]] for j in range(n))),
                array("i", (self.upper[old_of[j]] for j in range(n))),
                array("i", (self.primary[old_of[j]] for j in range(n))),
                offsets,
                items,
                colours,
            ),
            order,
        )


_FLATS: dict[str, Flat] = {}


def shared_flat(digest: str, arrays: tuple) -> Flat:
    """The instance of ``arrays`` (a :class:`Flat`'s, colours last, None: no
    colours) named by ``digest``: the subtasks a process runs share one
    instance, rebuilt when a subtask of another instance comes."""
    flat = _FLATS.get(digest)
    if flat is None:
        _FLATS.clear()
        flat = _FLATS[digest] = Flat(*arrays)
    return flat


# -- numbering a problem ---------------------------------------------------------


class Numbered(NamedTuple):
    """A problem in integer form (:func:`numbered`) and the names behind its numbers."""

    flat: Flat
    choices: list[Hashable]  # option o is choices[o]
    constraints: list[Hashable]  # item i is constraints[i]
    index: dict[Hashable, int]  # constraint -> its item
    colours: list[Hashable]  # colour number c (> 0) is colours[c - 1]


class _Options(NamedTuple):
    """The options read from the choices, with the colours they name."""

    offsets: array
    items: array
    colours: array  # beside items: 0, or 1 + the colour's number
    colour_index: dict[Hashable, int]


def numbered(
    choices: Mapping[Hashable, Iterable[Hashable]],
    secondary: Iterable[Hashable],
    multiplicity: Mapping[Hashable, Any] | None,
    primary: Iterable[Hashable] | None,
) -> Numbered:
    """Number the constraints and choices of a problem (the arguments of
    :class:`~polyforms.exactcover.problem.ExactCover`) and check them.

    Items are numbered in the order of ``primary`` (when given), then of first
    appearance in the choices, then of ``secondary``; options in the order of
    ``choices``. One dictionary look-up per (choice, constraint) pair.

    Raises
    ------
    WrongTypeError
        When ``choices`` or ``multiplicity`` is not a mapping.
    ExactCoverError
        For a choice without constraints or listing one twice, a constraint
        that is neither primary nor secondary when ``primary`` is given, an
        unknown constraint in ``multiplicity``, a bad multiplicity, or a
        colour on a primary constraint or one with a multiplicity.
    """
    if not isinstance(choices, Mapping):
        raise WrongTypeError("choices must be a mapping from each choice to its constraints")
    if multiplicity is not None and not isinstance(multiplicity, Mapping):
        raise WrongTypeError(
            "multiplicity must be a mapping from constraints to k or (lo, hi), "
            f"not {type(multiplicity).__name__}"
        )
    try:
        secondary = list(secondary)  # read twice: for the numbers, then for the bounds
        secondary_set = set(secondary)
    except TypeError as error:
        raise ExactCoverError(f"secondary constraints must be hashable: {error}") from None
    index: dict[Hashable, int] = {}
    names: list[Hashable] = []
    if primary is not None:
        _number_primary(primary, secondary_set, index, names)
    keys = list(choices)
    options = _read_options(choices, keys, index, names, primary is not None, secondary_set)
    for constraint in secondary:
        if constraint not in index:
            index[constraint] = len(names)
            names.append(constraint)
    lower, upper, is_primary = _item_bounds(names, index, secondary_set, multiplicity or {})
    _check_colours(options, is_primary, upper, names)
    colours = options.colours if options.colour_index else None
    flat = Flat(lower, upper, is_primary, options.offsets, options.items, colours)
    return Numbered(flat, keys, names, index, list(options.colour_index))


def _number_primary(
    primary: Iterable[Hashable],
    secondary: set[Hashable],
    index: dict[Hashable, int],
    names: list[Hashable],
) -> None:
    """Number the constraints listed as ``primary`` first, in their order."""
    for constraint in primary:
        if constraint in index:
            raise ExactCoverError(f"primary constraint {constraint!r} is listed twice")
        if constraint in secondary:
            raise ExactCoverError(f"constraint {constraint!r} is both primary and secondary")
        index[constraint] = len(names)
        names.append(constraint)


def _read_options(
    choices: Mapping[Hashable, Iterable[Hashable]],
    keys: list[Hashable],
    index: dict[Hashable, int],
    names: list[Hashable],
    closed: bool,
    secondary: set[Hashable],
) -> _Options:
    """The items of each choice, numbering new constraints as they come (none
    when ``closed``: every constraint is then primary or secondary already)."""
    offsets, items = array("i", [0]), array("i")
    colours = array("i")
    colour_index: dict[Hashable, int] = {}
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
                    if closed and constraint not in secondary:
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
    return _Options(offsets, items, colours, colour_index)


def _item_bounds(
    names: list[Hashable],
    index: dict[Hashable, int],
    secondary: set[Hashable],
    multiplicity: Mapping[Hashable, Any],
) -> tuple[array, array, array]:
    """``(lower, upper, primary)`` of each item: exactly once for a primary
    constraint, at most once for a secondary one, unless a multiplicity says
    otherwise."""
    n = len(names)
    is_primary = array("i", [1]) * n
    lower = array("i", [1]) * n
    upper = array("i", [1]) * n
    for constraint in secondary:
        k = index[constraint]
        is_primary[k] = 0
        lower[k] = 0
    for constraint, value in multiplicity.items():
        k = index.get(constraint)
        if k is None:
            raise ExactCoverError(f"multiplicity given for unknown constraint {constraint!r}")
        lower[k], upper[k] = _bounds(constraint, value, not is_primary[k])
    return lower, upper, is_primary


def _check_colours(
    options: _Options, is_primary: array, upper: array, names: list[Hashable]
) -> None:
    """Only secondary constraints of multiplicity 1 take colours."""
    for k, colour in zip(options.items, options.colours):
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
