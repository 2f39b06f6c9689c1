"""Type stubs of the compiled fixed-polycube counter (twin of enumeration._polycubes_py)."""

from collections.abc import Sequence

Cell = tuple[int, ...]

def count_prefix(n: int, cells: Sequence[Cell], untried: Sequence[Cell]) -> int: ...
