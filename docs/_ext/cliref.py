"""``.. polyforms-cli::``: the command-line reference, read from the parser itself.

The directive walks :func:`polyforms.cli.build_parser` and writes, for each
subcommand in the order of ``polyforms --help``, its description, its usage,
every argument with its help text (grouped as ``--help`` groups them) and an
example from :data:`EXAMPLES`. A command without an example fails the build, so
a new command cannot go undocumented, and the options can never drift from
what the program accepts.
"""

from __future__ import annotations

import argparse
import os
import re

from cli_examples import EXAMPLES
from docutils import nodes
from docutils.statemachine import StringList
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


def _escape(text: str) -> str:
    """Plain text as reStructuredText shows it literally."""
    return re.sub(r"([\\*`|_\[\]])", r"\\\1", text)


def _invocation(action: argparse.Action) -> str:
    formatter = argparse.HelpFormatter("polyforms")
    return formatter._format_action_invocation(action)


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    if not action.help:
        return ""
    formatter = parser._get_formatter()
    text = formatter._expand_help(action)
    return " ".join(text.split())


def command_rst(name: str, parser: argparse.ArgumentParser, summary: str) -> list[str]:
    """The reStructuredText of one subcommand."""
    title = f"polyforms {name}"
    lines = [f".. _cli-{name}:", "", title, "-" * len(title), ""]
    if summary:
        lines += [_escape(summary[0].upper() + summary[1:]) + ".", ""]
    if parser.description:
        lines += [_escape(" ".join(parser.description.split())), ""]
    usage = parser.format_usage().strip()
    lines += ["::", ""] + ["   " + line for line in usage.splitlines()] + [""]
    for group in parser._action_groups:
        actions = [a for a in group._group_actions if not isinstance(a, argparse._HelpAction)]
        if not actions:
            continue
        lines += [f"**{_escape(group.title)}**", ""]
        if group.description:
            lines += [_escape(" ".join(group.description.split())), ""]
        for action in actions:
            lines += [f"``{_invocation(action)}``"]
            help_text = _help(parser, action)
            lines += [f"   {_escape(help_text)}" if help_text else "   (no help text)", ""]
    if name not in EXAMPLES:
        raise ExtensionError(
            f"cliref: the command {name!r} has no example in docs/_ext/cli_examples.py"
        )
    lines += ["**Example**", "", ".. code-block:: console", ""]
    lines += ["   " + line if line else "" for line in EXAMPLES[name].splitlines()]
    lines += [""]
    return lines


class PolyformsCli(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        os.environ["COLUMNS"] = "90"  # the usage lines' width, whatever the terminal
        from polyforms.cli import build_parser

        parser = build_parser()
        subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        helps = {choice.dest: choice.help or "" for choice in subparsers._choices_actions}
        lines = ["::", ""] + ["   " + line for line in parser.format_help().splitlines()] + [""]
        for name, sub in subparsers.choices.items():
            lines += command_rst(name, sub, helps.get(name, ""))
        unused = set(EXAMPLES) - set(subparsers.choices)
        if unused:
            raise ExtensionError(f"cliref: examples for no command: {sorted(unused)}")
        content = StringList(lines, source="polyforms.cli.build_parser")
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, content, node)
        return node.children


def setup(app):
    app.add_directive("polyforms-cli", PolyformsCli)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
