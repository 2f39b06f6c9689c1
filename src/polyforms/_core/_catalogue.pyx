# cython: language_level=3
"""Format packed polyforms as catalogue text (compiled twin of catalogue.format_polyform).

A *packed chunk* is a bytes-like object holding ``count`` polyforms of ``n``
cells each, every cell ``dim`` signed bytes, every polyform in normal position
(sorted cells, minimum 0 on each axis). :func:`format_chunk` turns a chunk into
exactly the text that :func:`polyforms.catalogue.format_polyform` gives for the
same polyforms, one after the other, computing the symmetry class and the
number of holes on the way.

The cells are drawn once as a bitmap of one word per row. A symmetry (8 in
2D, 48 in 3D) is tested by looking up the image of each cell in it, which
stops at the first cell that misses; holes are counted from the bitmap by
Euler's formula in 2D, by one flood fill of the bounding box in 3D.
"""

from libc.stdlib cimport malloc, free, realloc
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize

DEF MAXN = 64          # cells per polyform

# 2D class names in the order of the stabiliser tests in _symmetry_2d.
_CLASS_NAMES = (b"none", b"axis-mirror", b"diagonal-mirror", b"rotation-180",
                b"axis-mirrors", b"diagonal-mirrors", b"rotation-90", b"full")


_OUT_OF_RANGE = ("polyform {j} of the chunk has a coordinate outside 0..{top}: "
                 "not a connected polyform in normal position")

# The six permutations of the three axes.
cdef int _PERMS3[6][3]
# The 2D transforms in the order of polyforms.geometry: identity, rotate90,
# rotate180, rotate270, mirror-vertical, mirror-horizontal, mirror-diagonal,
# mirror-antidiagonal. Output coordinate a is _SIGNS2[t][a] * cell[_PERMS2[t][a]].
cdef int _PERMS2[8][2]
cdef int _SIGNS2[8][2]


def _fill_tables():
    import itertools
    for p, perm in enumerate(itertools.permutations(range(3))):
        for a in range(3):
            _PERMS3[p][a] = perm[a]
    table = (((0, 1), (1, 1)), ((1, 0), (-1, 1)), ((0, 1), (-1, -1)), ((1, 0), (1, -1)),
             ((0, 1), (-1, 1)), ((0, 1), (1, -1)), ((1, 0), (1, 1)), ((1, 0), (-1, -1)))
    for t, (perm, sign) in enumerate(table):
        for a in range(2):
            _PERMS2[t][a] = perm[a]
            _SIGNS2[t][a] = sign[a]


_fill_tables()


cdef struct Out:
    char *data
    Py_ssize_t length
    Py_ssize_t capacity


cdef inline int _reserve(Out *out, Py_ssize_t extra) except -1:
    if out.length + extra <= out.capacity:
        return 0
    return _grow(out, out.length + extra)


cdef int _grow(Out *out, Py_ssize_t want) except -1:
    # The text is copied into a bytes object at the end, and the buffer freed:
    # the allocator hands the same memory to the next chunk. Writing straight
    # into a bytes object grown in place saves that copy but faults in fresh
    # pages for every chunk (n = 15 to jsonl: 133,000 page faults against
    # 6,600, 0.5 s more system time, against a 0.05 s copy).
    cdef char *grown
    want = max(want, 2 * out.capacity, 1 << 16)
    grown = <char *> realloc(out.data, want)
    if grown == NULL:
        raise MemoryError()
    out.data = grown
    out.capacity = want
    return 0


cdef inline int _put(Out *out, const char *text, Py_ssize_t size) except -1:
    _reserve(out, size)
    memcpy(out.data + out.length, text, size)
    out.length += size
    return 0


cdef inline int _put_char(Out *out, char c) except -1:
    _reserve(out, 1)
    out.data[out.length] = c
    out.length += 1
    return 0


cdef int _put_int(Out *out, long long value) except -1:
    cdef char digits[24]
    cdef int count = 0
    if value < 0:
        _put_char(out, b'-')
        value = -value
    if value == 0:
        return _put_char(out, b'0')
    while value > 0:
        digits[count] = <char> (48 + value % 10)
        value //= 10
        count += 1
    _reserve(out, count)
    while count > 0:
        count -= 1
        out.data[out.length] = digits[count]
        out.length += 1
    return 0


ctypedef unsigned long long u64

cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil


cdef inline int _popcount(u64 x) noexcept nogil:
    # SWAR: the builtin is a library call on baseline x86-64.
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int> ((x * 0x0101010101010101ULL) >> 56)


