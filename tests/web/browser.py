"""A live server and Debian's Chromium for the browser tests (issue 25, «Tests in a real browser»):
Playwright for Python drives ``chromium`` from the PATH (``.ci/run`` installs it with apt-get);
in CI (``VOEVODA_NO_SKIPS=1``) a missing browser fails the run instead of skipping."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from voevoda.service import Service
from voevoda.web.app import WebSettings, create_app

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("VOEVODA_SCREENSHOTS", ROOT / "out" / "screenshots"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        message = "Debian's chromium is not installed (apt-get install chromium; .ci/run does it)"
        if os.environ.get("VOEVODA_NO_SKIPS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def live_server(service: Service, url: str) -> Iterator[str]:
    """The app on a real port of loopback, in a thread of this process; yields its address."""
    import uvicorn

    port = free_port()
    address = f"http://127.0.0.1:{port}"
    app = create_app(WebSettings(db=url, base_url=address), service=service)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield address
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def chromium() -> Iterator[Any]:
    path = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def shot(page: Any, name: str) -> Path:
    """A screenshot of the whole page, kept for CI's artefacts (out/screenshots)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
