"""Choose between a compiled kernel and its pure-Python twin.

``POLYFORMS_BACKEND=python`` forces the pure-Python reference everywhere.
Otherwise each caller asks :func:`compiled` for a module of ``polyforms._core``
and falls back to Python when it is not built, with one warning per process.
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType

__all__ = ["compiled", "backend_name"]

_warned = False


def backend_name() -> str:
    """Return ``"python"`` when the reference is forced, else ``"compiled"``."""
    value = os.environ.get("POLYFORMS_BACKEND", "").strip().lower()
    return "python" if value in ("python", "py", "reference") else "compiled"


def compiled(name: str) -> ModuleType | None:
    """Return the compiled module ``polyforms._core.<name>``, or None.

    None means: use the pure-Python reference, either because the user asked
    for it or because the extension was not built (then one warning is given).
    """
    global _warned
    if backend_name() == "python":
        return None
    try:
        return importlib.import_module(f"polyforms._core.{name}")
    except ImportError:
        if not _warned:
            _warned = True
            warnings.warn(
                "polyforms: the compiled core is not built; using the slow pure-Python "
                "reference (reinstall with `pip install .` to build it)",
                RuntimeWarning,
                stacklevel=3,
            )
        return None