cdef void _draw(const signed char *cells, int n, int dim, const int *size,
                u64 *rows) noexcept nogil:
    """The cells as a bitmap: bit x of ``rows[z * size[1] + y]``.

    Every side of the bounding box is at most n <= 64 cells, so a row is one
    word; ``rows`` holds at least size[1] * size[2] words.
    """
    cdef int i
    memset(rows, 0, size[1] * size[2] * sizeof(u64))
    for i in range(n):
        if dim == 2:
            rows[cells[2 * i + 1]] |= (<u64> 1) << cells[2 * i]
        else:
            rows[cells[3 * i + 2] * size[1] + cells[3 * i + 1]] |= (<u64> 1) << cells[3 * i]


cdef bint _maps_onto_itself(const signed char *cells, int n, int dim, const int *size,
                            const u64 *rows, const int *perm, const int *sign) noexcept nogil:
    """True when the signed permutation (perm, sign) maps the cells onto themselves.

    The image, moved back to normal position, must have the same bounding box
    (so axes of different lengths are never swapped) and every image cell
    must be a cell: with as many cells on both sides, that is equality. A
    signed coordinate normalised is ``size - 1 - v``. Most polyforms have no
    symmetry, and most tests fail at the first or second cell.
    """
    cdef int i, a, v
    cdef int image[3]
    for a in range(dim):
        if size[perm[a]] != size[a]:
            return False
    image[2] = 0
    for i in range(n):
        for a in range(dim):
            v = cells[i * dim + perm[a]]
            image[a] = v if sign[a] > 0 else size[a] - 1 - v
        if not (rows[image[2] * size[1] + image[1]] >> image[0]) & 1:
            return False
    return True


cdef int _symmetry(const signed char *cells, int n, int dim, const int *size,
                   const u64 *rows) noexcept nogil:
    """2D: index into _CLASS_NAMES; 3D: the order of the stabiliser (1 to 48).

    ``size`` is the bounding box (:func:`_extent`), ``rows`` the bitmap (:func:`_draw`).
    """
    cdef int perm[3]
    cdef int sign[3]
    cdef int a, order, p, s
    cdef bint fixed[8]
    if dim == 3:
        order = 1  # the identity (p = s = 0), not tested
        for p in range(6):
            for s in range(8):
                if p == 0 and s == 0:
                    continue
                for a in range(3):
                    perm[a] = _PERMS3[p][a]
                    sign[a] = -1 if s & (1 << a) else 1
                if _maps_onto_itself(cells, n, 3, size, rows, perm, sign):
                    order += 1
        return order
    fixed[0] = True  # the identity
    for p in range(1, 8):
        fixed[p] = _maps_onto_itself(cells, n, 2, size, rows, _PERMS2[p], _SIGNS2[p])
    order = 0
    for p in range(8):
        order += fixed[p]
    if order == 8:
        return 7
    if fixed[1]:
        return 6
    if fixed[4] and fixed[5]:
        return 4
    if fixed[6] and fixed[7]:
        return 5
    if fixed[2]:
        return 3
    if fixed[4] or fixed[5]:
        return 1
    if fixed[6] or fixed[7]:
        return 2
    return 0


cdef int _holes_2d(int n, const int *size, const u64 *rows) noexcept nogil:
    """Holes of a polyomino by Euler's formula, from its bitmap.

    The closed union of the cells is connected, so its Euler characteristic
    V - E + F is 1 - holes, where a hole is a bounded component of the
    complement: an edge-connected empty region (two empty cells meeting at a
    corner are apart, since that corner belongs to the polyomino). F = n,
    E = 4n less the shared edges, V = the lattice points on some cell.
    """
    cdef int y, shared = 0, vertices = 0
    cdef u64 row, below = 0, around
    for y in range(size[1] + 1):
        row = rows[y] if y < size[1] else 0
        shared += _popcount(row & (row >> 1)) + _popcount(row & below)
        around = row | below  # the cells on either side of the lattice line y
        vertices += _popcount(around | (around << 1)) + <int> (around >> 63)
        below = row
    # holes = 1 - (V - E + F) with E = 4n - shared, F = n.
    return 1 - vertices + 3 * n - shared


