"""The public names of polyforms and the summary line of each.

Shared by the API pages (``apipages``) and ``tests/test_docs.py``; standard
library only, so the test runs without Sphinx. A function, class or module is
summed up by the first line of its docstring; a constant (a dict, a tuple, a
lattice instance, a type alias) by its attribute docstring in the module that
assigns it: ``#:`` comment lines just above the assignment, or a string just
below it, as Sphinx's autodoc reads them.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import sys
from functools import cache
from pathlib import Path

#: The packages by concern, in the order of the API reference. Each names its
#: public API in ``__all__``. ``polyforms.studio`` names only its puzzle files,
#: which import without the ``studio`` extra.
PACKAGES = (
    "polyforms",
    "polyforms.lattice",
    "polyforms.enumeration",
    "polyforms.tiling",
    "polyforms.exactcover",
    "polyforms.jobs",
    "polyforms.files",
    "polyforms.draw",
    "polyforms.puzzles",
    "polyforms.studio",
)


def public_names(package: str) -> list[str]:
    """The names in ``package.__all__``, in that order."""
    return list(importlib.import_module(package).__all__)


def documented_by_docstring(value: object) -> bool:
    """Whether ``value`` carries its own docstring (functions, classes, modules)."""
    return inspect.isroutine(value) or inspect.isclass(value) or inspect.ismodule(value)


def summary(package: str, name: str) -> str:
    """The first line of the documentation of ``package.name`` ('' when none)."""
    lines = documentation(package, name).strip().splitlines()
    return lines[0].strip() if lines else ""


def first_paragraph(package: str, name: str) -> str:
    """The first paragraph of the documentation of ``package.name``, on one line."""
    paragraph = documentation(package, name).strip().split("\n\n")[0]
    return " ".join(paragraph.split())


def documentation(package: str, name: str) -> str:
    """The docstring of ``package.name``, or its attribute docstring for a constant."""
    value = getattr(importlib.import_module(package), name)
    if documented_by_docstring(value):
        return inspect.getdoc(value) or ""
    return attribute_doc(package, name)


def attribute_doc(module: str, name: str, depth: int = 0) -> str:
    """The attribute docstring of ``name`` where it is assigned, following the
    ``from .x import name`` re-exports of packages (their TYPE_CHECKING blocks)."""
    if depth > 8:
        return ""
    tree, is_package = _parse(module)
    if tree is None:
        return ""
    source = _source_lines(module)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return _doc_at(tree.body, node, source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == name for a in node.names):
            target = _resolve(module, is_package, node)
            if target:
                found = attribute_doc(target, name, depth + 1)
                if found:
                    return found
    return ""


def _doc_at(body: list[ast.stmt], node: ast.stmt, source: list[str]) -> str:
    comments = []
    line = node.lineno - 2  # the line above, 0-based
    while line >= 0 and source[line].strip().startswith("#:"):
        comments.insert(0, source[line].strip()[2:].strip())
        line -= 1
    if comments:
        return "\n".join(comments)
    index = body.index(node)
    if index + 1 < len(body):
        after = body[index + 1]
        if (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            return inspect.cleandoc(after.value.value)
    return ""


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


@cache
def _parse(module: str) -> tuple[ast.Module | None, bool]:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None, False
    text = Path(spec.origin).read_text(encoding="utf-8")
    return ast.parse(text), spec.submodule_search_locations is not None


@cache
def _source_lines(module: str) -> list[str]:
    spec = importlib.util.find_spec(module)
    return Path(spec.origin).read_text(encoding="utf-8").splitlines()


if __name__ == "__main__":  # list the names without a summary line
    missing = [
        f"{p}.{n}" for p in sys.argv[1:] or PACKAGES for n in public_names(p) if not summary(p, n)
    ]
    print("\n".join(missing) or "every public name has a summary line")
