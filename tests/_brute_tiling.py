"""A brute-force tiler for small boards: the oracle of the range, open-cell and
distinct tests. It shares no code with the library: its own orientations, its
own placements, its own recursion and its own symmetry orbits (union-find)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Cell = tuple[int, int]


def _normal(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cells = list(cells)
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return tuple(sorted((x - x0, y - y0) for x, y in cells))


def orientations(cells: Iterable[Cell], reflections: bool = True) -> set[tuple[Cell, ...]]:
    """Every rotation (and mirror image) of a shape, normalised."""
    found = set()
    shape = list(cells)
    for mirror in (False, True) if reflections else (False,):
        current = [(-x, y) for x, y in shape] if mirror else shape
        for _ in range(4):
            found.add(_normal(current))
            current = [(y, -x) for x, y in current]
    return found


def tilings(
    region: Iterable[Cell],
    shapes: Mapping[str, Iterable[Cell]],
    ranges: Mapping[str, tuple[int, int | None]],
    open_cells: int = 0,
    reflections: bool = True,
) -> set[tuple[frozenset, frozenset]]:
    """Every valid tiling as ``(frozenset of (name, cells)), frozenset of open cells)``."""
    cells = sorted(set(region))
    inside = set(cells)
    placements: dict[Cell, list[tuple[str, frozenset]]] = {c: [] for c in cells}
    for name, shape in shapes.items():
        for form in orientations(shape, reflections):
            for x, y in cells:
                dx, dy = x - form[0][0], y - form[0][1]
                moved = frozenset((a + dx, b + dy) for a, b in form)
                if moved <= inside:
                    placements[min(moved)].append((name, moved))
    found: set[tuple[frozenset, frozenset]] = set()
    used = {name: 0 for name in shapes}

    def visit(filled: set, chosen: list, opened: list) -> None:
        free = [c for c in cells if c not in filled]
        if not free:
            for name, (low, high) in ranges.items():
                if used[name] < low or (high is not None and used[name] > high):
                    return
            if len(opened) == open_cells:
                found.add((frozenset(chosen), frozenset(opened)))
            return
        first = free[0]
        if len(opened) < open_cells:
            visit(filled | {first}, chosen, opened + [first])
        for name, moved in placements[first]:
            if moved & filled:
                continue
            used[name] += 1
            visit(filled | moved, chosen + [(name, moved)], opened)
            used[name] -= 1

    visit(set(), [], [])
    return found


def region_symmetries(region: Iterable[Cell]) -> list:
    """The maps of the lattice (as functions on cells) taking the region onto itself."""
    cells = set(region)
    found = []
    for mirror in (False, True):
        for turns in range(4):

            def move(c, mirror=mirror, turns=turns):
                x, y = c
                if mirror:
                    x = -x
                for _ in range(turns):
                    x, y = y, -x
                return x, y

            image = [move(c) for c in cells]
            x0 = min(x for x, _ in image) - min(x for x, _ in cells)
            y0 = min(y for _, y in image) - min(y for _, y in cells)

            def placed(c, move=move, x0=x0, y0=y0):
                x, y = move(c)
                return x - x0, y - y0

            if {placed(c) for c in cells} == cells:
                found.append(placed)
    return found


def orbit_count(region: Iterable[Cell], solutions: set, shapes, reflections=True) -> int:
    """Classes of valid tilings: two are the same when a symmetry of the region maps
    one onto the other (pieces named by their shapes), found by union-find."""
    owner: dict[tuple, str] = {}
    for name, shape in shapes.items():
        for form in orientations(shape, reflections):
            owner.setdefault(form, name)
    parent = {s: s for s in solutions}

    def root(s):
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    for solution in solutions:
        placed, opened = solution
        for symmetry in region_symmetries(region):
            image = []
            for _, moved in placed:
                cells = frozenset(symmetry(c) for c in moved)
                name = owner.get(_normal(cells))
                if name is None:
                    break
                image.append((name, cells))
            else:
                key = (frozenset(image), frozenset(symmetry(c) for c in opened))
                if key in parent:
                    parent[root(key)] = root(solution)
    return len({root(s) for s in solutions})