cdef bint _all_in_sight(const int *size, const u64 *rows, u64 *before, u64 *after) noexcept nogil:
    """True when every empty cell of the box sees its outside along some axis.

    Such a cell reaches the outside in a straight line, so there is no hole:
    the common case, found from the bitmap with a few word operations a row.
    Otherwise the box needs a flood fill. ``before`` and ``after`` hold
    size[1] * size[2] words each: the rows' running unions along z.
    """
    cdef int h = size[1], d = size[2], y, z, k
    cdef u64 row, low, high, between, behind, acc
    for y in range(h):  # the cells on either side along z
        acc = 0
        for z in range(d):
            before[z * h + y] = acc
            acc |= rows[z * h + y]
        acc = 0
        for z in range(d - 1, -1, -1):
            after[z * h + y] = acc
            acc |= rows[z * h + y]
    cdef u64 ahead[64]
    for z in range(d):
        acc = 0
        for y in range(h - 1, -1, -1):  # the cells on either side along y
            ahead[y] = acc
            acc |= rows[z * h + y]
        behind = 0
        for y in range(h):
            k = z * h + y
            row = rows[k]
            if row == 0:
                continue  # every cell of an empty row sees the outside along x
            low = row & (~row + 1)
            high = (<u64> 1) << (63 - __builtin_clzll(row))
            between = ((high - low) | high) & ~row  # empty cells closed in along x
            if between & behind & ahead[y] & before[k] & after[k]:
                return False
            behind |= row
    return True


cdef int _holes(const signed char *cells, int n, int dim, const int *size,
                const u64 *rows, unsigned char *grid, int *stack) noexcept nogil:
    """Bounded edge- (face-) connected empty regions inside the bounding box.

    ``rows`` is the bitmap of :func:`_draw`, followed by room for
    2 * size[1] * size[2] more words.
    """
    if dim == 2:
        return _holes_2d(n, size, rows)
    cdef u64 *scratch = <u64 *> rows + size[1] * size[2]
    if _all_in_sight(size, rows, scratch, scratch + size[1] * size[2]):
        return 0
    return _holes_flood(cells, n, dim, size, grid, stack)


cdef bint _in_range(const unsigned char *cells, int n, int dim) noexcept nogil:
    """True when every coordinate is in 0..n-1, as normal position of a connected
    polyform of n cells makes it (read unsigned, a negative byte is >= 128 > n).
    Everything below indexes its scratch buffers by coordinates: a packed chunk
    made by hand must be refused, not followed out of them."""
    cdef int k
    for k in range(n * dim):
        if cells[k] >= n:
            return False
    return True


cdef void _extent(const signed char *cells, int n, int dim, int *size) noexcept nogil:
    """Bounding-box side along each axis (1 for the missing z in 2D)."""
    cdef int i, a
    size[0] = size[1] = size[2] = 1
    for i in range(n):
        for a in range(dim):
            if cells[i * dim + a] + 1 > size[a]:
                size[a] = cells[i * dim + a] + 1


cdef int _holes_flood(const signed char *cells, int n, int dim, const int *size,
                      unsigned char *grid, int *stack) noexcept nogil:
    """Bounded face- (edge-) connected empty regions inside the bounding box, by flooding.

    The box is surrounded by one empty layer (the outside) and one wall layer
    that stops the flood. The outside is flooded from a corner; when it and
    the cells fill the whole box there are no holes, which is the common case
    and needs no further scan. ``grid`` and ``stack`` hold (size + 4) cells
    along each axis.
    """
    cdef int w = size[0] + 4, h = size[1] + 4, d = size[2] + 4 if dim == 3 else 1
    cdef int total = w * h * d, i, x, y, z, here, step, top, count, flooded, walls
    cdef int offsets[6]
    offsets[0] = 1; offsets[1] = -1; offsets[2] = w; offsets[3] = -w
    offsets[4] = w * h; offsets[5] = -w * h
    cdef int directions = 4 if dim == 2 else 6
    # 0 empty, 1 cell, 2 flooded, 3 wall.
    memset(grid, 0, total)
    for z in range(d):
        for y in range(h):
            for x in range(w):
                if (x == 0 or x == w - 1 or y == 0 or y == h - 1
                        or (dim == 3 and (z == 0 or z == d - 1))):
                    grid[(z * h + y) * w + x] = 3
    for i in range(n):
        here = (cells[i * dim] + 2) + (cells[i * dim + 1] + 2) * w
        if dim == 3:
            here += (cells[i * dim + 2] + 2) * w * h
        grid[here] = 1
    count = 0
    flooded = 0
    for i in range(total):
        if grid[i] != 0:
            continue
        grid[i] = 2
        stack[0] = i
        top = 1
        while top > 0:
            top -= 1
            here = stack[top]
            flooded += 1
            for step in range(directions):
                if grid[here + offsets[step]] == 0:
                    grid[here + offsets[step]] = 2
                    stack[top] = here + offsets[step]
                    top += 1
        if count == 0:
            # The first region found is the outside (it holds the corner).
            walls = total - (w - 2) * (h - 2) * (d - 2 if dim == 3 else 1)
            if flooded + n + walls == total:
                return 0
        count += 1
    return count - 1


