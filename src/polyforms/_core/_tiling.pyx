# cython: language_level=3
"""Compiled tiling search: bitsets over the region's cells.

This is the fast twin of :mod:`polyforms._core._tiling_py`, which is the
readable specification: same problem form, same branching rules, same
candidate order, hence the same solutions in the same order.

Data structure
--------------
The region's cells are numbered ``0 .. n-1`` in fill order and the occupied
cells are a bitset of ``W = ceil(n / 64)`` 64-bit words. A placement is stored
as its piece, its cells, and the few consecutive words its bitset touches
(``mask_first``, ``mask_count`` and the words at ``mask_offset``): a pentomino
in a 6x10 rectangle spans one or two words whatever the size of the region, so
the overlap test costs one or two ANDs.

Three lists per cell (compressed sparse rows, ``*_start`` / ``*_items``):
``by_first[c]`` (placements whose first cell is ``c``), ``cover[c]``
(placements covering ``c``) and ``neighbours[c]``; one per piece,
``by_piece[p]``.

With ``strategy="mrv"`` each stack level also keeps the placements that
still fit at its node and counts them per cell and per piece: the
fewest-options choice then reads the counts instead of testing every cover
list. On a one-word board whose placements come piece by piece, the fitting
placements are a bitset and a level's cell counts are its parent's less the
placements its last placement killed (``_filter_sets``: bytes taken off
sixteen at a time once every count is below 256), and a piece's count is the
popcount of its range of the set; elsewhere a list filtered from the
parent's (``_filter_alive``). The candidates are taken from them. The choice,
hence the tree, is the same as the twin's.

With ``strategy="first"`` on a board of at most 64 cells, ``_run_first1``
runs the search: the board is one word, the candidates of the first empty
cell are read from a list chosen by the state of the next few cells (so the
placements that cannot fit are mostly never read), and the area test is
bit-parallel (``_area_ok1``). Same tree, same order.

A count whose pieces are all free (any number of copies, none required)
memoizes: the tilings below a node depend only on its board, kept in an
open-addressing table by board (``_memo_find``); a board met again adds its
count without being searched. Same rules as the twin's, so the same nodes.

The search is iterative with an explicit stack so that it can stop at a
solution or after a budget of nodes and resume later: the same loop serves
``count`` (never stops at solutions), ``solutions`` (stops at each), progress
reports and Ctrl-C (the caller regains the GIL between budgets).
Stack level ``d`` holds the candidate list of its node (``st_items`` +
``st_len``), the next position to try (``st_pos``), the branching cell, and
the placement chosen there (``st_placed``).
"""

from libc.limits cimport LLONG_MAX
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free, calloc, realloc
from libc.string cimport memcmp, memcpy, memset
from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock,
                               PyThread_start_new_thread, WAIT_LOCK)

from ._walks cimport _draw, _seeded, _step

import array

from ..errors import CountOverflowError as _CountOverflowError  # the twin's ints never overflow
from ..errors import TilingError
from ..limits import memo_entries, memory_text

cdef extern from *:
    """
    /* The kill step of the bitset form once every cell count is below 256: the
       board is one word, so a level's counts are 64 bytes, and each killed
       placement's cells (a row of 64 bytes of 0 or 1) are taken off sixteen
       counts at a time, the counts held in four vector registers. The vector
       type is unaligned (plain malloc suffices) and portable (GCC, Clang). */
    typedef unsigned char pf_u8x16 __attribute__((vector_size(16), aligned(1)));

    static inline void pf_kill8(unsigned char *out, const unsigned char *in,
                                const unsigned char *rows, const uint64_t *parent,
                                uint64_t *alive, int words)
    {
        const pf_u8x16 *src = (const pf_u8x16 *) in;
        pf_u8x16 a0 = src[0], a1 = src[1], a2 = src[2], a3 = src[3];
        for (int w = 0; w < words; w++) {
            uint64_t kill = alive[w], gone = parent[w] & kill;
            alive[w] = parent[w] & ~kill;
            while (gone) {
                const pf_u8x16 *r = (const pf_u8x16 *)
                    (rows + ((size_t) ((w << 6) + __builtin_ctzll(gone)) << 6));
                gone &= gone - 1;
                a0 -= r[0]; a1 -= r[1]; a2 -= r[2]; a3 -= r[3];
            }
        }
        pf_u8x16 *dst = (pf_u8x16 *) out;
        dst[0] = a0; dst[1] = a1; dst[2] = a2; dst[3] = a3;
    }

    /* Ask Linux to back a large block with 2 MiB pages (transparent huge
       pages, where they are left to madvise): the memo's table is read at
       random, and with 4 KiB pages most of its reads also miss the TLB.
       Elsewhere, or if the kernel declines, nothing changes. */
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    static void pf_advise_huge(void *start, size_t size)
    {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        const uintptr_t huge = (uintptr_t) 1 << 21;
        uintptr_t from = ((uintptr_t) start + huge - 1) & ~(huge - 1);
        uintptr_t to = ((uintptr_t) start + size) & ~(huge - 1);
        if (to > from)
            madvise((void *) from, to - from, MADV_HUGEPAGE);
    #else
        (void) start; (void) size;
    #endif
    }

    /* Ask for the cache line at p ahead of its use (a hint; nothing elsewhere). */
    static inline void pf_prefetch(const void *p)
    {
    #if defined(__GNUC__) || defined(__clang__)
        __builtin_prefetch(p);
    #else
        (void) p;
    #endif
    }
    """
    void pf_kill8(unsigned char *out, const unsigned char *inp, const unsigned char *rows,
                  const uint64_t *parent, uint64_t *alive, int words) nogil
    void pf_advise_huge(void *start, size_t size) nogil
    void pf_prefetch(const void *p) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil
    bint __builtin_saddll_overflow(long long, long long, long long *) nogil

