"""The house: lazy public names, the twin pattern's choice of kernels, start-up imports."""

from __future__ import annotations

import ast
import builtins
import importlib
import importlib.util
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import polyforms
from polyforms import _backend

# The public face: every name of ``polyforms`` and every command-line flag. A name
# or flag that disappears or changes breaks users; this list is the contract.
PUBLIC_NAMES = [
    "Coloured", "DLXFormatError", "DisconnectedError", "ExactCover", "ExactCoverError",
    "ParseError", "PieceSet", "Placement", "Polyform", "PolyformError", "Region",
    "SYMMETRY_CLASSES", "SvgDrawing", "Tiling", "TilingError", "TilingProblem",
    "TooLargeError", "Transform", "UnknownNameError", "calendar_problem", "catalogue_svg",
    "count", "dilate", "draw_file", "enumerate_polyforms", "examples", "exploded_svg",
    "normalise", "packing_svg", "parse_lettered", "piece_colour", "piece_set_names",
    "pieces", "polycubes", "polyform_svg", "polyominoes", "queens_svg", "read_catalogue",
    "read_solutions", "region_svg", "symmetries", "tile", "tiling_svg", "tilings_sheet_svg",
    "write_catalogue", "write_tilings",
]  # fmt: skip
# The packages by concern, each loaded when first named (``polyforms.tiling``).
PACKAGES = ["draw", "enumeration", "exactcover", "files", "jobs", "puzzles", "tiling"]
LONG_RUN_FLAGS = ["--checkpoint", "--dask", "--estimate", "--jobs", "--progress", "--quiet"]
FLAGS = {
    "enumerate": ["--count", "--dim", "--force", "--format", "--holes", "--kind", "--method",
                  "--gap", "--no-holes", "--output", "--symmetry", "--unit", "-o",
                  *LONG_RUN_FLAGS],
    "tile": ["--by-open", "--columns", "--copies", "--count", "--distinct", "--format", "--gap",
             "--labels", "--limit", "--no-labels", "--no-reflections", "--no-rotations",
             "--no-steady", "--open", "--optional", "--output", "--palette", "--pieces",
             "--reuse", "--steady", "--unit", "-o", *LONG_RUN_FLAGS],
    "solve": ["--count", "--limit", *LONG_RUN_FLAGS],
    "draw": ["--cell", "--columns", "--dim", "--exploded", "--format", "--gap", "--labels",
             "--limit", "--no-labels", "--output", "--palette", "--symmetry", "--unit", "-o"],
    "calendar": ["--count", "--limit"],
}  # fmt: skip


def _all_modules():
    """Every module of the package, subpackages included (the compiled ones too)."""
    for info in pkgutil.walk_packages(polyforms.__path__, "polyforms."):
        yield importlib.import_module(info.name)


def eager_names(package) -> dict[str, object]:
    """The public names of ``package`` as a type checker sees them: what the
    ``if TYPE_CHECKING:`` block of its ``__init__`` imports (the eager twin of its
    lazy names), each from the module the block names; in a package without
    such a block, what its ``__init__`` defines."""
    tree = ast.parse(Path(package.__file__).read_text())
    block = next(
        (n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)),
        None,
    )
    if block is None:
        return {name: value for name, value in vars(package).items() if name in package.__all__}
    found = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom), ast.unparse(node)
        relative = "." * node.level + (node.module or "")
        module = importlib.import_module(importlib.util.resolve_name(relative, package.__name__))
        for alias in node.names:
            found[alias.asname or alias.name] = getattr(module, alias.name)
    return found


def test_the_public_names_are_those_users_rely_on():
    assert sorted(polyforms.__all__) == sorted(PUBLIC_NAMES)


def test_every_public_name_is_its_module_object_even_after_every_module_is_imported():
    for _ in _all_modules():
        pass
    eager = eager_names(polyforms)
    assert sorted(eager) == sorted(polyforms.__all__)
    for name in polyforms.__all__:
        assert getattr(polyforms, name) is eager[name], name


def test_each_package_names_its_public_api_and_every_name_resolves():
    packages = [m for m in _all_modules() if hasattr(m, "__path__")]
    assert {p.__name__ for p in packages} >= {f"polyforms.{name}" for name in PACKAGES}
    for name in PACKAGES:  # loaded when first named
        assert getattr(polyforms, name) is importlib.import_module(f"polyforms.{name}")
    for package in packages:
        private = package.__name__.rsplit(".", 1)[-1].startswith("_")
        if package is polyforms or private or package.__name__ == "polyforms.data":
            continue
        assert package.__all__, package.__name__
        eager = eager_names(package)
        assert sorted(eager) == sorted(package.__all__), package.__name__
        for name in package.__all__:
            assert getattr(package, name) is eager[name], (package.__name__, name)


