# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled count of symmetric polyforms: the fast twin of :mod:`polyforms._symmetric_py`.

Redelmeier's search on the orbits of cells under one isometry ``h``, with the
connectivity of the union read from edge voltages; the method is explained in
the twin. Used by :mod:`polyforms._burnside` for the terms of Burnside's lemma.
"""

from libc.stdint cimport int64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

import itertools

__all__ = ["count_invariant", "count_mirror"]

cdef enum:
    SEEN = 4  # the bit of a cell byte saying it was ever put in the untried set


cdef class _Invariant:
    """Redelmeier on the orbits of ``h``; twin of ``_redelmeier_py.count_invariant``.

    The lattice is the box ``|u_i| <= n`` around the root (``u`` relative to
    it), cell ``sum((u_i + n) * W**(dim - 1 - i))``, so that index order is
    tuple order. Per cell, filled lazily when the search first meets it:
    ``state`` (0 unknown, 1 usable, 2 not), ``least`` the least cell of its
    orbit, ``size`` the orbit's size; ``seen`` per least cell; ``sheet`` per
    cell of P (-1 outside). ``touched`` lists the cells whose state was set,
    to clear them before the next root.
    """

    cdef int n, dim, W, k, ncells, root, ntouched, npoly
    cdef int perm[3]
    cdef int sign[3]
    cdef int shift[3]        # of h relative to the current root
    cdef int offs[6]
    cdef unsigned char* state
    cdef unsigned char* seen
    cdef signed char* sheet
    cdef int* least
    cdef unsigned char* size
    cdef int* touched
    cdef int* untried
    cdef int* poly
    cdef int* img            # h(c) for the cells of every orbit classified for this root
    cdef signed char* coord  # coord[dim * c + i]: u_i of cell c, for l1 without divisions

    def __cinit__(self):
        self.state = self.seen = self.size = NULL
        self.sheet = self.coord = NULL
        self.least = self.touched = self.untried = self.poly = self.img = NULL

    def __dealloc__(self):
        free(self.state); free(self.seen); free(self.size); free(self.sheet)
        free(self.least); free(self.touched); free(self.untried); free(self.poly)
        free(self.img); free(self.coord)

    cdef int image(self, int c) noexcept nogil:
        """``h(c)``, or -1 when it leaves the box."""
        cdef int u[3]
        cdef int v, i, out = 0
        for i in range(self.dim - 1, -1, -1):
            u[i] = c % self.W - self.n
            c //= self.W
        for i in range(self.dim):
            v = self.sign[i] * u[self.perm[i]] + self.shift[i]
            if v < -self.n or v > self.n:
                return -1
            out = out * self.W + v + self.n
        return out

    cdef int l1(self, int a, int b) noexcept nogil:
        cdef int i, d = 0, x
        cdef signed char* u = self.coord + self.dim * a
        cdef signed char* v = self.coord + self.dim * b
        for i in range(self.dim):
            x = u[i] - v[i]
            d += x if x >= 0 else -x
        return d

    cdef void classify(self, int c) noexcept nogil:
        """Fill state, least and size for the orbit of ``c``."""
        cdef int d = c, m = 0, lo = c, ok = 1
        while True:
            if self.l1(d, self.root) >= self.n:
                ok = 0
            if d < lo:
                lo = d
            m += 1
            self.img[d] = self.image(d)
            d = self.img[d]
            if d < 0:
                ok = 0
                break
            if d == c or m > self.n:
                break
        if m > self.n or lo <= self.root:
            ok = 0
        if lo == self.root and d == c:
            ok = 1  # the root's own orbit (always seen)
        self.state[c] = 1 if ok else 2
        self.least[c] = lo
        self.size[c] = m if m <= self.n else 0
        self.touched[self.ntouched] = c
        self.ntouched += 1

    cdef int place(self, int rep, int g) noexcept nogil:
        """Add the orbit of ``rep`` to P; the new ``gcd(g, voltages)``."""
        cdef int c = rep, s = 0, j, nb, v
        while True:
            self.sheet[c] = s
            self.poly[self.npoly] = c
            self.npoly += 1
            s += 1
            c = self.img[c]
            if c == rep:
                break
        g = _gcd(g, s)
        for j in range(2 * self.dim):
            v = self.sheet[rep + self.offs[j]]
            if v >= 0:
                g = _gcd(g, v)
        return g

    cdef void unplace(self, int m) noexcept nogil:
        cdef int i
        for i in range(self.npoly - m, self.npoly):
            self.sheet[self.poly[i]] = -1
        self.npoly -= m

    cdef int64_t grow(self, int weight, int lo, int hi, int g, int d) noexcept nogil:
        cdef int64_t total = 0
        cdef int i, j, rep, m, w2, g2, d2, e, nb, q, bound
        for i in range(lo, hi):
            rep = self.untried[i]
            m = self.size[rep]
            w2 = weight + m
            if w2 > self.n:
                continue
            if w2 == self.n and g == 1:
                total += 1
                continue
            g2 = self.place(rep, g)
            if w2 == self.n:
                total += g2 == 1
                self.unplace(m)
                continue
            d2 = d
            if g2 == self.k:
                for j in range(self.npoly):
                    q = self.poly[j]
                    if self.sheet[q] != 0:
                        d2 = min(d2, self.l1(rep, q))
                bound = min(self.k * (d2 // 2), self.k * ((d2 + 1) // 2 - 1) + 1)
                if self.n - w2 < bound:
                    self.unplace(m)
                    continue
            e = hi
            for j in range(2 * self.dim):
                nb = rep + self.offs[j]
                if self.state[nb] == 0:
                    self.classify(nb)
                if self.state[nb] == 1 and not self.seen[self.least[nb]]:
                    self.seen[self.least[nb]] = 1
                    self.untried[e] = nb
                    e += 1
            total += self.grow(w2, i + 1, e, g2, d2)
            for j in range(hi, e):
                self.seen[self.least[self.untried[j]]] = 0
            self.unplace(m)
        return total


cdef inline int _gcd(int a, int b) noexcept nogil:
    cdef int t
    while b:
        t = a % b
        a = b
        b = t
    return a


def count_invariant(int n, perm, signs, shift, roots):
    """Count the polyforms of ``n`` cells that ``h`` maps onto themselves, rooted at ``roots``.

    ``h(c)[i] = signs[i] * c[perm[i]] + shift[i]``; the algorithm is described
    in the twin, ``polyforms._redelmeier_py.count_invariant``.
    """
    if n > 127:
        raise ValueError("count_invariant keeps coordinates in a byte: n <= 127")
    cdef _Invariant s = _Invariant()
    cdef int i, j, r, stride, rest
    cdef int64_t total = 0
    s.n = n
    s.dim = len(perm)
    s.W = 2 * n + 1
    s.ncells = s.W ** s.dim
    generic = tuple(10 ** i for i in range(s.dim))
    c, s.k = generic, 0
    while True:  # the order of h: the length of a generic orbit of its linear part
        c = tuple(signs[i] * c[perm[i]] for i in range(s.dim))
        s.k += 1
        if c == generic:
            break
    stride = 1
    for i in range(s.dim - 1, -1, -1):
        s.perm[i] = perm[i]
        s.sign[i] = signs[i]
        s.offs[i] = stride
        s.offs[s.dim + i] = -stride
        stride *= s.W
    s.state = <unsigned char*> calloc(s.ncells, 1)
    s.seen = <unsigned char*> calloc(s.ncells, 1)
    s.size = <unsigned char*> calloc(s.ncells, 1)
    s.sheet = <signed char*> malloc(s.ncells)
    s.least = <int*> malloc(s.ncells * sizeof(int))
    s.touched = <int*> malloc(s.ncells * sizeof(int))
    s.untried = <int*> malloc((s.ncells + 1) * sizeof(int))
    s.poly = <int*> malloc((n + 8) * sizeof(int))
    s.img = <int*> malloc(s.ncells * sizeof(int))
    s.coord = <signed char*> malloc(s.ncells * s.dim)
    if (s.state == NULL or s.seen == NULL or s.size == NULL or s.sheet == NULL
            or s.least == NULL or s.touched == NULL or s.untried == NULL or s.poly == NULL
            or s.img == NULL or s.coord == NULL):
        raise MemoryError()
    for i in range(s.ncells):
        rest = i
        for j in range(s.dim - 1, -1, -1):
            s.coord[s.dim * i + j] = rest % s.W - n
            rest //= s.W
    memset(s.sheet, -1, s.ncells)
    r = 0
    for i in range(s.dim):
        r = r * s.W + n
    s.root = r
    for root in roots:
        for i in range(s.dim):
            s.shift[i] = signs[i] * root[perm[i]] + shift[i] - root[i]
        s.ntouched = 0
        s.npoly = 0
        s.classify(r)
        s.seen[r] = 1
        s.untried[0] = r
        with nogil:
            total += s.grow(0, 0, 1, s.k, 2 * n)
        s.seen[r] = 0
        for j in range(s.ntouched):
            s.state[s.touched[j]] = 0
    return total



cdef class _Half:
    """Weighted Redelmeier on one side of a mirror; twin of ``_symmetric_py.count_mirror``.

    The box ``|u_i| <= n`` around the root (plus a border of unusable cells),
    one byte per cell: bits 0-1 its weight (1 on the mirror, 2 on the side
    searched, 0 unusable: the other side, cells before the root, the border),
    bit 2 ``SEEN``. ``untried`` is Redelmeier's stack of cells; ``ones[p]``
    and ``twos[p]`` count the cells of weight 1 and 2 in ``untried[:p]``, so
    the children of a node one or two short of ``n``, and the children of
    weight 2 of a node three short, are counted from those running sums and
    the bytes of their neighbours instead of being visited.
    """

    cdef int n, dim
    cdef int offs[6]
    cdef unsigned char* cell
    cdef int* untried
    cdef int* ones
    cdef int* twos

    def __cinit__(self):
        self.cell = NULL
        self.untried = self.ones = self.twos = NULL

    def __dealloc__(self):
        free(self.cell); free(self.untried); free(self.ones); free(self.twos)

    cdef int64_t grow(self, int weight, int lo, int hi) noexcept nogil:
        cdef int64_t total = 0
        cdef int i, j, c, nb, e, w
        cdef int left = self.n - weight
        if left == 1:  # each later untried cell of weight 1 is a leaf
            return self.ones[hi] - self.ones[lo]
        if left == 2:  # a cell of weight 2; or two of weight 1, the second after the first
            total = self.twos[hi] - self.twos[lo]
            for i in range(lo, hi):
                c = self.untried[i]
                if self.cell[c] & 3 == 1:
                    total += self.ones[hi] - self.ones[i + 1]
                    for j in range(2 * self.dim):
                        total += self.cell[c + self.offs[j]] == 1  # weight 1, not seen
            return total
        for i in range(lo, hi):  # left >= 3: every child is an inner node
            c = self.untried[i]
            if left == 3 and self.cell[c] & 3 == 2:  # a child one short: as above
                total += self.ones[hi] - self.ones[i + 1]
                for j in range(2 * self.dim):
                    total += self.cell[c + self.offs[j]] == 1
                continue
            e = hi
            for j in range(2 * self.dim):
                nb = c + self.offs[j]
                w = self.cell[nb]
                if w == 1 or w == 2:
                    self.cell[nb] = w | SEEN
                    self.untried[e] = nb
                    self.ones[e + 1] = self.ones[e] + (w == 1)
                    self.twos[e + 1] = self.twos[e] + (w == 2)
                    e += 1
            total += self.grow(weight + (self.cell[c] & 3), i + 1, e)
            for j in range(hi, e):
                self.cell[self.untried[j]] &= 3
        return total


def count_mirror(int n, perm, signs, shift, root):
    """Count the polyforms of ``n`` cells that the mirror ``h`` maps onto themselves.

    ``h(c)[i] = signs[i] * c[perm[i]] + shift[i]`` is a reflection in a
    plane; a polyform is counted once if ``root`` is the least cell of its
    half (the order and the method are described in the twin,
    ``polyforms.enumeration._symmetric_py.count_mirror``).
    """
    cdef _Half s = _Half()
    cdef int i, j, ncells, W, index, stride, r, height, root_height, distance, cmp
    cdef int64_t total
    s.n = n
    s.dim = len(perm)
    W = 2 * n + 3
    ncells = W ** s.dim
    stride = 1
    for i in range(s.dim - 1, -1, -1):
        s.offs[i] = stride
        s.offs[s.dim + i] = -stride
        stride *= W
    s.cell = <unsigned char*> calloc(ncells, 1)
    s.untried = <int*> malloc((ncells + 1) * sizeof(int))
    s.ones = <int*> malloc((ncells + 2) * sizeof(int))
    s.twos = <int*> malloc((ncells + 2) * sizeof(int))
    if s.cell == NULL or s.untried == NULL or s.ones == NULL or s.twos == NULL:
        raise MemoryError()
    dim = s.dim
    root = tuple(root)

    def image(c):
        return tuple(signs[i] * c[perm[i]] + shift[i] for i in range(dim))

    root_key = (sum(abs(a - b) for a, b in zip(root, image(root))), root)
    r = 0
    for u in itertools.product(range(-n, n + 1), repeat=dim):
        if sum(abs(x) for x in u) >= n:
            continue
        c = tuple(a + x for a, x in zip(root, u))
        hc = image(c)
        if c < hc or (sum(abs(a - b) for a, b in zip(c, hc)), c) <= root_key and c != root:
            continue
        index = 0
        for i in range(dim):
            index = index * W + u[i] + n + 1
        s.cell[index] = 1 if c == hc else 2
        if c == root:
            r = index
    if s.cell[r] == 0:
        return 0
    s.untried[0] = r
    s.ones[0] = s.twos[0] = 0
    s.ones[1] = s.cell[r] == 1
    s.twos[1] = s.cell[r] == 2
    s.cell[r] |= SEEN
    with nogil:
        total = s.grow(0, 0, 1)
    return total