STRATEGIES = ("first", "mrv")

cdef enum:
    DONE = 0
    SOLUTION = 1
    BUDGET = 2
    OVERFLOW = 3  # the count passed MAX_COUNT (reachable with the memo: 5x27 by trominoes)
    MAX_DIRS = 16
    MAX_WINDOW = 7           # cells after the first empty one that select its candidate list
    WINDOW_ENTRIES = 1 << 19 # ... as many as keep the split lists this long at most
    MAX_SET_WORDS = 256      # the alive sets are bitsets up to 16,384 placements

cdef long long CHUNK = 1 << 21
cdef long long STOP_CHUNK = 1 << 12  # nodes between two questions to a count's ``stop``
cdef long long MAX_COUNT = 0x7fffffffffffffff
# The most boards a saved sweep's layer may claim: far past any memory, and small
# enough that sizing its tables (a few multiplications by small numbers) cannot
# overflow 64 bits.
MAX_LAYER_BOARDS = 1 << 48
cdef int MEMO_FIRST_BITS = 12          # first size of the memo and of sweep tables: 4,096 slots
# ... but a sweep's table starts with fewer slots where 4,096 would take more bytes
# than this (boards of more than 192 cells): a layer of one board (a long region
# filled by few ways) then clears and scans a few slots, not 4,096 slots of the
# whole board each (200x200 by the monomino: 20 MB a layer, 40,000 layers, 18 s).
cdef size_t FIRST_TABLE_BYTES = 4096 * 4 * 8
# Tables from this size ask for huge pages. Measured (THP on or off, same build):
# the 10x10 pentomino count's table of 8 GiB 0.88x the time; 8x10's and 10x10 by
# the tetrominoes' (256-512 MiB) 1.12x, three times the system time.
cdef size_t HUGE_FROM = (<size_t> 1) << 30
cdef long long GROW_SLICE = 1 << 16    # slots moved between two looks at signals while it doubles
cdef uint64_t _MIX = 0x9E3779B97F4A7C15


cdef uint64_t *_table(size_t bytes) noexcept nogil:
    """A zeroed hash table of ``bytes`` (NULL if out of memory); from
    :data:`HUGE_FROM` bytes it asks for huge pages."""
    cdef uint64_t *table = <uint64_t *> calloc(bytes, 1)
    if table != NULL and bytes >= HUGE_FROM:
        pf_advise_huge(table, bytes)
    return table


cdef inline uint64_t _board_hash(const uint64_t *occ, int W) noexcept nogil:
    """A multiplicative hash of a board; the memo takes its top bits."""
    cdef uint64_t h = 0
    cdef int i
    for i in range(W):
        h = (h ^ occ[i]) * _MIX
    return h


cdef inline bint _same_board(const uint64_t *a, const uint64_t *b, int W) noexcept nogil:
    """Whether the boards of ``W`` words at ``a`` and ``b`` are one (the probes
    of the memo and of the sweep's tables)."""
    cdef int i
    for i in range(W):
        if a[i] != b[i]:
            return False
    return True


cdef uint64_t _M1 = 0x5555555555555555
cdef uint64_t _M2 = 0x3333333333333333
cdef uint64_t _M4 = 0x0f0f0f0f0f0f0f0f
cdef uint64_t _H01 = 0x0101010101010101


cdef inline int _ones(uint64_t x) noexcept nogil:
    """The number of set bits (branch-free; the compiler's builtin is a library call
    on a baseline x86-64 build)."""
    x = x - ((x >> 1) & _M1)
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    return <int> ((x * _H01) >> 56)


