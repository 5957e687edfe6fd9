"""The report page in Chromium at a phone's width: nothing wider than the screen (tables
scroll inside their own box), nothing fetched, no error, every chart drawn."""

from __future__ import annotations

from pathlib import Path

import pytest
from browsers import launched

from cardavia.cli import main

pytestmark = pytest.mark.slow  # a browser (a few seconds)

playwright_api = pytest.importorskip("playwright.sync_api",
                                     reason="playwright is not installed (pip install -e '.[test]')")

@pytest.mark.parametrize("width", [390, 1200])
def test_the_compared_report_reads_on_a_phone_and_a_desktop(tmp_path: Path, width: int):
    page_file = tmp_path / "report.html"
    assert main(["report", "hk", "--compare", "hk", "--compare-seed", "9", "--deals", "12",
                 "--players", "ai,baseline,ai,random", "--out", str(page_file)]) == 0
    with launched() as browser:
        page = browser.new_page(viewport={"width": width, "height": 800})
        problems: list[str] = []
        page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        page.on("request", lambda r: problems.append(f"fetched {r.url}") if not r.url.startswith("file:") else None)
        page.goto(page_file.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        charts = page.locator("figure svg")
        assert charts.count() >= 8
        for i in range(charts.count()):
            box = charts.nth(i).bounding_box()
            assert box is not None and 0 < box["width"] <= width and box["height"] > 50
        assert page.locator("table").count() >= 8
        assert page.get_by_role("heading", name="What the deals say").is_visible()
    assert not problems, problems
