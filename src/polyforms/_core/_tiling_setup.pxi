# Building the structures of :class:`TilingSearch` from its problem (the lists, masks,
# borders and shift form described on the class), and starting a search: emptying the
# board and forcing the initial placements.


cdef int _build(TilingSearch self, int ncells, placements, limits, must_use, neighbours,
                strategy, initial, flood_cap, minimums) except -1:
    """Check the problem and build the search's structures (``__init__``)."""
    cdef int i, j, c, p, k, w, size, npl
    if strategy not in STRATEGIES:
        raise TilingError(f"unknown strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
    if ncells < 0:
        raise TilingError("ncells must not be negative")
    npieces = len(limits)
    if len(must_use) != npieces:
        raise TilingError("limits and must_use must have one entry per piece")
    if minimums is not None and len(minimums) != npieces:
        raise TilingError("minimums must have one entry per piece")
    self.n = ncells
    self.W = (ncells + 63) // 64 if ncells else 1
    self.strategy = STRATEGIES.index(strategy)
    self.npieces = npieces
    rows = []
    for index, (pc, cells) in enumerate(placements):
        cells = [int(x) for x in cells]
        for i in range(1, len(cells)):
            if cells[i - 1] >= cells[i]:  # not strictly increasing: sort, drop repeats
                cells = sorted(set(cells))
                break
        if not 0 <= pc < npieces:
            raise TilingError(f"placement {index} uses piece {pc}, not in 0..{npieces - 1}")
        if not cells or cells[0] < 0 or cells[len(cells) - 1] >= ncells:
            raise TilingError(f"placement {index} covers a cell outside 0..{ncells - 1}")
        rows.append((int(pc), cells))
    self.P = npl = len(rows)
    total_cells = sum(len(cells) for _, cells in rows)
    total_words = sum(cells[len(cells) - 1] // 64 - cells[0] // 64 + 1 for _, cells in rows)

    self.piece = <int *> malloc(max(npl, 1) * sizeof(int))
    self.cell_start = <int *> malloc((npl + 1) * sizeof(int))
    self.cell_items = <int *> malloc(max(total_cells, 1) * sizeof(int))
    self.mask_offset = <int *> malloc(max(npl, 1) * sizeof(int))
    self.mask_first = <int *> malloc(max(npl, 1) * sizeof(int))
    self.mask_count = <int *> malloc(max(npl, 1) * sizeof(int))
    self.mask_words = <uint64_t *> calloc(max(total_words, 1), sizeof(uint64_t))
    self.limits = <int *> malloc(max(npieces, 1) * sizeof(int))
    self.minimum = <int *> malloc(max(npieces, 1) * sizeof(int))
    self.last_start = <int *> malloc(max(npieces, 1) * sizeof(int))
    self.remaining = <int *> malloc(max(npieces, 1) * sizeof(int))
    self.occ = <uint64_t *> calloc(self.W, sizeof(uint64_t))
    self.seen = <uint64_t *> calloc(self.W, sizeof(uint64_t))
    self.work = <uint64_t *> calloc(self.W, sizeof(uint64_t))
    self.flood = <int *> malloc(max(ncells, 1) * sizeof(int))
    self.kids = <int *> malloc(max(2 * self.P, 1) * sizeof(int))
    k = ncells + 2
    self.st_items_off = <int *> malloc(k * sizeof(int))
    self.st_kind = <int *> malloc(k * sizeof(int))
    self.st_len = <int *> malloc(k * sizeof(int))
    self.st_pos = <int *> malloc(k * sizeof(int))
    self.st_cell = <int *> malloc(k * sizeof(int))
    self.st_placed = <int *> malloc(k * sizeof(int))
    self.st_found = <long long *> malloc(k * sizeof(long long))
    if (self.st_found == NULL or self.piece == NULL or self.cell_start == NULL or self.cell_items == NULL
            or self.mask_offset == NULL or self.mask_first == NULL or self.mask_count == NULL
            or self.mask_words == NULL or self.limits == NULL or self.minimum == NULL
            or self.last_start == NULL or self.remaining == NULL or self.occ == NULL
            or self.seen == NULL or self.work == NULL or self.flood == NULL or self.kids == NULL
            or self.st_items_off == NULL
            or self.st_kind == NULL or self.st_len == NULL or self.st_pos == NULL
            or self.st_cell == NULL or self.st_placed == NULL):
        raise MemoryError()

    for i in range(npieces):
        self.limits[i] = -1 if limits[i] < 0 else int(limits[i])
        if minimums is not None:
            self.minimum[i] = max(int(minimums[i]), 0)
        else:
            self.minimum[i] = max(self.limits[i], 0) if must_use[i] else 0
        if self.limits[i] >= 0 and self.minimum[i] > self.limits[i]:
            raise TilingError(f"piece {i}: minimum {self.minimum[i]} above its limit")

    by_first = [[] for _ in range(ncells)]
    cover = [[] for _ in range(ncells)]
    by_piece = [[] for _ in range(npieces)]
    k = 0
    w = 0
    for p, (pc, cells) in enumerate(rows):
        self.piece[p] = pc
        self.cell_start[p] = k
        for c in cells:
            self.cell_items[k] = c
            k += 1
            cover[c].append(p)
        self.mask_offset[p] = w
        self.mask_first[p] = cells[0] // 64
        self.mask_count[p] = cells[len(cells) - 1] // 64 - cells[0] // 64 + 1
        for c in cells:
            self.mask_words[w + c // 64 - self.mask_first[p]] |= (<uint64_t> 1) << (c % 64)
        w += self.mask_count[p]
        by_first[cells[0]].append(p)
        by_piece[pc].append(p)
    self.cell_start[npl] = k
    self.excluded = <unsigned char *> calloc(max(npl, 1), sizeof(unsigned char))
    self.by_deadline = <int *> malloc(max(npieces, 1) * sizeof(int))
    if self.excluded == NULL or self.by_deadline == NULL:
        raise MemoryError()
    _deadlines_and_sizes(self)

    # Each candidate list is sorted by piece (stable, so the order within a piece is
    # kept), and skip[k] is the position just past the run of k's piece: a search
    # jumps over every placement of a used-up piece in one step.
    for lists in (by_first, cover):
        for c in range(ncells):
            lists[c].sort(key=lambda q: rows[q][0])
    _csr(by_first, &self.first_start, &self.first_items)
    _csr(cover, &self.cover_start, &self.cover_items)
    _csr(by_piece, &self.piece_start, &self.piece_items)
    self.first_skip = _runs(self.first_start, self.first_items, ncells, self.piece)
    self.cover_skip = _runs(self.cover_start, self.cover_items, ncells, self.piece)
    self.piece_skip = _runs(self.piece_start, self.piece_items, npieces, self.piece)
    self.flood_cap = ncells if flood_cap is None else int(flood_cap)
    self.has_neighbours = neighbours is not None
    if self.has_neighbours:
        if len(neighbours) != ncells:
            raise TilingError("neighbours must have one entry per cell")
        nb_lists = [[int(x) for x in nb] for nb in neighbours]
        for nb in nb_lists:
            for x in nb:
                if not 0 <= x < ncells:
                    raise TilingError(f"neighbour {x} is not a cell")
        _csr(nb_lists, &self.nb_start, &self.nb_items)
    else:
        nb_lists = [[] for _ in range(ncells)]
        _csr(nb_lists, &self.nb_start, &self.nb_items)
    self.nbm_first = <int *> malloc(max(ncells, 1) * sizeof(int))
    self.nbm_count = <int *> malloc(max(ncells, 1) * sizeof(int))
    self.nbm_offset = <int *> malloc(max(ncells, 1) * sizeof(int))
    spans = [(min(nb) // 64, max(nb) // 64) if nb else (0, 0) for nb in nb_lists]
    self.nbm_words = <uint64_t *> calloc(max(sum(b - a + 1 for a, b in spans), 1),
                                         sizeof(uint64_t))
    if (self.nbm_first == NULL or self.nbm_count == NULL or self.nbm_offset == NULL
            or self.nbm_words == NULL):
        raise MemoryError()
    w = 0
    for c in range(ncells):
        self.nbm_first[c] = spans[c][0]
        self.nbm_count[c] = spans[c][1] - spans[c][0] + 1
        self.nbm_offset[c] = w
        for x in nb_lists[c]:
            self.nbm_words[w + x // 64 - spans[c][0]] |= (<uint64_t> 1) << (x % 64)
        w += self.nbm_count[c]
    self.full64 = (~(<uint64_t> 0)) >> (64 - ncells) if ncells else 0
    _borders(self, rows, nb_lists)
    _shift_form(self, nb_lists)
    self.fast_first = (self.strategy == 0 and self.W == 1
                       and (self.ndir > 0 or not self.has_neighbours))
    self.lists_stale = self.fast_first
    self.avail = <uint64_t *> calloc((npieces + 64) // 64, sizeof(uint64_t))
    if self.avail == NULL:
        raise MemoryError()

    init = [int(x) for x in initial]
    self.ninitial = len(init)
    self.initial = <int *> malloc(max(len(init), 1) * sizeof(int))
    if self.initial == NULL:
        raise MemoryError()
    for i, p in enumerate(init):
        self.initial[i] = p
    if self.strategy == 1:
        self.alive_cap = 4 * max(npl, 1)
        self.alive = <int *> malloc(self.alive_cap * sizeof(int))
        self.alive_off = <long long *> malloc((ncells + 2) * sizeof(long long))
        self.alive_len = <int *> malloc((ncells + 2) * sizeof(int))
        self.alive_end = <long long *> malloc((ncells + 2) * sizeof(long long))
        self.cell_fits = <int *> malloc(max(ncells, 1) * sizeof(int))
        self.piece_fits = <int *> malloc(max(npieces, 1) * sizeof(int))
        if (self.alive == NULL or self.alive_off == NULL or self.alive_len == NULL
                or self.alive_end == NULL or self.cell_fits == NULL or self.piece_fits == NULL):
            raise MemoryError()
    self.piece_sorted = all(rows[i][0] <= rows[i + 1][0] for i in range(npl - 1))
    if (self.strategy == 1 and self.W == 1 and self.piece_sorted
            and 0 < npl <= 64 * MAX_SET_WORDS):
        _alive_sets(self, cover, by_piece)
    self.piece_sorted = all(rows[i][0] <= rows[i + 1][0] for i in range(npl - 1))
    self.memo = True
    self.memo_ok = False
    for i in range(npieces):
        if self.limits[i] < 0 and self.minimum[i] == 0:
            self.memo_ok = True
        elif self.limits[i] != 0:
            self.memo_ok = False
            break
    self.memo_min_empty = 2 * max((len(cells) for _, cells in rows), default=1)
    self.memo_entries = memo_entries(self.W) if self.memo_ok else 0  # reads the machine
    self.memo_gen = 1
    _reset(self, None)
    self.nodes = 0
    self.found = 0
    return 0


cdef int _deadlines_and_sizes(TilingSearch self) except -1:
    """What the pruning rules read from the placements not excluded: each piece's
    last start cell and the must-use pieces by it (the deadline), and the
    least size and the gcd of the sizes (the area test)."""
    cdef int p, i, first, size, least = 0, g = 0
    for i in range(self.npieces):
        self.last_start[i] = -1
    for p in range(self.P):
        if self.excluded[p]:
            continue
        first = self.cell_items[self.cell_start[p]]
        if first > self.last_start[self.piece[p]]:
            self.last_start[self.piece[p]] = first
        size = self.cell_start[p + 1] - self.cell_start[p]
        if least == 0 or size < least:
            least = size
        g = _gcd(g, size)
    self.min_size = least or 1
    self.size_gcd = g or 1
    self.single_dead = self._dead_size(1)
    self.pair_dead = self._dead_size(2)
    self.triple_dead = self._dead_size(3)
    self.small_areas = self.pair_dead or self.triple_dead
    must_list = sorted((i for i in range(self.npieces) if self.minimum[i] > 0),
                       key=lambda i: self.last_start[i])
    self.ndeadline = len(must_list)
    for i, p in enumerate(must_list):
        self.by_deadline[i] = p
    return 0


cdef int _borders(TilingSearch self, rows, nb_lists) except -1:
    """The cells bordering each placement: ``bd_start``/``bd_items`` (and ``bd64``
    on a one-word board, where they come from the neighbour masks in a few
    word operations rather than from sets)."""
    cdef int p, k, c, total = 0
    cdef uint64_t around, bits
    if self.W != 1:
        border = []
        for pc, cells in rows:
            inside = set(cells)
            border.append(sorted({x for c in cells for x in nb_lists[c]} - inside))
        _csr(border, &self.bd_start, &self.bd_items)
        return 0
    self.bd64 = <uint64_t *> calloc(max(self.P, 1), sizeof(uint64_t))
    self.bd_start = <int *> malloc((self.P + 1) * sizeof(int))
    if self.bd64 == NULL or self.bd_start == NULL:
        raise MemoryError()
    for p in range(self.P):
        around = 0
        for k in range(self.cell_start[p], self.cell_start[p + 1]):
            around |= self.nbm_words[self.cell_items[k]]
        self.bd64[p] = around & ~self.mask_words[p]
        total += _ones(self.bd64[p])
    self.bd_items = <int *> malloc(max(total, 1) * sizeof(int))
    if self.bd_items == NULL:
        raise MemoryError()
    k = 0
    for p in range(self.P):
        self.bd_start[p] = k
        bits = self.bd64[p]
        while bits:
            self.bd_items[k] = __builtin_ctzll(bits)
            bits &= bits - 1
            k += 1
    self.bd_start[self.P] = k
    return 0


cdef int _shift_form(TilingSearch self, nb_lists) except -1:
    """On a board of at most 64 cells, find the neighbour offsets (set ``ndir``)."""
    cdef int k
    if self.W != 1 or not self.has_neighbours:
        return 0
    colour = [-1] * len(nb_lists)
    self.bipartite = True
    for root in range(len(nb_lists)):
        if colour[root] >= 0:
            continue
        colour[root] = 0
        todo = [root]
        while todo:
            cell = todo.pop()
            for q in nb_lists[cell]:
                if colour[q] < 0:
                    colour[q] = 1 - colour[cell]
                    todo.append(q)
                elif colour[q] == colour[cell]:
                    self.bipartite = False
    sources = {}
    for cell, nb in enumerate(nb_lists):
        for q in nb:
            sources[q - cell] = sources.get(q - cell, 0) | (1 << cell)
    if not sources or len(sources) > MAX_DIRS:
        return 0
    for k, (shift, mask) in enumerate(sorted(sources.items())):
        self.dir_shift[k] = shift
        self.dir_src[k] = <uint64_t> mask
    self.ndir = len(sources)
    down = [(-shift, mask) for shift, mask in sorted(sources.items()) if shift < 0]
    up = [(shift, mask) for shift, mask in sorted(sources.items()) if shift > 0]
    self.unrolled = len(down) <= 4 and len(up) <= 4
    self.two_pairs = len(down) <= 2 and len(up) <= 2
    for k in range(4):
        self.down_by[k], self.down_src[k] = down[k] if k < len(down) else (0, 0)
        self.up_by[k], self.up_src[k] = up[k] if k < len(up) else (0, 0)
    return 0


cdef int _alive_sets(TilingSearch self, cover, by_piece) except -1:
    """Set up the bitset form of the alive lists (see the class's fields)."""
    cdef int words = (self.P + 63) // 64, levels = self.n + 2, c, k, p
    self.cover_bits = <uint64_t *> calloc(max(self.n, 1) * words, sizeof(uint64_t))
    self.piece_bits = <uint64_t *> calloc(max(self.npieces, 1) * words, sizeof(uint64_t))
    self.level_alive = <uint64_t *> calloc(levels * words, sizeof(uint64_t))
    self.level_fits = <unsigned short *> calloc(levels * 64, sizeof(unsigned short))
    self.level_fits8 = <unsigned char *> calloc(levels * 64, 1)
    self.level_small = <unsigned char *> calloc(levels, 1)
    self.cell_rows = <unsigned char *> calloc(max(self.P, 1) * 64, 1)
    self.piece_lo = <int *> calloc(max(self.npieces, 1), sizeof(int))
    self.piece_hi = <int *> calloc(max(self.npieces, 1), sizeof(int))
    if (self.cover_bits == NULL or self.piece_bits == NULL or self.level_alive == NULL
            or self.level_fits == NULL or self.level_fits8 == NULL
            or self.level_small == NULL or self.cell_rows == NULL
            or self.piece_lo == NULL or self.piece_hi == NULL):
        raise MemoryError()
    for p in range(self.P):
        for k in range(self.cell_start[p], self.cell_start[p + 1]):
            self.cell_rows[p * 64 + self.cell_items[k]] = 1
    for k in range(self.npieces):  # placements come piece by piece
        if by_piece[k]:
            self.piece_lo[k] = by_piece[k][0]
            self.piece_hi[k] = by_piece[k][len(by_piece[k]) - 1] + 1
    for c in range(self.n):
        for p in cover[c]:
            self.cover_bits[c * words + p // 64] |= (<uint64_t> 1) << (p % 64)
    for k in range(self.npieces):
        for p in by_piece[k]:
            self.piece_bits[k * words + p // 64] |= (<uint64_t> 1) << (p % 64)
    self.setw = words
    return 0


cdef int _window_lists(TilingSearch self) except -1:
    """Build the by_first lists split by window pattern (see the fields), less
    the excluded placements."""
    cdef int c, w, i, k, p, lists
    cdef uint64_t pattern
    cdef int total = 0
    self.window = 0
    while (self.window < MAX_WINDOW
           and (<long long> self.P << (self.window + 1)) <= WINDOW_ENTRIES):
        self.window += 1
    lists = self.n << self.window
    for c in range(self.n):
        for w in range(1 << self.window):
            pattern = ((<uint64_t> w) << c) << 1
            for i in range(self.first_start[c], self.first_start[c + 1]):
                p = self.first_items[i]
                if not self.mask_words[p] & pattern and not self.excluded[p]:
                    total += 1
    free(self.fl_start); free(self.fl_mask); free(self.fl_border); free(self.fl_piece)
    free(self.fl_item); free(self.fl_skip)
    self.fl_start = <int *> malloc((lists + 1) * sizeof(int))
    self.fl_mask = <uint64_t *> calloc(max(total, 1), sizeof(uint64_t))
    self.fl_border = <uint64_t *> calloc(max(total, 1), sizeof(uint64_t))
    self.fl_piece = <int *> calloc(max(total, 1), sizeof(int))
    self.fl_item = <int *> calloc(max(total, 1), sizeof(int))
    self.fl_skip = <int *> calloc(max(total, 1), sizeof(int))
    if (self.fl_start == NULL or self.fl_mask == NULL or self.fl_border == NULL
            or self.fl_piece == NULL or self.fl_item == NULL or self.fl_skip == NULL):
        raise MemoryError()
    k = 0
    for c in range(self.n):
        for w in range(1 << self.window):
            self.fl_start[(c << self.window) + w] = k
            pattern = ((<uint64_t> w) << c) << 1
            for i in range(self.first_start[c], self.first_start[c + 1]):
                p = self.first_items[i]
                if self.mask_words[p] & pattern or self.excluded[p]:
                    continue
                self.fl_item[k] = p
                self.fl_mask[k] = self.mask_words[p]
                self.fl_piece[k] = self.piece[p]
                self.fl_border[k] = self.bd64[p]
                k += 1
    self.fl_start[lists] = k
    free(self.fl_skip)
    self.fl_skip = _runs(self.fl_start, self.fl_item, lists, self.piece)
    return 0


cdef int _start(TilingSearch self, prefix) except -1:
    """Set up a search from ``prefix``: build the split lists if stale, then reset."""
    if self.lists_stale:
        _window_lists(self)
        self.lists_stale = False
    _reset(self, prefix)
    return 0


cdef void _reset(TilingSearch self, prefix) except *:
    """Empty the board, then force the initial placements and ``prefix``."""
    cdef int i, p
    for i in range(self.W):
        self.occ[i] = 0
    self.owed = 0
    for i in range(self.npieces):
        self.remaining[i] = self.limits[i]
        self.owed += self.minimum[i]
    self.filled = 0
    self.depth = 0
    forced = [self.initial[i] for i in range(self.ninitial)]
    if prefix is not None:
        forced.extend(int(x) for x in prefix)
    if len(forced) > self.n:
        raise TilingError("more forced placements than cells")
    for p in forced:
        if not 0 <= p < self.P:
            raise TilingError(f"initial placement {p} does not exist")
        if not self._fits(p):
            if self.excluded[p]:
                raise TilingError(f"initial placement {p} is left out by restrict()")
            if self.remaining[self.piece[p]] == 0:
                raise TilingError(f"initial placement {p} uses piece {self.piece[p]} too often")
            raise TilingError(f"initial placement {p} overlaps an earlier one")
        self._place(p)
        self.st_placed[self.depth] = p
        self.st_cell[self.depth] = 0
        self.depth += 1
    self.base = self.depth
    self.alive_oom = False
    self.entering = 1
    self.nodes = 0
    self.found = 0


cdef bint _same_problem(TilingSearch self, TilingSearch o) noexcept:
    """Whether ``o`` expands boards as this search does: the same region and
    neighbours, placements (cells and pieces), piece limits, restriction and
    area rules.
    A check that a sweep's helper was built from the same spec, not a proof."""
    if (o.n != self.n or o.W != self.W or o.P != self.P or o.npieces != self.npieces
            or o.flood_cap != self.flood_cap or o.has_neighbours != self.has_neighbours
            or o.single_dead != self.single_dead or o.pair_dead != self.pair_dead
            or o.triple_dead != self.triple_dead or o.ndir != self.ndir):
        return False
    return not (
        memcmp(o.limits, self.limits, self.npieces * sizeof(int))
        or memcmp(o.piece, self.piece, self.P * sizeof(int))
        or memcmp(o.excluded, self.excluded, self.P)
        or memcmp(o.cell_start, self.cell_start, (self.P + 1) * sizeof(int))
        or memcmp(o.cell_items, self.cell_items, self.cell_start[self.P] * sizeof(int))
        or memcmp(o.first_start, self.first_start, (self.n + 1) * sizeof(int))
        or memcmp(o.first_items, self.first_items, self.first_start[self.n] * sizeof(int))
        or memcmp(o.nb_start, self.nb_start, (self.n + 1) * sizeof(int))
        or memcmp(o.nb_items, self.nb_items, self.nb_start[self.n] * sizeof(int)))


cdef int _csr(lists, int **start_out, int **items_out) except -1:
    """Pack a list of int lists as C arrays: start offsets (len + 1) and items."""
    cdef int n = len(lists), i, k = 0
    cdef int total = sum(len(x) for x in lists)
    cdef int *start = <int *> malloc((n + 1) * sizeof(int))
    cdef int *items = <int *> malloc(max(total, 1) * sizeof(int))
    if start == NULL or items == NULL:
        free(start)
        free(items)
        raise MemoryError()
    for i in range(n):
        start[i] = k
        for x in lists[i]:
            items[k] = x
            k += 1
    start[n] = k
    start_out[0] = start
    items_out[0] = items
    return 0


cdef int *_runs(int *start, int *items, int nlists, int *piece) except NULL:
    """For each list position, the position just past its run of equal pieces."""
    cdef int total = start[nlists], i, j, k
    cdef int *skip = <int *> malloc(max(total, 1) * sizeof(int))
    if skip == NULL:
        raise MemoryError()
    for i in range(nlists):
        j = start[i + 1]
        k = start[i + 1] - 1
        while k >= start[i]:
            if k + 1 < start[i + 1] and piece[items[k]] != piece[items[k + 1]]:
                j = k + 1
            skip[k] = j
            k -= 1
    return skip