cdef int _gcd(int a, int b) noexcept nogil:
    while b:
        a, b = b, a % b
    return a


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
        self._deadlines_and_sizes()

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
        self._borders(rows, nb_lists)
        self._shift_form(nb_lists)
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
            self._alive_sets(cover, by_piece)
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
        self._reset(None)
        self.nodes = 0
        self.found = 0

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

    cdef inline bint _dead_size(self, int size) noexcept nogil:
        """True if no combination of the pieces fills an isolated area of ``size``
        cells (by the least piece size and the gcd of the sizes)."""
        return size < self.min_size or size % self.size_gcd != 0

    cdef int _deadlines_and_sizes(self) except -1:
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

    cdef int _borders(self, rows, nb_lists) except -1:
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

    cdef int _shift_form(self, nb_lists) except -1:
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

    cdef int _alive_sets(self, cover, by_piece) except -1:
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

    cdef int _window_lists(self) except -1:
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

    # -- state -------------------------------------------------------------------

    cdef int _start(self, prefix) except -1:
        """Set up a search from ``prefix``: build the split lists if stale, then reset."""
        if self.lists_stale:
            self._window_lists()
            self.lists_stale = False
        self._reset(prefix)
        return 0

    cdef void _reset(self, prefix) except *:
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

    cdef inline bint _fits(self, int p) noexcept nogil:
        cdef int k, first = self.mask_first[p], off = self.mask_offset[p]
        if self.remaining[self.piece[p]] == 0 or self.excluded[p]:
            return False
        if self.mask_count[p] == 1:
            return (self.mask_words[off] & self.occ[first]) == 0
        for k in range(self.mask_count[p]):
            if self.mask_words[off + k] & self.occ[first + k]:
                return False
        return True

    cdef inline void _place(self, int p) noexcept nogil:
        cdef int k, first = self.mask_first[p], off = self.mask_offset[p]
        for k in range(self.mask_count[p]):
            self.occ[first + k] |= self.mask_words[off + k]
        # used copies = limit - remaining (also for an unbounded piece, limit -1)
        if self.limits[self.piece[p]] - self.remaining[self.piece[p]] < self.minimum[self.piece[p]]:
            self.owed -= 1
        self.remaining[self.piece[p]] -= 1
        self.filled += self.cell_start[p + 1] - self.cell_start[p]

    cdef inline void _unplace(self, int p) noexcept nogil:
        cdef int k, first = self.mask_first[p], off = self.mask_offset[p]
        for k in range(self.mask_count[p]):
            self.occ[first + k] &= ~self.mask_words[off + k]
        self.remaining[self.piece[p]] += 1
        if self.limits[self.piece[p]] - self.remaining[self.piece[p]] < self.minimum[self.piece[p]]:
            self.owed += 1
        self.filled -= self.cell_start[p + 1] - self.cell_start[p]

    cdef inline int _first_empty(self, int start) noexcept nogil:
        cdef int w = start >> 6
        cdef uint64_t free_bits = ~self.occ[w] & (~(<uint64_t> 0) << (start & 63))
        while free_bits == 0:
            w += 1
            free_bits = ~self.occ[w]
        return (w << 6) + __builtin_ctzll(free_bits)

    cdef inline bint _isolated(self, int q) noexcept nogil:
        """True if empty cell ``q`` has no empty neighbour."""
        cdef int k, first = self.nbm_first[q], off = self.nbm_offset[q]
        for k in range(self.nbm_count[q]):
            if self.nbm_words[off + k] & ~self.occ[first + k]:
                return False
        return True

    cdef bint _area_ok(self, int p) noexcept nogil:
        """False if placement ``p`` (already placed) isolates an unfillable area.

        Only the cells bordering ``p`` can have become cut off. An empty border
        cell with no empty neighbour is tested by its neighbour mask alone;
        otherwise its area is flood-filled in ``work`` up to ``flood_cap`` cells.
        A fill that reaches the cap stops (the area is then left alone) and its
        marks are dropped, so that a later start in the same area measures it
        again rather than seeing a fragment; a completed fill is kept in
        ``seen`` so an area is measured once.
        """
        cdef int i, k, w, start, cell, nxt, top, size
        cdef bint copied = False
        if not self.has_neighbours:
            return True
        if self.ndir:
            return self._area_ok1(self.bd64[p], self.occ[0])
        for i in range(self.bd_start[p], self.bd_start[p + 1]):
            start = self.bd_items[i]
            if self.occ[start >> 6] >> (start & 63) & 1:
                continue
            if self._isolated(start):
                if self.single_dead:
                    return False
                continue
            if self.flood_cap <= 1:
                continue
            if not copied:
                for w in range(self.W):
                    self.seen[w] = self.occ[w]
                copied = True
            elif self.seen[start >> 6] >> (start & 63) & 1:
                continue
            for w in range(self.W):
                self.work[w] = self.seen[w]
            self.work[start >> 6] |= (<uint64_t> 1) << (start & 63)
            self.flood[0] = start
            top = 1
            size = 0
            while top and size < self.flood_cap:
                top -= 1
                cell = self.flood[top]
                size += 1
                for k in range(self.nb_start[cell], self.nb_start[cell + 1]):
                    nxt = self.nb_items[k]
                    if not (self.work[nxt >> 6] >> (nxt & 63) & 1):
                        self.work[nxt >> 6] |= (<uint64_t> 1) << (nxt & 63)
                        self.flood[top] = nxt
                        top += 1
            if top:
                continue  # at least flood_cap cells: left alone
            if self._dead_size(size):
                return False
            for w in range(self.W):
                self.seen[w] = self.work[w]
        return True

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

    cdef bint _grow_alive(self, long long need) noexcept nogil:
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

    cdef bint _filter_alive(self, int d) noexcept nogil:
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

    cdef void _filter_sets(self, int d) noexcept nogil:
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

    cdef int _piece_fits(self, int d, int i, int enough) noexcept nogil:
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

    cdef void _take_sets(self, int d, int best_cell, int best_kind) noexcept nogil:
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

    cdef inline bint _covers(self, int p, int c) noexcept nogil:
        cdef int w = (c >> 6) - self.mask_first[p]
        if w < 0 or w >= self.mask_count[p]:
            return False
        return (self.mask_words[self.mask_offset[p] + w] >> (c & 63)) & 1

    cdef void _take_candidates(self, int d, int best_cell, int best_kind) noexcept nogil:
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

    cdef inline bint _past_deadline(self, int c) noexcept nogil:
        """Whether a piece still owed has no placement starting at or after cell ``c``
        (branching on the first empty cell ``c``). Pieces are scanned by deadline,
        so the scan usually stops at the first one."""
        cdef int i, k
        for i in range(self.ndeadline):
            k = self.by_deadline[i]
            if self.last_start[k] >= c:
                return False
            if self.limits[k] - self.remaining[k] < self.minimum[k]:
                return True
        return False

    cdef void _choose(self, int d, int hint) noexcept nogil:
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

    cdef int _run(self, long long budget, bint stop_at_solution) noexcept nogil:
        """Advance the search; return SOLUTION, DONE, or BUDGET when ``budget`` nodes are used."""
        cdef int d = self.depth, p, hint, off
        cdef int *items
        cdef int *skip
        cdef long long spent = 0, known
        cdef bint memo = (self.memo and self.memo_ok and self.memo_table != NULL
                          and not stop_at_solution)
        if self.fast_first:
            return self._run_first1(budget, stop_at_solution)
        while True:
            if self.entering:
                if spent >= budget:
                    self.depth = d
                    return BUDGET
                spent += 1
                self.nodes += 1
                self.entering = 0
                known = -1
                if memo:
                    self.st_found[d] = -1
                    if self.n - self.filled >= self.memo_min_empty:
                        known = self._memo_count(self.occ)
                        if known < 0:
                            self.st_found[d] = self.found
                if self.filled == self.n:
                    self.st_len[d] = 0
                    self.st_pos[d] = 0
                    if self.owed == 0:  # every lower bound met: a tiling
                        if self.found == MAX_COUNT:
                            self.depth = d
                            return OVERFLOW
                        self.found += 1
                        if stop_at_solution:
                            self.depth = d
                            return SOLUTION
                elif known >= 0:  # met before: its tilings, without searching again
                    if __builtin_saddll_overflow(self.found, known, &self.found):
                        self.depth = d
                        return OVERFLOW
                    self.st_kind[d] = 0
                    self.st_items_off[d] = 0
                    self.st_len[d] = 0
                    self.st_pos[d] = 0
                else:
                    hint = 0
                    if d > 0 and self.st_cell[d - 1] > 0:
                        hint = self.st_cell[d - 1]
                    self._choose(d, hint)
            # try the next candidate of the node at level d
            if self.st_kind[d] == 0:
                items = self.first_items
                skip = self.first_skip
            elif self.st_kind[d] == 1:
                items = self.cover_items
                skip = self.cover_skip
            elif self.st_kind[d] == 2:
                items = self.piece_items
                skip = self.piece_skip
            else:  # taken from the alive list: every candidate fits, none is used up
                items = self.alive
                skip = NULL
            off = self.st_items_off[d]
            while self.st_pos[d] < self.st_len[d]:
                p = items[off + self.st_pos[d]]
                if self.remaining[self.piece[p]] == 0:
                    self.st_pos[d] = skip[off + self.st_pos[d]] - off
                    continue
                self.st_pos[d] += 1
                if not self._fits(p):
                    continue
                self._place(p)
                if not self._area_ok(p):
                    self._unplace(p)
                    continue
                self.st_placed[d] = p
                d += 1
                self.entering = 1
                break
            if self.entering:
                continue
            if memo and self.st_found[d] >= 0:
                self._memo_store(self.occ, self.found - self.st_found[d])
                if self.memo_grow_due:
                    spent = budget  # stop at the next node: ``count`` doubles the memo
            if d == self.base:
                self.depth = d
                return DONE
            d -= 1
            self._unplace(self.st_placed[d])

    cdef int _run_first1(self, long long budget, bint stop_at_solution) noexcept nogil:
        """:meth:`_run` for ``strategy="first"`` on a one-word board, unrolled: the
        board is a local word, the pieces still available a local bitset, the
        first empty cell one bit scan, and the area test a few shifts. Same tree,
        same order, same node count."""
        cdef int d = self.depth, p, c, i, k, end, pc, status
        cdef long long spent = 0, nodes = self.nodes, found = self.found
        cdef uint64_t full = self.full64, occ = self.occ[0], m
        cdef uint64_t *avail = self.avail   # a bit a piece; with 64 pieces or fewer, in a0
        cdef uint64_t a0
        cdef bint few = self.npieces <= 64
        cdef int *items = self.fl_item
        cdef int *skip = self.fl_skip
        cdef int *piece = self.piece
        cdef int *remaining = self.remaining
        cdef int *limits = self.limits
        cdef int *minimum = self.minimum
        cdef uint64_t *masks = self.mask_words
        cdef uint64_t *fl_mask = self.fl_mask
        cdef uint64_t *fl_border = self.fl_border
        cdef int *fl_piece = self.fl_piece
        cdef int *st_pos = self.st_pos
        cdef bint check = self.has_neighbours, entering = self.entering
        cdef int window = self.window
        cdef uint64_t low = ((<uint64_t> 1) << window) - 1
        cdef bint memo = (self.memo and self.memo_ok and self.memo_table != NULL
                          and not stop_at_solution)
        cdef int fill_max = self.n - self.memo_min_empty  # memoized: nodes filled up to this
        cdef long long *st_found = self.st_found
        cdef long long known
        cdef uint64_t board  # a copy of occ for the memo (occ's address is never taken)
        for i in range((self.npieces + 63) >> 6):
            avail[i] = 0
        for i in range(self.npieces):
            if remaining[i] != 0:
                avail[i >> 6] |= (<uint64_t> 1) << (i & 63)
        a0 = avail[0]
        while True:
            if entering:
                if spent >= budget:
                    status = BUDGET
                    break
                spent += 1
                nodes += 1
                entering = 0
                known = -1
                if memo:
                    st_found[d] = -1
                    if _ones(occ) <= fill_max:
                        board = occ
                        known = self._memo_count(&board)
                        if known < 0:
                            st_found[d] = found
                if occ == full:
                    st_pos[d] = 0
                    self.st_len[d] = 0
                    if self.owed == 0:  # every lower bound met: a tiling
                        if found == MAX_COUNT:
                            status = OVERFLOW
                            break
                        found += 1
                        if stop_at_solution:
                            status = SOLUTION
                            break
                elif known >= 0:  # met before: its tilings, without searching again
                    if __builtin_saddll_overflow(found, known, &found):
                        status = OVERFLOW
                        break
                    st_pos[d] = 0
                    self.st_len[d] = 0
                else:
                    c = __builtin_ctzll(~occ)
                    i = (c << window) + <int> (((occ >> c) >> 1) & low)
                    self.st_cell[d] = c
                    self.st_kind[d] = 0
                    self.st_items_off[d] = self.fl_start[i]
                    st_pos[d] = self.fl_start[i]
                    self.st_len[d] = self.fl_start[i + 1]
                    if self._past_deadline(c):
                        self.st_len[d] = 0
            # st_pos and st_len are absolute positions in the fl_ lists here, from
            # st_items_off (the list's start)
            k = st_pos[d]
            end = self.st_len[d]
            while k < end:
                pc = fl_piece[k]
                if not ((a0 >> pc) & 1 if few else (avail[pc >> 6] >> (pc & 63)) & 1):
                    k = skip[k]
                    continue
                m = fl_mask[k]
                k += 1
                if m & occ:
                    continue
                if check and not self._area_ok1(fl_border[k - 1], occ | m):
                    continue
                occ |= m
                if limits[pc] - remaining[pc] < minimum[pc]:
                    self.owed -= 1
                remaining[pc] -= 1
                if remaining[pc] == 0:
                    if few:
                        a0 &= ~((<uint64_t> 1) << pc)
                    else:
                        avail[pc >> 6] &= ~((<uint64_t> 1) << (pc & 63))
                self.st_placed[d] = items[k - 1]
                entering = 1
                break
            st_pos[d] = k
            if entering:
                d += 1
                continue
            if memo and st_found[d] >= 0:
                board = occ
                self._memo_store(&board, found - st_found[d])
                if self.memo_grow_due:
                    spent = budget  # stop at the next node: ``count`` doubles the memo
            if d == self.base:
                status = DONE
                break
            d -= 1
            p = self.st_placed[d]
            pc = piece[p]
            occ &= ~masks[p]
            remaining[pc] += 1
            if few:
                a0 |= (<uint64_t> 1) << pc
            else:
                avail[pc >> 6] |= (<uint64_t> 1) << (pc & 63)
            if limits[pc] - remaining[pc] < minimum[pc]:
                self.owed += 1
        self.depth = d
        self.entering = entering
        self.nodes = nodes
        self.found = found
        self.occ[0] = occ
        self.filled = __builtin_popcountll(occ)
        return status

    # -- the memo (free pieces only) ------------------------------------------------

    cdef uint64_t *_memo_find(self, const uint64_t *occ) noexcept nogil:
        """The slot holding board ``occ`` (of this generation), or the empty slot
        where it would go."""
        cdef int W = self.W, stride = self.W + 2
        cdef uint64_t mask = ((<uint64_t> 1) << self.memo_bits) - 1
        cdef uint64_t slot = _board_hash(occ, W) >> (64 - self.memo_bits)
        cdef uint64_t *e
        while True:
            e = self.memo_table + slot * stride
            if e[0] != self.memo_gen or _same_board(e + 2, occ, W):
                return e
            slot = (slot + 1) & mask

    cdef int _memo_grow(self) except -1:
        """Double the table, keeping its boards. With the GIL, a slice of slots
        at a time, looking at signals in between: doubling a table of
        gigabytes takes seconds, and Ctrl-C must not wait for it (if a signal
        handler raises, the new table is dropped and the old one kept). Out of
        memory, the memo starts over in the table there is."""
        cdef int stride = self.W + 2, i
        cdef uint64_t *old = self.memo_table
        cdef uint64_t *e
        cdef uint64_t *f
        cdef long long slots = (<long long> 1) << self.memo_bits, s, start, end
        cdef uint64_t *grown = _table(<size_t> (2 * slots * stride) * sizeof(uint64_t))
        self.memo_grow_due = 0
        if grown == NULL:
            self.memo_gen += 1
            self.memo_live = 0
            return 0
        self.memo_table = grown
        self.memo_bits += 1
        try:
            start = 0
            while start < slots:
                end = min(slots, start + GROW_SLICE)
                with nogil:
                    for s in range(start, end):
                        e = old + s * stride
                        if e[0] == self.memo_gen:
                            f = self._memo_find(e + 2)
                            for i in range(stride):
                                f[i] = e[i]
                start = end
                if start < slots:
                    PyErr_CheckSignals()
        except BaseException:
            free(grown)
            self.memo_table = old
            self.memo_bits -= 1
            self.memo_grow_due = 1
            raise
        free(old)
        return 0

    cdef void _memo_store(self, const uint64_t *occ, long long count) noexcept nogil:
        """Remember ``count`` tilings below board ``occ``. Past ``memo_entries``
        boards the memo starts over (as the twin's)."""
        cdef uint64_t *e
        cdef int i
        cdef long long slots = (<long long> 1) << self.memo_bits
        if self.memo_live >= self.memo_entries:
            self.memo_gen += 1
            self.memo_live = 0
        elif 2 * (self.memo_live + 1) > slots:
            # The search stops at its next node for ``count`` to double the
            # table; up to there (a few boards) it fills past half, never past
            # three quarters: past that a board is just not kept.
            self.memo_grow_due = 1
            if 4 * (self.memo_live + 1) > 3 * slots:
                return
        e = self._memo_find(occ)
        if e[0] != self.memo_gen:
            self.memo_live += 1
        e[0] = self.memo_gen
        e[1] = <uint64_t> count
        for i in range(self.W):
            e[2 + i] = occ[i]

    cdef inline long long _memo_count(self, const uint64_t *occ) noexcept nogil:
        """The tilings below board ``occ`` if the memo has them, else -1."""
        cdef uint64_t *e = self._memo_find(occ)
        if e[0] != self.memo_gen:
            return -1
        return <long long> e[1]

    cdef int _memo_prepare(self) except -1:
        """Give a count that memoizes its table (first count: ``2**MEMO_FIRST_BITS`` slots)."""
        if self.memo_table != NULL or not (self.memo and self.memo_ok):
            return 0
        self.memo_table = _table(((<size_t> 1) << MEMO_FIRST_BITS) * (self.W + 2) * sizeof(uint64_t))
        if self.memo_table == NULL:
            raise MemoryError("no memory for the memo of the search")
        self.memo_bits = MEMO_FIRST_BITS
        self.memo_live = 0
        return 0

    cdef double _fraction(self) noexcept:
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

    cdef bint _same_problem(self, TilingSearch o) noexcept:
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
        self._deadlines_and_sizes()
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
        self._start(prefix)
        self._memo_prepare()
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
                self._memo_grow()
                if self.nodes - before < step:
                    with nogil:
                        status = self._run(step - (self.nodes - before), False)
            if left >= 0:
                left -= self.nodes - before
            if PyErr_CheckSignals() != 0:
                raise KeyboardInterrupt
            if progress is not None and status == BUDGET:
                progress(self._fraction())
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
        self._start(prefix)
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

    cdef int _kids(self, int d, int *out) noexcept nogil:
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

    def branch(self, prefix=()):
        """Return the fitting children of the node reached by ``prefix`` (None: tiled)."""
        cdef int d, k
        self._start(prefix)
        if self.filled == self.n:
            return None
        d = self.depth
        self._choose(d, 0)
        if self.alive_oom:
            raise MemoryError("no memory for the candidate lists of the search")
        k = self._kids(d, self.kids)
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
        self._start(prefix)
        self.nodes = 0
        if self.filled == self.n:
            return 1.0
        d0 = self.depth
        self._choose(d0, 0)
        if self.alive_oom:
            raise MemoryError("no memory for the candidate lists of the search")
        k0 = self._kids(d0, first_kids)
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
                k = self._kids(d, kids)
                if k == 0:
                    break
            while d > d0:
                d -= 1
                self._unplace(self.st_placed[d])
            self.depth = d0
            total += size
        return total / probes


