"""Knuth's DLX text format for exact cover (the input of DLX1, DLX2, DLX3).

The first line that is not a comment names the items: the primary ones, then a
lone ``|``, then the secondary ones. Every further line is one option, the
names of its items separated by spaces. Lines whose first non-blank character
is ``|`` are comments; blank lines are skipped (as in Knuth's programs). A
name has 1-8 characters, none of them ``:``, ``|`` or white space.

Multiplicities follow DLX3: ``3|X`` before a primary item's name means
exactly 3, ``2:4|X`` between 2 and 4. As an extension, ``0:k|Y`` on a
secondary item means at most ``k``. Colours follow DLX2: ``Y:c`` in an option
gives the secondary item ``Y`` the colour ``c`` (a name of 1-8 characters);
options may share ``Y`` when they give it the same colour.

Example::

    | Knuth's example from "Dancing links"
    a b c d e f | g
    c e
    a d g
    b c f
    a d f
    b g
    d e g
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence

from .._textio import shorten
from ..errors import DLXFormatError

__all__ = ["format_solution", "parse_dlx", "valid_name", "write_dlx"]

_BOUNDS = re.compile(r"^(?:(\d+):)?(\d+)$")


def valid_name(name: object) -> bool:
    """True for a string that Knuth's programs accept as an item name."""
    return (
        isinstance(name, str)
        and 1 <= len(name) <= 8
        and not any(ch in ":|" or ch.isspace() for ch in name)
    )


def parse_dlx(
    text: str,
) -> tuple[list[str], list[str], dict[str, tuple[int, int]], list[list[str | tuple[str, str]]]]:
    """Parse DLX text into (primary, secondary, bounds, options).

    An option lists item names, or ``(name, colour)`` pairs for coloured ones.

    Raises
    ------
    DLXFormatError
        Naming the line, for a missing item line, a bad or repeated item name,
        bad bounds, an unknown or repeated item in an option, or a colour on a
        primary item (or a bad colour name).
    """
    primary: list[str] = []
    secondary: list[str] = []
    bounds: dict[str, tuple[int, int]] = {}
    options: list[list[str | tuple[str, str]]] = []
    known: set[str] = set()
    header_seen = False
    number = 0
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("|"):
            continue
        tokens = stripped.split()
        if not header_seen:
            header_seen = True
            _parse_items(tokens, number, primary, secondary, bounds, known)
            secondary_set = set(secondary)
            continue
        option: list[str | tuple[str, str]] = []
        names: set[str] = set()
        for token in tokens:
            name, colon, colour = token.partition(":")
            if "|" in token or (colon and not valid_name(colour)):
                raise DLXFormatError(
                    f"line {number}: {shorten(token)!r} is not an item name or ITEM:COLOUR "
                    "(bounds are not allowed in an option)"
                )
            if name not in known:
                raise DLXFormatError(f"line {number}: unknown item {shorten(name)!r} in option")
            if colon and name not in secondary_set:
                raise DLXFormatError(
                    f"line {number}: primary item {shorten(name)!r} cannot have a colour "
                    "(colours go on secondary items)"
                )
            if name in names:
                raise DLXFormatError(
                    f"line {number}: item {shorten(name)!r} appears twice in the option"
                )
            names.add(name)
            option.append((name, colour) if colon else name)
        options.append(option)
    if not header_seen:
        raise DLXFormatError(
            f"line {number + 1}: missing item line (the first line that is not a comment "
            "must name the items)"
        )
    return primary, secondary, bounds, options


def _parse_items(
    tokens: list[str],
    number: int,
    primary: list[str],
    secondary: list[str],
    bounds: dict[str, tuple[int, int]],
    known: set[str],
) -> None:
    in_secondary = False
    for token in tokens:
        if token == "|":
            if in_secondary:
                raise DLXFormatError(f"line {number}: more than one '|' in the item line")
            in_secondary = True
            continue
        name, low, high = token, None, None
        if "|" in token:
            prefix, _, name = token.partition("|")
            match = _BOUNDS.match(prefix)
            if not match:
                raise DLXFormatError(
                    f"line {number}: bad bounds {shorten(prefix)!r} in {shorten(token)!r}"
                )
            high = int(match.group(2))
            low = high if match.group(1) is None else int(match.group(1))
            if high < 1 or low > high:
                raise DLXFormatError(
                    f"line {number}: bounds in {shorten(token)!r} need 0 <= lo <= hi and hi >= 1"
                )
            if in_secondary and low > 0:
                raise DLXFormatError(
                    f"line {number}: secondary item {shorten(name)!r} cannot have a lower bound"
                )
        if not valid_name(name):
            raise DLXFormatError(
                f"line {number}: bad item name {shorten(name)!r} (1-8 characters, no ':' or '|')"
            )
        if name in known:
            raise DLXFormatError(f"line {number}: duplicate item {shorten(name)!r}")
        known.add(name)
        (secondary if in_secondary else primary).append(name)
        if high is not None:
            bounds[name] = (low, high)  # type: ignore[assignment]


def write_dlx(
    constraints: Sequence[Hashable],
    lower: Sequence[int],
    upper: Sequence[int],
    primary: Sequence[int],
    options: Sequence[Sequence[int]],
    colours: Sequence[Sequence[Hashable | None]] | None = None,
) -> str:
    """Write an instance in integer form as DLX text.

    ``colours[o][j]``, when given, is the colour of option ``o``'s ``j``-th item
    (None: uncoloured), written ``name:colour``; colours that are not valid
    names are all renamed ``c1``, ``c2``, ... in order of first use, with a
    comment line ``| c1 = repr`` for each.

    When every constraint is already a valid name it is kept; otherwise every
    constraint ``k`` is renamed ``x<k+1>`` and a comment line ``| x3 = repr``
    records the mapping.
    """
    if all(valid_name(c) for c in constraints):
        names = [str(c) for c in constraints]
        lines = []
    else:
        names = [f"x{k + 1}" for k in range(len(constraints))]
        lines = [f"| {name} = {constraint!r}" for name, constraint in zip(names, constraints)]
    head: list[str] = []
    tail: list[str] = []
    for k, name in enumerate(names):
        low, high = lower[k], upper[k]
        if primary[k]:
            if (low, high) == (1, 1):
                head.append(name)
            elif low == high:
                head.append(f"{high}|{name}")
            else:
                head.append(f"{low}:{high}|{name}")
        else:
            tail.append(name if high == 1 else f"0:{high}|{name}")
    lines.append(" ".join(head + (["|"] + tail if tail else [])))
    if colours is None:
        lines.extend(" ".join(names[k] for k in option) for option in options)
        return "\n".join(lines) + "\n"
    used = list(dict.fromkeys(c for row in colours for c in row if c is not None))
    if all(valid_name(c) for c in used):
        label = {c: str(c) for c in used}
    else:
        label = {c: f"c{j + 1}" for j, c in enumerate(used)}
        lines[-1:-1] = [f"| {label[c]} = {c!r}" for c in used]
    for option, row in zip(options, colours):
        lines.append(
            " ".join(
                names[k] if c is None else f"{names[k]}:{label[c]}" for k, c in zip(option, row)
            )
        )
    return "\n".join(lines) + "\n"


def format_solution(option_texts: Sequence[str], solution: Sequence[int]) -> str:
    """One solution as ``polyforms solve`` prints it: its options, one per line,
    then a blank line. ``option_texts[o]`` is option ``o`` as written in the file."""
    return "".join(option_texts[o] + "\n" for o in solution) + "\n"
