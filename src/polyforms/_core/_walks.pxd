# cython: language_level=3
"""The random generator of Knuth's probes, shared by the compiled cores.

The C copy of :mod:`polyforms._walks` (the readable twins'): the same three
functions give the same numbers, so a compiled probe takes its twin's walks.
"""

from libc.stdint cimport uint64_t


cdef inline uint64_t _seeded(uint64_t seed) noexcept nogil:
    """The first state of the probes' generator (splitmix64 of ``seed``, never 0)."""
    cdef uint64_t z = seed + <uint64_t> 0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t> 0x94D049BB133111EB
    z = z ^ (z >> 31)
    return z if z else 1


cdef inline uint64_t _step(uint64_t x) noexcept nogil:
    """The next state (xorshift64)."""
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    return x


cdef inline int _draw(uint64_t state, int k) noexcept nogil:
    """A child index below ``k`` from ``state`` (the high half of xorshift64*)."""
    return <int> (((state * <uint64_t> 0x2545F4914F6CDD1D) >> 32) % <uint64_t> k)
