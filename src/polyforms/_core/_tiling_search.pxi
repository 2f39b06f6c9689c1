# The search object: its fields, the steps its loops call through the type's method
# table, and its Python methods.


cdef class TilingSearch:
    """Count or list the tilings of a numbered region by numbered placements.

    Same parameters and methods as
    :class:`polyforms._core._tiling_py.TilingSearch`; see there.
    """

    # problem
    cdef int n, W, P, npieces, strategy, has_neighbours, min_size, size_gcd
    cdef int *piece
    cdef int *cell_start
    cdef int *cell_items
    cdef int *mask_offset
    cdef int *mask_first
    cdef int *mask_count
    cdef uint64_t *mask_words
    cdef int *first_start
    cdef int *first_items
    cdef int *first_skip
    cdef int *cover_start
    cdef int *cover_items
    cdef int *cover_skip
    cdef int *piece_start
    cdef int *piece_items
    cdef int *piece_skip
    cdef public int flood_cap
    cdef int *nb_start
    cdef int *nb_items
    cdef int *limits
    cdef int *minimum       # copies of each piece that must be used (lower bounds)
    cdef int owed           # copies still owed, summed over the pieces
    cdef int *last_start
    cdef int *by_deadline    # must-use pieces, by last_start ascending
    cdef int ndeadline
    cdef int *initial
    cdef int ninitial
    cdef unsigned char *excluded  # placements left out by :meth:`restrict`
    # state
    cdef uint64_t *occ
    cdef uint64_t *seen
    cdef int *bd_start       # cells bordering each placement (CSR)
    cdef int *bd_items
    cdef int *nbm_first      # neighbour mask of each cell, stored like placement masks
    cdef int *nbm_count
    cdef int *nbm_offset
    cdef uint64_t *nbm_words
    cdef int single_dead     # True when an isolated empty cell can never be filled
    cdef int pair_dead       # ... an isolated pair of empty cells
    cdef int triple_dead     # ... three isolated empty cells
    cdef bint small_areas    # pair_dead or triple_dead: _no_small_area serves flood caps 2, 3
    cdef bint bipartite      # the neighbour graph has no odd cycle (the areas of 3 cells are paths)
    cdef uint64_t *work
    cdef int *flood
    cdef int *kids           # the children of a node, for branch() and probe() (2 P)
    cdef int *remaining
    cdef int filled
    cdef int depth
    cdef int base
    cdef int entering
    cdef int *st_items_off   # offset of the candidate list in its CSR array
    cdef int *st_kind        # 0: by_first, 1: cover, 2: by_piece, 3: alive (taken)
    cdef int *st_len
    cdef int *st_pos
    cdef int *st_cell
    cdef int *st_placed
    cdef public long long nodes
    cdef public long long found
    cdef public object stopped_at  # path to the first node a count with ``nodes`` left
    # MRV bookkeeping: level d keeps the placements still fitting at its node
    # (``alive[alive_off[d] : alive_off[d] + alive_len[d]]``), filtered from its
    # parent's list, so deep nodes scan few placements; ``cell_fits`` and
    # ``piece_fits`` count them per cell and per piece.
    cdef int *alive
    cdef long long alive_cap
    cdef bint alive_oom
    cdef long long *alive_off
    cdef int *alive_len
    cdef int *cell_fits
    cdef int *piece_fits
    cdef long long *alive_end  # end of level d's share of ``alive`` (its candidates follow its list)
    cdef bint piece_sorted     # placements come piece by piece: candidates can be taken from alive
    # One-word boards with at most 64 * MAX_SET_WORDS placements keep each level's
    # alive placements as a bitset over the placements (``level_alive``, ``setw``
    # words a level) and its cell counts (``level_fits``). A level starts from its
    # parent's and takes off only the placements the last one killed: those
    # meeting its cells (``cover_bits``) or of its piece once used up
    # (``piece_bits``), each placement's cells a row of byte counts subtracted
    # a vector at a time (``cell_rows``) once all counts are below 256. A
    # piece's count is the popcount of its range of the set (placements come
    # piece by piece). Its candidates are the alive set and the chosen cell's
    # cover set, in placement order.
    cdef int setw
    cdef uint64_t *cover_bits
    cdef uint64_t *piece_bits
    cdef uint64_t *level_alive
    cdef unsigned short *level_fits   # 64 counts a level, 16 bits each ...
    cdef unsigned char *level_fits8   # ... or 8 (level_small) once all are below 256
    cdef unsigned char *level_small
    cdef unsigned char *cell_rows     # each placement's cells as 64 bytes of 0 or 1
    cdef int *piece_lo                # placements of piece i: lo[i] <= p < hi[i]
    cdef int *piece_hi
    cdef int *fits_now        # the counts of the level being chosen at (list form)
    cdef int *piece_fits_now
    # One-word boards (at most 64 cells): the empty cells' neighbourhood in a few
    # shifts. Cell c's neighbours lie at c + dir_shift[k] for the k whose
    # dir_src[k] holds c, so the cells next to a set x are the union over k of
    # (x & dir_src[k]) shifted by dir_shift[k].
    cdef int ndir            # 0: no shift form (more than MAX_DIRS offsets, or W > 1)
    cdef bint fast_first     # _run_first1 runs the search (its stack positions are absolute)
    cdef uint64_t *avail     # its pieces still available, a bit each
    cdef bint unrolled          # at most four offsets each way: the form below serves
    cdef bint two_pairs         # ... at most two (a plane), the first two of each
    cdef uint64_t down_src[4]   # the same, unrolled: up to four offsets below 0 ...
    cdef int down_by[4]
    cdef uint64_t up_src[4]     # ... and up to four above (unused ones: empty masks)
    cdef int up_by[4]
    cdef int dir_shift[MAX_DIRS]
    cdef uint64_t dir_src[MAX_DIRS]
    cdef uint64_t *bd64      # cells bordering each placement, as one word (one-word boards)
    cdef uint64_t full64     # the region's cells
    # The by_first lists again for one-word boards, split by the state of the
    # ``window`` cells after the first empty one: list ``c * 2**window + w`` holds, in
    # by_first order, the placements starting on c that miss the occupied cells
    # of pattern w, so most placements that cannot fit are never looked at. Each
    # entry's mask, border, piece, placement and run end sit side by side. Built
    # by the first search after set-up or :meth:`restrict` (``lists_stale``), so
    # that a restricted kernel builds them once.
    cdef int window
    cdef bint lists_stale
    cdef int *fl_start
    cdef uint64_t *fl_mask
    cdef uint64_t *fl_border
    cdef int *fl_piece
    cdef int *fl_item
    cdef int *fl_skip
    # Counts with free pieces only (each piece any number of times, or not at
    # all) memoize: the tilings below a node depend only on its board, so a
    # board met again is not searched again. ``memo_table`` holds ``2**memo_bits``
    # slots of ``W + 2`` words (generation, tilings below, the board), open
    # addressing with linear probing, about half full: once it is, the search
    # stops at its next node and ``count`` doubles the table (``_memo_grow``);
    # past ``memo_entries`` boards (``limits.memo_entries``: as many as the
    # memory ``limits.memo_bytes`` allows) the memo starts over.
    # A slot of another generation is empty: :meth:`restrict` and starting over
    # bump ``memo_gen``. Nodes with fewer than ``memo_min_empty`` empty cells
    # (two of the largest piece) are not memoized: their subtrees are too small.
    cdef public bint memo
    cdef readonly bint memo_ok
    cdef public long long memo_entries
    cdef public int memo_min_empty
    cdef uint64_t memo_gen
    cdef uint64_t *memo_table
    cdef int memo_bits
    cdef long long memo_live
    cdef bint memo_grow_due   # half full: ``count`` doubles it before the search goes on
    cdef long long *st_found  # tilings found before entering the node of each level; -1: not memoized

    def __init__(self, int ncells, placements, limits, must_use, neighbours=None,
                 strategy="first", initial=(), flood_cap=None, minimums=None):
        _build(self, ncells, placements, limits, must_use, neighbours, strategy, initial,
               flood_cap, minimums)

    def __dealloc__(self):
        free(self.memo_table); free(self.st_found)
        free(self.piece); free(self.cell_start); free(self.cell_items)
        free(self.mask_offset); free(self.mask_first); free(self.mask_count); free(self.mask_words)
        free(self.first_start); free(self.first_items); free(self.cover_start)
        free(self.first_skip); free(self.cover_skip); free(self.piece_skip)
        free(self.cover_items); free(self.piece_start); free(self.piece_items)
        free(self.nb_start); free(self.nb_items); free(self.limits); free(self.minimum)
        free(self.last_start); free(self.by_deadline); free(self.initial); free(self.occ); free(self.seen); free(self.bd_start); free(self.bd_items)
        free(self.nbm_first); free(self.nbm_count); free(self.nbm_offset); free(self.nbm_words); free(self.work)
        free(self.flood); free(self.kids); free(self.remaining); free(self.st_items_off); free(self.st_kind)
        free(self.st_len); free(self.st_pos); free(self.st_cell); free(self.st_placed)
        free(self.alive); free(self.alive_off); free(self.alive_len)
        free(self.cell_fits); free(self.piece_fits); free(self.bd64)
        free(self.alive_end); free(self.cover_bits); free(self.piece_bits)
        free(self.level_alive); free(self.level_fits); free(self.cell_rows)
        free(self.level_fits8); free(self.level_small)
        free(self.piece_lo); free(self.piece_hi)
        free(self.fl_start); free(self.fl_mask); free(self.fl_border); free(self.fl_piece)
        free(self.fl_item); free(self.fl_skip); free(self.avail); free(self.excluded)

    # -- the steps of the search ---------------------------------------------------
    # Each step is a method whose body is the function of its name less the
    # underscore, defined with its concern in the file named (the bit-parallel
    # area test below keeps its bodies here). As methods they sit in the type's
    # method table: the steps not marked inline are called through it, never
    # merged into the loops, and the inline ones are compiled into their
    # callers, whichever file holds their source.

    # one board (_tiling_board.pxi)
    cdef inline bint _dead_size(self, int size) noexcept nogil:
        return dead_size(self, size)
    cdef inline bint _fits(self, int p) noexcept nogil:
        return fits(self, p)
    cdef inline void _place(self, int p) noexcept nogil:
        place(self, p)
    cdef inline void _unplace(self, int p) noexcept nogil:
        unplace(self, p)
    cdef inline int _first_empty(self, int start) noexcept nogil:
        return first_empty(self, start)
    cdef inline bint _isolated(self, int q) noexcept nogil:
        return isolated(self, q)
    cdef inline bint _past_deadline(self, int c) noexcept nogil:
        return past_deadline(self, c)
    cdef bint _area_ok(self, int p) noexcept nogil:
        return area_ok(self, p)

    # The area test on a board of at most 64 cells, bit-parallel over the shift
    # form above. These methods hold their own bodies: the compiler inlines them
    # into one another and into the loops as one chain, and a body moved out to
    # a function of its own is inlined otherwise (``_next_to`` then stays a call
    # in the flood, 8 % slower on 3x4x5).
    cdef inline uint64_t _next_to(self, uint64_t x) noexcept nogil:
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

    cdef inline bint _area_ok1(self, uint64_t touching, uint64_t occ) noexcept nogil:
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

    cdef inline (uint64_t, uint64_t, uint64_t) _degrees(self, uint64_t empty, int pairs) noexcept nogil:
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

    cdef inline bint _no_small_area(self, uint64_t border, uint64_t empty) noexcept nogil:
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

    # a node's candidates (_tiling_choice.pxi)
    cdef void _choose(self, int d, int hint) noexcept nogil:
        choose(self, d, hint)
    cdef bint _grow_alive(self, long long need) noexcept nogil:
        return grow_alive(self, need)
    cdef bint _filter_alive(self, int d) noexcept nogil:
        return filter_alive(self, d)
    cdef void _filter_sets(self, int d) noexcept nogil:
        filter_sets(self, d)
    cdef int _piece_fits(self, int d, int i, int enough) noexcept nogil:
        return piece_fits(self, d, i, enough)
    cdef void _take_sets(self, int d, int best_cell, int best_kind) noexcept nogil:
        take_sets(self, d, best_cell, best_kind)
    cdef inline bint _covers(self, int p, int c) noexcept nogil:
        return covers(self, p, c)
    cdef void _take_candidates(self, int d, int best_cell, int best_kind) noexcept nogil:
        take_candidates(self, d, best_cell, best_kind)

    # the memo (_tiling_memo.pxi)
    cdef uint64_t *_memo_find(self, const uint64_t *occ) noexcept nogil:
        return memo_find(self, occ)
    cdef void _memo_store(self, const uint64_t *occ, long long count) noexcept nogil:
        memo_store(self, occ, count)
    cdef inline long long _memo_count(self, const uint64_t *occ) noexcept nogil:
        return memo_count(self, occ)

    # the loops (_tiling_loops.pxi, generated from _tiling_loops.pxi.in)
    cdef int _run(self, long long budget, bint stop_at_solution) noexcept nogil:
        """Advance the search; return SOLUTION, DONE, OVERFLOW, or BUDGET when ``budget``
        nodes are used (the loops: ``_tiling_loops.pxi``)."""
        if self.fast_first:
            return self._run_first1(budget, stop_at_solution)
        return run_lists(self, budget, stop_at_solution)

    cdef int _run_first1(self, long long budget, bint stop_at_solution) noexcept nogil:
        return run_first1(self, budget, stop_at_solution)

    # -- public methods ----------------------------------------------------------------

    @property
    def ncells(self):
        """The cells of the region (the twin's attribute)."""
        return self.n

    def restrict(self, excluded=()):
        """Leave the placements ``excluded`` out of the following searches (replacing
        any earlier restriction); see the twin."""
        cdef int p
        left_out = [int(x) for x in excluded]
        for p in left_out:
            if not 0 <= p < self.P:
                raise TilingError(f"placement {p} does not exist")
        for p in range(self.P):
            self.excluded[p] = 0
        for p in left_out:
            self.excluded[p] = 1
        for p in self.initial[:self.ninitial]:
            if self.excluded[p]:
                raise TilingError(f"initial placement {p} cannot be left out")
        _deadlines_and_sizes(self)
        self.lists_stale = self.fast_first
        self.memo_gen += 1
        self.memo_live = 0
        self.memo_grow_due = 0

    def count(self, progress=None, prefix=(), nodes=None, stop=None):
        """Return the number of tilings (containing ``prefix``); call ``progress(fraction)``.
        With ``nodes``, stop before entering more nodes than that; with ``stop``,
        also once ``stop()``, asked every STOP_CHUNK nodes, says so; see the twin."""
        cdef int status = BUDGET
        cdef long long left = -1, step, before, chunk = CHUNK if stop is None else STOP_CHUNK
        if nodes is not None:
            if nodes < 0:
                raise TilingError(f"nodes must be at least 0, not {nodes}")
            # A budget past what the node counter holds is no budget (a subtask's
            # budget is a share of an estimate, which can pass 2**63 - 1).
            left = -1 if nodes > LLONG_MAX else nodes
        _start(self, prefix)
        _memo_prepare(self)
        self.stopped_at = None
        while status == BUDGET:
            step = chunk if left < 0 or left > chunk else left
            if step == 0:
                self.stopped_at = tuple(self.st_placed[i] for i in range(self.base, self.depth))
                break
            before = self.nodes
            with nogil:
                status = self._run(step, False)
            while status == BUDGET and self.memo_grow_due:
                # The memo is half full: double it (looking at signals), and the
                # same step goes on.
                _memo_grow(self)
                if self.nodes - before < step:
                    with nogil:
                        status = self._run(step - (self.nodes - before), False)
            if left >= 0:
                left -= self.nodes - before
            if PyErr_CheckSignals() != 0:
                raise KeyboardInterrupt
            if progress is not None and status == BUDGET:
                progress(_fraction(self))
            if stop is not None and status == BUDGET and stop():
                left = 0  # stop where a budget would: at the next node
        if self.alive_oom:
            self.memo_gen += 1  # a node cut short by it may be in the memo
            self.memo_live = 0
            raise MemoryError("no memory for the candidate lists of the search")
        if status == OVERFLOW:
            raise _CountOverflowError(
                f"more than {MAX_COUNT:,} tilings: past what the compiled kernel counts; "
                "POLYFORMS_BACKEND=python counts them exactly")
        if progress is not None and self.stopped_at is None:
            progress(1.0)
        return self.found

    def solutions(self, limit=None, prefix=()):
        """Yield up to ``limit`` tilings (containing ``prefix``) as placement index lists."""
        cdef int status, i
        cdef long long emitted = 0
        _start(self, prefix)
        while limit is None or emitted < limit:
            with nogil:
                status = self._run(CHUNK, True)
            if self.alive_oom:
                raise MemoryError("no memory for the candidate lists of the search")
            if status == SOLUTION:
                emitted += 1
                yield [self.st_placed[i] for i in range(self.depth)]
            elif status == DONE:
                return
            elif PyErr_CheckSignals() != 0:
                raise KeyboardInterrupt

    def branch(self, prefix=()):
        """Return the fitting children of the node reached by ``prefix`` (None: tiled)."""
        cdef int d, k
        _start(self, prefix)
        if self.filled == self.n:
            return None
        d = self.depth
        self._choose(d, 0)
        if self.alive_oom:
            raise MemoryError("no memory for the candidate lists of the search")
        k = _kids(self, d, self.kids)
        return [self.kids[i] for i in range(k)]

    def probe(self, prefix=(), int probes=1, seed=0):
        """Knuth's estimate of the nodes below ``prefix``: the mean over ``probes``
        random walks down the tree of :meth:`branch` of 1 + d1 + d1 d2 + ...,
        each step to a child drawn by :func:`_draw`; the twin's walks and value.

        The walks run inside the kernel as the search does (each level's
        candidates from its parent's), and the children of ``prefix``'s node,
        the same for every walk, are found once; each walk is undone to there.
        """
        cdef int d, d0, k, k0, p, step
        cdef uint64_t state = _seeded(<uint64_t> (int(seed) & 0xFFFFFFFFFFFFFFFF))
        cdef double total = 0.0, size, scale
        cdef int *kids = self.kids
        cdef int *first_kids = self.kids + self.P
        if probes < 1:
            raise TilingError(f"probes must be at least 1, not {probes}")
        _start(self, prefix)
        self.nodes = 0
        if self.filled == self.n:
            return 1.0
        d0 = self.depth
        self._choose(d0, 0)
        if self.alive_oom:
            raise MemoryError("no memory for the candidate lists of the search")
        k0 = _kids(self, d0, first_kids)
        if k0 == 0:
            return 1.0
        for step in range(probes):
            size = 1.0
            scale = 1.0
            k = k0
            d = d0
            while True:
                scale *= k
                size += scale
                state = _step(state)
                p = (first_kids if d == d0 else kids)[_draw(state, k)]
                self._place(p)
                self.st_placed[d] = p
                self.st_cell[d] = 0
                d += 1
                self.depth = d
                if self.filled == self.n:
                    break
                self._choose(d, 0)
                if self.alive_oom:
                    raise MemoryError("no memory for the candidate lists of the search")
                k = _kids(self, d, kids)
                if k == 0:
                    break
            while d > d0:
                d -= 1
                self._unplace(self.st_placed[d])
            self.depth = d0
            total += size
        return total / probes


cdef double _fraction(TilingSearch self) noexcept:
    """Estimate of the share of the tree already searched (top levels only)."""
    cdef double share = 0.0, weight = 1.0
    cdef int d
    cdef int start, size
    for d in range(self.base, min(self.depth, self.base + 6)):
        start = self.st_items_off[d] if self.fast_first else 0
        size = self.st_len[d] - start
        if size <= 0:
            break
        share += weight * (self.st_pos[d] - start - 1) / size
        weight /= size
    return share


cdef int _kids(TilingSearch self, int d, int *out) noexcept nogil:
    """The fitting children of the node at level ``d`` (its candidate list set
    up by :meth:`_choose`) into ``out``, in order; their number."""
    cdef int i, p, k = 0
    cdef int *items = (self.first_items if self.st_kind[d] == 0 else
                       self.cover_items if self.st_kind[d] == 1 else
                       self.piece_items if self.st_kind[d] == 2 else self.alive)
    for i in range(self.st_len[d]):
        p = items[self.st_items_off[d] + i]
        if self._fits(p):
            self._place(p)
            if self._area_ok(p):
                out[k] = p
                k += 1
            self._unplace(p)
    return k
