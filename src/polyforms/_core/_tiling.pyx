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

Layout
------
One extension module, its parts included here by concern:
``_tiling_search.pxi`` the search object (fields, Python methods),
``_tiling_setup.pxi`` building its structures, ``_tiling_board.pxi`` one
board's moves and area tests, ``_tiling_choice.pxi`` a node's candidates,
``_tiling_memo.pxi`` the memo, ``_tiling_loops.pxi`` the two search loops
(generated from ``_tiling_loops.pxi.in`` by ``scripts/gen_tiling_loops.py``,
so that they cannot drift apart), and ``_tiling_sweep.pxi`` /
``_tiling_sweep_store.pxi`` the sweep over boards. A step of the search is a
method of the class (``_fits``) whose body is the function of the same name
less the underscore (``fits``) in the part of its concern, except the
bit-parallel area test (``_area_ok1``), whose bodies stay in the class so that
the compiler inlines them as one chain; the other helpers are plain functions
(``_build``, ``_start``).
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


include "_tiling_search.pxi"
include "_tiling_setup.pxi"
include "_tiling_board.pxi"
include "_tiling_memo.pxi"
include "_tiling_choice.pxi"
include "_tiling_loops.pxi"
include "_tiling_sweep.pxi"
include "_tiling_sweep_store.pxi"
