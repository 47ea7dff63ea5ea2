"""The pictures and the schedule explorer notebooks in a real browser: Debian's headless
Chromium, driven by selenium, loads them as voila serves them from a live kernel on
localhost, and the pictures notebook as nbconvert exports it.

Chromium resolves no host name (``--host-resolver-rules``), so nothing leaves the machine:
what a page would fetch from a CDN stays missing. That is why the widgets are checked on
voila's page: exported HTML loads the widget manager from a CDN (checked below), so its
controls only render where that CDN is reachable.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from notebook_runner import NOTEBOOKS, ROOT, checkout_environment, draws_a_picture, executed

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip(
        "Debian's chromium and chromium-driver are not installed "
        "(apt-get install -y chromium chromium-driver)",
        allow_module_level=True,
    )
webdriver = pytest.importorskip("selenium.webdriver", reason="the notebook extra installs selenium")
pytest.importorskip("voila", reason="the notebook extra installs voila")
pytest.importorskip("nbconvert", reason="the notebook extra installs nbconvert")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

NOTEBOOK = ROOT / "notebooks" / "pictures.ipynb"
EXPLORER = ROOT / "notebooks" / "schedule_explorer.ipynb"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
PICTURE = "return Array.from(document.images).map(i => [i.naturalWidth, i.naturalHeight])"
WIDGET_IMAGE = (
    "const i = document.querySelector('img.widget-image');"
    "return i && i.complete && i.naturalWidth > 0 ? i.src : null"
)


def _wait(condition: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"no {what} after {seconds} s")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    with tempfile.TemporaryDirectory() as profile:
        for flag in [*FLAGS, f"--user-data-dir={profile}"]:
            options.add_argument(flag)
        service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
        driver = webdriver.Chrome(service=service, options=options)
        driver.set_page_load_timeout(180)
        try:
            yield driver
        finally:
            driver.quit()


@pytest.fixture
def voila(tmp_path: Path) -> Iterator[Callable[[Path], str]]:
    """``serve(notebook)``: the notebook served by voila on a free localhost port, its URL
    (every server and its kernels stopped after the test)."""
    servers: list[subprocess.Popen] = []
    logs = []

    def serve(notebook: Path) -> str:
        port = _free_port()
        log_path = tmp_path / f"voila-{notebook.stem}.log"
        logs.append(log_path.open("w"))
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "voila",
                notebook.name,
                "--no-browser",
                f"--port={port}",
                "--Voila.ip=127.0.0.1",
            ],
            cwd=notebook.parent,
            env=checkout_environment(),
            stdout=logs[-1],
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        servers.append(server)
        _wait(lambda: _accepts(port) or server.poll() is not None, 60, "voila server")
        assert server.poll() is None, log_path.read_text()
        return f"http://127.0.0.1:{port}/"

    try:
        yield serve
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=60)
        for log in logs:
            log.close()


def _accepts(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _picture_count() -> int:
    return sum(draws_a_picture(c.source) for c in executed(NOTEBOOK).cells if c.cell_type == "code")


def _pictures(driver: Any) -> list[list[int]]:
    """Sizes of the loaded images big enough to be pictures (not icons)."""
    return [size for size in driver.execute_script(PICTURE) if size[0] > 200 and size[1] > 150]


def _not_blank(png: Path) -> float:
    """The fraction of the screenshot's pixels that are not white."""
    from matplotlib.image import imread

    pixels = imread(png)[..., :3]
    return float((pixels.min(axis=-1) < 0.95).mean())


