"""Printing from the studio in headless Chromium: the Pieces button for the
pentominoes (a sheet in millimetres in a new tab) and for the Soma cube (an STL
download), a listing page exported as one SVG sheet, and a drawn piece loaded
back into the editor. The browser, the served studio and the page are the
fixtures of :mod:`test_studio_browser`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

sys.path.insert(0, str(Path(__file__).parent))
from _svg_check import parsed  # noqa: E402
from test_studio_browser import page, studio  # noqa: E402, F401  (the shared fixtures)


def fresh(page, studio) -> None:  # noqa: F811
    page.goto(studio)
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)


def test_pentomino_pieces_open_as_a_sheet_and_a_page_exports_as_svg(page, studio):  # noqa: F811
    fresh(page, studio)
    page.select_option("#lattice", "square")
    page.click("#presets button[data-preset='6x10']")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 60")
    page.select_option("#pieces", "pentominoes")
    page.fill("#print-size", "15")
    with page.context.expect_page() as opened:
        page.click("#print-pieces")
    tab = opened.value
    tab.wait_for_load_state()
    text = tab.evaluate("document.documentElement.outerHTML")
    tab.close()
    root = parsed(text)
    assert root.get("width").endswith("mm")
    assert sum(1 for e in root.iter() if e.get("class") == "piece") == 12
    page.click("#list")
    page.wait_for_selector("#pictures figure svg", timeout=10_000)
    with page.expect_download() as caught:
        page.click("#export-sheet")
    assert caught.value.suggested_filename == "tilings-1-12.svg"
    sheet = parsed(open(caught.value.path(), encoding="utf-8").read())
    assert sum(1 for e in sheet.iter() if e.get("class") == "tiling") == 12


def test_soma_pieces_download_as_an_stl_model(page, studio):  # noqa: F811
    trimesh = pytest.importorskip("trimesh")
    fresh(page, studio)
    page.select_option("#lattice", "cube")
    page.click("#presets button[data-preset='3x3x3']")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 27")
    page.select_option("#pieces", "soma")
    page.select_option("#print-format", "stl")
    page.fill("#print-size", "10")
    with page.expect_download() as caught:
        page.click("#print-pieces")
    assert caught.value.suggested_filename == "pieces.stl"
    scene = trimesh.load(caught.value.path(), file_type="stl")
    assert len(scene.geometry) == 7


def test_a_drawn_piece_loads_back_into_the_editor(page, studio):  # noqa: F811
    fresh(page, studio)
    page.select_option("#lattice", "square")
    page.click("#presets button[data-preset='6x10']")
    page.wait_for_function("document.querySelectorAll('#piece-grid polygon').length === 25")
    for key in ("0,0", "1,0"):
        page.click(f"#piece-grid polygon[data-key='{key}']")
    page.fill("#piece-name", "D")
    page.click("#add-piece")
    page.wait_for_selector(".custom-piece[data-name='D']")
    page.click(".custom-piece[data-name='D'] span")
    page.wait_for_function("document.querySelectorAll('#piece-grid polygon.on').length === 2")
    assert page.input_value("#piece-name") == "D"
    page.click("#piece-grid polygon[data-key='2,0']")
    page.click("#add-piece")
    page.wait_for_function("document.querySelector('#result').textContent.includes('replaced')")
    assert page.locator(".custom-piece").count() == 1
    assert page.locator(".custom-piece[data-name='D'] svg polygon").count() == 3
