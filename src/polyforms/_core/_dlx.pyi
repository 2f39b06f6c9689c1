"""Type stubs for the compiled dancing-links core (see _dlx.pyx)."""

from array import array
from collections.abc import Iterable

Buffer = array

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
    def probe(self, probes: int = ..., seed: int = ...) -> float: ...
    @property
    def done(self) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def path(self) -> list[int]: ...
