"""Build the compiled kernels in src/polyforms/_core (every .pyx file there).

Metadata lives in pyproject.toml; this file only declares the extensions so
that adding a kernel needs no change here.

The kernels are optional. Without a C compiler (or without Cython) the build
step says so once and installs the pure-Python package, which works with the
readable reference twins, only slower; ``polyforms`` warns once on first use.
"""

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CORE = Path("src") / "polyforms" / "_core"
DIRECTIVES = {
    "language_level": "3",
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}
HOW_TO_FIX = (
    "polyforms: the compiled core was NOT built ({why}); installing the pure-Python "
    "package, which is correct but much slower. For the fast core, install a C "
    "compiler and the Python headers (Debian: apt-get install gcc python3-dev) and "
    "run `pip install .` again."
)


def _say(why: str) -> None:
    # pip shows a build's output only with -v; stderr of a failed-but-caught build
    # is kept in the log, so say it on stderr and leave a note in the wheel too.
    sys.stderr.write("\n" + HOW_TO_FIX.format(why=why) + "\n\n")


class OptionalBuildExt(build_ext):
    """build_ext that installs the pure-Python package when compiling fails, and
    compiles the kernels on every core (pip passes no --parallel)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler at all: distutils raises early
            _say(f"{type(error).__name__}: {error}")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # CompileError, LinkError, a missing compiler
            _say(f"{ext.name}: {type(error).__name__}: {error}")


def extensions() -> list:
    sources = sorted(CORE.glob("*.pyx"))
    names = [f"polyforms._core.{pyx.stem}" for pyx in sources]
    try:
        from Cython.Build import cythonize
    except ImportError:
        _say("Cython is not installed")
        return []
    built = [
        Extension(name, [str(pyx)], extra_compile_args=["-O3"])
        for name, pyx in zip(names, sources)
    ]
    if os.environ.get("POLYFORMS_NO_COMPILE"):
        _say("POLYFORMS_NO_COMPILE is set")
        return []
    return cythonize(built, compiler_directives=DIRECTIVES, quiet=True)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
