"""Type stubs of the compiled Redelmeier search on a neighbour table
(twin of polyforms.enumeration._lattice_redelmeier_py)."""

from collections.abc import Sequence

def count_fixed(n: int, neighbours: Sequence[int], degree: int, root: int) -> int: ...

class FixedWalk:
    def __init__(self, n: int, neighbours: Sequence[int], degree: int, root: int) -> None: ...
    def fill(self, limit: int) -> list[int]: ...
    def count(self) -> int: ...

def keep_canonical(
    chunk: Sequence[int], n: int, points: Sequence[int], matrices: Sequence[int], triangles: bool
) -> list[int]: ...
def count_invariant(
    n: int,
    orbit_neighbours: Sequence[int],
    orbit_degree: int,
    weights: Sequence[int],
    root: int,
    orbit_cells: Sequence[int],
    orbit_width: int,
    cell_neighbours: Sequence[int],
    cell_degree: int,
) -> int: ...
