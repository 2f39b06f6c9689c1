"""The colours of the SVG pictures and models: the pentomino palettes, a stable colour
for any other piece name, and the ink, paper and shades of a picture.

Private to :mod:`polyforms.draw`; :mod:`polyforms.draw.plane` names the public
ones (:func:`piece_colour`, :data:`PALETTES`, :data:`PENTOMINO_COLOURS`).
"""

from __future__ import annotations

import colorsys
import zlib
from collections.abc import Mapping

from ..errors import PolyformError, UnknownNameError

__all__ = ["COLOUR_BLIND_COLOURS", "PALETTES", "PENTOMINO_COLOURS", "piece_colour"]

#: Colours of pieces: a mapping name -> colour, the name of a palette, or None (default).
Colours = Mapping[str, str] | str | None

# Golomb's twelve letters, in colours that keep every pair far apart: the least
# CIEDE2000 difference between two of them is 22 (F and L), where a difference
# of 10 is plain at a glance. tests/test_draw.py checks every pair.
#: The default colour of each pentomino letter, far apart from each other.
PENTOMINO_COLOURS: dict[str, str] = {
    "F": "#c03c48",
    "I": "#006ccc",
    "L": "#e47848",
    "N": "#00a8a8",
    "P": "#009048",
    "T": "#fcc060",
    "U": "#846c9c",
    "V": "#f078a8",
    "W": "#786c60",
    "X": "#d8ccd8",
    "Y": "#3cb4fc",
    "Z": "#b5cf6b",
}

# The same letters for readers with red-green colour blindness: every pair stays
# apart (CIEDE2000) also as seen with deuteranopia and protanopia (simulated with
# the matrices of Machado, Oliveira and Fernandes 2009), at some cost in the
# difference seen with normal colour vision. tests/test_draw.py checks every pair.
COLOUR_BLIND_COLOURS: dict[str, str] = {
    "F": "#906054",
    "I": "#1878f0",
    "L": "#9c9078",
    "N": "#e4fce4",
    "P": "#00d8a8",
    "T": "#846c18",
    "U": "#8478a8",
    "V": "#84a8a8",
    "W": "#3c7878",
    "X": "#d8ccd8",
    "Y": "#3cb4fc",
    "Z": "#9cd854",
}

#: The palettes by name (``colours="colour-blind"`` in the drawing functions).
PALETTES: dict[str, dict[str, str]] = {
    "default": PENTOMINO_COLOURS,
    "colour-blind": COLOUR_BLIND_COLOURS,
}

INK = "#222222"  # outlines and text
PAPER = "#ffffff"  # background
UNCOVERED = "#ececec"  # region cells that no piece covers
PLAIN = "#9ecae1"  # a polyform drawn on its own, without a name


def piece_colour(name: str, palette: str = "default") -> str:
    """The fill colour of a piece, the same in every drawing.

    The twelve pentomino letters have a fixed palette (:data:`PALETTES`:
    ``"default"``, :data:`PENTOMINO_COLOURS`, or ``"colour-blind"``); a
    lower-case pentomino letter (the mirror image in one-sided sets) gets a
    lighter tint of its upper-case colour; any other name gets a colour from
    the CRC-32 of its text.

    Raises
    ------
    UnknownNameError
        An unknown palette.

    Examples
    --------
    >>> piece_colour("F"), piece_colour("f")
    ('#c03c48', '#d68088')
    >>> piece_colour("H07") == piece_colour("H07") != piece_colour("H08")
    True
    """
    colours = PALETTES.get(palette)
    if colours is None:
        raise UnknownNameError(f"unknown palette {palette!r}; choose one of {', '.join(PALETTES)}")
    if name in colours:
        return colours[name]
    if name.upper() in colours and len(name) == 1:
        return _mix(colours[name.upper()], PAPER, 0.35)
    code = zlib.crc32(name.encode("utf-8", "surrogatepass"))  # a lone surrogate too
    # Spread hues by the golden angle; vary lightness and saturation a little so
    # that names with nearby hues still differ.
    hue = (code % 1000) * 0.618034 % 1.0
    lightness = (0.62, 0.7, 0.78)[(code >> 10) % 3]
    saturation = (0.45, 0.6)[(code >> 12) % 2]
    red, green, blue = colorsys.hls_to_rgb(hue, lightness, saturation)
    return _hex(red * 255, green * 255, blue * 255)


def _hex(red: float, green: float, blue: float) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, round(c))) for c in (red, green, blue)))


def _rgb(colour: str) -> tuple[int, int, int]:
    text = colour.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6:
        raise PolyformError(f"colour {colour!r} is not of the form #rrggbb")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _mix(colour: str, other: str, amount: float) -> str:
    """``colour`` moved ``amount`` (0 to 1) of the way towards ``other``."""
    a, b = _rgb(colour), _rgb(other)
    return _hex(*(x + (y - x) * amount for x, y in zip(a, b)))


def _colour_for(name: str, colours: Colours) -> str:
    """A piece's fill: from ``colours`` (a mapping, or the name of a palette), else the default."""
    if isinstance(colours, str):
        return piece_colour(name, colours)
    if colours and name in colours:
        return colours[name]
    return piece_colour(name)


def _luminance(colour: str) -> float:
    """Relative luminance (WCAG 2): linear-light sRGB weighted by the eye's sensitivity."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in _rgb(colour))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _text_colour(fill: str) -> str:
    """INK or PAPER, whichever contrasts more with ``fill`` (WCAG contrast ratio)."""
    lum = _luminance(fill)
    on_ink = (lum + 0.05) / (_luminance(INK) + 0.05)
    on_paper = (_luminance(PAPER) + 0.05) / (lum + 0.05)
    return INK if on_ink >= on_paper else PAPER
