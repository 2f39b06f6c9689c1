# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Dancing-links search for exact cover with multiplicities (compiled core).

The readable twin is :class:`polyforms.exactcover._exactcover_py.Walk`; both walk
the same search tree in the same order, so they yield the same solutions in
the same order. The instance arrives in the integer form built by
:class:`polyforms.exactcover.ExactCover`: items ``0..n-1`` with bounds
``lower[i]..upper[i]`` and a primary flag, and options as a flat array of item
numbers cut by ``offsets``.

Data structure (Knuth, "Dancing links", 2000; TAOCP 7.2.2.1, Algorithms X and M).
Every array is a flat C array of ints addressed by node number:

* nodes ``0..n-1`` are the item headers; ``up``/``dn`` of a header are the
  last/first node of the item's vertical list of still-available options;
* then, for each option, one spacer node followed by the option's nodes, and a
  final spacer. ``top`` of node ``q`` is the item of node ``q``; for a spacer it is
  ``-(o+1)`` where ``o`` is the option just before it, its ``up`` the first
  node of that option and its ``dn`` the last node of the option after it,
  so the nodes of an option can be walked cyclically without another array;
* ``length[i]`` counts the options in item ``i``'s list, ``count[i]`` how many
  chosen options contain ``i``; an item is *covered* (all of its remaining
  options hidden) when ``count`` reaches ``upper``;
* the primary items still to be decided form a doubly linked list through
  ``llink``/``rlink`` with header ``n``.

``Search._check()`` checks these invariants (for tests: it walks every list).

