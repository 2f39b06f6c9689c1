# How :class:`TilingSearch` sets up a node's candidates (:func:`choose`): the first
# empty cell's list (``strategy="first"``), or the cell or piece with the fewest fitting
# placements (``strategy="mrv"``), whose counts each stack level keeps from its
# parent's, as a list (:func:`filter_alive`) or, on a one-word board, as a bitset
# (:func:`filter_sets`).


cdef bint grow_alive(TilingSearch self, long long need) noexcept nogil:
    """Make room for ``need`` entries in ``alive``; False if out of memory."""
    cdef int *grown
    if need <= self.alive_cap:
        return True
    grown = <int *> realloc(self.alive, 2 * need * sizeof(int))
    if grown == NULL:
        self.alive_oom = True
        return False
    self.alive = grown
    self.alive_cap = 2 * need
    return True


cdef bint filter_alive(TilingSearch self, int d) noexcept nogil:
    """Keep at level ``d`` the placements of the parent's list that still fit and
    count them per cell and per piece; False if out of memory (search stops)."""
    cdef long long off, src = 0
    cdef int n_src, i, p, k, kept = 0, n = self.n
    cdef int *cells
    cdef int *pieces
    if d == self.base:
        off = 0
        n_src = self.P
    else:
        src = self.alive_off[d - 1]
        n_src = self.alive_len[d - 1]
        off = self.alive_end[d - 1]
    if self.setw:
        self._filter_sets(d)
        self.alive_off[d] = off
        self.alive_len[d] = 0
        self.alive_end[d] = off
        return True
    if not self._grow_alive(off + n_src):
        return False
    cells = self.cell_fits
    pieces = self.piece_fits
    for i in range(n):
        cells[i] = 0
    for i in range(self.npieces):
        pieces[i] = 0
    for i in range(n_src):
        p = i if d == self.base else self.alive[src + i]
        if not self._fits(p):
            continue
        self.alive[off + kept] = p
        kept += 1
        pieces[self.piece[p]] += 1
        for k in range(self.cell_start[p], self.cell_start[p + 1]):
            cells[self.cell_items[k]] += 1
    self.fits_now = cells
    self.piece_fits_now = pieces
    self.alive_off[d] = off
    self.alive_len[d] = kept
    self.alive_end[d] = off + kept
    return True


cdef void filter_sets(TilingSearch self, int d) noexcept nogil:
    """:meth:`_filter_alive` on the bitset form: level ``d``'s alive set and
    cell counts from its parent's, less the placements its last placement
    killed. Piece counts are not kept: :meth:`_piece_fits` counts the bits."""
    cdef int words = self.setw, w, k, p, q, pc
    cdef uint64_t *alive = self.level_alive + d * words
    cdef uint64_t *parent
    cdef uint64_t *row
    cdef uint64_t kill, gone
    cdef unsigned short *cells = self.level_fits + d * 64
    cdef unsigned char *small = self.level_fits8 + d * 64
    cdef unsigned short most = 0
    if d == self.base:
        for w in range(words):
            alive[w] = 0
        for k in range(64):
            cells[k] = 0
        for p in range(self.P):
            if not self._fits(p):
                continue
            alive[p >> 6] |= (<uint64_t> 1) << (p & 63)
            for k in range(self.cell_start[p], self.cell_start[p + 1]):
                cells[self.cell_items[k]] += 1
    else:
        q = self.st_placed[d - 1]
        pc = self.piece[q]
        # the killed set, gathered in this level's own words first
        if self.remaining[pc] == 0:
            memcpy(alive, self.piece_bits + pc * words, words * sizeof(uint64_t))
        else:
            for w in range(words):
                alive[w] = 0
        for k in range(self.cell_start[q], self.cell_start[q + 1]):
            row = self.cover_bits + self.cell_items[k] * words
            for w in range(words):
                alive[w] |= row[w]
        if self.level_small[d - 1]:
            pf_kill8(small, small - 64, self.cell_rows, alive - words, alive, words)
            self.level_small[d] = 1
            return
        memcpy(cells, cells - 64, 64 * sizeof(unsigned short))
        parent = alive - words
        for w in range(words):
            kill = alive[w]
            gone = parent[w] & kill
            alive[w] = parent[w] & ~kill
            while gone:
                p = (w << 6) + __builtin_ctzll(gone)
                gone &= gone - 1
                for k in range(self.cell_start[p], self.cell_start[p + 1]):
                    cells[self.cell_items[k]] -= 1
    for k in range(64):
        most |= cells[k]
    self.level_small[d] = most < 256
    if most < 256:
        for k in range(64):
            small[k] = <unsigned char> cells[k]


cdef int piece_fits(TilingSearch self, int d, int i, int enough) noexcept nogil:
    """How many placements of piece ``i`` fit at level ``d`` (bitset form),
    or some number at least ``enough`` once that many are found."""
    cdef uint64_t *alive = self.level_alive + d * self.setw
    cdef int lo = self.piece_lo[i], hi = self.piece_hi[i], w, last
    cdef int count = 0
    cdef uint64_t bits
    if lo >= hi:
        return 0
    last = (hi - 1) >> 6
    for w in range(lo >> 6, last + 1):
        bits = alive[w]
        if w == lo >> 6:
            bits &= ~(<uint64_t> 0) << (lo & 63)
        if w == last and hi & 63:
            bits &= ~(~(<uint64_t> 0) << (hi & 63))
        count += _ones(bits)
        if count >= enough:
            break
    return count


