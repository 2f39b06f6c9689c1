"""The house: lazy public names, the twin pattern's choice of kernels, start-up imports."""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys

import pytest

import polyforms
from polyforms import _backend


def test_every_public_name_is_its_module_object_even_after_every_module_is_imported():
    for info in pkgutil.iter_modules(polyforms.__path__):
        importlib.import_module(f"polyforms.{info.name}")
    for name in polyforms.__all__:
        value = getattr(polyforms, name)
        if name in polyforms._SUBMODULES:
            assert value is importlib.import_module(f"polyforms.{name}")
        else:
            source = importlib.import_module(f"polyforms.{polyforms._SOURCES[name]}")
            assert value is getattr(source, name), name


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


def test_cli_lists_the_symmetry_classes_of_the_library():
    from polyforms.cli import _SYMMETRY_CLASSES
    from polyforms.polyform import SYMMETRY_CLASSES

    assert _SYMMETRY_CLASSES == tuple(SYMMETRY_CLASSES)


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
