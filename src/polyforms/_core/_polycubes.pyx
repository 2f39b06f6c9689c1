# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled count of fixed polycubes: the fast twin of :mod:`polyforms.enumeration._polycubes_py`.

Redelmeier's search from a prefix of :mod:`polyforms.enumeration.redelmeier`
(the same tree, so the same subtree counts), visiting the nodes up to four
cells short of ``n`` and counting the last four levels below each of those
without building them. The three-level count is derived in the twin; the
fourth level is explained at :func:`_last_four`. First the data structure.

The board
---------
One byte per cell of a box around the origin, ``x, y`` in ``-m..m`` and ``z``
in ``-2..m`` with ``m = n + 3`` (room for every cell two steps from a cell of
the search); a cell's neighbour is ``cell + offset`` with offsets ``+1, +W,
+W*W, -1, -W, -W*W``. A byte holds

* bit 7, ``SEEN``: the cell was pushed on an untried set on the path from the
  root, or may never join (it comes before the origin, or lies on the edge of
  the box);
* bits 0-2, ``NEAR``: how many of its six neighbours are seen, kept up to date
  each time a cell is seen or unseen;
* bits 3-5, ``UNTRIED`` and bit 6, ``LATER``: kept only while a node four
  cells short of ``n`` counts its children (zero otherwise): how many
  neighbours are *later* untried cells of that node, and whether the cell is
  one.

So a free cell (not seen) knows its number of free neighbours, ``6 - NEAR``,
from the byte the search reads anyway to learn that it is free, and an
untried cell its number of free neighbours the same way: every term of the
count of the last levels is a table look-up on one byte (Dodds's counter reads
the six neighbours instead).

