"""Type stubs of the compiled symmetric-polyform count (twin of polyforms._symmetric_py)."""

from collections.abc import Sequence

Cell = tuple[int, ...]

def count_invariant(
    n: int,
    perm: Sequence[int],
    signs: Sequence[int],
    shift: Sequence[int],
    roots: Sequence[Cell],
) -> int: ...
def count_mirror(
    n: int,
    perm: Sequence[int],
    signs: Sequence[int],
    shift: Sequence[int],
    root: Cell,
) -> int: ...
