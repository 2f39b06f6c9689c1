# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled Redelmeier search: the fast twin of :mod:`polyforms.redelmeier`.

The lattice is a bounded box of cells numbered ``0 .. ncells-1`` around the
origin, wide enough that no polyform of size ``n`` grown from the origin (nor
any neighbour of one) reaches its edge. A neighbour is ``cell + offset`` with
offsets ``+1, +W, (+W*W), -1, -W, (-W*W)`` in that order, the same order as
the reference. ``seen`` is one byte per cell: cells that may never join (those
before the origin) are marked once at the start, so the inner loop tests one
byte and needs no bounds check.

The untried sets of all levels share one array: a level owns
``untried[lo:hi]`` and takes its cells in turn; taking ``untried[i]`` it
appends the fresh neighbours at ``hi..e`` and the child owns
``untried[i+1:e]``. A child only ever appends, so nothing is copied, and on
the way back the fresh cells are still at ``hi..e`` to be unmarked.

Two searches share that state:

* ``count_prefix`` / ``count_levels``: recursion without the GIL; the last
  level adds the size of the untried set, and the level before it adds, for
  each taken cell, what is left plus its fresh neighbours, without pushing.
* ``_Search._fill``: the same tree walked with an explicit stack so that it can
  stop when its output buffer is full and resume later; it writes each
  accepted polyform as ``n`` sorted packed cells (see ``_Search._accept``).
