"""The random generator of Knuth's probes, shared by the readable twins.

The compiled cores walk the same random paths with the C copy of these three
functions (:file:`_core/_walks.pxd`): splitmix64 seeding, xorshift64 steps, and
the high half of a xorshift64* product to draw a child index. Both sides must
give the same numbers, so a probe of a compiled core equals its twin's.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1


def seeded(seed: int) -> int:
    """The first state of the probes' generator: splitmix64 of ``seed``, never 0."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z ^= z >> 31
    return z or 1


def step(x: int) -> int:
    """The next state (xorshift64)."""
    x ^= x >> 12
    x ^= (x << 25) & MASK64
    x ^= x >> 27
    return x


def draw(state: int, k: int) -> int:
    """A child index below ``k`` from ``state`` (the high half of xorshift64*)."""
    return ((state * 0x2545F4914F6CDD1D & MASK64) >> 32) % k
