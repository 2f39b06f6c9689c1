"""Make the pictures shown in the README (docs/*.svg); same bytes on every run.

Run from the repository root: ``python scripts/figures.py``. The heptomino
sheet comes from the command line instead:
``polyforms enumerate 7 --kind free --format svg -o docs/heptominoes.svg``.
"""

from __future__ import annotations

from pathlib import Path

import polyforms as pf
from polyforms.examples import queens

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


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    tiling = list(pf.parse_lettered(RECTANGLE).items())
    packing = list(pf.parse_lettered(BOX).items())
    figures = {
        "pentominoes.svg": pf.catalogue_svg(
            pf.pieces("pentominoes"), columns=6, cell=14, symmetry=True
        ),
        "tiling-6x10.svg": pf.tiling_svg(tiling, cell=24),
        "packing-3x4x5.svg": pf.packing_svg(packing, cell=26),
        "packing-3x4x5-layers.svg": pf.exploded_svg(packing, cell=26),
        "queens-8.svg": pf.queens_svg(8, queens(8).first(), cell=28),
    }
    for name, picture in figures.items():
        picture.save(DOCS / name)
        print(f"docs/{name}: {len(picture.encode())} bytes")


if __name__ == "__main__":
    main()
