"""An exact cover instance in integer form, the input of every search core.

:class:`~polyforms.exactcover.problem.ExactCover` numbers its constraints (items) and
choices (options) and keeps them here as flat ``array('i')`` columns: bounds
and a primary flag per item, the options' items cut by offsets, and a colour
beside each item of an option (colours only). The cores, compiled or
readable, take these arrays directly; the job layer pickles them.
"""

from __future__ import annotations

import random as _random
from array import array
from collections.abc import Hashable
from typing import Any, NamedTuple

from .._textio import shorten
from ..errors import ExactCoverError

__all__ = ["MAX_MULTIPLICITY", "Coloured", "Multiplicity"]


class Coloured(NamedTuple):
    """A secondary constraint named with a colour in one choice (Knuth's ``X:c``)."""

    constraint: Hashable
    colour: Hashable

    def __str__(self) -> str:
        return f"{self.constraint}:{self.colour}"


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


class _Flat:
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
        colours = None if self.colours is None else array("i")
        for o in order:
            items.extend(relabel[k] for k in self.option(o))
            offsets.append(len(items))
            if colours is not None:
                colours.extend(self.colours[self.offsets[o] : self.offsets[o + 1]])
        return (
            _Flat(
                array("i", (self.lower[old_of[j]] for j in range(n))),
                array("i", (self.upper[old_of[j]] for j in range(n))),
                array("i", (self.primary[old_of[j]] for j in range(n))),
                offsets,
                items,
                colours,
            ),
            order,
        )
