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
