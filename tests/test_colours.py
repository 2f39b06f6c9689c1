"""Exact cover with colours (Knuth's Algorithm C) against a brute-force XCC solver;
DLX text with colours; the word-squares example."""

from __future__ import annotations

import itertools
import random

import pytest

from polyforms.errors import DLXFormatError, ExactCoverError
from polyforms.exactcover import Coloured, ExactCover
from polyforms.puzzles.examples import word_square_grid, word_squares


def _random_instance(rng: random.Random):
    primary = [f"p{k}" for k in range(rng.randint(2, 5))]
    secondary = [f"s{k}" for k in range(rng.randint(1, 3))]
    choices = {}
    for o in range(rng.randint(3, 11)):
        items = rng.sample(primary, rng.randint(1, min(3, len(primary))))
        for name in rng.sample(secondary, rng.randint(0, len(secondary))):
            colour = rng.choice([None, "r", "g", "b"][: rng.randint(2, 4)])
            items.append(name if colour is None else Coloured(name, colour))
        rng.shuffle(items)
        choices[f"o{o}"] = items
    multiplicity = {}
    if rng.random() < 0.3:  # primary multiplicities work together with colours
        multiplicity[primary[0]] = rng.choice([2, (0, 2), (1, 2)])
    return choices, secondary, multiplicity, primary


def _brute_force(choices, secondary, multiplicity, primary):
    """Every subset of choices that covers each primary constraint within its bounds and
    each secondary one at most once, or any number of times in one colour."""
    found = []
    keys = list(choices)
    for size in range(len(keys) + 1):
        for subset in itertools.combinations(keys, size):
            uses: dict = {}
            for key in subset:
                for item in choices[key]:
                    name, colour = (
                        (item.constraint, item.colour)
                        if isinstance(item, Coloured)
                        else (item, None)
                    )
                    uses.setdefault(name, []).append(colour)
            ok = True
            for name in primary:
                low, high = (
                    multiplicity.get(name, (1, 1))
                    if not isinstance(multiplicity.get(name), int)
                    else (multiplicity[name],) * 2
                )
                if not low <= len(uses.get(name, [])) <= high:
                    ok = False
            for name in secondary:
                colours = uses.get(name, [])
                if len(colours) > 1 and (None in colours or len(set(colours)) > 1):
                    ok = False
            if ok:
                found.append(sorted(subset))
    return sorted(found)


@pytest.mark.parametrize("seed", range(80))
def test_colours_against_brute_force(seed):
    choices, secondary, multiplicity, primary = _random_instance(random.Random(seed))
    problem = ExactCover(choices, secondary=secondary, multiplicity=multiplicity, primary=primary)
    expected = _brute_force(choices, secondary, multiplicity, primary)
    by_backend = {}
    # The bitset core takes colours but no multiplicities.
    for backend in ("python", "dlx", None) + (() if multiplicity else ("bitset",)):
        listed = list(problem.solutions(backend=backend))
        assert sorted(sorted(s) for s in listed) == expected
        assert problem.count(backend=backend) == len(expected)
        by_backend[backend] = listed
    assert all(listed == by_backend["python"] for listed in by_backend.values())  # same order
    # split subtasks add up
    assert sum(problem.count(initial=i, excluded=e) for i, e in problem.split(2)) == len(expected)
    # DLX text with colours round-trips
    text = problem.to_dlx()
    again = ExactCover.from_dlx(text)
    assert again.to_dlx() == text
    assert again.count() == len(expected)


@pytest.mark.parametrize("seed", range(150))
def test_forced_choices_with_colours_against_brute_force(seed):
    """Choices forced through ``initial`` (and some excluded) are checked against
    each other's colours too: two that colour a secondary constraint
    differently, or once coloured and once not, leave no solution."""
    rng = random.Random(seed)
    choices, secondary, multiplicity, primary = _random_instance(rng)
    keys = list(choices)
    by_item: dict = {}
    for key in keys:
        for item in choices[key]:
            name = item.constraint if isinstance(item, Coloured) else item
            if name in secondary:
                by_item.setdefault(name, []).append(key)
    shared = [ks for ks in by_item.values() if len(ks) > 1]
    # Most forced pairs share a secondary constraint: that is where colours clash.
    initial = rng.sample(rng.choice(shared), 2) if shared and rng.random() < 0.8 else []
    initial += rng.sample(keys, rng.randint(0, 2))
    excluded = rng.sample(keys, rng.randint(0, 2))
    every = _brute_force(choices, secondary, multiplicity, primary)
    expected = [s for s in every if set(initial) <= set(s) and not set(excluded) & set(s)]
    problem = ExactCover(choices, secondary=secondary, multiplicity=multiplicity, primary=primary)
    for backend in ("python", "dlx", None) + (() if multiplicity else ("bitset",)):
        listed = problem.solutions(initial=initial, excluded=excluded, backend=backend)
        assert sorted(sorted(s) for s in listed) == expected, backend
        assert problem.count(initial=initial, excluded=excluded, backend=backend) == len(expected)
    if initial:  # forced by the problem itself rather than by the call
        forced = ExactCover(
            choices,
            secondary=secondary,
            multiplicity=multiplicity,
            primary=primary,
            initial=initial,
        )
        assert (
            forced.count(backend="python")
            == forced.count(backend="dlx")
            == sum(1 for s in every if set(initial) <= set(s))
        )


