# One board's moves and tests for :class:`TilingSearch`: whether a placement fits,
# placing and lifting it, the first empty cell, and the area test that prunes a
# placement cutting off a region no piece combination fills (by flood fill; on a board
# of at most 64 cells it hands over to the bit-parallel test, ``_area_ok1``, which
# sits in the class with the shift form it reads).


cdef uint64_t _M1 = 0x5555555555555555
cdef uint64_t _M2 = 0x3333333333333333
cdef uint64_t _M4 = 0x0f0f0f0f0f0f0f0f
cdef uint64_t _H01 = 0x0101010101010101


cdef inline int _ones(uint64_t x) noexcept nogil:
    """The number of set bits (branch-free; the compiler's builtin is a library call
    on a baseline x86-64 build)."""
    x = x - ((x >> 1) & _M1)
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    return <int> ((x * _H01) >> 56)


cdef int _gcd(int a, int b) noexcept nogil:
    while b:
        a, b = b, a % b
    return a


cdef inline bint dead_size(TilingSearch self, int size) noexcept nogil:
    """True if no combination of the pieces fills an isolated area of ``size``
    cells (by the least piece size and the gcd of the sizes)."""
    return size < self.min_size or size % self.size_gcd != 0


cdef inline bint fits(TilingSearch self, int p) noexcept nogil:
    cdef int k, first = self.mask_first[p], off = self.mask_offset[p]
    if self.remaining[self.piece[p]] == 0 or self.excluded[p]:
        return False
    if self.mask_count[p] == 1:
        return (self.mask_words[off] & self.occ[first]) == 0
    for k in range(self.mask_count[p]):
        if self.mask_words[off + k] & self.occ[first + k]:
            return False
    return True


cdef inline void place(TilingSearch self, int p) noexcept nogil:
    cdef int k, first = self.mask_first[p], off = self.mask_offset[p]
    for k in range(self.mask_count[p]):
        self.occ[first + k] |= self.mask_words[off + k]
    # used copies = limit - remaining (also for an unbounded piece, limit -1)
    if self.limits[self.piece[p]] - self.remaining[self.piece[p]] < self.minimum[self.piece[p]]:
        self.owed -= 1
    self.remaining[self.piece[p]] -= 1
    self.filled += self.cell_start[p + 1] - self.cell_start[p]


cdef inline void unplace(TilingSearch self, int p) noexcept nogil:
    cdef int k, first = self.mask_first[p], off = self.mask_offset[p]
    for k in range(self.mask_count[p]):
        self.occ[first + k] &= ~self.mask_words[off + k]
    self.remaining[self.piece[p]] += 1
    if self.limits[self.piece[p]] - self.remaining[self.piece[p]] < self.minimum[self.piece[p]]:
        self.owed += 1
    self.filled -= self.cell_start[p + 1] - self.cell_start[p]


cdef inline int first_empty(TilingSearch self, int start) noexcept nogil:
    cdef int w = start >> 6
    cdef uint64_t free_bits = ~self.occ[w] & (~(<uint64_t> 0) << (start & 63))
    while free_bits == 0:
        w += 1
        free_bits = ~self.occ[w]
    return (w << 6) + __builtin_ctzll(free_bits)


cdef inline bint isolated(TilingSearch self, int q) noexcept nogil:
    """True if empty cell ``q`` has no empty neighbour."""
    cdef int k, first = self.nbm_first[q], off = self.nbm_offset[q]
    for k in range(self.nbm_count[q]):
        if self.nbm_words[off + k] & ~self.occ[first + k]:
            return False
    return True


cdef bint area_ok(TilingSearch self, int p) noexcept nogil:
    """False if placement ``p`` (already placed) isolates an unfillable area.

    Only the cells bordering ``p`` can have become cut off. An empty border
    cell with no empty neighbour is tested by its neighbour mask alone;
    otherwise its area is flood-filled in ``work`` up to ``flood_cap`` cells.
    A fill that reaches the cap stops (the area is then left alone) and its
    marks are dropped, so that a later start in the same area measures it
    again rather than seeing a fragment; a completed fill is kept in
    ``seen`` so an area is measured once.
    """
    cdef int i, k, w, start, cell, nxt, top, size
    cdef bint copied = False
    if not self.has_neighbours:
        return True
    if self.ndir:
        return self._area_ok1(self.bd64[p], self.occ[0])
    for i in range(self.bd_start[p], self.bd_start[p + 1]):
        start = self.bd_items[i]
        if self.occ[start >> 6] >> (start & 63) & 1:
            continue
        if self._isolated(start):
            if self.single_dead:
                return False
            continue
        if self.flood_cap <= 1:
            continue
        if not copied:
            for w in range(self.W):
                self.seen[w] = self.occ[w]
            copied = True
        elif self.seen[start >> 6] >> (start & 63) & 1:
            continue
        for w in range(self.W):
            self.work[w] = self.seen[w]
        self.work[start >> 6] |= (<uint64_t> 1) << (start & 63)
        self.flood[0] = start
        top = 1
        size = 0
        while top and size < self.flood_cap:
            top -= 1
            cell = self.flood[top]
            size += 1
            for k in range(self.nb_start[cell], self.nb_start[cell + 1]):
                nxt = self.nb_items[k]
                if not (self.work[nxt >> 6] >> (nxt & 63) & 1):
                    self.work[nxt >> 6] |= (<uint64_t> 1) << (nxt & 63)
                    self.flood[top] = nxt
                    top += 1
        if top:
            continue  # at least flood_cap cells: left alone
        if self._dead_size(size):
            return False
        for w in range(self.W):
            self.seen[w] = self.work[w]
    return True


cdef inline bint past_deadline(TilingSearch self, int c) noexcept nogil:
    """Whether a piece still owed has no placement starting at or after cell ``c``
    (branching on the first empty cell ``c``). Pieces are scanned by deadline,
    so the scan usually stops at the first one."""
    cdef int i, k
    for i in range(self.ndeadline):
        k = self.by_deadline[i]
        if self.last_start[k] >= c:
            return False
        if self.limits[k] - self.remaining[k] < self.minimum[k]:
            return True
    return False
