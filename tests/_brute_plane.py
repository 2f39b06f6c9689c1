"""A brute-force tiler for small regions of the triangular and hexagonal lattices:
the oracle of ``test_tiling_hexagonal``, the sibling of ``_brute_tiling`` (squares).

It shares no code with the library: a cell is turned into a point of the page
(its centre, in floating point), the twelve symmetries are rotations by
multiples of 60 degrees and those after one mirror, and a point is turned back
into a cell by rounding; placements, the recursion and the orbits (union-find)
are its own. Cells are the library's: a triangle ``(x, y, t)`` has its centre at
``(x + (1 + t) / 3) * e1 + (y + (1 + t) / 3) * e2``, a hexagon ``(q, r)`` at
``q * e1 + r * e2``, with ``e1 = (1, 0)`` and ``e2 = (1/2, sqrt(3)/2)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping

Cell = tuple[int, ...]
_H = math.sqrt(3) / 2


def _centre(cell: Cell) -> tuple[float, float]:
    if len(cell) == 3:
        x, y, t = cell
        u, v = x + (1 + t) / 3, y + (1 + t) / 3
    else:
        u, v = cell
    return u + v / 2, v * _H


def _cell(point: tuple[float, float], triangles: bool) -> Cell:
    v = point[1] / _H
    u = point[0] - v / 2
    if not triangles:
        return round(u), round(v)
    # A triangle's centre has u and v both 1/3 or both 2/3 past whole numbers.
    u3, v3 = round(3 * u), round(3 * v)
    t = u3 % 3 - 1
    assert t in (0, 1) and (v3 - u3) % 3 == 0, (point, u3, v3)
    return (u3 - 1 - t) // 3, (v3 - 1 - t) // 3, t


def symmetries(triangles: bool) -> list[Callable[[Cell], Cell]]:
    """The twelve maps of the lattice fixing the origin (as point maps on cells):
    the rotations first, then the rotations after the mirror ``y -> -y``."""
    found = []
    for mirror in (False, True):
        for k in range(6):
            c, s = math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)

            def move(cell: Cell, c=c, s=s, mirror=mirror) -> Cell:
                px, py = _centre(cell)
                if mirror:
                    py = -py
                return _cell((c * px - s * py, s * px + c * py), triangles)

            found.append(move)
    return found


def normal(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Translate so that the least ``x`` and the least ``y`` are 0 (a triangle keeps ``t``)."""
    cells = list(cells)
    x0 = min(c[0] for c in cells)
    y0 = min(c[1] for c in cells)
    return tuple(sorted((c[0] - x0, c[1] - y0, *c[2:]) for c in cells))


def orientations(
    cells: Iterable[Cell], rotations: bool = True, reflections: bool = True
) -> set[tuple[Cell, ...]]:
    """The shape's images under the allowed maps, normalised."""
    shape = list(cells)
    triangles = len(shape[0]) == 3
    maps = symmetries(triangles)
    allowed = [k for k in range(12) if (rotations or k % 6 == 0) and (reflections or k < 6)]
    return {normal(maps[k](c) for c in shape) for k in allowed}


def tilings(
    region: Iterable[Cell],
    shapes: Mapping[str, Iterable[Cell]],
    ranges: Mapping[str, tuple[int, int | None]],
    rotations: bool = True,
    reflections: bool = True,
) -> set[frozenset]:
    """Every tiling of the region, as a frozenset of ``(name, frozenset of cells)``."""
    cells = sorted(set(region))
    inside = set(cells)
    placements: dict[Cell, list[tuple[str, frozenset]]] = {c: [] for c in cells}
    for name, shape in shapes.items():
        for form in orientations(shape, rotations, reflections):
            for target in cells:
                if target[2:] != form[0][2:]:
                    continue  # a translation keeps a triangle's orientation
                dx, dy = target[0] - form[0][0], target[1] - form[0][1]
                moved = frozenset((c[0] + dx, c[1] + dy, *c[2:]) for c in form)
                if moved <= inside:
                    placements[min(moved)].append((name, moved))
    found: set[frozenset] = set()
    used = dict.fromkeys(shapes, 0)

    def visit(filled: set, chosen: list) -> None:
        free = [c for c in cells if c not in filled]
        if not free:
            for name, (low, high) in ranges.items():
                if used[name] < low or (high is not None and used[name] > high):
                    return
            found.add(frozenset(chosen))
            return
        for name, moved in placements[free[0]]:
            if moved & filled:
                continue
            high = ranges[name][1]
            if high is not None and used[name] >= high:
                continue
            used[name] += 1
            visit(filled | moved, [*chosen, (name, moved)])
            used[name] -= 1

    visit(set(), [])
    return found


def region_symmetries(region: Iterable[Cell]) -> list[Callable[[Cell], Cell]]:
    """The maps of the lattice (each a point map and a translation) taking the region
    onto itself."""
    cells = set(region)
    triangles = len(next(iter(cells))) == 3
    target = normal(cells)
    found = []
    for move in symmetries(triangles):
        image = [move(c) for c in cells]
        if normal(image) != target:
            continue
        dx = min(c[0] for c in cells) - min(c[0] for c in image)
        dy = min(c[1] for c in cells) - min(c[1] for c in image)

        def placed(c, move=move, dx=dx, dy=dy):
            m = move(c)
            return (m[0] + dx, m[1] + dy, *m[2:])

        assert {placed(c) for c in cells} == cells
        found.append(placed)
    return found


def orbits(
    region: Iterable[Cell],
    solutions: set[frozenset],
    shapes: Mapping[str, Iterable[Cell]],
    rotations: bool = True,
    reflections: bool = True,
) -> list[set[frozenset]]:
    """The classes of the tilings under the region's symmetries (pieces named by
    their shapes; an image using a shape no piece may take is no tiling)."""
    owner: dict[tuple, str] = {}
    for name, shape in shapes.items():
        for form in orientations(shape, rotations, reflections):
            owner.setdefault(form, name)
    parent = {s: s for s in solutions}

    def root(s):
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    maps = region_symmetries(region)
    for solution in solutions:
        for symmetry in maps:
            image = []
            for _, moved in solution:
                cells = frozenset(symmetry(c) for c in moved)
                name = owner.get(normal(cells))
                if name is None:
                    break
                image.append((name, cells))
            else:
                key = frozenset(image)
                if key in parent:
                    parent[root(key)] = root(solution)
    classes: dict[frozenset, set[frozenset]] = {}
    for s in solutions:
        classes.setdefault(root(s), set()).add(s)
    return list(classes.values())
