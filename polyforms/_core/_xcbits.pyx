# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Algorithm X on bitsets of options, for plain exact cover (compiled core).

This kernel serves the instances whose primary items must be covered exactly
once and whose secondary items at most once (no multiplicities), with at most
:data:`MAX_OPTIONS` options; :mod:`polyforms._core._dlx` serves the others. Its
readable twin is the same as the dancing-links core's,
:func:`polyforms.exactcover._reference_search`: it branches on the same item
(the active primary item with fewest remaining options, the first in item order
on ties), tries its options in increasing number, and so yields the same
solutions in the same order and visits the same number of nodes.

Data structure. Options are numbered ``0..m-1`` and a set of options is a
bitset of ``W = ceil(m / 64)`` words. ``bits[i]`` is the set of options that
contain item ``i``. A search node is a *state*, stored whole at its level of
the stack:

* ``live``: the options still available (none of their items is covered);
* ``act``: the primary items still to cover, a bitset of ``NW`` words;
* ``cnt[i]``: how many live options contain item ``i``.

A child is built from its parent and the option ``o`` it takes: the options
that clash with ``o`` are ``conflict = OR of bits[i] for i in o``; the child's
live set is ``live & ~conflict``, and each clashing option that was live
(``live & conflict``) is subtracted from the counts of its primary items. The
parent's state is left as it was, so backing up costs nothing: no undo, unlike
dancing links, where every hide is paid again by an unhide. For the pentominoes
in a 6x10 box (2,056 options, ``W = 33``) a child costs a few hundred word
operations on data that stays in the L1 cache.

The cost of a child grows with ``W`` whatever the number of live options, so
large sparse instances (many options, few clashing) are left to dancing links,
whose cost follows the live options only.

The loop runs with the GIL released; every ``_POLL`` nodes it takes the GIL
back and calls ``PyErr_CheckSignals`` so that Ctrl-C stops a long count with
the state still resumable.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

MAX_OPTIONS = 8192   # beyond this, dancing links is faster (see BENCHMARKS.md)

cdef enum:
    _POLL = 1 << 20   # search nodes between two looks at pending signals

cdef enum Status:
    EXHAUSTED = 0
    FOUND = 1
    LIMIT = 2


cdef void *_alloc(size_t n) except NULL:
    cdef void *p = calloc(n if n > 0 else 1, 1)
    if p == NULL:
        raise MemoryError()
    return p


