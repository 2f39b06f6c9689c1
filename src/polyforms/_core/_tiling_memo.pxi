# The memo of :class:`TilingSearch` (counts whose pieces are all free): an open-
# addressing table of boards and the tilings below each, and the hash tables' helpers it
# shares with :class:`BoardSweep`.


cdef uint64_t *_table(size_t bytes) noexcept nogil:
    """A zeroed hash table of ``bytes`` (NULL if out of memory); from
    :data:`HUGE_FROM` bytes it asks for huge pages."""
    cdef uint64_t *table = <uint64_t *> calloc(bytes, 1)
    if table != NULL and bytes >= HUGE_FROM:
        pf_advise_huge(table, bytes)
    return table


cdef inline uint64_t _board_hash(const uint64_t *occ, int W) noexcept nogil:
    """A multiplicative hash of a board; the memo takes its top bits."""
    cdef uint64_t h = 0
    cdef int i
    for i in range(W):
        h = (h ^ occ[i]) * _MIX
    return h


cdef inline bint _same_board(const uint64_t *a, const uint64_t *b, int W) noexcept nogil:
    """Whether the boards of ``W`` words at ``a`` and ``b`` are one (the probes
    of the memo and of the sweep's tables)."""
    cdef int i
    for i in range(W):
        if a[i] != b[i]:
            return False
    return True


cdef uint64_t *memo_find(TilingSearch self, const uint64_t *occ) noexcept nogil:
    """The slot holding board ``occ`` (of this generation), or the empty slot
    where it would go."""
    cdef int W = self.W, stride = self.W + 2
    cdef uint64_t mask = ((<uint64_t> 1) << self.memo_bits) - 1
    cdef uint64_t slot = _board_hash(occ, W) >> (64 - self.memo_bits)
    cdef uint64_t *e
    while True:
        e = self.memo_table + slot * stride
        if e[0] != self.memo_gen or _same_board(e + 2, occ, W):
            return e
        slot = (slot + 1) & mask


cdef int _memo_grow(TilingSearch self) except -1:
    """Double the table, keeping its boards. With the GIL, a slice of slots
    at a time, looking at signals in between: doubling a table of
    gigabytes takes seconds, and Ctrl-C must not wait for it (if a signal
    handler raises, the new table is dropped and the old one kept). Out of
    memory, the memo starts over in the table there is."""
    cdef int stride = self.W + 2, i
    cdef uint64_t *old = self.memo_table
    cdef uint64_t *e
    cdef uint64_t *f
    cdef long long slots = (<long long> 1) << self.memo_bits, s, start, end
    cdef uint64_t *grown = _table(<size_t> (2 * slots * stride) * sizeof(uint64_t))
    self.memo_grow_due = 0
    if grown == NULL:
        self.memo_gen += 1
        self.memo_live = 0
        return 0
    self.memo_table = grown
    self.memo_bits += 1
    try:
        start = 0
        while start < slots:
            end = min(slots, start + GROW_SLICE)
            with nogil:
                for s in range(start, end):
                    e = old + s * stride
                    if e[0] == self.memo_gen:
                        f = self._memo_find(e + 2)
                        for i in range(stride):
                            f[i] = e[i]
            start = end
            if start < slots:
                PyErr_CheckSignals()
    except BaseException:
        free(grown)
        self.memo_table = old
        self.memo_bits -= 1
        self.memo_grow_due = 1
        raise
    free(old)
    return 0


cdef void memo_store(TilingSearch self, const uint64_t *occ, long long count) noexcept nogil:
    """Remember ``count`` tilings below board ``occ``. Past ``memo_entries``
    boards the memo starts over (as the twin's)."""
    cdef uint64_t *e
    cdef int i
    cdef long long slots = (<long long> 1) << self.memo_bits
    if self.memo_live >= self.memo_entries:
        self.memo_gen += 1
        self.memo_live = 0
    elif 2 * (self.memo_live + 1) > slots:
        # The search stops at its next node for ``count`` to double the
        # table; up to there (a few boards) it fills past half, never past
        # three quarters: past that a board is just not kept.
        self.memo_grow_due = 1
        if 4 * (self.memo_live + 1) > 3 * slots:
            return
    e = self._memo_find(occ)
    if e[0] != self.memo_gen:
        self.memo_live += 1
    e[0] = self.memo_gen
    e[1] = <uint64_t> count
    for i in range(self.W):
        e[2 + i] = occ[i]


cdef inline long long memo_count(TilingSearch self, const uint64_t *occ) noexcept nogil:
    """The tilings below board ``occ`` if the memo has them, else -1."""
    cdef uint64_t *e = self._memo_find(occ)
    if e[0] != self.memo_gen:
        return -1
    return <long long> e[1]


cdef int _memo_prepare(TilingSearch self) except -1:
    """Give a count that memoizes its table (first count: ``2**MEMO_FIRST_BITS`` slots)."""
    if self.memo_table != NULL or not (self.memo and self.memo_ok):
        return 0
    self.memo_table = _table(((<size_t> 1) << MEMO_FIRST_BITS) * (self.W + 2) * sizeof(uint64_t))
    if self.memo_table == NULL:
        raise MemoryError("no memory for the memo of the search")
    self.memo_bits = MEMO_FIRST_BITS
    self.memo_live = 0
    return 0
