"""Type stubs of the compiled Redelmeier core (twin of polyforms.redelmeier)."""

from collections.abc import Iterator, Sequence

Cell = tuple[int, ...]

def count_prefix(
    n: int, dim: int, kind: str, cells: Sequence[Cell], untried: Sequence[Cell]
) -> int: ...
def count_levels(n: int, dim: int) -> list[int]: ...
def iter_chunks(
    n: int,
    dim: int,
    kind: str,
    cells: Sequence[Cell],
    untried: Sequence[Cell],
    chunk: int = ...,
) -> Iterator[list[tuple[Cell, ...]]]: ...
def count_invariant(
    n: int,
    perm: Sequence[int],
    signs: Sequence[int],
    shift: Sequence[int],
    roots: Sequence[Cell],
) -> int: ...
def pack_prefix(
    n: int, dim: int, kind: str, cells: Sequence[Cell], untried: Sequence[Cell]
) -> bytes: ...
def iter_packed(
    n: int,
    dim: int,
    kind: str,
    cells: Sequence[Cell],
    untried: Sequence[Cell],
    chunk: int = ...,
) -> Iterator[bytes]: ...
def unpack(n: int, dim: int, packed: bytes) -> list[tuple[Cell, ...]]: ...
