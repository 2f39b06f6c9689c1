"""Careless and hostile numbers are refused where they enter, in one line, before
any reaches the compiled kernels' fixed-width ints; work that grew with the
square of the region is linear again; an estimate never passes off "no probe
reached a tiling" as "no tilings".

Each row of a table is one case: what is given, and a fragment of the one-line
message. From the command line a refusal is exit status 2 and one line on
stderr, never a traceback; from the library a typed
:class:`~polyforms.errors.PolyformError`.
"""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polyforms as pf
from polyforms.errors import ParseError, PolyformError, TilingError, WrongTypeError
from polyforms.limits import MAX_COPIES
from polyforms.piece_sets import parse_copies
from polyforms.tiling.layout import area_reachable

# -- copy counts ------------------------------------------------------------------------

# (--copies, fragment of the error); each with `tile 6x10 --pieces pentominoes --optional --count`.
CLI_COPIES = [
    ("I=0..2147483648", "copies run from 0 to 1,000,000"),
    ("I=4294967298", "copies run from 0 to 1,000,000"),
    ("I=18446744073709551616..", "copies run from 0 to 1,000,000"),
    ("I=1000001", "copies run from 0 to 1,000,000"),
    ("I=1,I=2", "piece 'I' is given copies twice"),
    ("I=0..2,X=1,I=0..", "piece 'I' is given copies twice"),
    ("I=" + "9" * 5000, "bad copies item"),
]


@pytest.mark.parametrize("copies,message", CLI_COPIES)
def test_the_command_line_refuses_copies_out_of_range_in_one_line(cli, copies, message):
    done = cli("tile", "6x10", "--pieces", "pentominoes", "--copies", copies, "--optional",
               "--count")  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert message in done.stderr


# (counts=, error type, fragment); each with tile("6x10", "pentominoes", counts=...).count().
LIBRARY_COUNTS = [
    ({"I": 2**31}, TilingError, "must be from 0 to 1,000,000"),
    ({"I": (0, 2**31)}, TilingError, "must be from 0 to 1,000,000"),
    ({"I": (1, 2**63)}, TilingError, "must be from 0 to 1,000,000"),
    ({"I": (2**64, None)}, TilingError, "must be from 0 to 1,000,000"),
    ({"I": MAX_COPIES + 1}, TilingError, "must be from 0 to 1,000,000"),
    ({"I": -(2**64)}, TilingError, "must not be negative"),
    ({"I": 2.0**40}, TilingError, "must be whole numbers"),
]


@pytest.mark.parametrize("counts,error,message", LIBRARY_COUNTS)
def test_the_library_refuses_copies_out_of_range(counts, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(")) as raised:
        pf.tile("6x10", "pentominoes", counts=counts, optional=True).count()
    assert isinstance(raised.value, PolyformError) and "\n" not in str(raised.value)


PARSED_COPIES = [
    ("I=0..2147483648", "copies run from 0 to 1,000,000"),
    ("I=1,I=2", "given copies twice"),
    (" I =1, I=0..", "given copies twice"),  # the same name, however spaced
]


@pytest.mark.parametrize("text,message", PARSED_COPIES)
def test_parse_copies_refuses_big_numbers_and_names_given_twice(text, message):
    with pytest.raises(ParseError, match=message):
        parse_copies(text)


def test_the_largest_copy_count_is_taken():
    assert parse_copies(f"I=0..{MAX_COPIES}") == {"I": (0, MAX_COPIES)}
    problem = pf.tile("2x5", "pentominoes", counts={"I": (0, MAX_COPIES)}, optional=True)
    assert problem.count() == 1  # two I pentominoes


# (budget, seed, error type, fragment) of an estimate: of a tiling count and of an
# exact cover, alike.
ESTIMATE_ARGUMENTS = [
    (math.nan, 0, PolyformError, "budget must be a finite number of seconds, not nan"),
    (math.inf, 0, PolyformError, "budget must be a finite number of seconds, not inf"),
    (10**400, 0, PolyformError, "budget must be a finite number of seconds"),
    ("1", 0, WrongTypeError, "budget must be a number of seconds"),
    (0.05, None, WrongTypeError, "seed must be a whole number"),
    (0.05, 1.5, WrongTypeError, "seed must be a whole number"),
]


@pytest.mark.parametrize("budget,seed,error,message", ESTIMATE_ARGUMENTS)
@pytest.mark.parametrize("problem", ["tiling", "exact cover"])
def test_estimates_refuse_budgets_and_seeds_that_are_no_numbers(problem, budget, seed, error,
                                                                message):  # fmt: skip
    searched = pf.tile("5x12", "pentominoes") if problem == "tiling" else pf.examples.queens(9)
    with pytest.raises(error, match=message):
        searched.estimate(budget=budget, seed=seed)


def test_a_seed_past_64_bits_is_taken():
    """The tiling's searches are weighed by probes seeded ``seed + k``."""
    assert pf.tile("5x12", "pentominoes").estimate(budget=0.05, seed=2**80).probes >= 2
    assert pf.examples.queens(9).estimate(budget=0.05, seed=-(2**80)).probes >= 2


# -- bounded work ------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 7), st.integers(0, 3), st.one_of(st.none(), st.integers(0, 12))),
        min_size=1,
        max_size=4,
    ),
    st.integers(0, 90),
)
def test_area_reachable_agrees_with_every_choice_of_copies(pieces, target):
    """Optional copies added in doubling chunks reach the areas that adding them one
    at a time reaches (the oracle: every choice of copies, enumerated)."""
    sizes, ranges = {}, {}
    for k, (size, low, extra) in enumerate(pieces):
        sizes[str(k)] = pf.Polyform([(x, 0) for x in range(size)])
        ranges[str(k)] = (low, None if extra is None else low + extra)
    piece_set = pf.PieceSet(sizes, ranges)
    reachable = {0}
    for name, (low, high) in piece_set.ranges.items():
        size = sizes[name].size
        most = target // size if high < 0 else high
        reachable = {a + size * n for a in reachable for n in range(low, most + 1)}
        reachable = {a for a in reachable if a <= target}
    assert area_reachable(piece_set, target) == (target in reachable)