def command_help(command: str, capsys, monkeypatch) -> str:
    """What ``polyforms COMMAND --help`` prints, on lines as long as it needs."""
    from polyforms.cli import build_parser

    monkeypatch.setenv("COLUMNS", "1000")
    with pytest.raises(SystemExit) as done:
        build_parser(command).parse_args([command, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_every_command_line_flag_is_still_there(capsys, monkeypatch):
    for command, flags in FLAGS.items():
        known = set()
        for line in command_help(command, capsys, monkeypatch).splitlines():
            # an option's line: "  -o FILE, --output FILE   help" (metavars in capitals)
            invocation = re.match(r"  (-\S.*?)(?:\s{2,}|$)", line)
            if invocation:
                known |= set(re.findall(r"(?<![\w-])--?[a-z][\w-]*", invocation.group(1)))
        assert set(flags) <= known, (command, sorted(set(flags) - known))


def test_no_module_is_named_after_a_builtin_or_a_standard_module():
    taken = set(sys.stdlib_module_names) | set(dir(builtins))
    clashes = [m.__name__ for m in _all_modules() if m.__name__.rsplit(".", 1)[-1] in taken]
    assert clashes == []


def test_import_and_help_load_no_search_module():
    code = (
        "import sys, polyforms.cli\n"
        "try:\n"
        "    polyforms.cli.main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = [m for m in sys.modules if m.startswith('polyforms.') and m not in "
        "('polyforms.cli', 'polyforms.errors')]\n"
        "print('LOADED', heavy, 'networkx' in sys.modules, 'typing' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    line = next(x for x in out.stdout.splitlines() if x.startswith("LOADED"))
    assert line == "LOADED [] False False"


def test_python_dash_m_runs_the_command_line():
    out = subprocess.run(
        [sys.executable, "-m", "polyforms", "enumerate", "5", "--kind", "free", "--count"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert out.stdout == "12\n"


def test_a_tiling_count_loads_no_writer():
    """A count writes nothing: neither the atomic writer nor shutil (which argparse
    would import for the terminal width) is imported."""
    code = (
        "import sys, polyforms.cli\n"
        "polyforms.cli.main(['tile', '2x5', '--pieces', 'free:2', '--reuse', '--count'])\n"
        "print('LOADED', 'polyforms._atomic' in sys.modules, 'shutil' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["8", "LOADED False False"]


def test_cli_lists_the_symmetry_classes_of_the_library(capsys, monkeypatch):
    from polyforms.polyform import SYMMETRY_CLASSES

    text = " ".join(command_help("enumerate", capsys, monkeypatch).split())
    assert f"one symmetry class: {', '.join(SYMMETRY_CLASSES)} (2D)" in text


def test_each_kernel_has_a_twin_with_the_compiled_interface():
    for name, twin_name in _backend.KERNELS.items():
        twin = importlib.import_module(f"polyforms.{twin_name}")
        try:
            core = importlib.import_module(f"polyforms._core._{name}")
        except ImportError:
            continue  # checked by the next test
        public = [n for n in dir(core) if not n.startswith("_") and callable(getattr(core, n))]
        missing = [n for n in public if not hasattr(twin, n)]
        assert not missing, f"{twin_name} lacks {missing} of _core._{name}"


def test_the_normal_install_runs_the_compiled_kernels():
    """A fail, not a skip, when the build silently left the compiled core out.

    Skipped only when the reference is forced on purpose or the install was
    made without a compiler on purpose (POLYFORMS_EXPECT_PURE=1, the second CI job).
    """
    if _backend.backend_name() == "python":
        pytest.skip("POLYFORMS_BACKEND=python forces the readable twins")
    if os.environ.get("POLYFORMS_EXPECT_PURE"):
        assert set(_backend.report().values()) == {"python"}
        return
    assert set(_backend.report().values()) == {"compiled"}, _backend.report()


def test_the_twins_are_used_when_forced(monkeypatch):
    monkeypatch.setenv("POLYFORMS_BACKEND", "python")
    for name, twin_name in _backend.KERNELS.items():
        assert _backend.kernel(name).__name__ == f"polyforms.{twin_name}"
