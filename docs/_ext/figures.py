"""Pictures made when the site is built, shown beside what made them.

``.. polyforms-figure:: polyforms ARGS -o NAME.svg`` runs a command;
``.. polyforms-code-figure:: NAME.svg`` runs the Python code of its content,
which must write ``NAME.svg``. Each runs when the page is read (a second or
less), in a fresh process, writing into ``docs/_generated/`` (not in git); the
page shows the command or the code and the picture it made, so the two cannot
disagree. One that fails fails the build.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


class PolyformsFigure(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"alt": directives.unchanged}

    def run(self):
        command = " ".join(self.arguments[0].split())
        words = shlex.split(command)
        if words[0] != "polyforms" or "-o" not in words:
            raise ExtensionError(f"polyforms-figure: not 'polyforms ... -o FILE': {command}")
        name = words[words.index("-o") + 1]
        folder = Path(self.env.srcdir) / "_generated"
        folder.mkdir(exist_ok=True)
        _make(folder, [sys.executable, "-m", "polyforms", *words[1:]], name, command)
        shown = [".. code-block:: console", "", f"   $ {command}", ""]
        return _show(self, shown, name, command)


class PolyformsCodeFigure(SphinxDirective):
    required_arguments = 1
    has_content = True
    option_spec = {"alt": directives.unchanged}

    def run(self):
        name = self.arguments[0]
        code = "\n".join(self.content)
        folder = Path(self.env.srcdir) / "_generated"
        folder.mkdir(exist_ok=True)
        _make(folder, [sys.executable, "-c", code], name, f"the code making {name}")
        shown = [".. code-block:: python", "", *(f"   {line}" for line in self.content), ""]
        return _show(self, shown, name, name)


def _make(folder: Path, argv: list[str], name: str, what: str) -> None:
    """Run ``argv`` in ``folder``; it must succeed and write ``name`` there."""
    done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not (folder / name).exists():
        raise ExtensionError(f"polyforms-figure: {what} failed: {done.stderr.strip()}")


def _show(directive: SphinxDirective, shown: list[str], name: str, source: str) -> list:
    """The nodes of ``shown`` (the command or code) followed by the picture ``name``."""
    alt = directive.options.get("alt", name)
    lines = [*shown, f".. image:: /_generated/{name}", f"   :alt: {alt}", ""]
    node = nodes.container()
    nested_parse_with_titles(directive.state, StringList(lines, source=source), node)
    return node.children


def setup(app):
    app.add_directive("polyforms-figure", PolyformsFigure)
    app.add_directive("polyforms-code-figure", PolyformsCodeFigure)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
