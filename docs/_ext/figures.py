"""``.. polyforms-figure:: polyforms ARGS -o NAME.svg``: run a command, show it and its picture.

The command runs when the page is read (a second or less each), writing into
``docs/_generated/`` (not in git); the page shows the command as typed and the
picture it made, so the two cannot disagree. A command that fails fails the
build.
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
        done = subprocess.run(
            [sys.executable, "-m", "polyforms", *words[1:]],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or not (folder / name).exists():
            raise ExtensionError(f"polyforms-figure: {command} failed: {done.stderr.strip()}")
        alt = self.options.get("alt", name)
        lines = [
            ".. code-block:: console",
            "",
            f"   $ {command}",
            "",
            f".. image:: /_generated/{name}",
            f"   :alt: {alt}",
            "",
        ]
        node = nodes.container()
        nested_parse_with_titles(self.state, StringList(lines, source=command), node)
        return node.children


def setup(app):
    app.add_directive("polyforms-figure", PolyformsFigure)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
