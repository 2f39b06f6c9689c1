# One board's moves and tests for :class:`TilingSearch`: whether a placement fits,
# placing and lifting it, the first empty cell, and the area test that prunes a
# placement cutting off a region no piece combination fills (by flood fill on any board,
# bit-parallel on one of at most 64 cells).


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


cdef inline uint64_t next_to(TilingSearch self, uint64_t x) noexcept nogil:
    """The cells adjacent to some cell of ``x`` (one-word boards). Offsets come in
    pairs (+d, -d); up to four pairs, unrolled, with empty masks as padding."""
    cdef uint64_t out
    cdef int k
    if self.two_pairs:
        return (((x & self.down_src[0]) >> self.down_by[0])
                | ((x & self.down_src[1]) >> self.down_by[1])
                | ((x & self.up_src[0]) << self.up_by[0])
                | ((x & self.up_src[1]) << self.up_by[1]))
    if self.unrolled:
        return (((x & self.down_src[0]) >> self.down_by[0])
                | ((x & self.down_src[1]) >> self.down_by[1])
                | ((x & self.down_src[2]) >> self.down_by[2])
                | ((x & self.down_src[3]) >> self.down_by[3])
                | ((x & self.up_src[0]) << self.up_by[0])
                | ((x & self.up_src[1]) << self.up_by[1])
                | ((x & self.up_src[2]) << self.up_by[2])
                | ((x & self.up_src[3]) << self.up_by[3]))
    out = 0
    for k in range(self.ndir):
        if self.dir_shift[k] > 0:
            out |= (x & self.dir_src[k]) << self.dir_shift[k]
        else:
            out |= (x & self.dir_src[k]) >> (-self.dir_shift[k])
    return out


cdef inline bint area_ok1(TilingSearch self, uint64_t touching, uint64_t occ) noexcept nogil:
    """:meth:`_area_ok` on a one-word board ``occ``, bit-parallel; ``touching``
    holds the cells bordering the placement just made.

    The same decisions: an empty border cell with no empty neighbour is
    dead when single cells are; with ``flood_cap`` 2, an isolated pair
    when pairs are, with ``flood_cap`` 3 a three-cell area when those are
    (both by :meth:`_no_small_area`); with ``flood_cap`` above 2, every other
    empty area touching ``p`` is grown a ring at a time, and measured when
    it has at most ``flood_cap`` cells (it is left alone once it holds more).
    """
    cdef uint64_t empty = self.full64 & ~occ
    cdef uint64_t border = touching & empty
    cdef uint64_t lonely, area, grown, done
    cdef int size
    cdef bint big
    if border == 0:
        return True
    if self.small_areas and (self.flood_cap == 2 or self.flood_cap == 3 and self.bipartite):
        return self._no_small_area(border, empty)
    lonely = border & ~self._next_to(empty)
    if lonely and self.single_dead:
        return False
    if self.flood_cap <= 1:
        return True
    border &= ~lonely
    done = 0
    while border:
        area = border & (~border + 1)
        big = False
        while True:
            grown = (area | self._next_to(area)) & empty
            if grown == area:
                break
            area = grown
            if _ones(area) > self.flood_cap:
                big = True  # more than flood_cap cells: left alone
                break
        done |= area
        border &= ~done
        if big:
            continue
        size = _ones(area)
        if self._dead_size(size):
            return False
    return True


cdef inline (uint64_t, uint64_t, uint64_t) degrees(TilingSearch self, uint64_t empty, int pairs) noexcept nogil:
    """(some, more, most) of :meth:`_no_small_area` from the unrolled shift form's
    first ``pairs`` pairs (a constant at each call, so the loop unrolls)."""
    cdef uint64_t t, some = 0, more = 0, most = 0
    cdef int k
    for k in range(pairs):
        t = (empty & self.down_src[k]) >> self.down_by[k]
        most |= more & t
        more |= some & t
        some |= t
        t = (empty & self.up_src[k]) << self.up_by[k]
        most |= more & t
        more |= some & t
        some |= t
    return some, more, most


cdef inline bint no_small_area(TilingSearch self, uint64_t border, uint64_t empty) noexcept nogil:
    """:meth:`_area_ok1` with ``flood_cap`` 2 or 3 without a flood: False if a
    cell of ``border`` lies in an empty area of at most ``flood_cap`` cells
    whose size no combination of pieces fills.

    ``some``, ``more`` and ``most`` hold the cells with at least one, two
    and three empty neighbours (the neighbour masks of ``empty`` added up a
    direction at a time). A cell with exactly one is in a two-cell area
    when that neighbour has exactly one too; a cell with exactly two, both
    of which have exactly one, is the middle of a three-cell area (a path:
    the grid has no triangles, ``bipartite``).
    """
    cdef uint64_t t, some = 0, more = 0, most = 0, one, mid
    cdef int k
    if self.two_pairs:  # a plane: a constant bound the compiler unrolls
        some, more, most = self._degrees(empty, 2)
    elif self.unrolled:
        some, more, most = self._degrees(empty, 4)
    else:
        for k in range(self.ndir):
            if self.dir_shift[k] > 0:
                t = (empty & self.dir_src[k]) << self.dir_shift[k]
            else:
                t = (empty & self.dir_src[k]) >> (-self.dir_shift[k])
            most |= more & t
            more |= some & t
            some |= t
    if self.single_dead and border & ~some:
        return False
    one = empty & some & ~more
    if self.pair_dead and one & self._next_to(one) & border:
        return False
    if self.flood_cap < 3 or not self.triple_dead:
        return True
    mid = empty & more & ~most & ~self._next_to(empty & ~one)
    return mid == 0 or ((mid | (one & self._next_to(mid))) & border) == 0


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
