"""Write the API reference pages from each package's ``__all__`` at build time.

One page per package (``api/<package>.rst``): a table of its public names with
their summary lines, and one page per name below it (``api/generated/``) with
autodoc's full text. Both are rewritten on every build, so a name added to an
``__all__`` appears without editing the docs, and ``docs/api/`` is not in git.
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

from publicnames import PACKAGES, attribute_doc, first_paragraph, public_names

TITLES = {
    "polyforms": "the flat public face, ``import polyforms as pf``",
    "polyforms.lattice": "cells, neighbours and symmetries of each lattice",
    "polyforms.enumeration": "enumerating and counting polyforms",
    "polyforms.tiling": "tiling regions with piece sets",
    "polyforms.exactcover": "exact cover over hashable choices",
    "polyforms.jobs": "the job layer: long runs, checkpoints, Dask",
    "polyforms.files": "catalogue and solution files",
    "polyforms.draw": "SVG pictures and 3D models",
    "polyforms.puzzles": "ready-made problems",
    "polyforms.studio": "the studio's puzzle files",
}


def _directive(package: str, name: str) -> str:
    value = getattr(importlib.import_module(package), name)
    target = f"{package}.{name}"
    if inspect.ismodule(value):
        return f".. automodule:: {value.__name__}\n   :members:\n   :no-index:\n"
    if inspect.isclass(value):
        if issubclass(value, BaseException):
            return f".. autoexception:: {target}\n"
        return f".. autoclass:: {target}\n   :members:\n"
    if inspect.isroutine(value):
        return f".. autofunction:: {target}\n"
    # A constant: its attribute docstring from the module that assigns it.
    doc = attribute_doc(package, name)
    text = f".. py:data:: {target}\n\n"
    for line in doc.splitlines():
        text += f"   {line}\n" if line else "\n"
    shown = repr(value)
    if len(shown) <= 300:
        text += f"\n   Value::\n\n      {shown}\n"
    return text


def _summary_cell(text: str) -> str:
    return text.replace("|", "\\|") or "(no summary)"


def write_pages(app) -> None:
    root = Path(app.srcdir) / "api"
    generated = root / "generated"
    generated.mkdir(parents=True, exist_ok=True)
    wanted = set()
    homes = {}  # id of a public value -> the page of the first package by concern naming it
    for package in PACKAGES[1:]:
        module = importlib.import_module(package)
        for name in public_names(package):
            homes.setdefault((id(getattr(module, name)), name), f"{package}.{name}")
    for package in PACKAGES:
        names = public_names(package)
        module = importlib.import_module(package)
        heading = f"``{package}``: {TITLES[package]}"
        lines = [heading, "=" * len(heading), ""]
        lines += [f".. py:module:: {package}", ""]
        intro = inspect.getdoc(module) or ""
        lines += [intro, ""]
        lines += [".. list-table::", "   :widths: 30 70", ""]
        own = []
        for name in names:
            # A name of the flat face that a package by concern also exports is
            # documented once, on that package's page.
            page = homes.get((id(getattr(module, name)), name)) if package == "polyforms" else None
            if page is None:
                page = f"{package}.{name}"
                own.append(page)
                body = f"{name}\n{'=' * len(name)}\n\n" + _directive(package, name)
                _write(generated / f"{page}.rst", body)
                wanted.add(f"{page}.rst")
            lines += [
                f"   * - :doc:`{name} <generated/{page}>`",
                f"     - {_summary_cell(first_paragraph(package, name))}",
            ]
        lines += ["", ".. toctree::", "   :hidden:", ""]
        lines += [f"   generated/{page}" for page in own]
        _write(root / f"{package}.rst", "\n".join(lines) + "\n")
    for stale in generated.glob("*.rst"):
        if stale.name not in wanted:
            stale.unlink()
    index = ["API reference", "=============", ""]
    index += [
        "Each package by concern names its public API in ``__all__``; the most used",
        "names are also on the flat face, ``polyforms``. Every name below is",
        "generated from its docstring (numpydoc: parameters, returns, the cost and",
        "the citation in Notes, examples that run in the test suite).",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
    ]
    index += [f"   {package}" for package in PACKAGES]
    _write(root / "index.rst", "\n".join(index) + "\n")


def _write(path: Path, text: str) -> None:
    # Unchanged pages keep their time stamp, so an incremental build skips them.
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def setup(app):
    app.connect("builder-inited", write_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
