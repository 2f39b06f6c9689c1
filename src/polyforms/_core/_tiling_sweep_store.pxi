# Growing, widening, saving and loading the tables of :class:`BoardSweep` (with the GIL:
# a table of gigabytes doubles a slice at a time, looking at signals; a saved sweep from
# outside is checked before it sizes a table).


cdef int _sweep_make_room(BoardSweep self) except -1:
    """Make or grow each table the phase's children could take past half full."""
    cdef int i, t
    cdef long long coming
    for i in range(self.L * self.T):
        coming = 0
        for t in range(self.T):
            coming += self.lanes[t].pend[i]
        if coming == 0:
            continue
        if self.tab[i] == NULL:
            _sweep_presize(self, i, coming)
        while 2 * (self.used[i] + coming) > ((<long long> 1) << self.bits[i]):
            _sweep_grow(self, i)
    return 0


cdef int _sweep_grow(BoardSweep self, int i) except -1:
    """Double table ``i``, a slice of slots at a time with the GIL, looking
    at signals in between (a raising handler leaves the old table in
    place). Past the budget: MemoryError."""
    cdef int w
    cdef uint64_t *old = self.tab[i]
    cdef uint64_t *e
    cdef uint64_t *f
    cdef long long slots = (<long long> 1) << self.bits[i], s, start, end
    cdef size_t old_bytes = self._bytes(self.bits[i])
    cdef uint64_t *grown
    _sweep_within_budget(self, 2 * old_bytes)
    grown = _table(2 * old_bytes)
    if grown == NULL:
        raise MemoryError("no memory to grow the sweep")
    self.tab[i] = grown
    self.bits[i] += 1
    try:
        start = 0
        while start < slots:
            end = min(slots, start + GROW_SLICE)
            with nogil:
                for s in range(start, end):
                    e = old + s * self.stride
                    if not self._empty(e):
                        f = self._find(i, e + 1, _board_hash(e + 1, self.W))
                        for w in range(self.stride):
                            f[w] = e[w]
            start = end
            if start < slots:
                PyErr_CheckSignals()
    except BaseException:
        free(grown)
        self.tab[i] = old
        self.bits[i] -= 1
        raise
    free(old)
    self.size += old_bytes
    self.peak = max(self.peak, self.size + old_bytes)
    if self.grow_due == i:
        self.grow_due = -1
    return 0


cdef int _sweep_widen(BoardSweep self) except -1:
    """Give every slot a word more, the high word of its ways (0): from now
    on the ways are 128-bit. Each table is first made larger in place
    (``realloc``: a failure leaves the tables as they were, larger), then
    its slots are spread out from the last one down. Between phases only
    (the lanes' buffers are empty). MemoryError past the budget."""
    cdef int i, w, old = self.stride
    cdef long long slots, k
    cdef size_t more = 0
    cdef uint64_t *grown
    cdef uint64_t *e
    cdef uint64_t *f
    for i in range(self.L * self.T):
        if self.tab[i] != NULL:
            more += ((<size_t> 1) << self.bits[i]) * sizeof(uint64_t)
    _sweep_within_budget(self, more)
    for i in range(self.L * self.T):
        if self.tab[i] != NULL:
            grown = <uint64_t *> realloc(
                self.tab[i], ((<size_t> 1) << self.bits[i]) * (old + 1) * sizeof(uint64_t))
            if grown == NULL:
                raise MemoryError("no memory to widen the sweep's counts")
            self.tab[i] = grown
    with nogil:
        for i in range(self.L * self.T):
            if self.tab[i] == NULL:
                continue
            slots = (<long long> 1) << self.bits[i]
            for k in range(slots - 1, -1, -1):  # slot k moves up to k * (old + 1)
                e = self.tab[i] + k * old
                f = self.tab[i] + k * (old + 1)
                f[old] = 0
                for w in range(old - 1, -1, -1):
                    f[w] = e[w]
    _sweep_wider(self)
    self.size += more
    self.peak = max(self.peak, self.size)
    return 0


