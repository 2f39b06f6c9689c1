"""The documentation's promises: every public name has a summary line.

The public names are each package's ``__all__`` (and ``polyforms.__all__``,
the flat face); the API reference (docs/_ext/apipages.py) shows each with its
summary line, so a name without one would be a row without text. A function,
class or module is summed up by its docstring's first line, a constant by its
attribute docstring (``#:`` comment lines above it, or a string below it).
"""

import importlib.util
import sys
from pathlib import Path

import pytest

EXT = Path(__file__).resolve().parent.parent / "docs" / "_ext"


def _publicnames():
    spec = importlib.util.spec_from_file_location("publicnames", EXT / "publicnames.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("publicnames", module)
    spec.loader.exec_module(module)
    return module


publicnames = _publicnames()

PUBLIC = [(p, n) for p in publicnames.PACKAGES for n in publicnames.public_names(p)]


def test_the_packages_name_a_public_api():
    assert len(PUBLIC) > 150
    packages = {p for p, _ in PUBLIC}
    assert packages == set(publicnames.PACKAGES)


@pytest.mark.parametrize(("package", "name"), PUBLIC, ids=[f"{p}.{n}" for p, n in PUBLIC])
def test_every_public_name_has_a_summary_line(package, name):
    assert publicnames.summary(package, name), f"{package}.{name} has no summary line"


def test_attribute_docs_are_read_as_sphinx_reads_them():
    # A #: comment above (lattice.LATTICES), a string below (exactcover.MAX_MULTIPLICITY).
    assert publicnames.summary("polyforms.lattice", "LATTICES") == "Every lattice by name."
    assert publicnames.summary("polyforms.exactcover", "MAX_MULTIPLICITY").startswith(
        "The largest multiplicity"
    )
    # A plain comment is not documentation.
    assert publicnames.attribute_doc("polyforms.cli", "_SYMMETRY_CLASSES") == ""


def test_the_command_line_page_has_an_example_for_every_command():
    sys.path.insert(0, str(EXT))
    try:
        import cli_examples  # the examples alone: no Sphinx needed
    finally:
        sys.path.remove(str(EXT))
    from polyforms.cli import _COMMANDS

    assert set(cli_examples.EXAMPLES) == set(_COMMANDS)


def test_the_command_line_examples_are_the_readmes_which_its_test_runs():
    # The commands of the README and the guide run in test_readme.py and must
    # print what they show; each example on the command-line page is one of
    # them, with the same output.
    sys.path.insert(0, str(EXT))
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        import cli_examples
        from test_readme import PAGES, shown_commands
    finally:
        sys.path.remove(str(EXT))
        sys.path.remove(str(Path(__file__).parent))

    def strip(lines):
        while lines and not lines[-1].strip():
            lines = lines[:-1]
        return lines

    text = "\n".join(page.read_text(encoding="utf-8") for page, _ in PAGES)
    readme = {}
    for page, _ in PAGES:
        for command, lines in shown_commands(page.read_text(encoding="utf-8")):
            readme.setdefault(command, strip(lines))
    for name, example in cli_examples.EXAMPLES.items():
        if name == "studio":  # serves until stopped: described, not run
            continue
        for command, lines in shown_commands(f"```\n{example}\n```"):
            if not strip(lines) and f"`{command}`" in text:
                continue  # a file-writing command the README names (and its test runs)
            assert command in readme, f"{name}: {command!r} is not in the README or the guide"
            assert strip(lines) == readme[command], f"{name}: {command!r} shows other output"
