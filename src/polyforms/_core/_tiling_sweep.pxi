# The sweep over boards (free pieces only), :class:`BoardSweep`: its tables, threads and
# phases; growing, widening, saving and loading the tables are in
# ``_tiling_sweep_store.pxi``.


cdef uint64_t SWEEP_MAGIC = 0x0102030405060708  # also tells the byte order of a saved sweep
cdef double SWEEP_FALL = 2.5  # the twin's: where the layers shrink, in fronts before the end


cdef inline double _shrink(int empty, int now, double tail) noexcept:
    """The twin's ``_shrink``: a layer of ``empty`` empty cells against the one
    of ``now`` being swept."""
    cdef double r
    if empty >= tail:
        return 1.0
    r = empty / (now if now < tail else tail)
    return r * r * r


_PAST_64 = ("more than 18,446,744,073,709,551,615 tilings: past what the compiled kernel "
            "counts; POLYFORMS_BACKEND=python counts them exactly")
_PAST_128 = ("more than 2**128 - 1 tilings: past what the compiled sweep counts; "
             "POLYFORMS_BACKEND=python counts them exactly")
cdef uint64_t SWEEP_MAGIC_WIDE = 0x0102030405060709  # a saved sweep with 128-bit ways
#: A sweep widens its ways to 128 bits once some board's pass this: a phase adds
#: to a board at most the ways of the boards it comes from, each below it, one
#: for each placement starting within a placement's span before its first empty
#: cell (about 2,500 for the pentominoes in a box 10 wide): far below 2**14. A
#: narrow sum that passed 2**64 - 1 all the same would be refused, not wrapped.
cdef int WIDEN_BITS = 50
cdef long long SWEEP_PHASE = 1 << 13  # boards a thread expands before the children are stored
cdef int AHEAD = 16                   # children whose slots are fetched ahead of their store
cdef uint64_t _SHARD_MIX = 0xBF58476D1CE4E5B9


cdef struct Lane:
    # One thread's share of a phase. Each thread writes only its own lane,
    # and the padding keeps two lanes' counters off one cache line.
    long long pos            # next slot of its shard of the layer being swept ...
    long long pos_before     # ... as the phase found it
    long long done           # boards it swept in the phase
    long long moves
    uint64_t total           # tilings it reached (in the last layer), low word ...
    uint64_t total_hi        # ... and high word (a wide sweep)
    int bad                  # 1: a sum passed 2**64 - 1 (2**128 - 1 wide); 2: a buffer
                             # could not grow; 4: ways past 2**WIDEN_BITS, time to widen
    uint64_t **out           # its children for each shard: records of hash, table, ways, board
    long long *out_n
    long long *out_cap
    long long *pend          # its children bound for each table
    long long *added         # boards new to each table of its shard, as it stores them
    void *sweep              # a helper thread's sweep, ...
    int index                # ... its number, ...
    int phase                # ... what to do next (1: expand, 2: store, 0: end) ...
    long long budget         # ... and how many boards to expand
    char pad[64]


cdef inline bint _past_128(uint64_t high, uint64_t more, uint64_t carry) noexcept nogil:
    """Whether ``high + more + carry`` (the high words of a 128-bit sum, and the
    carry from its low words) passes 2**64 - 1."""
    return (more > <uint64_t> 0xFFFFFFFFFFFFFFFF - carry
            or high > <uint64_t> 0xFFFFFFFFFFFFFFFF - more - carry)


cdef inline int _shard(uint64_t h, int T) noexcept nogil:
    """The shard (``0 .. T - 1``) of a board of hash ``h``: from the top of a
    second product, so it does not follow the slot (the top bits of ``h``)."""
    return <int> ((((h * _SHARD_MIX) >> 32) * <uint64_t> T) >> 32)


cdef void _sweep_helper(void *lane) noexcept with gil:
    """The body of a sweep's helper thread (started without the threading
    module, so no Python code, and no signal handler, runs in its phases)."""
    cdef BoardSweep sweep = <BoardSweep> (<Lane *> lane).sweep
    cdef int t = (<Lane *> lane).index
    cdef TilingSearch s = sweep.searches[t]
    with nogil:
        sweep._serve(s, t)