(Symmetric polyforms, for Burnside's lemma, have their own kernel:
:mod:`polyforms._core._symmetric`.)
"""

from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.list cimport PyList_GET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

from polyforms.errors import PolyformError

cdef enum:
    MAXOFF = 6           # neighbours of a cell in 3D
    KIND_FIXED = 0
    KIND_ONE_SIDED = 1
    KIND_FREE = 2

_KINDS = {"fixed": 0, "one-sided": 1, "free": 2}


cdef extern from *:
    int _ctz "__builtin_ctzll" (unsigned long long) nogil


cdef unsigned char _BYTE_REVERSED[256]
for _b in range(256):
    _BYTE_REVERSED[_b] = int(f"{_b:08b}"[::-1], 2)


cdef inline uint64_t _reverse(uint64_t v, int bits) noexcept nogil:
    """The lowest ``bits`` (at most 32) bits of ``v`` in reverse order."""
    cdef uint64_t r = ((<uint64_t> _BYTE_REVERSED[v & 255]) << 24
                       | (<uint64_t> _BYTE_REVERSED[(v >> 8) & 255]) << 16
                       | (<uint64_t> _BYTE_REVERSED[(v >> 16) & 255]) << 8
                       | (<uint64_t> _BYTE_REVERSED[(v >> 24) & 255]))
    return r >> (32 - bits)


cdef class _Search:
    """Lattice, marks and untried stack of one search from a prefix."""

    cdef int n, dim, noff, margin, width, ncells, kind, base, ntransforms
    cdef int offs[MAXOFF]
    cdef unsigned char* seen
    cdef int* untried
    cdef int* poly
    cdef int* coord          # coord[cell * 3 + axis], relative to the origin
    cdef int* cur            # walker: next untried index per level
    cdef int* hi             # walker: end of the untried set per level
    cdef int level
    cdef bint done
    cdef int* keys           # scratch for canonical checks, 2 * n
    # 2D with n <= 32: the polyform as bit masks, kept up to date as cells come
    # and go. Column X = x + n - 1 >= 0; colmask[X] has bit y per cell,
    # rowmask[y] bit X. span[3 * (lvl + 1)] = (min X, max X, max y) of the
    # cells at levels <= lvl (the origin's row y = 0 is always the lowest).
    cdef bint masks
    cdef uint64_t* colmask
    cdef uint64_t* rowmask
    cdef int* span
    cdef int* transforms     # 3D: (perm[3], signs[3]) per non-identity element

    def __cinit__(self):
        self.seen = NULL
        self.untried = NULL
        self.poly = NULL
        self.coord = NULL
        self.cur = NULL
        self.hi = NULL
        self.keys = NULL
        self.transforms = NULL
        self.colmask = NULL
        self.rowmask = NULL
        self.span = NULL

    def __dealloc__(self):
        free(self.seen)
        free(self.untried)
        free(self.poly)
        free(self.coord)
        free(self.cur)
        free(self.hi)
        free(self.keys)
        free(self.transforms)
        free(self.colmask)
        free(self.rowmask)
        free(self.span)

    def __init__(self, int n, int dim, str kind, cells, untried):
        cdef int i, x, y, z, c, k, nb
        if dim != 2 and dim != 3:
            raise PolyformError(f"dimension must be 2 or 3, not {dim}")
        if n < 1:
            raise PolyformError(f"size must be at least 1, not {n}")
        if kind not in _KINDS:
            raise PolyformError(f"unknown kind {kind!r}")
        if kind != "fixed" and dim == 2 and n > 32:
            raise PolyformError("the compiled canonical check handles at most 32 cells")
        self.n = n
        self.dim = dim
        self.kind = _KINDS[kind]
        self.noff = 2 * dim
        self.margin = n + 1
        self.width = 2 * self.margin + 1
        cdef int w = self.width, m = self.margin
        if dim == 2:
            self.ncells = w * (m + 2)
            self.offs[0] = 1; self.offs[1] = w; self.offs[2] = -1; self.offs[3] = -w
        else:
            self.ncells = w * w * (m + 2)
            self.offs[0] = 1; self.offs[1] = w; self.offs[2] = w * w
            self.offs[3] = -1; self.offs[4] = -w; self.offs[5] = -w * w
        self.seen = <unsigned char*> calloc(self.ncells, 1)
        self.coord = <int*> malloc(self.ncells * 3 * sizeof(int))
        self.untried = <int*> malloc((self.noff * (n + 2) + 8) * sizeof(int))
        self.poly = <int*> malloc((n + 1) * sizeof(int))
        self.cur = <int*> calloc(n + 2, sizeof(int))
        self.hi = <int*> calloc(n + 2, sizeof(int))
        self.keys = <int*> malloc(2 * (n + 1) * sizeof(int))
        if (self.seen == NULL or self.coord == NULL or self.untried == NULL or self.poly == NULL
                or self.cur == NULL or self.hi == NULL or self.keys == NULL):
            raise MemoryError()
        # coordinates of every cell; cells before the origin are marked seen for good
        for c in range(self.ncells):
            if dim == 2:
                x = c % w - m
                y = c // w - 1
                z = 0
            else:
                x = c % w - m
                y = (c // w) % w - m
                z = c // (w * w) - 1
            self.coord[3 * c] = x
            self.coord[3 * c + 1] = y
            self.coord[3 * c + 2] = z
            if not (z > 0 or (z == 0 and (y > 0 or (y == 0 and x >= 0)))):
                self.seen[c] = 1
        self.seen[self._index((0,) * dim)] = 1
        self.base = len(cells)
        if self.base >= n:
            raise PolyformError(f"a prefix must have fewer than {n} cells")
        for i, cell in enumerate(cells):
            c = self._index(cell)
            self.poly[i] = c
            for k in range(self.noff):
                nb = c + self.offs[k]
                self.seen[nb] = 1
        self.cur[self.base] = 0
        self.hi[self.base] = len(untried)
        if len(untried) > self.noff * (n + 1):
            raise PolyformError("untried set too large for the prefix")
        for i, cell in enumerate(untried):
            self.untried[i] = self._index(cell)
        self.level = self.base
        self.done = False
        self.masks = dim == 2 and n <= 32
        self.colmask = <uint64_t*> calloc(2 * n + 2, sizeof(uint64_t))
        self.rowmask = <uint64_t*> calloc(n + 2, sizeof(uint64_t))
        self.span = <int*> malloc(3 * (n + 2) * sizeof(int))
        if self.colmask == NULL or self.rowmask == NULL or self.span == NULL:
            raise MemoryError()
        self.span[0] = 1 << 20
        self.span[1] = -(1 << 20)
        self.span[2] = 0
        if self.masks:
            for i in range(self.base):
                self._place(i)
        if dim == 3 and self.kind != KIND_FIXED:
            self._set_transforms()
        else:
            self.ntransforms = 0

    cdef int _index(self, cell) except -1:
        if len(cell) != self.dim:
            raise PolyformError(f"cell {cell!r} is not {self.dim}-dimensional")
        cdef int m = self.margin, w = self.width
        cdef int x = cell[0], y = cell[1], z = cell[2] if self.dim == 3 else 0
        lo = -(self.n - 1)
        hi = self.n - 1
        if not (lo <= x <= hi and lo <= y <= hi and lo <= z <= hi) or (self.dim == 2 and y < 0) or z < 0:
            raise PolyformError(f"cell {cell!r} cannot belong to a polyform of size {self.n}")
        if self.dim == 2:
            return (y + 1) * w + x + m
        return ((z + 1) * w + y + m) * w + x + m

    cdef void _set_transforms(self):
        from itertools import permutations, product
        elements = []
        for perm in permutations(range(3)):
            inversions = sum(1 for i in range(3) for j in range(i) if perm[j] > perm[i])
            for signs in product((1, -1), repeat=3):
                det = (-1) ** inversions * signs[0] * signs[1] * signs[2]
                if perm == (0, 1, 2) and signs == (1, 1, 1):
                    continue
                if self.kind == KIND_ONE_SIDED and det != 1:
                    continue
                elements.append(perm + signs)
        self.ntransforms = len(elements)
        self.transforms = <int*> malloc(6 * len(elements) * sizeof(int))
        for i, element in enumerate(elements):
            for k in range(6):
                self.transforms[6 * i + k] = element[k]

    # ------------------------------------------------------------ counting

    cdef inline int64_t _last_two(self, int lo, int hi) noexcept nogil:
        """Polyforms of size n through a node of size n-2 with untried[lo:hi].

        Taking ``untried[i]`` completes one polyform per cell after it (in
        all ``k(k-1)/2``) and one per fresh neighbour of the taken cell.
        """
        cdef int64_t k = hi - lo
        cdef int64_t total = k * (k - 1) // 2 + k * self.noff
        cdef int i, c
        cdef unsigned char* seen = self.seen
        cdef int* untried = self.untried
        cdef int o0 = self.offs[0], o1 = self.offs[1], o2 = self.offs[2], o3 = self.offs[3]
        cdef int o4 = self.offs[4 % self.noff], o5 = self.offs[5 % self.noff]
        if self.noff == 4:
            for i in range(lo, hi):
                c = untried[i]
                total -= seen[c + o0] + seen[c + o1] + seen[c + o2] + seen[c + o3]
        else:
            for i in range(lo, hi):
                c = untried[i]
                total -= (seen[c + o0] + seen[c + o1] + seen[c + o2] + seen[c + o3]
                          + seen[c + o4] + seen[c + o5])
        return total

    cdef int64_t _count(self, int size, int lo, int hi) noexcept nogil:
        """Fixed polyforms of size n below the node with ``size`` cells, untried[lo:hi]."""
        cdef int64_t total = 0
        cdef int i, c, nb, k, e, j
        cdef unsigned char* seen = self.seen
        cdef int* untried = self.untried
        if size == self.n - 1:
            return hi - lo
        if size == self.n - 2:
            return self._last_two(lo, hi)
        cdef int noff = self.noff
        cdef int* offs = self.offs
        for i in range(lo, hi):
            c = untried[i]
            e = hi
            for k in range(noff):
                nb = c + offs[k]
                # branch-free push: write always, advance only when fresh
                untried[e] = nb
                e += 1 - seen[nb]
                seen[nb] = 1
            if size + 1 == self.n - 2:
                total += self._last_two(i + 1, e)
            else:
                total += self._count(size + 1, i + 1, e)
            for j in range(hi, e):
                seen[untried[j]] = 0
        return total

    cdef void _count_levels(self, int size, int lo, int hi, int64_t* counts) noexcept nogil:
        """Add the fixed polyforms of every size from ``size + 1`` to n below this node."""
        cdef int i, c, nb, k, e, j
        cdef unsigned char* seen = self.seen
        cdef int* untried = self.untried
        if size == self.n - 1:
            counts[size + 1] += hi - lo
            return
        for i in range(lo, hi):
            c = untried[i]
            counts[size + 1] += 1
            e = hi
            for k in range(self.noff):
                nb = c + self.offs[k]
                if not seen[nb]:
                    seen[nb] = 1
                    untried[e] = nb
                    e += 1
            self._count_levels(size + 1, i + 1, e, counts)
            for j in range(hi, e):
                seen[untried[j]] = 0

    # ------------------------------------------------------------ walking

    cdef int _fill(self, int* out, int capacity) noexcept nogil:
        """Walk on from where the last call stopped; write up to ``capacity`` polyforms.

        Level ``l`` owns ``untried[cur[l]:hi[l]]``. Returns the number written
        (with ``out == NULL``: the number accepted, without a limit). Sets
        ``done`` at the end of the subtree.
        """
        cdef int written = 0, lvl, i, c, nb, k, e, j
        cdef bint accepted
        cdef int n = self.n
        cdef unsigned char* seen = self.seen
        cdef int* untried = self.untried
        while True:
            lvl = self.level
            if self.cur[lvl] == self.hi[lvl]:
                if lvl == self.base:
                    self.done = True
                    return written
                lvl -= 1
                self.level = lvl
                for j in range(self.hi[lvl], self.hi[lvl + 1]):
                    seen[untried[j]] = 0
                if self.masks:
                    self._unplace(lvl)
                continue
            i = self.cur[lvl]
            self.cur[lvl] = i + 1
            c = untried[i]
            self.poly[lvl] = c
            if self.masks:
                self._place(lvl)
            if lvl + 1 == n:
                accepted = self._accept(out + written * n if out != NULL else NULL)
                if self.masks:
                    self._unplace(lvl)
                if accepted:
                    written += 1
                    if out != NULL and written == capacity:
                        return written
                continue
            e = self.hi[lvl]
            for k in range(self.noff):
                nb = c + self.offs[k]
                if not seen[nb]:
                    seen[nb] = 1
                    untried[e] = nb
                    e += 1
            self.level = lvl + 1
            self.cur[lvl + 1] = i + 1
            self.hi[lvl + 1] = e

    cdef inline void _place(self, int lvl) noexcept nogil:
        """Add ``poly[lvl]`` to the masks and extend the span of level ``lvl``."""
        cdef int* cd = self.coord + 3 * self.poly[lvl]
        cdef int X = cd[0] + self.n - 1, y = cd[1]
        cdef int* before = self.span + 3 * lvl
        cdef int* after = before + 3
        self.colmask[X] |= (<uint64_t> 1) << y
        self.rowmask[y] |= (<uint64_t> 1) << X
        after[0] = X if X < before[0] else before[0]
        after[1] = X if X > before[1] else before[1]
        after[2] = y if y > before[2] else before[2]

    cdef inline void _unplace(self, int lvl) noexcept nogil:
        cdef int* cd = self.coord + 3 * self.poly[lvl]
        cdef int X = cd[0] + self.n - 1, y = cd[1]
        self.colmask[X] &= ~((<uint64_t> 1) << y)
        self.rowmask[y] &= ~((<uint64_t> 1) << X)

    cdef bint _accept(self, int* out) noexcept nogil:
        """Canonical check of ``poly``; write its sorted packed cells to ``out`` if kept.

        A cell of the normalised polyform is packed as ``x*n + y`` (2D) or
        ``(x*n + y)*n + z`` (3D), so ascending packed order is tuple order.
        """
        cdef int n = self.n, i, j, key, a, c, w, lowX
        cdef int lo[3]
        cdef int* keys = self.keys
        cdef int* cd
        cdef int* sp
        cdef uint64_t m
        if self.masks:
            if self.kind != KIND_FIXED and not self._least2():
                return False
            if out == NULL:
                return True
            # column by column, each from its lowest cell: already sorted
            sp = self.span + 3 * n
            lowX = sp[0]
            w = sp[1] - lowX + 1
            j = 0
            for c in range(w):
                m = self.colmask[lowX + c]
                while m:
                    out[j] = c * n + _ctz(m)
                    j += 1
                    m &= m - 1
            return True
        lo[0] = lo[1] = lo[2] = 1 << 20
        for i in range(n):
            cd = self.coord + 3 * self.poly[i]
            for a in range(3):
                if cd[a] < lo[a]:
                    lo[a] = cd[a]
        if self.kind != KIND_FIXED and not self._least3(lo):
            return False
        if out == NULL:
            return True
        for i in range(n):
            cd = self.coord + 3 * self.poly[i]
            if self.dim == 2:
                key = (cd[0] - lo[0]) * n + (cd[1] - lo[1])
            else:
                key = ((cd[0] - lo[0]) * n + (cd[1] - lo[1])) * n + (cd[2] - lo[2])
            j = i
            while j > 0 and keys[j - 1] > key:
                keys[j] = keys[j - 1]
                j -= 1
            keys[j] = key
        for i in range(n):
            out[i] = keys[i]
        return True

    cdef bint _least2(self) noexcept nogil:
        """Is the polyform the least of its images under the kind's group (2D)?

        Sets of cells of equal size compare in sorted-tuple order by the least
        cell of their symmetric difference: whichever set holds it is smaller.
        Cells are ordered by column first, so compare column by column; a
        column is a bit mask over y, and the lowest differing bit decides.
        Every image's column ``c`` is a column or a row of the polyform, read
        from either end, its bits maybe reversed; usually the first column
        already decides.
        """
        cdef int* sp = self.span + 3 * self.n
        cdef int lowX = sp[0], w = sp[1] - sp[0] + 1, h = sp[2] + 1
        cdef uint64_t* colmask = self.colmask
        cdef uint64_t* rowmask = self.rowmask
        cdef uint64_t a, b, d
        cdef int t, c, limit
        # images of (x, y), w x h normalised:
        #   1 (w-1-x, y)   2 (x, h-1-y)   3 (w-1-x, h-1-y) half turn
        #   4 (y, x)       5 (h-1-y, x) quarter turn   6 (y, w-1-x) three quarters
        #   7 (h-1-y, w-1-x)
        for t in range(1, 8):
            if self.kind == KIND_ONE_SIDED and not (t == 3 or t == 5 or t == 6):
                continue
            limit = w if (t <= 3 or h > w) else h
            for c in range(limit):
                a = colmask[lowX + c]
                if t == 1:
                    b = colmask[lowX + w - 1 - c]
                elif t == 2:
                    b = _reverse(colmask[lowX + c], h)
                elif t == 3:
                    b = _reverse(colmask[lowX + w - 1 - c], h)
                elif t == 4:
                    b = rowmask[c] >> lowX
                elif t == 5:
                    b = rowmask[h - 1 - c] >> lowX
                elif t == 6:
                    b = _reverse(rowmask[c] >> lowX, w)
                else:
                    b = _reverse(rowmask[h - 1 - c] >> lowX, w)
                if a != b:
                    d = a ^ b
                    if d & (~d + 1) & a:
                        break        # this image is larger
                    return False     # this image is smaller
        return True

    cdef bint _least3(self, int* lo) noexcept nogil:
        """Is the polyform the least of its images under the kind's group (3D)?"""
        cdef int n = self.n, i, j, t, a, key, p
        cdef int* mine = self.keys
        cdef int* theirs = self.keys + n
        cdef int* cd
        cdef int* tr
        cdef int v[3]
        cdef int low[3]
        for i in range(n):
            cd = self.coord + 3 * self.poly[i]
            key = ((cd[0] - lo[0]) * n + (cd[1] - lo[1])) * n + (cd[2] - lo[2])
            j = i
            while j > 0 and mine[j - 1] > key:
                mine[j] = mine[j - 1]
                j -= 1
            mine[j] = key
        for t in range(self.ntransforms):
            tr = self.transforms + 6 * t
            low[0] = low[1] = low[2] = 1 << 20
            for i in range(n):
                cd = self.coord + 3 * self.poly[i]
                for a in range(3):
                    p = tr[3 + a] * cd[tr[a]]
                    if p < low[a]:
                        low[a] = p
            for i in range(n):
                cd = self.coord + 3 * self.poly[i]
                for a in range(3):
                    v[a] = tr[3 + a] * cd[tr[a]] - low[a]
                key = (v[0] * n + v[1]) * n + v[2]
                j = i
                while j > 0 and theirs[j - 1] > key:
                    theirs[j] = theirs[j - 1]
                    j -= 1
                theirs[j] = key
            for i in range(n):
                if mine[i] != theirs[i]:
                    if theirs[i] < mine[i]:
                        return False
                    break
        return True


