# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Algorithms X and C on bitsets of options, without multiplicities (compiled core).

This kernel serves the instances whose primary items must be covered exactly
once and whose secondary items at most once or in one colour (no
multiplicities), as long as its arrays take at most :data:`MAX_BYTES`
(:func:`footprint`); :mod:`polyforms._core._dlx` serves the others. Its readable twin is the same
as the dancing-links core's, :func:`polyforms.exactcover._reference_search`: it
branches on the same item (the active primary item with fewest remaining
options, the first in item order on ties), tries its options in increasing
number, and so yields the same solutions in the same order. Like the
dancing-links core it gives up a child as soon as some active item has no
option left (the reference goes on to an item with one option and finds the
dead end a level lower), so both compiled cores visit the same nodes.

Data structure. Options are numbered ``0..m-1`` and a set of options is a
bitset of ``W = ceil(m / 64)`` words. The *columns* are such sets: column ``i``
(``i < n``) holds the options that contain item ``i``, and each pair of a
secondary item and a colour that some option gives it has a column of its own,
numbered from ``n`` on, holding the options that use the item otherwise
(uncoloured, or in another colour). Word ``w`` of column ``k`` is
``bits[w * n_cols + k]``. Each node of an option names the column of the
options it clashes with (``clash``): its item's column, or for a coloured use
its pair's column, so two options that give an item the same colour do not
clash, and Algorithm C's purification is the same OR of columns as a cover. A search node is a *state*, stored
whole at its level of the stack:

* ``live``: the options still available (none of their items is covered), with
  the list of its non-zero words (``words``, ``n_words``);
* ``act``: the primary items still to cover, a bitset of ``NW`` words;
* ``cnt[i]``: how many live options contain item ``i``.

A child is built from its parent and the option ``o`` it takes: in each
non-zero word of the parent's ``live``, the options that clash with ``o`` are
the OR of the words of its nodes' columns; they leave the child's ``live``, and each
of them is subtracted from the counts of its primary items. The parent's state
is left as it was, so backing up costs nothing: no undo, where dancing links
pays every hide again with an unhide. For the pentominoes in a 6x10 box (2,056
options, ``W = 33``) a child costs a few hundred word operations on data that
stays in the L1 cache; perf puts two thirds of the time in the count updates.
Since only the non-zero words of ``live`` are visited, deep nodes cost little
even in instances of 100,000 options (see BENCHMARKS.md for the comparison
with dancing links).

The loop runs with the GIL released; every ``_POLL`` nodes it takes the GIL
back and calls ``PyErr_CheckSignals`` so that Ctrl-C stops a long count with
the state still resumable.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

MAX_BYTES = 1 << 28   # beyond this footprint the instance goes to dancing links

cdef enum:
    _POLL = 1 << 20   # search nodes between two looks at pending signals

cdef long long _NO_CAP = (1LL << 62)   # no node cap: more nodes than any search visits

cdef enum Status:
    EXHAUSTED = 0
    FOUND = 1
    LIMIT = 2
    PAUSED = 3


cdef void *_alloc(size_t n) except NULL:
    cdef void *p = calloc(n if n > 0 else 1, 1)
    if p == NULL:
        raise MemoryError()
    return p


cdef int _depth_bound(int n_primary, const int[:] primary, const int[:] offsets,
                      const int[:] items):
    """How many options a solution can hold at most, plus one.

    Options without a primary item are never chosen by the search (only
    forced, at the root), so a solution takes at most ``n_primary // fewest``
    options, ``fewest`` being the least number of primary items in an option.
    """
    cdef int o, q, k, fewest = 0x7fffffff
    for o in range(offsets.shape[0] - 1):
        k = 0
        for q in range(offsets[o], offsets[o + 1]):
            k += primary[items[q]] != 0
        if 0 < k < fewest:
            fewest = k
    if fewest == 0x7fffffff:
        return 1
    return n_primary // fewest + 1


cdef dict _colour_columns(int n, const int[:] items, colours):
    """Number the pairs (secondary item, colour) that occur as columns n, n + 1, ..."""
    cdef dict columns = {}
    cdef int q, c
    if colours is None:
        return columns
    if len(colours) != items.shape[0]:
        raise ValueError("colours must have one entry per item of every option")
    for q in range(items.shape[0]):
        c = colours[q]
        if c:
            columns.setdefault((items[q], c), n + len(columns))
    return columns


