"""polyforms studio end to end, in headless Chromium driven by Playwright.

Chromium comes from the operating system (Debian: ``apt-get install chromium
chromium-driver``, which ``.ci/run`` does); Playwright's own browsers are not
downloaded. The test skips, saying why, only when no browser is installed.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
playwright = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("POLYFORMS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"no Chromium at {CHROMIUM}: apt-get install chromium chromium-driver",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def studio():
    """The studio served by uvicorn in a thread on a free port: (url with token, app)."""
    import uvicorn

    from polyforms.studio.app import create_app
    from polyforms.studio.server import free_port, studio_url

    token, port = "browser-test-token", free_port()
    app = create_app(token)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the studio did not start"
        time.sleep(0.02)
    yield studio_url("127.0.0.1", port, token)
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def page(studio):
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 820})
        page.goto(studio)
        page.wait_for_selector("body[data-ready='1']", timeout=10_000)
        yield page
        browser.close()


def test_draw_6x10_pick_pentominoes_count_distinct_and_list(page):
    page.select_option("#lattice", "square")
    page.click("#presets button[data-preset='6x10']")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 60")
    page.select_option("#pieces", "pentominoes")
    page.click("#count-distinct")
    page.wait_for_selector("#total", timeout=15_000)
    assert page.inner_text("#total") == "2,339"
    assert "distinct tilings" in page.inner_text("#result")
    # The first page of pictures of the 6x10 tilings, with the pieces' letters.
    began = time.monotonic()
    page.click("#list")
    page.wait_for_selector("#pictures figure svg", timeout=10_000)
    first_picture = time.monotonic() - began
    print(f"first picture of a 6x10 tiling {first_picture:.3f} s after the click")
    assert first_picture < 1.0, f"first picture after {first_picture:.2f} s"
    assert page.locator("#pictures figure").count() == 12
    assert "X" in page.locator("#pictures figure svg").first.text_content()
    # Knock out the four centre cells of 8x8 by dragging and clicking: 65 tilings.
    page.click("#presets button[data-preset='8x8']")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 64")

    def centre(key: str) -> tuple[float, float]:
        box = page.locator(f"#board polygon[data-key='{key}']").bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    page.mouse.move(*centre("3,3"))  # a drag across two cells knocks both out
    page.mouse.down()
    page.mouse.move(*centre("4,3"), steps=5)
    page.mouse.up()
    assert page.locator("#board polygon.on").count() == 62
    for key in ("3,4", "4,4"):
        page.click(f"#board polygon[data-key='{key}']")
    assert page.locator("#board polygon.on").count() == 60
    page.click("#undo")
    assert page.locator("#board polygon.on").count() == 61
    page.click("#redo")
    page.click("#count-distinct")
    page.wait_for_function("document.querySelector('#total')?.textContent === '65'")
    page.click("#next")
    page.wait_for_function("document.querySelector('#page').textContent.includes('13')")
    screenshot = os.environ.get("POLYFORMS_STUDIO_SCREENSHOT")
    if screenshot:  # docs/studio.png is made this way
        page.click("#presets button[data-preset='6x10']")
        page.click("#list")
        page.wait_for_function("document.querySelector('#page').textContent.includes('–12')")
        page.screenshot(path=screenshot)


def shared_fragment(puzzle: dict) -> str:
    """The ``puzzle=`` value the page writes: base64url JSON, the board as a bit mask
    over the drawing grid's cells in the grid's order."""
    import base64
    import json

    from polyforms.studio.puzzle import grid_cells

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    grid = grid_cells(puzzle["lattice"], puzzle["rows"], puzzle["cols"])
    on = {tuple(cell) for cell in puzzle["cells"]}
    mask = bytearray((len(grid) + 7) // 8)
    for i, cell in enumerate(grid):
        if cell in on:
            mask[i >> 3] |= 1 << (i & 7)
    rest = {key: value for key, value in puzzle.items() if key != "cells"}
    return b64(json.dumps({**rest, "mask": b64(bytes(mask))}).encode())


def read_fragment(page) -> dict:
    """The puzzle the page wrote into its address, with its cells."""
    import base64
    import json
    from urllib.parse import parse_qs, urlsplit

    from polyforms.studio.puzzle import grid_cells

    def unb64(text: str) -> bytes:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

    fragment = parse_qs(urlsplit(page.url).fragment)
    value = json.loads(unb64(fragment["puzzle"][0]))
    mask = unb64(value.pop("mask"))
    grid = grid_cells(value["lattice"], value["rows"], value["cols"])
    value["cells"] = [list(c) for i, c in enumerate(grid) if mask[i >> 3] >> (i & 7) & 1]
    return {**value, "token": fragment["token"][0]}


def test_a_puzzle_in_the_address_opens_and_the_page_keeps_it_there(page, studio):
    # 3x20 by the pentominoes: 2 distinct tilings (ORACLES.md), shared by address.
    cells = [[x, y] for y in range(3) for x in range(20)]
    puzzle = {"lattice": "square", "rows": 3, "cols": 20, "pieces": "pentominoes", "cells": cells}
    page.goto(f"{studio}&puzzle={shared_fragment(puzzle)}")
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    assert page.locator("#board polygon.on").count() == 60
    assert page.input_value("#cols") == "20" and page.input_value("#pieces") == "pentominoes"
    page.click("#count-distinct")
    page.wait_for_function("document.querySelector('#total')?.textContent === '2'")
    # A change is written back into the address, beside the token.
    page.click("#board polygon[data-key='0,0']")
    page.fill("#counts", "I=0..2")
    page.dispatch_event("#counts", "change")
    before = shared_fragment(puzzle)
    page.wait_for_function(f"!location.hash.includes('{before}')")
    page.wait_for_timeout(200)
    written = read_fragment(page)
    assert written["token"] == "browser-test-token"
    assert len(written["cells"]) == 59 and [0, 0] not in written["cells"]
    assert written["counts"] == "I=0..2" and written["pieces"] == "pentominoes"
    # A damaged puzzle in the address is one line, and the page still opens.
    page.goto(f"{studio}&puzzle=not-base64!")
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    assert "the puzzle in the address is damaged" in page.inner_text("#result")


def test_colour_blind_pictures_and_export_of_a_page(page, studio):
    page.goto(studio)
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    page.click("#presets button[data-preset='3x20']")
    page.check("#colour-blind")
    page.click("#list")
    # The reloaded page shows the last listing kept by the server: wait for this one.
    page.wait_for_function(
        "document.querySelector('#page').textContent.endsWith('1–2')", timeout=10_000
    )
    assert page.locator("#pictures figure").count() == 2  # distinct: 2 (ORACLES.md)
    with page.expect_download() as caught:
        page.click("#export-jsonl")
    lines = open(caught.value.path()).read().splitlines()
    assert caught.value.suggested_filename == "tilings-1-2.jsonl" and len(lines) == 2
    with page.expect_download() as caught:
        page.click("#export-txt")
    assert open(caught.value.path()).read().count("\n\n") == 2


def fresh(page, studio: str) -> None:
    """The studio's page opened anew (the same token, so the server's runs stay)."""
    page.goto(studio)
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)


def long_count(page) -> None:
    """Start a count of 10x10 by five copies of each tetromino (days), through the
    forecast the page shows first."""
    page.select_option("#lattice", "square")
    page.fill("#rows", "10")
    page.fill("#cols", "10")
    page.click("#resize")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 100")
    page.select_option("#pieces", "tetrominoes")
    page.fill("#copies", "5")
    page.click("#count-all")
    page.wait_for_selector("#go-on", timeout=10_000)
    assert "This count may take" in page.inner_text("#result")
    page.click("#go-on")
    page.wait_for_function(
        "document.querySelector('#status').textContent.includes('%')", timeout=10_000
    )


def test_a_long_run_asks_first_shows_progress_and_stops_within_two_seconds(page, studio):
    fresh(page, studio)
    long_count(page)
    assert page.is_enabled("#stop") and page.is_visible("#bar")
    began = time.monotonic()
    page.click("#stop")
    page.wait_for_function(
        "document.querySelector('#status').textContent.includes('stopped')", timeout=2_000
    )
    assert time.monotonic() - began < 2
    assert not page.is_enabled("#stop") and page.is_enabled("#count-all")


def test_a_reload_finds_a_running_and_a_finished_run(page, studio):
    fresh(page, studio)
    long_count(page)
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    # The run goes on, its progress pushed to the reloaded page, and Stop still works.
    page.wait_for_function(
        "document.querySelector('#status').textContent.includes('%')", timeout=10_000
    )
    assert page.is_enabled("#stop")
    page.click("#stop")
    page.wait_for_function("document.querySelector('#status').textContent.includes('stopped')")
    # A finished listing and count come back with a reload.
    page.click("#presets button[data-preset='6x10']")
    page.select_option("#pieces", "pentominoes")
    page.fill("#copies", "1")
    page.dispatch_event("#copies", "change")
    page.click("#list")
    page.wait_for_function("document.querySelector('#page').textContent.endsWith('1–12')")
    page.click("#count-distinct")
    page.wait_for_selector("#total", timeout=15_000)
    assert page.inner_text("#total") == "2,339"
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    page.wait_for_selector("#total", timeout=5_000)
    assert page.inner_text("#total") == "2,339"
    assert page.locator("#pictures figure").count() == 12
    assert page.inner_text("#page").endswith("1–12")
    # So does a by-open map: 3x7 by the tetrominoes, one cell open (the map's sums
    # are checked against the library in test_studio.py).
    page.fill("#rows", "3")
    page.fill("#cols", "7")
    page.click("#resize")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 21")
    page.select_option("#pieces", "tetrominoes")
    page.click("#by-open")
    page.wait_for_function("document.querySelector('#legend').textContent.startsWith('heat')")
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    page.wait_for_function("document.querySelector('#legend').textContent.startsWith('heat')")
    coloured = "[...document.querySelectorAll('#board polygon')].filter(p => p.style.fill)"
    assert page.evaluate(f"{coloured}.length") == 21


def test_open_a_saved_puzzle_file(page, studio, tmp_path):
    from polyforms.studio.puzzle import Puzzle

    # 5x12 by the pentominoes: 1010 distinct tilings (ORACLES.md).
    cells = [[x, y] for y in range(5) for x in range(12)]
    puzzle = {"lattice": "square", "rows": 5, "cols": 12, "pieces": "pentominoes", "cells": cells}
    path = tmp_path / "five-by-twelve.json"
    path.write_text(json.dumps(Puzzle.from_json(puzzle).to_json()))
    fresh(page, studio)
    page.set_input_files("#open-file", str(path))
    page.wait_for_function("document.querySelector('#status').textContent.includes('opened')")
    assert page.inner_text("#status") == "opened five-by-twelve.json"
    assert page.locator("#board polygon.on").count() == 60
    assert page.input_value("#rows") == "5" and page.input_value("#cols") == "12"
    page.click("#count-distinct")
    page.wait_for_function("document.querySelector('#total')?.textContent === '1,010'")


def test_draw_two_pieces_and_count_with_them(page, studio):
    fresh(page, studio)
    page.select_option("#lattice", "square")
    page.fill("#rows", "2")
    page.fill("#cols", "5")
    page.click("#resize")
    page.wait_for_function("document.querySelectorAll('#board polygon.on').length === 10")
    for name, keys in (("D", ["0,0", "1,0"]), ("O", ["0,0", "1,0", "0,1", "1,1"])):
        for key in keys:
            page.click(f"#piece-grid polygon[data-key='{key}']")
        page.fill("#piece-name", name)
        page.click("#add-piece")
        page.wait_for_selector(f".custom-piece[data-name='{name}'] svg polygon")
    # A disconnected piece is refused in one line, and nothing is added.
    for key in ("0,0", "2,0"):
        page.click(f"#piece-grid polygon[data-key='{key}']")
    page.click("#add-piece")
    page.wait_for_function("document.querySelector('#result .error') !== null")
    assert "not connected" in page.inner_text("#result")
    assert page.locator(".custom-piece").count() == 2
    page.click("#clear-piece")
    # 2x5 by dominoes and 2x2 squares, any number of each: 21 (OEIS A001045).
    page.select_option("#pieces", "")
    page.fill("#counts", "D=0..,O=0..")
    page.dispatch_event("#counts", "change")
    page.click("#count-all")
    page.wait_for_function("document.querySelector('#total')?.textContent === '21'")
    # The pieces are in the address: a reload keeps them; removing one leaves the other.
    page.wait_for_function("location.hash.includes('puzzle=')")
    page.wait_for_timeout(200)
    assert [p["name"] for p in read_fragment(page)["custom"]] == ["D", "O"]
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    assert page.locator(".custom-piece").count() == 2
    assert page.input_value("#pieces") == "" and page.input_value("#counts") == "D=0..,O=0.."
    page.click(".custom-piece[data-name='O'] .remove-piece")
    page.fill("#counts", "D=5")
    page.dispatch_event("#counts", "change")
    page.click("#count-all")
    page.wait_for_function("document.querySelector('#total')?.textContent === '8'")  # Fibonacci