cdef class BoardSweep:
    """Count the tilings of a search whose pieces are all free, board by board:
    the method is explained in the readable twin
    (:class:`polyforms._tiling_py.BoardSweep`).

    The boards of ``f`` filled cells met so far are held in ``T`` hash
    tables (shards), ``tab[(f % L) * T + u]``, a board going to the shard its
    hash picks (``L`` is one more than the largest placement, so the layers a
    board can reach never share a table with the one being swept). A table
    has ``2**bits`` slots of ``W + 1`` words (the ways to reach the board, 0
    for an empty slot; the board), open addressing with linear probing, at
    most half full. Once some board's ways pass ``2**WIDEN_BITS`` the sweep
    widens: each slot gets a word more, the high word of its ways (``wide``),
    so that counts up to 2**128 - 1 come out exact.

    ``helpers``: ``T - 1`` more searches of the same problem (built from the
    same spec, restricted alike), one for each extra thread: a thread needs a
    search of its own to expand boards with. The sweep goes in phases. In the
    first, thread ``t`` expands the next boards of shard ``t`` of the layer
    being swept, writing each child with its hash to a buffer by the child's
    shard; then each table that the children could take past half full is
    doubled (with the GIL, a slice at a time, looking at signals); in the
    second phase, thread ``u`` stores the children of shard ``u``, fetching
    slots a few children ahead. No two threads write the same memory. With
    no helpers the same phases run in the calling thread.

    The helper threads live for one :meth:`run`; they and this thread hand
    phases to each other through locks taken and released without the GIL,
    so no Python code runs from the start of a phase to the end of the next
    store: a signal is handled between two runs or while a table doubles,
    and a doubling stopped by one undoes the phase (it changed no table).
    """
    cdef TilingSearch s
    cdef list searches              # the search of each thread (``s`` first)
    cdef int T, W, stride, rec, L, n, gcd
    cdef int first_bits             # the slots of a new table: 2**first_bits
    cdef readonly bint wide         # the ways are 128-bit: a slot's last word is their high word
    cdef uint64_t **tab             # L * T tables
    cdef int *bits
    cdef long long *used
    cdef Lane *lanes                # T
    cdef PyThread_type_lock *go     # T: released to hand helper t a phase ...
    cdef PyThread_type_lock *over   # ... released by it when the phase is over
    cdef readonly int filled        # the layer being swept: its boards have this many cells filled
    cdef long long layer_done       # its boards swept so far
    cdef uint64_t total, total_hi
    cdef bint overflow, oom, big    # big: a board loaded past 2**WIDEN_BITS ways
    cdef int grow_due               # a table more than half full (loading), or -1
    cdef readonly long long states  # boards swept (each once), ...
    cdef readonly long long moves   # ... and placements tried that fit and pass the area test
    cdef readonly size_t size       # bytes of the tables now
    cdef readonly size_t peak       # ... and at most
    cdef size_t budget
    cdef double tail                # cells over which the layers shrink (``fraction``)

    def __init__(self, TilingSearch search, prefix=(), budget=None, helpers=(), wide=False):
        cdef int k, most = 1, t
        cdef TilingSearch other
        if not search.memo_ok:
            raise TilingError("a sweep over boards needs free pieces only")
        self.searches = [search]
        for helper in helpers:
            if not isinstance(helper, TilingSearch):
                raise TilingError("a sweep's helpers must be searches of the compiled kernel")
            other = helper
            if any(other is known for known in self.searches):
                raise TilingError("each thread of a sweep needs a search of its own")
            if not _same_problem(search, other):
                raise TilingError("a sweep's helpers must be searches of the same problem, "
                                  "restricted alike")
            self.searches.append(other)
        self.s = search
        self.T = len(self.searches)
        self.W = search.W
        self.wide = bool(wide)
        self.stride = search.W + 1 + self.wide
        self.rec = search.W + 3 + self.wide
        self.n = search.n
        self.gcd = search.size_gcd
        for k in range(search.P):
            most = max(most, search.cell_start[k + 1] - search.cell_start[k])
        self.L = most + 1
        self.first_bits = MEMO_FIRST_BITS
        while self.first_bits > 1 and self._bytes(self.first_bits) > FIRST_TABLE_BYTES:
            self.first_bits -= 1
        self.tail = SWEEP_FALL * self._front()
        if budget is None:
            self.budget = (<size_t> 1) << 62
        else:
            self.budget = budget
        k = self.L * self.T
        self.tab = <uint64_t **> calloc(k, sizeof(uint64_t *))
        self.bits = <int *> calloc(k, sizeof(int))
        self.used = <long long *> calloc(k, sizeof(long long))
        self.lanes = <Lane *> calloc(self.T, sizeof(Lane))
        self.go = <PyThread_type_lock *> calloc(self.T, sizeof(PyThread_type_lock))
        self.over = <PyThread_type_lock *> calloc(self.T, sizeof(PyThread_type_lock))
        if (self.tab == NULL or self.bits == NULL or self.used == NULL or self.lanes == NULL
                or self.go == NULL or self.over == NULL):
            raise MemoryError("no memory for the sweep")
        for t in range(1, self.T):
            self.go[t] = PyThread_allocate_lock()
            self.over[t] = PyThread_allocate_lock()
            if self.go[t] == NULL or self.over[t] == NULL:
                raise MemoryError("no memory for the sweep's locks")
            PyThread_acquire_lock(self.go[t], WAIT_LOCK)  # both held while no phase is handed
            PyThread_acquire_lock(self.over[t], WAIT_LOCK)
        for t in range(self.T):
            # eight words to spare after each array: no line shared with the next
            self.lanes[t].out = <uint64_t **> calloc(self.T + 8, sizeof(uint64_t *))
            self.lanes[t].out_n = <long long *> calloc(self.T + 8, sizeof(long long))
            self.lanes[t].out_cap = <long long *> calloc(self.T + 8, sizeof(long long))
            self.lanes[t].pend = <long long *> calloc(k + 8, sizeof(long long))
            self.lanes[t].added = <long long *> calloc(self.L + 8, sizeof(long long))
            if (self.lanes[t].out == NULL or self.lanes[t].out_n == NULL
                    or self.lanes[t].out_cap == NULL or self.lanes[t].pend == NULL
                    or self.lanes[t].added == NULL):
                raise MemoryError("no memory for the sweep")
        self.grow_due = -1
        _start(search, prefix)
        self.filled = search.filled
        self._add(search.filled, search.occ, 1, 0)
        if self.oom:
            raise MemoryError("no memory for the sweep")

    cdef int _front(self):
        """The twin's ``sweep_front``: the median step from a cell to its last
        neighbour after it, over the cells with one; 0 without neighbours."""
        cdef TilingSearch s = self.s
        cdef int c, k, last
        if not s.has_neighbours:
            return 0
        steps = []
        for c in range(s.n):
            last = c
            for k in range(s.nb_start[c], s.nb_start[c + 1]):
                last = max(last, s.nb_items[k])
            if last > c:
                steps.append(last - c)
        steps.sort()
        return steps[len(steps) // 2] if steps else 0

    def __dealloc__(self):
        cdef int i, t
        if self.tab != NULL:
            for i in range(self.L * self.T):
                free(self.tab[i])
        if self.lanes != NULL:
            for t in range(self.T):
                if self.lanes[t].out != NULL:
                    for i in range(self.T):
                        free(self.lanes[t].out[i])
                free(self.lanes[t].out)
                free(self.lanes[t].out_n)
                free(self.lanes[t].out_cap)
                free(self.lanes[t].pend)
                free(self.lanes[t].added)
        for t in range(1, self.T):
            if self.go != NULL and self.go[t] != NULL:
                PyThread_free_lock(self.go[t])
            if self.over != NULL and self.over[t] != NULL:
                PyThread_free_lock(self.over[t])
        free(self.go)
        free(self.over)
        free(self.tab)
        free(self.bits)
        free(self.used)
        free(self.lanes)

    @property
    def threads(self):
        """The threads the sweep runs in (one more than its helpers)."""
        return self.T

    cdef inline size_t _bytes(self, int bits) noexcept nogil:
        """The bytes of a layer table of ``2**bits`` slots."""
        return ((<size_t> 1) << bits) * self.stride * sizeof(uint64_t)

    cdef inline bint _empty(self, const uint64_t *e) noexcept nogil:
        """Whether slot ``e`` holds no board (no ways to one)."""
        return e[0] == 0 and (not self.wide or e[self.W + 1] == 0)

    cdef inline uint64_t *_find(self, int i, const uint64_t *occ, uint64_t h) noexcept nogil:
        """The slot of table ``i`` holding ``occ`` (of hash ``h``), or the empty slot where it goes."""
        cdef uint64_t mask = ((<uint64_t> 1) << self.bits[i]) - 1
        cdef uint64_t slot = h >> (64 - self.bits[i])
        cdef uint64_t *e
        while True:
            e = self.tab[i] + slot * self.stride
            if self._empty(e) or _same_board(e + 1, occ, self.W):
                return e
            slot = (slot + 1) & mask

    cdef inline int _store(self, int i, const uint64_t *occ, uint64_t h,
                           uint64_t ways, uint64_t ways_hi) noexcept nogil:
        """Add ``ways`` (+ ``ways_hi * 2**64``, wide) ways to reach board ``occ``
        in table ``i`` (which has room): 1 if the board is new there (the caller
        counts it in ``used``), 0 if not, -1 if its ways would pass 2**64 - 1
        (2**128 - 1 wide); 2 or 3 instead of 0 or 1 if they pass 2**WIDEN_BITS
        (narrow: time to widen)."""
        cdef uint64_t *e = self._find(i, occ, h)
        cdef uint64_t low, carry
        cdef int w
        if self._empty(e):
            for w in range(self.W):
                e[1 + w] = occ[w]
            e[0] = ways
            if self.wide:
                e[self.W + 1] = ways_hi
                return 1
            return 1 if ways >> WIDEN_BITS == 0 else 3
        if not self.wide:
            if e[0] > <uint64_t> 0xFFFFFFFFFFFFFFFF - ways:
                return -1
            e[0] += ways
            return 0 if e[0] >> WIDEN_BITS == 0 else 2
        low = e[0] + ways
        carry = low < ways
        if _past_128(e[self.W + 1], ways_hi, carry):
            return -1
        e[0] = low
        e[self.W + 1] += ways_hi + carry
        return 0

    cdef void _add(self, int g, const uint64_t *occ, uint64_t ways, uint64_t ways_hi) noexcept nogil:
        """Add ``ways`` (+ ``ways_hi * 2**64``) ways to reach board ``occ`` of ``g``
        filled cells, a board at a time (the first board; loading): a table more
        than half full is due to double. The sweep must be wide for ways past
        2**64 - 1."""
        cdef uint64_t h = _board_hash(occ, self.W)
        cdef int i = (g % self.L) * self.T + _shard(h, self.T), k
        if self.tab[i] == NULL:
            self.tab[i] = _table(self._bytes(self.first_bits))
            if self.tab[i] == NULL:
                self.oom = True
                return
            self.bits[i] = self.first_bits
            self.used[i] = 0
            self.size += self._bytes(self.first_bits)
            self.peak = max(self.peak, self.size)
        k = self._store(i, occ, h, ways, ways_hi)
        if k < 0:
            self.overflow = True
        else:
            self.used[i] += k & 1
            self.big |= k >> 1
        if 2 * self.used[i] > ((<long long> 1) << self.bits[i]):
            self.grow_due = i

    cdef bint _of_layer(self, const uint64_t *occ, long long g) noexcept nogil:
        """Whether board ``occ`` (loaded) has ``g`` cells filled and none past the
        region: a forged one would send the sweep past its cells (a board filled
        in full before the last layer has no empty cell to find)."""
        cdef int w
        cdef long long filled = 0
        for w in range(self.W):
            filled += _ones(occ[w])
        if self.n & 63 and occ[self.W - 1] >> (self.n & 63):
            return False
        return filled == g

    cdef long long _layer_used(self, int g) noexcept nogil:
        """Boards held in layer ``g``, all shards."""
        cdef int u
        cdef long long held = 0
        for u in range(self.T):
            held += self.used[(g % self.L) * self.T + u]
        return held

    cdef inline bint _shard_left(self, int t) noexcept nogil:
        """Whether shard ``t`` of the layer being swept has boards not come to."""
        cdef int i = (self.filled % self.L) * self.T + t
        return self.tab[i] != NULL and self.lanes[t].pos < ((<long long> 1) << self.bits[i])

    cdef bint _layer_left(self) noexcept nogil:
        """Whether the layer being swept has boards not come to."""
        cdef int t
        for t in range(self.T):
            if self._shard_left(t):
                return True
        return False

    cdef void _next_layer(self) noexcept nogil:
        cdef int t, i
        for t in range(self.T):
            i = (self.filled % self.L) * self.T + t
            if self.tab[i] != NULL:
                self.size -= self._bytes(self.bits[i])
                free(self.tab[i])
                self.tab[i] = NULL
            self.used[i] = 0
            self.lanes[t].pos = 0
        self.filled += 1
        self.layer_done = 0

    cdef bint _emit(self, Lane *lane, int g, const uint64_t *occ, uint64_t ways,
                    uint64_t ways_hi) noexcept nogil:
        """A thread found ``ways`` (+ ``ways_hi * 2**64``) more ways to board ``occ``
        of ``g`` cells: into its lane's buffer for the board's shard. False if the
        buffer cannot grow."""
        cdef uint64_t h = _board_hash(occ, self.W)
        cdef int u = _shard(h, self.T), i = (g % self.L) * self.T + u, w
        cdef long long cap
        cdef uint64_t *grown
        cdef uint64_t *r
        if lane.out_n[u] == lane.out_cap[u]:
            cap = max(1024, 2 * lane.out_cap[u])
            grown = <uint64_t *> realloc(lane.out[u], cap * self.rec * sizeof(uint64_t))
            if grown == NULL:
                return False
            lane.out[u] = grown
            lane.out_cap[u] = cap
        r = lane.out[u] + lane.out_n[u] * self.rec
        r[0] = h
        r[1] = i
        r[2] = ways
        for w in range(self.W):
            r[3 + w] = occ[w]
        if self.wide:
            r[3 + self.W] = ways_hi
        lane.out_n[u] += 1
        lane.pend[i] += 1
        return True

    cdef void _expand(self, TilingSearch s, int t, long long budget) noexcept nogil:
        """Phase one, thread ``t``: expand up to ``budget`` boards of shard ``t``
        of the layer being swept with search ``s``, the children to its lane."""
        cdef Lane *lane = &self.lanes[t]
        cdef int f = self.filled, i = (self.filled % self.L) * self.T + t, k, p, c, w
        cdef long long done = 0, moves = 0, slot = lane.pos, slots
        cdef uint64_t *e
        cdef uint64_t ways, ways_hi = 0, total = lane.total, total_hi = lane.total_hi, carry
        cdef int bad = 0
        if self.tab[i] == NULL:
            return
        slots = (<long long> 1) << self.bits[i]
        while slot < slots and done < budget:
            e = self.tab[i] + slot * self.stride
            slot += 1
            if self._empty(e):
                continue
            done += 1
            ways = e[0]
            if self.wide:
                ways_hi = e[self.W + 1]
            if f == self.n:
                total += ways
                carry = total < ways
                if _past_128(total_hi, ways_hi, carry):
                    bad |= 1
                total_hi += ways_hi + carry
                continue
            for w in range(self.W):
                s.occ[w] = e[1 + w]
            s.filled = f
            c = s._first_empty(0)
            for k in range(s.first_start[c], s.first_start[c + 1]):
                p = s.first_items[k]
                if s._fits(p):
                    s._place(p)
                    if s._area_ok(p):
                        moves += 1
                        if not self._emit(lane, s.filled, s.occ, ways, ways_hi):
                            bad |= 2
                    s._unplace(p)
        lane.pos = slot
        lane.done += done
        lane.moves += moves
        lane.total = total
        lane.total_hi = total_hi
        lane.bad |= bad

    cdef void _insert(self, int u) noexcept nogil:
        """Phase two, thread ``u``: store every thread's children of shard ``u``.
        New boards are counted in its lane, then in ``used`` once (the shards of
        a layer share a cache line there)."""
        cdef int t, j, g, stored, bad = 0
        cdef long long k, m
        cdef uint64_t *r
        cdef uint64_t *a
        cdef long long *added = self.lanes[u].added
        for t in range(self.T):
            r = self.lanes[t].out[u]
            m = self.lanes[t].out_n[u]
            for k in range(m):
                if k + AHEAD < m:
                    a = r + (k + AHEAD) * self.rec
                    j = <int> a[1]
                    pf_prefetch(self.tab[j] + (a[0] >> (64 - self.bits[j])) * self.stride)
                a = r + k * self.rec
                stored = self._store(<int> a[1], a + 3, a[0], a[2],
                                     a[3 + self.W] if self.wide else 0)
                if stored < 0:
                    bad |= 1
                else:
                    added[<int> a[1] // self.T] += stored & 1
                    bad |= (stored & 2) << 1  # 4: time to widen
        for g in range(self.L):
            self.used[g * self.T + u] += added[g]
            added[g] = 0
        self.lanes[u].bad |= bad

    cdef void _serve(self, TilingSearch s, int t) noexcept nogil:
        """Helper ``t``'s loop: the phases handed to it, until told to end."""
        cdef Lane *lane = &self.lanes[t]
        while True:
            PyThread_acquire_lock(self.go[t], WAIT_LOCK)
            if lane.phase == 1:
                self._expand(s, t, lane.budget)
            elif lane.phase == 2:
                self._insert(t)
            else:
                PyThread_release_lock(self.over[t])
                return
            PyThread_release_lock(self.over[t])

    cdef void _phase(self, int phase, long long left, int helpers) noexcept nogil:
        """Run a phase in this thread and ``helpers`` helpers (1: expand at most
        ``left`` boards in all, shared among the threads whose shard has some;
        2: store), and wait for them."""
        cdef int t, busy = 0, k = 0
        cdef Lane *lane
        for t in range(self.T):
            busy += self._shard_left(t)
        for t in range(self.T):
            lane = &self.lanes[t]
            lane.budget = 0
            if phase == 1 and self._shard_left(t):
                lane.budget = min(SWEEP_PHASE, left // busy + (1 if k < left % busy else 0))
                k += 1
        for t in range(1, helpers + 1):
            self.lanes[t].phase = phase
            PyThread_release_lock(self.go[t])
        if phase == 1:
            self._expand(self.s, 0, self.lanes[0].budget)
        else:
            self._insert(0)
        for t in range(1, helpers + 1):
            PyThread_acquire_lock(self.over[t], WAIT_LOCK)

    cdef void _end_helpers(self, int helpers) noexcept nogil:
        """Tell the ``helpers`` helpers to end, and wait until they have."""
        cdef int t
        for t in range(1, helpers + 1):
            self.lanes[t].phase = 0
            PyThread_release_lock(self.go[t])
        for t in range(1, helpers + 1):
            PyThread_acquire_lock(self.over[t], WAIT_LOCK)

    cdef void _clear_phase(self, bint undo) noexcept nogil:
        """Forget a phase's children and counts; ``undo``: also its progress."""
        cdef int t, u
        cdef Lane *lane
        for t in range(self.T):
            lane = &self.lanes[t]
            for u in range(self.T):
                lane.out_n[u] = 0
            memset(lane.pend, 0, self.L * self.T * sizeof(long long))
            if undo:
                lane.pos = lane.pos_before
            lane.done = 0
            lane.moves = 0
            lane.total = 0
            lane.total_hi = 0
            lane.bad = 0

    def run(self, long long states=1 << 16):
        """Sweep up to ``states`` boards; return whether the sweep is done."""
        cdef long long left = states, did
        cdef int t, bad, helpers = 0
        cdef uint64_t carry
        if states < 1:
            raise TilingError(f"states must be at least 1, not {states}")
        if self.overflow:  # some ways were lost: no count can come of it
            raise TilingError(_PAST_128 if self.wide else _PAST_64)
        try:
            if self.filled <= self.n:
                for t in range(1, self.T):
                    self.lanes[t].sweep = <void *> self
                    self.lanes[t].index = t
                    if (<unsigned long> PyThread_start_new_thread(_sweep_helper, &self.lanes[t])
                            == <unsigned long> -1):
                        raise TilingError("cannot start a thread for the sweep")
                    helpers += 1
            while left > 0 and self.filled <= self.n:
                if not self._layer_left():
                    self._next_layer()
                    continue
                for t in range(self.T):
                    self.lanes[t].pos_before = self.lanes[t].pos
                with nogil:
                    self._phase(1, left, helpers)
                bad = 0
                for t in range(self.T):
                    bad |= self.lanes[t].bad
                if bad & 2:
                    self._clear_phase(True)
                    raise MemoryError("no memory for the sweep")
                try:
                    _sweep_make_room(self)  # may double tables: signals are looked at there
                except BaseException:
                    self._clear_phase(True)
                    raise
                with nogil:
                    self._phase(2, 0, helpers)
                did = 0
                for t in range(self.T):
                    did += self.lanes[t].done
                    self.moves += self.lanes[t].moves
                    bad |= self.lanes[t].bad
                    self.total += self.lanes[t].total
                    carry = self.total < self.lanes[t].total
                    if _past_128(self.total_hi, self.lanes[t].total_hi, carry):
                        bad |= 1
                    self.total_hi += self.lanes[t].total_hi + carry
                self.states += did
                self.layer_done += did
                left -= did
                self._clear_phase(False)
                if bad & 1:
                    self.overflow = True
                    raise TilingError(_PAST_128 if self.wide else _PAST_64)
                if bad & 4 and not self.wide:
                    _sweep_widen(self)
                if not self._layer_left():
                    self._next_layer()
        finally:
            with nogil:
                self._end_helpers(helpers)
        return self.filled > self.n

    @property
    def done(self):
        return self.filled > self.n

    @property
    def count(self):
        """The number of tilings, once the sweep is done."""
        if self.filled <= self.n:
            raise TilingError("the sweep is not done")
        return int(self.total) | int(self.total_hi) << 64

    @property
    def live(self):
        """Boards held now (the rest of the layer being swept and those after it)."""
        cdef int i
        cdef long long held = 0
        for i in range(self.L * self.T):
            held += self.used[i]
        return held - self.layer_done if self.filled <= self.n else 0

    @property
    def fraction(self):
        """An estimate of the share of the sweep done; see the twin."""
        cdef int g, at = self.filled
        cdef long long now
        cdef double left
        if self.filled > self.n:
            return 1.0
        while at < min(self.n, self.filled + self.L - 1) and self._layer_used(at) == 0:
            at += 1
        now = self._layer_used(at)
        left = now - (self.layer_done if at == self.filled else 0)
        for g in range(at + 1, self.n + 1):
            if (g - at) % self.gcd == 0:
                left += max(now * _shrink(self.n - g, self.n - at, self.tail),
                            self._layer_used(g) if g - self.filled < self.L else 0)
        return self.states / (self.states + left) if self.states + left > 0 else 0.0

    def save(self, out):
        """Write what is left of the sweep to the binary file ``out`` (format: the twin's)."""
        _sweep_save(self, out)

    def load(self, inp):
        """Take up a sweep :meth:`save` wrote (of this search from the same prefix);
        a wide save widens this sweep."""
        _sweep_load(self, inp)