def test_area_reachable_of_a_million_cells_takes_a_shift_per_doubling():
    """A monomino with any number of copies on a million cells: one shift a copy was
    ten billion word operations; a shift a doubling is twenty."""
    monomino = pf.PieceSet({"O": pf.Polyform([(0, 0)]), "I": pf.Polyform([(0, 0), (1, 0)])},
                           {"O": (0, None), "I": (3, 3)})  # fmt: skip
    assert area_reachable(monomino, 1_000_000)
    assert not area_reachable(pf.PieceSet({"I": pf.Polyform([(0, 0), (1, 0)])},
                                          {"I": (0, None)}), 999_999)  # fmt: skip


def test_a_sweep_of_wide_boards_starts_its_tables_small(require_compiled):
    """A layer of one board of 625 words takes a table of a few slots, not of 4,096
    slots (20 MB cleared and scanned a layer: 200x200 by the monomino ran 18 s)."""
    require_compiled("_tiling")
    from polyforms.tiling.engines import tiling_kernel

    search, _, _ = pf.tile("1x40000", "free:1", reuse=True).searches.over()
    sweep = tiling_kernel().BoardSweep(search)
    while not sweep.run(1 << 20):
        pass
    assert sweep.count == 1
    assert sweep.peak < 1 << 20  # bytes of tables at most: two layers of a few slots


# -- estimates --------------------------------------------------------------------------


def test_an_estimate_that_reached_no_tiling_says_it_cannot_estimate():
    problem = pf.tile("100x100", "dominoes", reuse=True)
    with pytest.warns(RuntimeWarning, match="cannot estimate the tilings"):
        found = problem.estimate(budget=0.2)
    assert math.isnan(found.solutions) and found.probes >= 2


def test_an_estimate_of_no_tilings_from_many_probes_stands():
    """8x8 less two cells of one colour has no domino tiling: thousands of probes
    that all fail say so."""
    rows = ["#" * 8] * 8
    rows[0] = "#." + "#" * 6
    rows[7] = "#" * 6 + ".#"
    problem = pf.tile(pf.Region.parse("\n".join(rows)), "dominoes", reuse=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = problem.estimate(budget=0.3)
    assert found.solutions == 0 and found.probes >= 100


def test_the_command_line_says_when_it_cannot_estimate(cli):
    done = cli("tile", "100x100", "--pieces", "dominoes", "--reuse", "--estimate")
    assert done.returncode == 0, done.stderr
    lines = dict(line.split() for line in done.stdout.splitlines())
    assert lines["tilings"] == "unknown"  # not 0, and not a bare nan
    assert "cannot estimate the tilings" in done.stderr and "Traceback" not in done.stderr


def test_estimates_are_unchanged_where_probes_reach_tilings():
    found = pf.tile("8x8", "dominoes", reuse=True).estimate(budget=0.2, seed=1)
    assert 12988816 / 2 < found.solutions < 12988816 * 2
