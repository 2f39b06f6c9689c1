"""Make the pictures shown in the README and the guide (docs/*.svg); the same bytes on every run.

Run from anywhere: ``python scripts/figures.py`` rewrites docs/; ``python
scripts/figures.py DIR`` writes them to DIR instead (tests/test_readme.py does
that and compares the bytes with docs/, so a change to the drawing code that
changes a picture fails until the pictures are made again).

Two pictures are exactly what a command shown in the guide writes, made by
the library calls behind that command:

* ``heptominoes.svg``: ``polyforms enumerate 7 --kind free --format svg -o heptominoes.svg``
* ``distinct-5x12.svg``: ``polyforms tile 5x12 --pieces pentominoes --distinct --limit 20
  -o distinct-5x12.svg`` (the distinct tilings in their steady orientation).
"""

from __future__ import annotations

import sys
from pathlib import Path

import polyforms as pf
from polyforms.files.catalogue import write_polyforms
from polyforms.files.solutions import write_tilings
from polyforms.puzzles.examples import queens

DOCS = Path(__file__).resolve().parent.parent / "docs"

# One of the 2,339 tilings of the 6x10 rectangle by the twelve pentominoes.
RECTANGLE = """
FIIIIILLLL
FFFNWWTTTL
YFNNXWWTZZ
YYNXXXWTZV
YUNUXPPZZV
YUUUPPPVVV
"""

# A packing of the 3x4x5 box by the twelve solid pentominoes: z-layers from the bottom.
BOX = """
FLYUU
VLYYU
VLYUU
VLYWW
--
FLNZZ
FNNZP
FNZZP
VNWWP
--
IIIII
FXTTT
XXXTP
VXWTP
"""


def make(directory: Path) -> dict[str, int]:
    """Write every figure into ``directory``; return {file name: bytes}."""
    directory.mkdir(parents=True, exist_ok=True)
    tiling = list(pf.parse_lettered(RECTANGLE).items())
    packing = list(pf.parse_lettered(BOX).items())
    figures = {
        "pentominoes.svg": pf.catalogue_svg(
            pf.pieces("pentominoes"), columns=6, cell=14, symmetry=True
        ),
        "tiling-6x10.svg": pf.tiling_svg(tiling),
        "packing-3x4x5.svg": pf.packing_svg(packing, cell=26),
        "packing-3x4x5-layers.svg": pf.exploded_svg(packing, cell=26),
        "queens-8.svg": pf.queens_svg(8, queens(8).first(), cell=28),
    }
    for name, picture in figures.items():
        picture.save(directory / name)
    write_polyforms(7, directory / "heptominoes.svg", "svg", kind="free")
    problem = pf.tile("5x12", "pentominoes")
    steady = map(problem.steady, problem.solutions(distinct=True, limit=20))
    write_tilings(steady, directory / "distinct-5x12.svg", "svg", region=problem.region)
    return {p.name: p.stat().st_size for p in sorted(directory.glob("*.svg"))}


def main(argv: list[str]) -> None:
    target = Path(argv[0]) if argv else DOCS
    for name, size in make(target).items():
        print(f"{target / name}: {size} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
