"""Sphinx configuration of the polyforms documentation.

Build: ``pip install ".[docs]" && sphinx-build -W docs docs/_build/html``.
Offline: no intersphinx, nothing fetched. The API pages (``api/``) are written
from each package's ``__all__`` at build time (``_ext/apipages.py``) and the
command-line page is read from the argparse parser (``_ext/cliref.py``).
The package documented is the installed one (``pip install ".[docs]"``), with
its compiled cores.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import polyforms  # noqa: E402

project = "polyforms"
author = "the polyforms authors"
copyright = "the polyforms authors"
release = polyforms.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "numpydoc",
    "myst_parser",
    "apipages",
    "cliref",
    "figures",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []

# numpydoc: the docstrings' sections; members are listed by autodoc (:members:).
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

# Markdown pages: tables, $math$ off, and headings get anchors for links.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"polyforms {release}"
html_static_path: list[str] = []
html_show_sourcelink = False

# Docstrings write the order of a group as |G|, which reStructuredText reads as
# a substitution: each one stands for itself.
rst_prolog = "\n".join(f".. |{name}| unicode:: U+007C {name} U+007C" for name in ("G", "K", "H_p"))

# Options and commands keep their double hyphens and straight quotes.
smartquotes = False