The search branches on the active primary item of smallest *degree*
``length + 1 - max(need, 0)`` (``need = lower - count``; for plain exact cover
that is the list length). When one more option covers the item fully (slack
1) the item is covered first and each option in its list is tried in turn, as
in Algorithm X; then, if the item may stay as it is (``need <= 0``), a last
branch leaves it. Otherwise (slack > 1, Algorithm M's case) the first option of
the list is taken and, once its subtree is done, it is excluded (hidden
everywhere) for the remaining branches of this level, so every multiset of
options is reached once.

At slack one each branch commits its option: the option's other items are
counted and those that become full are covered. About three in five children
of a plain exact-cover search are dead ends (some item is left with no option);
rather than finish the commit and find the empty list in the child's choice
loop, the commit stops as soon as a hidden option empties the list of an item
outside the option that still needs one, undoes itself and the next option is
tried (6x10 pentominoes: 1.02 G list nodes hidden instead of 1.24 G). The
search tree, and so the order of the solutions, is the reference's.

Colours (Knuth's Algorithm C, TAOCP 7.2.2.1; his DLX2): a secondary item may
carry a colour in an option, ``colour[q] > 0`` for node ``q``. Committing an
uncoloured node covers its item as before; committing a coloured one
*purifies* the item instead: every other option in its list with another
colour (or none) is hidden, and the nodes of the same colour get colour -1,
meaning "already satisfied": they are left alone by later hides (they stay in
their list) and by later commits, until the purification is undone
(*unpurify*, walking the list upwards). Coloured items are secondary, so the
search never branches on them; with no colours ``colour`` is NULL and nothing
changes. (Colour instances without multiplicities go to the bitset core,
where purifying is one more OR of columns and undoing it costs nothing.)

The loop runs with the GIL released. Every ``_POLL`` search nodes (the children
given up during their commit included) it takes the GIL back and calls
``PyErr_CheckSignals`` so that Ctrl-C stops a long count.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc

from ._walks cimport _draw, _seeded, _step

cdef extern from *:
    void __builtin_prefetch(const void *p) noexcept nogil

cdef enum:
    _POLL = 1 << 20   # search nodes between two looks at pending signals
    _STOP = -1        # marks the branch "no more options for this item"

cdef long long _NO_CAP = (1LL << 62)   # no node cap: more nodes than any search visits

cdef enum Status:
    EXHAUSTED = 0
    FOUND = 1
    LIMIT = 2
    PAUSED = 3


ctypedef struct Node:
    int top     # item of an option node; -(o+1) for the spacer after option o
    int up      # previous node in the item's list (spacer: first node of option o)
    int dn      # next node in the item's list (spacer: last node of option o+1)


cdef int *_ints(Py_ssize_t n) except NULL:
    cdef int *p = <int *> malloc((n if n > 0 else 1) * sizeof(int))
    if p == NULL:
        raise MemoryError()
    return p


cdef class Search:
    """One run of the search over one instance; resumable between solutions.

    Parameters
    ----------
    lower, upper : int arrays of length n
        Bounds of each item (a secondary item has ``lower == 0``).
    primary : int array of length n
        1 for a primary item, 0 for a secondary one.
    offsets : int array of length m + 1
        Option ``o`` holds ``items[offsets[o]:offsets[o+1]]``.
    items : int array
        Item numbers of all options, concatenated.
    forced, excluded : sequences of option numbers
        Options put into (kept out of) every solution before the search.
    """

    cdef int n, m, n_nodes, root
    cdef Node *nd
    cdef int *colour       # per node: 0 none, > 0 a colour, -1 purified (NULL: no colours)
    cdef int *length
    cdef int *cnt
    cdef int *lower
    cdef int *upper
    cdef int *llink
    cdef int *rlink
    cdef char *is_primary
    # search stack, one entry per level
    cdef int *stk_item
    cdef int *stk_node
    cdef char *stk_mode    # 1: slack one (item covered, Algorithm X); 0: slack > 1
    cdef int *stk_excl     # size of the exclusion stack when the level began
    cdef int *excl         # options (first node) excluded at slack > 1 levels
    cdef int excl_top
    cdef int level, depth_max
    cdef bint going_down, finished
    cdef long long n_nodes_visited, next_poll
    cdef long long node_cap    # count(nodes=...): pause on entering a node past this many
    cdef list forced_options

    def __cinit__(self):
        self.nd = NULL
        self.colour = NULL
        self.length = self.cnt = self.lower = self.upper = NULL
        self.llink = self.rlink = NULL
        self.is_primary = NULL
        self.stk_item = self.stk_node = self.stk_excl = self.excl = NULL
        self.stk_mode = NULL

    def __dealloc__(self):
        free(self.nd)
        free(self.colour)
        free(self.length); free(self.cnt); free(self.lower); free(self.upper)
        free(self.llink); free(self.rlink); free(self.is_primary)
        free(self.stk_item); free(self.stk_node); free(self.stk_mode)
        free(self.stk_excl); free(self.excl)

    def __init__(self, const int[:] lower, const int[:] upper, const int[:] primary,
                 const int[:] offsets, const int[:] items, forced=(), excluded=(),
                 colours=None):
        cdef int n = lower.shape[0]
        cdef int m = offsets.shape[0] - 1
        cdef int total = items.shape[0]
        cdef int i, o, k, q, spacer, first
        self.n = n
        self.m = m
        self.root = n
        self.n_nodes = n + total + m + 1
        self.nd = <Node *> malloc(self.n_nodes * sizeof(Node))
        if self.nd == NULL:
            raise MemoryError()
        self.length = _ints(n)
        self.cnt = _ints(n)
        self.lower = _ints(n)
        self.upper = _ints(n)
        self.llink = _ints(n + 1)
        self.rlink = _ints(n + 1)
        self.is_primary = <char *> malloc(n + 1)
        if self.is_primary == NULL:
            raise MemoryError()
        self.depth_max = m + n + 2
        self.stk_item = _ints(self.depth_max)
        self.stk_node = _ints(self.depth_max)
        self.stk_excl = _ints(self.depth_max)
        self.stk_mode = <char *> malloc(self.depth_max)
        if self.stk_mode == NULL:
            raise MemoryError()
        self.excl = _ints(m + 1)
        self.excl_top = 0

        # Item headers and the active list of primary items, in item order.
        self.rlink[n] = n
        self.llink[n] = n
        for i in range(n):
            self.nd[i].top = i
            self.nd[i].up = i
            self.nd[i].dn = i
            self.length[i] = 0
            self.cnt[i] = 0
            self.lower[i] = lower[i]
            self.upper[i] = upper[i]
            self.is_primary[i] = 1 if primary[i] else 0
            if primary[i]:
                self.llink[i] = self.llink[n]
                self.rlink[i] = n
                self.rlink[self.llink[n]] = i
                self.llink[n] = i

        # Options: spacer, nodes, spacer, nodes, ..., final spacer.
        q = n
        spacer = q
        self.nd[spacer].top = -(m + 1)
        self.nd[spacer].up = spacer
        self.nd[spacer].dn = spacer
        for o in range(m):
            first = q + 1
            for k in range(offsets[o], offsets[o + 1]):
                q += 1
                i = items[k]
                self.nd[q].top = i
                self.nd[q].up = self.nd[i].up
                self.nd[q].dn = i
                self.nd[self.nd[i].up].dn = q
                self.nd[i].up = q
                self.length[i] += 1
            self.nd[spacer].dn = q          # last node of the option after the spacer
            q += 1
            spacer = q
            self.nd[spacer].top = -(o + 1)
            self.nd[spacer].up = first      # first node of the option before the spacer
            self.nd[spacer].dn = spacer
        if colours is not None:
            if len(colours) != total:
                raise ValueError("colours must have one entry per item of every option")
            # Node of items[k] in option o is n + 1 + k + o (one spacer before each option).
            self.colour = _ints(self.n_nodes)
            for q in range(self.n_nodes):
                self.colour[q] = 0
            for o in range(m):
                for k in range(offsets[o], offsets[o + 1]):
                    self.colour[n + 1 + k + o] = colours[k]

        self.level = 0
        self.going_down = True
        self.finished = False
        self.n_nodes_visited = 0
        self.next_poll = _POLL
        self.node_cap = _NO_CAP
        self.forced_options = []
        # Option o's first node is n + 1 + offsets[o] + o (one spacer before each).
        for o in excluded:
            if not (0 <= o < m):
                raise IndexError(o)
            first = n + 1 + offsets[o] + o
            if self._live(first):
                self._take_out(first)
        tint = {}  # item -> the colour a forced option gave it
        for o in forced:
            if not (0 <= o < m):
                raise IndexError(o)
            first = n + 1 + offsets[o] + o
            if not (self._live(first) and self._fits(first, tint)):
                self.finished = True     # excluded, or clashes with an earlier forced option
                break
            self._take_out(first)
            self._commit_all(first)
            self.forced_options.append(o)
            if self.colour != NULL:
                for k in range(offsets[o], offsets[o + 1]):
                    if colours[k] > 0:
                        tint[items[k]] = colours[k]

    # -- helper used only while setting up ------------------------------------

    cdef bint _live(self, int p):
        """Is the option whose first node is p still available?

        When its first item is not full, the option is available exactly when it is
        still in that item's list (covering any of its other items, or taking the
        option out, removed it from there).
        """
        cdef int i = self.nd[p].top, r
        if self.cnt[i] >= self.upper[i]:
            return False
        r = self.nd[i].dn
        while r != i:
            if r == p:
                return True
            r = self.nd[r].dn
        return False

    cdef bint _fits(self, int p, dict tint):
        """Do the items of the option whose first node is p take it? None may be
        full, nor coloured by a forced option with another colour than the
        option gives it (or none): purification leaves such an option in the
        coloured item's own list, which ``_live`` alone misses when that item
        is its first."""
        cdef int q = p, x
        while self.nd[q].top >= 0:
            x = self.nd[q].top
            if self.cnt[x] >= self.upper[x]:
                return False
            if x in tint and self.colour[q] != -1 and self.colour[q] != tint[x]:
                return False  # -1: purified with its own colour
            q += 1
        return True

    # -- the four list operations -------------------------------------------------

    cdef inline bint _hide(self, int p) noexcept nogil:
        """Remove the other nodes of p's option from their item lists.

        Returns whether one of those lists became empty (a flag or-ed in without a
        branch; _commit_others uses it to give up early on a doomed option).
        """
        cdef int q = p + 1, x, u, d, emptied = 0
        cdef Node *nd = self.nd
        cdef int *length = self.length
        cdef int *colour = self.colour
        while q != p:
            x = nd[q].top
            if x < 0:
                q = nd[q].up
                continue
            if colour != NULL and colour[q] < 0:
                q += 1  # purified with its own colour: stays in its list
                continue
            u = nd[q].up
            d = nd[q].dn
            nd[u].dn = d
            nd[d].up = u
            length[x] -= 1
            emptied |= length[x] == 0
            q += 1
        return emptied

    cdef inline void _unhide(self, int p) noexcept nogil:
        cdef int q = p - 1, x, u, d
        cdef Node *nd = self.nd
        cdef int *length = self.length
        cdef int *colour = self.colour
        while q != p:
            x = nd[q].top
            if x < 0:
                q = nd[q].dn
                continue
            if colour != NULL and colour[q] < 0:
                q -= 1
                continue
            u = nd[q].up
            d = nd[q].dn
            nd[u].dn = q
            nd[d].up = q
            length[x] += 1
            q -= 1

    cdef bint _starves(self, int r, int p) noexcept nogil:
        """Has hiding option r left an item with no option that still needs one?

        Only items outside p's option (the option being committed) count: their
        ``count`` will not change before the child node, nor will their lists
        grow, so the child node could not be completed (degree <= 0 there, or
        deeper). Such an item is primary and active: it still had an option (in
        r), so it is not covered, and ``need > 0`` means it was never left aside.
        """
        cdef int q = r + 1, y, s
        cdef Node *nd = self.nd
        while q != r:
            y = nd[q].top
            if y < 0:
                q = nd[q].up
                continue
            q += 1
            if (self.length[y] != 0 or not self.is_primary[y]
                    or self.lower[y] <= self.cnt[y]):
                continue
            s = p
            while True:            # is y an item of p's option?
                if nd[s].top == y:
                    break
                s = nd[s].up if nd[s].top < 0 else s + 1
                if s == p:
                    return True
        return False

    cdef inline int _cover(self, int i, int p) noexcept nogil:
        """Take item i off the active list and hide every option in its list.

        With ``p >= 0`` (i is being covered while p's option is committed) stop as
        soon as a hidden option leaves an item outside p's option that still needs
        an option with none (see _starves) and return that option's node, so that
        the caller can undo the partial cover with ``_uncover_from(i, r)``;
        otherwise return 0 (no option node has number 0).
        """
        cdef int r, nxt
        if self.is_primary[i]:
            self.rlink[self.llink[i]] = self.rlink[i]
            self.llink[self.rlink[i]] = self.llink[i]
        r = self.nd[i].dn
        while r != i:
            # Ask for the next option's nodes while this one is hidden: each option
            # lies elsewhere in the node array, and the unlinks of the current one
            # do not depend on it (measured: about 5% off the 6x10 count). The next
            # node is read before the hide: the hide's stores touch other lists
            # only, and reading it first keeps the walk down the list off the
            # stores' critical path (3-6% in interleaved A/B runs; same in
            # _uncover_from).
            nxt = self.nd[r].dn
            __builtin_prefetch(&self.nd[nxt + 1])
            if self._hide(r) and p >= 0 and self._starves(r, p):
                return r
            r = nxt
        return 0

    cdef inline void _uncover(self, int i) noexcept nogil:
        self._uncover_from(i, self.nd[i].up)

    cdef inline void _uncover_from(self, int i, int r) noexcept nogil:
        """Undo _cover(i) whose last hidden option is r (the list's last one when
        the cover ran to its end)."""
        cdef int prv
        while r != i:
            prv = self.nd[r].up
            __builtin_prefetch(&self.nd[prv - 1])
            self._unhide(r)
            r = prv
        if self.is_primary[i]:
            self.rlink[self.llink[i]] = i
            self.llink[self.rlink[i]] = i

    cdef inline void _take_out(self, int p) noexcept nogil:
        """Remove p's whole option (p included) from every list."""
        cdef int u, d
        self._hide(p)
        u = self.nd[p].up
        d = self.nd[p].dn
        self.nd[u].dn = d
        self.nd[d].up = u
        self.length[self.nd[p].top] -= 1

    cdef inline void _put_back(self, int p) noexcept nogil:
        self.nd[self.nd[p].up].dn = p
        self.nd[self.nd[p].dn].up = p
        self.length[self.nd[p].top] += 1
        self._unhide(p)

    cdef void _purify(self, int q) noexcept nogil:
        """Node q gives its item colour c: hide the item's options of other colours
        (or none), mark those of colour c as satisfied (-1)."""
        cdef int c = self.colour[q], x = self.nd[q].top, r = self.nd[x].dn
        while r != x:
            if self.colour[r] == c:
                self.colour[r] = -1
            else:
                self._hide(r)
            r = self.nd[r].dn

    cdef void _unpurify(self, int q) noexcept nogil:
        cdef int c = self.colour[q], x = self.nd[q].top, r = self.nd[x].up
        while r != x:
            if self.colour[r] < 0:
                self.colour[r] = c
            else:
                self._unhide(r)
            r = self.nd[r].up

    cdef inline bint _coloured(self, int q) noexcept nogil:
        """Is node q a coloured use (purified, or -1: nothing to do)?"""
        return self.colour != NULL and self.colour[q] != 0

    cdef inline void _commit_all(self, int p) noexcept nogil:
        """Count p's option in each of its items; cover those that become full
        (purify the items it colours)."""
        cdef int q = p, x
        while True:
            x = self.nd[q].top
            if x < 0:
                q = self.nd[q].up
            else:
                if self._coloured(q):
                    if self.colour[q] > 0:
                        self._purify(q)
                else:
                    self.cnt[x] += 1
                    if self.cnt[x] == self.upper[x]:
                        self._cover(x, -1)
                q += 1
            if q == p:
                break

    cdef inline void _uncommit_all(self, int p) noexcept nogil:
        cdef int q = p, x
        while True:
            x = self.nd[q].top
            if x < 0:
                q = self.nd[q].dn
            else:
                if self._coloured(q):
                    if self.colour[q] > 0:
                        self._unpurify(q)
                else:
                    if self.cnt[x] == self.upper[x]:
                        self._uncover(x)
                    self.cnt[x] -= 1
                q -= 1
            if q == p:
                break

    cdef inline bint _commit_others(self, int p) noexcept nogil:
        """As _commit_all for the nodes of p's option other than p (already covered).

        Gives up as soon as the child node is seen to be a dead end (an item
        outside the option is left needing an option and having none): the
        state is then restored and False returned. About three in five nodes of
        a plain exact-cover search are such dead ends; stopping at the first
        empty list saves the rest of their covers and uncovers.
        """
        cdef int q = p + 1, x, r
        self.cnt[self.nd[p].top] += 1
        while q != p:
            x = self.nd[q].top
            if x < 0:
                q = self.nd[q].up
                continue
            if self._coloured(q):
                if self.colour[q] > 0:
                    self._purify(q)  # a dead end it causes is met in the child
                q += 1
                continue
            self.cnt[x] += 1
            if self.cnt[x] == self.upper[x]:
                r = self._cover(x, p)
                if r:
                    self._uncover_from(x, r)
                    self.cnt[x] -= 1
                    self._uncommit_others(p, q)
                    return False
            q += 1
        return True

    cdef inline void _uncommit_others(self, int p, int start) noexcept nogil:
        """Undo _commit_others(p) for the nodes before ``start`` back to p (all of
        them when ``start == p``)."""
        cdef int q = start - 1, x
        while q != p:
            x = self.nd[q].top
            if x < 0:
                q = self.nd[q].dn
                continue
            if self._coloured(q):
                if self.colour[q] > 0:
                    self._unpurify(q)
                q -= 1
                continue
            if self.cnt[x] == self.upper[x]:
                self._uncover(x)
            self.cnt[x] -= 1
            q -= 1
        self.cnt[self.nd[p].top] -= 1

    cdef inline int _exclude_first(self, int i) noexcept nogil:
        """Take the first option in item i's list out of every list, onto the
        exclusion stack (Algorithm M's levels); return its node."""
        cdef int p = self.nd[i].dn
        self._take_out(p)
        self.excl[self.excl_top] = p
        self.excl_top += 1
        return p

    cdef inline void _put_back_to(self, int top) noexcept nogil:
        """Put back the options excluded since the exclusion stack held ``top``."""
        while self.excl_top > top:
            self.excl_top -= 1
            self._put_back(self.excl[self.excl_top])

    cdef inline void _leave(self, int i) noexcept nogil:
        """Take item i off the active list: it stays as it is (need <= 0)."""
        self.rlink[self.llink[i]] = self.rlink[i]
        self.llink[self.rlink[i]] = self.llink[i]

    cdef inline void _unleave(self, int i) noexcept nogil:
        self.rlink[self.llink[i]] = i
        self.llink[self.rlink[i]] = i

    # -- the search loop ----------------------------------------------------------

    cdef inline int _choose(self, int *degree) noexcept nogil:
        """The item to branch on: the active primary item of least degree (the
        first one on ties; a degree of 0 or 1 ends the scan at once). Its degree,
        the number of children, goes to ``degree`` (0x7fffffff: no active item)."""
        cdef int root = self.root, j = self.rlink[root], i = j, need, deg
        cdef int best = 0x7fffffff
        cdef int *length = self.length
        cdef int *count = self.cnt
        cdef int *lower = self.lower
        cdef int *rlink = self.rlink
        while j != root:
            need = lower[j] - count[j]
            deg = length[j] + 1 - (need if need > 0 else 0)
            if deg < best:
                best = deg
                i = j
                if deg <= 1:
                    break
            j = rlink[j]
        degree[0] = best
        return i

    cdef int _run(self, bint stop_at_solution, long long limit,
                  long long *found) except -1 nogil:
        """Search on from the saved state.

        Returns FOUND (a solution is on the stack; the state is ready to go on),
        LIMIT (``found`` reached ``limit``), PAUSED (the node cap of
        ``count(nodes=...)`` reached; ready to go on) or EXHAUSTED. ``found`` counts
        solutions. Raises KeyboardInterrupt (or any error a signal handler
        raises) with the state still resumable.
        """
        cdef int l = self.level, i, p, need, best, root = self.root
        cdef bint down = self.going_down
        cdef int *length = self.length
        cdef int *count = self.cnt
        cdef int *lower = self.lower
        cdef int *upper = self.upper
        cdef int *rlink = self.rlink
        cdef Node *nd = self.nd
        if self.finished:
            return EXHAUSTED
        while True:
            if down:
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
                if rlink[root] == root:
                    # Every primary item is decided: a solution.
                    found[0] += 1
                    down = False
                    if stop_at_solution or found[0] == limit:
                        self.level = l
                        self.going_down = False
                        return FOUND if stop_at_solution else LIMIT
                    continue
                i = self._choose(&best)
                if best <= 0:
                    down = False
                    continue
                self.stk_item[l] = i
                if upper[i] - count[i] == 1:
                    self.stk_mode[l] = 1
                    self._cover(i, -1)
                    self.stk_node[l] = i
                else:
                    self.stk_mode[l] = 0
                    self.stk_excl[l] = self.excl_top
                    self.stk_node[l] = i
            else:
                # Back up one level and undo the branch taken there.
                l -= 1
                if l < 0:
                    self.finished = True
                    self.level = 0
                    return EXHAUSTED
                i = self.stk_item[l]
                p = self.stk_node[l]
                if self.stk_mode[l]:
                    if p != _STOP:
                        self._uncommit_others(p, p)
                elif p == _STOP:
                    self._unleave(i)
                else:
                    self._uncommit_all(p)
            # Take the next branch at level l, if any.
            i = self.stk_item[l]
            p = self.stk_node[l]
            if self.stk_mode[l]:
                if p == _STOP:
                    self._uncover(i)
                    down = False
                    continue
                p = nd[p].dn
                while p != i and not self._commit_others(p):
                    # That child is a dead end, given up during its commit; it
                    # counts as a node visited (the reference enters it).
                    self.n_nodes_visited += 1
                    p = nd[p].dn
                if p != i:
                    self.stk_node[l] = p
                    l += 1
                    down = True
                elif lower[i] <= count[i]:
                    self.stk_node[l] = _STOP
                    l += 1
                    down = True
                else:
                    self._uncover(i)
                    down = False
            else:
                if p == _STOP:
                    self._put_back_to(self.stk_excl[l])
                    down = False
                    continue
                need = lower[i] - count[i]
                if length[i] > 0 and length[i] >= need:
                    p = self._exclude_first(i)
                    self._commit_all(p)
                    self.stk_node[l] = p
                    l += 1
                    down = True
                elif need <= 0:
                    self._leave(i)
                    self.stk_node[l] = _STOP
                    l += 1
                    down = True
                else:
                    self._put_back_to(self.stk_excl[l])
                    down = False

    cdef double _walk(self, uint64_t *state) noexcept nogil:
        """One probe of :meth:`probe`: from the root (level 0, nothing chosen) down a
        random path, each child drawn among the node's ``degree`` children in the
        order the search takes them; then every step undone. Returns
        ``1 + d1 + d1*d2 + ...``."""
        cdef int l = 0, i, k, p, r, need, best, root = self.root
        cdef double size = 1.0, scale = 1.0
        cdef int *length = self.length
        cdef int *count = self.cnt
        cdef int *rlink = self.rlink
        cdef Node *nd = self.nd
        while rlink[root] != root:
            i = self._choose(&best)
            if best <= 0:
                break
            scale *= best
            size += scale
            state[0] = _step(state[0])
            r = _draw(state[0], best)
            self.stk_item[l] = i
            if self.upper[i] - count[i] == 1:
                # Algorithm X's level: the options of the list in turn, then leaving
                # the item (need <= 0); a child found dead during its commit is a leaf.
                self.stk_mode[l] = 1
                self._cover(i, -1)
                p = nd[i].dn
                for k in range(r):
                    p = nd[p].dn
                if p == i:
                    self.stk_node[l] = _STOP
                elif self._commit_others(p):
                    self.stk_node[l] = p
                else:
                    self.stk_node[l] = _STOP  # only the cover to undo
                    l += 1
                    break
            else:
                # Algorithm M's level: child k takes the first option once the k
                # before it are excluded; the last leaves the item, all excluded.
                self.stk_mode[l] = 0
                self.stk_excl[l] = self.excl_top
                for k in range(r):
                    self._exclude_first(i)
                need = self.lower[i] - count[i]
                if length[i] > 0 and length[i] >= need:
                    p = self._exclude_first(i)
                    self._commit_all(p)
                    self.stk_node[l] = p
                else:
                    self._leave(i)
                    self.stk_node[l] = _STOP
            l += 1
        while l > 0:
            l -= 1
            i = self.stk_item[l]
            p = self.stk_node[l]
            if self.stk_mode[l]:
                if p != _STOP:
                    self._uncommit_others(p, p)
                self._uncover(i)
            else:
                if p == _STOP:
                    self._unleave(i)
                else:
                    self._uncommit_all(p)
                self._put_back_to(self.stk_excl[l])
        return size

    def probe(self, int probes=1, seed=0):
        """Knuth's estimate of the nodes of this search (D. E. Knuth, Math. Comp.
        29 (1975) 121-136): the mean over ``probes`` random walks from the root of
        ``1 + d1 + d1*d2 + ...``, ``d1, d2, ...`` the numbers of children along the
        walk (the children given up during their commit counted, as in ``nodes``),
        drawn by the generator of :mod:`polyforms._walks`. 0.0 when the forced
        options clash. Only before the search starts: it estimates the whole tree.
        """
        cdef uint64_t state = _seeded(<uint64_t> (int(seed) & 0xFFFFFFFFFFFFFFFF))
        cdef double total = 0.0
        cdef int step
        if probes < 1:
            raise ValueError(f"probes must be at least 1, not {probes}")
        if self.n_nodes_visited:
            raise ValueError("a probe estimates a whole search: probe before counting")
        if self.finished:
            return 0.0
        with nogil:
            for step in range(probes):
                total += self._walk(&state)
        return total / probes

    cdef int _option_of(self, int p):
        while self.nd[p].top >= 0:
            p += 1
        return -self.nd[p].top - 1

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
            if self.stk_node[k] != _STOP:
                solution.append(self._option_of(self.stk_node[k]))
        return solution

    def count(self, limit=None, nodes=None):
        """Count the solutions still ahead (at most ``limit``), without building them.

        With ``nodes``, pause on entering a node once ``nodes`` more have been
        visited (that node is visited when the search goes on; children given
        up during their commit can take the count a little past ``nodes``):
        ``done`` then says whether the search ended, and a later call goes on
        from there.
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
        root down to the node it enters when it goes on (-1 for a branch that
        leaves its item as it is), as the readable twin's ``path``."""
        if self.finished:
            return []
        return [-1 if self.stk_node[k] == _STOP else self._option_of(self.stk_node[k])
                for k in range(self.level)]

    @property
    def nodes(self):
        """Search nodes visited so far, the children given up during their commit included."""
        return self.n_nodes_visited

    # -- invariants (tests only: never called by the search) ----------------------

    def _check(self):
        """Check the invariants of the linked structure; return the active items.

        Raises AssertionError naming the first one broken:

        * each item's vertical list is a cycle through its header whose ``up``
          and ``dn`` links are inverse, holding option nodes of that item in
          increasing node order (options in increasing number), ``length`` of
          them;
        * the active list is a cycle through ``root`` whose ``llink`` and
          ``rlink`` are inverse, holding primary items in increasing order; an
          item that is full (``count == upper``) is not on it;
        * the spacers delimit the options as built;
        * an option has all of its nodes in their lists, one, or none (nodes
          purified with their item's colour, which hides leave in place, not
          counted); with just one, that node's item is off the active list (a
          cover or a purification hid the others);
        * the item of each search level at slack one, or left as it is, is off
          the active list; each option taken at slack more than one, and each
          option on the exclusion stack, is out of every list.

        Returns the active primary items in list order, for a caller's model
        of which items it covered. Costs a walk of every list.
        """
        in_list = self._check_lists()
        active = self._check_active()
        self._check_options(in_list, set(active))
        self._check_levels(in_list, set(active))
        return active

    def _check_lists(self):
        """The vertical lists; returns which nodes are in one (a bytearray by node)."""
        cdef int i, q, prev, size
        cdef Node *nd = self.nd
        in_list = bytearray(self.n_nodes)
        for i in range(self.n):
            if not 0 <= self.cnt[i] <= self.upper[i]:
                raise AssertionError(f"item {i}: count {self.cnt[i]} not in 0..{self.upper[i]}")
            q, prev, size = nd[i].dn, i, 0
            while q != i:
                if not self.n < q < self.n_nodes or nd[q].top != i:
                    raise AssertionError(f"item {i}: node {q} in its list is not of its options")
                if nd[q].up != prev or nd[prev].dn != q:
                    raise AssertionError(f"item {i}: up and dn of node {q} are not inverse")
                if q <= prev and prev != i:
                    raise AssertionError(f"item {i}: node {q} follows node {prev} in its list")
                in_list[q] = 1
                prev, q, size = q, nd[q].dn, size + 1
                if size > self.n_nodes:
                    raise AssertionError(f"item {i}: its list does not come back to its header")
            if nd[i].up != prev:
                raise AssertionError(f"item {i}: the header's up is not its last node")
            if size != self.length[i]:
                raise AssertionError(f"item {i}: length {self.length[i]}, {size} nodes listed")
        return in_list

    def _check_active(self):
        """The active list of primary items; returns its items in order."""
        cdef int j = self.rlink[self.root], prev = self.root
        active = []
        while j != self.root:
            if not 0 <= j < self.n or not self.is_primary[j]:
                raise AssertionError(f"active list: {j} is not a primary item")
            if self.llink[j] != prev:
                raise AssertionError(f"active list: llink and rlink of {j} are not inverse")
            if active and j <= prev:
                raise AssertionError(f"active list: item {j} follows item {prev}")
            if self.cnt[j] == self.upper[j]:
                raise AssertionError(f"active list: item {j} is full (covered), yet active")
            active.append(j)
            prev, j = j, self.rlink[j]
            if len(active) > self.n:
                raise AssertionError("active list: it does not come back to its header")
        if self.llink[self.root] != prev:
            raise AssertionError("active list: the header's llink is not its last item")
        return active

    def _check_options(self, in_list, on_active):
        """The spacers, and how many of each option's nodes are in their lists."""
        cdef int o, q, first, last, linked, uses, j
        cdef Node *nd = self.nd
        first = self.n + 1
        for o in range(self.m):
            last = first
            while nd[last].top >= 0:
                last += 1
            last -= 1  # nd[last + 1] is the spacer after option o
            if last < first or nd[first - 1].top >= 0 or nd[first - 1].dn != last:
                raise AssertionError(f"option {o}: the spacer before does not name its last node")
            if nd[last + 1].top != -(o + 1) or nd[last + 1].up != first:
                raise AssertionError(f"option {o}: the spacer after does not name its first node")
            linked, uses, j = 0, 0, -1
            for q in range(first, last + 1):
                if self.colour != NULL and self.colour[q] < 0:
                    continue  # purified with its item's colour: left in its list
                uses += 1
                if in_list[q]:
                    linked, j = linked + 1, nd[q].top
            if linked not in (0, 1, uses):
                raise AssertionError(f"option {o}: {linked} of its {uses} nodes are listed")
            if linked == 1 and uses > 1 and j in on_active:
                raise AssertionError(f"option {o}: listed in item {j} alone, yet {j} is active")
            first = last + 2
        if first != self.n_nodes:
            raise AssertionError("the last spacer is not the last node")

    def _check_levels(self, in_list, on_active):
        """The search stack and the exclusion stack against the lists."""
        cdef int k, i, q
        for k in range(self.level):
            i, q = self.stk_item[k], self.stk_node[k]
            if (self.stk_mode[k] or q == _STOP) and i in on_active:
                raise AssertionError(f"level {k}: item {i} is branched on or left, yet active")
            if not self.stk_mode[k] and q != _STOP and in_list[q]:
                raise AssertionError(f"level {k}: its option (node {q}) is still listed")
        for k in range(self.excl_top):
            if in_list[self.excl[k]]:
                raise AssertionError(f"exclusion stack: node {self.excl[k]} is still listed")
        if self.finished and self.excl_top:
            raise AssertionError("the search has ended with options still excluded")

    def _cover_item(self, int i):
        """Cover item ``i`` as a branching does (tests only, before the search
        starts; undo with :meth:`_uncover_item`, last covered first)."""
        self._before_search(i)
        self._cover(i, -1)

    def _uncover_item(self, int i):
        """Undo :meth:`_cover_item` of item ``i``."""
        self._before_search(i)
        self._uncover(i)

    cdef _before_search(self, int i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        if self.n_nodes_visited:
            raise ValueError("items are covered by hand only before the search starts")