def footprint(const int[:] primary, const int[:] offsets, const int[:] items, colours=None):
    """Bytes the search of this instance would allocate (to choose a core)."""
    cdef int n = primary.shape[0], m = offsets.shape[0] - 1, i, n_primary = 0
    cdef size_t n_cols = n + len(_colour_columns(n, items, colours))
    cdef size_t W = (m + 63) // 64 if m > 0 else 1
    cdef size_t NW = (n + 63) // 64 if n > 0 else 1
    cdef size_t stride = W + NW + (n + 1) // 2
    cdef size_t levels
    for i in range(n):
        n_primary += primary[i] != 0
    levels = _depth_bound(n_primary, primary, offsets, items) + 1
    return (8 * (n_cols * W + levels * (stride + W)) + 4 * levels * W
            + 8 * <size_t> items.shape[0] + 8 * <size_t> m)


cdef class Search:
    """One run of the search over one plain instance; resumable between solutions.

    Takes the arguments of :class:`polyforms._core._dlx.Search`; every primary
    item must have bounds 1..1 and every secondary item 0..1. ``colours``
    (one entry per item of every option: 0 for none) may colour secondary items.
    """

    cdef int n, n_cols, W, NW, stride, depth_max
    cdef uint64_t *bits        # word w of column k at bits[w * n_cols + k]
    cdef int *prim_off         # primary items of option o: prim[prim_off[o]:prim_off[o+1]]
    cdef int *prim
    cdef int *all_off          # the columns option o clashes with: clash[all_off[o]:all_off[o+1]]
    cdef int *clash
    cdef uint64_t *states      # depth_max + 1 states of `stride` words
    cdef int *words            # per level: the indices of the non-zero words of live
    cdef int *n_words          # per level: how many
    cdef uint64_t *cand        # per level: options of the branching item left to try,
                               # one word per entry of the level's word list
    cdef int *stk_opt          # per level: option taken
    cdef int *stk_pos          # per level: first entry of cand that may be non-zero
    cdef int level
    cdef bint going_down, finished
    cdef long long n_nodes_visited, next_poll
    cdef long long node_cap    # count(nodes=...): pause on entering a node past this many
    cdef list forced_options

    def __cinit__(self):
        self.bits = NULL
        self.prim_off = self.prim = self.all_off = self.clash = NULL
        self.states = self.cand = NULL
        self.words = self.n_words = self.stk_opt = self.stk_pos = NULL

    def __dealloc__(self):
        free(self.bits)
        free(self.prim_off); free(self.prim); free(self.all_off); free(self.clash)
        free(self.states); free(self.cand); free(self.words); free(self.n_words)
        free(self.stk_opt); free(self.stk_pos)

    def __init__(self, const int[:] lower, const int[:] upper, const int[:] primary,
                 const int[:] offsets, const int[:] items, forced=(), excluded=(),
                 colours=None):
        cdef int n = lower.shape[0]
        cdef int m = offsets.shape[0] - 1
        cdef int i, o, k, q, w, W, NW, n_cols, column, n_primary = 0
        cdef dict colour_columns = _colour_columns(n, items, colours)
        cdef size_t levels
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
        self.n_cols = n_cols = n + len(colour_columns)
        self.W = W = (m + 63) // 64 if m > 0 else 1
        self.NW = NW = (n + 63) // 64 if n > 0 else 1
        # A state: live (W words), act (NW words), cnt (n ints rounded up to words).
        self.stride = W + NW + (n + 1) // 2
        self.depth_max = _depth_bound(n_primary, primary, offsets, items)
        levels = self.depth_max + 1
        self.bits = <uint64_t *> _alloc(<size_t> n_cols * W * sizeof(uint64_t))
        self.all_off = <int *> _alloc((m + 1) * sizeof(int))
        self.clash = <int *> _alloc(items.shape[0] * sizeof(int))
        self.prim_off = <int *> _alloc((m + 1) * sizeof(int))
        self.prim = <int *> _alloc(items.shape[0] * sizeof(int))
        self.states = <uint64_t *> _alloc(levels * self.stride * sizeof(uint64_t))
        self.words = <int *> _alloc(levels * W * sizeof(int))
        self.n_words = <int *> _alloc(levels * sizeof(int))
        self.cand = <uint64_t *> _alloc(levels * W * sizeof(uint64_t))
        self.stk_opt = <int *> _alloc(levels * sizeof(int))
        self.stk_pos = <int *> _alloc(levels * sizeof(int))

        root = self.states
        cnt = <int *> (root + W + NW)
        k = 0
        for o in range(m):
            self.all_off[o] = offsets[o]
            self.prim_off[o] = k
            for q in range(offsets[o], offsets[o + 1]):
                i = items[q]
                self.clash[q] = i
                self.bits[<size_t> (o >> 6) * n_cols + i] |= (<uint64_t> 1) << (o & 63)
                if primary[i]:
                    self.prim[k] = i
                    k += 1
        self.prim_off[m] = k
        self.all_off[m] = offsets[m]
        # A colour's column: its item's, less the options that give the item that colour.
        for (i, _), column in colour_columns.items():
            if primary[i]:
                raise ValueError("only secondary items can have a colour")
            for w in range(W):
                self.bits[<size_t> w * n_cols + column] = self.bits[<size_t> w * n_cols + i]
        for o in range(m if colour_columns else 0):
            for q in range(offsets[o], offsets[o + 1]):
                if colours[q]:
                    column = colour_columns[items[q], colours[q]]
                    self.clash[q] = column
                    self.bits[<size_t> (o >> 6) * n_cols + column] &= ~((<uint64_t> 1) << (o & 63))

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
        self.node_cap = _NO_CAP
        self.forced_options = []
        for o in excluded:
            if not (0 <= o < m):
                raise IndexError(o)
            if root[o >> 6] >> (o & 63) & 1:
                root[o >> 6] &= ~((<uint64_t> 1) << (o & 63))
                for k in range(self.prim_off[o], self.prim_off[o + 1]):
                    cnt[self.prim[k]] -= 1
        k = 0
        for w in range(W):
            if root[w]:
                self.words[k] = w
                k += 1
        self.n_words[0] = k
        for o in forced:
            if not (0 <= o < m):
                raise IndexError(o)
            if not (root[o >> 6] >> (o & 63) & 1):
                self.finished = True   # excluded, or clashes with an earlier forced option
                break
            self.n_words[0] = self._take(root, self.words, self.n_words[0], root, self.words, o)
            self.forced_options.append(o)

    cdef inline int _take(self, uint64_t *parent, int *parent_words, int n_parent,
                          uint64_t *child, int *child_words, int o) noexcept nogil:
        """Write into ``child`` the state ``parent`` after taking option o.

        Only the words of ``live`` listed in ``parent_words`` are read (the
        others are zero) and written in the child (the others are left as they
        were: stale, never read); the non-zero ones are listed in
        ``child_words``, and their number returned. ``child``
        may be ``parent`` itself (forced options at the root).
        """
        cdef int W = self.W, NW = self.NW, n_cols = self.n_cols, w, k, q, i, t, n_child = 0
        cdef int first = self.all_off[o], last = self.all_off[o + 1]
        cdef uint64_t *column
        cdef uint64_t gone, live, conflict
        cdef int *cnt = <int *> (child + W + NW)
        cdef int *prim = self.prim
        cdef int *prim_off = self.prim_off
        cdef int *clash = self.clash
        if child != parent:
            memcpy(child + W, parent + W, (self.stride - W) * sizeof(uint64_t))
        for k in range(prim_off[o], prim_off[o + 1]):
            i = prim[k]
            child[W + (i >> 6)] &= ~((<uint64_t> 1) << (i & 63))
        for t in range(n_parent):
            w = parent_words[t]
            column = self.bits + <size_t> w * n_cols
            conflict = column[clash[first]]
            for k in range(first + 1, last):
                conflict |= column[clash[k]]
            live = parent[w]
            gone = live & conflict
            child[w] = live ^ gone
            if live != gone:
                child_words[n_child] = w
                n_child += 1
            while gone:
                q = (w << 6) | __builtin_ctzll(gone)
                gone &= gone - 1
                for k in range(prim_off[q], prim_off[q + 1]):
                    cnt[prim[k]] -= 1
        return n_child

    cdef int _run(self, bint stop_at_solution, long long limit,
                  long long *found) except -1 nogil:
        """Search on from the saved state.

        Returns FOUND (a solution is on the stack; the state is ready to go on),
        LIMIT (``found`` reached ``limit``), PAUSED (the node cap of
        ``count(nodes=...)`` reached; ready to go on) or EXHAUSTED. ``found`` counts
        solutions.
        """
        cdef int l = self.level, W = self.W, NW = self.NW, n_cols = self.n_cols
        cdef int stride = self.stride
        cdef int w, i, j, best, c, o, t, nw
        cdef bint down = self.going_down
        cdef uint64_t *state
        cdef uint64_t *act
        cdef uint64_t *cand
        cdef uint64_t *bits = self.bits
        cdef int *words
        cdef uint64_t word
        cdef int *cnt
        if self.finished:
            return EXHAUSTED
        while True:
            if down:
                state = self.states + <size_t> l * stride
                self.n_nodes_visited += 1
                if self.n_nodes_visited >= self.next_poll:
                    self.level = l
                    self.going_down = True
                    if self.n_nodes_visited > self.node_cap:
                        self.n_nodes_visited -= 1  # entered again when the search goes on
                        return PAUSED
                    self.next_poll = min(self.n_nodes_visited + _POLL, self.node_cap + 1)
                    with gil:
                        PyErr_CheckSignals()
                # Choose the active item with fewest live options (the first one
                # on ties). A count of 0 ends the scan: the node is a dead end
                # (the reference goes on to an item of count 1 and finds the dead
                # end below; no solution is lost or reordered).
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
                words = self.words + <size_t> l * W
                nw = self.n_words[l]
                cand = self.cand + <size_t> l * W
                for t in range(nw):
                    cand[t] = state[words[t]] & bits[<size_t> words[t] * n_cols + i]
                self.stk_pos[l] = 0
            else:
                # This level is done: back up and take the next option above.
                l -= 1
                if l < 0:
                    self.finished = True
                    self.level = 0
                    return EXHAUSTED
                state = self.states + <size_t> l * stride
                words = self.words + <size_t> l * W
                nw = self.n_words[l]
                cand = self.cand + <size_t> l * W
            # Take the next option of the level's item, if any.
            t = self.stk_pos[l]
            while t < nw and cand[t] == 0:
                t += 1
            if t == nw:
                down = False
                continue
            self.stk_pos[l] = t
            o = (words[t] << 6) | __builtin_ctzll(cand[t])
            cand[t] &= cand[t] - 1
            self.stk_opt[l] = o
            self.n_words[l + 1] = self._take(state, words, nw, state + stride, words + W, o)
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

    def count(self, limit=None, nodes=None):
        """Count the solutions still ahead (at most ``limit``), without building them.

        With ``nodes``, pause on entering a node once ``nodes`` more have been
        visited (that node is visited when the search goes on): ``done`` then
        says whether the search ended, and a later call goes on from there.
        """
        cdef long long found = 0
        cdef long long cap = -1 if limit is None else limit
        if cap == 0:
            return 0
        if nodes is not None:
            if nodes < 0:
                raise ValueError(f"nodes must be at least 0, not {nodes}")
            if nodes < _NO_CAP - self.n_nodes_visited:  # more than a counter holds: no cap
                self.node_cap = self.n_nodes_visited + nodes
                self.next_poll = min(self.next_poll, self.node_cap + 1)
        try:
            with nogil:
                self._run(False, cap, &found)
        finally:
            self.node_cap = _NO_CAP
        return found

    @property
    def done(self):
        """Has the search ended (no solution left ahead)?"""
        return self.finished

    @property
    def path(self):
        """Where a paused count stands: the option chosen at each level from the
        root down to the node it enters when it goes on, as the readable twin's
        ``path`` (this core has no branch that leaves an item)."""
        if self.finished:
            return []
        return [self.stk_opt[k] for k in range(self.level)]

    @property
    def nodes(self):
        """Search nodes visited so far (every child built counts, dead ends included)."""
        return self.n_nodes_visited
