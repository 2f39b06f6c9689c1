"""Choose, for each kernel, the compiled core or its readable twin.

Every kernel ``X`` has three files: the public module that dispatches, the
compiled core ``polyforms/_core/_X.pyx`` and its readable twin ``_X_py.py``
in the package of its concern, which has the same functions and classes with the same
arguments and results. :func:`kernel` is the one place that chooses:

* ``POLYFORMS_BACKEND=python`` forces every twin (the reference);
* otherwise the compiled core when it was built, and the twin when it was not,
  with one warning per process saying how to get the fast core.

================== ================================= =========================================
kernel             compiled core                     readable twin
================== ================================= =========================================
redelmeier         ``_core/_redelmeier.pyx``         ``enumeration/_redelmeier_py.py``
catalogue          ``_core/_catalogue.pyx``          ``enumeration/_catalogue_py.py``
tiling             ``_core/_tiling.pyx``             ``tiling/_tiling_py.py``
dlx                ``_core/_dlx.pyx``                ``exactcover/_exactcover_py.py``
xcbits             ``_core/_xcbits.pyx``             ``exactcover/_exactcover_py.py``
transfer           ``_core/_transfer.pyx``           ``enumeration/_transfer_py.py``
symmetric          ``_core/_symmetric.pyx``          ``enumeration/_symmetric_py.py``
polycubes          ``_core/_polycubes.pyx``          ``enumeration/_polycubes_py.py``
lattice_redelmeier ``_core/_lattice_redelmeier.pyx`` ``enumeration/_lattice_redelmeier_py.py``
================== ================================= =========================================

``lattice_redelmeier`` is Redelmeier's search on a neighbour table, for
triangles and hexagons; ``polycubes`` counts fixed polycubes below a prefix.

Both exact-cover cores (dancing links for every instance, bitsets for plain
ones) have the one reference, Algorithm X on sets, as their twin.
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType

__all__ = ["KERNELS", "backend_name", "compiled", "kernel", "report"]

KERNELS = {
    "redelmeier": "enumeration._redelmeier_py",
    "catalogue": "enumeration._catalogue_py",
    "tiling": "tiling._tiling_py",
    "dlx": "exactcover._exactcover_py",
    "xcbits": "exactcover._exactcover_py",
    "transfer": "enumeration._transfer_py",
    "symmetric": "enumeration._symmetric_py",
    "lattice_redelmeier": "enumeration._lattice_redelmeier_py",
    "polycubes": "enumeration._polycubes_py",
}
"""Each kernel's readable twin (a module of ``polyforms``)."""

_warned = False


# the values POLYFORMS_BACKEND may take, and the backend each one chooses
_BACKENDS = {
    "": "compiled",
    "auto": "compiled",
    "compiled": "compiled",
    "python": "python",
    "py": "python",
    "reference": "python",
}


def backend_name() -> str:
    """Return ``"python"`` when the reference is forced, else ``"compiled"``.

    Raises
    ------
    PolyformError
        When ``POLYFORMS_BACKEND`` holds anything else: a misspelt value
        would otherwise run the other backend without a word.
    """
    value = os.environ.get("POLYFORMS_BACKEND", "").strip().lower()
    if value not in _BACKENDS:
        from .errors import PolyformError

        raise PolyformError(
            f"POLYFORMS_BACKEND must be 'python' or 'compiled' (or unset), "
            f"not {os.environ['POLYFORMS_BACKEND']!r}"
        )
    return _BACKENDS[value]


def compiled(name: str) -> ModuleType | None:
    """Return the compiled core of kernel ``name`` (``"tiling"`` or ``"_tiling"``), or None.

    None means: use the readable twin, either because the user asked for it or
    because the extension was not built (then one warning is given).
    """
    global _warned
    name = name.lstrip("_")
    if name not in KERNELS:
        raise KeyError(f"no kernel {name!r}")
    if backend_name() == "python":
        return None
    try:
        return importlib.import_module(f"polyforms._core._{name}")
    except ImportError:
        if not _warned:
            _warned = True
            warnings.warn(
                "polyforms: the compiled core is not built, so the slow pure-Python "
                "reference is used; install a C compiler and the Python headers, then "
                "`pip install .` again, for the fast core",
                RuntimeWarning,
                stacklevel=3,
            )
        return None


def kernel(name: str) -> ModuleType:
    """The module that runs kernel ``name``: its compiled core, else its twin."""
    core = compiled(name)
    if core is not None:
        return core
    return importlib.import_module(f"polyforms.{KERNELS[name.lstrip('_')]}")


def report() -> dict[str, str]:
    """``{kernel: "compiled" | "python"}``: what each kernel runs on in this process."""
    found = {}
    for name in KERNELS:
        try:
            built = backend_name() == "compiled" and bool(
                importlib.import_module(f"polyforms._core._{name}")
            )
        except ImportError:
            built = False
        found[name] = "compiled" if built else "python"
    return found