# -- the sweep over boards (free pieces only) ------------------------------------------

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
            if not search._same_problem(other):
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
        search._start(prefix)
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

    cdef int _make_room(self) except -1:
        """Make or grow each table the phase's children could take past half full."""
        cdef int i, t
        cdef long long coming
        for i in range(self.L * self.T):
            coming = 0
            for t in range(self.T):
                coming += self.lanes[t].pend[i]
            if coming == 0:
                continue
            if self.tab[i] == NULL:
                self._presize(i, coming)
            while 2 * (self.used[i] + coming) > ((<long long> 1) << self.bits[i]):
                self._grow(i)
        return 0

    cdef int _grow(self, int i) except -1:
        """Double table ``i``, a slice of slots at a time with the GIL, looking
        at signals in between (a raising handler leaves the old table in
        place). Past the budget: MemoryError."""
        cdef int w
        cdef uint64_t *old = self.tab[i]
        cdef uint64_t *e
        cdef uint64_t *f
        cdef long long slots = (<long long> 1) << self.bits[i], s, start, end
        cdef size_t old_bytes = self._bytes(self.bits[i])
        cdef uint64_t *grown
        self._within_budget(2 * old_bytes)
        grown = _table(2 * old_bytes)
        if grown == NULL:
            raise MemoryError("no memory to grow the sweep")
        self.tab[i] = grown
        self.bits[i] += 1
        try:
            start = 0
            while start < slots:
                end = min(slots, start + GROW_SLICE)
                with nogil:
                    for s in range(start, end):
                        e = old + s * self.stride
                        if not self._empty(e):
                            f = self._find(i, e + 1, _board_hash(e + 1, self.W))
                            for w in range(self.stride):
                                f[w] = e[w]
                start = end
                if start < slots:
                    PyErr_CheckSignals()
        except BaseException:
            free(grown)
            self.tab[i] = old
            self.bits[i] -= 1
            raise
        free(old)
        self.size += old_bytes
        self.peak = max(self.peak, self.size + old_bytes)
        if self.grow_due == i:
            self.grow_due = -1
        return 0

    cdef int _widen(self) except -1:
        """Give every slot a word more, the high word of its ways (0): from now
        on the ways are 128-bit. Each table is first made larger in place
        (``realloc``: a failure leaves the tables as they were, larger), then
        its slots are spread out from the last one down. Between phases only
        (the lanes' buffers are empty). MemoryError past the budget."""
        cdef int i, w, old = self.stride
        cdef long long slots, k
        cdef size_t more = 0
        cdef uint64_t *grown
        cdef uint64_t *e
        cdef uint64_t *f
        for i in range(self.L * self.T):
            if self.tab[i] != NULL:
                more += ((<size_t> 1) << self.bits[i]) * sizeof(uint64_t)
        self._within_budget(more)
        for i in range(self.L * self.T):
            if self.tab[i] != NULL:
                grown = <uint64_t *> realloc(
                    self.tab[i], ((<size_t> 1) << self.bits[i]) * (old + 1) * sizeof(uint64_t))
                if grown == NULL:
                    raise MemoryError("no memory to widen the sweep's counts")
                self.tab[i] = grown
        with nogil:
            for i in range(self.L * self.T):
                if self.tab[i] == NULL:
                    continue
                slots = (<long long> 1) << self.bits[i]
                for k in range(slots - 1, -1, -1):  # slot k moves up to k * (old + 1)
                    e = self.tab[i] + k * old
                    f = self.tab[i] + k * (old + 1)
                    f[old] = 0
                    for w in range(old - 1, -1, -1):
                        f[w] = e[w]
        self._wider()
        self.size += more
        self.peak = max(self.peak, self.size)
        return 0

    cdef void _wider(self) noexcept:
        """A word more for each slot and each child's record, the high word of its
        ways (the tables already laid out so, or none); the lanes' buffers, empty,
        hold fewer records in the same bytes."""
        cdef int t, u
        for t in range(self.T):
            for u in range(self.T):
                self.lanes[t].out_cap[u] = self.lanes[t].out_cap[u] * self.rec // (self.rec + 1)
        self.stride += 1
        self.rec += 1
        self.wide = True

    cdef int _presize(self, int i, long long boards) except -1:
        """Give table ``i``, not made yet, room for ``boards`` at most half full."""
        cdef int bits = self.first_bits
        while ((<long long> 1) << bits) < 2 * boards:
            bits += 1
        self._within_budget(self._bytes(bits))
        self.tab[i] = _table(self._bytes(bits))
        if self.tab[i] == NULL:
            raise MemoryError("no memory for the sweep")
        self.bits[i] = bits
        self.used[i] = 0
        self.size += self._bytes(bits)
        self.peak = max(self.peak, self.size)
        return 0

    cdef int _within_budget(self, size_t more) except -1:
        """MemoryError if ``more`` bytes of tables would pass the budget."""
        if self.size + more > self.budget:
            raise MemoryError(
                f"the sweep needs more than its {memory_text(self.budget)} of memory")
        return 0

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
                    self._make_room()  # may double tables: signals are looked at there
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
                    self._widen()
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
        cdef int g, i, t, w
        cdef long long s, slots, k
        cdef uint64_t *e
        layers = []
        for g in range(self.filled, min(self.filled + self.L, self.n + 1)):
            left = self._layer_used(g) - (self.layer_done if g == self.filled else 0)
            if left:
                layers.append((g, left))
        wide = self.wide or self.total_hi != 0  # a narrow sweep's count can pass 2**64 - 1
        head = array.array("Q", [SWEEP_MAGIC_WIDE if wide else SWEEP_MAGIC, self.W,
                                 self.n, self.filled, self.total, self.states, self.moves,
                                 len(layers)])
        if wide:
            head.append(self.total_hi)
        out.write(head.tobytes())
        chunk = array.array("Q")
        for g, left in layers:
            out.write(array.array("Q", [g, left]).tobytes())
            k = 0
            for t in range(self.T):
                i = (g % self.L) * self.T + t
                if self.tab[i] == NULL:
                    continue
                slots = (<long long> 1) << self.bits[i]
                for s in range(self.lanes[t].pos if g == self.filled else 0, slots):
                    e = self.tab[i] + s * self.stride
                    if not self._empty(e):
                        for w in range(self.stride):
                            chunk.append(e[w])
                        if wide and not self.wide:
                            chunk.append(0)
                        k += 1
                        if len(chunk) >= 1 << 17:
                            out.write(chunk.tobytes())
                            del chunk[:]
            out.write(chunk.tobytes())
            del chunk[:]
            if k != left:
                raise TilingError(f"internal error: {k} boards in layer {g}, not {left}")

    def load(self, inp):
        """Take up a sweep :meth:`save` wrote (of this search from the same prefix);
        a wide save widens this sweep."""
        cdef int i, t, w, fs
        cdef long long k, m, j, count, part, at
        cdef uint64_t *e
        cdef uint64_t lo, hi
        cdef bint dense, wide
        cdef unsigned long long[:] view
        head = _read_words(inp, 8)
        if (head[0] not in (SWEEP_MAGIC, SWEEP_MAGIC_WIDE) or head[1] != self.W
                or head[2] != self.n):
            raise TilingError("not a saved sweep of this search")
        _check_sweep_head(head, self.n)
        wide = head[0] == SWEEP_MAGIC_WIDE
        fs = self.W + 1 + wide  # words a board takes in the file
        for i in range(self.L * self.T):
            free(self.tab[i])
            self.tab[i] = NULL
            self.used[i] = 0
        self._clear_phase(False)
        for t in range(self.T):
            self.lanes[t].pos = 0
        if wide and not self.wide:
            self._wider()  # no tables now
        self.size = 0
        self.grow_due = -1
        self.big = False
        self.filled = head[3]
        self.layer_done = 0
        self.total = head[4]
        self.total_hi = _read_words(inp, 1)[0] if wide else 0
        self.states = head[5]
        self.moves = head[6]
        for _ in range(head[7]):
            g, claimed = _read_words(inp, 2)  # Python ints: checked before a C field
            if not self.filled <= g < self.filled + self.L or g > self.n:
                raise TilingError("a saved sweep's layer is out of place")
            if self.tab[(g % self.L) * self.T] != NULL:
                raise TilingError("a saved sweep holds a layer twice")
            _check_layer_size(inp, claimed, fs)
            count = claimed
            # The layer being swept is only read, never looked up: its boards
            # go one after the other, shard t taking the t-th of T runs. Into
            # the tables of the layers ahead they go by hash, and a table too
            # small for them would pile them up in one run of linear probing
            # (9x10 half done: 2.4 M boards, 330 s), so each shard is made big
            # enough for its share at once, with some to spare.
            dense = g == self.filled
            for t in range(self.T):
                part = count * (t + 1) // self.T - count * t // self.T
                self._presize((g % self.L) * self.T + t,
                              (part + 1) // 2 if dense else part + part // 16 + 64)
            k = 0
            t = 0
            while k < count:
                m = min(count - k, 1 << 16)
                view = _read_words(inp, m * fs)
                for j in range(m):
                    lo = view[j * fs]
                    hi = view[j * fs + self.W + 1] if wide else 0
                    if lo == 0 and hi == 0:
                        raise TilingError("a saved sweep holds a board reached no way")
                    if not self._of_layer(&view[j * fs + 1], g):
                        raise TilingError("a saved sweep holds a board not of its layer")
                    if dense:
                        at = k + j
                        while at >= count * (t + 1) // self.T:
                            t += 1
                        i = (g % self.L) * self.T + t
                        e = self.tab[i] + (at - count * t // self.T) * self.stride
                        for w in range(self.W + 1):
                            e[w] = view[j * fs + w]
                        if self.wide:
                            e[self.W + 1] = hi
                        self.used[i] += 1
                        self.big |= not self.wide and lo >> WIDEN_BITS != 0
                        continue
                    self._add(g, <const uint64_t *> &view[j * fs + 1], lo, hi)
                    if self.overflow:
                        raise TilingError("a saved sweep holds a board twice, past what "
                                          "its ways can count")
                    if self.grow_due >= 0:
                        self._grow(self.grow_due)
                k += m
        if inp.read(1):
            raise TilingError("a saved sweep has bytes past its end")
        if self.big and not self.wide:
            self._widen()  # a board of the twin's save near 2**64: room to add to it


def _check_sweep_head(head, n):
    """Refuse a header whose numbers no sweep of ``n`` cells writes (before any is
    stored in a C field, where a forged one would overflow)."""
    if head[3] > n + 1:  # n + 1: a finished sweep
        raise TilingError("a saved sweep's layer is out of place")
    if head[5] > MAX_COUNT or head[6] > MAX_COUNT:
        raise TilingError("a saved sweep's counts of boards and moves are out of range")


def _check_layer_size(inp, count, words_a_board):
    """Refuse a layer that claims more boards than the file holds, before its tables
    are sized from that claim (a forged count would overflow their size)."""
    left = _bytes_left(inp)
    if count > MAX_LAYER_BOARDS or (left is not None and count * words_a_board * 8 > left):
        raise TilingError("a saved sweep ends early")


def _bytes_left(inp):
    """Bytes from the position of ``inp`` to its end, or None when it cannot seek."""
    try:
        here = inp.tell()
        end = inp.seek(0, 2)
        inp.seek(here)
    except (AttributeError, OSError, ValueError):
        return None
    return end - here


def _read_words(inp, long long count):
    data = inp.read(8 * count)
    if len(data) != 8 * count:
        raise TilingError("a saved sweep ends early")
    return array.array("Q", data)


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
