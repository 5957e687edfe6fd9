"""Debian's Chromium for the browser tests, through Playwright (never a downloaded browser)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CARDAVIA_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


@contextmanager
def launched() -> Iterator[Any]:
    """A running Chromium (the test is skipped where there is none)."""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium executable found (apt-get install chromium, or set CARDAVIA_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS)
        yield b
        b.close()
