"""Type stubs for the compiled bitset exact-cover core (see _xcbits.pyx)."""

from array import array
from collections.abc import Iterable

Buffer = array

MAX_BYTES: int

def footprint(
    primary: Buffer, offsets: Buffer, items: Buffer, colours: Buffer | None = ...
) -> int: ...

class Search:
    def __init__(
        self,
        lower: Buffer,
        upper: Buffer,
        primary: Buffer,
        offsets: Buffer,
        items: Buffer,
        forced: Iterable[int] = ...,
        excluded: Iterable[int] = ...,
        colours: Buffer | None = ...,
    ) -> None: ...
    def next_solution(self) -> list[int] | None: ...
    def count(self, limit: int | None = ..., nodes: int | None = ...) -> int: ...
    @property
    def done(self) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def path(self) -> list[int]: ...
