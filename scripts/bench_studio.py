"""Time the studio's targets in headless Chromium: first picture, latency, a large board.

    python scripts/bench_studio.py [--repeat N] [--chromium PATH] [--screenshots DIR]

Serves ``polyforms studio --no-browser`` in a child process and drives the page
with Playwright (Chromium of the operating system, ``/usr/bin/chromium``).
Every time is taken inside the page, from the click (``performance.now()``, or
the event's own time stamp) to the animation frame after the page changed, so
it includes the server's work but not Playwright's round trips. Prints a
Markdown table of medians and worst cases; nothing here is asserted by a test.

The targets (issue 45): the first picture of a 6x10 tiling within 1 s of List;
under 100 ms per interaction during a long run; a 10,000-cell board drawn
without lag. ``--screenshots DIR`` also saves the main views as PNG files (the
pictures of ``docs/``: ``--screenshots docs``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

# Resolves with the milliseconds from the click on ``button`` to the frame after
# ``ready()`` holds (checked on each change below ``watched``).
CLICK_UNTIL = """
([button, watched, ready]) => new Promise((resolve, reject) => {
  const holds = new Function(`return (${ready})`);
  setTimeout(() => reject(new Error(`not within 30 s: ${ready}`)), 30000);
  const began = performance.now();
  const observer = new MutationObserver(() => {
    if (!holds()) return;
    observer.disconnect();
    requestAnimationFrame(() => resolve(performance.now() - began));
  });
  const what = { childList: true, subtree: true, attributes: true };
  observer.observe(document.querySelector(watched), what);
  document.querySelector(button).click();
})
""".strip()

# Installs a listener that files, for each pointerdown on the board, the
# milliseconds from the event's time stamp to the frame that paints its change.
LATENCY_PROBE = """
() => {
  window.latencies = [];
  document.getElementById("board").addEventListener("pointerdown", (event) => {
    const stamp = event.timeStamp;
    requestAnimationFrame(() => window.latencies.push(performance.now() - stamp));
  });
}
""".strip()


def serve() -> tuple[subprocess.Popen, str]:
    """``polyforms studio --no-browser`` in a child process, and its address."""
    child = subprocess.Popen(
        [sys.executable, "-m", "polyforms", "studio", "--no-browser"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    url = child.stdout.readline().strip() if child.stdout else ""
    if not url.startswith("http"):
        child.kill()
        raise SystemExit(f"the studio did not start: {url!r}")
    return child, url


def ready(page, url: str) -> None:
    page.goto(url)
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=20_000)
    time.sleep(1.0)  # the job processes' forkserver warms up in the background


def board(page, rows: int, cols: int, lattice: str = "square") -> float:
    """Draw a rows x cols board; the milliseconds from Set to the frame showing it."""
    if page.input_value("#lattice") != lattice:
        page.select_option("#lattice", lattice)
        page.wait_for_function(
            f"document.getElementById('board-info').textContent.endsWith('{lattice} grid')"
        )
    page.fill("#rows", str(rows))
    page.fill("#cols", str(cols))
    cells = rows * cols * (2 if lattice == "triangle" else 1)
    text = f"#board-info:{cells:,} cells on a {rows} × {cols} {lattice} grid"
    wanted = f"document.getElementById('board-info').textContent.startsWith('{text[12:]}')"
    page.evaluate("document.getElementById('board-info').textContent = ''")
    return page.evaluate(CLICK_UNTIL, ["#resize", "#work", wanted])


def first_picture(page) -> float:
    page.evaluate("document.getElementById('pictures').replaceChildren()")
    return page.evaluate(
        CLICK_UNTIL, ["#list", "#pictures", "document.querySelector('#pictures figure svg')"]
    )


def clicks(page, keys: list[str]) -> list[float]:
    """Click board cells; the latency of each (pointerdown to its painted frame)."""
    page.evaluate(LATENCY_PROBE)
    for key in keys:
        cell = page.locator(f"#board polygon[data-key='{key}']")
        cell.scroll_into_view_if_needed()
        box = cell.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(60)
    page.wait_for_timeout(100)
    return page.evaluate("window.latencies")


def start_long_run(page) -> None:
    """A count of 10x10 by five copies of each tetromino (days), past the forecast."""
    board(page, 10, 10)
    page.select_option("#pieces", "tetrominoes")
    page.fill("#copies", "5")
    page.click("#count-all")
    page.wait_for_selector("#go-on", timeout=10_000)
    page.click("#go-on")
    page.wait_for_function("document.getElementById('status').textContent.includes('%')")


def measure(page, url: str, repeat: int) -> list[tuple[str, list[float]]]:
    rows = []
    ready(page, url)
    board(page, 6, 10)
    rows.append(("first picture of a 6x10 tiling after List", [
        first_picture(page) for _ in range(repeat)
    ]))  # fmt: skip
    start_long_run(page)
    keys = [f"{x},{y}" for x in range(10) for y in (2, 7)][: 2 * repeat]
    rows.append(("click on a 10x10 board repainted, during a long count", clicks(page, keys)))
    page.click("#stop")
    page.fill("#copies", "1")
    page.select_option("#pieces", "pentominoes")
    rows.append(("draw a 100x100 board (10,000 squares): Set to painted", [
        board(page, 100, 100) for _ in range(max(3, repeat // 2))
    ]))  # fmt: skip
    keys = [f"{x},{y}" for x in range(5, 95, 9) for y in (10, 60)][: 2 * repeat]
    rows.append(("click on the 100x100 board repainted", clicks(page, keys)))
    rows.append(("draw a 100x100 triangle board (20,000 cells)", [
        board(page, 100, 100, "triangle") for _ in range(max(3, repeat // 2))
    ]))  # fmt: skip
    return rows


def screenshots(page, url: str, folder: str) -> None:
    """The main views: a listing, a by-open heat map, the piece editor."""
    os.makedirs(folder, exist_ok=True)
    ready(page, url)
    board(page, 6, 10)
    page.click("#list")
    page.wait_for_function("document.getElementById('page').textContent.endsWith('1–12')")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=os.path.join(folder, "studio.png"))
    # 5x5 by the five tetrominoes with five cells open: 12,760 tilings in 0.1 s.
    board(page, 5, 5)
    page.select_option("#pieces", "tetrominoes")
    page.fill("#open", "5")
    page.click("#by-open")
    page.wait_for_function("document.getElementById('legend').textContent.startsWith('heat')")
    page.click("#list")  # the pictures beside the map are of this board
    page.wait_for_function("document.getElementById('status').textContent.startsWith('list: done')")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=os.path.join(folder, "studio-by-open.png"))
    board(page, 4, 5)
    page.fill("#open", "0")
    for name, keys in (("D", ["0,0", "1,0"]), ("K", ["0,0", "0,1", "0,2", "1,2"])):
        for key in keys:
            page.click(f"#piece-grid polygon[data-key='{key}']")
        page.fill("#piece-name", name)
        page.click("#add-piece")
        page.wait_for_selector(f".custom-piece[data-name='{name}'] svg polygon")
    page.select_option("#pieces", "")
    page.fill("#counts", "D=0..,K=0..")
    page.dispatch_event("#counts", "change")
    page.click("#list")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('list: done')")
    for key in ("1,1", "2,1", "3,1", "2,2"):
        page.click(f"#piece-grid polygon[data-key='{key}']")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=os.path.join(folder, "studio-pieces.png"))


def shrink(folder: str) -> None:
    """The screenshots in 128 colours (a third of the bytes), where Pillow is installed."""
    try:
        from PIL import Image
    except ImportError:
        return
    for name in os.listdir(folder):
        if name.endswith(".png"):
            path = os.path.join(folder, name)
            image = Image.open(path).convert("RGB").quantize(128, Image.Quantize.MEDIANCUT)
            image.save(path, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    chromium = os.environ.get("POLYFORMS_CHROMIUM", "/usr/bin/chromium")
    parser.add_argument("--chromium", default=chromium)
    parser.add_argument("--screenshots", metavar="DIR")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    child, url = serve()
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 820})
            load = os.getloadavg()[0]
            rows = measure(page, url, args.repeat)
            if args.screenshots:
                screenshots(page, url, args.screenshots)
                shrink(args.screenshots)
            browser.close()
    finally:
        child.terminate()
        child.wait(10)
    print(f"load average {load:.1f} at the start; times in ms, median (worst) of n")
    print()
    print("| work | n | median | worst |")
    print("|---|---:|---:|---:|")
    for work, times in rows:
        print(f"| {work} | {len(times)} | {statistics.median(times):.0f} | {max(times):.0f} |")


if __name__ == "__main__":
    main()
