"""The sweep over boards of the readable twin of ``polyforms._core._tiling``.

Counts with free pieces, board layer by board layer (:class:`BoardSweep`),
over the state of a :class:`~polyforms.tiling._tiling_py.TilingSearch`: the
same boards and moves as the compiled twin's sweep, and the same binary form
of a saved sweep. :mod:`polyforms.tiling._tiling_py` names it with the rest
of the kernel, as the compiled module does.
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Iterator, Sequence
from typing import BinaryIO, Protocol

from ..errors import TilingError
from ..limits import memory_text

__all__ = ["SWEEP_FALL", "SWEEP_MAGIC", "SWEEP_MAGIC_WIDE", "BoardSweep", "sweep_front"]


class SweptSearch(Protocol):
    """What the sweep needs of the readable twin's
    :class:`~polyforms.tiling._tiling_py.TilingSearch` (which satisfies it): the
    region and the placements, and the steps of its search that the sweep
    takes one board at a time. Named here so that this module needs nothing
    of the search's module, which names the sweep with the rest of the kernel.
    """

    ncells: int
    cells: list
    masks: list[int]
    by_first: list
    neighbours: list | None
    memo_ok: bool
    size_gcd: int

    def _begin(self, prefix: Sequence[int]) -> tuple[int, list[int], list[int]]: ...
    def _fits(self, p: int, occupied: int, remaining: list[int]) -> bool: ...
    def _first_empty(self, occupied: int, start: int) -> int: ...
    def _area_ok(self, p: int, occupied: int) -> bool: ...


#: First word of a saved sweep: it also tells the byte order of the words after it.
SWEEP_MAGIC = 0x0102030405060708
#: A saved sweep whose ways take 128 bits (some board's or the count's pass 2**64 - 1).
SWEEP_MAGIC_WIDE = 0x0102030405060709
#: The most boards and moves a saved sweep may count (the compiled sweep's C fields).
MAX_COUNT = (1 << 63) - 1
#: The most boards a saved sweep's layer may claim: far past any memory, and small
#: enough that the compiled twin's sizing of its tables cannot overflow 64 bits.
MAX_LAYER_BOARDS = 1 << 48

#: The layers of a sweep rise over its first cells, keep about one size, and
#: shrink over its last cells, from about this many fronts before the end (a
#: front: the cells of a cross-section of the region across the fill order,
#: see :func:`sweep_front`), as the cube of the cells left over that: so in
#: boxes of the pentominoes and the tetrominoes (7x12, 8x10, 9x10, 10x10,
#: 2x4x10; BENCHMARKS.md). :attr:`BoardSweep.fraction` takes the layers to
#: come to be so.
SWEEP_FALL = 2.5


def sweep_front(ncells: int, neighbours: Sequence[Sequence[int]] | None) -> int:
    """The cells of a cross-section of the region across its fill order: the
    median, over the cells with a neighbour after them, of the step to the
    last such neighbour (``h`` for an ``h`` by ``w`` box filled column by
    column). 0 if the neighbours are not known."""
    if neighbours is None:
        return 0
    steps = sorted(
        max(near) - c for c, near in enumerate(neighbours[:ncells]) if near and max(near) > c
    )
    return steps[len(steps) // 2] if steps else 0


def _shrink(empty: int, now: int, tail: float) -> float:
    """How large the layer of ``empty`` empty cells is likely to be against the
    layer of ``now`` being swept (``empty < now``), the layers shrinking as the
    cube of the empty cells over the last ``tail`` (see :data:`SWEEP_FALL`)."""
    if empty >= tail:
        return 1.0
    return (empty / min(now, tail)) ** 3


class BoardSweep:
    """Count the tilings of a search whose pieces are all free, board by board.

    With free pieces the tilings that complete a board depend on the board
    alone, and the memoized :meth:`TilingSearch.count` is a dynamic programme
    over boards, searched depth first: it must keep every board it finishes,
    in case it comes again. The sweep runs the same programme forwards, in
    layers: the layer of ``f`` holds the boards with ``f`` cells filled, each
    with the number of ways to reach it. A board is expanded by the placements
    covering its first empty cell that fit and pass the area test (the same
    rules, so the same boards as the memoized count), adding its ways to each
    board it leads to. Those have more cells filled, so when the sweep comes
    to a layer, every way into it is known; the layer is then dropped. Only
    the layers up to the largest placement ahead are ever held (9x10 by the
    pentominoes with reuse: about 480 MB, against some 3 GB for the memo of
    the depth-first count). The count is the ways to reach the full board.

    :meth:`run` sweeps a given number of boards, so a long sweep can report
    progress, stop and go on; :meth:`save` writes what is left of it (the rest
    of its layer and the layers after, in a binary format both twins share)
    and :meth:`load` takes it up again. ``budget`` caps the memory (in bytes,
    as the compiled twin's tables would hold the boards: 16 bytes a word);
    past it :meth:`run` raises MemoryError. The compiled twin also sweeps a
    layer in several threads (its ``helpers``); this one runs in one.
    """

    def __init__(
        self, search: SweptSearch, prefix: Sequence[int] = (), budget: int | None = None
    ) -> None:
        if not search.memo_ok:
            raise TilingError("a sweep over boards needs free pieces only")
        self._s = search
        occupied, self._remaining, _ = search._begin(prefix)
        self.words = max(1, (search.ncells + 63) // 64)
        self.L = max((len(cells) for cells in search.cells), default=1) + 1
        self._budget = budget
        self._limit = None if budget is None else budget // (16 * (self.words + 1))
        self.filled = occupied.bit_count()
        self._layers: dict[int, dict[int, int]] = {}
        self._held = 0
        self._todo: Iterator[tuple[int, int]] | None = None
        self._layer_done = 0
        self._total = 0
        self._tail = SWEEP_FALL * sweep_front(search.ncells, search.neighbours)
        self.states = 0  # boards swept (each once) ...
        self.moves = 0  # ... and placements that fit and pass the area test
        self._add(self.filled, occupied, 1)

    def _add(self, g: int, board: int, ways: int) -> None:
        layer = self._layers.setdefault(g, {})
        known = layer.get(board)
        if known is None:
            self._held += 1
            if self._limit is not None and self._held > self._limit:
                raise MemoryError(
                    f"the sweep needs more than its {memory_text(self._budget or 0)} of memory"
                )
            layer[board] = ways
        else:
            layer[board] = known + ways

    def _next_layer(self) -> None:
        self._held -= len(self._layers.pop(self.filled, ()))
        self.filled += 1
        self._todo = None
        self._layer_done = 0

    def run(self, states: int = 1 << 16) -> bool:
        """Sweep up to ``states`` boards; return whether the sweep is done."""
        if states < 1:
            raise TilingError(f"states must be at least 1, not {states}")
        s = self._s
        n = s.ncells
        left = states
        while left > 0 and self.filled <= n:
            layer = self._layers.get(self.filled)
            if not layer:
                self._next_layer()
                continue
            if self._todo is None:
                self._todo = iter(layer.items())
            swept = 0
            for board, ways in itertools.islice(self._todo, left):
                swept += 1
                if self.filled == n:
                    self._total += ways
                    continue
                c = s._first_empty(board, 0)
                for p in s.by_first[c]:
                    if s._fits(p, board, self._remaining):
                        now = board | s.masks[p]
                        if s._area_ok(p, now):
                            self.moves += 1
                            self._add(self.filled + len(s.cells[p]), now, ways)
            self.states += swept
            self._layer_done += swept
            left -= swept
            if self._layer_done == len(layer):
                self._next_layer()
        return self.done

    @property
    def done(self) -> bool:
        return self.filled > self._s.ncells

    @property
    def size(self) -> int:
        """Bytes the compiled twin's tables would take for the boards held now."""
        return self._held * 16 * (self.words + 1)

    @property
    def count(self) -> int:
        """The number of tilings, once the sweep is done."""
        if not self.done:
            raise TilingError("the sweep is not done")
        return self._total

    @property
    def live(self) -> int:
        """Boards held now (the rest of the layer being swept and those after it)."""
        return 0 if self.done else self._held - self._layer_done

    @property
    def fraction(self) -> float:
        """An estimate of the share of the sweep done: the boards swept against
        those and an estimate of the boards left. Each layer to come is taken
        as large as the one being swept (on boxes the layers soon settle to
        about one size), shrunk over the last cells as :data:`SWEEP_FALL`
        says, or as large as it already is, if more. The layers still rising
        at the start are not foreseen: there it runs high (the ETA low)."""
        if self.done:
            return 1.0
        n, at = self._s.ncells, self.filled
        while at < min(n, self.filled + self.L - 1) and not self._layers.get(at):
            at += 1  # the layer just ended, or one no piece's size reaches: the next
        now = len(self._layers.get(at, ()))
        left = now - (self._layer_done if at == self.filled else 0)
        for g in range(at + 1, n + 1):
            if (g - at) % self._s.size_gcd == 0:
                ahead = len(self._layers.get(g, ())) if g - self.filled < self.L else 0
                left += max(now * _shrink(n - g, n - at, self._tail), ahead)
        return self.states / (self.states + left) if self.states + left else 0.0

    def save(self, out: BinaryIO) -> None:
        """Write what is left of the sweep to the binary file ``out``: words
        (native 64-bit) SWEEP_MAGIC, words per board, cells, layer being swept,
        tilings found, boards swept, moves, number of layers; then per layer
        its cells filled and number of boards, and per board its ways and its
        words, lowest first. If some ways (or the tilings found) pass 2**64 - 1:
        SWEEP_MAGIC_WIDE, the same head followed by the high word of the
        tilings found, and the high word of each board's ways after its words
        (the compiled twin's wide slots)."""
        rest: list[tuple[int, int]] = []
        if self._todo is not None:
            rest = list(self._todo)
            self._todo = iter(rest)
        layers = []
        for g in range(self.filled, min(self.filled + self.L, self._s.ncells + 1)):
            boards = self._layers.get(g)
            if boards:
                items = rest if g == self.filled and self._todo is not None else boards.items()
                if items:
                    layers.append((g, items))
        wide = bool(self._total >> 64) or any(
            ways >> 64 for _, items in layers for _, ways in items
        )
        if self._total >> 128 or any(ways >> 128 for _, items in layers for _, ways in items):
            raise TilingError("a sweep past 2**128 - 1 ways cannot be saved")
        mask = (1 << 64) - 1
        head = [SWEEP_MAGIC_WIDE if wide else SWEEP_MAGIC, self.words, self._s.ncells]
        head += [self.filled, self._total & mask, self.states, self.moves, len(layers)]
        if wide:
            head.append(self._total >> 64)
        out.write(array("Q", head).tobytes())
        for g, items in layers:
            out.write(array("Q", [g, len(items)]).tobytes())
            chunk = array("Q")
            for board, ways in items:
                chunk.append(ways & mask)
                chunk.extend((board >> (64 * i)) & mask for i in range(self.words))
                if wide:
                    chunk.append(ways >> 64)
            out.write(chunk.tobytes())

    def load(self, inp: BinaryIO) -> None:
        """Take up a sweep :meth:`save` wrote (of this search from the same prefix)."""
        head = _read_words(inp, 8)
        if (
            head[0] not in (SWEEP_MAGIC, SWEEP_MAGIC_WIDE)
            or head[1] != self.words
            or head[2] != self._s.ncells
        ):
            raise TilingError("not a saved sweep of this search")
        if head[3] > self._s.ncells + 1:  # ncells + 1: a finished sweep
            raise TilingError("a saved sweep's layer is out of place")
        if head[5] > MAX_COUNT or head[6] > MAX_COUNT:
            raise TilingError("a saved sweep's counts of boards and moves are out of range")
        wide = head[0] == SWEEP_MAGIC_WIDE
        self._layers = {}
        self._held = 0
        self._todo = None
        self._layer_done = 0
        self.filled, self._total, self.states, self.moves = head[3:7]
        if wide:
            self._total |= _read_words(inp, 1)[0] << 64
        stride = self.words + 1 + wide
        for _ in range(head[7]):
            g, count = _read_words(inp, 2)
            if not self.filled <= g < self.filled + self.L or g > self._s.ncells:
                raise TilingError("a saved sweep's layer is out of place")
            if g in self._layers:
                raise TilingError("a saved sweep holds a layer twice")
            left = _bytes_left(inp)
            if count > MAX_LAYER_BOARDS or (left is not None and count * stride * 8 > left):
                raise TilingError("a saved sweep ends early")  # before reading what it claims
            words = _read_words(inp, count * stride)
            for j in range(0, len(words), stride):
                ways = words[j] | (words[j + stride - 1] << 64 if wide else 0)
                if ways == 0:
                    raise TilingError("a saved sweep holds a board reached no way")
                end = j + 1 + self.words
                board = sum(w << (64 * i) for i, w in enumerate(words[j + 1 : end]))
                if board >> self._s.ncells or board.bit_count() != g:
                    # a forged one would send the sweep past its cells (a board
                    # filled in full before the last layer has no empty cell)
                    raise TilingError("a saved sweep holds a board not of its layer")
                self._add(g, board, ways)
        if inp.read(1):
            raise TilingError("a saved sweep has bytes past its end")


def _bytes_left(inp: BinaryIO) -> int | None:
    """Bytes from the position of ``inp`` to its end, or None when it cannot seek."""
    try:
        here = inp.tell()
        end = inp.seek(0, 2)
        inp.seek(here)
    except (AttributeError, OSError, ValueError):
        return None
    return end - here


def _read_words(inp: BinaryIO, count: int) -> array:
    data = inp.read(8 * count)
    if len(data) != 8 * count:
        raise TilingError("a saved sweep ends early")
    return array("Q", data)