cdef void _sweep_wider(BoardSweep self) noexcept:
    """A word more for each slot and each child's record, the high word of its
    ways (the tables already laid out so, or none); the lanes' buffers, empty,
    hold fewer records in the same bytes."""
    cdef int t, u
    for t in range(self.T):
        for u in range(self.T):
            self.lanes[t].out_cap[u] = self.lanes[t].out_cap[u] * self.rec // (self.rec + 1)
    self.stride += 1
    self.rec += 1
    self.wide = True


cdef int _sweep_presize(BoardSweep self, int i, long long boards) except -1:
    """Give table ``i``, not made yet, room for ``boards`` at most half full."""
    cdef int bits = self.first_bits
    while ((<long long> 1) << bits) < 2 * boards:
        bits += 1
    _sweep_within_budget(self, self._bytes(bits))
    self.tab[i] = _table(self._bytes(bits))
    if self.tab[i] == NULL:
        raise MemoryError("no memory for the sweep")
    self.bits[i] = bits
    self.used[i] = 0
    self.size += self._bytes(bits)
    self.peak = max(self.peak, self.size)
    return 0


cdef int _sweep_within_budget(BoardSweep self, size_t more) except -1:
    """MemoryError if ``more`` bytes of tables would pass the budget."""
    if self.size + more > self.budget:
        raise MemoryError(
            f"the sweep needs more than its {memory_text(self.budget)} of memory")
    return 0


cdef int _sweep_save(BoardSweep self, out) except -1:
    """Write what is left of the sweep to the binary file ``out`` (format: the twin's)."""
    cdef int g, i, t, w
    cdef long long s, slots, k
    cdef uint64_t *e
    layers = []
    for g in range(self.filled, min(self.filled + self.L, self.n + 1)):
        left = self._layer_used(g) - (self.layer_done if g == self.filled else 0)
        if left:
            layers.append((g, left))
    wide = self.wide or self.total_hi != 0  # a narrow sweep's count can pass 2**64 - 1
    head = array.array("Q", [SWEEP_MAGIC_WIDE if wide else SWEEP_MAGIC, self.W,
                             self.n, self.filled, self.total, self.states, self.moves,
                             len(layers)])
    if wide:
        head.append(self.total_hi)
    out.write(head.tobytes())
    chunk = array.array("Q")
    for g, left in layers:
        out.write(array.array("Q", [g, left]).tobytes())
        k = 0
        for t in range(self.T):
            i = (g % self.L) * self.T + t
            if self.tab[i] == NULL:
                continue
            slots = (<long long> 1) << self.bits[i]
            for s in range(self.lanes[t].pos if g == self.filled else 0, slots):
                e = self.tab[i] + s * self.stride
                if not self._empty(e):
                    for w in range(self.stride):
                        chunk.append(e[w])
                    if wide and not self.wide:
                        chunk.append(0)
                    k += 1
                    if len(chunk) >= 1 << 17:
                        out.write(chunk.tobytes())
                        del chunk[:]
        out.write(chunk.tobytes())
        del chunk[:]
        if k != left:
            raise TilingError(f"internal error: {k} boards in layer {g}, not {left}")
    return 0


