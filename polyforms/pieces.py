"""Named piece sets with their conventional names.

=====================  =====  ===============================================
name                   count  piece names
=====================  =====  ===============================================
monomino                   1  O
dominoes                   1  I
trominoes                  2  I L
tetrominoes                5  I O T S L (free)
one-sided-tetrominoes      7  I O T S Z L J
pentominoes               12  F I L N P T U V W X Y Z (Golomb's letters)
one-sided-pentominoes     18  the 12 letters, plus f l n p y z for the mirror
                              images of the six chiral ones
hexominoes                35  H01 ... H35, in canonical order
solid-pentominoes         12  the pentominoes as flat pentacubes
tetracubes                 8  I O T S L, the screws A and B, the branch P
                              (one-sided: mirror images differ)
soma                       7  V L T Z A B P (Piet Hein's Soma cube)
pentacubes                29  one-sided: the 12 planar ones by pentomino letter,
                              the 17 non-planar ones a ... q in canonical order
=====================  =====  ===============================================

Besides these, ``free:N``, ``one-sided:N`` and ``fixed:N`` name every
polyomino of size N of that kind (``dim=3`` for polycubes), named ``1``, ``2``,
... in sorted order of their canonical cells. Generated sets are built with the
naive method, whose sorted order does not depend on the backend.
"""

from __future__ import annotations

from functools import cache

from .errors import PolyformError, UnknownNameError
from .geometry import KINDS, check_dim
from .polyform import Polyform

__all__ = ["pieces", "piece_set_names"]

_PENTOMINOES = {
    "F": ".##|##.|.#.",
    "I": "#####",
    "L": "####|#...",
    "N": "##..|.###",
    "P": "##|##|#.",
    "T": "###|.#.|.#.",
    "U": "#.#|###",
    "V": "#..|#..|###",
    "W": "#..|##.|.##",
    "X": ".#.|###|.#.",
    "Y": "####|.#..",
    "Z": "##.|.#.|.##",
}

_TETROMINOES = {"I": "####", "O": "##|##", "T": "###|.#.", "S": ".##|##.", "L": "###|#.."}
_ONE_SIDED_TETROMINOES = {
    "I": "####",
    "O": "##|##",
    "T": "###|.#.",
    "S": ".##|##.",
    "Z": "##.|.##",
    "L": "###|#..",
    "J": "###|..#",
}
_TROMINOES = {"I": "###", "L": "##|#."}

# Polycubes as explicit (x, y, z) cells.
_TETRACUBES = {
    "I": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)],
    "O": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],
    "T": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    "S": [(1, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0)],
    "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    "A": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)],  # screw
    "B": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)],  # the other screw (mirror of A)
    "P": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],  # branch (tripod)
}
_SOMA_ORDER = ("V", "L", "T", "Z", "A", "B", "P")


def _picture(rows: str) -> Polyform:
    return Polyform.from_ascii(rows.replace("|", "\n"))


def _flat(piece: Polyform) -> Polyform:
    return Polyform([cell + (0,) for cell in piece.cells])


def _mirror(piece: Polyform) -> Polyform:
    return Polyform([(-x, y) for x, y in piece.cells])


@cache
def _named_set(name: str) -> dict[str, Polyform]:
    if name == "monomino":
        return {"O": _picture("#")}
    if name == "dominoes":
        return {"I": _picture("##")}
    if name == "trominoes":
        return {k: _picture(v) for k, v in _TROMINOES.items()}
    if name == "tetrominoes":
        return {k: _picture(v) for k, v in _TETROMINOES.items()}
    if name == "one-sided-tetrominoes":
        return {k: _picture(v) for k, v in _ONE_SIDED_TETROMINOES.items()}
    if name == "pentominoes":
        return {k: _picture(v) for k, v in _PENTOMINOES.items()}
    if name == "one-sided-pentominoes":
        out = {}
        for letter, rows in _PENTOMINOES.items():
            piece = _picture(rows)
            out[letter] = piece
            if piece.canonical("one-sided") != _mirror(piece).canonical("one-sided"):
                out[letter.lower()] = _mirror(piece)
        return out
    if name == "hexominoes":
        from .enumerate import enumerate_polyforms

        return {f"H{i:02d}": p for i, p in enumerate(enumerate_polyforms(6, 2, "free", "naive"), 1)}
    if name == "solid-pentominoes":
        return {k: _flat(p) for k, p in _named_set("pentominoes").items()}
    if name == "tetracubes":
        return {k: Polyform(v) for k, v in _TETRACUBES.items()}
    if name == "soma":
        tetracubes = _named_set("tetracubes")
        soma = {"V": Polyform([(0, 0, 0), (1, 0, 0), (0, 1, 0)])}
        soma.update({k: tetracubes[k if k != "Z" else "S"] for k in _SOMA_ORDER[1:]})
        return soma
    if name == "pentacubes":
        from .enumerate import enumerate_polyforms

        solid = _named_set("solid-pentominoes")
        planar = {p.canonical("one-sided"): k for k, p in solid.items()}
        named: dict[str, Polyform] = {}
        others = []
        for piece in enumerate_polyforms(5, 3, "one-sided", "naive"):
            if piece in planar:
                named[planar[piece]] = solid[planar[piece]]  # lying flat
            else:
                others.append(piece)
        named = {k: named[k] for k in _PENTOMINOES}  # pentomino letter order
        named.update({chr(ord("a") + i): p for i, p in enumerate(others)})
        return named
    raise KeyError(name)


_NAMED = (
    "monomino",
    "dominoes",
    "trominoes",
    "tetrominoes",
    "one-sided-tetrominoes",
    "pentominoes",
    "one-sided-pentominoes",
    "hexominoes",
    "solid-pentominoes",
    "tetracubes",
    "soma",
    "pentacubes",
)


def piece_set_names() -> tuple[str, ...]:
    """The names :func:`pieces` accepts besides ``KIND:N``."""
    return _NAMED


def pieces(name: str, dim: int = 2) -> dict[str, Polyform]:
    """Return a piece set as an ordered ``{name: Polyform}`` dictionary.

    Parameters
    ----------
    name : str
        One of :func:`piece_set_names`, or ``KIND:N`` with KIND in
        ``fixed``, ``one-sided``, ``free`` for every polyform of size N.
    dim : {2, 3}
        Dimension for ``KIND:N`` sets (ignored for named sets).

    Raises
    ------
    UnknownNameError
        An unknown set; the message lists the known ones.

    Examples
    --------
    >>> "".join(pieces("pentominoes"))
    'FILNPTUVWXYZ'
    >>> len(pieces("one-sided-pentominoes")), len(pieces("free:4", dim=3))
    (18, 7)
    """
    if ":" in name:
        kind, _, size = name.partition(":")
        if kind not in KINDS or not size.isdigit() or int(size) < 1:
            raise UnknownNameError(
                f"unknown piece set {name!r}: write KIND:N with KIND one of "
                f"{', '.join(KINDS)} and N a positive whole number"
            )
        if int(size) > 10:
            raise PolyformError(f"piece set {name!r} is too large to use as a set of pieces")
        from .enumerate import enumerate_polyforms

        check_dim(dim)
        found = enumerate_polyforms(int(size), dim, kind, "naive")
        return {str(i): p for i, p in enumerate(found, 1)}
    if name not in _NAMED:
        raise UnknownNameError(
            f"unknown piece set {name!r}; known sets: {', '.join(_NAMED)}, "
            "or fixed:N, one-sided:N, free:N"
        )
    return dict(_named_set(name))
