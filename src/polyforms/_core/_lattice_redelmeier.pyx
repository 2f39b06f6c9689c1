# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Redelmeier search on a neighbour table (triangles, hexagons).

Same functions, arguments and results as the readable twin
:mod:`polyforms.enumeration._lattice_redelmeier_py`, which explains the
search; this core keeps one untried array for every level and walks the
tree without recursion, so :class:`FixedWalk` can stop at a full chunk and
resume.
"""

from libc.stdlib cimport free, malloc

__all__ = ["count_fixed", "count_invariant", "keep_canonical", "FixedWalk"]


cdef int* _table(object values) except NULL:
    cdef Py_ssize_t i, size = len(values)
    cdef int* table = <int*>malloc((size + 1) * sizeof(int))
    if table == NULL:
        raise MemoryError()
    for i in range(size):
        table[i] = values[i]
    return table


cdef enum:              # the fields of a board byte (see FixedWalk)
    SEEN = 0x80
    LATER = 0x40
    UNTRIED = 0x38
    UNTRIED_ONE = 0x08
    NEAR = 0x07
    NEAR_ONE = 0x01


cdef class FixedWalk:
    """The connected sets of ``n`` cells whose least cell is ``root``, in search order.

    ``cells`` and ``untried`` start the walk at a node of the tree (a prefix:
    its cells in the order added, the first the root, and its untried set);
    it then lists the sets below that node only.

    The state of the walk, level ``d`` holding the path's ``d``-th cell:
    ``untried[first[d]:end[d]]`` are the cells level ``d`` tries, ``next[d]``
    the next one, ``fresh[d]`` how many cells its current choice appended
    (after ``end[d]``) and marked seen. Levels below ``base`` are the prefix's.

    The board holds one byte a cell (``size`` is a sentinel that is always
    seen):

    * bit 7, ``SEEN``: the cell was appended to an untried set on the path,
      or may never join (it is the root or comes before it);
    * bits 0-2, ``NEAR``: how many of its neighbours are seen or missing
      from the table, kept up to date each time a cell is seen or unseen;
    * bits 3-5, ``UNTRIED``: while a node three cells short of ``n`` counts
      its subtree, how many of its neighbours are untried there (else 0).

    So a free cell knows its free neighbours, ``degree - NEAR``, from the
    byte that says it is free: the terms of the three-level count of the twin
    (``C(L, 3) + (L - 1) D + sum_a (C(d_a, 2) - 2 t_a) + sum_f (u_f e_f -
    C(u_f, 2))``) are look-ups of bytes. ``reads`` is the neighbour table
    with every cell that may never join replaced by the sentinel; ``tells``
    the same with them replaced by ``size + 1``, a byte that takes the
    updates and is never read. ``touching`` lists the pairs of neighbour
    slots ``(k, l)`` whose cells are neighbours (the hexagon's ring; none for
    triangles), which give ``t_a``.
    """

    cdef int n, degree, root, size, depth, base, pairs
    cdef int* reads
    cdef int* tells
    cdef int* touching
    cdef int* untried
    cdef int* path
    cdef int* first
    cdef int* end
    cdef int* next
    cdef int* fresh
    cdef unsigned char* board
    cdef signed char meet[256]
    cdef int slots             # cells within two steps of a cell (its ball)
    cdef int* ball             # ball[slots * c + s]: slot s of cell c, sentinel if it may never join
    cdef int slot_ring[40]     # slot_ring[2 * s + j]: the neighbours of slot s among the first ring
    cdef int slot_pairs[240]   # slot_pairs[12 * s + 2 * j + (0, 1)]: touching neighbours of slot s
    cdef bint started, over

    def __cinit__(
        self, int n, object neighbours, int degree, int root, object cells=None, object untried=None
    ):
        if not 0 < degree <= NEAR:
            raise ValueError(f"degree must be 1 to {NEAR}, not {degree}")
        self.n, self.degree, self.root = n, degree, root
        self.size = len(neighbours) // degree
        self.reads = _table(neighbours)
        self.tells = _table(neighbours)
        self.touching = <int*>malloc((degree * degree + 1) * sizeof(int))
        cdef int room = n * degree + 2 + (0 if untried is None else len(untried))
        self.untried = <int*>malloc(room * sizeof(int))
        self.path = <int*>malloc((n + 1) * sizeof(int))
        self.first = <int*>malloc((n + 1) * sizeof(int))
        self.end = <int*>malloc((n + 1) * sizeof(int))
        self.next = <int*>malloc((n + 1) * sizeof(int))
        self.fresh = <int*>malloc((n + 1) * sizeof(int))
        self.board = <unsigned char*>malloc(self.size + 2)
        if (self.untried == NULL or self.path == NULL or self.first == NULL or self.end == NULL
                or self.next == NULL or self.fresh == NULL or self.board == NULL
                or self.touching == NULL):
            raise MemoryError()
        cdef int i, k, near
        for i in range(self.size + 2):
            self.board[i] = SEEN if i <= root or i >= self.size else 0
        for k in range(self.size * degree):
            if self.reads[k] <= root:
                self.reads[k] = self.size
                self.tells[k] = self.size + 1
                self.board[k // degree] += NEAR_ONE
        for i in range(256):
            self.meet[i] = 0 if i & SEEN else 2 * (degree - (i & NEAR)) - ((i & UNTRIED) >> 3) + 1
        self._find_touching(neighbours)
        self._find_ball(neighbours)
        self.started = False
        self.over = False
        self.base = 1
        if cells is not None and len(cells) > 1:
            self._start_at(cells, untried)

    cdef void _find_touching(self, object neighbours):
        """The pairs of neighbour slots whose cells touch, read off a cell with all its
        neighbours in the table (the lattice looks the same from every cell)."""
        cdef int cell, k, l, m, a, b
        self.pairs = 0
        for cell in range(self.size):
            if all(near >= 0 for near in neighbours[cell * self.degree:(cell + 1) * self.degree]):
                break
        else:
            return
        for k in range(self.degree):
            for l in range(k + 1, self.degree):
                a = neighbours[cell * self.degree + k]
                b = neighbours[cell * self.degree + l]
                for m in range(self.degree):
                    if neighbours[a * self.degree + m] == b:
                        self.touching[2 * self.pairs] = k
                        self.touching[2 * self.pairs + 1] = l
                        self.pairs += 1
                        break

    cdef void _find_ball(self, object neighbours):
        """The ball of every cell: its ``degree`` neighbours (slot ``k``: neighbour ``k``),
        then the cells two steps away in a fixed order, laid out as around a cell
        whose ball lies in the table. For each slot, its neighbours among the first
        ring and the touching pairs of its neighbours within the ball (slot numbers;
        ``slots`` pads both: a slot that is never free)."""
        cdef int degree = self.degree, c, s, j
        size = self.size

        def around(cell):
            return [] if cell < 0 else list(neighbours[cell * degree:(cell + 1) * degree])

        centre = next(
            (cell for cell in range(size)
             if all(x >= 0 for a in around(cell) for b in around(a) for x in around(b))),
            None,
        )
        self.slots = 0
        # The slots of a ball are read off one cell, which fits a lattice whose cells all
        # look alike (hexagons). Triangles count three levels: the ball read off one
        # orientation gives wrong counts from the other (to be laid out per orientation).
        if centre is None or degree != 6:  # no four-level count
            self.ball = <int*>malloc(sizeof(int))
            return
        ring = around(centre)
        paths = {}  # cell two steps away -> the (k, m) that reach it
        for k, a in enumerate(ring):
            for m, b in enumerate(around(a)):
                if b != centre and b not in ring:
                    paths.setdefault(b, []).append((k, m))
        far = sorted(paths, key=lambda b: paths[b])
        layout = ring + far
        self.slots = len(layout)
        if self.slots > 19:
            raise ValueError("a ball of more than 19 cells")
        for s in range(2 * self.slots):
            self.slot_ring[s] = self.slots
        for s in range(12 * self.slots):
            self.slot_pairs[s] = self.slots
        for s, x in enumerate(layout):
            near = around(x)
            j = 0
            for k, a in enumerate(ring):
                if a in near:
                    self.slot_ring[2 * s + j] = k
                    j += 1
            j = 0
            inside = [layout.index(a) for a in near if a in layout]
            for k in range(len(inside)):
                for m in range(k + 1, len(inside)):
                    if layout[inside[m]] in around(layout[inside[k]]):
                        if j == 6:
                            raise ValueError("more than six touching pairs around a cell")
                        self.slot_pairs[12 * s + 2 * j] = inside[k]
                        self.slot_pairs[12 * s + 2 * j + 1] = inside[m]
                        j += 1
        self.ball = <int*>malloc((self.slots * size + 1) * sizeof(int))
        for c in range(size):
            for s in range(self.slots):
                x = -1
                if s < degree:
                    x = neighbours[c * degree + s]
                else:
                    for k, m in paths[far[s - degree]]:
                        a = neighbours[c * degree + k]
                        if a >= 0 and neighbours[a * degree + m] >= 0:
                            x = neighbours[a * degree + m]
                            break
                self.ball[c * self.slots + s] = x if x > self.root else size

    cdef void _start_at(self, object cells, object untried):
        """Start below the prefix ``cells`` (its first the root) with its untried set.

        What the path has seen is the root and every neighbour after it of the
        prefix's cells: each was appended when its neighbour joined.
        """
        cdef int i, k, near, d = len(cells)
        for i in range(d):
            self.path[i] = cells[i]
            for k in range(self.degree * self.path[i], self.degree * self.path[i] + self.degree):
                near = self.reads[k]
                if not self.board[near] & SEEN:
                    self._see(near)
        for i in range(len(untried)):
            self.untried[i] = untried[i]
        self.started = True
        self.base = self.depth = d
        self.first[d], self.end[d], self.next[d], self.fresh[d] = 0, len(untried), 0, 0

    def __dealloc__(self):
        free(self.reads)
        free(self.tells)
        free(self.touching)
        free(self.untried)
        free(self.path)
        free(self.first)
        free(self.end)
        free(self.next)
        free(self.fresh)
        free(self.board)
        free(self.ball)

    cdef inline void _see(self, int cell) noexcept:
        """Mark ``cell`` seen and tell its neighbours."""
        cdef int k
        self.board[cell] |= SEEN
        for k in range(self.degree * cell, self.degree * cell + self.degree):
            self.board[self.tells[k]] += NEAR_ONE

    cdef inline void _unsee(self, int cell) noexcept:
        cdef int k
        self.board[cell] &= ~SEEN
        for k in range(self.degree * cell, self.degree * cell + self.degree):
            self.board[self.tells[k]] -= NEAR_ONE

    cdef inline void _tell(self, int cell, unsigned char tell) noexcept:
        """Add ``tell`` to the bytes of the neighbours of ``cell`` (mod 256: a negative
        one takes it back)."""
        cdef int k
        for k in range(self.degree * cell, self.degree * cell + self.degree):
            self.board[self.tells[k]] += tell

    cdef inline int _append(self, int cell, int at) noexcept:
        """Append the unseen neighbours of ``cell`` after the root at ``untried[at:]``; how many."""
        cdef int k, near, added = 0
        for k in range(self.degree * cell, self.degree * cell + self.degree):
            near = self.reads[k]
            if not self.board[near] & SEEN:
                self._see(near)
                self.untried[at + added] = near
                added += 1
        return added

    cdef inline void _forget(self, int d) noexcept:
        cdef int k
        for k in range(self.end[d], self.end[d] + self.fresh[d]):
            self._unsee(self.untried[k])
        self.fresh[d] = 0

    cdef long long _last_three(self, int lo, int hi) noexcept:
        """The sets of ``n`` cells below a node three cells short with untried[lo:hi]:
        the twin's formula, ``u_f e_f - C(u_f, 2)`` gathered one (untried, free)
        neighbour pair at a time as ``e_f - (u_f - 1) / 2`` (``meet``)."""
        cdef long long length = hi - lo, near = 0, twice = 0
        cdef int i, k, a, free_near, degree = self.degree
        cdef unsigned char* board = self.board
        cdef int* reads
        for i in range(lo, hi):
            self._tell(self.untried[i], UNTRIED_ONE)
        for i in range(lo, hi):
            a = self.untried[i]
            reads = self.reads + degree * a
            free_near = degree - (board[a] & NEAR)
            near += free_near
            twice += free_near * (free_near - 1)
            for k in range(degree):
                twice += self.meet[board[reads[k]]]
            for k in range(self.pairs):  # t_a: touching free neighbours
                if not (board[reads[self.touching[2 * k]]] | board[reads[self.touching[2 * k + 1]]]) & SEEN:
                    twice -= 4
        for i in range(lo, hi):
            self._tell(self.untried[i], <unsigned char>-UNTRIED_ONE)
        return length * (length - 1) * (length - 2) // 6 + (length - 1) * near + twice // 2

    cdef long long _last_four(self, int lo, int hi) noexcept:
        """The sets of ``n`` cells below a node four cells short with untried[lo:hi].

        Child ``i`` takes ``c = untried[i]``; its untried set is the *later*
        cells ``untried[i+1:hi]`` and the fresh ones ``G``, the free neighbours of
        ``c``. Its count is the three-level formula, whose sums are kept for the
        later cells alone (``later_*``: walking the children backwards, each
        taken cell joins them after its own count, with its ``UNTRIED`` marks and
        ``LATER`` bit), corrected for the cells of the ball of ``c``, the only
        ones whose terms change:

        * a fresh cell ``g`` leaves the free cells (its ``u e - C(u, 2)`` goes)
          and joins the untried set with ``d = e`` less its fresh neighbours, and
          ``t`` the touching pairs of its neighbours that stay free;
        * a free cell next to ``k`` fresh cells: ``u`` grows by ``k``, ``e``
          drops by ``k``;
        * a later untried cell next to ``k`` fresh cells: ``d`` drops by ``k``,
          and ``t`` by its touching pairs of free neighbours one of them fresh.

        Every other term reads no fresh cell. A child costs a read of the bytes
        of its ball (18 cells for a hexagon, 9 for a triangle) and small sums.
        """
        cdef long long total = 0, later_near = 0, later_rest = 0, length, near, rest
        cdef int i, s, c, k, e, u, d, lost, kept, degree = self.degree, slots = self.slots
        cdef int fresh_count
        cdef unsigned char* board = self.board
        cdef int* ball
        cdef unsigned char byte[20]
        cdef unsigned char free[20]
        cdef unsigned char fresh[20]
        cdef int* pairs
        free[slots] = 0
        fresh[slots] = 0
        for i in range(hi - 1, lo - 1, -1):
            c = self.untried[i]
            ball = self.ball + slots * c
            fresh_count = 0
            for s in range(slots):
                byte[s] = board[ball[s]]
                free[s] = not (byte[s] & SEEN)
                fresh[s] = free[s] if s < degree else 0
                fresh_count += fresh[s]
            near = 0
            rest = 0
            for s in range(slots):
                k = fresh[self.slot_ring[2 * s]] + fresh[self.slot_ring[2 * s + 1]]
                pairs = self.slot_pairs + 12 * s
                if fresh[s]:
                    e = degree - (byte[s] & NEAR)
                    u = (byte[s] & UNTRIED) >> 3
                    rest -= u * e - u * (u - 1) // 2
                    d = e - k
                    kept = 0
                    for k in range(0, 12, 2):
                        kept += (free[pairs[k]] & ~fresh[pairs[k]] & free[pairs[k + 1]]
                                 & ~fresh[pairs[k + 1]])
                    near += d
                    rest += d * (d - 1) // 2 - 2 * kept
                elif k == 0:
                    continue
                elif free[s]:
                    e = degree - (byte[s] & NEAR)
                    u = (byte[s] & UNTRIED) >> 3
                    rest += ((u + k) * (e - k) - (u + k) * (u + k - 1) // 2
                             - u * e + u * (u - 1) // 2)
                elif byte[s] & LATER:
                    d = degree - (byte[s] & NEAR)
                    lost = 0
                    for e in range(0, 12, 2):
                        lost += (free[pairs[e]] & free[pairs[e + 1]]
                                 & (fresh[pairs[e]] | fresh[pairs[e + 1]]))
                    near -= k
                    rest += (d - k) * (d - k - 1) // 2 - d * (d - 1) // 2 + 2 * lost
            length = hi - 1 - i + fresh_count
            total += (length * (length - 1) * (length - 2) // 6 + (length - 1) * (later_near + near)
                      + later_rest + rest)
            # c joins the later untried cells of the next child (i - 1)
            d = degree - (board[c] & NEAR)
            later_near += d
            later_rest += d * (d - 1) // 2
            for k in range(self.pairs):
                later_rest -= 2 * (free[self.touching[2 * k]] & free[self.touching[2 * k + 1]])
            for s in range(degree):
                if free[s]:
                    later_rest += degree - (byte[s] & NEAR) - ((byte[s] & UNTRIED) >> 3)
            board[c] |= LATER
            self._tell(c, UNTRIED_ONE)
        for i in range(lo, hi):
            c = self.untried[i]
            board[c] &= ~LATER
            self._tell(c, <unsigned char>-UNTRIED_ONE)
        return total

    cdef long long _run(self, list found, long long limit, bint counting):
        """Walk on; list the sets in ``found`` (or count the last levels) until ``limit``."""
        cdef int n = self.n, d, cell, added, i, k, near
        cdef long long got = 0
        if not self.started:
            self.started = True
            self.path[0] = self.root
            if n == 1:
                self.over = True
                if not counting:
                    found.append(self.root)
                return 1
            added = self._append(self.root, 0)
            self.depth = 1
            self.first[1], self.end[1], self.next[1], self.fresh[1] = 0, added, 0, 0
        d = self.depth
        while d >= self.base and got < limit:
            if counting and d == n - 1:  # each untried cell completes one set
                got += self.end[d] - self.next[d]
                self.next[d] = self.end[d]
            elif counting and d == n - 2:
                # Each choice here has a child whose untried set is the cells after
                # it and its own free neighbours: their number is the child's count.
                for i in range(self.next[d], self.end[d]):
                    cell = self.untried[i]
                    got += self.end[d] - i - 1 + self.degree - (self.board[cell] & NEAR)
                self.next[d] = self.end[d]
            elif counting and d == n - 3:
                got += self._last_three(self.next[d], self.end[d])
                self.next[d] = self.end[d]
            elif counting and d == n - 4 and self.slots:
                got += self._last_four(self.next[d], self.end[d])
                self.next[d] = self.end[d]
            if self.next[d] == self.end[d]:  # this level is done: back to the one above
                d -= 1
                if d >= self.base:
                    self._forget(d)
                continue
            cell = self.untried[self.next[d]]
            self.next[d] += 1
            self.path[d] = cell
            if d == n - 1:  # a whole set: list it, stay on this level
                for i in range(n):
                    found.append(self.path[i])
                got += 1
                continue
            self._forget(d)
            added = self._append(cell, self.end[d])
            self.fresh[d] = added
            self.first[d + 1] = self.next[d]
            self.next[d + 1] = self.next[d]
            self.end[d + 1] = self.end[d] + added
            self.fresh[d + 1] = 0
            d += 1
        self.depth = d
        if d < self.base:
            self.over = True
        return got

    def fill(self, long long limit):
        """Up to ``limit`` more sets, as one flat list of cell numbers (empty: the walk is over)."""
        found = []
        if not self.over:
            self._run(found, limit, False)
        return found

    def count(self):
        """The number of sets the rest of the walk holds (counting the last three levels)."""
        cdef long long total = 0
        while not self.over:
            total += self._run(None, 1 << 62, True)
        return total


def count_fixed(int n, object neighbours, int degree, int root):
    """The number of connected sets of ``n`` cells whose least cell is ``root``."""
    return FixedWalk(n, neighbours, degree, root).count()


cdef struct _Invariant:
    int n, orbit_degree, orbit_width, cell_degree, root, cells
    int* orbit_neighbours
    int* weights
    int* orbit_cells
    int* cell_neighbours
    unsigned char* seen
    unsigned char* inside
    unsigned char* reached
    int* chosen
    int* untried
    int* stack
    long long total


cdef bint _connected(_Invariant* s, int orbits) noexcept:
    """Whether the cells of the chosen orbits are connected (a depth-first walk)."""
    cdef int i, k, cell, near, top = 0, reached = 0, start = -1
    for i in range(orbits):
        for k in range(s.orbit_width):
            cell = s.orbit_cells[s.chosen[i] * s.orbit_width + k]
            if cell >= 0:
                s.inside[cell] = 1
                start = cell
    s.reached[start] = 1
    s.stack[top] = start
    top = 1
    reached = 1
    while top:
        top -= 1
        cell = s.stack[top]
        for k in range(cell * s.cell_degree, (cell + 1) * s.cell_degree):
            near = s.cell_neighbours[k]
            if near >= 0 and s.inside[near] and not s.reached[near]:
                s.reached[near] = 1
                s.stack[top] = near
                top += 1
                reached += 1
    for i in range(orbits):
        for k in range(s.orbit_width):
            cell = s.orbit_cells[s.chosen[i] * s.orbit_width + k]
            if cell >= 0:
                s.inside[cell] = 0
                s.reached[cell] = 0
    return reached == s.n


cdef void _grow(_Invariant* s, int orbits, int weight, int first, int end) noexcept:
    cdef int i, k, orbit, near, added
    if weight == s.n:
        s.total += _connected(s, orbits)
        return
    for i in range(first, end):
        orbit = s.untried[i]
        if weight + s.weights[orbit] > s.n:
            continue
        s.chosen[orbits] = orbit
        added = 0
        for k in range(orbit * s.orbit_degree, (orbit + 1) * s.orbit_degree):
            near = s.orbit_neighbours[k]
            if near > s.root and not s.seen[near]:
                s.seen[near] = 1
                s.untried[end + added] = near
                added += 1
        _grow(s, orbits + 1, weight + s.weights[orbit], i + 1, end + added)
        for k in range(end, end + added):
            s.seen[s.untried[k]] = 0


def count_invariant(
    int n,
    object orbit_neighbours,
    int orbit_degree,
    object weights,
    int root,
    object orbit_cells,
    int orbit_width,
    object cell_neighbours,
    int cell_degree,
):
    """The number of sets of orbits, least orbit ``root``, whose cells are ``n`` and connected."""
    cdef _Invariant s
    cdef int i, k, near, added = 0, orbits = len(weights)
    cdef int cells = len(cell_neighbours) // cell_degree
    s.n, s.orbit_degree, s.orbit_width, s.cell_degree, s.root = (
        n, orbit_degree, orbit_width, cell_degree, root
    )
    s.total = 0
    s.orbit_neighbours = _table(orbit_neighbours)
    s.weights = _table(weights)
    s.orbit_cells = _table(orbit_cells)
    s.cell_neighbours = _table(cell_neighbours)
    s.seen = <unsigned char*>malloc(orbits + 1)
    s.inside = <unsigned char*>malloc(cells + 1)
    s.reached = <unsigned char*>malloc(cells + 1)
    s.chosen = <int*>malloc((n + 1) * sizeof(int))
    s.untried = <int*>malloc((n * orbit_degree + 2) * sizeof(int))
    s.stack = <int*>malloc((cells + 1) * sizeof(int))
    try:
        for i in range(orbits):
            s.seen[i] = 0
        for i in range(cells):
            s.inside[i] = 0
            s.reached[i] = 0
        if s.weights[root] <= n:
            s.seen[root] = 1
            s.chosen[0] = root
            for k in range(root * orbit_degree, (root + 1) * orbit_degree):
                near = s.orbit_neighbours[k]
                if near > root and not s.seen[near]:
                    s.seen[near] = 1
                    s.untried[added] = near
                    added += 1
            _grow(&s, 1, s.weights[root], 0, added)
        return s.total
    finally:
        free(s.orbit_neighbours)
        free(s.weights)
        free(s.orbit_cells)
        free(s.cell_neighbours)
        free(s.seen)
        free(s.inside)
        free(s.reached)
        free(s.chosen)
        free(s.untried)
        free(s.stack)


cdef inline long long _key(int u, int v, bint triangles) noexcept:
    """A cell's place in the order of its tuple, from its centre point (see ``keep_canonical``)."""
    cdef int t, x, y
    if not triangles:
        return (<long long>u << 20) + v
    t = ((u % 3) + 3) % 3 - 1
    x = (u - 1 - t) // 3
    y = (v - 1 - t) // 3
    return (((<long long>x << 20) + y) << 1) + t