def test_voila_shows_the_pictures_and_live_widgets(
    browser: Any, voila: Callable[[Path], str], tmp_path: Path
) -> None:
    assert NOTEBOOK in NOTEBOOKS
    expected = _picture_count()
    assert expected >= 10
    browser.get(voila(NOTEBOOK))
    before = _wait(lambda: browser.execute_script(WIDGET_IMAGE), 240, "tile picture widget")
    _wait(lambda: len(_pictures(browser)) >= expected + 1, 60, "pictures")
    assert len(_pictures(browser)) == expected + 1  # the outputs, and the widget's picture
    sliders = browser.find_elements(By.CSS_SELECTOR, ".widget-slider")
    labels = [s.find_element(By.CSS_SELECTOR, "label").text for s in sliders]
    assert labels == ["tile %i", "tile %j"]
    screenshot = tmp_path / "voila.png"
    assert browser.save_screenshot(str(screenshot))
    assert _not_blank(screenshot) > 0.02
    # the kernel is live: moving a slider redraws the tiles
    handle = sliders[0].find_element(By.CSS_SELECTOR, ".noUi-handle")
    browser.execute_script("arguments[0].scrollIntoView()", handle)
    handle.send_keys(Keys.ARROW_RIGHT)
    readout = sliders[0].find_element(By.CSS_SELECTOR, ".widget-readout")
    _wait(lambda: readout.text == "4", 30, "slider at 4")
    after = _wait(
        lambda: (src := browser.execute_script(WIDGET_IMAGE)) != before and src, 120, "redraw"
    )
    assert after.startswith("blob:")


def test_exported_html_shows_the_pictures_and_loads_widgets_from_a_cdn(
    browser: Any, tmp_path: Path
) -> None:
    from nbconvert import HTMLExporter

    html, _ = HTMLExporter().from_notebook_node(executed(NOTEBOOK))
    # the page's script adds <script src=...> for the manager when it sees a widget view
    manager = re.search(
        r"widgetRendererSrc = '(https://[^']*/@jupyter-widgets/html-manager[^']*)'", html
    )
    assert manager, "the exported page no longer loads the widget manager from a CDN"
    assert "application/vnd.jupyter.widget-state+json" in html  # the state is there
    page = tmp_path / "exported.html"
    page.write_text(html, encoding="utf-8")
    browser.get(page.as_uri())
    _wait(lambda: len(_pictures(browser)) >= _picture_count(), 60, "pictures")
    screenshot = tmp_path / "exported.png"
    assert browser.save_screenshot(str(screenshot))
    assert _not_blank(screenshot) > 0.02
    time.sleep(3)  # what the page could load, it has: the manager is out of reach
    assert not browser.find_elements(By.CSS_SELECTOR, ".widget-slider")


def test_voila_shows_the_schedule_explorer_live(
    browser: Any, voila: Callable[[Path], str], tmp_path: Path
) -> None:
    """The explorer's controls (dropdowns, sliders, the ISL text box) and its picture are on
    the page, and choosing the interchanged loop order makes the live kernel say illegal,
    naming the stencil's dependence, and redraw the picture."""
    assert EXPLORER in NOTEBOOKS
    browser.get(voila(EXPLORER))
    before = _wait(lambda: browser.execute_script(WIDGET_IMAGE), 300, "the explorer's picture")
    dropdowns = {
        d.find_element(By.CSS_SELECTOR, "label").text: d.find_element(By.CSS_SELECTOR, "select")
        for d in browser.find_elements(By.CSS_SELECTOR, ".widget-dropdown")
    }
    assert list(dropdowns) == ["nest", "fusion", "order"]
    sliders = browser.find_elements(By.CSS_SELECTOR, ".widget-slider")
    labels = [s.find_element(By.CSS_SELECTOR, "label").text for s in sliders]
    assert labels == ["%j += k·%i", "tile %i", "tile %j"]
    assert browser.find_elements(By.CSS_SELECTOR, ".widget-textarea textarea")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".widget-checkbox")) == 2
    assert len(_pictures(browser)) >= 3  # the notebook's pictures and the explorer's
    screenshot = tmp_path / "explorer.png"
    assert browser.save_screenshot(str(screenshot))
    assert _not_blank(screenshot) > 0.02
    order = Select(dropdowns["order"])
    browser.execute_script("arguments[0].scrollIntoView()", dropdowns["order"])
    order.select_by_visible_text("%j, %i")
    verdict = "return Array.from(document.querySelectorAll('.widget-html')).map(e => e.innerText)"
    shown = _wait(
        lambda: [t for t in browser.execute_script(verdict) if t.startswith("illegal")],
        120,
        "an illegal verdict",
    )
    assert "stencil.mlir:9:7" in shown[0] and "stencil.mlir:6:12" in shown[0]
    _wait(lambda: (src := browser.execute_script(WIDGET_IMAGE)) != before and src, 120, "redraw")