The untried sets of the visited levels share one array, as in
:mod:`polyforms._core._redelmeier`: a level owns ``untried[lo:hi]``; taking
``untried[i]`` it appends the fresh neighbours at ``hi..e`` and the child owns
``untried[i+1:e]``.
"""

from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc

from polyforms.errors import PolyformError

__all__ = ["count_prefix"]

cdef enum:              # the fields of a board byte (see the module docstring)
    SEEN = 0x80
    LATER = 0x40
    UNTRIED = 0x38
    UNTRIED_ONE = 0x08
    NEAR = 0x07
    NEAR_ONE = 0x01


# _MEET[byte of f], for a neighbour f of an untried cell: twice ``e_f - (u_f - 1) / 2``
# when f is free, else 0 (see _last_three)
cdef signed char _MEET[256]
for _v in range(256):
    _MEET[_v] = 0 if _v & SEEN else 13 - 2 * (_v & NEAR) - ((_v & UNTRIED) >> 3)


# Tables of the four-level count (_last_four). Each packs two small signed numbers
# into an int as ``hi * 2**16 + lo``: a change of ``D`` (the free neighbours of the
# untried cells) in ``hi``, and the changes of the other sums in ``lo``. A sum of up to
# a few hundred entries unpacks exactly (_unpack).
#
# _TWO_AWAY[3 * byte + k], for a cell x two steps from the taken cell that is next to
# k fresh cells (k = 0, 1, 2): if x is free, its u grows by k and its e drops by k, so
# lo = the change of u e - C(u, 2); if x is a later untried cell, its d drops by k:
# hi = -k and lo = the change of C(d, 2); otherwise 0.
cdef int _TWO_AWAY[768]
# _FRESH[byte of a neighbour g of the taken cell]: if g is free (so fresh), it joins
# the untried set with d = e and leaves the free cells: hi = e, lo = C(e, 2) - (u e - C(u, 2)).
cdef int _FRESH[256]
# _JOIN[byte of a neighbour f of a cell joining the later set]: e - u if f is free.
cdef signed char _JOIN[256]
for _v in range(256):
    _e = 6 - (_v & NEAR)
    _u = (_v & UNTRIED) >> 3
    _free = not (_v & SEEN)
    _later = bool(_v & SEEN and _v & LATER)
    _FRESH[_v] = _e * 65536 + _e * (_e - 1) // 2 - (_u * _e - _u * (_u - 1) // 2) if _free else 0
    _JOIN[_v] = _e - _u if _free else 0
    for _k in range(3):
        if _free:
            _lo = (_u + _k) * (_e - _k) - (_u + _k) * (_u + _k - 1) // 2 - _u * _e + _u * (_u - 1) // 2
            _TWO_AWAY[3 * _v + _k] = _lo
        elif _later:
            _lo = (_e - _k) * (_e - _k - 1) // 2 - _e * (_e - 1) // 2
            _TWO_AWAY[3 * _v + _k] = -_k * 65536 + _lo
        else:
            _TWO_AWAY[3 * _v + _k] = 0


cdef inline int _low(int packed) noexcept nogil:
    """The ``lo`` part of a sum of packed table entries (``hi`` is ``(packed - lo) >> 16``)."""
    return ((packed + 32768) & 0xFFFF) - 32768


ctypedef struct Board:
    unsigned char* cells
    int* untried
    int n
    int W            # stride of y; 1 is that of x
    int WW           # stride of z


cdef inline void _see(unsigned char* cells, int c, int W, int WW) noexcept nogil:
    """Mark ``c`` seen and tell its neighbours (``W``, ``WW``: the strides of y and z)."""
    cells[c] |= SEEN
    cells[c + 1] += NEAR_ONE
    cells[c + W] += NEAR_ONE
    cells[c + WW] += NEAR_ONE
    cells[c - 1] += NEAR_ONE
    cells[c - W] += NEAR_ONE
    cells[c - WW] += NEAR_ONE


cdef inline void _unsee(unsigned char* cells, int c, int W, int WW) noexcept nogil:
    cells[c] &= ~SEEN
    cells[c + 1] -= NEAR_ONE
    cells[c + W] -= NEAR_ONE
    cells[c + WW] -= NEAR_ONE
    cells[c - 1] -= NEAR_ONE
    cells[c - W] -= NEAR_ONE
    cells[c - WW] -= NEAR_ONE


cdef inline void _tell(unsigned char* cells, int c, int W, int WW, unsigned char tell) noexcept nogil:
    """Add ``tell`` to the bytes of the neighbours of ``c`` (mod 256: a negative one takes it back)."""
    cells[c + 1] += tell
    cells[c + W] += tell
    cells[c + WW] += tell
    cells[c - 1] += tell
    cells[c - W] += tell
    cells[c - WW] += tell


cdef inline int64_t _last_three(Board* b, int lo, int hi) noexcept nogil:
    """Polycubes of size n through a node of size n-3 with untried[lo:hi].

    With ``d_a`` the free neighbours of untried cell ``a`` (``D`` their sum),
    and ``u_f``, ``e_f`` the untried and free neighbours of free cell ``f``::

        C(L, 3) + (L - 1) D + sum_a C(d_a, 2) + sum_f (u_f e_f - C(u_f, 2))

    The last sum is gathered one (untried, free) neighbour pair at a time,
    each adding ``e_f - (u_f - 1) / 2`` (``_MEET``). It reads, never writes:
    ``d_a`` and ``e_f`` are ``6 - NEAR`` and ``u_f`` is ``UNTRIED``, which the
    caller keeps for the whole untried set. Only a prefix three cells short
    of ``n`` needs it: deeper searches count four levels at once.
    """
    cdef int64_t k = hi - lo
    cdef int near = 0, twice = 0
    cdef int i, a, d
    cdef unsigned char* cells = b.cells
    cdef int* untried = b.untried
    cdef int W = b.W, WW = b.WW
    cdef const signed char* meet = _MEET
    for i in range(lo, hi):
        a = untried[i]
        d = 6 - (cells[a] & NEAR)
        near += d
        twice += (d * (d - 1) + meet[cells[a + 1]] + meet[cells[a + W]] + meet[cells[a + WW]]
                  + meet[cells[a - 1]] + meet[cells[a - W]] + meet[cells[a - WW]])
    return k * (k - 1) * (k - 2) // 6 + (k - 1) * near + twice // 2


cdef int64_t _last_four(Board* b, int lo, int hi) noexcept nogil:
    """Polycubes of size n below a node of size n-4 with untried[lo:hi].

    Child ``i`` takes ``c = untried[i]``; its untried set is the *later* cells
    ``untried[i+1:hi]`` and the fresh ones, the free neighbours of ``c``. Its
    count is the three-level formula of :func:`_last_three`,
    ``C(L, 3) + (L - 1) D + sum_a C(d_a, 2) + sum_f (u_f e_f - C(u_f, 2))``,
    whose sums are kept for the later cells alone (``later_*``: walking the
    children backwards, each taken cell joins them after its own count, with
    its ``UNTRIED`` marks and ``LATER`` bit) and corrected for the step:

    * each fresh cell ``g`` joins the untried set with ``d_g = e_g`` (no two
      neighbours of ``c`` touch: the lattice is bipartite) and leaves the free
      cells, taking its term ``u_g e_g - C(u_g, 2)`` with it;
    * a cell two steps from ``c`` next to ``k`` fresh cells: if free, its
      ``u`` grows by ``k`` and its ``e`` drops by ``k``; if a later untried
      cell, its ``d`` drops by ``k``;
    * nothing else changes: every other cell is three or more steps from ``c``
      or next to it.

    So a child costs one byte read and one table look-up for each of the 24
    cells within two steps of ``c``; nothing is written but the marks of the
    taken cell. The tables (``_FRESH``, ``_TWO_AWAY``) index a byte (and
    ``k``), give zero for cells the corrections do not concern, and pack the
    change of ``D`` with that of the other sums, which ``(L - 1) D`` keeps apart.
    """
    cdef int64_t total = 0, L, D, rest
    cdef int i, c, f0, f1, f2, f3, f4, f5, b0, b1, b2, b3, b4, b5, d, packed, low
    cdef int64_t later_near = 0, later_rest = 0
    cdef unsigned char* cells = b.cells
    cdef int* untried = b.untried
    cdef int W = b.W, WW = b.WW
    cdef const int* two = _TWO_AWAY
    for i in range(hi - 1, lo - 1, -1):
        c = untried[i]
        b0 = cells[c + 1]; b1 = cells[c + W]; b2 = cells[c + WW]
        b3 = cells[c - 1]; b4 = cells[c - W]; b5 = cells[c - WW]
        f0 = (b0 >> 7) ^ 1; f1 = (b1 >> 7) ^ 1; f2 = (b2 >> 7) ^ 1
        f3 = (b3 >> 7) ^ 1; f4 = (b4 >> 7) ^ 1; f5 = (b5 >> 7) ^ 1
        # the fresh cells, then the cells two steps away: straight on from one
        # neighbour of c (next to it alone), or between two of them
        packed = (_FRESH[b0] + _FRESH[b1] + _FRESH[b2] + _FRESH[b3] + _FRESH[b4] + _FRESH[b5]
                  + two[3 * cells[c + 2] + f0] + two[3 * cells[c + 2 * W] + f1]
                  + two[3 * cells[c + 2 * WW] + f2] + two[3 * cells[c - 2] + f3]
                  + two[3 * cells[c - 2 * W] + f4] + two[3 * cells[c - 2 * WW] + f5]
                  + two[3 * cells[c + 1 + W] + f0 + f1] + two[3 * cells[c + 1 + WW] + f0 + f2]
                  + two[3 * cells[c + 1 - W] + f0 + f4] + two[3 * cells[c + 1 - WW] + f0 + f5]
                  + two[3 * cells[c + W + WW] + f1 + f2] + two[3 * cells[c + W - 1] + f1 + f3]
                  + two[3 * cells[c + W - WW] + f1 + f5] + two[3 * cells[c + WW - 1] + f2 + f3]
                  + two[3 * cells[c + WW - W] + f2 + f4] + two[3 * cells[c - 1 - W] + f3 + f4]
                  + two[3 * cells[c - 1 - WW] + f3 + f5] + two[3 * cells[c - W - WW] + f4 + f5])
        low = _low(packed)
        L = hi - 1 - i + f0 + f1 + f2 + f3 + f4 + f5
        D = later_near + ((packed - low) >> 16)
        rest = later_rest + low
        total += L * (L - 1) * (L - 2) // 6 + (L - 1) * D + rest
        # c joins the later untried cells of the next child (i - 1)
        d = 6 - (cells[c] & NEAR)
        later_near += d
        later_rest += (d * (d - 1) >> 1) + (_JOIN[b0] + _JOIN[b1] + _JOIN[b2]
                                            + _JOIN[b3] + _JOIN[b4] + _JOIN[b5])
        cells[c] |= LATER
        _tell(cells, c, W, WW, UNTRIED_ONE)
    for i in range(lo, hi):
        c = untried[i]
        cells[c] &= ~LATER
        _tell(cells, c, W, WW, <unsigned char> -UNTRIED_ONE)
    return total


cdef int64_t _below(Board* b, int size, int lo, int hi) noexcept nogil:
    """Fixed polycubes of size n below the node with ``size`` cells and untried[lo:hi]."""
    cdef int left = b.n - size
    cdef int64_t total = 0
    cdef int i, c, nb, k, e, j
    cdef unsigned char* cells = b.cells
    cdef int* untried = b.untried
    cdef int W = b.W, WW = b.WW
    if left == 1:
        return hi - lo
    if left == 2:
        # pairs of untried cells, and an untried cell with one of its free neighbours
        total = (hi - lo) * (hi - lo - 1) // 2
        for i in range(lo, hi):
            total += 6 - (cells[untried[i]] & NEAR)
        return total
    if left == 3:
        for i in range(lo, hi):
            _tell(cells, untried[i], W, WW, UNTRIED_ONE)
        total = _last_three(b, lo, hi)
        for i in range(lo, hi):
            _tell(cells, untried[i], W, WW, <unsigned char> -UNTRIED_ONE)
        return total
    if left == 4:
        return _last_four(b, lo, hi)
    cdef int offs[6]
    offs[0] = 1; offs[1] = W; offs[2] = WW; offs[3] = -1; offs[4] = -W; offs[5] = -WW
    for i in range(lo, hi):
        c = untried[i]
        e = hi
        for k in range(6):
            nb = c + offs[k]
            if not (cells[nb] & SEEN):
                untried[e] = nb
                e += 1
                _see(cells, nb, W, WW)
        total += _below(b, size + 1, i + 1, e)
        for j in range(hi, e):
            _unsee(cells, untried[j], W, WW)
    return total


def count_prefix(int n, cells, untried):
    """Count the fixed polycubes of size ``n`` below a prefix (cells, untried).

    The prefix is a node of Redelmeier's tree (:func:`polyforms.enumeration.redelmeier.prefixes`):
    its cells in the order added and its untried set, as 3D cells.
    """
    if n < 1:
        raise PolyformError(f"size must be at least 1, not {n}")
    cells = [tuple(cell) for cell in cells]
    untried = [tuple(cell) for cell in untried]
    if len(cells) >= n:
        return 0
    for cell in cells + untried:
        if len(cell) != 3 or not all(-n <= v <= n for v in cell) or cell[2] < 0:
            raise PolyformError(f"cell {cell!r} cannot belong to a polycube of size {n}")
    cdef int m = n + 3, W = 2 * m + 1, layers = m + 3
    cdef int ncells = W * W * layers
    cdef Board b
    cdef int x, y, z, c, k, i
    cdef int64_t total
    cdef int offs[6]
    offs[0] = 1; offs[1] = W; offs[2] = W * W; offs[3] = -1; offs[4] = -W; offs[5] = -W * W
    b.n = n
    b.W = W
    b.WW = W * W
    b.cells = <unsigned char*> malloc(ncells)
    b.untried = <int*> malloc((6 * (n + 2) + len(untried)) * sizeof(int))
    if b.cells == NULL or b.untried == NULL:
        free(b.cells)
        free(b.untried)
        raise MemoryError()
    try:
        # cells that may never join: before the origin, or on the edge of the box
        for c in range(ncells):
            x = c % W - m
            y = (c // W) % W - m
            z = c // (W * W) - 2
            b.cells[c] = 0
            if z < 0 or (z == 0 and (y < 0 or (y == 0 and x < 0))):
                b.cells[c] = SEEN
            elif x == -m or x == m or y == -m or y == m or z == m:
                b.cells[c] = SEEN
        for c in range(W * W, ncells - W * W):
            if b.cells[c] & SEEN:
                continue
            for k in range(6):
                if b.cells[c + offs[k]] & SEEN:
                    b.cells[c] += 1
        # the node's seen cells: the origin and the neighbours of its cells
        _see(b.cells, _index(m, W, (0, 0, 0)), W, W * W)
        for cell in cells:
            c = _index(m, W, cell)
            for k in range(6):
                if not (b.cells[c + offs[k]] & SEEN):
                    _see(b.cells, c + offs[k], W, W * W)
        for i, cell in enumerate(untried):
            b.untried[i] = _index(m, W, cell)
        i = len(untried)
        k = len(cells)
        with nogil:
            total = _below(&b, k, 0, i)
        return total
    finally:
        free(b.cells)
        free(b.untried)


cdef int _index(int m, int W, cell) except -1:
    return ((cell[2] + 2) * W + cell[1] + m) * W + cell[0] + m