cdef void _sorted_keys(int* us, int* vs, int n, bint triangles, long long* keys) noexcept:
    """The keys of the cells at centre points ``us, vs`` in normal position, sorted."""
    cdef int i, j, low_x, low_y, t, x, y
    cdef long long key
    low_x = low_y = 1 << 30
    for i in range(n):  # normal position: the least x (q) and y (r) at 0
        if triangles:
            t = ((us[i] % 3) + 3) % 3 - 1
            x = (us[i] - 1 - t) // 3
            y = (vs[i] - 1 - t) // 3
        else:
            x, y = us[i], vs[i]
        if x < low_x:
            low_x = x
        if y < low_y:
            low_y = y
    for i in range(n):
        if triangles:
            key = _key(us[i] - 3 * low_x, vs[i] - 3 * low_y, True)
        else:
            key = _key(us[i] - low_x, vs[i] - low_y, False)
        j = i
        while j > 0 and keys[j - 1] > key:  # insertion sort: n is small
            keys[j] = keys[j - 1]
            j -= 1
        keys[j] = key


def keep_canonical(object chunk, int n, object points, object matrices, bint triangles):
    """The sets of ``chunk`` (flat, ``n`` cell numbers a set) whose normal position is the
    least of its images under the ``matrices`` (flat, four a matrix, on centre points)."""
    cdef Py_ssize_t sets = len(chunk) // n, s
    cdef int i, m, k, u, v, elements = len(matrices) // 4
    cdef int* table = _table(points)
    cdef int* matrix = _table(matrices)
    cdef int* cells = _table(chunk)
    cdef int* us = <int*>malloc((n + 1) * sizeof(int))
    cdef int* vs = <int*>malloc((n + 1) * sizeof(int))
    cdef long long* base = <long long*>malloc((n + 1) * sizeof(long long))
    cdef long long* image = <long long*>malloc((n + 1) * sizeof(long long))
    cdef bint least
    kept = []
    try:
        for s in range(sets):
            for i in range(n):
                us[i] = table[2 * cells[s * n + i]]
                vs[i] = table[2 * cells[s * n + i] + 1]
            _sorted_keys(us, vs, n, triangles, base)
            least = True
            for m in range(elements):
                for i in range(n):
                    u = table[2 * cells[s * n + i]]
                    v = table[2 * cells[s * n + i] + 1]
                    us[i] = matrix[4 * m] * u + matrix[4 * m + 1] * v
                    vs[i] = matrix[4 * m + 2] * u + matrix[4 * m + 3] * v
                _sorted_keys(us, vs, n, triangles, image)
                for k in range(n):
                    if image[k] != base[k]:
                        if image[k] < base[k]:
                            least = False
                        break
                if not least:
                    break
            if least:
                for i in range(n):
                    kept.append(cells[s * n + i])
        return kept
    finally:
        free(table)
        free(matrix)
        free(cells)
        free(us)
        free(vs)
        free(base)
        free(image)
