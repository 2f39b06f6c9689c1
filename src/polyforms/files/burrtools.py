"""BurrTools puzzle files (``.xmpuzzle``): the cube grid read as a region and pieces, and written.

An ``.xmpuzzle`` file is gzipped XML (Andreas Röver's BurrTools; the format is
described at https://burrtools.sourceforge.net/lib-doc/xmpuzzleFormat.html)::

    <puzzle version="2">
      <gridType type="0"/>
      <shapes>
        <voxel x="3" y="2" z="1" type="0" name="L">###_#_</voxel>
        ...
      </shapes>
      <problems>
        <problem name="...">
          <shapes><shape id="0" count="1"/><shape id="1" min="0" max="2"/></shapes>
          <result id="7"/>
        </problem>
      </problems>
    </puzzle>

A voxel space lists every cell of its ``x`` by ``y`` by ``z`` box, ``x`` fastest
then ``y`` then ``z``: ``_`` empty, ``#`` filled, ``+`` variable (filled or
not in a solution), a filled cell optionally followed by its colour's number.
Only the cube grid (``gridType`` 0) is read; a problem's pieces are the shapes
it names with their counts (``count``, or ``min`` and ``max``), its result
shape is the region. BurrTools never mirrors a piece (a solid piece cannot be
turned inside out), so the set read allows rotations only.

Safety: the file is read through a bounded gunzip (at most
:data:`MAX_XML_BYTES` of XML, so a gzip bomb stops there), a document type
declaration (the door to entity expansion) is refused, and every voxel space
and the region are bounded by :data:`polyforms.limits.MAX_REGION_CELLS`. Every
fault is one line naming the file (:class:`~polyforms.errors.PolyformError`).
"""

from __future__ import annotations

import gzip
import os
import re
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.etree import ElementTree

from .._textio import piece_name, shorten
from ..errors import ParseError, PolyformError, TooLargeError
from ..limits import MAX_COPIES, MAX_REGION_CELLS

if TYPE_CHECKING:
    from ..piece_sets import PieceSet
    from ..region import Region

__all__ = ["MAX_XML_BYTES", "BurrToolsPuzzle", "read_xmpuzzle", "write_xmpuzzle", "xmpuzzle_text"]

#: The most XML a file may unzip to (64 MiB: a voxel string of the largest region
#: is a million characters; BurrTools' own files are kilobytes, a few megabytes
#: with their stored solutions). Reading stops there: a gzip bomb costs no more.
MAX_XML_BYTES = 64 << 20
#: The cube grid's number in ``<gridType type=...>``; the only one read.
CUBE_GRID = 0
_VOXEL = re.compile(r"([_#+])\d*")


@dataclass(frozen=True)
class BurrToolsPuzzle:
    """One problem of a BurrTools file: its result shape as a region, its pieces."""

    region: Region
    pieces: PieceSet
    name: str = ""


def _unzipped(data: bytes, where: str) -> bytes:
    """``data`` gunzipped (or as it is, when it is not gzip: BurrTools also reads
    plain XML), at most :data:`MAX_XML_BYTES`."""
    if data[:2] != b"\x1f\x8b":
        if len(data) > MAX_XML_BYTES:
            raise TooLargeError(f"{where}: larger than {MAX_XML_BYTES >> 20} MiB of XML")
        return data
    unzip = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        xml = unzip.decompress(data, MAX_XML_BYTES + 1)
    except zlib.error as error:
        raise ParseError(f"{where}: not a gzipped BurrTools file ({error})") from None
    if len(xml) > MAX_XML_BYTES or unzip.unconsumed_tail:
        raise TooLargeError(f"{where}: unzips to more than {MAX_XML_BYTES >> 20} MiB of XML")
    if not unzip.eof:
        raise ParseError(f"{where}: not a gzipped BurrTools file (cut short)")
    return xml


def _attribute(node: ElementTree.Element, name: str, where: str, low: int = 0) -> int:
    text = node.get(name)
    if text is None or not text.strip().isdigit():
        shown = "missing" if text is None else repr(shorten(text, 20))
        raise ParseError(f"{where}: <{node.tag}> {name} must be a whole number, not {shown}")
    value = int(text)
    if value < low:
        raise ParseError(f"{where}: <{node.tag}> {name} must be at least {low}, not {value}")
    return value