def test_colour_errors():
    with pytest.raises(ExactCoverError, match="primary"):
        ExactCover({"a": ["x", Coloured("y", 1)]})
    with pytest.raises(ExactCoverError, match="colour and a multiplicity"):
        ExactCover({"a": ["x", Coloured("y", 1)]}, secondary=["y"], multiplicity={"y": 2})
    problem = ExactCover({"a": ["x", Coloured("y", 1)]}, secondary=["y"], multiplicity={"x": 2})
    with pytest.raises(ExactCoverError, match="without multiplicities"):
        problem.count(backend="bitset")
    with pytest.raises(DLXFormatError, match="primary item 'a' cannot have a colour"):
        ExactCover.from_dlx("a | y\na:r y\n")
    with pytest.raises(DLXFormatError, match="line 2"):
        ExactCover.from_dlx("a | y\na y:\n")


def test_colour_names_that_are_not_dlx_names_are_renamed():
    problem = ExactCover(
        {"a": ["x", Coloured("y", (1, 2))], "b": ["z", Coloured("y", (1, 2))]}, secondary=["y"]
    )
    text = problem.to_dlx()
    assert "y:c1" in text and "| c1 = (1, 2)" in text
    assert ExactCover.from_dlx(text).count() == problem.count() == 1


def _brute_word_squares(words, distinct=True):
    n = len(words[0])
    found = 0
    for rows in itertools.product(words, repeat=n):
        columns = ["".join(row[j] for row in rows) for j in range(n)]
        if all(c in words for c in columns):
            if not distinct or len(set(rows) | set(columns)) == 2 * n:
                found += 1
    return found


def test_word_squares_against_brute_force():
    words = ["bag", "ice", "tee", "bit", "ace", "gee", "sea", "gas", "ate", "tea", "eat", "sat",
             "set", "tag", "age", "ago", "ten", "net", "ant", "tan"]  # fmt: skip
    for distinct in (True, False):
        problem = word_squares(words, distinct=distinct)
        assert problem.count() == _brute_word_squares(words, distinct) > 0
        assert problem.count(backend="python") == problem.count()
    square = word_square_grid(word_squares(words).first()).split("\n")
    assert all(row in words for row in square)
    assert all("".join(col) in words for col in zip(*square))
    with pytest.raises(ExactCoverError, match="empty"):
        word_squares([])


def test_bitset_core_agrees_with_dancing_links_on_many_words():
    # Over 64 options and items: every bitset holds several words, and the
    # colour columns come after the items' columns.
    rng = random.Random(7)
    primary = [f"p{k}" for k in range(70)]
    secondary = [f"s{k}" for k in range(12)]
    shade = {name: rng.choice("rgb") for name in secondary}
    choices = {}
    for _ in range(3):  # three planted solutions, their colours agreeing
        order = rng.sample(primary, len(primary))
        while order:
            group, order = order[:2], order[2:]
            uses = [Coloured(name, shade[name]) for name in rng.sample(secondary, 2)]
            choices[len(choices)] = group + uses
    while len(choices) < 300:
        items = rng.sample(primary, rng.randint(1, 3))
        for name in rng.sample(secondary, rng.randint(0, 3)):
            colour = rng.choice("rgb")
            items.append(Coloured(name, colour) if rng.random() < 0.8 else name)
        choices[len(choices)] = items
    problem = ExactCover(choices, secondary=secondary, primary=primary)
    listed = list(problem.solutions(limit=200, backend="dlx"))
    assert len(listed) == 200  # the order of as many solutions is compared
    assert list(problem.solutions(limit=200, backend="bitset")) == listed
    assert problem.count(limit=3000, backend="bitset") == problem.count(limit=3000, backend="dlx")
    # and a whole count, under the first ten options of a planted solution
    below = list(range(10))
    bitset = problem.count(initial=below, backend="bitset")
    assert bitset == problem.count(initial=below, backend="dlx") > 3000