cdef void take_sets(TilingSearch self, int d, int best_cell, int best_kind) noexcept nogil:
    """:meth:`_take_candidates` on the bitset form: the alive set and the chosen
    cell's (or piece's) set, listed in placement order."""
    cdef int words = self.setw, w, taken = 0
    cdef uint64_t *alive = self.level_alive + d * words
    cdef uint64_t *chosen
    cdef uint64_t both
    cdef long long out = self.alive_end[d]
    if best_kind == 1:
        chosen = self.cover_bits + best_cell * words
    else:
        chosen = self.piece_bits + (-1 - best_cell) * words
    if not self._grow_alive(out + self.st_len[d]):
        self.st_len[d] = 0
        return
    for w in range(words):
        both = alive[w] & chosen[w]
        while both:
            self.alive[out + taken] = (w << 6) + __builtin_ctzll(both)
            both &= both - 1
            taken += 1
    self.st_kind[d] = 3
    self.st_items_off[d] = <int> out
    self.st_len[d] = taken
    self.alive_end[d] = out + taken


cdef inline bint covers(TilingSearch self, int p, int c) noexcept nogil:
    cdef int w = (c >> 6) - self.mask_first[p]
    if w < 0 or w >= self.mask_count[p]:
        return False
    return (self.mask_words[self.mask_offset[p] + w] >> (c & 63)) & 1


cdef void take_candidates(TilingSearch self, int d, int best_cell, int best_kind) noexcept nogil:
    """Make the fitting placements of the chosen cell (or piece) the candidate
    list of level ``d``: taken from its alive list, which holds them in the
    order of the cover (piece) lists when placements come piece by piece."""
    cdef long long start = self.alive_off[d], out = self.alive_end[d]
    cdef int i, p, taken = 0, wanted = -1 - best_cell
    if not self._grow_alive(out + self.alive_len[d]):
        self.st_len[d] = 0
        return
    for i in range(self.alive_len[d]):
        p = self.alive[start + i]
        if best_kind == 1:
            if not self._covers(p, best_cell):
                continue
        elif self.piece[p] != wanted:
            continue
        self.alive[out + taken] = p
        taken += 1
    self.st_kind[d] = 3
    self.st_items_off[d] = <int> out
    self.st_len[d] = taken
    self.alive_end[d] = out + taken


cdef void choose(TilingSearch self, int d, int hint) noexcept nogil:
    """Set up the candidate list of the node at stack level ``d``."""
    cdef int c, i, j, k, w, best, count, best_cell, best_kind, best_off, best_len
    cdef uint64_t free_bits
    cdef unsigned char *small = NULL
    cdef unsigned short *wide = NULL
    self.st_pos[d] = 0
    if self.strategy == 0:
        c = self._first_empty(hint)
        self.st_cell[d] = c
        self.st_kind[d] = 0
        self.st_items_off[d] = self.first_start[c]
        self.st_len[d] = self.first_start[c + 1] - self.first_start[c]
        if self._past_deadline(c):
            self.st_len[d] = 0
        return
    if not self._filter_alive(d):
        self.st_cell[d] = 0
        self.st_kind[d] = 1
        self.st_items_off[d] = 0
        self.st_len[d] = 0
        return
    if self.setw:
        if self.level_small[d]:
            small = self.level_fits8 + d * 64
        else:
            wide = self.level_fits + d * 64
    best = 0x7fffffff
    best_cell = 0
    best_kind = 1
    best_off = 0
    best_len = 0
    # Same choice as counting the fitting placements of each cover list (capped
    # at the best so far) and of each piece owed once: the counts are exact here.
    for w in range(self.W):
        free_bits = ~self.occ[w]
        while free_bits:
            c = (w << 6) + __builtin_ctzll(free_bits)
            free_bits &= free_bits - 1
            if c >= self.n:
                break
            if not self.setw:
                count = self.fits_now[c]
            elif small:
                count = small[c]
            else:
                count = wide[c]
            if count < best:
                best, best_cell = count, c
                best_off = self.cover_start[c]
                best_len = self.cover_start[c + 1] - best_off
                if count == 0:
                    break
        if best == 0:
            break
    if best:
        for i in range(self.npieces):
            # Branching on a piece splits the tilings only when exactly one more
            # copy of it is used in each of them.
            if self.remaining[i] == 1 and self.minimum[i] == self.limits[i]:
                if self.setw:
                    count = self._piece_fits(d, i, best)
                else:
                    count = self.piece_fits_now[i]
                if count < best:
                    best, best_cell, best_kind = count, -1 - i, 2
                    best_off = self.piece_start[i]
                    best_len = self.piece_start[i + 1] - best_off
                    if count == 0:
                        break
    self.st_cell[d] = best_cell
    self.st_kind[d] = best_kind
    self.st_items_off[d] = best_off
    self.st_len[d] = best_len
    if best == 0:
        self.st_len[d] = 0  # the counts are exact: nothing fits
    elif self.setw:
        self.st_len[d] = best
        self._take_sets(d, best_cell, best_kind)
    elif self.piece_sorted:
        self._take_candidates(d, best_cell, best_kind)
