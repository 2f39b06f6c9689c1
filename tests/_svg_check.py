"""Every SVG the tests make is read back by an XML parser.

A document that no parser reads (a control character in a piece's name, a
surrogate written as a character reference) renders nowhere, yet most tests
only count substrings of it. :func:`parse_every_svg` makes each
:class:`~polyforms.draw.svg.SvgDrawing` built while a test runs go through
``xml.etree.ElementTree.fromstring`` as it is made; :func:`svg_file` does the
same for a file a command wrote.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

from polyforms.draw.svg import SvgDrawing

SVG = "{http://www.w3.org/2000/svg}"


def parsed(text: str) -> ET.Element:
    """The root of an SVG document, which must be well-formed XML with an ``<svg>`` root."""
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg", root.tag
    return root


def svg_file(path: str | os.PathLike[str]) -> ET.Element:
    """The root of an SVG file (UTF-8), read by the XML parser."""
    with open(path, "rb") as handle:
        return parsed(handle.read().decode("utf-8"))


def parse_every_svg(monkeypatch) -> None:
    """Make every SvgDrawing built from now on (until ``monkeypatch`` undoes it) pass
    :func:`parsed` as it is made: one check for each picture a test draws."""
    plain = str.__new__

    def checked(cls, *args):
        drawing = plain(cls, *args)
        parsed(drawing)
        return drawing

    monkeypatch.setattr(SvgDrawing, "__new__", checked)
