# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled transfer-matrix counter of fixed polyominoes: the fast twin of
:mod:`polyforms._transfer_py`, which explains the method (Jensen 2001; Knuth's
POLYNUM).

The data structure
------------------
A *state* is one 64-bit word: frontier cell ``x`` is the 3-bit field at bit
``3 x`` (0 empty; 1 the first cell of a component with more to come, 2 a
middle cell, 3 the last, 4 a component of one cell), and bits 60 and 61 say
whether column 0 and column ``width - 1`` have been touched. Components never
cross, so the fields read like parentheses: the partner of a 1 is found by
counting 1s and 3s, and every transition edits a few fields in place
(:func:`_emptied`, :func:`_filled`) instead of relabelling the frontier.

That holds 20 cells. Wider boxes (to 26, sizes to 51) edit the same fields in
a 128-bit word (flags at bits 124, 125) and store the state as one 64-bit key,
the fields as base-5 digits then the two flags (``5**26 * 4 < 2**63``):
:func:`_pack`, :func:`_unpack`. Every function of a ``frontier_t`` is
compiled for both words (a Cython fused type), so the narrow sweep pays
nothing for the wide one (measured: fixed n = 28 at 1.00x the time before).

A *table* holds the states of one step:

* dense arrays, one entry per state in order of arrival: ``keys``, and the
  state's polynomial as a window of degrees ``lo .. lo + length - 1``
  stored at ``arena[offset ..]``. The window runs from a lower bound on the
  cells already used to ``n`` minus a lower bound on the cells still needed
  (the twin's ``cells_used`` and ``cells_needed``), so pruning costs nothing
  per coefficient. A state with an empty window is kept with ``length 0`` so
  that its bound is not computed again;
* an open-addressing hash index (linear probing, at most half full) of
  ``(key, entry + 1)`` pairs; 0 marks a free slot.

Each step reads one table and writes the other, then they swap; all the
memory is reused from step to step and released at the end. Coefficients are
added modulo 2**64 (the word wraps), modulo 2**128 (``wide``: two words a
coefficient, the carry added by hand) or modulo a given modulus below 2**63
(one compare and subtract), for the Chinese remainder theorem.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

from polyforms.errors import PolyformError

__all__ = ["count_width", "cells_needed", "cells_used", "MAX_WIDTH", "NARROW_WIDTH"]

#: The widest box whose frontier fits one 64-bit word (3 bits a cell, two flag bits).
NARROW_WIDTH = 20
#: The widest box of all: 5**26 * 4 < 2**63, so a frontier packed in base 5 is one word.
MAX_WIDTH = 26

cdef extern from *:
    int _ctz "__builtin_ctzll" (unsigned long long) nogil
    int _clz "__builtin_clzll" (unsigned long long) nogil
    void _prefetch "__builtin_prefetch" (const void*) nogil
    # GCC and Clang's 128-bit integer, declared as another integer type so that
    # Cython makes a second specialisation of every function of a frontier_t
    ctypedef unsigned long u128 "unsigned __int128"

# A frontier being edited: 3-bit fields in one word up to NARROW_WIDTH cells,
# in two (u128) above. Every function of a frontier_t is compiled twice.
ctypedef fused frontier_t:
    uint64_t
    u128

cdef enum:
    EMPTY = 0
    FIRST = 1
    MIDDLE = 2
    LAST = 3
    SINGLE = 4

cdef uint64_t LEFT_TOUCHED = (<uint64_t> 1) << 60
cdef uint64_t RIGHT_TOUCHED = (<uint64_t> 1) << 61
cdef uint64_t TOUCHED = LEFT_TOUCHED | RIGHT_TOUCHED
cdef uint64_t CELLS = TOUCHED - 1          # bits 0..59: the frontier fields
cdef uint64_t DEAD = <uint64_t> -1          # no state: the transition kills it


# The flags sit at bits 60, 61 of a narrow frontier and 124, 125 of a wide one.
cdef inline frontier_t _left_flag(frontier_t like) noexcept nogil:
    return (<frontier_t> 1) << (8 * sizeof(frontier_t) - 4)


cdef inline frontier_t _right_flag(frontier_t like) noexcept nogil:
    return (<frontier_t> 1) << (8 * sizeof(frontier_t) - 3)


cdef inline frontier_t _cells(frontier_t key) noexcept nogil:
    """The frontier fields of ``key`` without the flags."""
    return key & (_left_flag(key) - 1)


cdef inline frontier_t _dead(frontier_t like) noexcept nogil:
    return <frontier_t> 0 - 1


cdef inline int _get(frontier_t key, int x) noexcept nogil:
    return <int> ((key >> (3 * x)) & 7)


cdef inline frontier_t _set(frontier_t key, int x, int value) noexcept nogil:
    return (key & ~((<frontier_t> 7) << (3 * x))) | ((<frontier_t> value) << (3 * x))


cdef inline frontier_t _filled_mask(frontier_t key) noexcept nogil:
    """Bit 3x set when frontier cell x is filled."""
    cdef frontier_t cells = _cells(key)
    cdef frontier_t fields  # the bits of 20 (41) whole fields: 60 (123) bits
    if frontier_t is uint64_t:
        fields = (<frontier_t> 0 - 1) >> 4
    else:
        fields = (<frontier_t> 0 - 1) >> 5
    return (cells | (cells >> 1) | (cells >> 2)) & (fields / 7)  # bit 0 of every field


cdef inline int _lowest(frontier_t v) noexcept nogil:
    """The lowest set bit of ``v`` (not 0)."""
    if frontier_t is uint64_t:
        return _ctz(v)
    else:
        return _ctz(<uint64_t> v) if <uint64_t> v else 64 + _ctz(<uint64_t> (v >> 64))


cdef inline int _highest(frontier_t v) noexcept nogil:
    """The highest set bit of ``v`` (not 0)."""
    if frontier_t is uint64_t:
        return 63 - _clz(v)
    else:
        return 127 - _clz(<uint64_t> (v >> 64)) if v >> 64 else 63 - _clz(<uint64_t> v)


cdef inline int _partner_right(frontier_t key, int x, int width) noexcept nogil:
    """The next cell after ``x`` of the component of ``x`` (a 1 or 2 at ``x``)."""
    cdef int depth = 0, s
    x += 1
    while x < width:
        s = _get(key, x)
        if s == FIRST:
            depth += 1
        elif s == LAST:
            if depth == 0:
                return x
            depth -= 1
        elif s == MIDDLE and depth == 0:
            return x
        x += 1
    return -1  # not reached for a well-formed state


cdef inline int _partner_left(frontier_t key, int x) noexcept nogil:
    """The cell before ``x`` of the component of ``x`` (a 2 or 3 at ``x``)."""
    cdef int depth = 0, s
    x -= 1
    while x >= 0:
        s = _get(key, x)
        if s == LAST:
            depth += 1
        elif s == FIRST:
            if depth == 0:
                return x
            depth -= 1
        elif s == MIDDLE and depth == 0:
            return x
        x -= 1
    return -1


cdef inline int _last_of(frontier_t key, int x, int width) noexcept nogil:
    """The last cell of the component whose first cell is ``x``."""
    cdef int depth = 0, s
    x += 1
    while x < width:
        s = _get(key, x)
        if s == FIRST:
            depth += 1
        elif s == LAST:
            if depth == 0:
                return x
            depth -= 1
        x += 1
    return -1


cdef inline int _first_of(frontier_t key, int x) noexcept nogil:
    """The first cell of the component whose last cell is ``x``."""
    cdef int depth = 0, s
    x -= 1
    while x >= 0:
        s = _get(key, x)
        if s == LAST:
            depth += 1
        elif s == FIRST:
            if depth == 0:
                return x
            depth -= 1
        x -= 1
    return -1


cdef inline frontier_t _emptied(frontier_t key, int col, int width) noexcept nogil:
    """The state after leaving cell ``col`` empty, or DEAD when a component is cut off."""
    cdef int up = _get(key, col), p, s
    if up == EMPTY:
        return key
    if up == SINGLE:
        return _dead(key)
    key = _set(key, col, EMPTY)
    if up == FIRST:  # the next cell becomes the first (or the only one)
        p = _partner_right(key, col, width)
        s = _get(key, p)
        return _set(key, p, FIRST if s == MIDDLE else SINGLE)
    if up == LAST:   # the previous cell becomes the last (or the only one)
        p = _partner_left(key, col)
        s = _get(key, p)
        return _set(key, p, LAST if s == MIDDLE else SINGLE)
    return key       # a middle cell leaves; the component keeps its ends


cdef inline frontier_t _filled(frontier_t key, int col, int width) noexcept nogil:
    """The state after filling cell ``col``: it joins its upper and left neighbours."""
    cdef int up = _get(key, col), left = _get(key, col - 1) if col > 0 else EMPTY, p
    if col == 0:
        key |= _left_flag(key)
    if col == width - 1:
        key |= _right_flag(key)
    if left == EMPTY:
        # alone, or part of the component above (whose fields do not change)
        return key if up != EMPTY else _set(key, col, SINGLE)
    if up == EMPTY:
        # joins the component on its left, which may continue past col
        if left == FIRST or left == MIDDLE:
            return _set(key, col, MIDDLE)
        key = _set(key, col - 1, MIDDLE if left == LAST else FIRST)
        return _set(key, col, LAST)
    if (left == FIRST or left == MIDDLE) and (up == MIDDLE or up == LAST):
        return key   # one component already (neighbours in its order)
    if left == LAST or left == SINGLE:
        if up == FIRST or up == SINGLE:
            # side by side: the left one's end and the right one's start become inner cells
            key = _set(key, col - 1, MIDDLE if left == LAST else FIRST)
            return _set(key, col, MIDDLE if up == FIRST else LAST)
        # the left component sits inside the upper one: its ends become inner cells
        if left == LAST:
            key = _set(key, _first_of(key, col - 1), MIDDLE)
        return _set(key, col - 1, MIDDLE)
    # the upper component sits inside the left one (it starts at col)
    if up == FIRST:
        key = _set(key, _last_of(key, col, width), MIDDLE)
    return _set(key, col, MIDDLE)


cdef inline bint _one_component(frontier_t key, int width) noexcept nogil:
    cdef int x, s, starts = 0
    for x in range(width):
        s = _get(key, x)
        if s == FIRST or s == SINGLE:
            starts += 1
    return starts == 1


cdef int _cells_needed(frontier_t key, int width, int row, int col) noexcept nogil:
    """The twin's ``cells_needed``, read off the fields.

    ``open_`` counts the components that span the cut after the cell scanned;
    ``covered`` is the last column of the union of intervals counted so far
    (they arrive from left to right).
    """
    cdef frontier_t filled = _filled_mask(key)
    cdef int lo, hi, x, s, start, prev = -1, open_ = 0, columns = 0, covered = -1
    cdef int rows = width - 1 - row
    if filled == 0:
        return 2 * width - 1
    lo = _lowest(filled) // 3
    hi = _highest(filled) // 3
    if not (key & _left_flag(key)):
        columns = lo + 1
        covered = lo
    for x in range(lo, hi + 1):
        s = _get(key, x)
        if s == EMPTY:
            continue
        if prev >= 0 and open_ == 0:
            start = prev + 1 if prev == col else prev
            if start <= covered:
                start = covered + 1
            if x >= start:
                columns += x - start + 1
                covered = x
        if s == FIRST:
            open_ += 1
        elif s == LAST:
            open_ -= 1
        prev = x
    if not (key & _right_flag(key)):
        start = hi + 1 if hi == col else hi
        if start <= covered:
            start = covered + 1
        columns += width - start
    if rows <= 0:
        return columns
    return rows + columns - 1 if columns > 0 else rows


cdef inline int _popcount64(uint64_t v) noexcept nogil:
    # portable bit counting (the builtin is a library call without -mpopcnt)
    v = v - ((v >> 1) & <uint64_t> 0x5555555555555555)
    v = (v & <uint64_t> 0x3333333333333333) + ((v >> 2) & <uint64_t> 0x3333333333333333)
    v = (v + (v >> 4)) & <uint64_t> 0x0F0F0F0F0F0F0F0F
    return <int> ((v * <uint64_t> 0x0101010101010101) >> 56)


cdef inline int _popcount(frontier_t v) noexcept nogil:
    if frontier_t is uint64_t:
        return _popcount64(v)
    else:
        return _popcount64(<uint64_t> v) + _popcount64(<uint64_t> (v >> 64))


cdef inline int _cells_used(frontier_t key, int width, int row, int col) noexcept nogil:
    cdef frontier_t filled = _filled_mask(key)
    cdef frontier_t left_part = filled & ((((<frontier_t> 1) << (3 * col + 3)) - 1))
    cdef int left = _popcount(left_part), right = _popcount(filled) - left
    if row == 0:
        return left
    return row - 1 + (right if right > 1 else 1) + left


# --------------------------------------------------------------------------
# Tables


cdef struct Slot:
    uint64_t key          # FREE: an unused slot
    uint32_t offset       # the window's first coefficient in the arena
    uint8_t lo            # its degree
    uint8_t length        # 0: pruned (kept so that its bound is not computed again)
    uint16_t unused


cdef uint64_t FREE = <uint64_t> -2  # no state has the top bits set


cdef struct Table:
    Slot* slots
    size_t mask           # slots - 1 (a power of two less one)
    size_t count          # slots in use
    size_t kept           # of which not pruned: the states
    Slot* entries         # the same slots in order of arrival: the next step reads these
    size_t capacity       # of entries
    uint64_t* arena
    size_t used           # coefficients of the arena in use
    size_t room           # coefficients the arena holds


cdef int _table_init(Table* t) noexcept nogil:
    t.mask = 4095
    t.count = 0
    t.used = 0
    t.room = 16384
    t.capacity = 2048
    t.slots = <Slot*> malloc((t.mask + 1) * sizeof(Slot))
    t.entries = <Slot*> malloc(t.capacity * sizeof(Slot))
    t.arena = <uint64_t*> malloc(t.room * sizeof(uint64_t))
    if t.slots == NULL or t.entries == NULL or t.arena == NULL:
        return -1
    _table_clear(t)
    return 0


cdef void _table_free(Table* t) noexcept nogil:
    free(t.slots)
    free(t.entries)
    free(t.arena)
    t.slots = NULL
    t.entries = NULL
    t.arena = NULL


cdef inline size_t _table_bytes(Table* t) noexcept nogil:
    return (t.mask + 1 + t.capacity) * sizeof(Slot) + t.room * sizeof(uint64_t)


cdef inline void _table_clear(Table* t) noexcept nogil:
    cdef size_t i
    t.count = 0
    t.kept = 0
    t.used = 0
    for i in range(t.mask + 1):
        t.slots[i].key = FREE


cdef inline size_t _hash(uint64_t key) noexcept nogil:
    key ^= key >> 29
    key *= <uint64_t> 0xBF58476D1CE4E5B9
    key ^= key >> 32
    return <size_t> key


cdef int _table_grow_slots(Table* t) noexcept nogil:
    cdef size_t size = 2 * (t.mask + 1), i, h
    cdef Slot* old = t.slots
    cdef size_t old_size = t.mask + 1
    cdef Slot* slots = <Slot*> malloc(size * sizeof(Slot))
    if slots == NULL:
        return -1
    for i in range(size):
        slots[i].key = FREE
    for i in range(old_size):
        if old[i].key != FREE:
            h = _hash(old[i].key) & (size - 1)
            while slots[h].key != FREE:
                h = (h + 1) & (size - 1)
            slots[h] = old[i]
    free(old)
    t.slots = slots
    t.mask = size - 1
    return 0


cdef int _table_grow_arena(Table* t, size_t need) noexcept nogil:
    cdef size_t room = 2 * t.room
    while room < t.used + need:
        room *= 2
    if room > <size_t> 0xFFFFFFFF:
        return -1  # offsets are 32 bits: 32 GiB of coefficients, beyond any machine here
    cdef uint64_t* p = <uint64_t*> realloc(t.arena, room * sizeof(uint64_t))
    if p == NULL:
        return -1
    t.arena = p
    t.room = room
    return 0


cdef struct Sweep:
    int n
    int width
    int row
    int col
    uint64_t modulus
    int lanes             # words a coefficient: 1 (modulo 2**64 or the modulus) or 2 (2**128)
    int failed


cdef inline uint64_t _pack(frontier_t front, int width) noexcept nogil:
    """The table key of a frontier: the frontier itself when narrow; when wide,
    its fields as the digits of a number in base 5, then the two flags."""
    cdef uint64_t code = 0
    cdef int x
    if frontier_t is uint64_t:
        return front
    else:
        for x in range(width - 1, -1, -1):
            code = 5 * code + _get(front, x)
        return (code << 2) | <uint64_t> ((front >> 124) & 3)


cdef inline frontier_t _unpack(uint64_t key, int width, frontier_t like) noexcept nogil:
    """The frontier of a table key (the inverse of :func:`_pack`)."""
    cdef frontier_t front
    cdef uint64_t code
    cdef int x
    if frontier_t is uint64_t:
        return key
    else:
        front = (<frontier_t> (key & 3)) << 124
        code = key >> 2
        for x in range(width):
            front |= (<frontier_t> (code % 5)) << (3 * x)
            code //= 5
        return front


cdef inline Slot* _slot(Table* t, uint64_t key, frontier_t front, Sweep* sw) noexcept nogil:
    """The slot of ``key`` (the packed ``front``) in ``t``, made (window sized,
    coefficients zero) if new; NULL: no memory."""
    cdef size_t h = _hash(key) & t.mask
    cdef Slot* slot
    cdef Slot* entries
    cdef int top, bottom, length
    while True:
        slot = &t.slots[h]
        if slot.key == key:
            return slot
        if slot.key == FREE:
            break
        h = (h + 1) & t.mask
    if 2 * (t.count + 1) > t.mask + 1:
        if _table_grow_slots(t) != 0:
            return NULL
        h = _hash(key) & t.mask
        while t.slots[h].key != FREE:
            h = (h + 1) & t.mask
        slot = &t.slots[h]
    if t.count == t.capacity:
        entries = <Slot*> realloc(t.entries, 2 * t.capacity * sizeof(Slot))
        if entries == NULL:
            return NULL
        t.entries = entries
        t.capacity *= 2
    top = sw.n - _cells_needed(front, sw.width, sw.row, sw.col)
    bottom = _cells_used(front, sw.width, sw.row, sw.col)
    length = top - bottom + 1 if top >= bottom else 0
    if length and t.used + length * sw.lanes > t.room:
        if _table_grow_arena(t, length * sw.lanes) != 0:
            return NULL
    slot.key = key
    slot.lo = <uint8_t> bottom if length else 0
    slot.length = <uint8_t> length
    slot.offset = <uint32_t> t.used
    if length:
        memset(t.arena + t.used, 0, length * sw.lanes * sizeof(uint64_t))
        t.used += length * sw.lanes
        t.kept += 1
    t.entries[t.count] = slot[0]
    t.count += 1
    return slot


cdef inline void _prefetch_window(Table* t, uint64_t key) noexcept nogil:
    """If ``key`` is in ``t``, ask for its coefficients (a hint: nothing changes)."""
    cdef size_t h = _hash(key) & t.mask
    while t.slots[h].key != FREE:
        if t.slots[h].key == key:
            _prefetch(t.arena + t.slots[h].offset)
            return
        h = (h + 1) & t.mask


cdef inline void _add(
    Table* t, uint64_t key, frontier_t front, uint64_t* source, int lo, int length, int shift,
    Sweep* sw
) noexcept nogil:
    """Add a polynomial (degrees ``lo ..``) times x**shift to the state ``key`` of ``t``."""
    cdef Slot* slot = _slot(t, key, front, sw)
    cdef int tlo, tlength, start, stop, d
    cdef uint64_t* target
    cdef uint64_t m = sw.modulus, v
    if slot == NULL:
        sw.failed = 1
        return
    tlength = slot.length
    if tlength == 0:
        return
    tlo = slot.lo
    start = lo if lo > tlo - shift else tlo - shift
    stop = lo + length
    if stop > tlo + tlength - shift:
        stop = tlo + tlength - shift
    if sw.lanes == 2:  # 128-bit coefficients, low word first, with the carry
        target = t.arena + slot.offset + 2 * (shift - tlo)
        for d in range(start, stop):
            v = target[2 * d] + source[2 * (d - lo)]
            target[2 * d + 1] += source[2 * (d - lo) + 1] + (v < target[2 * d])
            target[2 * d] = v
        return
    target = t.arena + slot.offset + (shift - tlo)
    if m == 0:
        for d in range(start, stop):
            target[d] += source[d - lo]
    else:
        for d in range(start, stop):
            v = target[d] + source[d - lo]
            target[d] = v - m if v >= m else v


cdef enum:
    # Memory, not arithmetic, is the cost: a source state's target slots are
    # asked for AHEAD states before its turn, their coefficients HALF before.
    AHEAD = 16
    HALF = 8


cdef struct Pending:
    uint64_t* source
    uint64_t emptied      # table keys (DEAD: none); when wide, the frontiers are in a ring beside
    uint64_t filled
    int lo
    int length


cdef inline void _transfer(Pending* p, frontier_t* fronts, Table* nxt, Sweep* sw,
                           uint64_t* square, uint64_t* tall) noexcept nogil:
    """Both transitions of one source state, and the polyominoes that end at its filled cell.

    ``fronts``: the emptied and filled frontiers, when wide (narrow: the keys)."""
    cdef uint64_t* counts
    cdef uint64_t v, m = sw.modulus
    cdef int d, n = sw.n, lo = p.lo
    cdef frontier_t emptied, filled
    if frontier_t is uint64_t:
        emptied, filled = p.emptied, p.filled
    else:
        emptied, filled = fronts[0], fronts[1]
    if p.emptied != DEAD:
        _add(nxt, p.emptied, emptied, p.source, lo, p.length, 0, sw)
    _add(nxt, p.filled, filled, p.source, lo, p.length, 1, sw)
    if ((filled & _left_flag(filled)) and (filled & _right_flag(filled))
            and sw.row + 1 >= sw.width and _one_component(filled, sw.width)):
        counts = square if sw.row + 1 == sw.width else tall
        for d in range(lo, lo + p.length):
            if d >= n:
                break
            if sw.lanes == 2:
                v = counts[2 * d + 2] + p.source[2 * (d - lo)]
                counts[2 * d + 3] += p.source[2 * (d - lo) + 1] + (v < counts[2 * d + 2])
                counts[2 * d + 2] = v
                continue
            v = counts[d + 1] + p.source[d - lo]
            if m != 0 and v >= m:
                v -= m
            counts[d + 1] = v


cdef int _sweep(
    frontier_t like, int n, int width, uint64_t modulus, int lanes, uint64_t* square,
    uint64_t* tall, size_t* peak_states, size_t* peak_bytes
) noexcept nogil:
    cdef Table a, b
    cdef Table* cur = &a
    cdef Table* nxt = &b
    cdef Table* swap
    cdef Sweep sw
    cdef Pending ring[AHEAD]
    cdef frontier_t fronts[2 * AHEAD]  # the wide frontiers of the ring (narrow: unused)
    cdef Pending* p
    cdef Slot* slot
    cdef size_t i, bytes_now, states, head, tail
    cdef uint64_t key
    cdef frontier_t front
    cdef uint64_t* source
    cdef int row, col, lo, length
    cdef size_t q
    a.slots = b.slots = NULL
    a.arena = b.arena = NULL
    if _table_init(&a) != 0 or _table_init(&b) != 0:
        _table_free(&a)
        _table_free(&b)
        return -1
    sw.n, sw.width, sw.modulus, sw.lanes, sw.failed = n, width, modulus, lanes, 0
    # the empty frontier before row 0: one partial polyomino of no cells
    slot = &a.slots[_hash(0) & a.mask]
    slot.key, slot.lo, slot.length, slot.offset = 0, 0, 1, 0
    a.entries[0] = slot[0]
    a.count = a.kept = 1
    a.used = lanes
    a.arena[0] = 1
    a.arena[1] = 0
    for row in range(n - width + 1):
        for col in range(width):
            sw.row, sw.col = row, col
            _table_clear(nxt)
            head = tail = 0  # the ring holds sources tail .. head - 1
            for i in range(cur.count):
                slot = &cur.entries[i]
                key = slot.key
                length = slot.length
                if key == FREE or length == 0:
                    continue
                front = _unpack(key, width, like)
                if row > 0 and _cells(front) == 0:
                    continue  # never started in row 0
                lo = slot.lo
                source = cur.arena + slot.offset
                # Trim the zeros at both ends: the window is a bound, the
                # contributions that arrived may all lie above the cut or be 0 mod m.
                while length > 0 and source[0] == 0 and (lanes == 1 or source[1] == 0):
                    source += lanes
                    lo += 1
                    length -= 1
                while length > 0 and source[lanes * length - 1] == 0 and (
                        lanes == 1 or source[2 * length - 2] == 0):
                    length -= 1
                if length == 0:
                    continue
                if head - tail == AHEAD:
                    _transfer(&ring[tail % AHEAD], &fronts[2 * (tail % AHEAD)], nxt, &sw,
                              square, tall)
                    tail += 1
                if head - tail >= HALF:
                    p = &ring[(head - HALF) % AHEAD]
                    if p.emptied != DEAD:
                        _prefetch_window(nxt, p.emptied)
                    _prefetch_window(nxt, p.filled)
                p = &ring[head % AHEAD]
                head += 1
                p.source, p.lo, p.length = source, lo, length
                if frontier_t is uint64_t:
                    p.emptied = _emptied(front, col, width)
                    p.filled = _filled(front, col, width)
                else:
                    q = 2 * ((head - 1) % AHEAD)
                    fronts[q] = _emptied(front, col, width)
                    fronts[q + 1] = _filled(front, col, width)
                    p.emptied = DEAD if fronts[q] == _dead(front) else _pack(fronts[q], width)
                    p.filled = _pack(fronts[q + 1], width)
                if p.emptied != DEAD:
                    _prefetch(&nxt.slots[_hash(p.emptied) & nxt.mask])
                _prefetch(&nxt.slots[_hash(p.filled) & nxt.mask])
                if sw.failed:
                    break
            while tail < head and not sw.failed:
                _transfer(&ring[tail % AHEAD], &fronts[2 * (tail % AHEAD)], nxt, &sw,
                          square, tall)
                tail += 1
            if sw.failed:
                _table_free(&a)
                _table_free(&b)
                return -1
            swap = cur
            cur = nxt
            nxt = swap
            states = cur.kept
            if states > peak_states[0]:
                peak_states[0] = states
            bytes_now = _table_bytes(&a) + _table_bytes(&b)
            if bytes_now > peak_bytes[0]:
                peak_bytes[0] = bytes_now
    _table_free(&a)
    _table_free(&b)
    return 0


def cells_used(frontier, int width, int row, int col):
    """The twin's ``cells_used`` (for tests)."""
    cdef uint64_t narrow
    key = _encode(frontier, width)
    if width <= NARROW_WIDTH:
        narrow = key
        return _cells_used(narrow, width, row, col)
    return _cells_used(_wide(key), width, row, col)


def cells_needed(frontier, int touched, int width, int row, int col):
    """The twin's ``cells_needed`` (for tests): frontier labels in, the bound out."""
    cdef uint64_t narrow
    key = _encode(frontier, width)
    flags = 60 if width <= NARROW_WIDTH else 124
    if touched & 1:
        key |= 1 << flags
    if touched & 2:
        key |= 1 << (flags + 1)
    if width <= NARROW_WIDTH:
        narrow = key
        return _cells_needed(narrow, width, row, col)
    return _cells_needed(_wide(key), width, row, col)


cdef u128 _wide(key):
    """A Python int of up to 128 bits as a u128."""
    cdef uint64_t low = key & 0xFFFFFFFFFFFFFFFF, high = key >> 64
    return ((<u128> high) << 64) | low


def _encode(frontier, int width):
    """The fields of a frontier of component labels (0 empty), as a Python int."""
    labels = list(frontier)
    if len(labels) != width:
        raise PolyformError(f"a frontier of width {width} has {width} cells, not {len(labels)}")
    key = 0
    for x in range(width):
        v = labels[x]
        if not v:
            continue
        before = v in labels[:x]
        after = v in labels[x + 1:]
        key |= (MIDDLE if before and after else FIRST if after
                else LAST if before else SINGLE) << (3 * x)
    return key


def count_width(int n, int width, uint64_t modulus=0, bint wide=False, bint base5=False):
    """Count the fixed polyominoes of every size up to ``n`` whose box is ``width`` wide.

    See :func:`polyforms._transfer_py.count_width`; ``memory`` here is the
    bytes the two tables really held at their largest (hash index included).
    Above :data:`NARROW_WIDTH` (or with ``base5``, for tests) the frontiers
    are edited in 128 bits and stored packed in base 5, one word a state.
    """
    if n < 1 or n > 255:
        raise PolyformError(f"the transfer-matrix counter takes sizes 1 to 255, not {n}")
    if not 1 <= width <= (n + 1) // 2:
        raise PolyformError(f"width must be between 1 and {(n + 1) // 2}, not {width}")
    if width > MAX_WIDTH:
        raise PolyformError(f"width {width} is above the widest box packed ({MAX_WIDTH})")
    if modulus != 0 and (modulus >= (<uint64_t> 1) << 63 or modulus < 2):
        raise PolyformError(f"the modulus must be 0 or between 2 and 2**63, not {modulus}")
    if wide and modulus != 0:
        raise PolyformError("wide counts are modulo 2**128: give no modulus with them")
    cdef int lanes = 2 if wide else 1
    cdef uint64_t* square = <uint64_t*> malloc((n + 1) * lanes * sizeof(uint64_t))
    cdef uint64_t* tall = <uint64_t*> malloc((n + 1) * lanes * sizeof(uint64_t))
    cdef size_t states = 0, memory = 0
    cdef int status
    if square == NULL or tall == NULL:
        free(square)
        free(tall)
        raise MemoryError("transfer-matrix counter: no memory for the counts")
    memset(square, 0, (n + 1) * lanes * sizeof(uint64_t))
    memset(tall, 0, (n + 1) * lanes * sizeof(uint64_t))
    cdef uint64_t narrow = 0
    cdef u128 wide_frontier = 0
    if width > NARROW_WIDTH or base5:
        with nogil:
            status = _sweep(wide_frontier, n, width, modulus, lanes, square, tall,
                            &states, &memory)
    else:
        with nogil:
            status = _sweep(narrow, n, width, modulus, lanes, square, tall, &states, &memory)
    try:
        if status != 0:
            raise MemoryError(f"transfer-matrix counter: out of memory at width {width}")
        if wide:
            return ([int(square[2 * k]) | int(square[2 * k + 1]) << 64 for k in range(n + 1)],
                    [int(tall[2 * k]) | int(tall[2 * k + 1]) << 64 for k in range(n + 1)],
                    states, memory)
        return ([square[k] for k in range(n + 1)], [tall[k] for k in range(n + 1)],
                states, memory)
    finally:
        free(square)
        free(tall)
