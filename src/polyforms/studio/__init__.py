"""polyforms studio: a local web app to draw a board, pick pieces and see its tilings.

``polyforms studio [FILE]`` serves :func:`~polyforms.studio.app.create_app` on
the loopback interface (:mod:`polyforms.studio.server`); the page
(``static/``: plain HTML, CSS and JavaScript, no build step) talks to the JSON
API of :mod:`polyforms.studio.app`, which checks every puzzle
(:mod:`polyforms.studio.puzzle`, :mod:`polyforms.studio.puzzle_files`) and runs
counts, listings and by-open maps in processes of their own (:mod:`polyforms.studio.jobs`,
:mod:`polyforms.studio.work`). Boxes of cubes, their 3D view, model export and
BurrTools files are :mod:`polyforms.studio.solids` and
:mod:`polyforms.studio.solid_api`. Needs the ``studio`` extra (Starlette and uvicorn).
"""

from __future__ import annotations

from .puzzle import Puzzle
from .puzzle_files import puzzle_from_json, read_puzzle, write_puzzle

__all__ = ["Puzzle", "puzzle_from_json", "read_puzzle", "write_puzzle"]
