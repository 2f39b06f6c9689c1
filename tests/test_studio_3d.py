"""polyforms studio's boxes of cubes end to end, in headless Chromium driven by Playwright.

The browser, the served studio and the page are the fixtures of
``test_studio_browser.py`` (skipped, saying why, when no Chromium is installed).
The counts are ORACLES.md's: the Soma cube 240 distinct packings; the solid
pentominoes in 2x3x10, 12.
"""

from __future__ import annotations

import gzip
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

sys.path.insert(0, str(Path(__file__).parent))
from test_studio_browser import page, studio  # noqa: E402, F401  (the shared fixtures)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fresh(page, studio) -> None:  # noqa: F811
    page.goto(studio)
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)


def canvas_image(page) -> str:  # noqa: F811
    return page.evaluate("document.querySelector('#view3d-canvas').toDataURL()")


def test_soma_cube_counts_lists_and_turns_in_the_3d_view(page, studio):  # noqa: F811
    fresh(page, studio)
    page.select_option("#lattice", "cube")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 27")
    assert not page.locator("#layers-row").is_hidden()
    assert page.input_value("#pieces") == "soma" and page.input_value("#layers") == "3"
    page.click("#count-distinct")
    page.wait_for_selector("#total", timeout=15_000)
    assert page.inner_text("#total") == "240"
    page.click("#count-all")
    page.wait_for_function("document.querySelector('#total')?.textContent === '11,520'")
    # A page of packings: each a row of three layer pictures, the first in the 3D view.
    page.click("#list")
    page.wait_for_selector("#pictures figure svg", timeout=10_000)
    assert page.locator("#pictures figure").count() == 12
    assert page.locator("#pictures figure svg").first.text_content().count("z = ") == 3
    page.wait_for_selector("#view3d:not([hidden])")
    canvas = page.locator("#view3d-canvas")
    # Whole, the box shows three of its sides, nine squares each; pulled apart, more.
    assert canvas.get_attribute("data-faces") == "27"
    before, yaw = canvas_image(page), canvas.get_attribute("data-yaw")
    box = canvas.bounding_box()
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*middle)
    page.mouse.down()
    page.mouse.move(middle[0] + 80, middle[1] + 30, steps=8)
    page.mouse.up()
    page.wait_for_function(f"document.querySelector('#view3d-canvas').dataset.yaw !== '{yaw}'")
    turned = canvas_image(page)
    assert turned != before
    page.fill("#explode", "70")
    page.dispatch_event("#explode", "input")
    page.wait_for_function("document.querySelector('#view3d-canvas').dataset.faces !== '27'")
    assert int(canvas.get_attribute("data-faces")) > 27 and canvas_image(page) != turned
    # Another packing of the page goes into the view when its picture is clicked.
    page.locator("#pictures figure").nth(2).click()
    assert "packing #3" in page.inner_text("#view3d-caption")
    screenshot = os.environ.get("POLYFORMS_STUDIO_3D_SCREENSHOT")
    if screenshot:  # docs/studio-3d.png is made this way
        page.fill("#explode", "35")
        page.dispatch_event("#explode", "input")
        page.evaluate("document.querySelector('#view3d').scrollIntoView()")
        page.screenshot(path=screenshot)
    with page.expect_download() as caught:
        page.click("#export-glb")
    assert caught.value.suggested_filename == "packing-3.glb"
    assert open(caught.value.path(), "rb").read(4) == b"glTF"
    with page.expect_download() as caught:
        page.click("#export-svg")
    assert open(caught.value.path()).read().count("z = ") == 3


def test_layers_are_added_removed_and_knocked_out(page, studio):  # noqa: F811
    fresh(page, studio)
    page.select_option("#lattice", "cube")
    page.click("#presets button[data-preset='2x3x10']")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 60")
    page.select_option("#pieces", "solid-pentominoes")
    page.click("#count-distinct")
    page.wait_for_function("document.querySelector('#total')?.textContent === '12'")
    page.click("#add-layer")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 66")
    assert page.input_value("#layers") == "11"
    page.click("#remove-layer")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 60")
    page.click("#board polygon[data-key='1,0,4']")  # a hole in layer 4
    assert page.locator("#board polygon.on").count() == 59
    page.click("#count-all")
    page.wait_for_function("document.querySelector('#result .error, #total') !== null")
    assert "60 cells but the region has 59" in page.inner_text("#result")
    page.click("#undo")
    assert page.locator("#board polygon.on").count() == 60
    # The box travels in the page's address: a reload finds it, hole and all.
    page.click("#board polygon[data-key='2,1,9']")
    page.wait_for_function("location.hash.includes('puzzle=')")
    page.wait_for_timeout(300)  # the address is rewritten 100 ms after a change
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    assert page.locator("#board polygon.on").count() == 59
    assert page.locator("#board polygon[data-key='2,1,9']:not(.on)").count() == 1
    assert page.input_value("#lattice") == "cube" and page.input_value("#layers") == "10"
    assert page.input_value("#pieces") == "solid-pentominoes"


def test_a_burrtools_file_opens_counts_and_downloads(page, studio, tmp_path):  # noqa: F811
    import polyforms
    from polyforms.files.burrtools import read_xmpuzzle, write_xmpuzzle
    from polyforms.piece_sets import PieceSet, pieces

    path = tmp_path / "soma.xmpuzzle"
    write_xmpuzzle(path, polyforms.Region.box(3, 3, 3), PieceSet(pieces("soma", dim=3),
                                                                 reflections=False))  # fmt: skip
    fresh(page, studio)
    page.set_input_files("#open-xmpuzzle", str(path))
    page.wait_for_function("document.querySelector('#status').textContent.includes('soma')")
    assert page.locator("#board polygon.on").count() == 27
    assert page.input_value("#lattice") == "cube" and page.input_value("#pieces") == "own"
    assert not page.is_checked("#reflections")
    page.click("#count-distinct")
    page.wait_for_function("document.querySelector('#total')?.textContent === '240'")
    with page.expect_download() as caught:
        page.click("#burrtools-save")
    saved = tmp_path / "saved.xmpuzzle"
    saved.write_bytes(open(caught.value.path(), "rb").read())
    assert gzip.decompress(saved.read_bytes()).startswith(b"<?xml")
    again = read_xmpuzzle(saved)
    assert again.region.size == 27 and sorted(again.pieces.names) == sorted(pieces("soma", dim=3))
