"""Write exact-cover instances with colours (Knuth's XCC) as DLX text, for timing
``polyforms solve FILE --count`` against Knuth's SSXCC on the same files.

    python scripts/bench_colours.py OUTDIR

Writes ``xcc-random-K.dlx`` (K = 1..5: random instances, seeded) and
``wordsq5.dlx`` (5x5 double word squares over a seeded random word list of a
small alphabet: the larger instance). Prints each file with its number of
solutions as polyforms counts it (check it against SSXCC's "Altogether").
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from polyforms.exactcover.problem import Coloured, ExactCover
from polyforms.puzzles.examples import word_squares


def random_xcc(seed: int) -> ExactCover:
    """Random items and options: 60 primary items, 25 secondary ones (4 colours),
    900 options of 2-3 primary items and 2-4 secondary uses (nine in ten coloured),
    a planted solution among them."""
    rng = random.Random(seed)
    primary = [f"p{k}" for k in range(60)]
    secondary = [f"s{k}" for k in range(25)]
    choices = {}
    # A planted solution first, so that every instance has at least one: the primary
    # items in groups of 2-3, each group's secondary uses in one colour per item.
    shade = {name: rng.choice("rgby") for name in secondary}
    order = rng.sample(primary, len(primary))
    while order:
        size = rng.randint(2, 3)
        group, order = order[:size], order[size:]
        uses = [Coloured(name, shade[name]) for name in rng.sample(secondary, 2)]
        choices[len(choices)] = group + uses
    while len(choices) < 900:
        o = len(choices)
        items: list = rng.sample(primary, rng.randint(2, 3))
        for name in rng.sample(secondary, rng.randint(2, 4)):
            colour = rng.choice("rgby")
            items.append(Coloured(name, colour) if rng.random() < 0.9 else name)
        choices[o] = items
    return ExactCover(choices, secondary=secondary, primary=primary)


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench-colours")
    out.mkdir(parents=True, exist_ok=True)
    problems = {f"xcc-random-{k}": random_xcc(k) for k in range(1, 6)}
    rng = random.Random(5)
    words = sorted({"".join(rng.choice("abcde") for _ in range(5)) for _ in range(200)})
    problems["wordsq5"] = word_squares(words)
    for name, problem in problems.items():
        path = out / f"{name}.dlx"
        path.write_text(problem.to_dlx())
        start = time.perf_counter()
        total = problem.count()
        print(f"{path}  {total} solutions  {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