def count_prefix(int n, int dim, str kind, cells, untried):
    """Count the polyforms of size ``n`` of a kind below a prefix (cells, untried)."""
    cdef _Search search = _Search(n, dim, kind, cells, untried)
    cdef int64_t total
    cdef int hi = search.hi[search.base]
    cdef int size = search.base
    if search.kind == KIND_FIXED:
        with nogil:
            total = search._count(size, 0, hi)
        return total
    with nogil:
        total = search._fill(NULL, 0)
    return total


def count_levels(int n, int dim):
    """Fixed polyforms of every size 1..n from one search from the origin."""
    cdef _Search search = _Search(n, dim, "fixed", (), ((0,) * dim,))
    cdef int64_t* counts = <int64_t*> calloc(n + 2, sizeof(int64_t))
    if counts == NULL:
        raise MemoryError()
    try:
        with nogil:
            search._count_levels(0, 0, 1, counts)
        return [counts[size] for size in range(1, n + 1)]
    finally:
        free(counts)


def _cell_table(int n, int dim):
    """Cells by packed number: ``x*n + y`` in 2D, ``(x*n + y)*n + z`` in 3D."""
    if dim == 2:
        return [(x, y) for x in range(n) for y in range(n)]
    return [(x, y, z) for x in range(n) for y in range(n) for z in range(n)]


