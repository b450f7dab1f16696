"""Fixtures for the tests of `bspedit ui`: the real server (`bspedit ui --no-browser` in a
subprocess, its address read from its first line) and a headless Chromium driven by Selenium
(Debian's chromium and chromium-driver). Tests using them skip cleanly when the `ui` extra,
selenium, chromium or chromedriver is missing.

    from ui_browser import UiServer, browser, needs_ui   # browser: a pytest fixture

    def test_x(browser, tmp_path):
        with UiServer([map_path]) as server:
            browser.get(server.url)
            ...

`BSPEDIT_UI_SCREENSHOTS=DIR` makes `screenshot(driver, name)` save DIR/ui-NAME.png.
"""
from __future__ import annotations

import http.client
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

CHROMEDRIVER = os.environ.get("BSPEDIT_CHROMEDRIVER", "/usr/bin/chromedriver")
CHROMIUM = os.environ.get("BSPEDIT_CHROMIUM") or shutil.which("chromium") or \
    shutil.which("chromium-browser") or "/usr/bin/chromium"


def _missing_ui() -> str | None:
    for module in ("starlette", "uvicorn"):
        if importlib.util.find_spec(module) is None:
            return f"the ui extra is not installed ({module})"
    return None


def _missing_browser() -> str | None:
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed"
    if not os.access(CHROMIUM, os.X_OK):
        return "no chromium"
    if not os.access(CHROMEDRIVER, os.X_OK):
        return "no chromedriver"
    return None


needs_ui = pytest.mark.skipif(_missing_ui() is not None, reason=str(_missing_ui()))
needs_browser = pytest.mark.skipif(_missing_ui() is not None or _missing_browser() is not None,
                                   reason=str(_missing_ui() or _missing_browser()))


class UiServer:
    """`bspedit ui MAPS --no-browser` running in a subprocess (a context manager): `url` (with
    the token), `port`, `token`; `request` sends raw HTTP to it; `stop` sends Ctrl-C (SIGINT)
    and returns the exit code."""

    def __init__(self, maps: list[Any], *extra: str, cwd: Path | None = None) -> None:
        self.maps = [str(m) for m in maps]
        self.extra = extra
        self.cwd = cwd
        self.process: subprocess.Popen[str] | None = None
        self.url = self.token = ""
        self.port = 0

    def start(self) -> UiServer:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bspedit", "ui", *self.maps, "--no-browser", *self.extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=self.cwd, env=env)
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        if not line.startswith("http://"):
            if self.process.poll() is None:
                self.process.kill()
            _, err = self.process.communicate(timeout=30)
            raise AssertionError(f"bspedit ui did not start: {line!r} {err!r}")
        self.url = line
        self.port = int(line.split(":")[2].split("/")[0])
        self.token = line.split("token=", 1)[1]
        return self

    def request(self, method: str, path: str, *, body: bytes | None = None,
                headers: dict[str, str] | None = None, token: bool = True,
                host: str | None = None) -> tuple[int, bytes, dict[str, str]]:
        """One raw HTTP request; `token` sends the X-Bspedit-Token header, `host` another
        Host header. Returns status, body and headers."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {"Host": host or f"127.0.0.1:{self.port}"}
        if token:
            sent["X-Bspedit-Token"] = self.token
        sent.update(headers or {})
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in sent.items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, data, {k.lower(): v for k, v in response.getheaders()}

    def stop(self) -> int:
        """Ctrl-C: the exit code (130 when it stopped as it should)."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.communicate()
        return self.process.returncode

    def __enter__(self) -> UiServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def run_script(text: str, source: Path, out: Path) -> None:
    """Run an exported script of bspedit commands (`sh SCRIPT SOURCE OUT`) with this venv's
    bspedit first on PATH."""
    script = out.parent / f"{out.stem}.sh"
    script.write_bytes(text.encode("utf-8", "surrogateescape"))
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(["sh", str(script), str(source), str(out)], capture_output=True,
                          text=True, env=env)
    assert done.returncode == 0, (text, done.stderr)


def make_driver() -> Any:
    """A headless Chromium (1280x860) driven by chromedriver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,860", "--disable-extensions", "--no-first-run"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture(scope="session")
def browser() -> Any:
    """One headless Chromium for the whole run (skips without it)."""
    reason = _missing_ui() or _missing_browser()
    if reason:
        pytest.skip(reason)
    driver = make_driver()
    yield driver
    driver.quit()


def open_page(driver: Any, server: UiServer, timeout: float = 20) -> None:
    """Load the page (the token becomes a cookie) and wait until the shell is ready."""
    driver.get(server.url)
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === '1'"),
         timeout)


def wait(driver: Any, condition: Any, timeout: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(condition)


def by_testid(driver: Any, testid: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def screenshot(driver: Any, name: str) -> Path | None:
    """Save the page as DIR/ui-NAME.png when BSPEDIT_UI_SCREENSHOTS=DIR is set."""
    folder = os.environ.get("BSPEDIT_UI_SCREENSHOTS")
    if not folder:
        return None
    path = Path(folder) / f"ui-{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    time.sleep(0.2)     # let the last frame paint
    driver.save_screenshot(str(path))
    return path
