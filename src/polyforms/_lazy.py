"""Lazy public names for a package (PEP 562).

Each package of polyforms names its public API in ``__all__`` and loads a
module only when one of its names is first used, so ``import polyforms`` and
the ``polyforms`` command pay only for what they run.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def attach(
    package: str, sources: dict[str, str]
) -> tuple[list[str], Callable[[str], object], Callable[[], list[str]]]:
    """Return ``__all__``, ``__getattr__`` and ``__dir__`` for ``package``.

    ``sources`` maps each public name to the module of the package (a dotted
    path below it) that defines it. Any other attribute that names a module of
    the package imports that module, as ``import package.module`` would.
    """
    names = sorted(sources)

    def __getattr__(name: str) -> object:
        if name in sources:
            value = getattr(importlib.import_module(f"{package}.{sources[name]}"), name)
        else:
            try:
                value = importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as error:
                if error.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        setattr(sys.modules[package], name, value)  # later look-ups skip this function
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return names, __getattr__, __dir__