cdef list _forms(list table, int n, int count, const int* keys):
    """``count`` polyforms of ``n`` packed cells each, as tuples of cell tuples."""
    cdef list forms = []
    cdef int f, i
    cdef object cell
    for f in range(count):
        form = PyTuple_New(n)
        for i in range(n):
            cell = <object> PyList_GET_ITEM(table, keys[f * n + i])
            Py_INCREF(cell)  # PyTuple_SET_ITEM steals a reference
            PyTuple_SET_ITEM(form, i, cell)
        forms.append(form)
    return forms


cdef bytes _coordinates(int n, int dim, int count, const int* keys):
    """Packed cells as ``dim`` signed bytes each (the format of ``catalogue.format_packed``)."""
    cdef bytes out = PyBytes_FromStringAndSize(NULL, count * n * dim)
    cdef char* raw = out
    cdef int i, key
    for i in range(count * n):
        key = keys[i]
        if dim == 2:
            raw[2 * i] = <char> (key // n)
            raw[2 * i + 1] = <char> (key % n)
        else:
            raw[3 * i] = <char> (key // (n * n))
            raw[3 * i + 1] = <char> ((key // n) % n)
            raw[3 * i + 2] = <char> (key % n)
    return out


def _chunks(int n, int dim, str kind, cells, untried, int chunk, bint packed):
    """The one walk behind ``iter_chunks`` and ``iter_packed``.

    The search fills a buffer of ``chunk`` polyforms (cell numbers) without the
    GIL; each full buffer is then converted in one pass, to bytes when
    ``packed`` and to tuples of cell tuples otherwise.
    """
    cdef _Search search = _Search(n, dim, kind, cells, untried)
    cdef int got
    cdef int[::1] buffer
    from array import array

    cdef list table = None if packed else _cell_table(n, dim)
    store = array("i", bytes(4 * n * chunk))
    buffer = store
    while not search.done:
        with nogil:
            got = search._fill(&buffer[0], chunk)
        if got:
            if packed:
                yield _coordinates(n, dim, got, &buffer[0])
            else:
                yield _forms(table, n, got, &buffer[0])


def iter_chunks(int n, int dim, str kind, cells, untried, int chunk=16384):
    """Yield lists of polyforms (sorted cell tuples) below a prefix, in search order."""
    yield from _chunks(n, dim, kind, cells, untried, chunk, False)


def iter_packed(int n, int dim, str kind, cells, untried, int chunk=16384):
    """Like ``iter_chunks``, but each chunk as bytes: ``dim`` signed bytes per cell."""
    if n > 127:
        raise PolyformError("packed cells are signed bytes: at most 127 cells")
    yield from _chunks(n, dim, kind, cells, untried, chunk, True)


def unpack(int n, int dim, const unsigned char[::1] packed):
    """Polyforms (sorted cell tuples) from packed cells, ``dim`` bytes per cell."""
    cdef list table = _cell_table(n, dim)
    cdef Py_ssize_t cells = packed.shape[0] // dim, i
    cdef int count = cells // n
    from array import array

    keys = array("i", bytes(4 * cells + 4))
    cdef int[::1] wide = keys
    for i in range(cells):
        if dim == 2:
            wide[i] = packed[2 * i] * n + packed[2 * i + 1]
        else:
            wide[i] = (packed[3 * i] * n + packed[3 * i + 1]) * n + packed[3 * i + 2]
    return _forms(table, n, count, &wide[0])


def pack_prefix(int n, int dim, str kind, cells, untried):
    """All polyforms below a prefix as packed cells, ``dim`` signed bytes per cell.

    For subtasks run in other processes: bytes cross the process boundary
    far more cheaply than tuples.
    """
    cdef _Search search = _Search(n, dim, kind, cells, untried)
    cdef int chunk = 1024, got
    cdef int* buffer
    if n > 127:
        raise PolyformError("packed cells are signed bytes: at most 127 cells")
    buffer = <int*> malloc(chunk * n * sizeof(int))
    if buffer == NULL:
        raise MemoryError()
    parts = []
    try:
        while not search.done:
            with nogil:
                got = search._fill(buffer, chunk)
            if got:
                parts.append(_coordinates(n, dim, got, buffer))
        return b"".join(parts)
    finally:
        free(buffer)