def _voxels(node: ElementTree.Element, where: str) -> tuple[list[tuple[int, int, int]], bool]:
    """The filled cells of a voxel space (``#`` and ``+``) and whether any is ``+``."""
    sizes = [_attribute(node, axis, where, 1) for axis in "xyz"]
    size_x, size_y, size_z = sizes
    total = size_x * size_y * size_z
    if total > MAX_REGION_CELLS:
        raise TooLargeError(
            f"{where}: a voxel space of {size_x}x{size_y}x{size_z} is more than "
            f"{MAX_REGION_CELLS:,} cells"
        )
    text = "".join((node.text or "").split())
    states = _VOXEL.findall(text)
    if len(states) != total or sum(len(m.group(0)) for m in _VOXEL.finditer(text)) != len(text):
        raise ParseError(
            f"{where}: a voxel space of {size_x}x{size_y}x{size_z} needs {total:,} "
            "cells of _, # or + (a colour number may follow # or +)"
        )
    cells = []
    for index, state in enumerate(states):
        if state != "_":
            x, rest = index % size_x, index // size_x
            cells.append((x, rest % size_y, rest // size_y))
    return cells, "+" in states


def _cube_puzzle_root(data: bytes, where: str) -> ElementTree.Element:
    """The ``<puzzle>`` element of a BurrTools file's bytes, on the cube grid."""
    xml = _unzipped(data, where)
    if b"<!DOCTYPE" in xml or b"<!ENTITY" in xml:
        raise ParseError(f"{where}: a document type declaration is not read")
    try:
        root = ElementTree.fromstring(xml)
    except ElementTree.ParseError as error:
        raise ParseError(f"{where}: not XML ({error})") from None
    if root.tag != "puzzle":
        raise ParseError(f"{where}: not a BurrTools puzzle (the root is <{shorten(root.tag, 20)}>)")
    grid = root.find("gridType")
    grid_type = CUBE_GRID if grid is None else _attribute(grid, "type", where)
    if grid_type != CUBE_GRID:
        raise PolyformError(
            f"{where}: BurrTools grid type {grid_type} is not read; only the cube grid (0) is"
        )
    return root


def xmpuzzle_puzzle(data: bytes, where: str = "<xmpuzzle>", problem: int = 0) -> BurrToolsPuzzle:
    """The ``problem``-th problem (from 0) of a BurrTools file's bytes (gzipped or plain XML).

    Raises
    ------
    PolyformError
        Not such a file, another grid than cubes, or out of bounds; one line
        starting with ``where``.
    """
    from ..piece_sets import PieceSet
    from ..polyform import Polyform
    from ..region import Region

    root = _cube_puzzle_root(data, where)
    spaces = root.findall("shapes/voxel")
    problems = root.findall("problems/problem")
    if not problems:
        raise ParseError(f"{where}: the file defines no problem")
    if not 0 <= problem < len(problems):
        raise PolyformError(
            f"{where}: there is no problem {problem} (the file has {len(problems)})"
        )
    chosen = problems[problem]

    def shape(node: ElementTree.Element) -> int:
        number = _attribute(node, "id", where)
        if number >= len(spaces):
            raise ParseError(f"{where}: shape {number} is not defined ({len(spaces)} shapes)")
        return number

    result = chosen.find("result")
    if result is None:
        raise ParseError(f"{where}: the problem has no result shape")
    result_cells, variable = _voxels(spaces[shape(result)], where)
    if variable:
        raise PolyformError(f"{where}: variable voxels (+) in the result shape are not read")
    if not result_cells:
        raise ParseError(f"{where}: the result shape is empty")
    pieces, counts = {}, {}
    for node in chosen.findall("shapes/shape"):
        number = shape(node)
        if node.get("count") is not None:
            low = high = _attribute(node, "count", where)
        else:
            low, high = _attribute(node, "min", where), _attribute(node, "max", where)
        if high > MAX_COPIES or low > high:
            raise ParseError(f"{where}: shape {number} has copies {low}..{high}")
        space = spaces[number]
        try:
            name = piece_name(space.get("name") or f"S{number + 1}")
        except ParseError as error:
            raise ParseError(f"{where}: {error}") from None
        if name in pieces:
            name = f"S{number + 1}"
        if name in pieces:
            raise ParseError(f"{where}: shape {number} is in the problem twice")
        cells, _ = _voxels(space, where)
        if not cells:
            raise ParseError(f"{where}: shape {number} is empty")
        pieces[name] = Polyform(cells, check=False, lattice="cube")
        counts[name] = (low, high)
    if not pieces:
        raise ParseError(f"{where}: the problem has no pieces")
    try:
        region = Region(result_cells, lattice="cube")
        piece_set = PieceSet(pieces, counts, rotations=True, reflections=False)
    except PolyformError as error:
        raise type(error)(f"{where}: {error}") from None
    return BurrToolsPuzzle(region, piece_set, chosen.get("name", ""))


def read_xmpuzzle(path: str | os.PathLike[str], problem: int = 0) -> BurrToolsPuzzle:
    """The ``problem``-th problem of the BurrTools file ``path``.

    Raises
    ------
    PolyformError
        Not a BurrTools file of the cube grid, or too large (the message names
        the file); OSError: unreadable.

    Examples
    --------
    >>> import tempfile, os, polyforms
    >>> from polyforms.piece_sets import PieceSet, pieces
    >>> path = os.path.join(tempfile.mkdtemp(), "soma.xmpuzzle")
    >>> soma = PieceSet(pieces("soma", dim=3), reflections=False)
    >>> write_xmpuzzle(path, polyforms.Region.box(3, 3, 3), soma)
    >>> puzzle = read_xmpuzzle(path)
    >>> polyforms.tile(puzzle.region, puzzle.pieces).count(distinct=True)
    240
    """
    where = os.fspath(path)
    with open(path, "rb") as handle:  # a gzip bomb is bounded by MAX_XML_BYTES on unzipping;
        data = handle.read(MAX_XML_BYTES + 1)  # the file itself by the same bound
    if len(data) > MAX_XML_BYTES:
        raise TooLargeError(f"{where}: larger than {MAX_XML_BYTES >> 20} MiB")
    return xmpuzzle_puzzle(data, where, problem)


def _voxel_node(parent: ElementTree.Element, cells, name: str | None) -> None:
    low = [min(c[k] for c in cells) for k in range(3)]
    size = [max(c[k] for c in cells) - low[k] + 1 for k in range(3)]
    filled = {tuple(c[k] - low[k] for k in range(3)) for c in cells}
    text = "".join(
        "#" if (x, y, z) in filled else "_"
        for z in range(size[2])
        for y in range(size[1])
        for x in range(size[0])
    )
    attributes = {"x": str(size[0]), "y": str(size[1]), "z": str(size[2]), "type": "0"}
    if name is not None:
        attributes["name"] = name
    ElementTree.SubElement(parent, "voxel", attributes).text = text


def xmpuzzle_text(region: Region, pieces: PieceSet, name: str = "") -> str:
    """The XML of a BurrTools file with one problem: ``pieces`` (shapes 0..n-1, with
    their counts) assembling ``region`` (the last shape). A piece of any number of
    copies gets as many as could fit in the region."""
    if region.dim != 3 or region.lattice.name != "cube":
        raise PolyformError("a BurrTools file holds cubes: the region is not a box of cubes")
    root = ElementTree.Element("puzzle", {"version": "2"})
    ElementTree.SubElement(root, "gridType", {"type": str(CUBE_GRID)})
    ElementTree.SubElement(root, "colors")
    shapes = ElementTree.SubElement(root, "shapes")
    problem_node = ElementTree.Element("problem", {"name": name, "state": "0"})
    used = ElementTree.SubElement(problem_node, "shapes")
    for number, (piece, polyform) in enumerate(pieces.pieces.items()):
        if polyform.dim != 3:
            raise PolyformError(f"piece {piece} is not made of cubes")
        _voxel_node(shapes, polyform.cells, piece)
        low, high = pieces.ranges[piece]
        if high is None or high < 0:  # any number (the set keeps -1): as many as fit
            high = region.size // polyform.size
        if low == high:
            attributes = {"id": str(number), "count": str(low)}
        else:
            attributes = {"id": str(number), "min": str(low), "max": str(high)}
        ElementTree.SubElement(used, "shape", attributes)
    _voxel_node(shapes, region.cells, "result")
    ElementTree.SubElement(problem_node, "result", {"id": str(len(pieces.pieces))})
    ElementTree.SubElement(root, "problems").append(problem_node)
    ElementTree.SubElement(root, "comment")
    return '<?xml version="1.0"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def write_xmpuzzle(
    path: str | os.PathLike[str], region: Region, pieces: PieceSet, name: str = ""
) -> None:
    """Write ``region`` and ``pieces`` as a gzipped BurrTools file, atomically.

    BurrTools never mirrors pieces: a set that allows reflections is written as
    it is, and BurrTools reads it with rotations only.
    """
    from .._atomic import atomic_output

    data = gzip.compress(xmpuzzle_text(region, pieces, name).encode(), mtime=0)
    with atomic_output(path, "wb") as handle:
        handle.write(data)
