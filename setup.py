"""Build the compiled kernels in polyforms/_core (every .pyx file there).

Metadata lives in pyproject.toml; this file only declares the extensions so
that adding a kernel needs no change here.
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

core = Path("polyforms") / "_core"
extensions = [
    Extension(
        f"polyforms._core.{pyx.stem}",
        [str(pyx)],
        extra_compile_args=["-O3"],
    )
    for pyx in sorted(core.glob("*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": "3",
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
