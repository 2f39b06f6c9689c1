from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import BinaryIO

STRATEGIES: tuple[str, ...]

class TilingSearch:
    nodes: int
    found: int
    stopped_at: tuple[int, ...] | None
    flood_cap: int
    @property
    def ncells(self) -> int: ...
    def __init__(
        self,
        ncells: int,
        placements: Sequence[tuple[int, Sequence[int]]],
        limits: Sequence[int],
        must_use: Sequence[bool],
        neighbours: Sequence[Sequence[int]] | None = ...,
        strategy: str = ...,
        initial: Sequence[int] = ...,
        flood_cap: int | None = ...,
        minimums: Sequence[int] | None = ...,
    ) -> None: ...
    def restrict(self, excluded: Iterable[int] = ...) -> None: ...
    def count(
        self,
        progress: Callable[[float], None] | None = ...,
        prefix: Sequence[int] = ...,
        nodes: int | None = ...,
    ) -> int: ...
    def solutions(
        self, limit: int | None = ..., prefix: Sequence[int] = ...
    ) -> Iterator[list[int]]: ...
    def branch(self, prefix: Sequence[int] = ...) -> list[int] | None: ...
    def probe(self, prefix: Sequence[int] = ..., probes: int = ..., seed: int = ...) -> float: ...

class BoardSweep:
    filled: int
    states: int
    moves: int
    size: int
    peak: int
    def __init__(
        self,
        search: TilingSearch,
        prefix: Sequence[int] = ...,
        budget: int | None = ...,
        helpers: Iterable[TilingSearch] = ...,
        wide: bool = ...,
    ) -> None: ...
    @property
    def threads(self) -> int: ...
    @property
    def wide(self) -> bool: ...
    def run(self, states: int = ...) -> bool: ...
    @property
    def done(self) -> bool: ...
    @property
    def count(self) -> int: ...
    @property
    def live(self) -> int: ...
    @property
    def fraction(self) -> float: ...
    def save(self, out: BinaryIO) -> None: ...
    def load(self, inp: BinaryIO) -> None: ...