cdef class Search:
    """One run of the search over one plain instance; resumable between solutions.

    Takes the arguments of :class:`polyforms._core._dlx.Search`; every primary
    item must have bounds 1..1 and every secondary item 0..1.
    """

    cdef int n, m, W, NW, stride, depth_max
    cdef uint64_t *bits        # n rows of W words
    cdef int *prim_off         # primary items of option o: prim[prim_off[o]:prim_off[o+1]]
    cdef int *prim
    cdef int *all_off          # all items of option o: every[all_off[o]:all_off[o+1]]
    cdef int *every
    cdef uint64_t *states      # depth_max + 1 states of `stride` words
    cdef uint64_t *cand        # per level: options of the branching item left to try
    cdef uint64_t *conflict    # scratch: W words
    cdef int *stk_opt          # per level: option taken
    cdef int *stk_word         # per level: first word of cand that may be non-zero
    cdef int level
    cdef bint going_down, finished
    cdef long long n_nodes_visited, next_poll
    cdef list forced_options

    def __cinit__(self):
        self.bits = NULL
        self.prim_off = self.prim = self.all_off = self.every = NULL
        self.states = self.cand = self.conflict = NULL
        self.stk_opt = self.stk_word = NULL

    def __dealloc__(self):
        free(self.bits)
        free(self.prim_off); free(self.prim); free(self.all_off); free(self.every)
        free(self.states); free(self.cand); free(self.conflict)
        free(self.stk_opt); free(self.stk_word)

    def __init__(self, const int[:] lower, const int[:] upper, const int[:] primary,
                 const int[:] offsets, const int[:] items, forced=(), excluded=()):
        cdef int n = lower.shape[0]
        cdef int m = offsets.shape[0] - 1
        cdef int i, o, k, q, W, NW, n_primary = 0
        cdef uint64_t *root
        cdef int *cnt
        for i in range(n):
            if primary[i]:
                n_primary += 1
                if lower[i] != 1 or upper[i] != 1:
                    raise ValueError("the bitset core takes primary items of bounds 1..1 only")
            elif lower[i] != 0 or upper[i] != 1:
                raise ValueError("the bitset core takes secondary items of bounds 0..1 only")
        self.n = n
        self.m = m
        self.W = W = (m + 63) // 64 if m > 0 else 1
        self.NW = NW = (n + 63) // 64 if n > 0 else 1
        # A state: live (W words), act (NW words), cnt (n ints rounded up to words).
        self.stride = W + NW + (n + 1) // 2
        self.depth_max = n_primary + 1
        self.bits = <uint64_t *> _alloc(<size_t> n * W * sizeof(uint64_t))
        self.all_off = <int *> _alloc((m + 1) * sizeof(int))
        self.every = <int *> _alloc(items.shape[0] * sizeof(int))
        self.prim_off = <int *> _alloc((m + 1) * sizeof(int))
        self.prim = <int *> _alloc(items.shape[0] * sizeof(int))
        self.states = <uint64_t *> _alloc(
            <size_t> (self.depth_max + 1) * self.stride * sizeof(uint64_t))
        self.cand = <uint64_t *> _alloc(<size_t> (self.depth_max + 1) * W * sizeof(uint64_t))
        self.conflict = <uint64_t *> _alloc(W * sizeof(uint64_t))
        self.stk_opt = <int *> _alloc((self.depth_max + 1) * sizeof(int))
        self.stk_word = <int *> _alloc((self.depth_max + 1) * sizeof(int))

        root = self.states
        cnt = <int *> (root + W + NW)
        k = 0
        for o in range(m):
            self.all_off[o] = offsets[o]
            self.prim_off[o] = k
            for q in range(offsets[o], offsets[o + 1]):
                i = items[q]
                self.every[q] = i
                self.bits[<size_t> i * W + (o >> 6)] |= (<uint64_t> 1) << (o & 63)
                if primary[i]:
                    self.prim[k] = i
                    k += 1
        self.prim_off[m] = k
        self.all_off[m] = offsets[m]

        # The root: every option live, every primary item active.
        for o in range(m):
            root[o >> 6] |= (<uint64_t> 1) << (o & 63)
        for i in range(n):
            if primary[i]:
                root[W + (i >> 6)] |= (<uint64_t> 1) << (i & 63)
        for o in range(m):
            for k in range(self.prim_off[o], self.prim_off[o + 1]):
                cnt[self.prim[k]] += 1

        self.level = 0
        self.going_down = True
        self.finished = False
        self.n_nodes_visited = 0
        self.next_poll = _POLL
        self.forced_options = []
        for o in excluded:
            if not (0 <= o < m):
                raise IndexError(o)
            if root[o >> 6] >> (o & 63) & 1:
                root[o >> 6] &= ~((<uint64_t> 1) << (o & 63))
                for k in range(self.prim_off[o], self.prim_off[o + 1]):
                    cnt[self.prim[k]] -= 1
        for o in forced:
            if not (0 <= o < m):
                raise IndexError(o)
            if not (root[o >> 6] >> (o & 63) & 1):
                self.finished = True   # excluded, or clashes with an earlier forced option
                break
            self._take(root, root, o)
            self.forced_options.append(o)

    cdef inline void _take(self, uint64_t *parent, uint64_t *child, int o) noexcept nogil:
        """Write into ``child`` the state ``parent`` after taking option o.

        ``child`` may be ``parent`` itself (forced options at the root).
        """
        cdef int W = self.W, NW = self.NW, n = self.n, w, k, q, i
        cdef uint64_t *conflict = self.conflict
        cdef uint64_t *bits = self.bits
        cdef uint64_t *row
        cdef uint64_t gone, live
        cdef int *cnt = <int *> (child + W + NW)
        cdef int *prim = self.prim
        cdef int *prim_off = self.prim_off
        k = self.all_off[o]
        row = bits + <size_t> self.every[k] * W
        for w in range(W):
            conflict[w] = row[w]
        for k in range(k + 1, self.all_off[o + 1]):
            row = bits + <size_t> self.every[k] * W
            for w in range(W):
                conflict[w] |= row[w]
        if child != parent:
            memcpy(child + W, parent + W, (self.stride - W) * sizeof(uint64_t))
        for k in range(prim_off[o], prim_off[o + 1]):
            i = prim[k]
            child[W + (i >> 6)] &= ~((<uint64_t> 1) << (i & 63))
        for w in range(W):
            live = parent[w]
            gone = live & conflict[w]
            child[w] = live ^ gone
            while gone:
                q = (w << 6) | __builtin_ctzll(gone)
                gone &= gone - 1
                for k in range(prim_off[q], prim_off[q + 1]):
                    cnt[prim[k]] -= 1

    cdef int _run(self, bint stop_at_solution, long long limit,
                  long long *found) except -1 nogil:
        """Search on from the saved state.

        Returns FOUND (a solution is on the stack; the state is ready to go on),
        LIMIT (``found`` reached ``limit``) or EXHAUSTED. ``found`` counts
        solutions.
        """
        cdef int l = self.level, W = self.W, NW = self.NW, stride = self.stride
        cdef int w, i, j, best, c, o
        cdef bint down = self.going_down
        cdef uint64_t *state
        cdef uint64_t *act
        cdef uint64_t *cand
        cdef uint64_t *row
        cdef uint64_t word
        cdef int *cnt
        if self.finished:
            return EXHAUSTED
        while True:
            if down:
                state = self.states + <size_t> l * stride
                self.n_nodes_visited += 1
                if self.n_nodes_visited >= self.next_poll:
                    self.next_poll = self.n_nodes_visited + _POLL
                    self.level = l
                    self.going_down = True
                    with gil:
                        PyErr_CheckSignals()
                # Choose the active item with fewest live options (the first one
                # on ties; a count of 0 or 1 ends the scan at once).
                act = state + W
                cnt = <int *> (state + W + NW)
                best = 0x7fffffff
                i = -1
                for w in range(NW):
                    word = act[w]
                    while word:
                        j = (w << 6) | __builtin_ctzll(word)
                        word &= word - 1
                        c = cnt[j]
                        if c < best:
                            best = c
                            i = j
                            if c == 0:
                                break
                    if best == 0:
                        break
                if i < 0:
                    # Every primary item is covered: a solution.
                    found[0] += 1
                    down = False
                    if stop_at_solution or found[0] == limit:
                        self.level = l
                        self.going_down = False
                        return FOUND if stop_at_solution else LIMIT
                    continue
                if best == 0:
                    down = False
                    continue
                cand = self.cand + <size_t> l * W
                row = self.bits + <size_t> i * W
                for w in range(W):
                    cand[w] = state[w] & row[w]
                self.stk_word[l] = 0
            else:
                # This level is done: back up and take the next option above.
                l -= 1
                if l < 0:
                    self.finished = True
                    self.level = 0
                    return EXHAUSTED
                state = self.states + <size_t> l * stride
                cand = self.cand + <size_t> l * W
            # Take the next option of the level's item, if any.
            w = self.stk_word[l]
            while w < W and cand[w] == 0:
                w += 1
            if w == W:
                down = False
                continue
            self.stk_word[l] = w
            o = (w << 6) | __builtin_ctzll(cand[w])
            cand[w] &= cand[w] - 1
            self.stk_opt[l] = o
            self._take(state, state + stride, o)
            l += 1
            down = True

    def next_solution(self):
        """Return the next solution as a list of option numbers, or None at the end.

        The options of the forced prefix come first, then the options in the order
        in which the search chose them.
        """
        cdef long long found = 0
        cdef int status, k
        with nogil:
            status = self._run(True, -1, &found)
        if status != FOUND:
            return None
        solution = list(self.forced_options)
        for k in range(self.level):
            solution.append(self.stk_opt[k])
        return solution

    def count(self, limit=None):
        """Count the solutions still ahead (at most ``limit``), without building them."""
        cdef long long found = 0
        cdef long long cap = -1 if limit is None else limit
        if cap == 0:
            return 0
        with nogil:
            self._run(False, cap, &found)
        return found

    @property
    def nodes(self):
        """Search nodes visited so far (every child built counts, dead ends included)."""
        return self.n_nodes_visited