cdef int _sweep_load(BoardSweep self, inp) except -1:
    """Take up a sweep :meth:`save` wrote (of this search from the same prefix);
    a wide save widens this sweep."""
    cdef int i, t, w, fs
    cdef long long k, m, j, count, part, at
    cdef uint64_t *e
    cdef uint64_t lo, hi
    cdef bint dense, wide
    cdef unsigned long long[:] view
    head = _read_words(inp, 8)
    if (head[0] not in (SWEEP_MAGIC, SWEEP_MAGIC_WIDE) or head[1] != self.W
            or head[2] != self.n):
        raise TilingError("not a saved sweep of this search")
    _check_sweep_head(head, self.n)
    wide = head[0] == SWEEP_MAGIC_WIDE
    fs = self.W + 1 + wide  # words a board takes in the file
    for i in range(self.L * self.T):
        free(self.tab[i])
        self.tab[i] = NULL
        self.used[i] = 0
    self._clear_phase(False)
    for t in range(self.T):
        self.lanes[t].pos = 0
    if wide and not self.wide:
        _sweep_wider(self)  # no tables now
    self.size = 0
    self.grow_due = -1
    self.big = False
    self.filled = head[3]
    self.layer_done = 0
    self.total = head[4]
    self.total_hi = _read_words(inp, 1)[0] if wide else 0
    self.states = head[5]
    self.moves = head[6]
    for _ in range(head[7]):
        g, claimed = _read_words(inp, 2)  # Python ints: checked before a C field
        if not self.filled <= g < self.filled + self.L or g > self.n:
            raise TilingError("a saved sweep's layer is out of place")
        if self.tab[(g % self.L) * self.T] != NULL:
            raise TilingError("a saved sweep holds a layer twice")
        _check_layer_size(inp, claimed, fs)
        count = claimed
        # The layer being swept is only read, never looked up: its boards
        # go one after the other, shard t taking the t-th of T runs. Into
        # the tables of the layers ahead they go by hash, and a table too
        # small for them would pile them up in one run of linear probing
        # (9x10 half done: 2.4 M boards, 330 s), so each shard is made big
        # enough for its share at once, with some to spare.
        dense = g == self.filled
        for t in range(self.T):
            part = count * (t + 1) // self.T - count * t // self.T
            _sweep_presize(self, (g % self.L) * self.T + t,
                          (part + 1) // 2 if dense else part + part // 16 + 64)
        k = 0
        t = 0
        while k < count:
            m = min(count - k, 1 << 16)
            view = _read_words(inp, m * fs)
            for j in range(m):
                lo = view[j * fs]
                hi = view[j * fs + self.W + 1] if wide else 0
                if lo == 0 and hi == 0:
                    raise TilingError("a saved sweep holds a board reached no way")
                if not self._of_layer(&view[j * fs + 1], g):
                    raise TilingError("a saved sweep holds a board not of its layer")
                if dense:
                    at = k + j
                    while at >= count * (t + 1) // self.T:
                        t += 1
                    i = (g % self.L) * self.T + t
                    e = self.tab[i] + (at - count * t // self.T) * self.stride
                    for w in range(self.W + 1):
                        e[w] = view[j * fs + w]
                    if self.wide:
                        e[self.W + 1] = hi
                    self.used[i] += 1
                    self.big |= not self.wide and lo >> WIDEN_BITS != 0
                    continue
                self._add(g, <const uint64_t *> &view[j * fs + 1], lo, hi)
                if self.overflow:
                    raise TilingError("a saved sweep holds a board twice, past what "
                                      "its ways can count")
                if self.grow_due >= 0:
                    _sweep_grow(self, self.grow_due)
            k += m
    if inp.read(1):
        raise TilingError("a saved sweep has bytes past its end")
    if self.big and not self.wide:
        _sweep_widen(self)  # a board of the twin's save near 2**64: room to add to it
    return 0


def _check_sweep_head(head, n):
    """Refuse a header whose numbers no sweep of ``n`` cells writes (before any is
    stored in a C field, where a forged one would overflow)."""
    if head[3] > n + 1:  # n + 1: a finished sweep
        raise TilingError("a saved sweep's layer is out of place")
    if head[5] > MAX_COUNT or head[6] > MAX_COUNT:
        raise TilingError("a saved sweep's counts of boards and moves are out of range")


def _check_layer_size(inp, count, words_a_board):
    """Refuse a layer that claims more boards than the file holds, before its tables
    are sized from that claim (a forged count would overflow their size)."""
    left = _bytes_left(inp)
    if count > MAX_LAYER_BOARDS or (left is not None and count * words_a_board * 8 > left):
        raise TilingError("a saved sweep ends early")


def _bytes_left(inp):
    """Bytes from the position of ``inp`` to its end, or None when it cannot seek."""
    try:
        here = inp.tell()
        end = inp.seek(0, 2)
        inp.seek(here)
    except (AttributeError, OSError, ValueError):
        return None
    return end - here


def _read_words(inp, long long count):
    data = inp.read(8 * count)
    if len(data) != 8 * count:
        raise TilingError("a saved sweep ends early")
    return array.array("Q", data)