def format_chunk(const unsigned char[::1] packed, int n, int dim, str fmt, str kind,
                 long long first_index=1, bint first_in_file=True, bint counted=False):
    """Format every polyform of a packed chunk; return the text as ``bytes``.

    Parameters
    ----------
    packed : bytes-like
        ``count * n * dim`` signed bytes, polyforms in normal position.
    n, dim : int
        Cells per polyform and dimension.
    fmt : {"txt", "jsonl", "csv"}
    kind : str
        Written into jsonl and csv rows.
    first_index : int
        csv index of the chunk's first polyform.
    first_in_file : bool
        txt: no blank line before the first picture.
    counted : bool
        Start with the number of polyforms and a newline (a listing chunk of
        :func:`polyforms.jobs.counted_chunk`, made without copying the text).
    """
    if n < 1 or n > MAXN or dim not in (2, 3):
        raise ValueError(f"cannot format polyforms of {n} cells in dimension {dim}")
    if fmt not in ("txt", "jsonl", "csv"):
        raise ValueError(f"unknown format {fmt!r}")
    cdef Py_ssize_t stride = n * dim
    cdef Py_ssize_t count = packed.shape[0] // stride
    if count * stride != packed.shape[0]:
        raise ValueError("chunk length is not a multiple of n * dim")
    cdef bytes kind_bytes = kind.encode()
    cdef bytes json_kind = b'"' + kind_bytes + b'"'
    cdef int mode = 0 if fmt == "txt" else (1 if fmt == "jsonl" else 2)
    cdef Out out
    out.data = NULL
    out.length = 0
    out.capacity = 0
    cdef const signed char *cells
    cdef Py_ssize_t j
    cdef int i, a, v, symmetry, holes, x, y, z
    cdef char *text
    cdef int size[3]
    cdef int side = n + 4  # every side of a bounding box is at most n
    cdef Py_ssize_t room = <Py_ssize_t> side * side * (side if dim == 3 else 1)
    cdef unsigned char *picture = <unsigned char *> malloc(room)
    cdef unsigned char *grid = <unsigned char *> malloc(room)
    cdef int *stack = <int *> malloc(room * sizeof(int))
    cdef u64 *rows = <u64 *> malloc(3 * n * n * sizeof(u64))
    if picture == NULL or grid == NULL or stack == NULL or rows == NULL:
        free(picture); free(grid); free(stack); free(rows)
        raise MemoryError()
    cdef bytes name
    try:
        if counted:
            _put_int(&out, count)
            _put_char(&out, b'\n')
        for j in range(count):
            cells = <const signed char *> &packed[j * stride]
            if not _in_range(&packed[j * stride], n, dim):
                raise ValueError(_OUT_OF_RANGE.format(j=j, top=n - 1))
            _extent(cells, n, dim, size)
            if mode != 0:
                _draw(cells, n, dim, size, rows)
                symmetry = _symmetry(cells, n, dim, size, rows)
                holes = _holes(cells, n, dim, size, rows, grid, stack)
            if mode == 0:
                if j > 0 or not first_in_file:
                    _put_char(&out, b'\n')
                memset(picture, 0, size[0] * size[1] * size[2])
                for i in range(n):
                    x = cells[i * dim]
                    y = cells[i * dim + 1]
                    z = cells[i * dim + 2] if dim == 3 else 0
                    picture[(z * size[1] + y) * size[0] + x] = 1
                for y in range(size[1]):
                    for z in range(size[2]):
                        if z > 0:
                            _put(&out, b"  ", 2)
                        for x in range(size[0]):
                            _put_char(&out, b'#' if picture[(z * size[1] + y) * size[0] + x]
                                      else b'.')
                    _put_char(&out, b'\n')
                continue
            if mode == 1:
                _put(&out, b'{"cells":[', 10)
            else:
                _put_int(&out, first_index + j)
                _put_char(&out, b',')
                _put_int(&out, n)
                _put_char(&out, b',')
                _put(&out, kind_bytes, len(kind_bytes))
                _put_char(&out, b',')
                if dim == 2:
                    name = _CLASS_NAMES[symmetry]
                    _put(&out, name, len(name))
                else:
                    _put_int(&out, symmetry)
                _put_char(&out, b',')
                _put_int(&out, holes)
                _put_char(&out, b',')
            # The cells, unchecked: normal position puts every coordinate in
            # 0..n-1 <= 63 (two digits), so a cell takes at most 3 + 3 * dim
            # bytes (jsonl in 3D: ",[dd,dd,dd]", 11).
            _reserve(&out, n * (3 + 3 * dim))
            text = out.data + out.length
            for i in range(n):
                if mode == 1:
                    if i:
                        text[0] = b','
                        text += 1
                    text[0] = b'['
                    text += 1
                elif i:
                    text[0] = b' '
                    text += 1
                for a in range(dim):
                    if a:
                        text[0] = b',' if mode == 1 else b':'
                        text += 1
                    v = cells[i * dim + a]
                    if v >= 10:
                        text[0] = <char> (48 + v // 10)
                        text += 1
                    text[0] = <char> (48 + v % 10)
                    text += 1
                if mode == 1:
                    text[0] = b']'
                    text += 1
            out.length = text - out.data
            if out.length > out.capacity:  # cannot happen: the room above is a bound
                raise RuntimeError("catalogue formatter: a row overran its room")
            if mode == 1:
                _put(&out, b'],"size":', 9)
                _put_int(&out, n)
                _put(&out, b',"kind":', 8)
                _put(&out, json_kind, len(json_kind))
                _put(&out, b',"symmetry":', 12)
                if dim == 2:
                    name = _CLASS_NAMES[symmetry]
                    _put_char(&out, b'"')
                    _put(&out, name, len(name))
                    _put_char(&out, b'"')
                else:
                    _put_int(&out, symmetry)
                _put(&out, b',"holes":', 9)
                _put_int(&out, holes)
                _put(&out, b'}\n', 2)
            else:
                _put_char(&out, b'\n')
        return PyBytes_FromStringAndSize(out.data, out.length)
    finally:
        free(out.data)
        free(picture)
        free(grid)
        free(stack)
        free(rows)


def filter_chunk(const unsigned char[::1] packed, int n, int dim, int holes, symmetry):
    """The polyforms of a packed chunk that pass the catalogue filters, packed again.

    ``holes``: -1 keeps all, 0 those without holes, 1 those with holes;
    ``symmetry``: None keeps all, else a 2D class name or a 3D group order
    (as :attr:`polyforms.Polyform.symmetry` gives them).
    """
    if n < 1 or n > MAXN or dim not in (2, 3):
        raise ValueError(f"cannot filter polyforms of {n} cells in dimension {dim}")
    cdef Py_ssize_t stride = n * dim
    cdef Py_ssize_t count = packed.shape[0] // stride
    if count * stride != packed.shape[0]:
        raise ValueError("chunk length is not a multiple of n * dim")
    cdef int wanted = -1
    if symmetry is not None:
        if dim == 2:
            wanted = _CLASS_NAMES.index(symmetry.encode())
        else:
            wanted = int(symmetry)
    cdef int side = n + 4
    cdef Py_ssize_t room = <Py_ssize_t> side * side * (side if dim == 3 else 1)
    cdef unsigned char *grid = <unsigned char *> malloc(room)
    cdef int *stack = <int *> malloc(room * sizeof(int))
    cdef char *kept = <char *> malloc(packed.shape[0] + 1)
    cdef u64 *rows = <u64 *> malloc(3 * n * n * sizeof(u64))
    if grid == NULL or stack == NULL or kept == NULL or rows == NULL:
        free(grid); free(stack); free(kept); free(rows)
        raise MemoryError()
    cdef Py_ssize_t j, length = 0
    cdef const signed char *cells
    cdef int size[3]
    cdef int found
    cdef Py_ssize_t bad = -1
    try:
        with nogil:
            for j in range(count):
                cells = <const signed char *> &packed[j * stride]
                if not _in_range(&packed[j * stride], n, dim):
                    bad = j
                    break
                if wanted < 0 and holes < 0:
                    memcpy(kept + length, cells, stride)
                    length += stride
                    continue
                _extent(cells, n, dim, size)
                _draw(cells, n, dim, size, rows)
                if wanted >= 0 and _symmetry(cells, n, dim, size, rows) != wanted:
                    continue
                if holes >= 0:
                    found = _holes(cells, n, dim, size, rows, grid, stack)
                    if (found > 0) != (holes > 0):
                        continue
                memcpy(kept + length, cells, stride)
                length += stride
        if bad >= 0:
            raise ValueError(_OUT_OF_RANGE.format(j=bad, top=n - 1))
        return PyBytes_FromStringAndSize(kept, length)
    finally:
        free(grid)
        free(stack)
        free(kept)
        free(rows)
